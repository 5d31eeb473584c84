"""The play window's files: opening a map, a scenario or a saved game (a bad one reported in words, a
broken autosave kept aside), the recent files, saving; a part of
:class:`~gui.play.window.MainWindow`."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from engine.errors import BadFile

from gui.scene.counterart import CounterArt
from gui.play.session import PlaySession


class WindowFiles:
    """The files part of the play window (``self`` is the ``MainWindow``)."""

    # ------------------------------------------------------------ recent files
    def recent_files(self) -> list[Path]:
        """Files opened or saved lately, newest first (missing files left out)."""
        return self.recent.files()

    def _remember(self, path: Path) -> None:
        self.recent.add(path)

    def _fill_recent(self) -> None:
        self.menus.fill_recent()

    def suggested_save_name(self) -> str:
        """A name for a new save: the scenario, the turn and today's date, like ``demyansk-1-trapped-turn3-2026-12-01.toml``."""
        import datetime

        stem = Path(getattr(self.scenario, "path", "") or "game").stem
        turn = self.session.save_tag() if self.session is not None else ""
        day = datetime.date.today().isoformat()
        return f"{stem}-{turn}-{day}.toml" if turn else f"{stem}-{day}.toml"

    # ------------------------------------------------------------ files

    def keep_game_in_progress(self) -> bool:
        """Unsaved actions of the game in progress are saved or given up only when the user says so
        (``WindowMenus.keep_game_in_progress``); False: nothing is to be replaced."""
        if self.session is None:
            return True
        return self.menus.keep_game_in_progress(self.scenario.name, self.session)

    def open_file(self, path: Path, ask: bool = True, remember: bool = True) -> bool:
        """Open a map or scenario file; a bad file is reported in words, never as a traceback.  A game in progress
        with unsaved actions is saved or given up first, as the user says (``ask``).  ``remember``: put it at the
        top of Open recent (not for the default scenario the program opens by itself at start)."""
        if ask and not self.keep_game_in_progress():
            self.statusBar().showMessage(f"Not opened: {Path(path).name} (the game in progress is kept)", 8000)
            return False
        from engine.fileio import read_toml
        from engine.maps.mapfile import is_map_doc, load_map

        path = Path(path).absolute()
        from gui.table import is_table_file
        from gui.tcs import is_tcs_path

        # a gridless skirmish is played on its table, in a window of its own (gui/table); a TCS game here
        if is_table_file(path) and not is_tcs_path(path):
            from gui.table.window import TableWindow

            self.table_window = TableWindow.open(path, parent=self, recent=self.recent_file)
            if self.table_window is None or TableWindow.log_refused:
                kept = self._keep_broken_autosave(path)      # never overwritten or removed on closing
                if kept is not None:
                    self.statusBar().showMessage(f"The autosaved game was kept as {kept}", 30000)
            if self.table_window is None:
                self.last_error = TableWindow.last_error      # the table window has shown it in a dialog
            else:
                if path == Path(self.autosave).absolute():     # resumed from the autosave: no file of the user's
                    self.table_window.resumed_from_autosave()
                if remember:
                    self._remember(path)
                self.table_window.remember_layout()
                self.table_window.show()
                self.table_window.view.fit()
            return self.table_window is not None
        from engine.game import LogRefused

        saved = None
        kept = None
        self._opened_note = None
        try:
            doc = read_toml(path)
            if is_map_doc(doc):
                board, placed, scenario = load_map(path), [], None
            elif "actions" in doc and "seed" in doc:
                from gui.tcs import open_saved

                saved = open_saved(path, parent=self)
                board, placed, scenario = saved.board, [], saved.scenario
            else:
                board, placed, scenario = self._load_scenario(path)
        except LogRefused as e:
            kept = self._keep_broken_autosave(path)
            saved = self._open_before_refusal(path, e, kept)
            if saved is None:
                return False
            board, placed, scenario = saved.board, [], saved.scenario
        except BadFile as e:
            kept = self._keep_broken_autosave(path)
            text = "\n".join(str(p) for p in e.problems[:20])
            if kept is not None:
                text += f"\n\nThe autosaved game was kept as {kept}."
            self.show_error(f"Cannot open {path}", text)
            return False
        if kept is None and remember:
            self._remember(path)
        self.board, self.scenario = board, scenario
        self._stop_computer()
        if self.session is not None:
            self.session.changed.disconnect(self._game_changed)
            self.session = None
        if scenario is not None:
            from engine.counters.art import counter_images_folder

            from gui.tcs import counter_art

            art = counter_art(scenario, counter_images_folder(scenario)) or \
                CounterArt(scenario.sides, images=counter_images_folder(scenario))
            self.map_view.set_art(art)
            self.session = self._start_game(scenario, board, saved)
        self.combat.clear()                     # no battle of the game before: its preparation and its result
        self.combat.show_result([])
        self.map_view.show_board(board)
        self.ids_act.setChecked(not board.printed_ids)      # a scan that prints its own ids is not printed over
        self.map_view.drag_enabled = self.session is not None
        self.map_view.set_pieces(self.session.pieces() if self.session is not None else placed)
        if saved is not None:
            self._resume_computer(saved)
        self._show_play()
        title = scenario.name if scenario is not None else board.name
        if self._opened_note is not None:        # a game opened as it stood before a refused action of its log
            self.setWindowTitle(f"Sandtable — {title} ({self._opened_note[0]})")
            self.statusBar().showMessage(self._opened_note[1], 30000)
        else:
            self.setWindowTitle(f"Sandtable — {title}")
            self.statusBar().showMessage(f"{title}: {len(board.hexes())} hexes on {len(board.sheets)} sheet(s)", 5000)
        self._show_zoom()
        return True

    def _open_before_refusal(self, path: Path, e, kept: Path | None) -> PlaySession | None:
        """A saved game whose log no longer replays: say which action is refused and why, and offer the game as
        it stood before it.  The file itself is never changed: the game opened has no file (Save asks for one)."""
        text = (f"{e.problems[0]}\n\nThe game can be opened as it stood before that action "
                f"(after {e.index} of its {e.total} actions). "
                f"The file is left as it is: saving asks for a new file.")
        if kept is not None:
            text += f"\n\nThe autosaved game was kept as {kept}."
        self.last_error = f"The log of {path.name} no longer replays\n{text}"
        if not self.ask_yes_no(f"The log of {path.name} no longer replays", text + "\n\nOpen it so?"):
            self.statusBar().showMessage(f"Not opened: {e.problems[0]}", 15000)
            return None
        try:
            session = PlaySession.of_game(e.before, parent=self)
        except BadFile as again:
            self.show_error(f"Cannot open {path}", "\n".join(str(p) for p in again.problems[:20]))
            return None
        self._opened_note = (f"{path.name} as it stood before action {e.index + 1} of its log",
                             f"Opened {path.name} as it stood before action {e.index + 1}; the file is unchanged "
                             "(save the game under a new name)")
        return session

    def _keep_broken_autosave(self, path: Path) -> Path | None:
        """An autosave that cannot be opened is moved aside (never lost: the next action would overwrite it)."""
        if Path(path).absolute() != Path(self.autosave).absolute() or not Path(path).is_file():
            return None
        import os
        import time

        kept = Path(path).with_name(f"{Path(path).stem}-broken-{time.strftime('%Y%m%d-%H%M%S')}.toml")
        try:
            os.replace(path, kept)
        except OSError:
            return None
        return kept

    def ask_yes_no(self, title: str, text: str) -> bool:
        """A question the user answers (Yes is the default); where nobody can answer (offscreen), No."""
        if self._offscreen():
            return False
        answer = QMessageBox.question(self, title, text, QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        return answer == QMessageBox.Yes

    def _load_scenario(self, path: Path):
        from engine.scenario import load_scenario, scenario_board

        from gui.tcs import load_tcs

        tcs = load_tcs(path)                # a TCS scenario reads its own format
        if tcs is not None:
            return tcs
        scenario = load_scenario(path)
        board = scenario_board(scenario)        # the map, every unit's hex checked to be on it (BadFile if not)
        placed = [(unit, board.parse_hex(unit.hex)) for unit in scenario.units.values()
                  if unit.hex and not unit.hex.startswith("box:")]      # box:ID: a free-play unit in an off-map box
        return board, placed, scenario

    def save_game(self, path: Path) -> bool:
        """Save the game in progress; a write that fails is reported and leaves any old file whole."""
        if self.session is None:
            self.show_error("Nothing to save", "Open a scenario and play first.")
            return False
        try:
            self.session.save(Path(path))
        except OSError as e:
            self.show_error(f"Cannot save {path}", e.strerror or str(e))
            return False
        self._remember(Path(path))
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _save(self) -> None:
        self.menus.save()

    def _save_as(self) -> None:
        if self.session is not None:
            self.menus.save_as()
