"""`tidy`: the groups of likely duplicate memories and the pairs that may contradict, read-only.

Each group lists its members (oldest first) with their text and why each one is there; each pair that
may contradict says what clashes. Nothing is changed: merging is the person's call, or the reviewer's
when asked (`--ask-reviewer`, `app.cli.commands.tidy_ask`), with a preview first.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import seconds
from app.cli.commands import tidy_ask
from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.store import InvalidInputError
from app.tidy.finder import find_groups
from app.tidy.model import Contradiction, Group, TidyItem, TidyReport
from app.tidy.source import active_items

TEXT_WIDTH = 90


def _member_json(item: TidyItem, group: Group) -> dict[str, Any]:
    return {
        "id": item.id,
        "content": item.text,
        "sources": list(item.sources),
        "reasons": group.reasons(item.id),
    }


def _memory_json(item: TidyItem) -> dict[str, Any]:
    return {"id": item.id, "content": item.text}


def report_json(report: TidyReport, by_id: dict[int, TidyItem]) -> dict[str, Any]:
    """The JSON of `tidy --json` (its shape is in README's command table)."""
    return {
        "memories": report.memories,
        "compared_pairs": report.compared,
        "groups": [
            {
                "score": round(group.score, 1),
                "members": [_member_json(by_id[member], group) for member in group.members],
                "edges": [edge.to_json() for edge in group.edges],
            }
            for group in report.groups
        ],
        "may_contradict": [
            {**pair.to_json(), "a": _memory_json(by_id[pair.a]), "b": _memory_json(by_id[pair.b])}
            for pair in report.contradictions
        ],
    }


def _group_lines(number: int, group: Group, by_id: dict[int, TidyItem]) -> list[str]:
    lines = [f"group {number}: {len(group.members)} memories, score {group.score:.0f}"]
    for member in group.members:
        lines.append(f"  #{member:<6} {one_line(by_id[member].text, TEXT_WIDTH)}")
        lines += [f"           {reason}" for reason in group.reasons(member)]
    return lines


def _pair_lines(pair: Contradiction, by_id: dict[int, TidyItem]) -> list[str]:
    return [
        f"  {one_line(pair.reason, TEXT_WIDTH)}",
        f"    #{pair.a:<6} {one_line(by_id[pair.a].text, TEXT_WIDTH)}",
        f"    #{pair.b:<6} {one_line(by_id[pair.b].text, TEXT_WIDTH)}",
    ]


def report_text(report: TidyReport, by_id: dict[int, TidyItem]) -> str:
    head = (
        f"{len(report.groups)} group(s) of likely duplicates and {len(report.contradictions)} pair(s) "
        f"that may contradict, among {report.memories:,} active memories"
    )
    lines = [head]
    for number, group in enumerate(report.groups, start=1):
        lines += ["", *_group_lines(number, group, by_id)]
    if report.contradictions:
        lines += ["", "may contradict (listed only; nothing is changed):"]
        for pair in report.contradictions:
            lines += _pair_lines(pair, by_id)
    return "\n".join(lines)


def cmd_tidy(args: argparse.Namespace, opener: Opener) -> int:
    if args.ask_reviewer:
        return tidy_ask.cmd_ask_reviewer(args, opener)
    if args.dry_run:
        raise InvalidInputError("--dry-run goes with --ask-reviewer (tidy alone changes nothing)")
    with opener(args, write=False) as store:
        items = active_items(store)
    report = find_groups(items)
    by_id = {item.id: item for item in items}
    if args.json:
        print_json(report_json(report, by_id))
    else:
        print(report_text(report, by_id))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add(
        "tidy", cmd_tidy, "groups of likely duplicate memories and pairs that may contradict (read-only)"
    )
    parser.add_argument("--json", action="store_true")
    tidy_ask.add_options(parser, seconds)
