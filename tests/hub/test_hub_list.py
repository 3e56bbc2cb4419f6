"""`hub list`: the hub's cards on the command line, grouped as the hub window groups them (one per memory
across machines, each naming its machines and the status there); `--json` in the README's shape. `hub
open --json` is refused as an option `hub open` does not have: it never opens a window."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.hub.requests import queue_dismiss
from tests.support import hub_host
from tests.support.hub_machines import EDIT, FIRST_ID, MACHINES, publish_machines

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
hub_db = hub_host.hub_db  # a hub set up by its administrator; the URL of an ordinary publisher


def listing(url: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["hub", "list", "--to", url, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def card_of(data: dict[str, Any], machine: str, memory_id: int) -> dict[str, Any]:
    return next(
        card
        for card in data["cards"]
        if any((c["machine"], c["memory_id"]) == (machine, memory_id) for c in card["copies"])
    )


def test_hub_list_shows_every_card_with_its_machines_and_their_status(
    hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_machines(tmp_path, hub_db, 8)
    queue_dismiss(hub_db, "laptop", FIRST_ID, requested_on="laptop", now=hub_host.NOW)
    data = listing(hub_db, capsys)
    assert data["machines"] == sorted(MACHINES)
    assert data["counts"] == {
        "cards": len(data["cards"]),
        "copies": sum(len(card["copies"]) for card in data["cards"]),
        "differing": 2,  # n = 2 and n = 6: copied, then edited
        "on_every_machine": sum(not card["missing"] for card in data["cards"]),
    }
    everywhere = card_of(data, "laptop", FIRST_ID)  # n = 0: the same text on every machine
    assert [(c["machine"], c["status"], c["dismiss_requested"]) for c in everywhere["copies"]] == [
        ("desktop", "active", True),
        ("devbox", "active", True),
        ("laptop", "active", True),
    ]
    assert everywhere["missing"] == [] and everywhere["differs"] is False and everywhere["texts"] == 1
    copied = card_of(data, "laptop", FIRST_ID + 2)  # copied to desktop and edited there: one card
    assert {(c["machine"], c["memory_id"]) for c in copied["copies"]} == {
        ("laptop", FIRST_ID + 2),
        ("desktop", FIRST_ID + 2),
    }
    assert copied["differs"] is True and copied["texts"] == 2 and copied["missing"] == ["devbox"]
    assert copied["text"].endswith(EDIT)  # the newest copy's text
    assert set(everywhere) == {
        "machine", "memory_id", "updated_at", "text", "differs", "texts", "copies", "missing"
    }  # fmt: skip

    assert main(["hub", "list", "--to", hub_db]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].startswith(f"{len(data['cards'])} cards, ")
    assert "desktop #100 active, dismiss requested · devbox #100 active, dismiss requested" in text
    assert "desktop #102 active · laptop #102 active · not on devbox · differs: 2 texts" in text


def test_hub_list_shows_only_the_roles_own_cards(
    postgres_db: str, hub_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_machines(tmp_path, hub_db, 4)
    other = hub_host.make_role(postgres_db, "hub_other")
    try:
        data = listing(hub_host.as_role(postgres_db, other), capsys)
    finally:
        hub_host.drop_role(postgres_db, other)
    assert data["cards"] == [] and data["machines"] == []


class WindowHooks:
    """The GUI hooks, recording what a command asked of them instead of opening a window."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def register(self, subparsers: Any, parents: Any) -> None:
        pass

    def open_window(self, args: Any, store: Any) -> int:
        raise AssertionError("no main window here")

    def open_hub(self, args: Any, url: str) -> int:
        self.opened.append(url)
        return 0


def test_hub_open_json_is_refused_and_opens_no_window(
    hub_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_machines(tmp_path, hub_db, 4)
    hooks = WindowHooks()
    with pytest.raises(SystemExit) as exited:
        main(["hub", "open", "--to", hub_db, "--json"], gui=hooks)
    assert exited.value.code == 2
    assert "unrecognized arguments: --json" in capsys.readouterr().err
    assert hooks.opened == []
    assert main(["hub", "open", "--to", hub_db], gui=hooks) == 0  # without it, the window
    assert hooks.opened == [hub_db]
