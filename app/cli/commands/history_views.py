"""Views of the past: `blame ID`, and memories, one memory or the profile `--as-of WHEN`."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import add_kind_options, as_of_instant, int64
from app.cli.commands import project_past
from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.core.clock import format_instant
from app.core.errors import InvalidInputError
from app.core.models import MemoryStatus
from app.core.models.as_of import MemoryAsOf, state_details
from app.core.models.blame import Blame, origin_label
from app.core.screening import make_visible
from app.store.kinds import PROJECT_MEMORIES, USER_MEMORIES

# `list --status` choices that mean the same at a past instant (the others need facts kept only for now).
AS_OF_STATUSES = ("all", "active", "dismissed", "expired", "other")


def blame_text(blame: Blame) -> str:
    """One row per sentence (or line): the revision, when, who, the text; below it, its evidence."""
    rows: list[str] = []
    for line in blame.lines:
        origin = line.origin
        revision = f"r{origin.revision_id}" if origin.revision_id is not None else "-"
        when = format_instant(origin.at) if origin.at is not None else "unknown time"
        rows.append(f"{revision:<7} {when}  {origin_label(origin)[:40]:<40} {one_line(line.text, 200)}")
        rows += [f"{'':<7} evidence {blame.evidence_text(item)}" for item in origin.candidate_ids]
    return "\n".join(rows)


def cmd_blame(args: argparse.Namespace, opener: Opener) -> int:
    kind = PROJECT_MEMORIES if project_past.wants_project(args) else USER_MEMORIES
    with opener(args, write=False) as store:
        blame = store.blame(args.id, kind=kind)
    if args.json:
        print_json(blame.to_json())
    elif not blame.lines:
        print(f"memory #{args.id} holds no text")
    else:
        print(blame_text(blame))
    return 0


def state_line(state: MemoryAsOf) -> str:
    if not state.known:
        return f"#{state.memory_id:<6} {state.unknown_note}"
    status = make_visible(state.status or "") + (" (expired)" if state.expired else "")
    gone = "" if state.exists_now else " (deleted since)"
    return f"#{state.memory_id:<6} {status:<20} {one_line(state.content or '')}{gone}"


def _matches(state: MemoryAsOf, status: str, search: str) -> bool:
    if search.strip():
        text = (state.content or "").casefold()
        if not state.known or not all(word.casefold() in text for word in search.split()):
            return False
    if status == "all" or not state.known:
        return status == "all"
    if status == "expired":
        return state.expired
    if status == "other":
        return state.status not in (MemoryStatus.ACTIVE, MemoryStatus.DISMISSED)
    return state.status == status and not state.expired


def list_as_of(args: argparse.Namespace, opener: Opener) -> int:
    if args.status not in AS_OF_STATUSES:
        raise InvalidInputError(
            f"--status {args.status} cannot be told for a past instant; use one of "
            f"{', '.join(AS_OF_STATUSES)} with --as-of"
        )
    at, states = _states_as_of(args, opener, profile=False)
    states = [state for state in states if _matches(state, args.status, args.search or "")]
    if args.json:
        print_json([state.to_json() for state in states])
        return 0
    print(f"as of {format_instant(at)}: {len(states)} memories")
    for state in states:
        print(state_line(state))
    return 0


def _states_as_of(args: argparse.Namespace, opener: Opener, *, profile: bool) -> tuple[int, list[MemoryAsOf]]:
    """The instant shown (a future one is now) and every memory, or the profile, as of `--as-of`."""
    at = as_of_instant(args.as_of)
    with opener(args, write=False) as store:
        states = store.profile_as_of(at) if profile else store.as_of(at)
        return min(at, store.now()), states


def show_as_of(args: argparse.Namespace, opener: Opener) -> int:
    at = as_of_instant(args.as_of)
    with opener(args, write=False) as store:
        state = store.memory_as_of(args.id, at)
    if args.json:
        print_json(state.to_json())
    else:
        print(state_details(state))
    return 0


def profile_as_of(args: argparse.Namespace, opener: Opener) -> int:
    at, states = _states_as_of(args, opener, profile=True)
    if args.json:
        print_json([state.to_json() for state in states])
        return 0
    print(f"# as of {format_instant(at)}")
    for state in states:
        print(f"- {make_visible(state.content or '')}" if state.known else f"? {state_line(state)}")
    return 0


def add_as_of_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--as-of",
        metavar="EPOCH_MS|ISO",
        help="as it was at this instant (epoch milliseconds or ISO 8601; a future one means now)",
    )


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("blame", cmd_blame, "each sentence (or line) of a memory with the revision that wrote it")
    parser.add_argument("id", type=int64)
    parser.add_argument("--json", action="store_true")
    add_kind_options(parser)
