"""The play window's new games and the computer player: the game library, the new-game dialog, the
computer started, resumed, paused and stopped, and its turn shown; a part of
:class:`~gui.play.window.MainWindow`."""
from __future__ import annotations

from pathlib import Path

from engine.errors import BadFile

from gui.play.session import PlaySession


class WindowComputer:
    """The new game and computer part of the play window (``self`` is the ``MainWindow``)."""

    # ------------------------------------------------------------ a new game chosen, the computer playing
    def show_library(self, first_start: bool = False, select: Path | None = None):
        """File > New game…: the game library (gui/play/library.py); a scenario picked goes on to ``new_game_dialog``;
        ``select``: the file selected at first."""
        from gui.play.library import show_library

        return show_library(self, first_start, select)

    def new_game_dialog(self, path: Path | None = None):
        """The New game dialog on ``path`` or the open scenario (non-blocking); Start begins the game chosen."""
        from gui.common.newgame import NewGameDialog

        path = path or getattr(self.scenario, "path", None) or None
        computer = self.computer.sides if self.computer is not None else ()
        variants = self.session.game.variants if self.session is not None else ()
        current = self.session.game.seed if self.session is not None else None
        self.new_game_dlg = NewGameDialog(path, computer=computer, variants=variants, current_seed=current, parent=self,
                                          current_path=getattr(self.scenario, "path", None) or "")
        self.new_game_dlg.accepted.connect(lambda: self.start_chosen_game(self.new_game_dlg.choice()))
        self.new_game_dlg.open()
        return self.new_game_dlg

    def start_chosen_game(self, choice) -> bool:
        """Start the game a New game dialog describes (another scenario file is opened first)."""
        if choice is None:
            return False
        path = Path(choice.path).absolute()
        from gui.table import is_table_file
        from gui.tcs import is_tcs_path

        if is_table_file(path) and not is_tcs_path(path):
            from gui.table.session import TableSession
            from gui.table.window import TableWindow
            from engine.scenario.newgame import new_game

            try:
                session = TableSession(new_game(path, choice.seed, choice.variants), path)
            except BadFile as e:
                self.show_error(f"Cannot open {path}", "\n".join(str(p) for p in e.problems[:20]))
                return False
            self.table_window = TableWindow(session, parent=self, recent=self.recent_file)
            self.table_window.remember_layout()
            self.table_window.show()
            self.table_window.view.fit()
            return True
        if not self.keep_game_in_progress():
            return False
        current = Path(self.scenario.path).absolute() if self.scenario is not None else None
        if current != path and not self.open_file(path, ask=False):
            return False
        return self.start_new_game(choice.seed, choice.variants, choice.computer, choice.bot, dict(choice.options))

    def _start_computer(self, sides, options: dict | None = None, bot: str = "baseline") -> None:
        from gui.common.computerplayer import STEP_MS, ComputerPlayer

        step = STEP_MS if self.computer_step_ms is None else self.computer_step_ms
        self.session.set_computer(sides, options, bot)
        self.computer = ComputerPlayer(self.session, sides, step_ms=step, parent=self, options=options, bot=bot)
        self.computer.thinking.connect(lambda _on: self._show_play())
        self.computer.acted.connect(self._computer_acted)
        self.computer.stopped.connect(lambda why: self.show_error("The computer stopped", why))
        self.pause_act.setEnabled(True)
        self.pause_act.setChecked(False)
        self.computer.schedule()

    def _resume_computer(self, session: PlaySession) -> None:
        """A saved game the computer was playing sides of: it plays them again (sides the scenario lacks are named)."""
        if session.path is not None and session.path.absolute() == Path(self.autosave).absolute():
            session.path = None          # resumed from the autosave: Save asks where, it never writes the autosave
            session._saved_actions = []  # and no file of the user's holds it
        recorded = session.computer
        if recorded is None or not recorded.sides:
            return
        sides = [s for s in recorded.sides if s in session.scenario.sides]
        unknown = [s for s in recorded.sides if s not in session.scenario.sides]
        if unknown:
            self.show_error("The computer cannot play every side saved",
                            f"{session.path or self.autosave}: computer.sides: the scenario has no side "
                            f"{', '.join(unknown)} (sides: {', '.join(session.scenario.sides)})")
        if sides:
            self._start_computer(sides, recorded.options, recorded.bot)

    def _stop_computer(self) -> None:
        if self.computer is not None:
            if self.computer.session is self.session:
                self.session.set_computer(())
            self.computer.stop()
            self.computer.deleteLater()
            self.computer = None
        self.pause_act.setChecked(False)
        self.pause_act.setEnabled(False)

    def _pause_computer(self, on: bool) -> None:
        if self.computer is not None:
            self.computer.set_paused(on)
            self._show_play()

    def _computer_acted(self, text: str) -> None:
        if self.session is not None and self.session.game.log:
            entry = self.session.game.log[-1]
            events = "; ".join(e.text for e in entry.events if e.text)
            self.statusBar().showMessage(f"Computer: {text}" + (f" — {events}" if events else ""), 8000)

    def _show_computer_turn(self) -> None:
        """While the computer is to play, the map and "Next phase" wait for it; the phase bar says so."""
        c = self.computer
        if c is None or self.viewing_past is not None:
            return
        self.map_view.drag_enabled = True
        if c.paused or not c.to_play():
            return
        self.map_view.drag_enabled = False
        self.map_view.show_ready(())
        self.phase_bar.next_act.setEnabled(False)
        side = c.side_to_act()
        name = getattr(self.scenario.sides.get(side), "name", side) if self.scenario is not None else side
        doing = "thinking for" if c.is_thinking() else "playing"
        self.phase_bar.set_text(f"{self.phase_bar.label.text()} — the computer is {doing} {name}")
        self.guide_label.setText(f"The computer is {doing} {name}: its moves show on the map and in the log; "
                                 "Next waits for it (Pause the computer, Ctrl+Shift+P, to play for it yourself).")
