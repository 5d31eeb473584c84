"""The turn and phase bar and the log dock of a game in progress."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel, QListWidget, QToolBar, QVBoxLayout, QWidget

from gui.common.statusline import ElidedLabel


class PhaseBar(QToolBar):
    """"Next" (phase or step), undo and redo, then the turn, phase and active side.

    The buttons come first, so that they stay where they are whatever the text says (a click repeated on Next
    never misses); the text takes the rest of the bar, elided when it is longer (whole in its tooltip)."""

    def __init__(self, parent=None):
        super().__init__("Turn and phase", parent)
        self.setObjectName("phasebar")
        self.setMovable(False)
        self.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.next_act = QAction("Next phase", self, shortcut=QKeySequence("Ctrl+Return"))
        self.next_act.setToolTip("End this phase (Ctrl+Return); refused with the reason if something is owed")
        self.undo_act = QAction("Undo", self, shortcut=QKeySequence.Undo)
        self.undo_act.setToolTip("Take back the last action (Ctrl+Z)")
        self.redo_act = QAction("Redo", self, shortcut=QKeySequence("Ctrl+Shift+Z"))
        self.redo_act.setToolTip("Play again the action last taken back (Ctrl+Shift+Z)")
        self.addActions([self.next_act, self.undo_act, self.redo_act])
        self.next_button().setMinimumWidth(self._next_width())
        self.label = ElidedLabel("No game")
        self.label.setContentsMargins(10, 0, 6, 0)
        self._label_act = self.addWidget(self.label)

    def _next_width(self) -> int:
        fm = self.next_button().fontMetrics()
        return max(fm.horizontalAdvance(w) for w in self.NEXT_WORDS.values()) + 24

    NEXT_WORDS = {"phase": "Next phase", "step": "Next step", "set-up": "Finish set-up"}

    def next_button(self):
        return self.widgetForAction(self.next_act)

    def add_button(self, action: QAction) -> None:
        """Another button among the bar's buttons (before the text)."""
        self.insertAction(self._label_act, action)

    def set_next_words(self, unit: str) -> None:
        """"Next phase" or "Next step" (a game played step by step); the button keeps its width."""
        self.next_act.setText(self.NEXT_WORDS[unit])
        self.next_act.setToolTip(f"End this {unit} (Ctrl+Return); refused with the reason if something is owed"
                                 if unit != "set-up" else "End this side's set-up (Ctrl+Return); refused with what is "
                                 "still wrong in it")

    def set_text(self, text: str) -> None:
        """The turn and phase; it never moves the buttons."""
        self.label.setText(text)

    def show_state(self, text: str, can_undo: bool, can_redo: bool) -> None:
        self.set_text(text)
        self.undo_act.setEnabled(can_undo)
        self.redo_act.setEnabled(can_redo)


class LogDock(QDockWidget):
    """Every action of the game and what it caused, in words, with rule numbers as the engine gives them."""

    def __init__(self, parent=None):
        super().__init__("Log", parent)
        self.setObjectName("logdock")
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        self.seed_label = QLabel()          # the game's seed: with the scenario and the log it replays the game
        self.seed_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.seed_label.setToolTip("The same scenario, variants, seed and actions always give the same game "
                                   "(File > New game… can start one with this seed again)")
        self.seed_label.hide()
        self.list = QListWidget()
        self.list.setWordWrap(True)
        lay.addWidget(self.seed_label)
        lay.addWidget(self.list, 1)
        self.setWidget(box)
        self.setAllowedAreas(Qt.LeftDockWidgetArea | Qt.RightDockWidgetArea | Qt.BottomDockWidgetArea)

    def show_lines(self, lines: list[str]) -> None:
        self.list.clear()
        self.list.addItems(lines)
        self.list.scrollToBottom()
        # again once laid out (a saved game opened at start); tied to the list, so that a window closed before it
        # fires takes it with it (it fired on the deleted list in the next window: "QListWidget already deleted")
        QTimer.singleShot(0, self.list, self.list.scrollToBottom)
        self.list.setToolTip("Click an entry to see the board as it was then (read-only); "
                             "the last entry is the game now" if lines else "")

    def show_seed(self, seed: int | None) -> None:
        self.seed_label.setText(f"Seed {seed} for the dice" if seed is not None else "")
        self.seed_label.setVisible(seed is not None)

    def lines(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]
