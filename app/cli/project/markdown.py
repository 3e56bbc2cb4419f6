"""The Markdown export's project memories: a section per project (its display name, its identity), then
each memory with its category, status, importance, scope and expiry, its text in a fence, and what the
reader found odd about its row.

Every value comes from the host's rows and is shown as it is, never trusted as Markdown: words on one
line with hidden characters visible (`shown_word`, `one_line`), the identity and the words as inline
code and the text in a fence, each with more backticks than the value holds, so no value can close them
early and none is read as Markdown.
"""

from __future__ import annotations

import re

from sqlalchemy import Connection, inspect

from app.cli.project.render import expired
from app.cli.render import one_line
from app.core.clock import format_instant
from app.core.screening import make_visible
from app.present.card import MALFORMED, shown_word
from app.store.project.model import ProjectMemory
from app.store.project.projects import list_projects
from app.store.project.reads import fetch_project
from app.store.project.tables import memories


def _ticks(text: str) -> int:
    """The longest run of backticks in `text`."""
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def fenced(text: str) -> list[str]:
    """`text` in a fenced block no line of it can close, hidden characters visible."""
    fence = "`" * max(3, 1 + _ticks(text))
    return [f"{fence}text", make_visible(text), fence]


def inline_code(flat: str) -> str:
    """`flat` (one line, made so by the caller) as inline code, its own backticks kept inside: a value
    shown literally, whatever Markdown it holds."""
    ticks = "`" * (1 + _ticks(flat))
    return f"{ticks} {flat} {ticks}"


def _memory(memory: ProjectMemory, now: int) -> list[str]:
    facts = [
        f"Category {inline_code(shown_word(memory.category))}",
        f"status {inline_code(shown_word(memory.status))}" + (" (expired)" if expired(memory, now) else ""),
        f"importance {memory.importance if memory.importance is not None else 'unknown'}",
        f"scope {inline_code(shown_word(memory.scope))}",
    ]
    if memory.expires_at is not None:
        facts.append(f"expires {format_instant(memory.expires_at)}")
    lines = [f"### Project memory #{memory.id}", "", " · ".join(facts), ""]
    lines += [*fenced(memory.content), ""]
    if memory.superseded_by is not None:
        lines.append(f"- Superseded by #{memory.superseded_by}")
    lines += [f"- {MALFORMED}: {make_visible(note)}" for note in memory.oddities]
    return [*lines, ""] if lines[-1] else lines


def project_sections(conn: Connection, now: int) -> list[str]:
    """Every project's memories, in the projects' order and then by id (nothing where the database has
    no `memories` table: the embedded store, an older host)."""
    if memories.name not in inspect(conn).get_table_names():
        return []
    lines: list[str] = []
    for project in list_projects(conn):
        lines += [f"## Project {one_line(project.display_name, 120)}", ""]
        lines += [f"Identity {inline_code(one_line(project.identity, 200))}", ""]
        if project.oddity:
            lines += [f"- {MALFORMED}: {make_visible(project.oddity)}", ""]
        for memory in fetch_project(conn, project.key):
            lines += _memory(memory, now)
    return lines
