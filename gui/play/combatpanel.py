"""The battle panel: a battle being prepared with the ruleset's own arithmetic, declared battles, results and choices.

Every number here is the engine's: the odds object's strengths and modifiers
(each with its rule), the combat table's results for each die face, the roll
and the result from the events of the action.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout,
                               QWidget)

BLANK = "blank cell: enter the result from the printed chart"


class CombatPanel(QDockWidget):
    """Prepare a battle (drag attackers onto the defender), declare it, resolve it, make the choices it leaves."""

    declare = Signal(str, list)        # defender id, attacker ids
    resolve = Signal(str)              # defender id
    choose = Signal(str)               # the text of a pending choice's action

    def __init__(self, parent=None):
        super().__init__("Battle", parent)
        self.setObjectName("combatpanel")
        self.defender: str | None = None
        self.attackers: list[str] = []
        w = QWidget()
        lay = QVBoxLayout(w)
        self.title = QLabel("Drag your units onto an enemy unit to prepare a battle.")
        self.title.setWordWrap(True)
        self.odds_label = QLabel("")
        self.odds_label.setWordWrap(True)
        self.odds_label.setTextFormat(Qt.PlainText)
        row = QHBoxLayout()
        self.declare_btn = QPushButton("Declare")
        self.clear_btn = QPushButton("Clear")
        row.addWidget(self.declare_btn)
        row.addWidget(self.clear_btn)
        self.battle_list = QListWidget()
        self.resolve_btn = QPushButton("Resolve the selected battle")
        self.result_label = QLabel("")
        self.result_label.setWordWrap(True)
        self.choice_list = QListWidget()
        self.choose_btn = QPushButton("Make this choice")
        for widget in (self.title, self.odds_label):
            lay.addWidget(widget)
        lay.addLayout(row)
        lay.addWidget(QLabel("Declared battles:"))
        lay.addWidget(self.battle_list)
        lay.addWidget(self.resolve_btn)
        lay.addWidget(self.result_label)
        lay.addWidget(QLabel("Choices the result leaves:"))
        lay.addWidget(self.choice_list)
        lay.addWidget(self.choose_btn)
        self.setWidget(w)
        self.declare_btn.clicked.connect(lambda: self.defender and self.declare.emit(self.defender, list(self.attackers)))
        self.clear_btn.clicked.connect(self.clear)
        self.resolve_btn.clicked.connect(self._resolve_selected)
        self.choose_btn.clicked.connect(self._choose_selected)
        self.choice_list.itemDoubleClicked.connect(lambda item: self.choose.emit(item.text()))
        self.clear()
        self.show_game([], [])                 # no battle and no choice until a game says so

    def clear(self) -> None:
        self.defender, self.attackers = None, []
        self.title.setText("Drag your units onto an enemy unit to prepare a battle.")
        self.odds_label.setText("")
        self.declare_btn.setEnabled(False)

    def add_attacker(self, defender: str, attacker: str) -> None:
        """Prepare a battle against ``defender`` (a new defender starts a new battle)."""
        if defender != self.defender:
            self.defender, self.attackers = defender, []
        if attacker not in self.attackers:
            self.attackers.append(attacker)

    def show_preparation(self, odds, chances: list[tuple[str, int]]) -> None:
        """The prepared battle as the ruleset computes it."""
        self.title.setText(f"{' + '.join(self.attackers)} against {self.defender}")
        self.declare_btn.setEnabled(bool(self.attackers))
        if odds is None:
            self.odds_label.setText("")
            return
        lines = [f"Attack {odds.attack} against defence {odds.defense_printed} x {odds.multiplier} = {odds.defense}",
                 f"Odds {odds.label}" + (f" (shift: {odds.shift})" if odds.shift else "")]
        lines += [f"  {m}" for m in odds.modifiers]
        if chances:
            lines.append("Before the roll:")
            lines += [f"  {r or BLANK}: {n}/6 ({n / 6:.0%})" for r, n in chances]
        self.odds_label.setText("\n".join(lines))

    def show_game(self, battles: list, choices: list[str], odds: dict | None = None) -> None:
        """Declared battles (with their odds column when given: defender id -> label) and the pending choices."""
        self.battle_list.clear()
        odds = odds or {}
        for b in battles:
            at = f" at {odds[b.defender]}" if b.defender in odds else ""
            self.battle_list.addItem(f"{b.defender} <- {' + '.join(b.attackers)}{at}"
                                     + ("  (resolved)" if b.resolved else ""))
        self.choice_list.clear()
        self.choice_list.addItems(choices)
        self.choose_btn.setEnabled(bool(choices))
        self.resolve_btn.setEnabled(any(not b.resolved for b in battles))
        self._battles = battles

    def show_result(self, lines: list[str]) -> None:
        self.result_label.setText("\n".join(lines))

    def _resolve_selected(self) -> None:
        row = self.battle_list.currentRow()
        open_ = [b for b in getattr(self, "_battles", []) if not b.resolved]
        b = self._battles[row] if 0 <= row < len(self._battles) else (open_[0] if open_ else None)
        if b is not None:
            self.resolve.emit(b.defender)

    def _choose_selected(self) -> None:
        item = self.choice_list.currentItem() or self.choice_list.item(0)
        if item is not None:
            self.choose.emit(item.text())
