"""The skirmish window: the table view, the orders the rules allow now, the log, turn and refusals."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QDockWidget, QLabel, QListWidget, QListWidgetItem, QMainWindow,
                               QMessageBox, QPushButton, QToolBar, QVBoxLayout, QWidget)

from engine.errors import BadFile, IllegalAction
from engine.rulesets.scw.actions import Move

from gui.common.statusline import ElidedLabel, StatusLine
from .session import TableSession
from .view import TableView
from .words import enemy_lines, enemy_places

STATUS_MS = 15000
HINT = ("Drag a team to move it (the circle is how far it may be ordered); click it for its other orders; "
        "right-drag or M to measure")


class OrdersDock(QDockWidget):
    """The orders the rules allow now (other than moves, which are dragged), for the team picked or all."""

    def __init__(self, parent=None):
        super().__init__("Orders", parent)
        self.setObjectName("ordersdock")
        box = QWidget()
        lay = QVBoxLayout(box)
        self.heading = QLabel("Click a team to see its orders; drag it to move")
        self.heading.setWordWrap(True)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.give = QPushButton("Give this order")
        lay.addWidget(self.heading)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.give)
        self.setWidget(box)

    def show_orders(self, heading: str, orders: list) -> None:
        self.heading.setText(heading)
        self.list.clear()
        for a in orders:
            doc = (type(a).__doc__ or "").strip().rstrip(".")
            item = QListWidgetItem(f"{a.text()}  —  {doc}")
            item.setData(Qt.UserRole, a.text())
            self.list.addItem(item)
        self.give.setEnabled(bool(orders))

    def chosen(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.UserRole) if item is not None else None


class TableWindow(QMainWindow):
    """A skirmish on the table: drag teams to move them, give the other orders from the list."""

    last_error = ""          # why the last ``open`` failed, in words
    log_refused = False      # whether the last ``open`` met a saved log that no longer replays
    # a play window for a file that is not a skirmish (given the recent files list), registered by the play
    # window's module (gui/play/window.py): the two windows know each other's contract, not each other's module
    new_play_window = None

    @staticmethod
    def ask_yes_no(parent, title: str, text: str) -> bool:
        """A question the user answers (Yes is the default); where nobody can answer (offscreen), No."""
        if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
            return False
        return QMessageBox.question(parent, title, text, QMessageBox.Yes | QMessageBox.No,
                                    QMessageBox.Yes) == QMessageBox.Yes

    def __init__(self, session: TableSession, autosave: Path | None = None, parent=None, recent: Path | None = None):
        super().__init__(parent)
        self.session = session
        self.autosave = autosave
        self.saved_path: Path | None = None      # where this game was last saved or opened from (Save writes there)
        self.recent_file = recent                # the recent files list the play window keeps too
        self.play_window = None                  # a play window this one opened for a file that is not a skirmish
        self.selected: str | None = None
        self.computer = None                     # the computer playing a side (gui/common/computerplayer.py), or None
        self.computer_step_ms: int | None = None  # between two of its orders (None: the player's default)
        self.enemy_seen: list[str] = []        # the enemy's actions, as the last order brought them
        self.last_refusal = ""
        self.view = TableView(self)
        self.setCentralWidget(self.view)
        self.setStatusBar(StatusLine(self))   # messages elided before the rule link, whole in the tooltip
        self.hover = ElidedLabel()
        self.statusBar().addWidget(self.hover, 1)
        self._make_toolbar()
        self._make_menus()
        self.statusBar().addPermanentWidget(self.menus.rule_link)
        self.orders = OrdersDock(self)
        self.addDockWidget(Qt.RightDockWidgetArea, self.orders)
        self.log = QDockWidget("Log", self)
        self.log.setObjectName("tablelog")
        self.log_list = QListWidget()
        self.log_list.setWordWrap(True)
        self.log.setWidget(self.log_list)
        self.addDockWidget(Qt.RightDockWidgetArea, self.log)
        self.resizeDocks([self.orders, self.log], [330, 330], Qt.Horizontal)
        self.resizeDocks([self.orders, self.log], [260, 480], Qt.Vertical)
        self.view.hovered.connect(self.hover.setText)
        self.view.measured.connect(lambda text: self.statusBar().showMessage(text, STATUS_MS))
        self.view.team_dropped.connect(self.move_team)
        self.view.team_clicked.connect(self.select_team)
        self.orders.give.clicked.connect(self._give_chosen)
        self.orders.list.itemDoubleClicked.connect(lambda _: self._give_chosen())
        session.setParent(self)
        session.refused.connect(self._refused)
        session.happened.connect(self._happened)
        session.changed.connect(self._changed)
        self.setWindowTitle(f"Sandtable — {session.rules.scenario.name}")
        self.view.set_session(session)
        self._changed()
        self.statusBar().showMessage(self.view.image_problem or HINT, STATUS_MS)
        self._resume_computer()

    @classmethod
    def open(cls, path: Path, autosave: Path | None = None, seed: int | None = None, parent=None,
             recent: Path | None = None):
        """A window for a skirmish scenario or a saved skirmish; a bad file is reported in words (None)."""
        session = cls.read_session(path, seed, parent)
        if session is None:
            return None
        win = cls(session, autosave, parent, recent)
        if session.saved_from is not None:
            win.saved_path = session.saved_from
        return win

    @classmethod
    def read_session(cls, path: Path, seed: int | None = None, parent=None) -> TableSession | None:
        """The game of a skirmish scenario (new) or a saved skirmish; a bad file is reported in words (None)."""
        from engine.fileio import read_toml
        from engine.game import LogRefused

        cls.log_refused = False
        try:
            doc = read_toml(path)
            if "actions" in doc and "seed" in doc:
                session = TableSession.saved(path)
                session.saved_from = Path(path)
            else:
                session = TableSession.new(path, seed)
        except LogRefused as e:
            # Its log no longer replays: say which order is refused and why, and offer the game as it stood
            # before it (the file is left as it is; this window always saves under a name asked for).
            cls.log_refused = True
            text = (f"{e.problems[0]}\n\nThe game can be opened as it stood before that order "
                    f"(after {e.index} of its {e.total} orders). The file is left as it is.")
            cls.last_error = f"The log of {Path(path).name} no longer replays\n{text}"
            if not cls.ask_yes_no(parent, f"The log of {Path(path).name} no longer replays", text + "\n\nOpen it so?"):
                return None
            session = TableSession(e.before, Path(e.before.scenario_path or path))
        except (BadFile, IllegalAction) as e:
            text = "\n".join(str(p) for p in e.problems[:20]) if isinstance(e, BadFile) else str(e)
            cls.last_error = f"Cannot open {path}:\n{text}"
            if os.environ.get("QT_QPA_PLATFORM") != "offscreen":   # no modal box where nobody can answer it
                QMessageBox.warning(parent, f"Cannot open {path}", text)
            return None
        return session

    def _make_menus(self) -> None:
        """The play window's menu bar (gui/common/menus.py): File, Edit, View, Help, with the same shortcuts."""
        from gui.common.menus import RecentFiles, WindowMenus

        self.recent = RecentFiles(self.recent_file, leave_out=lambda p: self.autosave is not None
                                  and p == Path(self.autosave).absolute())
        self.menus = WindowMenus(self, recent=self.recent, open_file=self.open_file, save_game=self.save_game,
                                 suggest_name=self.suggested_save_name, current_path=lambda: self.saved_path,
                                 undo_act=self.undo_act, redo_act=self.redo_act,
                                 open_title="Open a skirmish, a map, a scenario or a saved game")
        self.menus.add_file_items([self.new_act])
        self.menus.view_menu.addActions([self.fit_act, self.tape_act])

    def remember_layout(self) -> None:
        """Size, position and docks as this window last had them (never larger than the screen)."""
        from PySide6.QtCore import QSize

        from gui.common.settings import remember_layout

        remember_layout(self, "skirmish", QSize(1280, 860))

    # ------------------------------------------------------------ files
    def open_file(self, path: Path) -> bool:
        """Open another file: a skirmish here in place of this game; any other file in a play window."""
        from gui import table

        path = Path(path).absolute()
        if table.is_table_file(path) and not self.keep_game_in_progress():
            return False
        if not table.is_table_file(path):
            parent = self.parent()
            host = parent if parent is not None and hasattr(parent, "open_file") else self.play_window
            if host is None:
                if TableWindow.new_play_window is None:
                    self._refused("", f"{path.name} opens in the play window, which this program has not given")
                    return False
                self.play_window = host = TableWindow.new_play_window(self.recent_file)
            ok = host.open_file(path)
            if ok:
                host.show()
                host.raise_()
            return ok
        session = self.read_session(path, parent=self)
        if session is None:
            self._refused("", TableWindow.last_error.replace("\n", " "))
            return False
        self._set_session(session)
        self.saved_path = session.saved_from
        self.recent.add(path)
        self.statusBar().showMessage(f"Opened {path}", STATUS_MS)
        return True

    def save_game(self, path: Path) -> bool:
        """Save the game; a write that fails is reported and leaves any old file whole."""
        try:
            self.session.save(path)
        except OSError as e:
            self._refused("", f"cannot save {path}: {e.strerror or e}")
            if os.environ.get("QT_QPA_PLATFORM") != "offscreen":
                QMessageBox.warning(self, "Cannot save", f"{path}: {e.strerror or e}")
            return False
        self.saved_path = Path(path)
        self.session.mark_saved()
        self.statusBar().showMessage(f"Saved {path}", STATUS_MS)
        return True

    def suggested_save_name(self) -> str:
        """A name for a new save: the scenario, the turn and today's date."""
        import datetime

        stem = Path(self.session.path).stem
        return f"{stem}-turn{self.session.state.get('turn', 0)}-{datetime.date.today().isoformat()}.toml"

    def _make_toolbar(self) -> None:
        bar = QToolBar("Turn", self)
        bar.setObjectName("tablebar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.turn_label = ElidedLabel()       # after the buttons: they never move as the text changes
        self.turn_label.setContentsMargins(10, 0, 6, 0)
        self.end_act = QAction("End turn", self, shortcut=QKeySequence("Ctrl+Return"))
        self.end_act.triggered.connect(lambda: self.give("end"))
        self.undo_act = QAction("Undo", self, shortcut=QKeySequence.Undo)
        self.undo_act.triggered.connect(self.session_undo)
        self.redo_act = QAction("Redo", self, shortcut=QKeySequence("Ctrl+Shift+Z"))
        self.redo_act.triggered.connect(self.session_redo)
        self.tape_act = QAction("Tape measure", self, shortcut=QKeySequence("M"), checkable=True)
        self.tape_act.setToolTip("Drag between any two points to measure in inches (M); a right-drag always measures")
        self.tape_act.toggled.connect(lambda on: setattr(self.view, "measuring", on))
        fit = self.fit_act = QAction("Fit", self, shortcut=QKeySequence("F"))
        fit.triggered.connect(self.view.fit)
        self.new_act = QAction("New game…", self, shortcut=QKeySequence.New)
        self.new_act.setToolTip("Start a game: the scenario, its variants, the seed and who plays each side (the "
                                "rules play the defenders' guns)")
        self.new_act.triggered.connect(lambda: self.new_game_dialog())
        self.pause_act = QAction("Pause the computer", self, checkable=True, shortcut=QKeySequence("Ctrl+Shift+P"))
        self.pause_act.setToolTip("Stop the computer between two of its orders (Ctrl+Shift+P); while paused you "
                                  "may give its orders yourself")
        self.pause_act.toggled.connect(self._pause_computer)
        self.pause_act.setEnabled(False)
        bar.addActions([self.new_act, self.end_act, self.undo_act, self.redo_act, self.tape_act, fit, self.pause_act])
        bar.addWidget(self.turn_label)
        self.addToolBar(Qt.TopToolBarArea, bar)

    # ------------------------------------------------------------ a new game
    def new_game_dialog(self):
        """The New game dialog on this skirmish (non-blocking); Start begins the game chosen in this window."""
        from gui.common.newgame import NewGameDialog

        c = self.session.computer
        self.new_game_dlg = NewGameDialog(self.session.path, variants=self.session.game.variants, parent=self,
                                          current_seed=self.session.game.seed,
                                          computer=c.sides if c is not None else (),
                                          bot=c.bot if c is not None else "baseline")
        self.new_game_dlg.accepted.connect(lambda: self.start_chosen_game(self.new_game_dlg.choice()))
        self.new_game_dlg.open()
        return self.new_game_dlg

    def start_chosen_game(self, choice) -> bool:
        """A new game of the skirmish chosen (its variants and seed) in place of this one; a bad file is reported."""
        from engine.scenario.newgame import new_game

        if choice is None or not self.keep_game_in_progress():
            return False
        try:
            session = TableSession(new_game(choice.path, choice.seed, choice.variants), Path(choice.path))
        except BadFile as e:
            self._refused("", "cannot start this game: " + "; ".join(str(p) for p in e.problems[:5]))
            return False
        self._set_session(session)
        self.saved_path = None
        if choice.computer:
            self._start_computer(choice.computer, dict(choice.options), choice.bot)
        chosen = f", variants: {', '.join(choice.variants)}" if choice.variants else ""
        self.statusBar().showMessage(f"New game (seed {choice.seed}{chosen})", STATUS_MS)
        return True

    # ------------------------------------------------------------ the computer
    def _start_computer(self, sides, options: dict | None = None, bot: str = "baseline") -> None:
        """The computer plays ``sides`` with ``bot`` (gui/common/computerplayer.py: it thinks off this thread)."""
        from gui.common.computerplayer import STEP_MS, ComputerPlayer

        self._stop_computer()
        step = STEP_MS if self.computer_step_ms is None else self.computer_step_ms
        self.session.set_computer(sides, options, bot)
        self.computer = ComputerPlayer(self.session, sides, step_ms=step, parent=self, options=options, bot=bot)
        self.computer.thinking.connect(lambda _on: self._show_turn())
        self.computer.acted.connect(self._computer_acted)
        self.computer.stopped.connect(lambda why: self._refused("", f"the computer stopped: {why}"))
        self.pause_act.setEnabled(True)
        self.pause_act.setChecked(False)
        self._show_turn()
        self.computer.schedule()

    def _resume_computer(self) -> None:
        """A saved game the computer was playing sides of: it plays them again."""
        recorded = self.session.computer
        if recorded is not None and recorded.sides:
            self._start_computer([s for s in recorded.sides if s in ("attacker", "defender")], recorded.options,
                                 recorded.bot)

    def _stop_computer(self) -> None:
        if self.computer is not None:
            self.computer.stop()
            self.computer.deleteLater()
            self.computer = None
        self.pause_act.setChecked(False)
        self.pause_act.setEnabled(False)

    def _pause_computer(self, on: bool) -> None:
        if self.computer is not None:
            self.computer.set_paused(on)
            self._show_turn()

    def _computer_acted(self, text: str) -> None:
        log = self.session.game.log
        if log:
            self.statusBar().showMessage(f"Computer: {text}", STATUS_MS)

    def _show_turn(self) -> None:
        """The turn, and whether the computer is thinking or playing (or paused)."""
        text = self.session.turn_text()
        c = self.computer
        if c is not None and not self.session.state["outcome"]:
            side = "the attackers" if c.side_to_act() == "attacker" else "the defenders"
            if c.paused:
                text += " — the computer is paused"
            elif c.to_play():
                text += f" — the computer is {'thinking for' if c.is_thinking() else 'playing'} {side}"
        self.turn_label.setText(text)

    def _set_session(self, session: TableSession) -> None:
        """Play ``session`` in this window in place of the game shown."""
        self._stop_computer()
        old = self.session
        for signal, slot in ((old.refused, self._refused), (old.happened, self._happened),
                             (old.changed, self._changed)):
            signal.disconnect(slot)
        self.session = session
        self.selected = None
        self.enemy_seen = []
        session.setParent(self)
        session.refused.connect(self._refused)
        session.happened.connect(self._happened)
        session.changed.connect(self._changed)
        old.deleteLater()
        self.setWindowTitle(f"Sandtable — {session.rules.scenario.name}")
        self.view.set_session(session)
        self.view.fit()
        self._changed()
        self._resume_computer()

    # ------------------------------------------------------------ orders
    def move_team(self, team: str, x: float, y: float) -> bool:
        """A dropped team: order the move; a refusal puts it back where it stands."""
        self.selected = self.view.selected = team
        ok = self.session.order(Move(team, float(x), float(y))) is not None
        if not ok:
            self.view.show_state()
            self._show_orders()
        return ok

    def give(self, text: str) -> bool:
        return self.session.order(text) is not None

    def _give_chosen(self) -> None:
        text = self.orders.chosen()
        if text:
            self.give(text)

    def select_team(self, team: str) -> None:
        self.selected = self.view.selected = team
        self.view.show_state()
        self._show_orders()

    def session_undo(self) -> None:
        self.session.undo()

    def session_redo(self) -> None:
        self.session.redo()

    # ------------------------------------------------------------ what the engine said
    def _refused(self, rule: str, message: str) -> None:
        self.last_refusal = f"{rule}: {message}" if rule else message
        self.statusBar().showMessage(f"Refused — {self.last_refusal}", STATUS_MS)
        self.menus.rule_link.show_rule(rule)

    def _happened(self, events: list) -> None:
        self.enemy_seen = enemy_lines(events)
        for at in enemy_places(events, self.session.state):
            self.view.flash(at)
        if self.enemy_seen:
            self.statusBar().showMessage("Enemy: " + "; ".join(self.enemy_seen), STATUS_MS)
        else:
            self.statusBar().clearMessage()

    def _changed(self) -> None:
        s = self.session
        self.menus.rule_link.show_rule("")        # an earlier refusal no longer applies
        self.view.show_state()
        self._show_turn()
        self.undo_act.setEnabled(s.game.can_undo())
        self.redo_act.setEnabled(s.game.can_redo())
        self.end_act.setEnabled(any(a.verb == "end" for a in s.legal_orders()))
        self.log_list.clear()
        self.log_list.addItems(s.log_lines())
        self.log_list.scrollToBottom()
        self._show_orders()
        if self.autosave is not None:
            try:
                s.save(self.autosave)
            except OSError as e:
                self.statusBar().showMessage(f"Cannot autosave to {self.autosave}: {e}", STATUS_MS)

    def _show_orders(self) -> None:
        s = self.session
        team = self.selected if self.selected in s.state["teams"] else None
        if s.state["pending"] or s.state["phase"] == "setup":
            team = None
        orders = s.orders_for(team)
        if team is not None:
            t = s.state["teams"][team]
            allowed = s.allowance(team)
            move = f"drag it up to {allowed:g} inches" if allowed > 0 else "it cannot move now"
            heading = f"{team} {t['name']}: {t['figures']} figures, Bravado {t['bravado']}; {move}"
        else:
            heading = "Orders open now (click a team for its own; drag a team to move it)"
        self.orders.show_orders(heading, orders)

    def _save_as(self) -> None:
        self.menus.save_as()

    def _offscreen(self) -> bool:
        """No one to answer a question (tests, screenshots)."""
        from PySide6.QtGui import QGuiApplication

        return QGuiApplication.platformName() in ("offscreen", "minimal")

    def resumed_from_autosave(self) -> None:
        """The game came from the autosave: Save asks where (it never writes the autosave), and no file of the
        user's holds its orders."""
        self.saved_path = None
        self.session.forget_saved()

    def keep_game_in_progress(self) -> bool:
        """Unsaved orders of the game in progress are saved or given up only when the user says so."""
        return self.menus.keep_game_in_progress(self.session.rules.scenario.name, self.session)

    def closeEvent(self, event) -> None:
        """A normal close (unsaved orders saved or given up as the user says): the autosave is not needed to
        resume; the window's layout is remembered."""
        from gui.common.settings import save_layout

        if not self.keep_game_in_progress():
            event.ignore()
            return
        save_layout(self)
        self._stop_computer()
        self.menus.close_help()
        if self.autosave is not None:
            try:
                self.autosave.unlink()
            except OSError:
                pass
        super().closeEvent(event)


def run_table_window(app, path: Path, screenshot: str | None = None, autosave: Path | None = None) -> int:
    """``sandtable FILE`` for a gridless skirmish: the table window (or its screenshot)."""
    from gui.common.userfolders import data_root

    win = TableWindow.open(path, autosave, recent=None if screenshot else data_root() / "recent.toml")
    if win is None:
        print(TableWindow.last_error, file=sys.stderr)
        return 1
    if screenshot:
        win.resize(1280, 860)
    else:
        win.remember_layout()
    win.show()
    app.processEvents()
    win.view.fit()
    if screenshot:
        app.processEvents()
        ok = win.grab().save(screenshot)
        v = win.session.view()                 # what the picture shows, for the packaging checks
        print(f"{Path(path).name}: {len(v['teams'])} teams, {len(v['cards'])} cards on the table")
        win.close()
        return 0 if ok else 1
    return app.exec()
