"""``python -m gui.scenarioeditor [SCENARIO] [--tab N] [--screenshot OUT.png]``: the scenario editor on its own."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.scenarioeditor", description="Sandtable's scenario editor")
    p.add_argument("file", nargs="?", help="a scenario file to open")
    p.add_argument("--tab", type=int, default=0, help="the page to show first (0: scenario … 4: check and play, 5: rules, 6: balance)")
    p.add_argument("--play", action="store_true", help="play the scenario with bots once it is open")
    p.add_argument("--group", help="the set-up group to show on the set-up page")
    p.add_argument("--centre", metavar="HEX", help="centre the map on this hex")
    p.add_argument("--zoom", type=float, help="the map's zoom (1.0: the scan pixel for pixel)")
    p.add_argument("--screenshot", metavar="OUT.png", help="open offscreen, save a PNG of the window and exit")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from PySide6.QtCore import Qt

    from .window import ScenarioEditor

    app = QApplication.instance() or QApplication(sys.argv[:1])
    ed = ScenarioEditor()
    ed.resize(1400, 900)
    ed.show()
    opened = ed.open_scenario(Path(args.file)) if args.file else True
    ed.tabs.setCurrentIndex(args.tab)
    if args.tab == 3 and ed.victory.list.count():
        ed.victory.list.setCurrentRow(0)
    if args.group and opened:
        items = ed.setup.groups.findItems(args.group, Qt.MatchExactly)
        if items:
            ed.setup.groups.setCurrentItem(items[0])
    if args.play and opened:
        from PySide6.QtCore import QEventLoop, QTimer

        loop = QEventLoop()
        ed.runner.finished.connect(loop.quit)
        ed.runner.failed.connect(loop.quit)
        QTimer.singleShot(300_000, loop.quit)
        if ed.play_headless():
            loop.exec()
    if args.screenshot:
        app.processEvents()
        ed.map_view.fit()
        if args.zoom:
            ed.map_view.set_zoom(args.zoom)
        if args.centre and opened:
            ed.map_view.centre_on_hex(ed.board.parse_hex(args.centre))
        ed.map_view.wait_until_drawn()
        app.processEvents()
        ok = ed.grab().save(args.screenshot)
        if not opened:
            print(ed.last_message, file=sys.stderr)
        return 0 if ok and opened else 1
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
