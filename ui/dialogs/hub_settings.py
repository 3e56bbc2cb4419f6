"""File → Hub…: the hub's URL, this machine's name, the hub's password (OS keyring only), Publish now,
and publishing automatically every N minutes while the window is open.

The URL and the name are the settings `hub configure` writes, checked the same way as they are typed
(`app.core.settings.with_hub`: a URL holding a password is refused, with the reason). A password typed
here goes to the OS keyring on Save (`app.hub.password`), never to settings.json; where no keyring can be
used the dialog says so and saves nothing. Publish now runs in the window's `HubPublishing` worker with
the URL and name shown; its progress and result (or error: a hub that is down, a password refused) are
said below the fields. Ctrl+Enter saves; Esc asks before it throws typed changes away.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import StoreError
from app.core.settings import (
    MAX_PUBLISH_EVERY_MIN,
    Settings,
    SettingsError,
    default_machine_name,
    hub_machine_setting,
    hub_publish_every_setting,
    hub_url_setting,
    save_problem,
    save_settings,
    settings_or_problem,
    settings_path,
    where_saved,
    with_hub,
)
from app.core.text_input import text_problem
from ui.runtime.hub_publishing import HubPublishing
from ui.widgets.dialog_keys import DialogKeys
from ui.widgets.focus_ring import show_button_focus
from ui.widgets.labels import plain_label
from ui.widgets.plain_tip import plain_tip

URL_TIP = (
    "The hub: a PostgreSQL database several machines publish to, e.g. "
    "postgresql://me@hub.example/memories?sslmode=verify-full. Leave the password out: libpq reads it "
    "from PGPASSFILE, ~/.pgpass or a service file, or type it below to keep it in the OS keyring."
)
MACHINE_TIP = "This machine's name in the hub (default: the host name)"
PASSWORD_TIP = (
    "The hub's password, kept in the OS keyring on Save (never in settings.json); used only when libpq's "
    "own sources give none. Leave empty to keep what the keyring holds."
)
AUTO_TIP = "While this window is open, publish to the hub on its own every N minutes (off by default)"
PUBLISH_TIP = (
    "Publish this database to the hub now, with the URL and name shown (a password typed above is used "
    "once saved)"
)


class HubSettingsDialog(QDialog):
    saved = Signal(object)  # Settings, once written

    def __init__(self, publishing: HubPublishing, parent: QWidget | None = None, *, path: Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("Hub")
        self.setMinimumWidth(600)
        self.publishing = publishing
        self.path = path or settings_path()
        self.settings, self.load_problem = settings_or_problem(self.path)
        self._fields()
        self._layout()
        publishing.started.connect(self._started)
        publishing.progressed.connect(self.outcome.setText)
        publishing.finished.connect(lambda report: self._ended(report.text()))
        publishing.failed.connect(lambda message: self._ended(f"Not published: {message}"))
        for signal in (self.url.textChanged, self.machine.textChanged, self.password.textChanged):
            signal.connect(self._validate)
        self.url.editingFinished.connect(self._show_keyring)
        self.auto.toggled.connect(self._validate)
        self.every.valueChanged.connect(self._validate)
        self._validate()
        self._show_keyring()
        opened = self._typed()
        self.keys = DialogKeys(self, lambda: self._typed() != opened)
        show_button_focus(self)

    def _fields(self) -> None:
        self.url = QLineEdit(hub_url_setting(self.settings) or "", self)
        self.url.setPlaceholderText("postgresql://USER@HOST/DATABASE?sslmode=verify-full")
        self.machine = QLineEdit(hub_machine_setting(self.settings), self)
        self.machine.setPlaceholderText(default_machine_name())
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("leave empty: ~/.pgpass, PGPASSFILE, or what the keyring holds")
        every = hub_publish_every_setting(self.settings)
        self.auto = QCheckBox("Publish &automatically every", self)
        self.auto.setChecked(every is not None)
        self.every = QSpinBox(self)
        self.every.setRange(1, MAX_PUBLISH_EVERY_MIN)
        self.every.setValue(every or 15)
        self.every.setSuffix(" minutes while the window is open")
        self.publish_button = QPushButton("&Publish now", self)
        self.publish_button.clicked.connect(self.publish_now)
        described = (
            (self.url, "Hub URL", URL_TIP),
            (self.machine, "This machine's name", MACHINE_TIP),
            (self.password, "Hub password (kept in the OS keyring)", PASSWORD_TIP),
            (self.auto, "Publish automatically", AUTO_TIP),
            (self.every, "Minutes between automatic publishes", AUTO_TIP),
            (self.publish_button, "Publish now", PUBLISH_TIP),
        )
        for widget, name, tip in described:
            widget.setAccessibleName(name)
            widget.setToolTip(tip)
            widget.setAccessibleDescription(tip)
        self.keyring = plain_label(wrap=False)  # one short line: the details are in its tooltip
        self.keyring.setAccessibleName("The OS keyring")
        self.problem = plain_label()
        self.problem.setAccessibleName("Problem")
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: a publish's batches are not known in advance
        self.progress.setAccessibleName("Publishing")
        self.progress.hide()
        self.outcome = plain_label()
        self.outcome.setAccessibleName("Publish result")

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(_buddy("Hub &URL:", self.url), self.url)
        form.addRow(_buddy("&Machine name:", self.machine), self.machine)
        form.addRow(_buddy("Pass&word:", self.password), self.password)
        form.addRow("", self.keyring)
        auto_row = QHBoxLayout()
        auto_row.addWidget(self.auto)
        auto_row.addWidget(self.every, 1)
        form.addRow("", auto_row)
        where = plain_label(f"{where_saved(self.path)} (the password: in the OS keyring only)")
        where.setToolTip(plain_tip(str(self.path)))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close, self
        )
        self.buttons.addButton(self.publish_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.accepted.connect(self._save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(where)
        layout.addWidget(self.problem)
        layout.addWidget(self.progress)
        layout.addWidget(self.outcome)
        layout.addWidget(self.buttons)
        self.setTabOrder(self.url, self.machine)
        self.setTabOrder(self.machine, self.password)
        self.setTabOrder(self.password, self.auto)
        self.setTabOrder(self.auto, self.every)

    def _typed(self) -> tuple[object, ...]:
        """What the fields hold now (compared with what they held when the dialog opened)."""
        fields = (self.url.text(), self.machine.text(), self.password.text())
        return (*fields, self.auto.isChecked(), self.every.value())

    @property
    def save_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Save)

    def _edited(self) -> Settings:
        """The settings as typed (`SettingsError` names the field); the password is checked, not kept."""
        typed = self.password.text()
        problem = text_problem(typed) if typed else None
        if problem is not None:
            raise SettingsError(f"The password {problem}")
        every = self.every.value() if self.auto.isChecked() else 0
        return with_hub(self.settings, self.url.text(), self.machine.text() or default_machine_name(), every)

    def _validate(self) -> None:
        problem = save_problem(self.load_problem, self._edited)
        if problem is None and self.auto.isChecked() and not self.url.text().strip():
            problem = "Publishing automatically needs a hub URL"
        self._say_problem(problem)
        self.save_button.setEnabled(problem is None)
        self.every.setEnabled(self.auto.isChecked())
        self.publish_button.setEnabled(
            problem is None and bool(self.url.text().strip()) and not self.publishing.running
        )

    def _say_problem(self, problem: str | None) -> None:
        self.problem.setText(f"{problem[:1].upper()}{problem[1:]}" if problem else "")
        self.problem.setVisible(problem is not None)
        self._fit()

    def _fit(self) -> None:
        """Grow to show a message that wraps over several lines (Qt keeps the size a dialog had)."""
        if self.isVisible():
            self.resize(
                self.width(), max(self.height(), self.heightForWidth(self.width()), self.sizeHint().height())
            )

    def _show_keyring(self) -> None:
        """Whether the OS keyring holds this hub's password, or why none can be used."""
        text = self.url.text().strip()
        self.keyring.setVisible(bool(text))
        if not text:
            return
        from app.hub.connect import HubError, hub_url
        from app.hub.password import keyring_state

        try:
            said = keyring_state(hub_url(text))
        except HubError as exc:
            said = exc.message
        said = f"{said[:1].upper()}{said[1:]}"
        # One short line (a label that wraps after the dialog is shown is cut); the whole in the tooltip.
        self.keyring.setText(said.split(";")[0].split(" (")[0] + ".")
        self.keyring.setToolTip(plain_tip(said))
        self.keyring.setAccessibleDescription(said)

    def _save(self) -> None:
        try:
            settings = self._edited()
            if self.password.text():
                self._keep_password(settings)
            save_settings(settings, self.path)
        except StoreError as exc:  # a settings file that cannot be written, no keyring: nothing saved
            self._say_problem(exc.message)
            return
        self.settings = settings
        self.publishing.apply_settings(settings)
        self.saved.emit(settings)
        self.accept()

    def _keep_password(self, settings: Settings) -> None:
        from app.hub.connect import hub_url
        from app.hub.password import store_password

        url = hub_url_setting(settings)
        if url is None:
            raise SettingsError("A password needs a hub URL to be kept for")
        store_password(hub_url(url), self.password.text())
        self.password.clear()

    def publish_now(self) -> bool:
        """Publish with the URL and name shown (saved or not); False when it cannot start."""
        try:
            settings = self._edited()
        except SettingsError as exc:
            self._say_problem(exc.message)
            return False
        url = hub_url_setting(settings)
        if url is None:
            self._say_problem("Publishing needs a hub URL")
            return False
        if not self.publishing.publish(url, hub_machine_setting(settings)):
            self.outcome.setText("A publish is running already; this one was not started.")
            return False
        return True

    def _started(self, hub: str) -> None:
        self.progress.show()
        self.outcome.setText(f"Publishing to {hub}…")
        self.publish_button.setEnabled(False)

    def _ended(self, text: str) -> None:
        self.progress.hide()
        self.outcome.setText(text)
        self._validate()  # and fits


def _buddy(text: str, widget: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def show_hub_settings(publishing: HubPublishing, parent: QWidget) -> HubSettingsDialog:
    """The Hub dialog over the window (one at a time)."""
    dialog = parent.findChild(HubSettingsDialog)
    if dialog is None:
        dialog = HubSettingsDialog(publishing, parent)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
