"""The main window: the map view, menus, the status line with hover text and tiling progress."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QProgressBar, QToolBar

from engine.errors import BadFile

from gui.scene.mapview import ZOOM_PRESETS, MapView
from gui.play.session import PlaySession, Refusal
from gui.play.combatpanel import CombatPanel
from gui.play.playpanels import LogDock, PhaseBar
from gui.common.statusline import ElidedLabel, StatusLine
from gui.scene.tray import TrayDock
from gui.play.victorypanel import VictoryDock
from gui.play.window_computer import WindowComputer
from gui.play.window_files import WindowFiles
from gui.play.window_moves import WindowMoves
from gui.common.userfolders import autosave_path


class MainWindow(WindowFiles, WindowComputer, WindowMoves, QMainWindow):
    """Sandtable's window: opens map and scenario files and shows them."""

    def __init__(self, cache: Path | None = None, autosave: Path | None = None, recent: Path | None = None):
        super().__init__()
        self.recent_file = recent          # where the recent files list is kept (None: not kept)
        self.autosave = autosave if autosave is not None else autosave_path()
        from engine.fileio import remove_stale_temps

        for folder in {self.autosave.parent} | ({Path(recent).parent} if recent is not None else set()):
            remove_stale_temps(folder)     # left by a save that was interrupted last time
        self.setWindowTitle("Sandtable")
        self.map_view = MapView(self, cache=cache)
        self.setCentralWidget(self.map_view)
        self.setStatusBar(StatusLine(self))   # messages elided before the zoom and the rule link, whole in the tooltip
        self.hover_label = ElidedLabel()
        self.statusBar().addWidget(self.hover_label, 1)
        self.tile_bar = QProgressBar()
        self.tile_bar.setRange(0, 1000)
        self.tile_bar.setMaximumWidth(260)
        self.tile_bar.setFormat("Cutting the map into tiles… %p%")
        # wide enough for its words: a long hover text beside it would squeeze them into two clipped lines
        self.tile_bar.setMinimumWidth(self.tile_bar.fontMetrics().horizontalAdvance("Cutting the map into tiles… 100%")
                                      + 30)
        self.tile_bar.hide()
        self.statusBar().addPermanentWidget(self.tile_bar)
        self.zoom_label = QLabel()
        self.map_view.hovered.connect(self.hover_label.setText)
        self.map_view.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f}%"))
        self.map_view.tiling.connect(self._tiling)
        self.map_view.problem.connect(lambda m: self.show_error("Map image problem", m))
        self.board = None
        self._first_state = (None, None)     # (game, its state before the first action): who waits to be set up
        self.scenario = None
        self.session: PlaySession | None = None
        self.last_error = ""
        self._opened_note = None             # (title, status) when a save opened as it stood before a refusal
        self.last_refusal = ""
        self.phase_bar = PhaseBar(self)
        self.addToolBar(Qt.TopToolBarArea, self.phase_bar)
        self.addToolBarBreak(Qt.TopToolBarArea)
        self.guide_bar = QToolBar("Guidance", self)       # the ruleset's one line for this phase
        self.guide_bar.setObjectName("guidebar")
        self.guide_bar.setMovable(False)
        self.guide_label = ElidedLabel(lines=2)   # wrapped on two lines, the rest elided (whole in its tooltip)
        self.guide_label.setContentsMargins(6, 2, 6, 2)
        self.guide_bar.addWidget(self.guide_label)
        self.addToolBar(Qt.TopToolBarArea, self.guide_bar)
        self.log_dock = LogDock(self)
        self.addDockWidget(Qt.RightDockWidgetArea, self.log_dock)
        self.tray = TrayDock(self)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.tray)
        self.resizeDocks([self.tray], [260], Qt.Horizontal)
        self.map_view.tray_picked.connect(self._tray_picked)
        self.map_view.tray_dropped.connect(self._tray_dropped)
        self.combat = CombatPanel(self)
        self.addDockWidget(Qt.RightDockWidgetArea, self.combat)
        self.resizeDocks([self.log_dock, self.combat], [300, 300], Qt.Horizontal)
        self.victory = VictoryDock(self)
        self.addDockWidget(Qt.LeftDockWidgetArea, self.victory)
        self.victory.show_line.connect(self._show_victory_line)
        self._docks_sized = False
        self.combat.declare.connect(self.declare_battle)
        self.combat.resolve.connect(self.resolve_battle)
        self.combat.choose.connect(self.make_choice)
        self.phase_bar.next_act.triggered.connect(self.next_phase)
        self.phase_bar.undo_act.triggered.connect(self.undo)
        self.phase_bar.redo_act.triggered.connect(self.redo)
        self.map_view.picked.connect(self._picked)
        self.map_view.sight_asked.connect(self.ask_sight)
        self._sight_map = None
        self.last_sight = None
        self.log_dock.list.itemClicked.connect(lambda item: self.show_past(self.log_dock.list.row(item) + 1))
        self.viewing_past: int | None = None
        self.map_view.dropped.connect(self._dropped)
        self.map_view.group_dropped.connect(self._group_dropped)
        self.map_view.hex_clicked.connect(self._hex_clicked)
        self._choice_targets: dict = {}
        self.computer = None                # the computer's player for the game in progress (gui/common/computerplayer.py)
        self.computer_step_ms = None        # between two of its actions (None: its default)
        self.new_game_dlg = None
        self.pause_act = QAction("Pause the computer", self, checkable=True, shortcut="Ctrl+Shift+P",
                                 toggled=self._pause_computer)
        self.pause_act.setToolTip("Stop the computer between two of its actions (Ctrl+Shift+P); "
                                  "while paused you may play for its side")
        self.pause_act.setEnabled(False)
        self.phase_bar.add_button(self.pause_act)
        from gui.tcs import TcsPlay

        self.tcs = TcsPlay(self)            # the Tactical Combat Series panels, shown while a TCS game is open
        self._show_play()
        from gui.play.panels import GamePanels, every_game, hex_games, tcs_games
        from gui.tcs.tracks import has_tracks

        self.panels = GamePanels(self)      # each kind of game with its own panels and their layout
        self.panels.add(self.log_dock, every_game)
        for d in (self.tray, self.combat, self.victory):
            self.panels.add(d, hex_games)
        for d in self.tcs.docks:
            self.panels.add(d, tcs_games)
        self.panels.add_content(self.tcs.tracks, has_tracks)
        self.panels.add_content(self.tcs.board, has_tracks)
        self._tiling_state: dict[str, float] = {}
        self._make_menus()
        self.rule_link = self.menus.rule_link  # the rule the last refusal cites: a click opens the rules reference there
        self.statusBar().addPermanentWidget(self.rule_link)
        self.statusBar().addPermanentWidget(self.zoom_label)
        from gui.mapeditor.mode import attach_map_editor

        attach_map_editor(self)
        from gui.charts.attach import attach_charts

        self.charts = attach_charts(self)
        self.panels.add_content(self.charts.dock, lambda _s: self.charts.chart_set()[0] is not None)
        from gui.play.tablepanel import attach_table_panel

        attach_table_panel(self)
        self.panels.add_content(self.table_panel, lambda s: bool(getattr(s.rules, "table_tools", False)))

    def _make_menus(self):
        from gui.common.menus import RecentFiles, WindowMenus

        v = self.map_view
        self.recent = RecentFiles(self.recent_file, leave_out=lambda p: p == Path(self.autosave).absolute())
        self.menus = WindowMenus(self, recent=self.recent, open_file=self.open_file, save_game=self.save_game,
                                 suggest_name=self.suggested_save_name,
                                 current_path=lambda: self.session.path if self.session is not None else None,
                                 undo_act=self.phase_bar.undo_act, redo_act=self.phase_bar.redo_act)
        self.recent_menu = self.menus.recent_menu
        self.new_act = QAction("&New game…", self, shortcut=QKeySequence.New, triggered=lambda: self.show_library())
        self.new_act.setToolTip("Start a game: the game library, then the scenario's variants, the seed, and who "
                                "plays each side")
        self.import_vassal_act = QAction("&Import VASSAL module…", self, triggered=lambda: self.import_vassal())
        self.import_vassal_act.setToolTip("Import a VASSAL module (.vmod): its maps with their grids, its counters "
                                          "and its set-ups, then open its first scenario")
        self.menus.add_file_items([QAction("Scenario &editor…", self, shortcut="Ctrl+E",
                                           triggered=self.open_scenario_editor), self.new_act,
                                   self.import_vassal_act])
        self.save_act, self.save_as_act = self.menus.save_act, self.menus.save_as_act
        view_menu = self.menus.view_menu
        self.grid_act = QAction("Hex &grid", self, checkable=True, checked=True, shortcut="G",
                                toggled=v.set_grid_visible)
        self.ids_act = QAction("Hex &ids", self, checkable=True, checked=True, shortcut="I",
                               toggled=v.set_ids_visible)
        self.los_act = QAction("&Line of sight tool", self, checkable=True, shortcut="L",
                               toggled=self._los_tool)
        self.los_act.setToolTip("Drag from hex to hex: the thread is green when clear, red from where it is blocked")
        view_menu.addActions([self.grid_act, self.ids_act, self.los_act])
        self.panels.menu = view_menu.addMenu("&Panels")          # the panels of the game open
        self.panels.fill_menu()
        view_menu.addSeparator()
        view_menu.addAction(QAction("&Fit to window", self, shortcut="F", triggered=self._fit))
        view_menu.addAction(QAction("Zoom &in", self, shortcut=QKeySequence.ZoomIn, triggered=lambda: self._zoom(1.25)))
        view_menu.addAction(QAction("Zoom &out", self, shortcut=QKeySequence.ZoomOut, triggered=lambda: self._zoom(0.8)))
        presets = view_menu.addMenu("Zoom &presets")
        group = QActionGroup(self)
        for i, z in enumerate(ZOOM_PRESETS, start=1):
            act = QAction(f"{z * 100:g}%", self, shortcut=f"Ctrl+{i}", triggered=lambda _=False, z=z: self._set_zoom(z))
            group.addAction(act)
            presets.addAction(act)

    def compact_docks(self) -> None:
        """Stack the docks of each side as tabs and the phase line on one line, so the window fits a small screen
        (or a large scaling)."""
        self.guide_label.set_lines(1)
        self.tabifyDockWidget(self.tray, self.victory)
        self.tabifyDockWidget(self.log_dock, self.combat)
        self.tray.raise_()
        self.log_dock.raise_()

    def import_vassal(self, module: Path | None = None) -> bool:
        """File > Import VASSAL module…: import with progress, then open the imported scenario."""
        from gui.play.vassalimport import import_vassal

        return import_vassal(self, module)

    def open_scenario_editor(self):
        """The scenario editor as a window of its own, on this scenario; "open in the play window" comes back here."""
        from gui.scenarioeditor import ScenarioEditor

        self.scenario_editor = ScenarioEditor(parent=self)
        self.scenario_editor.setWindowFlag(Qt.Window)
        self.scenario_editor.play_requested.connect(self.play_from_editor)
        if self.scenario is not None and getattr(self.scenario, "path", ""):
            self.scenario_editor.open_scenario(self.scenario.path)
        self.scenario_editor.resize(1400, 900)
        self.scenario_editor.show()
        return self.scenario_editor

    def play_from_editor(self, path: str) -> bool:
        """"Open in the play window": the scenario saved in an editor is opened here, and this window comes to the
        front (over the editor)."""
        if not self.open_file(Path(path)):
            return False
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()
        return True

    def help_documents(self) -> list[tuple[str, Path]]:
        """The project's documents the Help menu shows inside the program: titles and files."""
        from gui.help.viewer import help_documents

        return help_documents()

    def shortcuts_text(self) -> str:
        """Every menu and toolbar action that has a keyboard shortcut, one a line."""
        return self.menus.shortcuts_text()

    def _los_tool(self, on: bool) -> None:
        self.map_view.set_los_mode(on)
        if on:
            self.statusBar().showMessage("Line of sight: drag from a hex to a hex", 5000)

    def ask_sight(self, frm, to) -> None:
        """Ask the engine whether ``frm`` sees ``to`` and show its answer on the map and the status line."""
        from engine.los.query import line_of_sight, sight_map

        if self.board is None:
            return
        if self._sight_map is None or self._sight_map[0] is not self.board:
            self._sight_map = (self.board, sight_map(self.board))
        result = line_of_sight(self._sight_map[1], frm, to)
        self.last_sight = result
        block = result.blocker.point if result.blocker is not None else None
        self.map_view.show_sight(frm, to, block)
        self.hover_label.setText(result.explain())
        self.statusBar().showMessage(result.explain(), 15000)

    def _fit(self):
        self.map_view.fit()
        self._show_zoom()

    def _zoom(self, f: float):
        self.map_view.zoom_by(f)
        self._show_zoom()

    def _set_zoom(self, z: float):
        self.map_view.set_zoom(z)
        self._show_zoom()

    def _show_zoom(self):
        self.zoom_label.setText(f"{self.map_view.zoom() * 100:.0f}%")

    def _tiling(self, label: str, fraction: float) -> None:
        self._tiling_state[label] = fraction
        busy = {k: f for k, f in self._tiling_state.items() if f < 1.0}
        if not busy:
            self.tile_bar.hide()
            self._tiling_state.clear()
            return
        self.tile_bar.show()
        self.tile_bar.setValue(int(1000 * sum(self._tiling_state.values()) / len(self._tiling_state)))

    def showEvent(self, event):
        super().showEvent(event)
        if not self._docks_sized:
            # The tray (units to set up and reinforcements) gets the larger share
            # of the left column; Qt would otherwise split it by size hints.
            self._docks_sized = True
            h = max(400, self.height() - 120)
            self.resizeDocks([self.tray, self.victory], [int(h * 0.6), int(h * 0.4)], Qt.Vertical)

    # ------------------------------------------------------------ play
    def _start_game(self, scenario, board, saved: PlaySession | None = None) -> PlaySession | None:
        """A game of the scenario under its ruleset; None (the set-up is shown) if it has no ruleset to play."""
        try:
            from gui.tcs import session_class

            session = saved or session_class(scenario)(scenario, board, parent=self)
        except BadFile as e:
            self.show_error("This scenario cannot be played yet", "\n".join(str(p) for p in e.problems[:10]))
            return None
        session.changed.connect(self._game_changed)
        return session

    def show_past(self, n: int) -> None:
        """Show the board after the log's first ``n`` actions, read-only; the last entry is the present."""
        if self.session is None:
            return
        if n >= len(self.session.game.log):
            self.show_present()
            return
        past = self.session.past(n)
        self.viewing_past = n
        self.clear_message()
        self.map_view.drag_enabled = False
        self.map_view.show_ready(())
        self.map_view.set_pieces(self.session.pieces_of(past.state))
        self.phase_bar.show_state(f"Viewing after action {n} (read-only): {self.session.turn_text(past.state)}"
                                  " — click the last log entry to return", False, False)
        self.phase_bar.next_act.setEnabled(False)
        self.victory.show_standings(self.session.standing(past.state), f"(as it stood after action {n})")

    def show_present(self) -> None:
        self.viewing_past = None
        if self.session is not None:
            self.map_view.drag_enabled = True
            self.map_view.set_pieces(self.session.pieces())
        self._show_play()

    def _game_changed(self) -> None:
        self.clear_message()
        self.viewing_past = None
        self.map_view.drag_enabled = True
        self.map_view.set_pieces(self.session.pieces())
        self._show_play()
        self._autosave()

    def _autosave(self) -> None:
        """Save the game after every action, so that a crash loses nothing (offered back on the next start)."""
        try:
            self.session.write(self.autosave)
        except OSError as e:
            self.statusBar().showMessage(f"Cannot autosave to {self.autosave}: {e.strerror or e}", 10000)

    def closeEvent(self, event) -> None:
        """A normal close: the autosave is not needed to resume; the window's layout is remembered."""
        from gui.common.settings import save_layout

        if not self.keep_game_in_progress():
            event.ignore()
            return
        if self.computer is not None:
            self.computer.stop()        # its worker thread ends before the window that owns it
        self.panels.remember()
        save_layout(self)
        self.menus.close_help()
        try:
            self.autosave.unlink()
        except OSError:
            pass
        super().closeEvent(event)

    def _show_play(self) -> None:
        s = self.session
        if getattr(self, "panels", None) is not None:
            self.panels.show_game(s)        # another kind of game: its own panels
        if s is None:
            self.phase_bar.show_state("No game: File > New game… chooses one", False, False)
            self.phase_bar.next_act.setEnabled(False)
            self.guide_label.setText("Choose a game: File > New game… (or File > Open… for any file)")
            self.map_view.show_ready(())
            self.log_dock.show_lines([])
            self.log_dock.show_seed(None)
            self.tray.clear()
            self.victory.show_standings([])
            if getattr(self, "charts", None) is not None:
                self.charts.update()
            self.tcs.update()
            return
        self.phase_bar.next_act.setEnabled(True)
        self.phase_bar.set_next_words(("set-up" if self.tcs.session.setting_up() else "step")
                                      if self.tcs.session is not None else "phase")  # TCS: a step at a time
        self.phase_bar.show_state(s.turn_text(), s.game.can_undo(), s.game.can_redo())
        self.log_dock.show_lines(s.log_lines())
        self.log_dock.show_seed(s.game.seed)
        choices = s.pending_choices()
        battles = s.battles()
        odds = {}
        for b in battles:
            o = s.odds(b.defender, list(b.attackers)) if not b.resolved else None
            if o is not None:
                odds[b.defender] = o.label
        self.combat.show_game(battles, choices, odds)
        self.tray.show_units(s.scenario, s.off_map(), self._to_set_up())
        sides = getattr(s.scenario, "sides", None) or {}
        self.victory.side_names = {k: getattr(v, "name", k) for k, v in sides.items()}     # "Soviet holds it now"
        self.victory.show_standings(s.standing())
        if hasattr(self, "table_panel"):
            self.table_panel.show_session(s)
        self._show_choice_targets()
        self.guide_label.setText(s.guidance())
        c = self.computer
        computer_busy = c is not None and not c.paused and c.to_play()
        self.map_view.show_ready(() if computer_busy else s.units_to_act())
        self._show_computer_turn()
        if getattr(self, "charts", None) is not None:
            self.charts.update()          # the owner's chart answers what it holds; the prompt dock asks the rest
        self.tcs.update()

    def start_new_game(self, seed: int | None = None, variants: tuple[str, ...] = (), computer=(),
                       bot: str = "baseline", options: dict | None = None) -> bool:
        """The open scenario from its set-up again; ``seed`` fixes the dice (default: a new seed), ``variants`` are
        the scenario's variants applied, ``computer`` the sides the computer plays, ``bot`` which computer player
        ("baseline" or "strong", engine.computer) with its ``options``."""
        from engine.scenario.newgame import new_game

        if self.scenario is None or self.session is None:
            return False
        if seed is None:
            from gui.common.newgame import random_seed

            seed = random_seed()
        try:
            game = new_game(self.scenario.path, seed, tuple(variants))
        except BadFile as e:
            self.show_error("Cannot start this game", "\n".join(str(p) for p in e.problems[:10]))
            return False
        self._stop_computer()
        self.session.changed.disconnect(self._game_changed)
        from gui.tcs import session_class

        self.session = session_class(self.scenario)(self.scenario, self.board, seed=seed, parent=self, game=game)
        self.session.changed.connect(self._game_changed)
        self.combat.clear()
        self.combat.show_result([])
        self.map_view.set_pieces(self.session.pieces())
        from engine.computer import has_baseline

        if computer and not has_baseline(self.session.rules.name):     # rules no computer player knows
            self.show_error("The computer cannot play this game",
                            "There is no computer player for these rules yet: you play every side.")
            computer = ()
        if computer:
            self._start_computer(computer, options, bot=bot)
        self._show_play()
        chosen = f", variants: {', '.join(variants)}" if variants else ""
        self.statusBar().showMessage(f"New game of {self.scenario.name} (seed {seed}{chosen})", 5000)
        return True

    def refused(self, refusal: Refusal) -> None:
        """Show a refusal with its rule; the rule is a link to the rules reference (cleared when the game moves on)."""
        self.last_refusal = str(refusal)
        self.statusBar().showMessage(f"Refused — {refusal}", 15000)
        self.rule_link.show_rule(refusal.rule)

    def clear_message(self) -> None:
        """The situation changed: an earlier message (a refusal, a hint) no longer applies."""
        self.statusBar().clearMessage()
        self.rule_link.show_rule("")

    def show_rule(self, citation: str) -> bool:
        """The rules reference opened at the rule a refusal cites."""
        return self.menus.show_rule(citation)

    def next_phase(self) -> None:
        if self.session is None:
            return
        result = self.session.end_phase()
        if isinstance(result, Refusal):
            self.refused(result)
        else:
            self.statusBar().showMessage(self.session.turn_text(), 5000)

    def undo(self) -> None:
        if self.session is not None:
            r = self.session.undo()
            if isinstance(r, Refusal):
                self.refused(r)
            else:
                self.statusBar().showMessage(f"Undone: {r}", 5000)

    def redo(self) -> None:
        if self.session is not None:
            r = self.session.redo()
            if isinstance(r, Refusal):
                self.refused(r)
            else:
                self.statusBar().showMessage(f"Redone: {r}", 5000)

    def show_error(self, title: str, text: str) -> None:
        self.last_error = f"{title}\n{text}"
        self.statusBar().showMessage(f"{title}: {text.splitlines()[0] if text else ''}", 15000)
        if self.isVisible() and not self._offscreen():
            QMessageBox.warning(self, title, text)

    def _offscreen(self) -> bool:
        """True when Qt draws offscreen (tests, screenshots): no modal dialogs then."""
        from PySide6.QtGui import QGuiApplication

        return QGuiApplication.platformName() in ("offscreen", "minimal")


def new_play_window(recent: Path | None) -> MainWindow:
    """A play window laid out as the user left it, for a file the skirmish window was asked to open."""
    from PySide6.QtCore import QSize

    from gui.common.settings import remember_layout

    win = MainWindow(recent=recent)
    remember_layout(win, "play", QSize(1280, 860))
    return win


def _register() -> None:
    from gui.table.window import TableWindow

    TableWindow.new_play_window = staticmethod(new_play_window)


_register()
