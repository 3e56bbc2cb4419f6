"""A virtual X server for the tests that need a real window system (`tests/ui/xvfb`): `Xvfb` on a free
display number drawn at random from a high range (the lowest free one, :0, is what any other X server on
the machine takes first, and two starting at once race for it), ready when it says so (`-displayfd`), no TCP.

    python tests/support/xvfb_display.py start      # start; prints "PID :N" (for a shell's trap)
    python tests/support/xvfb_display.py stop PID   # stop it

`.ci/run` starts one for the whole run and exports MEMORY_DASHBOARD_TEST_DISPLAY=:N; without it, or when
that display does not answer (`answers`), the tests start one of their own when the `Xvfb` program exists
(saying so in a warning in the second case), and fail with how to get one when not.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import socket
import subprocess
import sys
import time

DISPLAY_ENV = "MEMORY_DASHBOARD_TEST_DISPLAY"
SCREEN = "1600x1000x24"
START_TIMEOUT_S = 30
DISPLAYS = range(100, 1000)  # drawn from at random
TRIES = 8
HOW_TO = (
    "The keyboard and focus tests run under a real X server. Install Xvfb (Debian/Ubuntu: `apt-get "
    "install xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 "
    "libxcb-shape0 libxkbcommon-x11-0`; Fedora: `dnf install xorg-x11-server-Xvfb`), or point "
    f"{DISPLAY_ENV} at a running X server's display (e.g. :99), or run `.ci/run`, which starts one."
)


class NoDisplay(RuntimeError):
    """No X server can be had: the message says how to get one."""


def start() -> tuple[int, str]:
    """Start Xvfb on a free display; returns its process id and the display (":N")."""
    program = shutil.which("Xvfb")
    if program is None:
        raise NoDisplay(HOW_TO)
    free = [n for n in DISPLAYS if not os.path.exists(f"/tmp/.X{n}-lock")]
    exit_codes = []
    for number in random.sample(free, min(TRIES, len(free))):
        started = _start_on(program, number)
        if isinstance(started, int):
            return started, f":{number}"
        exit_codes.append(started[0])  # taken meanwhile, or refused: try another
    raise NoDisplay(f"Xvfb did not start (exits {exit_codes}). {HOW_TO}")


def _start_on(program: str, number: int) -> int | tuple[int | None]:
    """Xvfb on display `number`: its process id once it is ready, else (its exit code,)."""
    read_end, write_end = os.pipe()
    command = [program, f":{number}", "-displayfd", str(write_end), "-screen", "0", SCREEN]
    command += ["-nolisten", "tcp", "-noreset"]  # no reset between one session's client and the next's
    try:
        try:
            process = subprocess.Popen(
                command,
                pass_fds=(write_end,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # outlives `start` when a shell runs it; a Ctrl+C hits the tests only
            )
        finally:
            os.close(write_end)
        try:
            said = _line(read_end).decode().strip()
        except BaseException:  # interrupted while it starts: leave no server nobody knows the pid of
            _end(process)
            raise
    finally:
        os.close(read_end)  # only once its line is whole: Xvfb dies when its newline meets a closed pipe
    if said != str(number):
        _end(process)
        return (process.returncode,)
    return process.pid


def _end(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    process.wait()


def answers(display: str) -> bool:
    """Whether an X server accepts connections on `display` (":N") through its Unix socket, the way
    Qt's xcb platform connects; a server gone since it started does not. Other forms ("host:N", "unix:N")
    are not probed: False."""
    number = display.removeprefix(":").split(".")[0]
    if not number.isdigit():
        return False
    path = f"/tmp/.X11-unix/X{number}"
    for address in (path, "\0" + path):  # the socket file, then the abstract one (Linux)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(START_TIMEOUT_S)
            try:
                probe.connect(address)
            except OSError:
                continue
            return True
    return False


def _line(fd: int) -> bytes:
    """What Xvfb writes to its `-displayfd` up to the newline ("N" and "\\n" may come in two writes), or
    what came before the pipe closed or START_TIMEOUT_S ran out."""
    deadline = time.monotonic() + START_TIMEOUT_S
    said = b""
    while not said.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        more = os.read(fd, 32) if ready else b""
        if not more:  # timed out, or Xvfb closed the pipe (it exited)
            break
        said += more
    return said


def stop(pid: int) -> None:
    """Stop the server `start` started (gone already: nothing to do)."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:  # our child when the tests started it: reap it
        os.waitpid(pid, 0)
        return
    except ChildProcessError:
        pass
    deadline = time.monotonic() + START_TIMEOUT_S  # another process's child (a shell's): wait it out
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def main(argv: list[str]) -> int:
    try:
        if argv == ["start"]:
            pid, display = start()
            print(pid, display)
            return 0
        if len(argv) == 2 and argv[0] == "stop" and argv[1].isdigit():
            stop(int(argv[1]))
            return 0
    except NoDisplay as exc:
        print(exc, file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
