"""The hub's settings: URL without a password, machine name defaulting to the host name, other keys kept."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from app.cli import main
from app.core.settings import (
    Settings,
    SettingsError,
    hub_machine_setting,
    hub_publish_every_setting,
    hub_url_setting,
    load_settings,
    save_settings,
    with_hub,
)


def test_the_machine_name_defaults_to_the_host_name() -> None:
    assert hub_machine_setting(Settings()) == socket.gethostname()
    assert hub_url_setting(Settings()) is None


def test_hub_settings_are_saved_beside_the_others(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings = with_hub(Settings(reviewer_command="review"), "postgresql://me@hub/m?sslmode=require", " box ")
    save_settings(settings, path)
    loaded = load_settings(path)
    assert (hub_url_setting(loaded), hub_machine_setting(loaded)) == (
        "postgresql://me@hub/m?sslmode=require",
        "box",
    )
    assert loaded.reviewer_command == "review"


@pytest.mark.parametrize(
    ("url", "machine", "message"),
    [
        ("postgresql://me:secret@hub/m", None, "The hub URL holds a password"),
        ("postgresql://me@hub/m?password=secret", None, "The hub URL holds a password"),
        (None, "   ", "The machine name is empty"),
        (None, "x" * 201, "The machine name is longer than 200 characters"),
    ],
)
def test_a_password_or_an_unfit_name_is_refused(url: str | None, machine: str | None, message: str) -> None:
    with pytest.raises(SettingsError, match=message) as caught:
        with_hub(Settings(), url, machine)
    assert "secret" not in str(caught.value)


def test_publishing_every_n_minutes_is_a_setting_off_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert hub_publish_every_setting(Settings()) is None
    assert hub_publish_every_setting(with_hub(Settings(), publish_every=30)) == 30
    every_30 = with_hub(Settings(), publish_every=30)
    assert hub_publish_every_setting(with_hub(every_30, publish_every=0)) is None
    with pytest.raises(SettingsError, match="from 1 to 1440 minutes"):
        with_hub(Settings(), publish_every=1441)
    url = "postgresql://me@hub/m"
    assert main(["hub", "configure", "--url", url, "--publish-every", "30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["publish_every_min"] == 30
    assert hub_publish_every_setting(load_settings()) == 30
    assert main(["hub", "configure", "--publish-every", "0"]) == 0
    assert "publish automatically: off" in capsys.readouterr().out
    assert hub_publish_every_setting(load_settings()) is None
    assert hub_url_setting(load_settings()) == "postgresql://me@hub/m"  # the rest kept
    assert main(["hub", "configure", "--publish-every", "-5"]) == 1
    assert "from 1 to 1440 minutes" in capsys.readouterr().err
