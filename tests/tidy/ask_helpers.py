"""Helpers for asking the reviewer about tidy's groups: a fake reviewer command and the planted file's
answers (groups #1/#2 exact, #5/#6 close; #3 and #4 may contradict)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.store import MemoryStore
from app.tidy.ask.prompt import TidyScope
from app.tidy.ask.run import prepare
from app.tidy.finder import find_groups
from app.tidy.source import active_items

MERGED = "Prefers pnpm over npm, in every project"


def fake_reviewer(tmp_path: Path, answer: str, *, expect: str = "", name: str = "reviewer.py") -> str:
    """A reviewer command: a small script that checks its prompt holds `expect` and prints `answer`."""
    path = tmp_path / name
    path.write_text(
        "import sys\n"
        "prompt = sys.stdin.read()\n"
        f"assert {expect!r} in prompt, prompt\n"
        f"sys.stdout.write({answer!r})\n",
        encoding="utf-8",
    )
    return f"{sys.executable} {path}"


def answer(document: dict[str, Any]) -> str:
    """A reviewer's answer as models print it: a sentence and one ```json block."""
    return "Here is my verdict.\n```json\n" + json.dumps(document) + "\n```\n"


def tidy_verdict(
    update: list[dict[str, Any]] | None = None, dismiss: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "promote": [],
        "update_existing": update or [],
        "dismiss_existing": dismiss or [],
        "consume_candidate_ids": [],
    }


def merge_and_settle() -> dict[str, Any]:
    """#2 merged into #1 (rewritten), and #3 ("Uses Postgres") dismissed in favour of #4 (MySQL)."""
    return tidy_verdict(
        update=[{"memory_id": 1, "content": MERGED, "candidate_ids": []}],
        dismiss=[
            {"memory_id": 2, "reason": "merged into #1"},
            {"memory_id": 3, "reason": "the project moved to MySQL"},
        ],
    )


def prompt_of(store: MemoryStore) -> tuple[str, TidyScope]:
    items = active_items(store)
    return prepare(store, find_groups(items), {item.id: item for item in items})
