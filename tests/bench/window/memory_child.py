"""Child process of the peak-memory measurement:
`python -m tests.bench.window.memory_child dashboard|bare [DB]`.

Prints one JSON line with `peak_rss` in bytes.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path


def _peak() -> int:
    """Peak RSS of this process image: VmHWM (ru_maxrss survives exec, so it would report the parent's)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


def bare() -> None:
    from PySide6.QtCore import QStringListModel
    from PySide6.QtWidgets import QApplication, QListView

    app = QApplication([])
    view = QListView()
    view.setModel(QStringListModel([f"row {n}" for n in range(50)]))
    view.resize(560, 900)
    view.show()
    app.processEvents()
    view.viewport().grab()


def dashboard(path: str) -> None:
    from PySide6.QtWidgets import QListView

    from app.store import MemoryStore
    from ui.cards.delegate import CardDelegate
    from ui.cards.listing import ViewFilter, load_listing
    from ui.cards.model import ID_ROLE, MemoryListModel
    from ui.runtime.qt_app import application

    app = application(offscreen=True)
    store = MemoryStore.open(path)
    listing = load_listing(store, ViewFilter(status="all"), [], 200)
    model = MemoryListModel()
    model.rowsWanted.connect(lambda ids: model.update_rows(store.get_many(ids)))
    model.set_listing(listing.ids, listing.rows)
    view = QListView()
    view.setModel(model)
    view.setItemDelegate(CardDelegate(store.now))
    view.setUniformItemSizes(True)
    view.resize(560, 900)
    view.show()
    for row in range(0, model.rowCount(), 200):  # every row through the model, a page at a time
        model.index(row, 0).data(ID_ROLE)
        model.index(row, 0).data()
        app.processEvents()
        if row % 5_000 == 0:
            view.scrollTo(model.index(row, 0))
            view.viewport().grab()


def main() -> None:
    from tests.bench.run import guard_none_refcount

    guard_none_refcount()
    if sys.argv[1] == "bare":
        bare()
    else:
        dashboard(sys.argv[2])
    print(json.dumps({"peak_rss": _peak()}), flush=True)
    os._exit(0)  # no interpreter teardown (PySide6 6.12 on Python 3.11 can abort in it)


if __name__ == "__main__":
    main()
