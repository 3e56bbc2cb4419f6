"""Running a reviewer command: the prompt on its stdin, the verdict from its stdout (read up to a limit).

The command (e.g. a local model's CLI) is split with shlex and run without a shell, in its own process
group so a timeout stops whatever it started. A model that wraps its answer in a ```json block (or
says a sentence around a bare object) is understood; anything else is a clear error, as are a non-zero
exit (with the tail of its stderr) and a timeout.

A `ReviewCancel` handle lets another thread stop a run: it kills the reviewer's process group, and once
cancelled the verdict is never applied (cancelling after the apply began is refused instead).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from typing import IO

from app.core.errors import StoreError
from app.core.settings import Settings, settings_path
from app.core.text_input import DuplicateKeyError
from app.review.apply import ApplyResult, apply_verdict
from app.review.errors import ReviewCancelled, ReviewerError, VerdictError
from app.review.prompt import build_prompt
from app.review.verdict import Verdict, load_json, parse_verdict
from app.store import MemoryStore

STDERR_TAIL_CHARS = 2_000
# Far above any verdict (each content is at most 64 KiB), as a verdict file's own limit.
MAX_ANSWER_BYTES = 64 * 1024 * 1024
READ_CHUNK = 64 * 1024
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)


def split_command(command: str | Sequence[str]) -> list[str]:
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ReviewerError(f"cannot read the reviewer command {command!r}: {exc}") from exc
    else:
        argv = list(command)
    if not argv:
        raise ReviewerError("the reviewer command is empty")
    return argv


def resolve_command(explicit: str | None, settings: Settings) -> str:
    """`--reviewer`, else the settings' `reviewer_command`, else a message saying where to set one."""
    command = explicit if explicit and explicit.strip() else settings.reviewer_command
    if not command:
        raise ReviewerError(
            f"no reviewer command: pass --reviewer 'COMMAND' or set reviewer_command in {settings_path()}"
        )
    return command


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        process.kill()


class ReviewCancel:
    """Cancel a review from another thread: stop its reviewer, and make sure its verdict is not applied.

    `cancel()` is True when the run will change nothing; False when the verdict is already being applied
    (the run then finishes normally).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._applying = False
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def cancelled(self) -> bool:
        with self._lock:
            return self._cancelled

    def cancel(self) -> bool:
        with self._lock:
            if self._applying:
                return False
            self._cancelled = True
            if self._process is not None and self._process.returncode is None:
                _stop(self._process)
            return True

    def attach(self, process: subprocess.Popen[bytes] | None) -> None:
        """The running reviewer (None once it ended); a run already cancelled stops it at once."""
        with self._lock:
            self._process = process
            if process is not None and self._cancelled:
                _stop(process)

    def check(self) -> None:
        """Raise ReviewCancelled if cancelled."""
        if self.cancelled:
            raise ReviewCancelled()

    def begin_apply(self) -> None:
        """From here on the run cannot be cancelled; raise ReviewCancelled if it already was."""
        with self._lock:
            if self._cancelled:
                raise ReviewCancelled()
            self._applying = True


def _feed(process: subprocess.Popen[bytes], prompt: bytes) -> None:
    """The prompt to the reviewer's stdin, then closed (one that exits unread is no error here)."""
    assert process.stdin is not None
    try:
        process.stdin.write(prompt)
        process.stdin.close()
    except (BrokenPipeError, OSError):
        pass


class _Capped(threading.Thread):
    """Reads one of the reviewer's outputs up to `MAX_ANSWER_BYTES`; past them, stops the reviewer (an
    answer kept whole, or an endless one until the timeout, would fill memory). Past the limit a stderr
    keeps its last part: only its tail is ever shown."""

    def __init__(self, process: subprocess.Popen[bytes], stream: IO[bytes] | None) -> None:
        super().__init__(daemon=True)
        assert stream is not None
        self._process, self._stream = process, stream
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self.over = False

    def run(self) -> None:
        keep_tail = self._stream is self._process.stderr
        while chunk := self._stream.read(READ_CHUNK):
            self._chunks.append(chunk)
            self._size += len(chunk)
            while keep_tail and self._size > MAX_ANSWER_BYTES:
                self._size -= len(self._chunks.popleft())
            if self._size > MAX_ANSWER_BYTES:
                self.over = True
                _stop(self._process)
                self._chunks.clear()
                break
        self._stream.close()

    def data(self) -> bytes:
        return b"".join(self._chunks)


def _tail(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace").strip()
    return text if len(text) <= STDERR_TAIL_CHARS else "…" + text[-STDERR_TAIL_CHARS:]


def run_reviewer(
    command: str | Sequence[str], prompt: str, *, timeout_s: float, cancel: ReviewCancel | None = None
) -> str:
    """The reviewer's stdout; a failure to start, a timeout or a non-zero exit is a ReviewerError, and a
    cancel (through `cancel`) is ReviewCancelled."""
    argv = split_command(command)
    if cancel is not None:
        cancel.check()
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        raise ReviewerError(f"cannot run the reviewer {argv[0]!r}: {exc.strerror or exc}") from exc
    if cancel is not None:
        cancel.attach(process)
    out, err = _Capped(process, process.stdout), _Capped(process, process.stderr)
    feeding = threading.Thread(target=_feed, args=(process, prompt.encode("utf-8")), daemon=True)
    for thread in (feeding, out, err):
        thread.start()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        _stop(process)
        process.wait()
        if cancel is not None:
            cancel.check()
        raise ReviewerError(f"the reviewer did not answer within {timeout_s:g} s and was stopped") from exc
    finally:
        if cancel is not None:
            cancel.attach(None)
        for thread in (feeding, out, err):
            thread.join()
    if cancel is not None:
        cancel.check()
    if out.over:
        limit = MAX_ANSWER_BYTES // 2**20
        raise ReviewerError(
            f"the reviewer printed more than {limit} MiB, far past any verdict; it was stopped"
        )
    stdout, stderr = out.data(), err.data()
    if process.returncode != 0:
        status = (
            f"was killed by signal {-process.returncode}"
            if process.returncode < 0
            else f"exited with status {process.returncode}"
        )
        tail = _tail(stderr)
        raise ReviewerError(f"the reviewer {status}" + (f"; its stderr ended with:\n{tail}" if tail else ""))
    return stdout.decode("utf-8", errors="replace")


def extract_json(output: str) -> str:
    """The JSON text of a reviewer's answer: all of it when it is one bare object (whose texts may quote a
    fence), else its one ```json block, else its one bare ``` block, else all."""
    text = output.strip()
    if text.startswith("{") and text.endswith("}"):
        return text
    blocks: list[tuple[str, str]] = [
        (str(match.group(1)).lower(), str(match.group(2)).strip()) for match in _FENCE.finditer(output)
    ]
    tagged = [body for lang, body in blocks if lang == "json"]
    if len(tagged) > 1:
        raise ReviewerError(f"the reviewer's answer holds {len(tagged)} ```json blocks; expected one")
    if tagged:
        return tagged[0]
    bare = [body for lang, body in blocks if not lang]
    if len(bare) == 1:
        return bare[0]
    if not text.startswith("{") and "{" in text and "}" in text:
        return text[text.index("{") : text.rindex("}") + 1]
    return text


def verdict_from_output(output: str, *, allow_hidden: bool = False) -> Verdict:
    """Parse a reviewer's stdout: unparsable JSON is a ReviewerError, a bad verdict a VerdictError."""
    text = extract_json(output)
    try:
        # The verdict's own strict reader: bounded nesting, every key once (a plain parser would keep the
        # last of two and recurse without a bound on what a reviewer prints).
        document = load_json(text)
    except VerdictError as exc:
        if isinstance(exc.__cause__, DuplicateKeyError):
            raise
        began = output.strip()[:200] or "(nothing)"
        why = "; ".join(exc.problems)
        raise ReviewerError(f"the reviewer's answer is not verdict JSON ({why}); it began:\n{began}") from exc
    return parse_verdict(document, allow_hidden=allow_hidden)


def run_review(
    store: MemoryStore,
    command: str | Sequence[str],
    *,
    timeout_s: float,
    run_id: str | None = None,
    holder: str | None = None,
    allow_hidden: bool = False,
    cancel: ReviewCancel | None = None,
) -> ApplyResult:
    """Build the prompt, ask the reviewer, apply its verdict under the lease (unless cancelled first)."""
    output = run_reviewer(command, build_prompt(store), timeout_s=timeout_s, cancel=cancel)
    try:
        verdict = verdict_from_output(output, allow_hidden=allow_hidden)
    except StoreError:
        if cancel is not None:
            cancel.check()  # cancelled meanwhile: that is the answer, not the bad verdict
        raise
    if cancel is not None:
        cancel.begin_apply()
    return apply_verdict(store, verdict, run_id=run_id, holder=holder)
