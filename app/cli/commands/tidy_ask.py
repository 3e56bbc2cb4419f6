"""`tidy --ask-reviewer`: the reviewer's answer about tidy's groups, previewed, then applied as a run.

The preview comes first: each update as a word diff of the memory's text (`[-old-]{+new+}`), each
dismissal with its text and reason, the links the run would make. `--dry-run` stops there; otherwise the
answer is applied under the review's lease and listed in `runs` (undone with `runs undo RUN`). A reviewer
that fails, times out or answers what is not a fitting verdict is a message, and nothing is changed.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.commands.digest import word_diff_text
from app.cli.registry import Opener
from app.cli.render import one_line, print_json
from app.core.settings import load_settings
from app.present.plural import counted
from app.review.apply import ApplyResult
from app.review.runner import resolve_command
from app.store import InvalidInputError
from app.tidy.ask.run import ProposedChange, TidyProposal, apply_proposal, ask, prepare
from app.tidy.finder import find_groups
from app.tidy.source import active_items

NOTHING_TO_ASK = "nothing to ask: tidy found no likely duplicates and no pair that may contradict"
NO_CHANGE = "the reviewer proposes no change; nothing was changed"


def _change_line(change: ProposedChange) -> str:
    if change.new is None:
        reason = f"  (reason: {one_line(change.reason, 60)})" if change.reason else ""
        return f"  #{change.memory_id:<6} dismiss  {one_line(change.old, 90)}{reason}"
    return f"  #{change.memory_id:<6} update   {word_diff_text(change.old, change.new)}"


def preview_lines(proposal: TidyProposal) -> list[str]:
    """The answer as a person reads it before anything is applied."""
    asked = len(proposal.scope.groups)
    left_out = proposal.scope.left_out
    head = f"asked the reviewer about {counted(asked, 'group')}" + (
        f" ({left_out} left out for room)" if left_out else ""
    )
    lines = [head, f"its answer changes {counted(len(proposal.changes), 'memory')}:"]
    lines += [_change_line(change) for change in proposal.changes]
    if proposal.links:
        lines.append("links: " + "; ".join(link.phrase() for link in proposal.links))
    if proposal.notes:
        lines.append(f"noted ({len(proposal.notes)}):")
        lines += [f"  - {note}" for note in proposal.notes]
    return lines


def _change_json(change: ProposedChange) -> dict[str, Any]:
    action = "dismiss" if change.dismissal else "update"
    return {
        "memory_id": change.memory_id,
        "action": action,
        "old": change.old,
        "new": change.new,
        "reason": change.reason,
    }


def _json(proposal: TidyProposal, dry_run: bool, result: ApplyResult | None) -> dict[str, Any]:
    return {
        "asked_groups": [list(group.members) for group in proposal.scope.groups],
        "left_out": proposal.scope.left_out,
        "changes": [_change_json(change) for change in proposal.changes],
        "links": [
            {"from_id": link.from_id, "to_id": link.to_id, "relation": link.relation.value}
            for link in proposal.links
        ],
        "notes": list(proposal.notes),
        "dry_run": dry_run,
        "run": None if result is None else result.summary(),
    }


def _timeout(args: argparse.Namespace, default: float) -> float:
    timeout = float(args.timeout) if args.timeout is not None else default
    if timeout <= 0:
        raise InvalidInputError("--timeout must be a positive number of seconds")
    return timeout


def cmd_ask_reviewer(args: argparse.Namespace, opener: Opener) -> int:
    settings = load_settings()
    command = resolve_command(args.reviewer, settings)
    timeout = _timeout(args, settings.reviewer_timeout_s)
    with opener(args, write=not args.dry_run) as store:
        items = active_items(store)
        prompt, scope = prepare(store, find_groups(items), {item.id: item for item in items})
        if not scope.groups:
            print_json({"asked_groups": [], "changes": []}) if args.json else print(NOTHING_TO_ASK)
            return 0
        proposal = ask(store, prompt, scope, command, timeout_s=timeout, allow_hidden=args.allow_hidden)
        result = None
        if proposal.changes and not args.dry_run:
            result = apply_proposal(store, proposal, holder=args.holder)
    if args.json:
        print_json(_json(proposal, args.dry_run, result))
        return 0
    lines = preview_lines(proposal)
    if not proposal.changes:
        lines.append(NO_CHANGE)
    elif result is None:
        lines.append("dry run: nothing was changed")
    else:
        lines.append(f"run {result.run_id}: {result.counts_line()} (undo: runs undo {result.run_id})")
    print("\n".join(lines))
    return 0


def add_options(parser: argparse.ArgumentParser, seconds: Any) -> None:
    """`tidy`'s options for asking the reviewer."""
    parser.add_argument(
        "--ask-reviewer",
        action="store_true",
        help="send the groups to the reviewer command, preview its answer, then apply it as a run",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="with --ask-reviewer: preview only, change nothing"
    )
    parser.add_argument(
        "--reviewer", metavar="COMMAND", help="prompt on stdin, verdict on stdout (default: from settings)"
    )
    parser.add_argument(
        "--timeout", type=seconds, metavar="S", help="seconds to wait (default: from settings)"
    )
    parser.add_argument("--holder", metavar="ID", help="the lease holder to record (default: this process)")
    parser.add_argument(
        "--allow-hidden", action="store_true", help="accept content with invisible, bidi or tag characters"
    )
