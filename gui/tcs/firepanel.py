"""The fire panel: a TCS fire before its roll, as the engine works it out (range, line of sight, fire value, column,
each shift with its rule), with Fire and Cancel.

Every figure is the engine's (``engine.rulesets.tcs.explain.fire_preview``);
the panel only chooses what to ask about (the kind of fire, the units firing
together) and shows the answer.  Fire plays the action the preview names; Cancel
changes nothing.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QRadioButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout)

KIND_WORDS = {"area": "Area fire", "sfa": "Suppressive fire (SFA)", "point": "Point fire at"}


class FirePanel(QDialog):
    """One fire being prepared: who fires, how, at what; the engine's working; Fire or Cancel."""

    fire = Signal(str)                 # the action's text, once the player presses Fire

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("tcsfirepanel")
        self.setWindowTitle("Fire")
        self.setModal(False)
        self.rules = self.state = None
        self.firer = ""
        self.hex = ""
        self.preview = None
        self.assault = ""                 # the assault (or overrun) the unit may make on this hex instead, if any
        lay = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        lay.addWidget(self.title)
        self.kind_row = QVBoxLayout()
        lay.addLayout(self.kind_row)
        self.kinds = QButtonGroup(self)
        self.kinds.buttonClicked.connect(lambda _b: self._work())
        self.working = QTreeWidget()
        self.working.setHeaderLabels(["Working", "Rule"])
        self.working.setRootIsDecorated(False)
        self.working.setColumnWidth(0, 480)
        self.working.setMinimumSize(600, 190)
        lay.addWidget(self.working, 1)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.PlainText)
        lay.addWidget(self.verdict)
        self.with_label = QLabel("Units that fire (the unit picked, and others that may fire at this hex now: "
                                 "tick those that fire together):")
        lay.addWidget(self.with_label)
        self.together = QListWidget()             # a checkable row a unit
        self.together.setMaximumHeight(96)
        self.together.itemChanged.connect(lambda _item: self._work())
        lay.addWidget(self.together)
        row = QHBoxLayout()
        self.assault_btn = QPushButton("Assault instead")        # a Move-mode unit next to the enemy (TCS 15.0)
        self.assault_btn.setToolTip("The unit may assault this hex now: it moves into it and both sides fire")
        self.assault_btn.clicked.connect(self._assault)
        row.addWidget(self.assault_btn)
        row.addStretch(1)
        self.fire_btn = QPushButton("Fire")
        self.cancel_btn = QPushButton("Cancel")
        row.addWidget(self.fire_btn)
        row.addWidget(self.cancel_btn)
        lay.addLayout(row)
        self.fire_btn.clicked.connect(self._fire)
        self.cancel_btn.clicked.connect(self.reject)
        self.resize(620, 440)

    # ------------------------------------------------------------ what is asked
    def prepare(self, rules, state, firer: str, hex_id: str, kind: str = "", target_unit: str = "") -> None:
        """Prepare ``firer``'s fire at the enemy in ``hex_id``: the kinds the target allows (area, SFA, point fire at
        each enemy unit there), the other units that may fire at it too, and the working of the first kind."""
        from engine.rulesets.tcs.explain import fire_preview

        self.rules, self.state, self.firer, self.hex = rules, state, firer, hex_id
        h = rules.hex(hex_id)
        side = rules.specs[firer].side
        enemies = [k for k in rules.units_at(state, h) if rules.specs[k].side != side]
        for b in list(self.kinds.buttons()):
            self.kinds.removeButton(b)
            b.deleteLater()
        options = [("area", hex_id), ("sfa", hex_id)] + [("point", k) for k in enemies]
        chosen = None
        for i, (k, target) in enumerate(options):
            label = f"{KIND_WORDS[k]} {target}" if k == "point" else KIND_WORDS[k]
            pv = fire_preview(rules, state, (firer,), target, k)
            b = QRadioButton(label + ("" if pv.legal else f"  (refused: {pv.refusal})"))
            b.setProperty("kind", k)
            b.setProperty("label", label)
            b.setProperty("target", target)
            self.kinds.addButton(b, i)
            self.kind_row.addWidget(b)
            if chosen is None and ((kind and k == kind and (k != "point" or target == target_unit))
                                   or (not kind and pv.legal)):
                chosen = b
        (chosen or self.kinds.buttons()[0]).setChecked(True)
        self.together.blockSignals(True)
        self.together.clear()
        legal = {a.text() for a in rules.legal_actions(state)}
        others = [uid for uid in rules.order
                  if uid != firer and rules.specs[uid].side == side and f"fire {uid} at {hex_id}" in legal]
        # the unit dragged is the list's first row: ticked, or unticked with its reason when it may not fire at the
        # hex and others may, so that Fire fires with the others (the player may tick or untick any row)
        own = fire_preview(rules, state, (firer,), hex_id, "area")
        refused = not own.legal and bool(others)
        for uid in [firer, *others]:
            text = f"{uid} ({rules.specs[uid].type})"
            if uid == firer:
                text += f" — the unit picked; refused: {own.refusal}" if refused else " — the unit picked"
            item = QListWidgetItem(text)
            item.setData(Qt.UserRole, uid)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked if uid != firer or refused else Qt.Checked)
            self.together.addItem(item)
        self.together.blockSignals(False)
        self.with_label.setVisible(bool(others))
        self.together.setVisible(bool(others))
        self.assault = next((t for t in (f"assault {firer} {hex_id}", f"overrun {firer} {hex_id}") if t in legal), "")
        self.assault_btn.setVisible(bool(self.assault))
        self._work()

    def kind(self) -> tuple[str, str]:
        b = self.kinds.checkedButton()
        return (b.property("kind"), b.property("target")) if b is not None else ("area", self.hex)

    def firers(self) -> tuple[str, ...]:
        """The units that fire: the unit dragged alone for point fire (TCS 9.0), else the rows ticked (the unit
        dragged first when ticked); the unit dragged when no other unit may fire at the hex."""
        kind, _target = self.kind()
        if kind == "point" or self.together.count() <= 1:
            return (self.firer,)
        items = [self.together.item(i) for i in range(self.together.count())]
        return tuple(it.data(Qt.UserRole) for it in items if it.checkState() == Qt.Checked)

    def joined(self) -> list[str]:
        """The other units ticked to fire together with the unit dragged."""
        return [u for u in self.firers() if u != self.firer]

    def join(self, uid: str, on: bool = True) -> None:
        """Tick (or untick) another unit to fire together, as a click on its box does."""
        for i in range(self.together.count()):
            it = self.together.item(i)
            if it.data(Qt.UserRole) == uid:
                it.setCheckState(Qt.Checked if on else Qt.Unchecked)
                return
        raise KeyError(uid)

    def choose(self, kind: str, target: str = "") -> None:
        """Pick the kind of fire (``point`` with its target unit), as a click on its button does."""
        for b in self.kinds.buttons():
            if b.property("kind") == kind and (not target or b.property("target") == target):
                b.setChecked(True)
                self._work()
                return
        raise KeyError(kind)

    # ------------------------------------------------------------ the engine's answer
    def _work(self) -> None:
        from engine.rulesets.tcs.explain import action_words, fire_preview

        if self.rules is None:
            return
        self.together.setEnabled(self.kind()[0] != "point")          # point fire is one unit's (TCS 9.0)
        kind, target = self.kind()
        firers = self.firers()
        pv = self.preview = fire_preview(self.rules, self.state, firers or (self.firer,), target, kind)
        if self.together.count() > 1:         # area fire and SFA said of the units ticked, not the one dragged
            for b in self.kinds.buttons():
                k = b.property("kind")
                if k != "point":
                    other = fire_preview(self.rules, self.state, firers or (self.firer,), b.property("target"), k)
                    b.setText(b.property("label") + ("" if other.legal else f"  (refused: {other.refusal})"))
        self.title.setText(action_words(pv)[0].upper() + action_words(pv)[1:])
        self.working.clear()
        for s in pv.lines:
            QTreeWidgetItem(self.working, [s.text, s.rule])
        if pv.results:
            known = ", ".join(f"{r}: {v}" for r, v in sorted(pv.results.items()))
            QTreeWidgetItem(self.working, [f"results this game has read for column {pv.columns[0]}: {known}", ""])
        elif pv.columns:
            QTreeWidgetItem(self.working, [f"the result for column {pv.columns[0]} and the roll is read from your "
                                           "chart, or asked once rolled", ""])
        if not firers and not pv.legal:
            self.verdict.setText(f"Refused — {pv.refusal}. Tick the other units below to fire without it.")
        elif not firers:
            self.verdict.setText("No unit is ticked to fire: tick the units that fire together below.")
        elif pv.legal:
            self.verdict.setText("Fire rolls the dice now." + (f" First asked: {pv.blank}" if pv.blank else ""))
        else:
            self.verdict.setText(f"Refused — {pv.refusal}")
        self.fire_btn.setEnabled(bool(firers) and pv.legal)

    def lines(self) -> list[str]:
        """The working shown, a line each (``text (rule)``)."""
        out = []
        for i in range(self.working.topLevelItemCount()):
            it = self.working.topLevelItem(i)
            out.append(f"{it.text(0)} ({it.text(1)})" if it.text(1) else it.text(0))
        return out

    def _assault(self) -> None:
        if self.assault:
            action = self.assault
            self.accept()
            self.fire.emit(action)

    def _fire(self) -> None:
        if self.preview is not None and self.preview.legal:
            action = self.preview.action
            self.accept()
            self.fire.emit(action)
