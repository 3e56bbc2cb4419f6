"""The app's settings: a small JSON file, `config_dir() / "settings.json"`, shared by the CLI and the window.

Unknown keys are kept as they were, so a newer version's settings survive an older one saving. A file
that is not a JSON object is an error with a message (never silently overwritten).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import parse_qs, urlsplit

from app.core.errors import StoreError
from app.core.paths import config_dir
from app.core.text_input import text_problem

SETTINGS_FILENAME = "settings.json"
DEFAULT_REVIEWER_TIMEOUT_S = 600.0
MAX_REVIEWER_TIMEOUT_S = 24 * 3600.0
MAX_COMMAND_CHARS = 4096


class SettingsError(StoreError):
    """The settings file cannot be read or written."""


@dataclass(frozen=True, slots=True)
class Settings:
    reviewer_command: str | None = None
    reviewer_timeout_s: float = DEFAULT_REVIEWER_TIMEOUT_S
    other: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        data = dict(self.other)
        data["reviewer_command"] = self.reviewer_command
        data["reviewer_timeout_s"] = self.reviewer_timeout_s
        return data


def reviewer_command_problem(command: str) -> str | None:
    """What makes a reviewer command typed in unfit to save, or None (blank means "none")."""
    if len(command) > MAX_COMMAND_CHARS:
        return f"is longer than {MAX_COMMAND_CHARS} characters"
    if "\n" in command or "\r" in command:
        return "must be one line"
    return text_problem(command)


def reviewer_timeout_problem(seconds: float) -> str | None:
    if not 0 < seconds <= MAX_REVIEWER_TIMEOUT_S:
        return f"must be more than 0 and at most {MAX_REVIEWER_TIMEOUT_S:.0f} seconds"
    return None


def edited(settings: Settings, reviewer_command: str, reviewer_timeout_s: float) -> Settings:
    """The settings with what a person typed (checked here, once; `SettingsError` names the field);
    other keys of the file stay as they were."""
    problem = reviewer_command_problem(reviewer_command)
    if problem is not None:
        raise SettingsError(f"The reviewer command {problem}")
    problem = reviewer_timeout_problem(reviewer_timeout_s)
    if problem is not None:
        raise SettingsError(f"The reviewer timeout {problem}")
    return settings.with_changes(
        reviewer_command=reviewer_command.strip() or None, reviewer_timeout_s=float(reviewer_timeout_s)
    )


DIFF_MODE_KEY = "diff_mode"
DIFF_MODES = ("inline", "side_by_side")  # how a diff panel shows a change; the first when none was chosen


def diff_mode_setting(settings: Settings) -> str:
    """The diff layout last chosen (one of `DIFF_MODES`); inline when none was, or the file's is unknown."""
    value = settings.other.get(DIFF_MODE_KEY)
    return value if isinstance(value, str) and value in DIFF_MODES else DIFF_MODES[0]


def with_diff_mode(settings: Settings, mode: str) -> Settings:
    if mode not in DIFF_MODES:
        raise SettingsError(f"The diff layout must be one of {', '.join(DIFF_MODES)}, not {mode[:40]!r}")
    return settings.with_changes(other=MappingProxyType({**settings.other, DIFF_MODE_KEY: mode}))


def settings_path(environ: Mapping[str, str] | None = None) -> Path:
    return config_dir(environ) / SETTINGS_FILENAME


def where_saved(path: Path) -> str:
    """Where a settings dialog keeps what it saves, said truly: `Saved in …` once the file exists, `Not
    saved yet: Save writes …` before (nothing is in a file that was never written)."""
    return f"Saved in {path}" if path.exists() else f"Not saved yet: Save writes {path}"


def _from_json(data: Mapping[str, Any], path: Path) -> Settings:
    command = data.get("reviewer_command")
    if command is not None and not isinstance(command, str):
        raise SettingsError(f"{path}: reviewer_command must be a string")
    timeout = data.get("reviewer_timeout_s", DEFAULT_REVIEWER_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise SettingsError(f"{path}: reviewer_timeout_s must be a positive number of seconds")
    other = {k: v for k, v in data.items() if k not in ("reviewer_command", "reviewer_timeout_s")}
    cleaned = (command.strip() or None) if command else None
    return Settings(cleaned, float(timeout), MappingProxyType(other))


def load_settings(path: Path | None = None) -> Settings:
    """The settings, or the defaults when there is no file yet."""
    target = path or settings_path()
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise SettingsError(f"cannot read {target}: {exc.strerror}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError(f"{target} is not valid JSON ({exc}); fix or delete it") from exc
    if not isinstance(data, dict):
        raise SettingsError(f"{target} must hold a JSON object")
    return _from_json(data, target)


def settings_or_problem(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings and None, or the defaults and why the file cannot be read (a dialog says so and
    saves nothing until it is fixed)."""
    try:
        return load_settings(path), None
    except SettingsError as exc:
        return Settings(), exc.message


def save_problem(load_problem: str | None, edit: Callable[[], object]) -> str | None:
    """Why what a person typed cannot be saved: the file's own problem, else the `SettingsError` of
    `edit()` (which builds the edited settings), else None."""
    if load_problem is not None:
        return load_problem
    try:
        edit()
    except SettingsError as exc:
        return exc.message
    return None


def remember(edit: Callable[[Settings], Settings], path: Path | None = None) -> str | None:
    """Keep a choice the window makes as it is used (the diff layout): the file read, changed by `edit`
    and saved. Why it could not be kept, or None; a file that cannot be read is left as it is."""
    try:
        save_settings(edit(load_settings(path)), path)
    except SettingsError as exc:
        return exc.message
    return None


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (a temporary file renamed over the old one)."""
    import tempfile  # imported when saving

    target = path or settings_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".settings-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(settings.to_json(), out, indent=2, sort_keys=True, ensure_ascii=False)
                out.write("\n")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise SettingsError(f"cannot write {target}: {exc.strerror}") from exc
    return target


# -- the hub (`hub publish`, `hub status`): its URL without a password, and this machine's name ------------

HUB_URL_KEY = "hub_url"
HUB_MACHINE_KEY = "hub_machine"
# Publish automatically every N minutes while the window is open; absent or null: off.
HUB_PUBLISH_EVERY_KEY = "hub_publish_every_min"
MAX_MACHINE_CHARS = 200
MAX_PUBLISH_EVERY_MIN = 24 * 60


def default_machine_name() -> str:
    import socket  # asked for by the hub's settings only

    return socket.gethostname() or "this-machine"


def machine_name_problem(name: str) -> str | None:
    if not name.strip():
        return "is empty"
    if len(name) > MAX_MACHINE_CHARS:
        return f"is longer than {MAX_MACHINE_CHARS} characters"
    return text_problem(name)


def hub_url_problem(url: str) -> str | None:
    """Why a hub URL cannot be kept in the settings: a password in it (libpq reads one from
    `PGPASSFILE`, `~/.pgpass` or a service file instead), or text unfit to store."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"is not a URL ({exc})"
    if parts.password is not None or "password" in parse_qs(parts.query):
        return "holds a password; leave it out (libpq reads it from PGPASSFILE, ~/.pgpass or a service file)"
    return text_problem(url)


def hub_url_setting(settings: Settings) -> str | None:
    value = settings.other.get(HUB_URL_KEY)
    return value if isinstance(value, str) and value.strip() else None


def hub_machine_setting(settings: Settings) -> str:
    """This machine's name in the hub: the one saved, else the host name."""
    value = settings.other.get(HUB_MACHINE_KEY)
    return value if isinstance(value, str) and value.strip() else default_machine_name()


def publish_every_problem(minutes: int) -> str | None:
    if not 1 <= minutes <= MAX_PUBLISH_EVERY_MIN:
        return f"must be from 1 to {MAX_PUBLISH_EVERY_MIN} minutes (0: off)"
    return None


def hub_publish_every_setting(settings: Settings) -> int | None:
    """How many minutes apart the window publishes on its own, or None: it does not."""
    value = settings.other.get(HUB_PUBLISH_EVERY_KEY)
    if type(value) is not int or publish_every_problem(value) is not None:
        return None
    return value


def with_hub(
    settings: Settings, url: str | None = None, machine: str | None = None, publish_every: int | None = None
) -> Settings:
    """The settings with a hub URL, machine name and/or automatic publishing every `publish_every`
    minutes (0: off), each checked here (`SettingsError` names the field); None leaves one as it was."""
    other = dict(settings.other)
    if publish_every is not None:
        problem = publish_every_problem(publish_every) if publish_every else None
        if problem is not None:
            raise SettingsError(f"Publishing automatically every N minutes: N {problem}")
        other[HUB_PUBLISH_EVERY_KEY] = publish_every or None
    if url is not None:
        problem = hub_url_problem(url)
        if problem is not None:
            raise SettingsError(f"The hub URL {problem}")
        other[HUB_URL_KEY] = url.strip()
    if machine is not None:
        problem = machine_name_problem(machine)
        if problem is not None:
            raise SettingsError(f"The machine name {problem}")
        other[HUB_MACHINE_KEY] = machine.strip()
    return settings.with_changes(other=MappingProxyType(other))
