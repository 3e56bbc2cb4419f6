"""What the window's first frame shows (`FirstScreen`), and its read beside the window's own start.

A launch forks, before it imports Qt, SQLAlchemy or the store (`read_aside`): the child opens the store
for a first look (`MemoryStore.open(first_look=True)`: a file never opened is read as it is, and refused
once the reads are done if another process holds its write lock, as the store that migrates it would be;
its pages are checked by the window's own store, after the first paint), reads the first frame's
parts (`ui.runtime.first_page.read_first_screen`), hands them back pickled through a pipe (or, when the
store refuses to open, why: `raise_refusal`) and exits; meanwhile this process imports Qt and the window
and builds it. A launch that stops waiting (the person quit while it read) cancels the future, which ends
the child. The store's imports and reads (SQLAlchemy alone is a
sixth of a second of Python) then run on a second core instead of holding this process's lock before
its first paint; the window opens its own store after that paint (`Controller.store`). The pipe is made
before the fork and read only by this process: what it carries is this program's own objects, never
anything another user or file hands in.

Where a process cannot fork (no `os.fork`, or threads already running, whose locks a child would inherit
held), `read_aside` returns None and the window reads its first frame through its own store.

No Qt, SQLAlchemy or store import here: everything a `FirstScreen` holds is a plain value of
`app.core` or `ui.cards.listing`, so receiving one imports nothing more.
"""

from __future__ import annotations

import copyreg
import io
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, InvalidStateError
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from app.core.errors import StoreError, is_sqlalchemy_error

if TYPE_CHECKING:
    from app.core.clock import Clock
    from app.core.models import Counts, Revision
    from app.core.models.command_log import LogEntry
    from app.core.models.evidence import Evidence
    from app.core.models.links import Link
    from app.store import MemoryStore
    from ui.cards.listing import Listing

T = TypeVar("T")
_READ, _REFUSED = "read", "refused"  # what the child hands back: a first screen, or why there is none


class StoreOpener(Protocol):
    """Opens the window's store; `first_look`: for the first frame's reads, before the window's own open
    (`MemoryStore.open`: a never-opened file is read as it is, its pages left for that open to check)."""

    def __call__(self, *, first_look: bool = False) -> AbstractContextManager[MemoryStore]: ...


@dataclass(frozen=True, slots=True)
class StoreFacts:
    """What the window says of its store before (and after) it has one open: where, and why nothing can be
    written there (None: it can be)."""

    location: str
    read_only_reason: str | None

    @classmethod
    def of(cls, store: MemoryStore) -> StoreFacts:
        """What `store` is; for a first look, what the store that writes, opened next, will be."""
        writable = not store.read_only or store.first_look
        return cls(store.location, None if writable else store.read_only_reason)


@dataclass(frozen=True, slots=True)
class FirstScreen:
    """What the window's first frame shows, read before the window is built."""

    facts: StoreFacts  # the store the parts were read from
    listing: Listing  # the first page of the starting filter
    history: tuple[int, list[Revision], list[Link]] | None  # the first card: revisions newest first
    counts: Counts
    undo_log: list[LogEntry]  # the command log, oldest first
    evidence: tuple[list[int], Mapping[int, Evidence]]  # the first card's candidates and their words

    def evidence_of(self, ids: Sequence[int]) -> Mapping[int, Evidence] | None:
        """The words read of exactly these candidates (None: others)."""
        return self.evidence[1] if list(ids) == self.evidence[0] else None

    def history_of(self, memory_id: int) -> tuple[list[Revision], list[Link]] | None:
        """The revisions and links read of `memory_id` (None: another memory's, or none)."""
        if self.history is None or self.history[0] != memory_id:
            return None
        return self.history[1], self.history[2]


@dataclass(slots=True)
class StoreLater:
    """A store the window opens on its first use (`Controller.store`), after its first frame: how to open
    it, the clock it will have, and what to say of it until then (`facts`: known once the first screen
    is read, before the window is shown)."""

    open: Callable[[], MemoryStore]
    clock: Clock
    facts: StoreFacts | None = None


class FirstScreenUnread(Exception):
    """The read aside ended without a first screen, for a reason it could not hand back: the window's
    own store says why, when it opens."""


def raise_refusal(first: Future[FirstScreen] | None) -> None:
    """Raise why the store the read aside opened could not be used (a `StoreError`, or a database
    error), as its open raised it, once the read has ended; nothing without one (read, or failed in
    another way). Raised as it is, it reads as the command line always said it, without opening the
    store a second time (a locked file would make the person wait its busy timeout twice)."""
    error = first.exception() if first is not None else None
    if error is not None and not isinstance(error, FirstScreenUnread):
        raise error


def first_part(first: Future[FirstScreen] | None, pick: Callable[[FirstScreen], T | None]) -> T | None:
    """`pick` of the first screen, once its reads are done; None without one, or when they failed (the
    part is then read again, through the window's store, which reports why)."""
    if first is None or first.exception() is not None:
        return None
    return pick(first.result())


def read_aside(
    open_store: StoreOpener, read: Callable[[MemoryStore], FirstScreen]
) -> Future[FirstScreen] | None:
    """`read` of the store `open_store` opens (`ui.runtime.first_page.read_first_screen`), run by a child
    process while this one goes on; None where this process cannot fork safely (the window then reads
    its first screen itself)."""
    if not hasattr(os, "fork") or threading.active_count() > 1:
        return None
    read_end, write_end = os.pipe()
    sys.stdout.flush()  # nothing buffered here is written twice
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: measured by the launch's tests from outside)
        os.close(read_end)
        _child(open_store, read, write_end)
    os.close(write_end)
    future: Future[FirstScreen] = Future()
    child = _Child(pid)
    future.add_done_callback(child.end_if_cancelled)
    receiver = threading.Thread(
        target=_receive, args=(read_end, child, future), name="first screen", daemon=True
    )
    receiver.start()
    return future


_PR_SET_DUMPABLE = 4  # <linux/prctl.h>
END_WAIT_S = 1.0  # how long a launch the person quit waits for its killed child to go


@dataclass(slots=True)
class _Child:
    """The child reading aside: ended when the launch no longer waits for it (its future cancelled: the
    person quit), never once reaped (its pid may then be another process's)."""

    pid: int
    reaped: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def end_if_cancelled(self, future: Future[FirstScreen]) -> None:
        """Killed (its writes, a migration or a lock taken and given back, are transactions: a kill loses
        none); once it has gone (within `END_WAIT_S`), what it left in the temporary folder (a private
        snapshot of a large file) is removed before it is reaped, while its pid is still its own. A child
        stuck longer (a read on a stalled disk ends when that read does) leaves it to the system's
        cleaning of that folder."""
        if not future.cancelled():
            return
        with self.lock:
            if self.reaped:
                return
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            if _ended_within(self.pid, END_WAIT_S):
                _left_behind(self.pid)
                self._reap()

    def reap(self, *, answered: bool = True) -> None:
        """Wait for the child to end (it has closed its pipe: it is ending). One that handed nothing back
        because a signal killed it (a SIGBUS: a mapped read of a file truncated under it) never removed
        what it left in the temporary folder: removed before it is reaped, while its pid is its own."""
        with self.lock:
            if self.reaped:
                return
            if not answered and _killed(self.pid):
                with suppress(Exception):  # whatever happens there, the child is reaped and the launch
                    _left_behind(self.pid)  # told (`_receive` settles its future next)
            self._reap()

    def _reap(self) -> None:
        """A child already reaped is no failure: a process started with SIGCHLD ignored (as some launchers
        leave it: it is inherited through exec) has its children reaped by the system, and `waitpid` then
        says there is none."""
        with suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        self.reaped = True


def _ended_within(pid: int, seconds: float) -> bool:
    """Whether child `pid` has ended within `seconds`, left unreaped (`WNOWAIT`): its pid stays its own."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True  # reaped by the system (SIGCHLD ignored)
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def _killed(pid: int) -> bool:
    """Whether child `pid`, ending, was ended by a signal; it is left unreaped (`WNOWAIT`)."""
    try:
        ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        return False  # reaped by the system (SIGCHLD ignored): its pid may be another's already
    return ended is not None and ended.si_code in (os.CLD_KILLED, os.CLD_DUMPED)


def _left_behind(pid: int) -> None:
    # Only the snapshot's module (no SQLAlchemy), and only for a child that could not clean up after itself.
    from app.store import remove_snapshots_of

    remove_snapshots_of(pid)


def _child(open_store: StoreOpener, read: Callable[[MemoryStore], FirstScreen], out: int) -> None:
    """Open, read, hand back, exit: never returns, never runs the parent's exit handlers. Its own
    messages are silenced: the window's store, opened next, gives every warning and error once."""
    data = b""
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        with open_store(first_look=True) as store:
            if store.first_look:
                _no_core_dump()
            try:
                screen = read(store)
            except BaseException as exc:
                sound = store.check_unread_pages()  # damaged pages a read met: the check says so
                if sound and is_sqlalchemy_error(exc, "DatabaseError"):  # the file changed under a look
                    raise FirstScreenUnread(str(exc)) from None  # that held no lock: no refusal of it
                raise
            store.confirm_first_look()  # a never-opened file's write lock
            data = _dumps(screen)
    except BaseException as exc:
        data = _refusal(exc)
    try:
        with os.fdopen(out, "wb") as pipe:
            pipe.write(data)
    finally:
        os._exit(0)


def _no_core_dump() -> None:
    """A first look reads a never-opened file mapped: a file truncated under that read kills the child
    (SIGBUS), and the window reads its first screen itself. That death is expected: it leaves no core file
    and no crash report of the program (`PR_SET_DUMPABLE` 0, Linux; 2 ms of ctypes)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def _receive(pipe: int, child: _Child, future: Future[FirstScreen]) -> None:
    """What the child hands back, settled in `future` whatever happens here (unless the launch stopped
    waiting for it: cancelled): the window waits for it."""
    data = b""
    try:
        with os.fdopen(pipe, "rb") as incoming:
            data = incoming.read()
    except Exception as exc:
        _settle(future, FirstScreenUnread(str(exc)))
        return
    finally:
        child.reap(answered=bool(data))
    if not data:
        _settle(future, FirstScreenUnread())
        return
    try:
        kind, value = pickle.loads(data)
    except Exception as exc:
        _settle(future, FirstScreenUnread(str(exc)))
        return
    if kind == _REFUSED:
        _settle(future, value)
    else:
        _settle(future, None, value)


def _settle(
    future: Future[FirstScreen], error: BaseException | None, screen: FirstScreen | None = None
) -> None:
    """`future`'s error or first screen; nothing once it was cancelled (nobody waits for it)."""
    with suppress(InvalidStateError):
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(cast("FirstScreen", screen))


def _mapping(items: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(items)


def _dumps(screen: FirstScreen) -> bytes:
    """`screen` pickled, its read-only mappings (`MappingProxyType`) as themselves."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: lambda m: (_mapping, (dict(m),))}
    pickler.dump((_READ, screen))
    return out.getvalue()


def _refusal(exc: BaseException) -> bytes:
    """A store's refusal to open or read (`raise_refusal`) pickled; nothing for any other failure, or one
    that does not pickle (the parent then opens the store itself and meets it)."""
    if not (isinstance(exc, StoreError) or is_sqlalchemy_error(exc, "DatabaseError")):
        return b""
    try:
        return pickle.dumps((_REFUSED, exc), pickle.HIGHEST_PROTOCOL)
    except Exception:
        return b""
