"""The main window: the card list on the left, the history panel on the right, a toolbar, menus and a
status bar, wired to the controller. Conditional logic lives in the controller and `WindowCommands`;
this file lays out widgets and connects signals.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QMainWindow,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.models import Counts, Memory, MemoryStatus
from app.core.paths import is_url
from ui.actions.window import WindowActions
from ui.cards.card_list import CardList
from ui.cards.filter_bar import FilterBar, listing_title
from ui.cards.listing import Listing, ViewFilter
from ui.cards.model import ID_ROLE, MemoryListModel
from ui.cards.trash_restore import TitleRow
from ui.history.panel import HistoryPanel, plain_label, tint
from ui.past.listing import PastListing
from ui.review.controller import ReviewController
from ui.runtime.controller import Controller
from ui.runtime.live_refresh import DatabaseWatcher, ServerWatcher
from ui.runtime.looks import SinceLastLook
from ui.widgets.action_icons import apply_action_icons
from ui.widgets.theme import muted_text
from ui.window.commands import WindowCommands
from ui.window.keyboard import install_keyboard
from ui.window.menus import build_menus
from ui.window.recent_files import recent_databases, remember_database
from ui.window.state import restore_window, save_window
from ui.window.status_line import ErrorBanner, MessageBar, StatusLine
from ui.window.toolbar import build_toolbar
from ui.window.welcome import WelcomePage

if TYPE_CHECKING:
    from app.store import MemoryStore
    from app.store.read.digest import Digest
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
        self._as_of_view: AsOfView | None = None  # built when the past is first asked for
        self._queue: ReviewQueue | None = None  # built when first opened
        self._build()
        self._connect()
        build_menus(self)
        self.looks = SinceLastLook(controller, self.model, self)
        self.looks.digestReady.connect(self.show_digest)
        self.acts.digest.triggered.connect(self.looks.show_now)
        self.acts.import_file.triggered.connect(self._import_file)
        self._store_changed(controller.store)
        self._restore_state()
        self._timers()

    # -- layout ----------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle("Memory Dashboard")
        self.list = CardList(self.model, self.controller.store.now, self)
        self.list.addActions(self.acts.card_actions)
        self.no_match = plain_label("No memories match this filter.")
        self.no_match.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.cards = QStackedWidget(self)
        self.cards.addWidget(self.list)
        self.cards.addWidget(self.no_match)
        self.list_header = plain_label(wrap=False)
        self.list_header.setContentsMargins(14, 8, 8, 2)
        tint(self.list_header, muted_text(self.palette()))
        self.left = QWidget(self)
        left_layout = QVBoxLayout(self.left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(0)
        self.title_row = TitleRow(
            self.list_header, self.acts.restore_deleted, self.controller.memoriesLoaded, self
        )
        left_layout.addWidget(self.title_row)
        left_layout.addWidget(self.cards, 1)
        self.panel = HistoryPanel(self.controller.store.now, self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
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
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self.filters = FilterBar(self, now=lambda: self.controller.store.now())
        left_layout.insertWidget(0, self.filters.more)
        self.toolbar = build_toolbar(self, self.filters, self.acts)
        self.addToolBar(self.toolbar)
        self.setStatusBar(MessageBar(self))
        self.status = StatusLine(self.statusBar())

    def _connect(self) -> None:
        c, a = self.controller, self.acts
        self.model.rowsWanted.connect(c.fetch_rows)
        c.wanted_ids = self.list.visible_ids
        c.memoriesLoaded.connect(self._listing_loaded)
        c.rowsLoaded.connect(self.model.update_rows)
        c.rowsFailed.connect(self.model.forget_pending)
        c.memoryChanged.connect(self._memory_changed)
        c.memoryRemoved.connect(self.model.remove_id)
        c.historyLoaded.connect(self.panel.set_history)
        c.revisionLoaded.connect(self.panel.set_revision)
        c.countsChanged.connect(self._counts_changed)
        c.error.connect(self._show_error)
        c.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        c.undoChanged.connect(self._undo_changed)
        c.storeChanged.connect(self._store_changed)
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
        tips.fetch, tips.store_key = c.load_evidence, lambda: c.store
        self.panel.revisionWanted.connect(c.load_revision)
        self.panel.restoreRequested.connect(c.restore)
        self.panel.blameWanted.connect(c.load_blame)
        c.blameLoaded.connect(self.panel.set_blame)
        a.blame.triggered.connect(self.panel.show_blame)
        self._connect_past()
        install_keyboard(self.filters, self.list, self.panel, a.find)
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

    def _connect_past(self) -> None:
        self.acts.as_of.triggered.connect(self.ask_as_of)
        self.controller.asOfLoaded.connect(self._as_of_loaded)

    @property
    def as_of_view(self) -> AsOfView:
        """The page showing the past (As of…), built the first time it is asked for: not before the
        first cards are painted."""
        if self._as_of_view is not None:
            return self._as_of_view
        from ui.past.view import AsOfView

        c = self.controller
        past = self._as_of_view = AsOfView(self)
        self.pages.addWidget(past)
        past.left.connect(self.leave_as_of)
        past.firstScreenPainted.connect(c.read_whole_past)
        past.panel.historyWanted.connect(c.load_history_as_of)
        c.pastHistoryLoaded.connect(past.panel.set_history)
        past.panel.revisionWanted.connect(c.load_revision)
        c.revisionLoaded.connect(past.panel.set_revision)
        return past

    def _timers(self) -> None:
        self.minute = QTimer(self)
        self.minute.setInterval(MINUTE_MS)
        self.minute.timeout.connect(self._each_minute)
        self.minute.start()

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
        """The review queue's window, built the first time it is asked for (not before the first paint)."""
        if self._queue is None:
            from ui.review.queue import ReviewQueue

            now = lambda: self.controller.store.now()  # noqa: E731 - the store of the moment
            self._queue = ReviewQueue(self.review, self.acts.run_review, now, self)
        return self._queue

    def show_queue(self) -> None:
        self.controller.load_candidates()
        memory = self.selected_memory()
        if memory is not None:
            self.queue.target.setValue(memory.id)  # merge into the selected memory by default
        self.queue.show()
        self.queue.raise_()

    def show_digest(self, digest: Digest) -> DigestDialog:
        """The digest over the window; its changes open their cards here."""
        from ui.dialogs.digest import DigestDialog  # its modules load with the first digest

        dialog = DigestDialog(digest, self.controller.store.now, self)
        dialog.openMemory.connect(self._open_card)
        dialog.markSeen.connect(self.looks.mark_seen)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.digest_dialog = dialog
        return dialog

    def _open_card(self, memory_id: int) -> None:
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

    # -- as of: the past, read-only --------------------------------------------------------------------

    @property
    def looking_back(self) -> bool:
        return self._as_of_view is not None and self.pages.currentWidget() is self._as_of_view

    def _import_file(self) -> None:
        from ui.dialogs.import_file import choose_and_import  # its modules load with the first use

        choose_and_import(self.controller, self)

    def ask_as_of(self) -> None:
        """The As of… dialog; its instant is shown with `look_back`."""
        start = (
            self.as_of_view.at if self.looking_back and self.as_of_view.at else self.controller.store.now()
        )
        from ui.dialogs.as_of import AsOfDialog  # its modules load with the first use

        dialog = AsOfDialog(start, self)
        dialog.accepted.connect(lambda: self.look_back(dialog.chosen()))
        dialog.open()

    def look_back(self, asked: int) -> None:
        """Show the memories as they were at `asked` (a future instant is now), read off the GUI thread:
        the first screen as soon as it is read, then the rest (`_as_of_loaded`)."""
        shown = self.as_of_view.current_id() if self.looking_back else self.list.current_id()
        self.as_of_view.begin(asked, shown)
        self.controller.load_as_of(asked, shown)

    def _as_of_loaded(self, listing: PastListing) -> None:
        entering = not self.looking_back
        if entering:
            self.as_of_view.set_filter(self.filters.current())  # before the cards: one listing shown
        if not self.as_of_view.set_listing(listing):
            return
        if entering:
            self.pages.setCurrentWidget(self.as_of_view)
            self.as_of_view.list.setFocus()
        self._update_actions(None)

    def leave_as_of(self) -> None:
        self.controller.leave_as_of()
        if self._as_of_view is None:
            return  # never looked back
        self.as_of_view.begin(None)  # a listing still on its way is dropped
        if self.looking_back:
            self.pages.setCurrentWidget(self.splitter)
            self.as_of_view.model.clear()  # the past's states are let go
            self.list.setFocus()
            self._current_changed(self.list.currentIndex())

    def _filter_changed(self, flt: ViewFilter) -> None:
        if self.looking_back:
            self.as_of_view.set_filter(flt)  # and the listing of now follows the toolbar, for the way back
        self.model.set_highlighted(())
        self.controller.set_filter(flt)

    def _listing_loaded(self, listing: Listing) -> None:
        anchor, looked_at = self.list.scroll_anchor(), self.list.current_on_screen()
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
        if not self.list.currentIndex().isValid() and listing.ids:
            self.select_id(listing.ids[0])
        self._current_changed(self.list.currentIndex())

    def _current_changed(self, index: AnyIndex) -> None:
        memory = self.model.memory(int(index.data(ID_ROLE))) if index.isValid() else None
        if memory is None or self.panel.memory is None or memory.id != self.panel.memory.id:
            self.panel.show_memory(memory)
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
        writable = not self.controller.read_only
        a = self.acts
        many = self.list.selected_count() > 1  # the writers act on the whole selection
        deleted = memory is not None and memory.status == MemoryStatus.DELETED  # the trash's cards
        live = writable and memory is not None and not deleted
        a.edit.setEnabled(live and not many)
        a.delete.setEnabled(live)
        a.expiry.setEnabled(live)
        a.dismiss.setEnabled(live and (many or (memory is not None and memory.status == MemoryStatus.ACTIVE)))
        a.reactivate.setEnabled(
            live
            and (many or (memory is not None and (memory.status != MemoryStatus.ACTIVE or memory.expired)))
        )
        a.restore_deleted.setEnabled(writable and deleted)
        a.new_memory.setEnabled(writable)
        a.run_review.setEnabled(writable and not self.review.running)
        a.undo.setEnabled(writable and bool(self.controller.undo_label))
        for action in (a.review_queue, a.runs):  # windows that write
            action.setEnabled(not self.looking_back)
        if self.looking_back:  # the past is read-only
            for action in a.writers:
                action.setEnabled(False)

    def _undo_changed(self, label: str) -> None:
        self.acts.set_undo_label(label)
        self.acts.undo.setEnabled(bool(label) and not self.controller.read_only and not self.looking_back)

    def _counts_changed(self, counts: Counts) -> None:
        self.status.set_counts(counts)
        self.acts.set_candidate_count(counts.candidates)
        empty = counts.total == 0
        if empty:
            self.welcome.set_database(self.controller.store.location, recent_databases(self.settings))
        if not self.looking_back:
            self.pages.setCurrentIndex(1 if empty else 0)

    def _show_error(self, text: str) -> None:
        self.banner.show_error(text)
        self.statusBar().showMessage(text, 10_000)

    def _store_changed(self, store: MemoryStore) -> None:
        self.leave_as_of()  # the past shown was another database's
        self.model.clear()
        self.panel.show_memory(None)
        self._store_opened(store)

    def _store_opened(self, store: MemoryStore) -> None:
        """The store's state shown (the cards stay: the store the window started without has opened)."""
        self._show_write_state(store)
        self.banner.hide()  # whatever it said was about the database that was open before
        if Path(store.location).exists():
            remember_database(self.settings, store.location)
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.deleteLater()
            self.watcher = None
        if self.watch and Path(store.location).is_file():
            self.watcher = DatabaseWatcher(Path(store.location), self)
            self.watcher.changed.connect(self.controller.refresh_if_changed_elsewhere)
        elif self.watch and is_url(store.location):  # a server: polled while the window is active
            self.watcher = ServerWatcher(self, busy=lambda: self.controller.runner.busy)
            self.watcher.changed.connect(self.controller.refresh_if_changed_elsewhere)
        self._update_actions(self.selected_memory())

    def _show_write_state(self, store: MemoryStore) -> None:
        """Read-only, or its file deleted or replaced: the title, status bar, panel and actions say why."""
        problem = self.controller.file_problem
        reason = store.read_only_reason if store.read_only else problem
        self.status.set_database(store.location, reason)
        self.panel.set_read_only(reason)
        self.acts.set_store_state(reason, self.review.configured_command())
        gone = " (its file was deleted or replaced: changes are refused)" if problem else ""
        shown = store.location if is_url(store.location) else Path(store.location).name  # a server: its URL
        self.setWindowTitle(f"Memory Dashboard — {shown}{gone}")

    def _file_problem_changed(self, problem: str | None) -> None:
        store = self.controller.store
        self._show_write_state(store)
        self._update_actions(self.selected_memory())
        if problem is None:
            self.banner.hide()
            return
        text = f"{problem}. What is shown is the file as it was; changes are refused, as they would be lost."
        self.banner.show_error(text, ("Reopen", lambda: self.controller.open_database(store.location)))

    def _each_minute(self) -> None:
        self.list.viewport().update()  # relative times move on
        self.controller.check_file()
        self.controller.sweep()

    # -- persistence -----------------------------------------------------------------------------------

    def _restore_state(self) -> None:
        if not restore_window(self, self.splitter, self.settings):
            self.resize(1400, 900)

    def save_state(self) -> None:
        save_window(self, self.splitter, self.settings)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "list_header"):
            tint(self.list_header, muted_text(self.palette()))  # the system switched light/dark
            apply_action_icons(self.acts, self.palette())

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        self.controller.idle_indexing.stop()
        if self.watcher is not None:
            self.watcher.stop()
        super().closeEvent(event)
