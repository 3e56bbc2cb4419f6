"""The merge row of the latency bench: the preview of the last two cards on screen is opened untimed
(`ui.tidy.merge_dialog.MergeDialog`, its plan read through the store as the Tidy dialog reads it);
from the click on Apply → the card list painted with the kept card's merged text and without the
absorbed card (a listing of active memories drops it). The last two: each round merges two cards no
round merged before (the absorbed one leaves the screen and another card takes its place)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.tidy import merge
from tests.bench.window.latency_rounds import Round, _timed
from tests.bench.window.latency_window import BenchWindow
from ui.tidy.merge_dialog import MergeDialog


def merge_round(bench: BenchWindow, number: int) -> Round:
    bench.settle()
    on_screen = bench.ids_on_screen()
    if len(on_screen) < 2:
        raise RuntimeError("fewer than two cards on screen to merge")
    plan = merge.plan(bench.controller.store, on_screen[-2:])
    dialog = MergeDialog(bench.controller, plan, bench.window)
    dialog.editor.setPlainText(f"Merged {number}: {plan.draft}")
    content = dialog.editor.toPlainText()
    dialog.show()
    bench.settle()
    absorbed = plan.absorbed[0]

    def shows() -> bool:
        return bench.card_content(plan.kept) == content and absorbed not in bench.ids_on_screen()

    signals = {"merged": bench.controller.memoryChanged, "listing read": bench.controller.memoriesLoaded}
    try:
        return _timed(
            "Apply",
            lambda: QTest.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton),
            {"cards painted": bench.card_probe(shows)},
            signals,
        )
    finally:
        dialog.deleteLater()
