"""``sandtable [FILE]``: the main window."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine import content

from engine.content import default_file  # noqa: F401  (what ``sandtable`` opens when given nothing)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="sandtable", description="Play, digitise and build paper wargames")
    p.add_argument("file", nargs="?", help="a map or scenario file to open")
    p.add_argument("--screenshot", metavar="OUT.png", help="open offscreen, save a PNG of the window and exit")
    p.add_argument("--map-editor", action="store_true", help="open the file (a map) in the map editor")
    p.add_argument("--version", action="version",
                   version=f"%(prog)s {_version(with_tiler='--version' in argv)}")
    return p.parse_args(argv)


def _version(with_tiler: bool = False) -> str:
    """The program's version; ``with_tiler``: and the library that cuts map scans into tiles."""
    from engine import __version__

    if not with_tiler:
        return __version__
    from gui.scene.tiles import tiler_name

    return f"{__version__} (map tiles by {tiler_name()})"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["engine"]:      # ``sandtable engine play ...``: the engine's command line from the same program
        from engine.cli import main as engine_main    # (a desktop bundle has no Python to run ``-m engine`` with)

        return engine_main(argv[1:])
    args = parse_args(argv)
    from gui.common.qtcheck import missing_packages

    if not os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        missing = missing_packages()
        if missing:
            print("Sandtable cannot start Qt: missing system packages: " + " ".join(missing), file=sys.stderr)
            print(f"Install them with:  sudo apt-get install {' '.join(missing)}", file=sys.stderr)
            return 1
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from gui.play.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Sandtable")
    set_icon(app)
    from gui.table import is_table_file
    from gui.common.userfolders import autosave_path, data_root

    from gui.tcs import is_tcs_path

    # a gridless skirmish is played on its table (gui/table); a TCS game in the play window
    if args.file and is_table_file(args.file) and not is_tcs_path(args.file):
        from gui.table.window import run_table_window

        return run_table_window(app, Path(args.file), args.screenshot, None if args.screenshot else autosave_path())
    if args.map_editor:
        return _map_editor(app, args)
    win = MainWindow(recent=data_root() / "recent.toml")
    if args.screenshot:
        path = Path(args.file) if args.file else default_file()
        win.resize(1280, 860)
        win.show()
        app.processEvents()
        opened = win.open_file(path)
        app.processEvents()
        win.map_view.fit()
        win.map_view.wait_until_drawn()
        ok = win.grab().save(args.screenshot)
        if not opened:
            print(win.last_error, file=sys.stderr)
        else:                                  # what the picture shows, for the packaging checks
            pieces = win.session.pieces() if win.session is not None else []
            print(f"{path.name}: {len(win.board.hexes())} hexes, {len(pieces)} counters on the map")
        win.close()
        win.deleteLater()
        app.processEvents()
        return 0 if ok and opened else 1
    from PySide6.QtCore import QSize

    from gui.common.settings import problems, remember_layout

    remember_layout(win, "play", QSize(1280, 860))
    win.panels.show_game(win.session)     # the remembered layout holds only the panels of the game it had
    open_at_start(win, args.file)
    if problems():                 # a value of the wrong type in the settings file: its default is used
        win.statusBar().showMessage("Settings: " + "; ".join(problems()), 30000)
    return app.exec()


def set_icon(app) -> None:
    """The application's icon (assets/icon) on every window, and the desktop entry it belongs to."""
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for n in (16, 24, 32, 48, 64, 128, 256, 512):
        p = content.assets() / "icon" / f"sandtable-{n}.png"
        if p.is_file():
            icon.addFile(str(p))
    if not icon.isNull():
        app.setWindowIcon(icon)
    app.setDesktopFileName("sandtable")


def _map_editor(app, args) -> int:
    """``sandtable --map-editor [MAP]``: the map editor in a window of its own (with --screenshot: a picture of it)."""
    from gui.mapeditor.editor import MapEditor

    win = MapEditor()
    win.leave.connect(win.close)
    win.resize(1500, 950)
    opened = win.open_file(Path(args.file)) if args.file else True
    win.show()
    if not args.screenshot:
        return app.exec()
    app.processEvents()
    win.fit_view()
    win.view.wait_until_drawn()
    ok = win.grab().save(args.screenshot)
    if win.board is not None:
        print(f"{Path(args.file).name if args.file else 'new map'}: {len(win.board.hexes())} hexes in the map editor")
    win.edit = None                        # nothing to ask about on closing
    win.close()
    app.processEvents()
    return 0 if ok and opened else 1


def open_at_start(win, file: str | None) -> bool:
    """Show the window, then open the file named on the command line, the autosave (if the user resumes it), or
    else the game library: a welcome at the first start (no game opened before: the list of recent files is
    empty), later with the most recent file of Open recent selected (a saved game offers to continue it), never a
    fresh default game that would look as if the last one were lost.  The window is shown first so that a bad
    file gets the same dialog as File > Open; an autosave that cannot be opened is kept aside by the window and
    the default scenario opens instead."""
    win.show()
    if not file and win.autosave.is_file() and _resume_wanted(win):
        if win.open_file(win.autosave):
            return True
        return win.open_file(default_file(), remember=False)
    if file:
        return win.open_file(Path(file))
    recent = win.recent_files()
    win.show_library(first_start=not recent, select=recent[0] if recent else None)
    return True


def _resume_wanted(win) -> bool:
    """Sandtable was not closed normally last time: offer the game it had autosaved."""
    from PySide6.QtWidgets import QMessageBox

    answer = QMessageBox.question(win, "Resume the last game?",
                                  "Sandtable did not close normally last time. Resume the game it saved then?",
                                  QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
    return answer == QMessageBox.Yes


if __name__ == "__main__":
    sys.exit(main())
