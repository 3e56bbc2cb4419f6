"""Which memories a writer acts on: ids (`dismiss 3 4 5`) or a filter (`--status`, `--search`,
`--source`), never both; the writer then acts on all of them in one transaction, all or nothing."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from app.cli.arguments import int64, source_name
from app.core.models.filters import STATUS_FILTERS, StatusFilter
from app.store import InvalidInputError, MemoryFilter, MemoryStore

SHOWN_IDS = 20  # ids named in a summary line


def add_target_options(parser: argparse.ArgumentParser) -> None:
    """Positional ids, or the filter options that choose them."""
    parser.add_argument("ids", type=int64, nargs="*", metavar="ID", help="the memories to act on")
    where = parser.add_argument_group("or every memory that matches (instead of ids)")
    where.add_argument("--status", choices=STATUS_FILTERS, help="memories of this status filter")
    where.add_argument("--search", metavar="TEXT", help="memories whose text has every word (or #ID)")
    where.add_argument("--source", type=source_name, help="memories of this source or scheme")


def chosen_ids(store: MemoryStore, args: argparse.Namespace, *, deleted: bool = False) -> list[int]:
    """The ids given, or those the filter selects (in the listing's order); refused when neither or both."""
    status: StatusFilter | None = "deleted" if deleted else getattr(args, "status", None)
    search, source = getattr(args, "search", None), getattr(args, "source", None)
    filtering = any(value is not None for value in (getattr(args, "status", None), search, source))
    ids: list[int] = list(args.ids)
    if ids and filtering:
        raise InvalidInputError("give ids or --status/--search/--source, not both; nothing was changed")
    if ids:
        return ids
    if not filtering and not (deleted and search is not None):
        raise InvalidInputError("name the memories: ids, or --status/--search/--source")
    flt = MemoryFilter(status=status or "all", search=search or "", source=source or "")
    found = store.list_ids(flt)
    if not found:
        raise InvalidInputError("no memory matches; nothing was changed")
    return found


def id_list(ids: Sequence[int]) -> str:
    """`#3, #4, #5` (the first `SHOWN_IDS`, then how many more)."""
    shown = ", ".join(f"#{i}" for i in ids[:SHOWN_IDS])
    return shown + (f" and {len(ids) - SHOWN_IDS:,} more" if len(ids) > SHOWN_IDS else "")


def memories_word(count: int) -> str:
    return f"{count:,} memor{'y' if count == 1 else 'ies'}"
