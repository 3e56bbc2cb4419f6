"""The screen as a person sees it: `python -m tests.bench.window.screen_watch` captures an X server's whole
screen every 100 ms and says when it changed.

Run on the display under test (`DISPLAY=:N`, Qt's xcb platform). It grabs the root window once, prints
`ready`, and waits for a line `go` on stdin (sent just before the measured program starts, so this
process's own start is never timed). Then it grabs the screen every `PERIOD_S`, compares each capture
with the one before, and notes the `perf_counter` of every capture that differs by more than
`THRESHOLD_PIXELS` pixels (a text caret's blink stays under it; a line of text, a button that greys, a
panel that fills do not). It stops once the screen has not changed for `QUIET_S` after its first change
(or at `DEADLINE_S`) and prints one JSON line: `{"changes": [t, ...], "ended": t}`.

Imports PySide6 only (never `app`/`ui`); `perf_counter` is the system-wide monotonic clock on Linux, so
its times compare with the parent's.
"""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtGui import QGuiApplication, QImage

PERIOD_S = 0.1
THRESHOLD_PIXELS = 40  # the same for every program measured
QUIET_S = 2.5
DEADLINE_S = 20.0


def capture() -> QImage:
    screen = QGuiApplication.primaryScreen()
    return screen.grabWindow(0).toImage().convertToFormat(QImage.Format.Format_RGB32)


def changed_pixels(before: QImage, after: QImage, enough: int = THRESHOLD_PIXELS) -> int:
    """How many pixels differ, counted up to `enough` (rows compared whole first: most are equal)."""
    if before.size() != after.size():
        return enough
    width, stride = before.width(), before.bytesPerLine()
    old, new = bytes(before.constBits()), bytes(after.constBits())
    found = 0
    for row in range(before.height()):
        start = row * stride
        a, b = old[start : start + width * 4], new[start : start + width * 4]
        if a == b:
            continue
        found += sum(1 for i in range(0, len(a), 4) if a[i : i + 3] != b[i : i + 3])
        if found >= enough:
            return found
    return found


def watch() -> dict[str, object]:
    changes: list[float] = []
    previous = capture()
    started = time.perf_counter()
    next_at = started
    while True:
        next_at += PERIOD_S
        time.sleep(max(0.0, next_at - time.perf_counter()))
        now = time.perf_counter()
        current = capture()
        if changed_pixels(previous, current) >= THRESHOLD_PIXELS:
            changes.append(now)
        previous = current
        quiet = changes and now - changes[-1] >= QUIET_S
        if quiet or now - started >= DEADLINE_S:
            return {"changes": changes, "ended": now}


def main() -> None:
    app = QGuiApplication(sys.argv[:1])
    capture()  # the first grab sets up what later grabs reuse
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        sys.exit(2)
    print(json.dumps(watch()), flush=True)
    del app


if __name__ == "__main__":
    main()
