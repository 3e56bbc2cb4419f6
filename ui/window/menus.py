"""The menu bar (File, Edit, Memory, View, Review, Help), built from the window's actions."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from ui.runtime.hub_publishing import HubPublishing
from ui.widgets.plain_tip import plain_tip
from ui.window.parts import WindowParts
from ui.window.recent_files import recent_databases
from ui.window.undo_menu import UndoMenu


def build_menus(window: WindowParts) -> None:
    a = window.acts
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(a.open_database)
    recent = file_menu.addMenu("Open &recent")
    recent.setToolTipsVisible(True)

    def fill_recent() -> None:
        recent.clear()
        paths = recent_databases(window.settings)
        for path in paths:
            action = recent.addAction(path)
            action.setToolTip(plain_tip(f"Open {path}"))
            action.triggered.connect(lambda _checked=False, p=path: window.controller.open_database(p))
        if not paths:
            recent.addAction("(none yet)").setEnabled(False)

    recent.aboutToShow.connect(fill_recent)
    file_menu.addAction(a.open_demo)
    file_menu.addAction(a.open_hub)
    a.open_hub.triggered.connect(lambda: open_hub(window))
    file_menu.addAction(a.import_file)
    file_menu.addAction(a.export_file)
    a.export_file.triggered.connect(lambda: export_memories(window))
    file_menu.addAction(a.hub_settings)
    install_hub_publishing(window)
    file_menu.addSeparator()
    file_menu.addAction(a.quit)
    edit_menu = bar.addMenu("&Edit")
    UndoMenu(window, edit_menu)  # Undo, Redo, Undo history (a child of the window)
    edit_menu.addAction(a.preferences)
    memory = bar.addMenu("&Memory")
    memory.addAction(a.new_memory)
    memory.addSeparator()
    for action in (a.edit, a.dismiss, a.reactivate, a.delete, a.expiry, a.restore_deleted):
        memory.addAction(action)
    view = bar.addMenu("&View")
    for action in (a.find, a.refresh, a.next, a.previous):
        view.addAction(action)
    view.addSeparator()
    view.addAction(a.pick_project)
    view.addAction(a.blame)
    view.addAction(a.as_of)
    view.addAction(a.digest)
    view.addAction(a.tidy)
    a.tidy.triggered.connect(lambda: show_tidy(window))
    review = bar.addMenu("&Review")
    review.addAction(a.review_queue)
    review.addAction(a.run_review)
    review.addAction(a.runs)
    a.runs.triggered.connect(lambda: show_runs(window))
    help_menu = bar.addMenu("&Help")
    help_menu.addAction(a.shortcuts)
    help_menu.addAction(a.about)
    a.about.triggered.connect(lambda: show_about(window))
    for menu in (file_menu, edit_menu, memory, view, review, help_menu):
        menu.setToolTipsVisible(True)


def install_hub_publishing(window: WindowParts) -> HubPublishing:
    """The window's hub publisher (File → Hub… opens its dialog; its timer publishes while the window is
    open; the status bar says when it last published). A dismissal the hub requested lists again."""
    publishing = HubPublishing(
        lambda: window.controller.store,
        window.statusBar(),
        window.window(),
        # never opening it while a launch waits to know it, nor a launch's store that was refused
        ready=lambda: window.controller.facts_known and window.controller.refused is None,
    )
    publishing.finished.connect(lambda report: window.controller.refresh() if report.dismissed else None)

    def show() -> None:
        from ui.dialogs.hub_settings import show_hub_settings

        show_hub_settings(publishing, window.window())

    window.acts.hub_settings.triggered.connect(show)
    return publishing


def export_memories(window: WindowParts) -> None:
    """File → Export…: the save dialog, then the export (its modules load with the first use)."""
    from ui.dialogs.export_file import choose_and_export

    choose_and_export(window.controller, window.window())


def open_hub(window: WindowParts) -> None:
    """File → Open hub…: the URL asked (the saved hub's at first), then `open_hub_at`."""
    from ui.hub.opening import ask_hub_url

    ask_hub_url(window.window(), lambda url: open_hub_at(window, url))


def open_hub_at(window: WindowParts, url: str) -> None:
    """A hub window on `url` over this one; Copy to this machine writes to the database this window has
    open (none when it is read-only), which then shows the copy."""
    from app.core.paths import DatabaseChoice
    from ui.hub.opening import open_hub_window

    c = window.controller  # what it knows of its store: a launch's store may not be open (or may be refused)
    local = None if c.read_only else DatabaseChoice(c.facts.location, "--db")
    hub = open_hub_window(url, local, window.window())
    hub.copiedHere.connect(window.controller.refresh)


def show_runs(window: WindowParts) -> None:
    """The Runs window (one per main window), its runs read afresh each time it is shown."""
    from ui.dialogs.runs import RunsDialog

    dialog = window.window().findChild(RunsDialog)
    if dialog is None:
        dialog = RunsDialog(window.controller, window.select_revision, window.window())
    dialog.reload()
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()


def show_tidy(window: WindowParts) -> None:
    """View → Tidy…: a new search for duplicates each time (the memories may have changed since)."""
    from ui.tidy.dialog import TidyDialog

    dialog = TidyDialog(window.controller, window.window())
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.openMemory.connect(window.open_card)
    dialog.openProjectMemory.connect(window.projects.show_memory)
    dialog.show()
    dialog.start()


def show_about(window: WindowParts) -> None:
    import platform

    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    from app import __version__

    text = (
        f"Memory Dashboard {__version__}\n\n"
        "See, review and restore the long-term memories your AI coding agent keeps about you.\n\n"
        f"Database: {window.controller.facts.location}\n"
        f"Qt {qVersion()} · PySide6 {pyside_version} · Python {platform.python_version()}\n\n"
        "Memory Dashboard is MIT licensed. Qt and PySide6 are used under the LGPLv3."
    )
    box = QMessageBox(QMessageBox.Icon.Information, "About Memory Dashboard", text, parent=window.window())
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.open()
