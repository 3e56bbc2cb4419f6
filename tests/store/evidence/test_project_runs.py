"""A host dreamer run is credited with the project-memory changes observed inside its window and of its
own project (`app.store.evidence.project_runs`), marked inferred; the Runs list and `runs show` say so."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from app.cli import main
from tests.support.dream_rewrite import rewrite_in_a_dream_run
from tests.support.host80 import ALPHA, HOUR


def test_changes_in_a_dream_runs_window_are_attributed_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "context.db"
    scenario = rewrite_in_a_dream_run(path)
    store, run, seeded, during = scenario.store, scenario.run, scenario.seeded, scenario.during
    with closing(sqlite3.connect(path)) as host, host:
        # Another project's change in the same window is not this run's.
        host.execute(
            "UPDATE memories SET content = 'Beta uses Go 1.24', updated_at = ? WHERE id = ?",
            (during, seeded.beta),
        )
    store.observe()
    runs = {found.run_id: found for found in store.runs()}
    mine = runs[f"host:{run}"]
    assert mine.project_inferred == 1 and mine.project_path == ALPHA
    assert "1 project memory change" in mine.counts_line()
    assert f"host:{seeded.run}" not in runs  # an earlier run with nothing observed is no review run
    detail = store.run(f"host:{run}")
    assert [(c.revision.memory_id, c.inferred, c.memory_kind) for c in detail.project_changes] == [
        (seeded.active, True, "project")
    ]
    assert detail.changes == ()  # no user memory is touched (an undo of the run touches none)
    store.close()
    monkeypatch.setenv("MEMORY_DASHBOARD_NOW", str(during + 3 * HOUR))
    assert main(["--db", str(path), "runs", "show", f"host:{run}", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [item["memory_id"] for item in shown["project_changes"]] == [seeded.active]
    assert main(["--db", str(path), "runs", "show", f"host:{run}"]) == 0
    assert f"project memory #{seeded.active} (inferred)" in capsys.readouterr().out
