"""``python -m gui.mapeditor [MAP.toml]``: the map editor in a window of its own."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.mapeditor", description="Digitise a scanned map")
    p.add_argument("file", nargs="?", help="a map file to edit (none: start with 'New map from scans')")
    p.add_argument("--size", default="1500x950", help="window size, like 1500x950")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    from PySide6.QtWidgets import QApplication

    from .editor import MapEditor

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sandtable")
    win = MapEditor()
    win.leave.connect(win.close)
    w, h = (int(x) for x in args.size.lower().split("x"))
    win.resize(w, h)
    if args.file:
        win.open_file(Path(args.file))
    win.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
