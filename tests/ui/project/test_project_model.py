"""The project cards' model (checked by Qt's model tester, and its one-row updates), the delegate's
fixed height, and the texts of cards and links read from a host v80 file."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListView, QStyleOptionViewItem
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.store import MemoryStore, ProjectFilter
from tests.support.host80 import ALPHA, NOW, Seeded
from ui.project.delegate import ProjectCardDelegate
from ui.project.filters import ProjectView, matches
from ui.project.model import ID_ROLE, MEMORY_ROLE, ProjectCardModel
from ui.project.texts import card_meta, detail_lines, expiry_text, link_lines


def test_the_model_passes_qt_s_checks_and_updates_one_row(
    qtbot: QtBot, qtmodeltester: ModelTester, project_store: MemoryStore, seeded: Seeded
) -> None:
    rows = project_store.project.memories(ProjectFilter(project=ALPHA))
    model = ProjectCardModel()
    model.set_listing(rows)
    qtmodeltester.check(model)
    assert model.rowCount() == len(rows) == 18
    index = model.index(model.row_of(seeded.merged) or 0)
    assert index.data(ID_ROLE) == seeded.merged and index.data(MEMORY_ROLE).content == "Lints with ruff"
    changed = replace(index.data(MEMORY_ROLE), content="Lints with ruff and mypy")
    with qtbot.waitSignal(model.dataChanged) as signal:
        model.update_rows([changed])
    assert signal.args[0] == signal.args[1] == index  # the one row, no reset
    assert "ruff and mypy" in index.data(Qt.ItemDataRole.DisplayRole)
    model.clear()
    qtmodeltester.check(model)


def test_every_card_has_one_height(qtbot: QtBot, project_store: MemoryStore) -> None:
    rows = project_store.project.memories(ProjectFilter(project=ALPHA))
    view = QListView()
    qtbot.addWidget(view)
    model = ProjectCardModel(view)
    model.set_listing(rows)
    delegate = ProjectCardDelegate(lambda: NOW, view)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    heights = {delegate.sizeHint(option, model.index(row)).height() for row in range(model.rowCount())}
    assert len(heights) == 1


def test_half_open_expiry_and_every_status_as_it_is(project_store: MemoryStore, seeded: Seeded) -> None:
    expiring = project_store.project.memory(seeded.expiring)
    assert expiring is not None and expiring.expires_at is not None
    assert expiry_text(expiring, expiring.expires_at - 1) == "expires just now"
    assert expiry_text(expiring, expiring.expires_at) == "expired just now"  # gone at expires_at
    odd = project_store.project.memory(seeded.odd_status)
    assert odd is not None and "· deleted ·" in card_meta(odd, NOW)
    assert any(line.startswith("Never expires") for line in detail_lines(odd, NOW))


def test_link_lines_name_ids_to_link_and_say_problems(project_store: MemoryStore, seeded: Seeded) -> None:
    first, middle, last = seeded.chain
    found = project_store.project.with_links(first)
    assert found is not None
    (chain,) = link_lines(found)
    assert chain.pieces == ("superseded by ", middle, " → ", last, " (the chain's end: ", last, ")")
    looped = project_store.project.with_links(seeded.loop[0])
    assert looped is not None and any(line.problem and "loops" in line.text for line in link_lines(looped))
    garbage = project_store.project.with_links(seeded.merged_garbage)
    assert garbage is not None
    assert [line.problem for line in link_lines(garbage)] == [True]
    merged = project_store.project.with_links(seeded.merged)
    assert merged is not None
    texts = [line.text for line in link_lines(merged)]
    s1, s2 = seeded.merge_sources
    assert texts == [
        f"merged from #{s1}, #{s2}",
        f"sources: #{s1} (session ses_alpha1); #{s2} (session ses_alpha2)",
    ]


def test_filters_match_category_status_words_and_id(project_store: MemoryStore, seeded: Seeded) -> None:
    rows = project_store.project.memories(ProjectFilter(project=ALPHA))
    assert [row.id for row in matches(rows, ProjectView(status="deleted"))] == [seeded.odd_status]
    assert [row.id for row in matches(rows, ProjectView(search="NPM build"))] == [seeded.active]
    assert [row.id for row in matches(rows, ProjectView(search=f"#{seeded.beta}"))] == []  # another project
    assert len(matches(rows, ProjectView(category="PROJECT_RULES", status="active"))) == 2
