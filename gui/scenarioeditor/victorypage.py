"""The victory page: conditions as data (occupy, exit, losses, points, count) and the panel showing a result."""
from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QSpinBox,
    QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from engine.scenario import edit as E
from engine.scenario import Victory
from engine.scenario.victory import CONDITION_KINDS, LEVELS, MEASURES, OCCUPY_MODES, Condition

VICTORY_COLOUR = "#1f6fd1"


class VictoryPage(QWidget):
    """Edits ``[victory]`` as a list of conditions; every change goes through the window's ``edit``."""

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._chosen)
        box = QGroupBox("Condition")
        form = QFormLayout(box)
        self.c_id = QLineEdit()
        self.c_kind = QComboBox()
        self.c_kind.addItems(CONDITION_KINDS)
        self.c_side = QComboBox()
        self.c_area = QLineEdit()
        self.c_count = QSpinBox(maximum=999)
        self.c_mode = QComboBox()
        self.c_mode.addItems(OCCUPY_MODES)
        self.c_level = QComboBox()
        self.c_level.addItems(["", *LEVELS])
        self.c_shift = QSpinBox(minimum=-3, maximum=3)
        self.c_measure = QComboBox()
        self.c_measure.addItems(MEASURES)
        self.c_at_least = QSpinBox(maximum=999, value=1)
        self.c_of = QLineEdit()
        self.c_of.setPlaceholderText("count: ids of the conditions counted, comma separated")
        self.c_text = QLineEdit()
        self.c_rule = QLineEdit()
        for label, w in (("id", self.c_id), ("kind", self.c_kind), ("side", self.c_side), ("area", self.c_area),
                         ("hexes needed (0: all)", self.c_count), ("occupy", self.c_mode), ("level", self.c_level),
                         ("shift", self.c_shift), ("losses in", self.c_measure), ("at least", self.c_at_least),
                         ("of conditions", self.c_of), ("text", self.c_text), ("rule", self.c_rule)):
            form.addRow(label, w)
        row = QHBoxLayout()
        row.addWidget(QPushButton("Save condition", clicked=self.save_condition))
        row.addWidget(QPushButton("Remove", clicked=self.remove_condition))
        row.addWidget(QPushButton("Show area", clicked=self.show_area))
        form.addRow(row)
        other = QHBoxLayout()
        self.otherwise = QComboBox()
        self.otherwise_level = QComboBox()
        self.otherwise_level.addItems(LEVELS)
        other.addWidget(QLabel("otherwise"))
        other.addWidget(self.otherwise)
        other.addWidget(self.otherwise_level)
        other.addWidget(QPushButton("Set", clicked=self.set_otherwise))
        lay = QVBoxLayout(self)
        lay.addWidget(self.list)
        lay.addWidget(box)
        lay.addLayout(other)

    def conditions(self) -> tuple[Condition, ...]:
        v = self.window.scenario.victory
        return v.conditions if v is not None and v.kind == "conditions" else ()

    def refresh(self) -> None:
        s = self.window.scenario
        self.list.blockSignals(True)
        self.list.clear()
        v = s.victory
        if v is not None and v.kind != "conditions":
            self.list.addItem(f"{v.kind} ({v.rule or 'the ruleset judges it'}): kept as written")
        for c in self.conditions():
            what = f"{c.count or 'all'} hexes of {c.area}" if c.kind == "occupy" else c.kind
            self.list.addItem(f"{c.id}: {c.side} {what}" + (f" -> {c.level}" if c.level else "")
                              + (f" shift {c.shift:+d}" if c.shift else ""))
        self.list.blockSignals(False)
        for combo, extra in ((self.c_side, []), (self.otherwise, [""])):
            keep = combo.currentText()
            combo.clear()
            combo.addItems(extra + list(s.sides))
            combo.setCurrentText(keep)
        if v is not None and v.kind == "conditions":
            self.otherwise.setCurrentText(v.otherwise)
            self.otherwise_level.setCurrentText(v.otherwise_level or "minor")

    def _chosen(self, row: int) -> None:
        cs = self.conditions()
        if not 0 <= row < len(cs):
            return
        c = cs[row]
        self.c_id.setText(c.id)
        self.c_kind.setCurrentText(c.kind)
        self.c_side.setCurrentText(c.side)
        self.c_area.setText(c.area)
        self.c_count.setValue(c.count)
        self.c_mode.setCurrentText(c.mode)
        self.c_level.setCurrentText(c.level)
        self.c_shift.setValue(c.shift)
        self.c_measure.setCurrentText(c.measure)
        self.c_at_least.setValue(c.at_least)
        self.c_of.setText(", ".join(c.conditions))
        self.c_text.setText(c.text)
        self.c_rule.setText(c.rule)

    def form_condition(self) -> Condition:
        return Condition(
            id=self.c_id.text().strip(), kind=self.c_kind.currentText(), side=self.c_side.currentText(),
            level=self.c_level.currentText(), shift=self.c_shift.value(), rule=self.c_rule.text().strip(),
            text=self.c_text.text().strip(), area=self.c_area.text().strip(), count=self.c_count.value(),
            mode=self.c_mode.currentText(), at_least=self.c_at_least.value(), measure=self.c_measure.currentText(),
            conditions=tuple(x.strip() for x in self.c_of.text().split(",") if x.strip()))

    def _victory(self, s) -> Victory:
        v = s.victory
        return v if v is not None and v.kind == "conditions" else Victory("conditions")

    def save_condition(self) -> None:
        c = self.form_condition()
        if not c.id:
            self.window.say("A condition needs an id")
            return
        if c.area and self.window.board is not None:     # an area that does not read is not kept (it was saved,
            try:                                        # and the scenario then failed to load back)
                E.area_hexes(self.window.board, c.area)
            except ValueError as e:
                self.window.say(f"Victory condition {c.id} not saved: {e}")
                return

        def do(s):
            v = self._victory(s)
            cs = [x for x in v.conditions if x.id != c.id]
            at = next((i for i, x in enumerate(v.conditions) if x.id == c.id), len(cs))
            cs.insert(at, c)
            return E.set_victory(s, dataclasses.replace(v, conditions=tuple(cs)))

        self.window.edit(do, f"victory condition {c.id}")
        self.show_area()

    def remove_condition(self) -> None:
        cid = self.c_id.text().strip()

        def do(s):
            v = self._victory(s)
            cs = tuple(x for x in v.conditions if x.id != cid)
            return E.set_victory(s, dataclasses.replace(v, conditions=cs) if cs else None)

        self.window.edit(do, f"removed {cid}")

    def set_otherwise(self) -> None:
        side, level = self.otherwise.currentText(), self.otherwise_level.currentText()
        self.window.edit(lambda s: E.set_victory(s, dataclasses.replace(
            self._victory(s), otherwise=side, otherwise_level=level if side else "")), "otherwise")

    def show_area(self) -> None:
        if self.window.board is None:
            return
        text = self.c_area.text().strip()
        if not text:
            return
        hexes = self.window.area_hexes(text)
        if hexes is None:
            return
        self.window.areas.show(f"victory:{self.c_id.text().strip()}", hexes, VICTORY_COLOUR)


class VictoryPanel(QWidget):
    """The result of a game: the winner and level, and every condition with whether it was met and why."""

    def __init__(self):
        super().__init__()
        self.headline = QLabel("No game played yet")
        self.headline.setWordWrap(True)
        self.detail = QTreeWidget()
        self.detail.setHeaderLabels(["condition", "met", "detail"])
        self.detail.setRootIsDecorated(False)
        lay = QVBoxLayout(self)
        lay.addWidget(self.headline)
        lay.addWidget(self.detail, 1)
        self.result: dict = {}

    def show_result(self, report: dict) -> None:
        """Show a game's result (the play command's JSON report, or an Outcome's fields)."""
        self.result = dict(report)
        winner = report.get("winner") or "nobody (a draw)"
        self.headline.setText(f"Winner: {winner} — {report.get('reason', '')}")
        self.detail.clear()
        breakdown = report.get("breakdown") or {}
        for cid, c in (breakdown.get("conditions") or {}).items():
            QTreeWidgetItem(self.detail, [cid, "yes" if c.get("met") else "no", c.get("detail", "")])
        for k, v in breakdown.items():
            if k != "conditions" and not isinstance(v, dict):
                QTreeWidgetItem(self.detail, [k, "", str(v)])
        self.detail.resizeColumnToContents(0)

    def headline_text(self) -> str:
        return self.headline.text()
