"""The TCS clock dock: turn and clock, weather and visibility, the sequence of play with the step now, and the legal
actions no other panel shows.  No rule lives here.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QPushButton)

from .base import TcsDock


class ClockDock(TcsDock):
    """Turn and clock, day/twilight/night, weather and visibility, the sequence of play with the step now (as
    the engine names its steps), and the legal actions no other panel shows.  The step ends with the window's
    one Next button."""

    act = Signal(str)

    def __init__(self, parent=None):
        super().__init__("TCS clock", "tcsclock", parent)
        lay = self.column
        self.clock = QLabel()
        f = QFont()
        f.setPointSize(f.pointSize() + 5)
        f.setBold(True)
        self.clock.setFont(f)
        self.turn = QLabel()
        self.weather = QLabel()
        self.acting = QLabel()
        self.acting.setWordWrap(True)
        for w in (self.clock, self.turn, self.weather, self.acting):
            lay.addWidget(w)
        self.sequence = QListWidget()
        self.sequence.setSelectionMode(QAbstractItemView.NoSelection)
        self.sequence.setToolTip("The turn's sequence of play; the marked step is where the game is")
        lay.addWidget(self.sequence, 1)
        row = QHBoxLayout()
        self.others = QComboBox()
        self.others.setToolTip("Every other legal action now, in words (a counter's own actions are on its right-click "
                               "menu too: mode changes, fire, assaults)")
        self.others.setMinimumContentsLength(18)
        self.play_other = QPushButton("Play")
        self.play_other.clicked.connect(lambda: self.others.currentData() and self.act.emit(self.others.currentData()))
        row.addWidget(self.others, 1)
        row.addWidget(self.play_other)
        lay.addLayout(row)
        self.show_column()
        self.current_row = -1

    def show_game(self, session, legal: list[str], shown_elsewhere) -> None:
        rules, st = session.rules, session.state
        info = rules.turn_info(st)
        sides = rules.scenario.sides
        self.clock.setText(info["clock"])
        self.turn.setText(f"Turn {info['turn']} of {info['turns']} · {info['kind']} turn"
                          + (" · full hour" if info["full_hour"] else ""))
        vis = info["visibility"]
        self.weather.setText(f"Weather: {info['weather']} · visibility "
                             + (f"{vis} hexes" if vis is not None else "not known yet (asked when play needs it)"))
        acting = rules.acting_side(st)
        name = getattr(sides.get(acting), "name", acting) if acting else "the engine"
        self.acting.setText(f"<b>{escape(name)}</b> to act — "
                            f"{escape(rules.step_title(info['phase'], info['step'], info['side']))}"
                            + (" — a question is waiting" if st.pending else ""))
        self.sequence.clear()
        self.current_row = -1
        if not st.over:
            for k, side in enumerate(getattr(st, "setup", [])):     # the set-up phase before turn 1
                item = QListWidgetItem(("▶ " if k == 0 else "   ") + rules.step_title("setup", "setup", side))
                if k == 0:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                    item.setBackground(Qt.yellow)
                    self.current_row = 0
                self.sequence.addItem(item)
            for i, (phase, step, who) in enumerate(rules.sequence(min(st.turn, len(rules.turns) - 1))):
                here = i == st.step and not getattr(st, "setup", None)
                item = QListWidgetItem(("▶ " if here else "   ") + rules.step_title(phase, step, who))
                if here:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                    item.setBackground(Qt.yellow)
                    self.current_row = i
                self.sequence.addItem(item)
            if self.current_row >= 0:
                self.sequence.scrollToItem(self.sequence.item(self.current_row))
        others = [t for t in legal if t != "end" and not shown_elsewhere(t)]
        self.others.clear()
        from engine.rulesets.tcs.explain import action_label
        for t in others:               # each in words; its action text is the item's data (and its tooltip)
            self.others.addItem(action_label(rules, st, rules.parse_action(t)), t)
            self.others.setItemData(self.others.count() - 1, t, Qt.ToolTipRole)
        self.others.setEnabled(bool(others))
        self.play_other.setEnabled(bool(others))

    def marked_step(self) -> str:
        item = self.sequence.item(self.current_row) if self.current_row >= 0 else None
        return item.text().strip("▶ ") if item is not None else ""
