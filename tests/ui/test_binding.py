"""The Qt binding itself: PySide6 6.12.0 on Python 3.11 drops a reference to None on every call that
returns it (QPainter.save, setPen, index.data of an empty role...), so a window aborts with
`none_dealloc` after a few hundred card paints. pyproject.toml keeps that release out; this test says
so if a future one brings the leak back.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QImage, QPainter


def test_calls_returning_none_keep_none_alive() -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        before = sys.getrefcount(None)
        for _ in range(200):
            painter.save()
            painter.restore()
        after = sys.getrefcount(None)
    finally:
        painter.end()
    assert after >= before - 50, f"references to None fell from {before} to {after}: a leaking PySide6"
