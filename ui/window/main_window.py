"""The main window: the cards, the history panel, a toolbar, menus and a status bar, wired to the controller.
Conditional logic lives in the controller and `WindowCommands`; this file lays out and connects widgets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QWidget,
)

from app.core.models import Counts, Memory
from app.core.paths import is_url
from ui.actions.window import WindowActions
from ui.cards.filter_bar import FilterBar, listing_title
from ui.cards.listing import Listing, ViewFilter
from ui.cards.model import ID_ROLE, MemoryListModel
from ui.history.panel import HistoryPanel
from ui.review.controller import ReviewController
from ui.runtime.controller import Controller
from ui.runtime.live_refresh import DatabaseWatcher, ServerWatcher, watch_database
from ui.runtime.looks import SinceLastLook
from ui.widgets.action_icons import apply_action_icons
from ui.widgets.column import column
from ui.window.card_column import CardColumn
from ui.window.card_wiring import connect_cards
from ui.window.commands import WindowCommands
from ui.window.file_problem import banner_text, reopen_action, title_note
from ui.window.keyboard import install_keyboard
from ui.window.menus import build_menus
from ui.window.past_page import PastPage
from ui.window.projects import ProjectSwitch
from ui.window.recent_files import recent_databases, remember_database
from ui.window.side_windows import QueueWindow, open_digest
from ui.window.state import default_size, restore_window, save_window
from ui.window.status_line import ErrorBanner, MessageBar, StatusLine
from ui.window.toolbar import build_toolbar
from ui.window.welcome import WelcomePage

if TYPE_CHECKING:
    from app.core.models.digest import Digest
    from ui.dialogs.digest import DigestDialog
    from ui.past.view import AsOfView
    from ui.review.queue import ReviewQueue

MINUTE_MS = 60_000
AnyIndex = QModelIndex | QPersistentModelIndex


class MainWindow(QMainWindow):
    def __init__(
        self, controller: Controller, *, settings: QSettings | None = None, watch: bool = True
    ) -> None:
        super().__init__()
        self.controller = controller
        self.review = ReviewController(controller)
        self.settings = settings or QSettings("memory-dashboard", "memory-dashboard")
        self.acts = WindowActions(self)
        self.commands = WindowCommands(self)
        self.model = MemoryListModel(self)
        self.watch = watch
        self.watcher: DatabaseWatcher | ServerWatcher | None = None
        self._select_after_listing: int | None = None
        self._shown_filter: ViewFilter | None = None  # the filter of the listing the cards show
        self.queue_window = QueueWindow(self.review, self.acts.run_review, self)
        self._build()
        self._connect()
        build_menus(self)
        self.looks = SinceLastLook(controller, self.model, self)
        self.looks.digestReady.connect(self.show_digest)
        self.acts.digest.triggered.connect(self.looks.show_now)
        self.acts.import_file.triggered.connect(self._import_file)
        self.minute = QTimer(self)  # relative times move on, the file is looked at, expiry swept
        self.minute.setInterval(MINUTE_MS)
        self.minute.timeout.connect(self._each_minute)
        if controller.facts_known:  # else once the launch's first screen has said (`know_store`)
            self.know_store()
        if not restore_window(self, self.splitter, self.settings):
            self.resize(default_size(self.screen().availableGeometry().size()))

    # -- layout ----------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle("Memory Dashboard")
        c = self.controller
        now = c.now  # the store's clock, read without opening it (the launch opens it after this frame)
        self.left = CardColumn(
            self.model, now, self.acts.card_actions, self.acts.restore_deleted, c.memoriesLoaded, self
        )
        self.list, self.cards, self.no_match = self.left.list, self.left.cards, self.left.no_match
        self.list_header, self.title_row = self.left.header, self.left.title_row
        self.panel = HistoryPanel(self.list.shown_time, self)  # one instant for the cards and the panel
        self.splitter: QSplitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(self.panel)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([600, 500])
        self.welcome = WelcomePage(self)
        self.welcome.set_new_memory_action(getattr(self.acts, "new_memory", None))  # added in parallel
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.splitter)
        self.pages.addWidget(self.welcome)
        self.banner = ErrorBanner(self)
        self.setCentralWidget(column(QWidget(self), self.banner, self.pages))
        self.filters = FilterBar(self, now=self.controller.now)
        self.left.add_filter_row(self.filters.more)
        self.toolbar = build_toolbar(self, self.filters, self.acts)
        self.addToolBar(self.toolbar)
        self.setStatusBar(MessageBar(self))
        self.status = StatusLine(self.statusBar())

    def _connect(self) -> None:
        c, a = self.controller, self.acts
        connect_cards(self)  # rows and links, both ways
        c.wanted_ids = self.list.visible_ids
        c.memoriesLoaded.connect(self._listing_loaded)
        c.memoryChanged.connect(self._memory_changed)
        c.historyLoaded.connect(self.panel.set_history)
        c.revisionLoaded.connect(self.panel.set_revision)
        c.countsChanged.connect(self._counts_changed)
        c.error.connect(self._show_error)
        c.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        c.undoChanged.connect(self._undo_changed)
        c.storeChanged.connect(self.know_store)
        c.fileProblemChanged.connect(self._file_problem_changed)
        self.model.dataChanged.connect(self._rows_changed)
        self.model.rowsRemoved.connect(lambda *_: self._current_changed(self.list.currentIndex()))
        self.list.selectionModel().currentChanged.connect(
            lambda current, _old: self._current_changed(current)
        )
        self.list.selectionModel().selectionChanged.connect(
            lambda *_: self._update_actions(self.selected_memory())
        )
        self.panel.provenance.sourceAction.connect(self.commands.source_action)
        # Not `activated`: Return/Enter are the Edit action's shortcuts, and on single-click styles
        # `activated` fires on one click. A double-click edits everywhere.
        self.list.doubleClicked.connect(lambda _index: self.commands.edit())
        self.panel.historyWanted.connect(c.load_history)
        self.panel.provenance.fetch_evidence = c.load_evidence  # the candidates' words, from the archive
        tips = self.list.card_delegate.evidence_tips
        tips.fetch, tips.store_key = c.load_evidence, lambda: c.store_identity  # opens nothing
        self.panel.revisionWanted.connect(c.load_revision)
        self.panel.restoreRequested.connect(c.restore)
        self.panel.blameWanted.connect(c.load_blame)
        c.blameLoaded.connect(self.panel.set_blame)
        self.past = PastPage(
            c,
            self.pages,
            self.splitter,
            self.list,
            self.filters,
            actions_changed=lambda: self._update_actions(None),
            back_to_now=lambda: self._current_changed(self.list.currentIndex()),
        )
        install_keyboard(self.filters, self.list, self.panel, a.find)
        self.projects = ProjectSwitch(c, self.pages, self.splitter, self.title_row, self.list.shown_time)
        self.projects.bind(a, self.filters, self.list, lambda: self._update_actions(self.selected_memory()))
        self.projects.route(a, self.status, blame=self.panel.show_blame, as_of=self.past.ask)
        self.filters.filterChanged.connect(self._filter_changed)
        self.welcome.openDatabaseRequested.connect(self.commands.open_database)
        self.welcome.openRecentRequested.connect(c.open_database)
        self.welcome.openDemoRequested.connect(self.commands.open_demo)
        self.commands.bind(a)
        a.refresh.triggered.connect(self.refresh)
        a.next.triggered.connect(lambda: self.list.move_selection(1))
        a.previous.triggered.connect(lambda: self.list.move_selection(-1))
        a.review_queue.triggered.connect(self.show_queue)
        a.quit.triggered.connect(self.close)
        a.undo.setEnabled(False)

    @property
    def as_of_view(self) -> AsOfView:
        """The page showing the past (As of…), built the first time it is asked for."""
        return self.past.view

    # -- state -----------------------------------------------------------------------------------------

    def selected_memory(self) -> Memory | None:
        memory_id = self.list.current_id()
        return self.model.memory(memory_id) if memory_id is not None else None

    def select_id(self, memory_id: int, *, center: bool = False) -> bool:
        return self.list.select_id(memory_id, center=center)

    def selected_ids(self) -> list[int]:
        return self.list.selected_ids()

    def show_source(self, source: str) -> None:
        self.filters.set_source(source)

    def select_revision(self, memory_id: int, revision_id: int) -> bool:
        """Select a memory's card and, once its history is listed, one of its revisions (its diff shown)."""
        self.panel.want_revision(memory_id, revision_id)
        return self.select_id(memory_id, center=True)

    def refresh(self) -> None:
        self.controller.refresh()
        self.controller.load_candidates()

    @property
    def queue(self) -> ReviewQueue:
        """The review queue's window, built the first time it is asked for (not before the first frame)."""
        return self.queue_window.window

    def show_queue(self) -> None:
        self.queue_window.show(self.selected_memory())

    def show_digest(self, digest: Digest) -> DigestDialog:
        """The digest over the window; its changes open their cards here."""
        now, mark_seen = self.controller.now, self.looks.mark_seen
        self.digest_dialog = open_digest(digest, now, self, self.open_card, mark_seen)
        return self.digest_dialog

    def open_card(self, memory_id: int) -> None:
        """Select a digest's memory; one the filter hides is shown under All, the search cleared."""
        if self.select_id(memory_id, center=True):
            return
        self._select_after_listing = memory_id
        widgets = (self.filters.search, self.filters.status)
        for widget in widgets:
            widget.blockSignals(True)
        self.filters.search.clear()
        self.filters.set_status("all")
        for widget in widgets:
            widget.blockSignals(False)
        self._filter_changed(self.filters.current())
        self.statusBar().showMessage(f"All memories listed, to show #{memory_id}", 8000)

    # -- as of: the past, read-only (`PastPage`) ------------------------------------------------------

    @property
    def looking_back(self) -> bool:
        return self.past.shown

    def ask_as_of(self) -> None:
        self.past.ask()

    def look_back(self, asked: int) -> None:
        self.past.look_back(asked)

    def leave_as_of(self) -> None:
        self.past.leave()

    def _import_file(self) -> None:
        from ui.dialogs.import_file import choose_and_import  # its modules load with the first use

        choose_and_import(self.controller, self)

    def _filter_changed(self, flt: ViewFilter) -> None:
        if self.looking_back:
            self.as_of_view.set_filter(flt)  # and the listing of now follows the toolbar, for the way back
        self.model.set_highlighted(())
        self.list.forget_ahead()  # a move past the end of another listing
        self.controller.set_filter(flt)

    def _listing_loaded(self, listing: Listing) -> None:
        anchor, looked_at = self.list.scroll_anchor(), self.list.current_on_screen()
        ahead = self.list.listing_arrived(listing.complete, same=listing.filter == self._shown_filter)
        self.model.set_listing(listing.ids, listing.rows)
        self.list.keep_anchor(anchor)
        if looked_at and listing.filter != self._shown_filter and not listing.filter.search:
            self.list.show_current()  # back to browsing: the card looked at stays in view (not under
            # a search: its hits are what a person looks at)
        self._shown_filter = listing.filter
        self.filters.listing_arrived(listing.filter)
        self.list.viewport().update()  # one paint per listing, even when it lists what was shown already
        self.cards.setCurrentIndex(0 if listing.ids else 1)
        self.list_header.setText(listing_title(listing))
        wanted, self._select_after_listing = self._select_after_listing, None
        if wanted is not None and self.select_id(wanted):
            return
        if self.list.go_ahead(ahead):
            return
        if not self.list.currentIndex().isValid() and listing.ids:
            self.select_id(listing.ids[0])
        self._current_changed(self.list.currentIndex())

    def _current_changed(self, index: AnyIndex) -> None:
        memory_id = int(index.data(ID_ROLE)) if index.isValid() else None
        memory = self.model.memory(memory_id) if memory_id is not None else None
        if memory is None or self.panel.memory is None or memory.id != self.panel.memory.id:
            self.panel.show_memory(memory, reading=memory_id)
        self._update_actions(memory)

    def _rows_changed(self, top: QModelIndex, bottom: QModelIndex, _roles: object = None) -> None:
        current = self.list.currentIndex()
        if current.isValid() and top.row() <= current.row() <= bottom.row():
            memory = self.model.memory(int(current.data(ID_ROLE)))
            if memory is not None:
                if self.panel.memory is None or self.panel.memory.id != memory.id:
                    self.panel.show_memory(memory)
                else:
                    self.panel.update_memory(memory)
            self._update_actions(memory)

    def _memory_changed(self, memory: Memory) -> None:
        if self.model.row_of(memory.id) is None:
            self._select_after_listing = memory.id  # a new memory: select it once listed
        self.model.update_rows([memory])
        self.panel.update_memory(memory)

    def _update_actions(self, memory: Memory | None) -> None:
        self.acts.enable_for(
            memory,
            writable=not self.controller.read_only,
            many=self.list.selected_count() > 1,
            reviewing=self.review.running,
            can_undo=bool(self.controller.undo_label),
            looking_back=self.looking_back,
        )
        self.projects.restrict()  # a project shown: the user cards' writers stay off

    def _undo_changed(self, label: str) -> None:
        self.acts.set_undo_label(label)
        self.acts.undo.setEnabled(bool(label) and not self.controller.read_only and not self.looking_back)

    def _counts_changed(self, counts: Counts) -> None:
        self.status.set_counts(counts)
        self.acts.set_candidate_count(counts.candidates)
        empty = counts.total == 0
        if empty:
            self.welcome.set_database(self.controller.facts.location, recent_databases(self.settings))
        if not self.looking_back and not self.projects.shown:
            self.pages.setCurrentIndex(1 if empty else 0)

    def _show_error(self, text: str) -> None:
        self.banner.show_error(text, reopen_action(self.controller))
        self.statusBar().showMessage(text, 10_000)

    def know_store(self, _store: object = None) -> None:
        """Another database (or the first, maybe not open yet: what the controller knows of it is enough
        here): nothing of the one before is shown; its state (name, read-only or not), its watcher."""
        self.leave_as_of()  # the past shown was another database's
        self.model.clear()
        self.panel.show_memory(None)
        self._show_write_state()
        self.banner.hide()  # whatever it said was about the database that was open before
        location = self.controller.facts.location
        if Path(location).exists():
            remember_database(self.settings, location)
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.deleteLater()
        c = self.controller
        changed, busy = c.refresh_if_changed_elsewhere, lambda: c.runner.busy
        self.watcher = watch_database(location, self, changed, busy) if self.watch else None
        self._update_actions(self.selected_memory())
        self.minute.start()  # from here: a launch still waiting for its store never opens it to sweep

    def _show_write_state(self) -> None:
        """Read-only, or its file deleted or replaced: the title, status bar, panel and actions say why."""
        problem, facts = self.controller.file_problem, self.controller.facts
        location = facts.location
        reason = facts.read_only_reason or problem
        self.status.set_database(location, reason)
        self.panel.set_read_only(reason)
        self.acts.set_store_state(reason, self.review.configured_command())
        shown = location if is_url(location) else Path(location).name  # a server: its URL
        self.setWindowTitle(f"Memory Dashboard — {shown}{title_note(self.controller)}")

    def _file_problem_changed(self, problem: str | None) -> None:
        self._show_write_state()
        self._update_actions(self.selected_memory())
        if problem is None:
            self.banner.hide()
            return
        self.banner.show_error(banner_text(self.controller, problem), reopen_action(self.controller))

    def _each_minute(self) -> None:
        self.list.shown_time.tick()  # relative times move on, on the cards and in the panel alike
        self.controller.check_file()
        self.controller.sweep()

    # -- persistence -----------------------------------------------------------------------------------

    def save_state(self) -> None:
        save_window(self, self.splitter, self.settings)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "left"):
            self.left.retint(self.palette())  # the system switched light/dark
            apply_action_icons(self.acts, self.palette())

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.controller.idle_indexing.stop()
        if self.watcher is not None:
            self.watcher.stop()
        super().closeEvent(event)
