"""`digest`: what changed since you last looked, grouped by who did it; `--mark-seen` moves the watermark."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import parse_when
from app.cli.registry import Opener, command_adder
from app.cli.render import one_line, print_json
from app.core.clock import format_instant
from app.core.models import ChangeKind
from app.core.models.digest import Digest, DigestChange
from app.core.screening import make_visible
from app.diff.text_diff import word_diff
from app.present.digest import headline

DIFF_CHARS = 600  # a rewrite's word diff on a terminal is cut after this many characters


def word_diff_text(old: str, new: str, limit: int = DIFF_CHARS) -> str:
    """`old` into `new` as one line of git's plain word diff (`[-removed-]{+added+}`), hidden ones shown."""
    marks = {"delete": ("[-", "-]"), "insert": ("{+", "+}")}
    parts = []
    for op in word_diff(old, new):
        start, end = marks.get(op.kind, ("", ""))
        parts.append(f"{start}{make_visible(op.text)}{end}")
    text = " ".join("".join(parts).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def change_line(change: DigestChange) -> str:
    when = format_instant(change.at)
    if change.kind == ChangeKind.CANDIDATE:
        return f"  candidate #{change.candidate_id:<6} {when}  {one_line(change.new_content or '')}"
    head = f"  #{change.memory_id:<6} {change.kind:<11} {when}"
    if change.kind == ChangeKind.REWRITTEN and change.previous_content is not None:
        return f"{head}  {word_diff_text(change.previous_content, change.new_content or '')}"
    shown = change.new_content if change.new_content is not None else change.previous_content
    return f"{head}  {one_line(shown or '')}"


def digest_text(digest: Digest, now: int) -> str:
    lines = [headline(digest, now)]
    for group, changes in digest.groups():
        lines += ["", f"{group} ({len(changes)})", *(change_line(change) for change in changes)]
    return "\n".join(lines)


def cmd_digest(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=bool(args.mark_seen)) as store:
        since = parse_when(args.since, store.now()) if args.since is not None else None
        digest = store.digest(since)
        marked = store.mark_seen(digest.upto) if args.mark_seen else None
        now = store.now()
    if args.json:
        data: dict[str, Any] = {
            "since": digest.since,
            "changes": [change.to_json() for change in digest.changes],
        }
        if marked is not None:
            data["marked_seen"] = {"at": marked.at, "revision_id": marked.revision_id}
        print_json(data)
    elif marked is not None:
        print(f"marked {len(digest.changes)} change(s) as seen (at {format_instant(marked.at)})")
    else:
        print(digest_text(digest, now))
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)
    parser = add("digest", cmd_digest, "what changed since you last looked, grouped by who did it")
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--since", metavar="WHEN", help="since an instant instead: epoch ms, ISO 8601, or back from now (2d)"
    )
    group.add_argument("--mark-seen", action="store_true", help="mark everything listed as seen")
    parser.add_argument("--json", action="store_true")
