"""`export`: every memory with its provenance and revisions, and every project memory, as JSON or Markdown."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from app.cli.opener import database_files
from app.cli.project.markdown import fenced, project_sections
from app.cli.render import (
    EvidenceFound,
    compartments,
    memory_json,
    one_line,
    revision_json,
)
from app.cli.safe_output import check_output, write_bytes
from app.core.clock import format_instant
from app.core.models import Memory, Revision
from app.core.models.evidence import evidence_json, evidence_words, memory_candidate_ids
from app.present.card import card_meta
from app.store import MemoryStore
from app.store.project.exporting import exported_project_memories
from app.transfer.export_format import EXPORT_FORMAT, EXPORT_VERSION


def _with_evidence(store: MemoryStore) -> tuple[list[Memory], dict[int, list[Revision]], EvidenceFound]:
    """Every memory, its revisions, and the archived words of every candidate they name."""
    memories = store.list_memories()
    histories = {memory.id: store.history(memory.id) for memory in memories}
    ids = [item for memory in memories for item in memory_candidate_ids(memory)]
    ids += [
        item for revisions in histories.values() for revision in revisions for item in revision.candidate_ids
    ]
    return memories, histories, store.evidence(ids)


def export_data(store: MemoryStore) -> dict[str, Any]:
    now = store.now()
    memories = []
    listed, histories, found = _with_evidence(store)
    for memory in listed:
        item = memory_json(memory, now)  # provenance entries as the host holds them (an import reads them)
        item["evidence"] = {str(i): evidence_json(found.get(i)) for i in memory_candidate_ids(memory)}
        item["revisions"] = [revision_json(revision, found) for revision in histories[memory.id]]
        memories.append(item)
    with store.read_snapshot() as conn:
        projects = exported_project_memories(conn)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": now,
        "database": store.location,
        "memories": memories,
        "project_memories": projects,
    }


def _markdown_memory(memory: Memory, revisions: list[Revision], now: int, found: EvidenceFound) -> list[str]:
    lines = [f"## Memory #{memory.id}", "", f"*{card_meta(memory, now)}*", ""]
    lines += [*fenced(memory.content), ""]
    lines += [f"- Malformed: {note}" for note in memory.oddities]  # notes come escaped
    lines.append(f"- Sources: {', '.join(map(one_line, memory.sources))} (trust: {memory.trust})")
    for entry in memory.provenance or ():
        lines.append(
            f"- Candidate #{entry.candidate_id}: session `{one_line(entry.session_id, 80)}`, "
            f"compartments {compartments(entry.compartment_start, entry.compartment_end)}, "
            f"{one_line(entry.origin)}: {evidence_words(found.get(entry.candidate_id))}"
        )
    if memory.unknown_provenance_ids:
        lines.append(f"- Provenance unknown: {', '.join(map(str, memory.unknown_provenance_ids))}")
        lines += [f"  - #{i}: {evidence_words(found.get(i))}" for i in memory.unknown_provenance_ids]
    if revisions:
        lines += ["", "Revisions:", ""]
        for revision in revisions:
            run = f", run `{one_line(revision.run_id, 80)}`" if revision.run_id else ""
            lines.append(
                f"1. {format_instant(revision.changed_at)}: {revision.kind} by {revision.source}{run}"
            )
            lines += [f"   - #{i}: {evidence_words(found.get(i))}" for i in revision.candidate_ids]
    lines.append("")
    return lines


def export_markdown(store: MemoryStore) -> str:
    now = store.now()
    lines = ["# Memories", "", f"Exported {format_instant(now)} from `{store.location}`.", ""]
    listed, histories, found = _with_evidence(store)
    for memory in listed:
        lines += _markdown_memory(memory, histories[memory.id], now, found)
    with store.read_snapshot() as conn:
        projects = project_sections(conn, now)
    if projects:
        lines += ["# Project memories", "", *projects]
    return "\n".join(lines)


FORMATS = ("json", "markdown")


def export_text(store: MemoryStore, fmt: str) -> str:
    """The export in `fmt` (one of `FORMATS`), as `export` writes it and File → Export… saves it."""
    if fmt == "json":
        return json.dumps(export_data(store), indent=2, ensure_ascii=False) + "\n"
    return export_markdown(store)


def export_command(args: argparse.Namespace, opener: Any) -> int:
    with opener(args, write=False) as store:
        databases = database_files(store)
        if args.output:  # refused before the work, and checked again when written
            check_output(args.output, databases=databases, force=args.force)
        text = export_text(store, args.format)
    if args.output:
        write_bytes(args.output, text.encode("utf-8"), databases=databases, force=args.force)
        print(f"exported to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
