"""Tidy over project memories on a host file of schema v80: groups within one project and category,
never across projects or categories; archived memories are not read."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store import MemoryStore
from app.tidy import scoped
from app.tidy.model import TidyItem
from app.tidy.scoped import Scope, find_in_scopes
from app.tidy.source import UnknownProject, project_scopes
from tests.support import host80
from tests.support.host80 import ALPHA, BETA
from tests.support.tidy_memories import GAMMA, project_db


def test_groups_stay_within_one_project_and_category(tmp_path: Path) -> None:
    ids = project_db(tmp_path / "context.db")
    store = MemoryStore.open(tmp_path / "context.db")
    try:
        scopes = project_scopes(store)
    finally:
        store.close()
    assert [(scope.name, scope.category) for scope in scopes] == [
        ("beta", "ARCHITECTURE"),
        (ALPHA, "ARCHITECTURE"),
        (ALPHA, "GOTCHA"),
    ]
    assert ids["alpha_archived"] not in {item.id for scope in scopes for item in scope.items}
    moves: list[tuple[int, int]] = []
    found = find_in_scopes(scopes, lambda done, total: moves.append((done, total)))
    groups = {
        (scoped.scope.project, scoped.scope.category): [group.members for group in scoped.report.groups]
        for scoped in found
    }
    # The same text in beta, in alpha's gotchas and archived in alpha joins no group of alpha's.
    assert groups == {
        (ALPHA, "ARCHITECTURE"): [(ids["alpha_lint"], ids["alpha_lint_again"])],
        (ALPHA, "GOTCHA"): [],
        (BETA, "ARCHITECTURE"): [(ids["beta_runs"], ids["beta_runs_again"])],
    }
    alpha = found[1]
    assert (alpha.scope.project, alpha.scope.category) == (ALPHA, "ARCHITECTURE")
    assert [(pair.a, pair.b) for pair in alpha.report.contradictions] == [
        (ids["alpha_pnpm"], ids["alpha_npm"])
    ]
    assert moves[-1] == (3 * 8, 3 * 8)


def test_a_project_is_picked_by_identity_or_by_a_name_of_its_own(tmp_path: Path) -> None:
    project_db(tmp_path / "context.db")
    conn = host80.connect(tmp_path / "context.db")
    host80.add_memory(conn, GAMMA, "Deploys on Fridays")
    conn.commit()
    conn.close()
    store = MemoryStore.open(tmp_path / "context.db")
    try:
        assert {scope.project for scope in project_scopes(store, ALPHA)} == {ALPHA}
        assert {scope.project for scope in project_scopes(store, GAMMA)} == {GAMMA}
        for wanted, message in (("beta", "more than one project is called 'beta'"), ("nope", "no project")):
            try:
                project_scopes(store, wanted)
            except UnknownProject as exc:
                assert str(exc).startswith(message)
            else:
                raise AssertionError(wanted)
    finally:
        store.close()


def test_scopes_share_one_pair_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many small scopes compare together no more pairs than one run over as many memories would."""
    monkeypatch.setattr(scoped, "PAIR_BUDGET", 3_000)
    scopes = [
        Scope(
            f"dir:/src/p{project}",
            f"p{project}",
            "ARCHITECTURE",
            tuple(TidyItem(100 * project + n, f"alpha note{n} word{n}x") for n in range(60)),
        )
        for project in range(3)
    ]
    found = find_in_scopes(scopes)
    # Alone, each scope would compare all 1,770 pairs of its one common block.
    assert sum(each.report.compared for each in found) <= 3_000
