"""``python -m gui.mapeditor [MAP.toml]``: the map editor in a window of its own."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def open_window(size: str | None = None, file: str | None = None):
    """The editor's window, shown: ``size`` like "1500x950" (never larger than the screen), else as it was last
    left, or FIRST_SIZE shrunk to the screen, as when it opens from the play window."""
    from PySide6.QtCore import QSize

    from gui.common.settings import SCREEN_SHARE, fit_later, remember_layout, save_window

    from .editor import MapEditor
    from .mode import FIRST_SIZE, LAYOUT_KEY

    win = MapEditor()
    win.leave.connect(win.close)
    if size:
        w, h = (int(x) for x in size.lower().split("x"))
        screen = win.screen()
        if screen is not None:          # room for the window manager's frame, as the remembered layout leaves
            room = screen.availableGeometry()
            w, h = min(w, int(room.width() * SCREEN_SHARE)), min(h, int(room.height() * SCREEN_SHARE))
        win.resize(w, h)
        fit_later(win)                  # never larger than the screen, its frame included
    else:
        remember_layout(win, LAYOUT_KEY, QSize(*FIRST_SIZE))
        win.closed.connect(lambda: save_window(win, LAYOUT_KEY))
    if file:
        win.open_file(Path(file))
    win.show()
    return win


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.mapeditor", description="Digitise a scanned map")
    p.add_argument("file", nargs="?", help="a map file to edit (none: start with 'New map from scans')")
    p.add_argument("--size", default=None, help="window size, like 1500x950 (default: as it was last left, or "
                                                "1500x950 shrunk to the screen)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.size is not None:
        parts = args.size.lower().split("x")
        if len(parts) != 2 or not all(x.strip().isdigit() and int(x) > 0 for x in parts):
            p.error(f"--size {args.size}: expected a width and a height in pixels, like 1500x950")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sandtable")
    win = open_window(args.size, args.file)          # kept referenced while the program runs
    code = app.exec()
    del win
    return code


if __name__ == "__main__":
    sys.exit(main())
