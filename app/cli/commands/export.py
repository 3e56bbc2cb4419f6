"""`export`: every memory with its provenance and revisions, as JSON or Markdown."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from app.cli.opener import database_files
from app.cli.render import compartments, memory_json, one_line
from app.cli.safe_output import check_output, write_bytes
from app.core.card import card_meta
from app.core.clock import format_instant
from app.core.models import Memory, Revision
from app.core.screening import make_visible
from app.store import MemoryStore
from app.transfer.export_format import EXPORT_FORMAT, EXPORT_VERSION


def export_data(store: MemoryStore) -> dict[str, Any]:
    now = store.now()
    memories = []
    for memory in store.list_memories():
        item = memory_json(memory, now)
        item["revisions"] = [revision.to_json() for revision in store.history(memory.id, observe=False)]
        memories.append(item)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": now,
        "database": store.location,
        "memories": memories,
    }


def _markdown_memory(memory: Memory, revisions: list[Revision], now: int) -> list[str]:
    lines = [f"## Memory #{memory.id}", "", f"*{card_meta(memory, now)}*", ""]
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", memory.content)), default=0))
    lines += [f"{fence}text", make_visible(memory.content), fence, ""]
    lines += [f"- Malformed: {note}" for note in memory.oddities]  # notes come escaped
    lines.append(f"- Sources: {', '.join(map(one_line, memory.sources))} (trust: {memory.trust})")
    for entry in memory.provenance or ():
        lines.append(
            f"- Candidate #{entry.candidate_id}: session `{one_line(entry.session_id, 80)}`, "
            f"compartments {compartments(entry.compartment_start, entry.compartment_end)}, "
            f"{one_line(entry.origin)}"
        )
    if memory.unknown_provenance_ids:
        lines.append(f"- Provenance unknown: {', '.join(map(str, memory.unknown_provenance_ids))}")
    if revisions:
        lines += ["", "Revisions:", ""]
        for revision in revisions:
            run = f", run `{one_line(revision.run_id, 80)}`" if revision.run_id else ""
            lines.append(
                f"1. {format_instant(revision.changed_at)}: {revision.kind} by {revision.source}{run}"
            )
    lines.append("")
    return lines


def export_markdown(store: MemoryStore) -> str:
    now = store.now()
    lines = ["# Memories", "", f"Exported {format_instant(now)} from `{store.location}`.", ""]
    for memory in store.list_memories():
        lines += _markdown_memory(memory, store.history(memory.id, observe=False), now)
    return "\n".join(lines)


def export_command(args: argparse.Namespace, opener: Any) -> int:
    with opener(args, write=False) as store:
        databases = database_files(store)
        if args.output:  # refused before the work, and checked again when written
            check_output(args.output, databases=databases, force=args.force)
        if args.format == "json":
            text = json.dumps(export_data(store), indent=2, ensure_ascii=False) + "\n"
        else:
            text = export_markdown(store)
    if args.output:
        write_bytes(args.output, text.encode("utf-8"), databases=databases, force=args.force)
        print(f"exported to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
