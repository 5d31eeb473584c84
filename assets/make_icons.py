"""Render the application icon from its vector source: PNGs of every size the desktops ask for, a Windows .ico
and a macOS .icns.  Run it after changing icon/sandtable.svg:  python assets/make_icons.py"""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(svg: Path, size: int):
    """The icon at ``size`` pixels as a Pillow image (drawn by Qt's SVG renderer)."""
    from PIL import Image
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.WriteOnly)
    image.save(buf, "PNG")
    return Image.open(io.BytesIO(bytes(data))).convert("RGBA")


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (Qt's painting needs one)
    svg = HERE / "icon" / "sandtable.svg"
    images = {n: render(svg, n) for n in SIZES}
    for n, im in images.items():
        im.save(HERE / "icon" / f"sandtable-{n}.png", optimize=True)
    images[256].save(HERE / "icon" / "sandtable.ico", sizes=[(n, n) for n in SIZES if n <= 256])
    images[512].save(HERE / "icon" / "sandtable.icns")
    print(f"icons written to {HERE / 'icon'}: {', '.join(str(n) for n in SIZES)} px, .ico, .icns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
