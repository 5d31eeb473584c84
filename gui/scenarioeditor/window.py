"""The scenario editor window: the map with units and areas, pages for each part of a scenario, save and play."""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget, QFileDialog, QLabel, QListWidget, QMainWindow, QMessageBox, QSpinBox, QTabWidget, QVBoxLayout,
    QWidget, QPushButton,
)

from engine.scenario import edit as E
from engine.errors import BadFile, BadHexId
from engine.game import own_format_ruleset
from engine.maps.mapfile import load_map
from engine.scenario import Side, load_scenario, save_scenario

from gui.scene.counterart import CounterArt
from gui.scene.mapview import MapView
from gui.common.settings import last_folder, remember_folder
from gui.common.userfolders import games_folder, is_program_folder
from .areaoverlay import AreaOverlay
from .orderofbattle import UNIT_MIME, OrderOfBattlePage
from .balancepage import BalancePage
from .playrun import PlayRun
from .scenariopage import ScenarioPage
from .setuppage import SetupPage
from .victorypage import VictoryPage, VictoryPanel

UNDO_DEPTH = 200


class _DropOnMap(QObject):
    """Units dragged from the order of battle and dropped on a hex are set up there."""

    def __init__(self, editor):
        super().__init__(editor)
        self.editor = editor

    def eventFilter(self, obj, event):
        t = event.type()
        if t in (QEvent.DragEnter, QEvent.DragMove) and event.mimeData().hasFormat(UNIT_MIME):
            event.acceptProposedAction()
            return True
        if t == QEvent.Drop and event.mimeData().hasFormat(UNIT_MIME):
            ids = bytes(event.mimeData().data(UNIT_MIME)).decode().split()
            view = self.editor.map_view
            h = view.hex_at_scene(view.mapToScene(event.position().toPoint()))
            if h is not None and ids:
                self.editor.drop_unit(ids[0], h)
            event.acceptProposedAction()
            return True
        return False


class ScenarioEditor(QMainWindow):
    """Builds and changes a scenario; every change is an engine operation, checked by the engine's loader."""

    play_requested = Signal(str)       # a saved scenario file to open in the play window

    def __init__(self, cache: Path | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Sandtable — scenario editor")
        self.map_view = MapView(self, cache=cache)
        self.setCentralWidget(self.map_view)
        self.areas = AreaOverlay(self.map_view)
        self.map_view.viewport().setAcceptDrops(True)
        self._drop = _DropOnMap(self)
        self.map_view.viewport().installEventFilter(self._drop)
        self.map_view.hovered.connect(lambda t: self.statusBar().showMessage(t))
        self.scenario = None
        self.board = None
        self.path: Path | None = None
        self.dirty = False
        self.undo_stack: list = []
        self.last_message = ""
        self.problems_shown: list = []

        self.page = ScenarioPage(self)
        self.oob = OrderOfBattlePage(self)
        self.setup = SetupPage(self)
        self.victory = VictoryPage(self)
        self.result = VictoryPanel()
        self.problems = QListWidget()
        self.problems.setWordWrap(True)           # a long problem read whole, not cut at the list's edge
        self.problems.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.problems.setResizeMode(QListWidget.Adjust)
        check_page = QWidget()
        cl = QVBoxLayout(check_page)
        cl.addWidget(QLabel("Problems (empty: ready to play)"))
        cl.addWidget(self.problems, 1)
        self.seed = QSpinBox(minimum=1, maximum=10 ** 6, value=1)
        cl.addWidget(QLabel("seed"))
        cl.addWidget(self.seed)
        cl.addWidget(QPushButton("Play this scenario with bots", clicked=lambda: self.play_headless()))
        cl.addWidget(self.result, 2)
        self.balance = BalancePage(self)
        self.tabs = QTabWidget()
        for w, name in ((self.page, "Scenario"), (self.oob, "Order of battle"), (self.setup, "Set-up"),
                        (self.victory, "Victory"), (check_page, "Check and play")):
            self.tabs.addTab(w, name)
        dock = QDockWidget("Scenario", self)
        dock.setWidget(self.tabs)
        dock.setFeatures(QDockWidget.DockWidgetMovable)
        self.addDockWidget(Qt.LeftDockWidgetArea, dock)
        self.runner = PlayRun(self)
        self.runner.finished.connect(self.result.show_result)
        self.runner.failed.connect(lambda m: self.say(f"the game could not be played: {m}"))
        from .rulespage import attach_rules_page

        attach_rules_page(self)
        self.tabs.addTab(self.balance, "Balance")
        self._menus()
        self.setEnabled(True)

    # ------------------------------------------------------------ menus
    def _menus(self) -> None:
        m = self.menuBar().addMenu("&Scenario")
        m.addAction(QAction("&New on a map…", self, shortcut=QKeySequence.New, triggered=self._choose_new))
        m.addAction(QAction("&Open…", self, shortcut=QKeySequence.Open, triggered=self._choose_open))
        m.addAction(QAction("&Save", self, shortcut=QKeySequence.Save, triggered=lambda: self.save()))
        m.addAction(QAction("Save &as…", self, shortcut=QKeySequence.SaveAs, triggered=self._choose_save))
        m.addSeparator()
        m.addAction(QAction("&Check", self, shortcut="Ctrl+K", triggered=self.check))
        m.addAction(QAction("&Play with bots", self, shortcut="Ctrl+P", triggered=lambda: self.play_headless()))
        m.addAction(QAction("Check &balance", self, shortcut="Ctrl+B", triggered=self.check_balance))
        m.addAction(QAction("Open in the &play window", self, triggered=self._open_in_play))
        m.addAction(QAction("Cut a counter &sheet…", self, triggered=self.counter_sheet))
        m.addSeparator()
        m.addAction(QAction("&Close the editor", self, shortcut=QKeySequence.Close, triggered=lambda: self.close()))
        self.quit_act = QAction("&Quit", self, shortcut=QKeySequence("Ctrl+Q"), triggered=self.quit_program)
        self.quit_act.setToolTip("Quit Sandtable: every window closes (a scenario or a game not saved is asked "
                                 "about first)")
        m.addAction(self.quit_act)
        e = self.menuBar().addMenu("&Edit")
        e.addAction(QAction("&Undo", self, shortcut=QKeySequence.Undo, triggered=self.undo))
        e.addAction(QAction("&Copy units", self, shortcut=QKeySequence.Copy, triggered=self.oob.copy))
        e.addAction(QAction("&Paste units", self, shortcut=QKeySequence.Paste, triggered=lambda: self.oob.paste()))

    # ------------------------------------------------------------ documents
    def new_scenario(self, map_path: str | Path, sides: list[Side], id: str = "new", name: str = "New scenario",
                     ruleset: str = "demyansk", first_turn: int = 1, last_turn: int = 10) -> None:
        """Start an empty scenario on a map."""
        self.board = load_map(map_path)
        self.scenario = E.new_scenario(id, name, ruleset, str(map_path), sides, first_turn, last_turn)
        self.path = None
        self._board_shown()

    def open_scenario(self, path: str | Path) -> bool:
        """Open a scenario file; a bad file is reported in words, never as a traceback."""
        path = Path(path)
        try:
            if own_format_ruleset(str(path), "rules_for_own_scenario") is not None:
                self.say(f"{path}: its ruleset keeps its own scenario format; this editor edits hex-map scenarios",
                         title=f"Cannot open {path.name}")
                return False
            scenario = load_scenario(path)
            board = load_map(scenario.map_path)
        except BadFile as e:
            self.say("\n".join(str(p) for p in e.problems[:20]), title=f"Cannot open {path.name}")
            return False
        self.scenario, self.board, self.path = scenario, board, path
        self._board_shown()
        return True

    def _board_shown(self) -> None:
        self.undo_stack.clear()
        self.dirty = False
        self.page.forget_typing()
        from engine.counters.art import counter_images_folder

        self.map_view.set_art(CounterArt(self.scenario.sides, images=counter_images_folder(self.scenario)))
        self.map_view.show_board(self.board)
        self.areas.forget()
        self.refresh()
        self.show_areas()

    def show_areas(self) -> None:
        """Every set-up group's area in its own colour, the areas of the victory conditions, the map area in play."""
        from .setuppage import AREA_COLOURS
        from .victorypage import VICTORY_COLOUR

        shown = [(f"setup:{d.id}", d.area, AREA_COLOURS[i % len(AREA_COLOURS)])
                 for i, d in enumerate(self.scenario.deployments) if d.area]
        if self.scenario.victory is not None:
            shown += [(f"victory:{c.id}", c.area, VICTORY_COLOUR) for c in self.scenario.victory.conditions if c.area]
        if self.scenario.play_area:
            from .scenariopage import PLAY_AREA_COLOUR

            shown.append(("play", self.scenario.play_area, PLAY_AREA_COLOUR))
        for name, expr, colour in shown:
            try:
                self.areas.show(name, E.area_hexes(self.board, expr), colour)
            except ValueError as e:
                self.say(f"{name}: {e}")

    def area_hexes(self, text: str):
        """The hexes of an area expression on the scenario's map, or None when it does not read (the reason said)."""
        try:
            return E.area_hexes(self.board, text)
        except ValueError as e:
            self.say(str(e))
            return None

    def save(self, path: str | Path | None = None) -> bool:
        """Write the scenario (atomically); it is checked by loading it back."""
        if self.scenario is None:
            return False
        path = Path(path) if path else self.path
        if path is None or is_program_folder(path.parent):     # a shipped scenario is saved as the user's own
            self._choose_save()
            return self.path is not None and not self.dirty and not is_program_folder(self.path.parent)
        try:
            save_scenario(self.scenario, path)
            remember_folder(path)
            again = load_scenario(path)
        except BadFile as e:
            self.say("\n".join(str(p) for p in e.problems[:20]), title="The scenario was saved with problems")
            self.path = path
            return False
        self.scenario, self.path, self.dirty = again, path, False
        self.setWindowTitle(f"Sandtable — scenario editor — {path.name}")
        self.say(f"saved {path}")
        return True

    def assets_folder(self) -> Path | None:
        """Where the scenario's own images go: ``assets/<scenario id>/counters`` beside the scenario file."""
        if self.path is None:
            return None
        return self.path.parent / "assets" / self.scenario.id / "counters"

    def _choose_open(self):
        p, _ = QFileDialog.getOpenFileName(self, "Open a scenario", "", "Scenarios (*.toml)")
        if p:
            self.open_scenario(p)

    def _choose_new(self):
        p, _ = QFileDialog.getOpenFileName(self, "The map of the new scenario", str(last_folder() or ""), "Maps (*.toml)")
        if p:
            try:
                # the classic rules play any sides on any map; a game's own ruleset is chosen from the list
                self.new_scenario(p, [], ruleset="classic")
            except BadFile as e:
                self.say("\n".join(str(x) for x in e.problems[:20]), title=f"Cannot open {Path(p).name}")

    def _choose_save(self):
        p, _ = QFileDialog.getSaveFileName(self, "Save the scenario", str(self.save_suggestion()), "Scenarios (*.toml)")
        if p:
            self.save(p)

    def save_suggestion(self) -> Path:
        """Where Save as starts: the scenario's own file, else beside its map and named after its id
        ("valley-raid" gives valley-raid.toml), never the folder the program happened to start in, and never one
        of the program's own folders (a shipped scenario or map): the user's Sandtable folder instead."""
        if self.path is not None and not is_program_folder(self.path.parent):
            return self.path
        folder = None
        if self.scenario is not None and self.scenario.map_path:
            folder = Path(self.scenario.map_path).absolute().parent
        folder = folder or last_folder() or Path.home()
        if is_program_folder(folder):       # a shipped map or scenario: the copy goes to the user's Sandtable folder
            folder = games_folder()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:
                folder = Path.home()
        stem = re.sub(r"[^a-z0-9]+", "-", (self.scenario.id if self.scenario else "").lower()).strip("-")
        return folder / f"{stem or 'new-scenario'}.toml"

    # ------------------------------------------------------------ editing
    def edit(self, change, what: str = "") -> bool:
        """Apply an engine operation to the scenario; a refusal is said, the scenario stays as it was."""
        if self.scenario is None:
            self.say("Open a scenario or start a new one on a map first")
            return False
        try:
            new = change(self.scenario)
        except (ValueError, KeyError) as e:
            self.say(f"{what}: {e}" if what else str(e))
            return False
        self.undo_stack.append(self.scenario)
        del self.undo_stack[:-UNDO_DEPTH]
        self.scenario = new
        self.dirty = True
        self.refresh()
        if what:
            self.say(what)
        return True

    def undo(self) -> None:
        if self.undo_stack:
            self.scenario = self.undo_stack.pop()
            self.dirty = True
            self.refresh()

    def drop_unit(self, uid: str, h) -> bool:
        """Set up a unit in a hex (a unit dropped on the map)."""
        if self.scenario is None or uid not in self.scenario.units:
            return False
        hid = self.board.hex_id(h)
        ok = self.edit(lambda s: E.place_anywhere(s, uid, hid), f"{uid} set up in {hid}")
        bad = [p for p in E.check(self.scenario, self.board) if p.key == f"units.{uid}.hex"]
        if bad:
            self.say(bad[0].message)
        return ok

    def refresh(self) -> None:
        if self.scenario is None:
            return
        if self.map_view.art.sides != self.scenario.sides:      # a side added, renamed or recoloured
            from engine.counters.art import counter_images_folder

            self.map_view.set_art(CounterArt(self.scenario.sides, images=counter_images_folder(self.scenario)))
        for page in (self.page, self.oob, self.setup, self.victory, self.rules_page, self.balance):
            page.refresh()
        placed = []
        for u in self.scenario.units.values():
            if u.hex:
                try:
                    placed.append((u, self.board.parse_hex(u.hex)))
                except BadHexId:
                    pass
        self.map_view.set_pieces(placed)

    def check(self) -> list:
        """The scenario's problems, listed on the "Check and play" page."""
        if self.scenario is None:
            self.say("Open a scenario or start a new one on a map first")
            return [None]
        problems = E.check(self.scenario, self.board)
        self.problems.clear()
        self.problems.addItems([f"{p.key}: {p.message}" for p in problems] or ["no problems: ready to play"])
        self.problems_shown = problems
        return problems

    # ------------------------------------------------------------ playing
    def play_headless(self, seed: int | None = None) -> bool:
        """Save, then play the scenario to the end with the bot for every side (the engine's play command)."""
        if self.scenario is None:
            self.say("Open a scenario or start a new one on a map first")
            return False
        if not self.ready_to_run("playing"):
            return False
        sides = sorted({u.side for u in self.scenario.units.values()})
        self.result.headline.setText("Playing…")
        self.runner.start(str(self.path), sides, seed if seed is not None else self.seed.value())
        self.tabs.setCurrentIndex(4)
        return True

    def ready_to_run(self, doing: str) -> bool:
        """Whether the scenario can be handed to the engine's command line: no problem found (else the "Check and
        play" page lists them and the editor says to fix them before ``doing``), and saved."""
        if self.check():
            self.tabs.setCurrentIndex(4)
            self.say(f"fix the problems before {doing}")
            return False
        return not ((self.dirty or self.path is None) and not self.save())

    def check_balance(self) -> bool:
        """Show the Balance page and play the scenario many times in the background (its Check balance)."""
        self.tabs.setCurrentWidget(self.balance)
        return self.balance.check()

    def _open_in_play(self) -> None:
        if self.scenario is None:
            return
        if (self.dirty or self.path is None) and not self.save():
            return
        self.play_requested.emit(str(self.path))

    def counter_sheet(self):
        from .countersheetdialog import CounterSheetDialog

        if self.scenario is None:
            self.say("Open a scenario or start a new one on a map first")
            return None
        dlg = CounterSheetDialog(self, self)
        dlg.resize(900, 700)
        if not self._offscreen():
            dlg.show()
        return dlg

    # ------------------------------------------------------------ messages
    def say(self, text: str, title: str = "") -> None:
        self.last_message = f"{title}\n{text}" if title else text
        self.statusBar().showMessage(text.splitlines()[0] if text else "", 10000)
        if title and self.isVisible() and not self._offscreen():
            QMessageBox.warning(self, title, text)

    def ask_to_save(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for a scenario with changes no file holds (no question asked offscreen)."""
        if self._offscreen():
            return QMessageBox.Discard
        name = self.path.name if self.path is not None else "the new scenario"
        return QMessageBox.question(self, "The scenario is not saved",
                                    f"{self.scenario.name} has changes that {name} does not hold.\n\n"
                                    "Save it before closing the editor?",
                                    QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)

    def quit_program(self) -> bool:
        """Scenario > Quit: the program ends, every window asked first (gui/common/menus.py)."""
        from gui.common.menus import quit_program

        return quit_program(self)

    def closeEvent(self, event):
        """Leaving the editor never loses an edit silently; the play window it came from comes back in front."""
        if self.scenario is not None and self.dirty:
            answer = self.ask_to_save()
            if answer == QMessageBox.Cancel or (answer == QMessageBox.Save and not self.save()):
                event.ignore()
                return
        self.balance.stop()                # a balance check still playing ends with the editor
        super().closeEvent(event)
        back = self.parentWidget()
        if event.isAccepted() and back is not None and back.isVisible():
            back.raise_()
            back.activateWindow()

    def _offscreen(self) -> bool:
        from PySide6.QtGui import QGuiApplication

        return QGuiApplication.platformName() in ("offscreen", "minimal")
