"""The set-up page: deployment groups and their areas (shown on the map), placing units, reinforcements."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLineEdit, QListWidget, QPlainTextEdit, QPushButton, QSpinBox,
    QVBoxLayout, QWidget,
)

from engine.scenario import edit as E
from engine.scenario import Deployment, Reinforcement

AREA_COLOURS = ("#e0a020", "#2a9d8f", "#c0392b", "#6c5ce7", "#27ae60", "#d35400")


class SetupPage(QWidget):
    """Deployment groups with area expressions, "within N of HEX" and unions, and the reinforcement schedule."""

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.groups = QListWidget()
        self.groups.currentTextChanged.connect(self._group_chosen)
        box = QGroupBox("Set-up group")
        form = QFormLayout(box)
        self.g_id = QLineEdit()
        self.g_side = QComboBox()
        self.g_order = QSpinBox(minimum=1, maximum=20)
        self.g_area = QLineEdit()
        self.g_area.setPlaceholderText("like: within 2 of 0707, staraya_russa or 0512, west of start_line")
        self.w_n = QSpinBox(minimum=0, maximum=30, value=2)
        self.w_hex = QLineEdit()
        self.w_hex.setPlaceholderText("hex id")
        within = QHBoxLayout()
        within.addWidget(self.w_n)
        within.addWidget(self.w_hex)
        within.addWidget(QPushButton("within N of hex", clicked=lambda: self.use_within()))
        within.addWidget(QPushButton("or within N of hex", clicked=lambda: self.use_within(union=True)))
        for label, w in (("id", self.g_id), ("side", self.g_side), ("order", self.g_order), ("area", self.g_area)):
            form.addRow(label, w)
        form.addRow("build", within)
        row = QHBoxLayout()
        row.addWidget(QPushButton("Save group", clicked=self.save_group))
        row.addWidget(QPushButton("Show area", clicked=self.show_area))
        row.addWidget(QPushButton("Selected units join", clicked=self.join_group))
        row.addWidget(QPushButton("Set up by areas", clicked=self.auto_place))
        form.addRow(row)

        rbox = QGroupBox("Reinforcements")
        rform = QFormLayout(rbox)
        self.r_turn = QSpinBox(minimum=1, maximum=999)
        self.r_side = QComboBox()
        self.r_entry = QLineEdit("edge east")
        self.r_list = QListWidget()
        # a variable reinforcement: an id, the event that releases it, the table it rolls on
        self.r_id = QLineEdit()
        self.r_id.setPlaceholderText("id (needed for a variable reinforcement)")
        self.r_release = QLineEdit()
        self.r_release.setPlaceholderText("released by: turn 3 | soviet enters within 4 of 0707 | entered g-r2 g-r3")
        self.r_dice = QComboBox()
        self.r_dice.addItems(["no roll", "1d6", "2d6", "d66"])
        self.r_table = QPlainTextEdit()
        self.r_table.setPlaceholderText("a row a line: 5-6: g-r2 g-r3 | 3-4: 1 (the next unit) | +1 from turn 3")
        self.r_table.setMaximumHeight(70)
        self.r_rule = QLineEdit()
        self.r_rule.setPlaceholderText("rule, like Black Wednesday 3.5")
        rform.addRow("turn", self.r_turn)
        rform.addRow("side", self.r_side)
        rform.addRow("entry area", self.r_entry)
        rform.addRow("id", self.r_id)
        rform.addRow("release", self.r_release)
        rform.addRow("roll", self.r_dice)
        rform.addRow("table", self.r_table)
        rform.addRow("rule", self.r_rule)
        rform.addRow(QPushButton("Selected units arrive", clicked=self.add_reinforcement))
        rform.addRow(self.r_list)
        lay = QVBoxLayout(self)
        lay.addWidget(self.groups)
        lay.addWidget(box)
        lay.addWidget(rbox)

    def refresh(self) -> None:
        s = self.window.scenario
        current = self.groups.currentItem().text() if self.groups.currentItem() else ""
        self.groups.blockSignals(True)
        self.groups.clear()
        self.groups.addItems([d.id for d in s.deployments])
        self.groups.blockSignals(False)
        for combo in (self.g_side, self.r_side):
            keep = combo.currentText()
            combo.clear()
            combo.addItems(list(s.sides))
            if keep in s.sides:
                combo.setCurrentText(keep)
        self.r_turn.setRange(s.first_turn, s.last_turn)
        self.r_list.clear()
        for r in s.reinforcements:
            extra = ""
            if r.release is not None:
                extra += f", released: {r.release.describe()}"
            if r.roll is not None:
                extra += f", rolls {r.roll.dice} ({len(r.roll.results)} rows)"
            name = f"{r.id} " if r.id else ""
            self.r_list.addItem(f"{name}turn {r.turn}, {r.side}: {', '.join(r.units)} at {r.entry}{extra}")
        items = self.groups.findItems(current, Qt.MatchExactly) if current else []
        if items:
            self.groups.setCurrentItem(items[0])

    def _group_chosen(self, dep_id: str) -> None:
        s = self.window.scenario
        d = next((d for d in s.deployments if d.id == dep_id), None)
        if d is None:
            return
        self.g_id.setText(d.id)
        self.g_side.setCurrentText(d.side)
        self.g_order.setValue(d.order)
        self.g_area.setText(d.area)
        self.show_area()

    def use_within(self, union: bool = False) -> None:
        expr = E.within(self.w_n.value(), self.w_hex.text().strip())
        self.g_area.setText(E.union(self.g_area.text().strip(), expr) if union else expr)
        self.show_area()

    def show_area(self) -> None:
        """Show the group's area on the map (every group keeps its own colour)."""
        if self.window.board is None:
            return
        text = self.g_area.text().strip()
        if not text:
            return
        hexes = self.window.area_hexes(text)
        if hexes is None:
            return
        ids = [d.id for d in self.window.scenario.deployments if d.area]
        name = self.g_id.text().strip() or "new group"
        colour = AREA_COLOURS[(ids.index(name) if name in ids else len(ids)) % len(AREA_COLOURS)]
        self.window.areas.show(f"setup:{name}", hexes, colour)
        self.window.say(f"{name}: {len(hexes)} hexes")

    def save_group(self) -> None:
        gid = self.g_id.text().strip()
        if not gid or self.window.scenario is None:
            self.window.say("A set-up group needs an id and a scenario")
            return
        old = next((d for d in self.window.scenario.deployments if d.id == gid), None)
        dep = Deployment(gid, self.g_side.currentText(), self.g_order.value(), self.g_area.text().strip(),
                         old.units if old else (), old.rule if old else "", old.text if old else "")
        self.window.edit(lambda s: E.set_deployment(s, dep), f"set-up group {gid}")
        self.show_area()

    def join_group(self) -> None:
        gid = self.g_id.text().strip()
        ids = self.window.oob.selected_ids()
        self.window.edit(lambda s: E.assign_deployment(s, ids, gid), f"{len(ids)} unit(s) set up with {gid}")

    def auto_place(self) -> None:
        """Every unplaced unit to a free hex of its areas; the player moves them after."""
        self.window.edit(lambda s: E.auto_place(s, self.window.board), "units set up in their areas")

    def add_reinforcement(self) -> None:
        ids = self.window.oob.selected_ids()
        if not ids:
            self.window.say("Select the units that arrive")
            return
        try:
            release = E.parse_release(self.r_release.text())
            dice = self.r_dice.currentText()
            roll = E.parse_roll(dice, self.r_table.toPlainText()) if dice != "no roll" else None
        except ValueError as e:
            self.window.say(str(e))
            return
        r = Reinforcement(self.r_turn.value(), self.r_side.currentText(), tuple(ids), self.r_entry.text().strip(),
                          rule=self.r_rule.text().strip(), id=self.r_id.text().strip(), release=release, roll=roll)
        what = f"{', '.join(ids)} arrive on turn {r.turn}" if not r.variable else f"{', '.join(ids)}: {r.id}"
        self.window.edit(lambda s: E.add_reinforcement(s, r), what)
