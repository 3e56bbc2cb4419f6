"""The launch's first screen read aside (`ui.runtime.first_screen.read_aside`): a child process opens the
store and reads what the window's first frame shows, and hands back the same values this process would
read; a store that refuses hands back why, and one that fails otherwise gives no first screen (the window's
own open says why); a process that cannot fork safely reads none aside.

Each case runs in a fresh Python process, as a launch does: the test process itself runs threads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.hostdb import build_host_db, damage_read_pages, damage_unread_pages

ROOT = Path(__file__).resolve().parents[3]

ASIDE = """
import sys, threading
from contextlib import contextmanager
from app.core.clock import ManualClock
from ui.runtime.first_page import read_first_screen
from ui.runtime.first_screen import FirstScreenUnread, read_aside

path, case = sys.argv[1], sys.argv[2]

@contextmanager
def opener(first_look=False):
    from app.store import MemoryStore
    store = MemoryStore.open(path, clock=ManualClock(1_767_000_000_000), first_look=first_look)
    try:
        yield store
    finally:
        store.close()

@contextmanager
def failing(first_look=False):
    raise OSError("no such database")
    yield

@contextmanager
def sleeping(first_look=False):
    import time
    time.sleep(120)  # a read that lasts (a stalled disk)
    yield

@contextmanager
def copying(first_look=False):
    import time
    from pathlib import Path
    from app.store.connect.file_access import snapshot
    snapshot(Path(path))  # a private copy in the temporary folder, as a file read through one has
    time.sleep(120)
    yield

@contextmanager
def refusing(first_look=False):
    from app.core.errors import DatabaseOpenError
    raise DatabaseOpenError("the database is locked by another program")
    yield

if case == "threads":
    stop = threading.Event()
    threading.Thread(target=stop.wait).start()
    print(read_aside(opener, read_first_screen) is None)
    stop.set()
elif case == "fails":
    future = read_aside(failing, read_first_screen)
    print(type(future.exception(timeout=60)).__name__)
elif case in ("refused", "damaged"):
    from ui.runtime.first_screen import raise_refusal
    future = read_aside(refusing if case == "refused" else opener, read_first_screen)
    future.exception(timeout=60)
    try:
        raise_refusal(future)
    except Exception as refusal:
        print(type(refusal).__name__, "|", refusal)
elif case == "reaped":
    import signal
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # as a launcher may leave it: the system reaps children
    aside = read_aside(opener, read_first_screen).result(timeout=20)
    print(len(aside.listing.rows))
elif case == "cancelled":
    future = read_aside(sleeping, read_first_screen)
    (receiver,) = [t for t in threading.enumerate() if t.name == "first screen"]
    cancelled = future.cancel()
    receiver.join(timeout=60)  # ends once the child has: its pipe closed, the child reaped
    print(cancelled, receiver.is_alive())
elif case == "snapshot":
    import glob, os, tempfile, time
    left = os.path.join(tempfile.gettempdir(), "memory-dashboard-snapshot-*")
    future = read_aside(copying, read_first_screen)
    deadline = time.monotonic() + 60
    while not glob.glob(os.path.join(left, "*.db")) and time.monotonic() < deadline:
        time.sleep(0.01)
    made = len(glob.glob(left))
    future.cancel()  # the person quit: the child is ended, what it left removed
    print(made, len(glob.glob(left)))
elif case == "moved":
    def misreads(store):  # a read failing on a sound file, as one the host rewrote under a lock-free look
        with store.database.read() as conn:
            conn.exec_driver_sql("SELECT * FROM a_table_the_host_dropped")
    future = read_aside(opener, misreads)
    print(type(future.exception(timeout=60)).__name__)
elif case == "killed snapshot":
    import os, signal
    from pathlib import Path
    from app.store.connect.file_access import snapshot
    made = Path(path).with_name("snapshot-made")
    def dies_reading_a_copy(store):
        made.write_text(str(snapshot(Path(path)).private_folder))  # a private copy, as some reads have
        os.kill(os.getpid(), signal.SIGBUS)
    future = read_aside(opener, dies_reading_a_copy)
    print(type(future.exception(timeout=60)).__name__, Path(made.read_text()).exists())
elif case == "bus":
    import os, signal
    def dies(store):
        os.kill(os.getpid(), signal.SIGBUS)  # as a mapped read of a file truncated under it dies
    future = read_aside(opener, dies)
    print(type(future.exception(timeout=60)).__name__)
elif case == "dumpable":
    import ctypes, os, signal
    from pathlib import Path
    seen = Path(path).with_name("dumpable")
    def dies_mapped(store):  # PR_GET_DUMPABLE, then the death a mapped read of a truncated file dies
        seen.write_text(f"{store.first_look} {ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)}")
        os.kill(os.getpid(), signal.SIGBUS)
    future = read_aside(opener, dies_mapped)
    print(type(future.exception(timeout=60)).__name__, seen.read_text())
elif case == "look":
    aside = read_aside(opener, read_first_screen).result(timeout=60)
    print(aside.facts.read_only_reason is None, len(aside.listing.rows))
else:
    future = read_aside(opener, read_first_screen)
    aside = future.result(timeout=60)
    assert "sqlalchemy" not in sys.modules  # read in the child, received without the store's modules
    with opener() as store:
        here = read_first_screen(store)
    print(aside == here, aside.facts.location == path, len(aside.listing.rows), aside.history is not None)
"""


def aside(host_db: Path, case: str) -> str:
    args = [sys.executable, "-c", ASIDE, str(host_db), case]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_child_reads_what_this_process_would_read(tmp_path: Path) -> None:
    host_db = build_host_db(tmp_path / "context.db")
    equal, located, rows, history = aside(host_db, "reads").split()
    assert (equal, located, history) == ("True", "True", "True") and int(rows) > 0


def test_a_store_that_cannot_open_gives_no_first_screen(tmp_path: Path) -> None:
    assert aside(tmp_path / "context.db", "fails") == "FirstScreenUnread"


def test_a_store_that_refuses_hands_back_why(tmp_path: Path) -> None:
    """The store's own refusal comes back as it was raised: the window raises it as the command line
    always said it, without opening the store a second time."""
    said = aside(tmp_path / "context.db", "refused")
    assert said == "DatabaseOpenError | the database is locked by another program"


def test_the_child_reads_a_never_opened_file_as_it_is(tmp_path: Path) -> None:
    """The child's first look writes nothing (no migration, nothing beside the file) and says the store
    is writable, as the window's own store, which migrates it after the first paint, will be."""
    host_db = build_host_db(tmp_path / "context.db")
    before, beside = host_db.read_bytes(), sorted(tmp_path.iterdir())
    writable, rows = aside(host_db, "look").split()
    assert writable == "True" and int(rows) > 0
    assert host_db.read_bytes() == before and sorted(tmp_path.iterdir()) == beside


def test_a_damaged_file_never_opened_is_refused_by_the_child_where_its_reads_go(tmp_path: Path) -> None:
    """The child reads a never-opened file as it is: a read that meets damaged pages has the file checked
    and is refused as the store that writes refuses it (the check's verdict, not the read's error),
    before any first screen is handed back, nothing written."""
    host_db = build_host_db(tmp_path / "context.db")
    damage_read_pages(host_db)
    before = host_db.read_bytes()
    kind, said = aside(host_db, "damaged").split(" | ")
    assert kind == "DatabaseOpenError" and "damaged" in said and "nothing was changed" in said
    assert host_db.read_bytes() == before


def test_damage_the_child_never_reads_is_left_to_the_window_store(tmp_path: Path) -> None:
    """Pages the first screen does not read are not checked by the child (a check of every page is a
    fifth of a second of a large file, beside the window's own start): its first screen comes back, and
    the window's store, opened after the first paint, refuses the file (`test_store_refused_late`)."""
    host_db = build_host_db(tmp_path / "context.db")
    damage_unread_pages(host_db)
    before = host_db.read_bytes()
    writable, rows = aside(host_db, "look").split()
    assert writable == "True" and int(rows) > 0
    assert host_db.read_bytes() == before


def test_a_child_killed_by_a_signal_gives_no_first_screen(tmp_path: Path) -> None:
    """A first look reads a never-opened file mapped: a file truncated under that read kills the child
    (SIGBUS, sent here) rather than raising. The read aside then hands back neither a first screen nor a
    refusal, so the window's own store opens and reads, as after any read aside that failed."""
    host_db = build_host_db(tmp_path / "context.db")
    assert aside(host_db, "bus") == "FirstScreenUnread"


def test_a_child_reading_mapped_dies_without_a_core_dump(tmp_path: Path) -> None:
    """That death is expected, not a crash to report: the child reading a never-opened file mapped is not
    dumpable (no core file, nothing for a crash reporter)."""
    host_db = build_host_db(tmp_path / "context.db")
    assert aside(host_db, "dumpable") == "FirstScreenUnread True 0"


def test_a_read_failing_on_a_sound_never_opened_file_is_no_refusal(tmp_path: Path) -> None:
    """A first look holds no lock on a file nobody had open: the host may rewrite it under the read, which
    then fails though the file is sound. The child's check of its pages finds it sound, so it hands back
    nothing rather than a refusal of the launch: the window's own store opens it and reads."""
    host_db = build_host_db(tmp_path / "context.db")
    assert aside(host_db, "moved") == "FirstScreenUnread"


def test_a_child_killed_reading_a_private_copy_leaves_no_copy_behind(tmp_path: Path) -> None:
    host_db = build_host_db(tmp_path / "context.db")
    assert aside(host_db, "killed snapshot") == "FirstScreenUnread False"


def test_a_launch_that_stops_waiting_ends_its_child(tmp_path: Path) -> None:
    """The person quit while the first screen was read (a stalled disk): the child reading it is ended,
    not left reading; its future, cancelled, is never settled after (no error in the receiving thread)."""
    args = [sys.executable, "-c", ASIDE, str(tmp_path / "context.db"), "cancelled"]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(args, capture_output=True, text=True, timeout=100, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False"] and done.stderr == ""


def test_a_child_ended_leaves_no_copy_of_the_file_behind(tmp_path: Path) -> None:
    """A file read through a private snapshot (a log with data and nobody holding it open): the child
    killed mid-read never removed its copy; the launch removes it once the child has gone."""
    host_db = build_host_db(tmp_path / "context.db")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    args = [sys.executable, "-c", ASIDE, str(host_db), "snapshot"]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "TMPDIR": str(temporary)}
    done = subprocess.run(args, capture_output=True, text=True, timeout=100, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "0"] and done.stderr == ""
    assert list(temporary.iterdir()) == []


def test_a_child_the_system_reaped_still_hands_back_its_first_screen(tmp_path: Path) -> None:
    """A process started with SIGCHLD ignored (inherited through exec from whatever launched it) has its
    children reaped by the system: waiting for the child finds none. The first screen it handed back is
    still received; the window, waiting for it, would otherwise never be shown."""
    host_db = build_host_db(tmp_path / "context.db")
    assert int(aside(host_db, "reaped")) > 0


def test_a_process_running_threads_reads_nothing_aside(tmp_path: Path) -> None:
    host_db = build_host_db(tmp_path / "context.db")
    assert aside(host_db, "threads") == "True"
