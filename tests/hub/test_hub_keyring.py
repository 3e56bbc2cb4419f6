"""The hub's password from the OS keyring: `hub configure --store-password` puts it there (read from
standard input or a prompt that does not echo, never from an argument), a publish uses it when libpq's
own sources give none, settings.json never holds it; no keyring (this headless machine), or no `keyring`
package, is said so. The keyring is `tests/support/memory_keyring.py`'s backend, the server a real one
whose role logs in with a password only."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url

from app.cli import main
from app.core.errors import EXIT_UNUSABLE_DATABASE
from app.core.settings import load_settings, settings_path
from app.hub.password import SERVICE, KeyringUnavailableError, keyring_state, keyring_user, store_password
from tests.support import hub_host
from tests.support.hub_host import SECRET, host_file, pgpass
from tests.support.memory_keyring import MemoryKeyring, memory_keyring

pinned_clock = hub_host.pinned_clock  # the clock pinned in every test here (autouse)
password_server = hub_host.password_server  # a cluster whose role logs in with a password only
memory_keyring = memory_keyring  # the OS keyring, for the tests that ask for it


@pytest.fixture(autouse=True)
def no_pgpass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """libpq's own sources give no password (unless a test gives one)."""
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass-here"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.delenv("PGSERVICE", raising=False)


def typed(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_keyring_user_is_user_at_host_and_port_with_libpq_defaults() -> None:
    assert keyring_user(make_url("postgresql://me@hub.example/m?sslmode=require")) == "me@hub.example:5432"
    assert keyring_user(make_url("postgresql+psycopg://me@hub.example:6543/m")) == "me@hub.example:6543"
    assert keyring_user(make_url("postgresql://me@/m?host=/run/postgresql")) == "me@/run/postgresql:5432"


def test_a_password_stored_in_the_keyring_is_used_and_never_reaches_the_settings(
    password_server: str,
    memory_keyring: MemoryKeyring,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    laptop = host_file(tmp_path / "laptop.db")
    code, _, err = run(capsys, "--db", str(laptop), "hub", "publish", "--to", password_server)
    assert code == EXIT_UNUSABLE_DATABASE
    assert "no password supplied" in err and "none is kept for hub_carol@" in err
    typed(monkeypatch, f"{SECRET}\n")
    code, out, err = run(
        capsys,
        "hub",
        "configure",
        "--url",
        password_server,
        "--machine",
        "laptop",
        "--store-password",
        "--json",
    )
    assert (code, err) == (0, "")
    assert "kept in the OS keyring" in json.loads(out)["password_kept"]
    who = keyring_user(make_url(password_server))
    assert memory_keyring.kept == {(SERVICE, who): SECRET}
    assert SECRET not in settings_path().read_text(encoding="utf-8")
    assert SECRET not in json.dumps(load_settings().to_json())
    assert keyring_state(make_url(password_server)).startswith("a password is kept in the OS keyring")
    code, out, err = run(capsys, "--db", str(laptop), "hub", "publish", "--json")
    assert (code, err) == (0, "")
    assert (json.loads(out)["memories"], json.loads(out)["machine"]) == (5, "laptop")


@pytest.mark.usefixtures("memory_keyring")
def test_libpq_sources_come_before_the_keyring(
    password_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store_password(make_url(password_server), SECRET)
    monkeypatch.setenv("PGPASSFILE", str(pgpass(tmp_path, "wrong")))
    code, _, err = run(capsys, "hub", "status", "--hub", password_server)
    assert code == EXIT_UNUSABLE_DATABASE
    assert "password authentication failed" in err and "keyring" not in err


def test_a_wrong_password_in_the_keyring_is_a_message(
    password_server: str, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    store_password(make_url(password_server), "not it")
    code, _, err = run(capsys, "hub", "status", "--hub", password_server)
    assert code == EXIT_UNUSABLE_DATABASE
    assert "password authentication failed" in err and "the password came from the OS keyring" in err
    assert "not it" not in err and "Traceback" not in err


def test_without_a_keyring_backend_saving_and_asking_say_so(
    password_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """This headless machine has no keyring backend (tests/conftest.py makes every test run so)."""
    typed(monkeypatch, f"{SECRET}\n")
    code, out, err = run(capsys, "hub", "configure", "--url", password_server, "--store-password")
    assert code == 1
    assert "no OS keyring is available on this machine" in err and "~/.pgpass" in err
    assert SECRET not in out + err
    assert SECRET not in settings_path().read_text(encoding="utf-8")
    code, _, err = run(capsys, "hub", "status", "--hub", password_server)
    assert code == EXIT_UNUSABLE_DATABASE
    assert "no password supplied" in err and "no OS keyring is available" in err


def test_without_the_keyring_package_it_is_said_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "keyring", None)  # as if it were not installed: importing it fails
    with pytest.raises(KeyringUnavailableError, match=r"keyring package is not installed.*\[keyring\]"):
        store_password(make_url("postgresql://me@hub/m"), SECRET)
    assert "not installed" in keyring_state(make_url("postgresql://me@hub/m"))


@pytest.mark.parametrize("given", ["\n", "", "with\x00nul\n"])
def test_an_empty_or_unfit_password_is_refused_and_nothing_is_kept(
    given: str,
    memory_keyring: MemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed(monkeypatch, given)
    code, _, err = run(capsys, "hub", "configure", "--url", "postgresql://me@hub/m", "--store-password")
    assert code == 1 and "the password" in err and "nothing was saved" in err
    assert memory_keyring.kept == {}


def test_the_password_is_never_taken_from_an_argument(
    memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["hub", "configure", "--url", "postgresql://me@hub/m", "--store-password", SECRET])
    assert usage.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err
    assert memory_keyring.kept == {}
