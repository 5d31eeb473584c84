"""The menu bar the play window and the skirmish window share: File (Open, Open recent, Save, Save as, Quit),
Edit (Undo, Redo), View and Help (the documents, the rules reference of each game, shortcuts, About).

A window hands in what differs: how it opens and saves a file, the name it suggests for a save, its undo and
redo actions, and its own extra File and View items.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox

from gui.common.settings import last_folder, remember_folder

RECENT_MAX = 10


class RecentFiles:
    """Files opened or saved lately, newest first, kept as TOML (``{files = [...]}``); missing files left out."""

    def __init__(self, path: Path | None, leave_out: Callable[[Path], bool] = lambda p: False):
        self.path = path
        self.leave_out = leave_out

    def files(self) -> list[Path]:
        if self.path is None:
            return []
        from engine.errors import BadFile
        from engine.fileio import is_file, read_toml

        try:
            doc = read_toml(self.path)
        except BadFile:
            return []       # a damaged list of recent files is started afresh (the next open rewrites it)
        files = doc.get("files", [])
        if not isinstance(files, list):
            return []
        return [Path(f) for f in files if isinstance(f, str) and is_file(f)]

    def add(self, path: Path) -> None:
        path = Path(path).absolute()
        if self.path is None or self.leave_out(path):
            return
        from engine.fileio import write_toml

        files = [str(path)] + [str(p) for p in self.files() if p != path]
        try:
            write_toml(self.path, {"files": files[:RECENT_MAX]})
        except OSError:
            pass


class RuleLink(QLabel):
    """The rule the last refusal cites, in the status bar: a click opens the rules reference at that rule."""

    def __init__(self, menus: "WindowMenus", parent=None):
        super().__init__(parent)
        self.setTextFormat(Qt.RichText)
        self.setToolTip("Open the rules reference at this rule")
        self.linkActivated.connect(lambda url: menus.show_rule(url.removeprefix("rule:")))
        self.hide()

    def show_rule(self, rule: str) -> None:
        """Link to ``rule`` (like "Demyansk 5.2"); an empty rule hides the link."""
        self.setText(f'<a href="rule:{rule}">{rule} ↗</a>' if rule else "")
        self.setVisible(bool(rule))


class WindowMenus:
    """Builds the shared menus on ``window``; ``open_file(path) -> bool`` and ``save_game(path) -> bool`` do the
    work, ``suggest_name()`` names a new save, ``undo_act``/``redo_act`` are the window's own actions."""

    def __init__(self, window, *, recent: RecentFiles, open_file, save_game, suggest_name, current_path,
                 undo_act: QAction, redo_act: QAction, open_title: str = "Open a map, scenario or saved game"):
        self.window = window
        self.recent = recent
        self._open_file, self._save_game = open_file, save_game
        self.suggest_name, self.current_path = suggest_name, current_path
        self.open_title = open_title
        self.help_window = None
        self.about = None
        bar = window.menuBar()
        w = window
        self.file_menu = bar.addMenu("&File")
        self.open_act = QAction("&Open…", w, shortcut=QKeySequence.Open, triggered=self.choose_file)
        self.file_menu.addAction(self.open_act)
        self.recent_menu = self.file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self.fill_recent)
        self.file_extra = self.file_menu.addSeparator()      # a window's own items go before this
        self.save_act = QAction("&Save game", w, shortcut=QKeySequence.Save, triggered=self.save)
        self.save_as_act = QAction("Save game &as…", w, shortcut=QKeySequence.SaveAs, triggered=self.save_as)
        self.file_menu.addActions([self.save_act, self.save_as_act])
        self.file_menu.addSeparator()
        self.quit_act = QAction("&Quit", w, shortcut=QKeySequence("Ctrl+Q"), triggered=self.quit_program)
        self.quit_act.setToolTip("Quit Sandtable: every window closes (a game not saved is asked about first)")
        self.file_menu.addAction(self.quit_act)
        self.rule_link = RuleLink(self, window)       # a window adds it to its status bar
        self.edit_menu = bar.addMenu("&Edit")
        self.edit_menu.addActions([undo_act, redo_act])
        self.view_menu = bar.addMenu("&View")
        self.help_menu = bar.addMenu("&Help")
        self._fill_help()

    def quit_program(self) -> bool:
        """File > Quit: ``quit_program`` from this window."""
        return quit_program(self.window)

    # ------------------------------------------------------------ files
    def add_file_items(self, actions: list[QAction]) -> None:
        """A window's own File items (New game, Scenario editor), after Open recent."""
        for act in actions:
            self.file_menu.insertAction(self.file_extra, act)

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent.files()
        for i, p in enumerate(files, start=1):
            self.recent_menu.addAction(QAction(f"&{i % 10} {p.name}", self.window, toolTip=str(p),
                                               triggered=lambda _=False, p=p: self.open(p)))
        if not files:
            self.recent_menu.addAction(QAction("(none yet)", self.window, enabled=False))

    def start_folder(self) -> Path:
        """The folder the dialogs start in: the one last used, else the current file's, else the user's documents."""
        folder = last_folder()
        if folder is None and self.current_path() is not None:
            folder = Path(self.current_path()).parent
        if folder is None:               # the first time: the Sandtable folder in the documents (the game library's)
            from PySide6.QtCore import QStandardPaths

            from gui.common.userfolders import games_folder

            docs = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
            folder = Path(docs) if docs and Path(docs).is_dir() else Path.home()
            try:
                games_folder().mkdir(parents=True, exist_ok=True)
                folder = games_folder()
            except OSError:
                pass
        return folder

    def open_start(self) -> str:
        """Where the Open dialog starts."""
        return str(self.start_folder())

    def save_start(self) -> str:
        """Where the Save dialog starts: the folder last used, unless it is one of the program's own (a shipped
        scenario was opened from there), else the user's Sandtable folder; with a suggested name (scenario,
        turn as the game shows it, date)."""
        from gui.common.userfolders import games_folder, is_program_folder

        folder = last_folder()
        if folder is None or is_program_folder(folder):
            folder = games_folder()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError:              # a documents folder that cannot be written: the home folder
                folder = Path.home()
        return str(folder / self.suggest_name())

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, self.open_title, self.open_start(), "Sandtable files (*.toml)")
        if path:
            self.open(Path(path))

    def open(self, path: Path) -> bool:
        ok = self._open_file(Path(path))
        if ok:
            remember_folder(Path(path))
        return ok

    def keep_game_in_progress(self, name: str, session) -> bool:
        """Before the game in progress is replaced or its window closes: actions no file of the user's holds
        (``session.unsaved()``) are saved or given up only when the user says so (the autosave would be
        overwritten by the next game).  False: the user chose Cancel, or a Save that did not happen."""
        if session is None or not session.unsaved() or self.window._offscreen():
            return True
        n = len(session.game.log)
        path = self.current_path()
        where = f"since it was saved to {Path(path).name}" if path is not None else "and it has never been saved"
        computer = " It is a game against the computer." if session.computer is not None else ""
        # the computer waits while the user is asked: behind the question it went on playing, so the count of
        # actions asked about was already stale and a game kept by Cancel had moved on unseen
        player = getattr(self.window, "computer", None)
        was_paused = player is None or player.paused
        if not was_paused:
            player.set_paused(True)
        try:
            answer = QMessageBox.question(
                self.window, "The game in progress is not saved",
                f"{name}: the game has {n} action(s) in its log, with changes {where}.{computer}\n\n"
                "Save it before going on?", QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
                QMessageBox.Save)
        finally:
            if not was_paused:
                player.set_paused(False)
        if answer == QMessageBox.Save:
            self.save()
            return not session.unsaved()
        return answer == QMessageBox.Discard

    def save(self) -> None:
        path = self.current_path()
        if path is not None:
            self.save_to(Path(path))
        else:
            self.save_as()

    def save_as(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, "Save the game", self.save_start(), "Saved games (*.toml)")
        if path:
            self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        """Save, then remember the file in Open recent and its folder for the next dialog."""
        ok = self._save_game(Path(path))
        if ok:
            self.recent.add(Path(path))
            remember_folder(Path(path))
        return ok

    # ------------------------------------------------------------ help
    def _fill_help(self) -> None:
        from gui.help.reference import read_reference
        from gui.help.viewer import help_documents

        from gui.help.howto import HOW_TO_PLAY

        w = self.window
        docs = help_documents()
        for title, path in docs[:1]:                 # Getting started, for players
            self.help_menu.addAction(QAction(title, w, triggered=lambda _=False, p=path: self.show_document(p)))
        howto = self.help_menu.addMenu("&How to play")
        self.how_to_play_menu = howto
        for kind, (title, path) in HOW_TO_PLAY.items():
            howto.addAction(QAction(title, w, triggered=lambda _=False, k=kind: self.show_how_to_play(k)))
        rules = self.help_menu.addMenu("Rules &reference")
        self.rules_menu = rules
        for game in read_reference():
            rules.addAction(QAction(game.game, w, toolTip=f"Every rule of {game.game} by number, with what the "
                                    "program enforces", triggered=lambda _=False, g=game: self.help().show_rules(g)))
        makers = self.help_menu.addMenu("For map and scenario &makers")
        for title, path in docs[1:]:
            makers.addAction(QAction(title, w, toolTip=str(path),
                                     triggered=lambda _=False, p=path: self.show_document(p)))
        self.help_menu.addSeparator()
        self.help_menu.addAction(QAction("&Keyboard shortcuts", w, shortcut=QKeySequence.HelpContents,
                                         triggered=self.show_shortcuts))
        self.about_act = QAction("&About Sandtable", w, triggered=self.show_about)
        self.help_menu.addAction(self.about_act)

    def help(self):
        from gui.help.viewer import HelpWindow

        if self.help_window is None:
            from PySide6.QtCore import QSize, Qt

            from gui.common.settings import remember_layout

            self.help_window = HelpWindow(self.window)
            self.help_window.setWindowFlag(Qt.Window)
            remember_layout(self.help_window, "help", QSize(900, 700))
        return self.help_window

    def close_help(self) -> None:
        """The window closes: its help window goes with it (the program ends with its last main window)."""
        if self.help_window is not None:
            self.help_window.close()

    def show_document(self, path: Path) -> None:
        self.help().show_document(path)

    def show_how_to_play(self, kind: str) -> bool:
        """Help > How to play: the page of one kind of game ("demyansk", "classic", "skirmish", "tcs")."""
        from gui.help.howto import how_to_play_page

        page = how_to_play_page(kind)
        if page is None:
            return False
        self.help().show_document(page)
        return True

    def show_rule(self, citation: str) -> bool:
        """The rules reference at the rule a refusal cites (a link in the status bar)."""
        return self.help().show_citation(citation)

    def show_about(self):
        from gui.help.viewer import about_box

        self.about = about_box(self.window)
        return self.about

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """Every menu and toolbar action that has a keyboard shortcut: (key, what it does), by what it does."""
        seen = set()
        for act in self.window.findChildren(QAction):
            key = act.shortcut().toString(QKeySequence.NativeText)
            name = act.text().replace("&", "")
            if re.fullmatch(r"[\d.]+%", name):        # View > Zoom presets: "12.5%" alone says nothing of what it does
                name = f"Zoom to {name}"
            if key:
                seen.add((key, name))
        return sorted(seen, key=lambda row: (_natural(row[1]), row[0]))

    def shortcuts_text(self) -> str:
        """Every menu and toolbar action that has a keyboard shortcut, one a line."""
        return "\n".join(f"{key:>16}   {name}" for key, name in self.shortcut_rows())

    def shortcuts_html(self) -> str:
        """The shortcuts as a two-column table: aligned whatever the font."""
        from html import escape

        rows = "".join(f"<tr><td align='right' style='padding-right:14px'><b>{escape(key)}</b></td>"
                       f"<td>{escape(name)}</td></tr>" for key, name in self.shortcut_rows())
        return f"<table cellspacing='2'>{rows}</table>"

    def show_shortcuts(self) -> QMessageBox:
        box = QMessageBox(QMessageBox.Information, "Keyboard shortcuts", self.shortcuts_html(), QMessageBox.Ok,
                          self.window)
        box.setTextFormat(Qt.RichText)
        self.shortcuts_box = box
        box.open()
        return box


def _natural(text: str) -> list:
    """A sort key reading the numbers in a text as numbers: 12.5% before 25% before 100%."""
    return [(0, float(part), "") if re.fullmatch(r"\d+(?:\.\d+)?", part) else (1, 0.0, part)
            for part in re.split(r"(\d+(?:\.\d+)?)", text) if part]


def quit_program(first) -> bool:
    """Quit from any window (the play and skirmish windows' File menu, the map and scenario editors' own menu):
    ``first`` closes, then every other window of the program, each asking first about a game with actions no file
    holds (``keep_game_in_progress``) or an edit not saved; then the program ends. Cancel in any of them keeps that
    window and the program (False)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    others = [w for w in app.topLevelWidgets() if w is not first and w.isVisible()
              and w.windowType() in (Qt.Window, Qt.Dialog)]     # the editors ask about their own edits
    for w in [first, *others]:
        if w.isVisible() and not w.close():
            return False
    app.quit()
    return True
