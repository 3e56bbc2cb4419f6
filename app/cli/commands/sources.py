"""Sources and trust: `retire --source S` (everything a source contributed, dismissed or deleted as one
write) and `trust SOURCE trusted|untrusted|default` / `trust --list`.

A source `trust` is given is checked as typed, before a scheme is read into it or its ends trimmed
(`session:` and a line break would otherwise mark every session): a control character refuses it
(`app.core.trust.kept_source_problem`). Sources are printed on one line with hidden characters visible,
as the window shows them; `--json` gives them as they are."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import source_name
from app.cli.registry import Opener, command_adder
from app.cli.render import memory_json, memory_line, print_json
from app.cli.targets import id_list, memories_word
from app.commands.other import Trust
from app.commands.presence import Delete
from app.commands.runner import execute
from app.commands.status import Dismiss
from app.core.models import Memory
from app.core.trust import DEFAULT_MARK, MARKS, MAX_SOURCE_CHARS, kept_source_problem, parse_source
from app.present.card import shown_word
from app.store import InvalidInputError


def _block(title: str, memories: list[Memory], now: int) -> list[str]:
    lines = [f"  {title} ({len(memories):,}):"]
    return lines + [f"    {memory_line(memory, now)}" for memory in memories]


def cmd_retire(args: argparse.Namespace, opener: Opener) -> int:
    """Dismiss (or with --delete, delete) every memory the source contributed to; with --only, only those
    where it is the only source. --dry-run shows them and changes nothing."""
    with opener(args, write=not args.dry_run) as store:
        only, shared = store.contributions(args.source)
        chosen = only if args.only else [*only, *shared]
        ids = [memory.id for memory in chosen]
        action = "delete" if args.delete else "dismiss"
        if ids and not args.dry_run:
            retire = str(args.source)
            if args.delete:
                execute(store, Delete(ids, retire=retire), "cli")
            else:
                execute(store, Dismiss(ids, retire=retire), "cli")
        now = store.now()
    if args.json:
        print_json(
            {
                "source": args.source,
                "only": [memory_json(memory, now) for memory in only],
                "shared": [memory_json(memory, now) for memory in shared],
                "action": action,
                "dry_run": args.dry_run,
                "changed": [] if args.dry_run else ids,
            }
        )
        return 0
    lines = [f"{args.source} contributed to {memories_word(len(only) + len(shared))}"]
    lines += _block("its only source", only, now) + _block("one source among several", shared, now)
    if args.dry_run:
        lines.append(f"dry run: nothing was changed (would {action} {memories_word(len(ids))})")
    elif ids:
        lines.append(f"{action}d {memories_word(len(ids))}: {id_list(ids)}")
    else:
        lines.append("nothing to retire")
    print("\n".join(lines))
    return 0


def _shown(source: str) -> str:
    """A source on one line, whole, hidden characters visible."""
    return shown_word(source, MAX_SOURCE_CHARS)


def _mark_source(text: str) -> str:
    """The source a person typed for `trust`, refused (bad input) if it cannot be kept."""
    problem = kept_source_problem(text)
    if problem is not None:
        raise InvalidInputError(f"the source {problem}; no mark was set")
    try:
        return parse_source(text)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None


def cmd_trust(args: argparse.Namespace, opener: Opener) -> int:
    if args.list:
        if args.source is not None:
            raise InvalidInputError("trust --list takes no source")
        with opener(args, write=False) as store:
            marks = store.trust_marks()
        if args.json:
            print_json([{"source": source, "trust": trust} for source, trust in marks.items()])
        else:
            lines = [f"{_shown(source)}  {shown_word(trust)}" for source, trust in marks.items()]
            print("\n".join(lines) or "no trust marks")
        return 0
    if args.source is None or args.trust is None:
        raise InvalidInputError("trust SOURCE trusted|untrusted|default, or trust --list")
    source = _mark_source(args.source)
    with opener(args, write=True) as store:
        execute(store, Trust(source, args.trust), "cli")
    shown = "has no mark (default trust)" if args.trust == DEFAULT_MARK else f"is marked {args.trust}"
    print(f"{_shown(source)} {shown}")
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)

    parser = add("retire", cmd_retire, "dismiss (or delete) everything one source contributed")
    parser.add_argument("--source", type=source_name, required=True, help="session:ID, a scheme, or a source")
    parser.add_argument("--delete", action="store_true", help="delete them instead of dismissing them")
    parser.add_argument("--only", action="store_true", help="only memories where it is the only source")
    parser.add_argument("--dry-run", action="store_true", help="show them; change nothing")
    parser.add_argument("--json", action="store_true")

    parser = add("trust", cmd_trust, "mark a source (or a whole scheme, session:) trusted or untrusted")
    parser.add_argument("source", nargs="?", metavar="SOURCE")  # checked as typed: `_mark_source`
    parser.add_argument("trust", choices=(*MARKS, DEFAULT_MARK), nargs="?")
    parser.add_argument("--list", action="store_true", help="the marks set so far")
    parser.add_argument("--json", action="store_true")
