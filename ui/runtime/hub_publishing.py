"""Publishing the window's database to the hub off the GUI thread: on request (File → Hub… → Publish now)
and every N minutes while the window is open (the `hub_publish_every_min` setting; off by default).

A publish runs `app.hub.publish.publish` on a thread of its own, not the controller's store thread: it
talks to a server that may be slow or down, and must not hold up the window's reads. It opens the
database once more there (`MemoryStore.reopened`); a dismissal the hub requested is written through that
store, and the window lists again after it. Never two at once: a publish asked for while one runs is
refused (the timer's simply waits for the next tick). The status bar says when it last published and any
error; errors are messages, never tracebacks.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QStatusBar

from app.core import settings as app_settings
from app.core.clock import format_instant
from ui.runtime.controller import describe_error
from ui.runtime.tasks import TaskRunner
from ui.widgets.plain_tip import plain_tip

if TYPE_CHECKING:
    from app.hub.publish import PublishReport
    from app.store import MemoryStore

MINUTE_MS = 60_000


class HubPublishing(QObject):
    """The window's publisher: `publish(url, machine)` now, `publish_due()` from its timer."""

    started = Signal(str)  # the hub, as shown
    progressed = Signal(str)  # so far, after each batch
    finished = Signal(object)  # PublishReport
    failed = Signal(str)  # a message

    def __init__(
        self,
        store: Callable[[], MemoryStore],
        bar: QStatusBar | None = None,
        parent: QObject | None = None,
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        super().__init__(parent)
        self._store = store
        self._ready = ready  # False: its tick passes (a launch still waiting for its store, no window yet)
        self.runner = TaskRunner(self)  # a thread of its own (see the module docstring)
        self.running = False
        self.last_published_at: int | None = None
        self.last_error: str | None = None
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.publish_due)
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAccessibleName("Hub publishing")
        self.label.hide()
        if bar is not None:
            bar.addPermanentWidget(self.label)
        self.finished.connect(self._published)
        self.failed.connect(self._refused)
        try:
            self.apply_settings(app_settings.load_settings())
        except app_settings.SettingsError as exc:  # a broken file: no automatic publishing until fixed
            self._show(f"Hub: not publishing automatically: {exc.message}")

    @property
    def every_min(self) -> int | None:
        """Minutes between automatic publishes, None when off."""
        return self.timer.interval() // MINUTE_MS if self.timer.isActive() else None

    def apply_settings(self, settings: app_settings.Settings) -> None:
        """Start, move or stop the automatic publishing as the settings say (it needs a hub URL)."""
        every = app_settings.hub_publish_every_setting(settings)
        if every is not None and app_settings.hub_url_setting(settings):
            self.timer.start(every * MINUTE_MS)
            if self.last_published_at is None and self.last_error is None:
                self._show(f"Hub: publishing every {every} min", f"Next publish in {every} minutes")
        else:
            self.timer.stop()
            if self.last_published_at is None and self.last_error is None:
                self.label.hide()

    def publish_due(self) -> bool:
        """The timer's tick: publish with the saved settings, unless a publish is running or the window
        is not ready for one (`ready`)."""
        if self.running or not self._ready():
            return False
        try:
            settings = app_settings.load_settings()
        except app_settings.SettingsError as exc:
            self.failed.emit(exc.message)
            return False
        url = app_settings.hub_url_setting(settings)
        if url is None:
            self.apply_settings(settings)
            return False
        return self.publish(url, app_settings.hub_machine_setting(settings))

    def publish(self, url: str, machine: str) -> bool:
        """Publish the window's database to `url` as `machine` on the worker; False (nothing started)
        while another publish runs."""
        if self.running:
            return False
        from app.hub.connect import HubError, hub_location
        from app.hub.publish import publish

        try:
            shown = hub_location(url)
        except HubError as exc:
            self.failed.emit(exc.message)
            return False
        store = self._store()

        def work() -> PublishReport:
            return publish(
                lambda: closing(store.reopened()),
                url,
                machine,
                progress=lambda report: self.progressed.emit(report.progress_text()),
            )

        self.running = True
        self.started.emit(shown)
        self._show(f"Hub: publishing to {shown}…")
        self.runner.submit(work, self.finished.emit, lambda exc: self.failed.emit(describe_error(exc)))
        return True

    def _published(self, report: PublishReport) -> None:
        self.running = False
        self.last_published_at, self.last_error = self._store().now(), None
        when = format_instant(self.last_published_at)
        self._show(f"Hub: published {when}", report.text())

    def _refused(self, message: str) -> None:
        self.running = False
        self.last_error = message
        self._show(f"Hub: publish failed {format_instant(self._store().now())}", message)

    def _show(self, text: str, tip: str = "") -> None:
        self.label.setText(text)
        self.label.setToolTip(plain_tip(tip or text))
        self.label.setAccessibleDescription(tip or text)
        self.label.show()
