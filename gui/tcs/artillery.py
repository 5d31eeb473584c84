"""The Artillery dock: batteries, ammunition pools, a fire mission with its target picked on the map, the missions
placed and the markers on the map.  No rule lives here.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QTreeWidget, QTreeWidgetItem)

from .base import TcsDock


class ArtilleryDock(TcsDock):
    """Batteries, ammunition pools, a mission (battery, target picked on the map, spotter, he/smoke/illum,
    continuous), missions placed and the markers on the map with "Lift"."""

    act = Signal(str)
    picking = Signal(bool)          # the next map click is the mission's target

    def __init__(self, parent=None):
        super().__init__("Artillery", "tcsartillery", parent)
        lay = self.column
        self.side_label = QLabel()
        lay.addWidget(self.side_label)
        self.batteries = QTreeWidget()
        self.batteries.setHeaderLabels(("Battery", "Calibre", "Fires as", "Status"))
        self.batteries.setRootIsDecorated(False)
        self.batteries.setMinimumHeight(130)            # a dozen on-map mortars besides the artillery
        lay.addWidget(self.batteries, 2)
        self.ammo = QTreeWidget()
        self.ammo.setHeaderLabels(("Calibre", "HE", "Smoke", "Illum"))
        self.ammo.setRootIsDecorated(False)
        self.ammo.setToolTip("Rounds left in the side's ammunition pools (missions take one each)")
        self.ammo.setMinimumHeight(90)
        lay.addWidget(self.ammo, 1)
        box = QGroupBox("Fire mission")
        form = QFormLayout(box)
        self.battery = QComboBox()
        self.battery.currentIndexChanged.connect(lambda _i: self._fill_spotters())
        form.addRow("Battery", self.battery)
        target = QHBoxLayout()
        self.target_label = QLabel("—")
        self.pick_target = QPushButton("Pick on map", checkable=True)
        self.pick_target.setToolTip("Click the target hex on the map")
        self.pick_target.toggled.connect(self.picking.emit)
        target.addWidget(self.target_label, 1)
        target.addWidget(self.pick_target)
        form.addRow("Target", target)
        self.spotter = QComboBox()
        form.addRow("Spotter", self.spotter)
        self.ammo_kind = QComboBox()
        for k, label in (("he", "HE"), ("smoke", "Smoke"), ("illum", "Illumination")):
            self.ammo_kind.addItem(label, k)
        self.ammo_kind.currentIndexChanged.connect(lambda _i: self._check())
        self.spotter.currentIndexChanged.connect(lambda _i: self._check())
        form.addRow("Rounds", self.ammo_kind)
        self.continuous = QCheckBox("Continuous fire")
        self.continuous.toggled.connect(lambda _on: self._check())
        form.addRow(self.continuous)
        self.place = QPushButton("Place mission")
        self.place.clicked.connect(self._place)
        form.addRow(self.place)
        self.why = QLabel()
        self.why.setWordWrap(True)
        form.addRow(self.why)
        lay.addWidget(box)
        lay.addWidget(QLabel("Missions placed and markers on the map:"))
        self.markers = QListWidget()
        lay.addWidget(self.markers, 1)
        self.lift = QPushButton("Lift the selected barrage")
        self.lift.clicked.connect(self._lift)
        lay.addWidget(self.lift)
        self.markers.currentItemChanged.connect(lambda *_: self._enable_lift())
        self.show_column(scrolled=True)
        self.session = None
        self.legal: list[str] = []
        self.target = None
        self.side = ""

    def show_game(self, session, legal: list[str]) -> None:
        self.session, self.legal = session, legal
        rules, st = session.rules, session.state
        phase, step, who = rules.current(st)
        self.side = who if who in rules.side_ids else rules.acting_side(st) or rules.side_ids[0]
        if step != "missions" and self.target is not None:
            self.placed()                   # a target picked for a step that has passed
        name = rules.scenario.sides[self.side].name
        self.side_label.setText(f"<b>{name}</b>'s artillery" + ("" if step == "missions" else
                                                                 " (missions are placed in the missions step)"))
        continuous = {m.battery for m in st.markers if m.continuous}
        self.batteries.clear()
        for b in rules.scenario.batteries:
            if b.side != self.side:
                continue
            why = rules.battery_problem(st, b.id, self.side)
            status = "fired this phase" if b.id in st.batteries_used else \
                "continuous fire" if b.id in continuous else why or "ready"
            mode = "on-map" if b.unit == b.id else f"{b.fires_as} ({b.unit})" if b.unit else b.fires_as
            item = QTreeWidgetItem([b.id, b.calibre, mode, status])
            item.setToolTip(3, status)
            self.batteries.addTopLevelItem(item)
        self.ammo.clear()
        pools: dict[str, dict[str, int]] = {}
        for (calibre, kind), n in rules.ammunition(st, self.side).items():
            pools.setdefault(calibre, {})[kind] = n
        for calibre, kinds in sorted(pools.items()):
            counts = [str(kinds.get(k, 0)) for k in ("he", "smoke", "illum")]
            self.ammo.addTopLevelItem(QTreeWidgetItem([calibre] + counts))
        uncounted = sorted({b.calibre for b in rules.scenario.batteries
                            if b.side == self.side and rules.pool_key(b, "he") is None})
        for calibre in uncounted:                       # on-map mortars with no pool in the scenario
            item = QTreeWidgetItem([calibre, "not counted", "", ""])
            item.setToolTip(1, "On-map mortars whose calibre has no pool in the scenario: their rounds are not counted")
            self.ammo.addTopLevelItem(item)
        keep = self.battery.currentData()
        self.battery.blockSignals(True)
        self.battery.clear()
        for b in rules.scenario.batteries:
            if b.side == self.side:
                self.battery.addItem(f"{b.id} ({b.calibre})", b.id)
        if keep is not None and self.battery.findData(keep) >= 0:
            self.battery.setCurrentIndex(self.battery.findData(keep))
        self.battery.blockSignals(False)
        self._fill_spotters()
        self.markers.clear()
        hid = session.board.hex_id
        for m in st.missions:
            item = QListWidgetItem(f"mission: {m.battery} {m.ammo} on {hid(m.hex)} spotted by {m.spotter}"
                                   + (" (continuous)" if m.continuous else ""))
            self.markers.addItem(item)
        for m in st.markers:
            item = QListWidgetItem(f"{m.id}: {m.kind} on {hid(m.hex)}" + (f" by {m.battery}" if m.battery else "")
                                   + (" (continuous)" if m.continuous else "") + f" — {m.side}")
            item.setData(Qt.UserRole, m.id)
            self.markers.addItem(item)
        self.place.setEnabled(step == "missions" and self.target is not None)
        self._enable_lift()

    def _fill_spotters(self) -> None:
        if self.session is None:
            return
        rules, st = self.session.rules, self.session.state
        bat = rules.batteries.get(self.battery.currentData())
        keep = self.spotter.currentData()
        self.spotter.clear()
        # those who see the target, nearest first; when none does, every possible spotter (the check says why)
        ids = (rules.battery_spotters(st, bat.id, self.side, self.target)
               or rules.battery_spotters(st, bat.id, self.side)) if bat else []
        for uid in ids:
            self.spotter.addItem(f"{uid} ({rules.specs[uid].type})", uid)
        if keep is not None and self.spotter.findData(keep) >= 0:
            self.spotter.setCurrentIndex(self.spotter.findData(keep))

    def hex_picked(self, h) -> None:
        self.target = h
        self.target_label.setText(self.session.board.hex_id(h))
        self._fill_spotters()                   # those who see the target, nearest first
        self.pick_target.setChecked(False)
        step = self.session.rules.current(self.session.state)[1]
        self.place.setEnabled(step == "missions")
        self._check()

    def _check(self) -> None:
        """Say whether the mission the form describes would be accepted now, and if not, why (the engine's rule)."""
        if self.session is None or self.target is None or not self.battery.currentData() \
                or not self.spotter.currentData():
            self.why.clear()
            return
        why = self.session.check(self.mission_text())
        self.why.setText(f"Refused now — {why}" if why else "Legal now")

    def mission_text(self) -> str:
        return (f"mission {self.battery.currentData()} {self.session.board.hex_id(self.target)} by "
                f"{self.spotter.currentData()} {self.ammo_kind.currentData()}"
                + (" continuous" if self.continuous.isChecked() else ""))

    def _place(self) -> None:
        if self.target is not None and self.battery.currentData() and self.spotter.currentData():
            self.act.emit(self.mission_text())

    def placed(self) -> None:
        self.target = None
        self.target_label.setText("—")
        self.why.clear()

    def _enable_lift(self) -> None:
        item = self.markers.currentItem()
        mid = item.data(Qt.UserRole) if item is not None else None
        self.lift.setEnabled(bool(mid) and f"lift {mid}" in self.legal)

    def _lift(self) -> None:
        item = self.markers.currentItem()
        if item is not None and item.data(Qt.UserRole):
            self.act.emit(f"lift {item.data(Qt.UserRole)}")
