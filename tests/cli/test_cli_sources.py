"""Sources on a terminal: `show` says them as the window does (`provenance unknown`, not `unknown:`), and
`trust` refuses a source with a control character (a line break would make `session:` of it, a mark on
every session) and prints every source with hidden characters visible, in its answer and in `--list`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.store import MemoryStore

RLO = "\u202e"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_says_sources_as_the_window_does(
    host_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--db", str(host_db), "show", "3")  # the seed's memory without provenance
    assert code == 0 and "sources   provenance unknown (trust: semi)" in out and "unknown:" not in out
    memory = {
        "id": 58,
        "content": "Uses a tool",
        "status": "active",
        "promoted_at": 1,
        "created_at": 1,
        "updated_at": 1,
        "source_candidate_ids": [],
        "provenance": [],
        "sources": [f"tool:{RLO}evil"],
    }
    path = tmp_path / "in.json"
    data = {"format": "memory-dashboard-export", "version": 1, "exported_at": 1, "memories": [memory]}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run(capsys, "--db", str(host_db), "import", str(path), "--allow-hidden")[0] == 0
    code, out, _ = run(capsys, "--db", str(host_db), "show", "58")
    assert code == 0 and "sources   tool:⟦U+202E⟧evil (trust: untrusted)" in out and RLO not in out


@pytest.mark.parametrize("source", ["session:\n", "session:ses_a\n", "session:\x1b[31mred", "ses_a\tb"])
def test_trust_refuses_a_source_with_a_control_character(
    host_db: Path, capsys: pytest.CaptureFixture[str], source: str
) -> None:
    code, out, err = run(capsys, "--db", str(host_db), "trust", source, "untrusted")
    assert (code, out) == (1, "") and "holds a control character (U+00" in err and "no mark was set" in err
    assert "\x1b" not in err and "Traceback" not in err
    assert run(capsys, "--db", str(host_db), "trust", "--list")[1] == "no trust marks\n"


def test_trust_shows_sources_with_hidden_characters_visible(
    host_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bidi override is taken (a person marks the hostile session it names) and shown as a marker; a mark
    the window set on a session id holding an ESC is listed with it visible too."""
    code, out, _ = run(capsys, "--db", str(host_db), "trust", f"session:{RLO}evil", "untrusted")
    assert code == 0 and out == "session:⟦U+202E⟧evil is marked untrusted\n"
    store = MemoryStore.open(host_db)
    try:
        store.set_trust("session:\x1b[31mred", "untrusted")
    finally:
        store.close()
    code, out, _ = run(capsys, "--db", str(host_db), "trust", "--list")
    assert code == 0 and RLO not in out and "\x1b" not in out
    assert "session:⟦U+202E⟧evil  untrusted\n" in out and "session:⟦U+001B⟧[31mred  untrusted\n" in out
    code, out, _ = run(capsys, "--db", str(host_db), "trust", "--list", "--json")
    assert {mark["source"] for mark in json.loads(out)} == {f"session:{RLO}evil", "session:\x1b[31mred"}
