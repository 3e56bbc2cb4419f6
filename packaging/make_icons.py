"""Render the app icon (resources/icons/memory-dashboard.svg) to the PNG, ICO and ICNS files the build needs.

Run `python packaging/make_icons.py [--out build/icons] [--update-resource]`. Qt renders the SVG offscreen
(QtSvg's QSvgRenderer); the ICO and ICNS containers are written here from PNG chunks, so the result does not
depend on which Qt image-format plugins a machine has. `--update-resource` also rewrites the committed
256 px PNG that the app uses as its window icon.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG_SOURCE = ROOT / "resources" / "icons" / "memory-dashboard.svg"
RESOURCE_PNG = ROOT / "resources" / "icons" / "memory-dashboard-256.png"
ICON_NAME = "memory-dashboard"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS chunk types holding PNG data, with their pixel size (ic11..ic14 are the @2x variants).
ICNS_CHUNKS = (
    ("ic11", 32),
    ("ic12", 64),
    ("ic07", 128),
    ("ic13", 256),
    ("ic08", 256),
    ("ic14", 512),
    ("ic09", 512),
    ("ic10", 1024),
)


def render_pngs(svg: Path, sizes: set[int]) -> dict[int, bytes]:
    """Render `svg` at each size (square, transparent background) and return the PNG bytes by size."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: cannot read SVG {svg}")
    result: dict[int, bytes] = {}
    for size in sorted(sizes):
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; PySide6 wants str
        buffer.close()
        result[size] = bytes(data.data())
    return result


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding each PNG as one image (PNG entries are valid since Windows Vista)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries = b""
    for size in sizes:
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(pngs[size]), offset)
        offset += len(pngs[size])
    return header + entries + b"".join(pngs[size] for size in sizes)


def icns_bytes(chunks: list[tuple[str, bytes]]) -> bytes:
    """A macOS .icns: the 'icns' magic and total length, then (type, length, PNG data) chunks, big-endian."""
    body = b"".join(kind.encode("ascii") + struct.pack(">I", 8 + len(data)) + data for kind, data in chunks)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def write_icons(out: Path, svg: Path = SVG_SOURCE) -> dict[int, bytes]:
    """Write png/<name>-<N>.png, <name>.ico and <name>.icns into `out`; return the PNGs by size."""
    wanted = set(PNG_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_CHUNKS}
    pngs = render_pngs(svg, wanted)
    png_dir = out / "png"
    png_dir.mkdir(parents=True, exist_ok=True)
    for size in PNG_SIZES:
        (png_dir / f"{ICON_NAME}-{size}.png").write_bytes(pngs[size])
    (out / f"{ICON_NAME}.ico").write_bytes(ico_bytes({size: pngs[size] for size in ICO_SIZES}))
    (out / f"{ICON_NAME}.icns").write_bytes(icns_bytes([(kind, pngs[size]) for kind, size in ICNS_CHUNKS]))
    (out / f"{ICON_NAME}.svg").write_bytes(svg.read_bytes())
    return pngs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "icons", help="output folder")
    parser.add_argument("--update-resource", action="store_true", help=f"also rewrite {RESOURCE_PNG.name}")
    args = parser.parse_args(argv)
    pngs = write_icons(args.out)
    if args.update_resource:
        RESOURCE_PNG.write_bytes(pngs[256])
    print(f"make_icons: wrote {len(PNG_SIZES)} PNGs, .ico and .icns to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
