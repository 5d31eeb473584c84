"""The Op Sheets dock: a side's sheets with the Command Phase's actions, its units (dragged onto a sheet), and a new
sheet drawn on the map.  No rule lives here.
"""
from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QDrag
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QListWidget, QListWidgetItem, QPushButton, QTreeWidget, QTreeWidgetItem)

from engine.errors import IllegalAction
from .base import TcsDock

UNIT_MIME = "application/x-sandtable-tcs-unit"


class UnitList(QListWidget):
    """A side's units on the map: checked ones go on a new sheet; any one may be dragged onto a sheet."""

    def __init__(self):
        super().__init__()
        self.setDragEnabled(True)
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)

    def startDrag(self, actions) -> None:
        item = self.currentItem()
        if item is None:
            return
        mime = QMimeData()
        mime.setData(UNIT_MIME, item.data(Qt.UserRole).encode("utf-8"))
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.exec(Qt.CopyAction)


class SheetTree(QTreeWidget):
    """The Op Sheets of a side; a unit dropped on a sheet is added to it (``assign``)."""

    assign = Signal(str, str)       # unit, sheet

    def __init__(self):
        super().__init__()
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)

    def dragEnterEvent(self, event):
        if event.mimeData().hasFormat(UNIT_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event):
        if event.mimeData().hasFormat(UNIT_MIME) and self.itemAt(event.position().toPoint()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event):
        item = self.itemAt(event.position().toPoint())
        if not event.mimeData().hasFormat(UNIT_MIME) or item is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.assign.emit(bytes(event.mimeData().data(UNIT_MIME)).decode("utf-8"), item.text(0))


class OpSheetsDock(TcsDock):
    """Every Op Sheet of a side (type, formation, units, implemented or not, weighted turns) with the
    Command Phase's actions on the selected one, and a new sheet drawn on the map."""

    act = Signal(str)
    drawing = Signal(str)           # "objective", "route" or "" (the map's clicks go to the sheet being drawn)
    selected = Signal(str)          # the sheet shown on the map ("" none)

    COLUMNS = ("Sheet", "Type", "Formation", "Units", "State", "Weighted turns")

    def __init__(self, parent=None):
        super().__init__("Op Sheets", "tcsopsheets", parent)
        lay = self.column
        top = QHBoxLayout()
        top.addWidget(QLabel("Side:"))
        self.side = QComboBox()
        self.side.currentIndexChanged.connect(lambda _i: self._refill())
        top.addWidget(self.side, 1)
        lay.addLayout(top)
        self.tree = SheetTree()
        self.tree.setHeaderLabels(self.COLUMNS)
        self.tree.setRootIsDecorated(False)
        self.tree.setToolTip("Select a sheet to see its objective and route on the map; "
                             "drop a unit from the list below on a sheet to add it")
        self.tree.currentItemChanged.connect(lambda *_: self._selection_changed())
        self.tree.assign.connect(lambda u, s: self.act.emit(f"assign {u} {s}"))
        self.tree.setMinimumHeight(90)
        self.tree.setMaximumHeight(170)
        lay.addWidget(self.tree, 2)
        buttons = QGridLayout()
        self.buttons = {}
        for i, (verb, label, tip) in enumerate((
                ("implement", "Implement", "Roll on the Command Prep Table for this sheet"),
                ("reserve", "Reserve check", "Roll the reserve sheet's release"),
                ("complete", "Complete", "The sheet is done: its units are unassigned"),
                ("cancel", "Cancel", "Cancel the sheet: its units are unassigned"))):
            b = QPushButton(label)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, v=verb: self._sheet_action(v))
            buttons.addWidget(b, i // 2, i % 2)
            self.buttons[verb] = b
        lay.addLayout(buttons)
        units_label = QLabel("Units (tick them for a new sheet, or drag one onto a sheet):")
        units_label.setWordWrap(True)            # wrapped, not widening the column past the dock
        lay.addWidget(units_label)
        self.units = UnitList()
        self.units.setMinimumHeight(80)
        self.units.setMaximumHeight(150)
        lay.addWidget(self.units, 2)
        self.assign_button = QPushButton("Add selected units to the selected sheet")
        self.assign_button.clicked.connect(self._assign_selected)
        lay.addWidget(self.assign_button)
        box = QGroupBox("New Op Sheet")
        form = QFormLayout(box)
        self.new_id = QLineEdit()
        self.new_type = QComboBox()
        self.new_formation = QComboBox()
        form.addRow("Id", self.new_id)
        form.addRow("Type", self.new_type)
        form.addRow("Formation", self.new_formation)
        draw = QGridLayout()                    # two by two: four in a row made the column wider than the dock
        self.draw_objective = QPushButton("Draw objective", checkable=True)
        self.draw_objective.setToolTip("Click hexes on the map: each click adds a hex to the objective "
                                       "(again: removes it)")
        self.draw_route = QPushButton("Draw route", checkable=True)
        self.draw_route.setToolTip("Click hexes on the map in order: the route runs through them "
                                   "(click the last one again to take it back)")
        self.pick_units = QPushButton("Pick units", checkable=True)
        self.pick_units.setToolTip("Click counters on the map: each click ticks (or unticks) the side's units "
                                   "in that hex")
        self.draw_objective.toggled.connect(lambda on: self._draw("objective", on))
        self.draw_route.toggled.connect(lambda on: self._draw("route", on))
        self.pick_units.toggled.connect(lambda on: self._draw("units", on))
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear_draft)
        draw.addWidget(self.pick_units, 0, 0)
        draw.addWidget(clear, 0, 1)
        draw.addWidget(self.draw_objective, 1, 0)
        draw.addWidget(self.draw_route, 1, 1)
        form.addRow(draw)
        self.objective_label = QLabel("objective: —")
        self.route_label = QLabel("route: —")
        for w in (self.objective_label, self.route_label):
            w.setWordWrap(True)
            form.addRow(w)
        self.create_button = QPushButton("Create Op Sheet")
        self.create_button.clicked.connect(self._create)
        form.addRow(self.create_button)
        lay.addWidget(box)
        self.show_column(scrolled=True)
        self.session = None
        self.legal: list[str] = []
        self.objective: list = []       # hexes picked for the new sheet
        self.route: list = []
        self._filling = False
        self._filling_tree = False
        self._chosen: dict[str, str] = {}      # side -> the sheet last selected in its list

    # ------------------------------------------------------------ showing the game
    def show_game(self, session, legal: list[str]) -> None:
        self.session, self.legal = session, legal
        rules = session.rules
        who = rules.current(session.state)[2]            # the side whose step it is (not who answers a question)
        acting = who if who in rules.side_ids else rules.acting_side(session.state)
        self._filling = True
        keep = self.side.currentData()
        if self.side.count() != len(rules.side_ids):
            self.side.clear()
            for s in rules.side_ids:
                self.side.addItem(rules.scenario.sides[s].name, s)
            keep = None
        want = acting if acting in rules.side_ids else keep
        self.side.setCurrentIndex(max(0, self.side.findData(want)))
        self._filling = False
        self._refill()

    def side_id(self) -> str:
        return self.side.currentData() or ""

    def _refill(self) -> None:
        if self.session is None or self._filling:
            return
        st, rules, side = self.session.state, self.session.rules, self.side_id()
        chosen = self._chosen.get(side, "")
        self._filling_tree = True
        self.tree.clear()
        for s in sorted(st.sheets.values(), key=lambda s: s.id):
            if s.side != side:
                continue
            state = "implemented" if s.implemented else "reserve" if s.reserve else "not implemented"
            item = QTreeWidgetItem([s.id, s.type.replace("_", " "), s.formation, ", ".join(s.units), state,
                                    str(s.weighted_turns)])
            self.tree.addTopLevelItem(item)
            if s.id == chosen:
                self.tree.setCurrentItem(item)
        self._filling_tree = False
        if self.current_sheet() != chosen:
            self.selected.emit(self.current_sheet())
        for i in range(len(self.COLUMNS)):
            self.tree.resizeColumnToContents(i)
        ticked = {self.units.item(i).data(Qt.UserRole) for i in range(self.units.count())
                  if self.units.item(i).checkState() == Qt.Checked}
        self.units.clear()
        written: dict[str, list[str]] = {}           # a sheet not yet implemented lists its units (TCS 6.8, 6.13)
        for s in sorted(st.sheets.values(), key=lambda s: s.id):
            if s.side == side and not s.implemented:
                for uid in s.units:
                    written.setdefault(uid, []).append(s.id)
        for uid in rules.order:
            spec, u = rules.specs[uid], st.units[uid]
            if spec.side != side or u.hex is None:
                continue
            if u.sheet:
                where = f" (on {u.sheet})"
            elif uid in written:
                where = f" (on {', '.join(written[uid])}, not yet implemented)"
            else:
                where = " (unassigned)"
            item = QListWidgetItem(f"{uid} — {spec.type}{where}")
            item.setData(Qt.UserRole, uid)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable | Qt.ItemIsDragEnabled)
            item.setCheckState(Qt.Checked if uid in ticked else Qt.Unchecked)
            self.units.addItem(item)
        from engine.rulesets.tcs.scenario import SHEET_TYPES

        if self.new_type.count() != len(SHEET_TYPES):
            self.new_type.clear()
            for t in SHEET_TYPES:
                self.new_type.addItem(t.replace("_", " "), t)
        f_keep = self.new_formation.currentData()
        self.new_formation.clear()
        for f in rules.scenario.formations.values():
            if f.side == side:
                self.new_formation.addItem(f"{f.id} — {f.name}", f.id)
        if f_keep is not None and self.new_formation.findData(f_keep) >= 0:
            self.new_formation.setCurrentIndex(self.new_formation.findData(f_keep))
        taken = set(st.sheets)
        if not self.new_id.text() or self.new_id.text() in taken:
            self.new_id.setText(f"OS{st.next_id}")
        self._enable()

    def _enable(self) -> None:
        sid = self.current_sheet()
        for verb, b in self.buttons.items():
            b.setEnabled(bool(sid) and f"{verb} {sid}" in self.legal)
        step = self.session.rules.current(self.session.state)[1] if self.session is not None else ""
        tip = "Roll on the Command Prep Table for this sheet"
        if sid and step == "implement" and not self.buttons["implement"].isEnabled():
            st = self.session.state
            sheet = st.sheets.get(sid)
            try:                                      # the engine's reason a sheet may not roll now (TCS 6.9f, 6.7b)
                if sheet is not None:
                    self.session.rules.check_implement(st, sid, sheet.side)
            except IllegalAction as e:
                tip = f"{sid} may not be implemented now — {e.rule}: {e.message}"
        self.buttons["implement"].setToolTip(tip)
        self.assign_button.setEnabled(bool(sid) and step == "add")
        self.create_button.setEnabled(step == "create" and bool(self.objective))

    def current_sheet(self) -> str:
        item = self.tree.currentItem()
        return item.text(0) if item is not None else ""

    def select_sheet(self, sid: str) -> bool:
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).text(0) == sid:
                self.tree.setCurrentItem(self.tree.topLevelItem(i))
                return True
        return False

    def _selection_changed(self) -> None:
        if self._filling_tree:
            return
        self._chosen[self.side_id()] = self.current_sheet()
        if self.session is not None:
            self._enable()
        self.selected.emit(self.current_sheet())

    # ------------------------------------------------------------ actions
    def _sheet_action(self, verb: str) -> None:
        sid = self.current_sheet()
        if sid:
            self.act.emit(f"{verb} {sid}")

    def _assign_selected(self) -> None:
        sid = self.current_sheet()
        for item in self.units.selectedItems():
            self.act.emit(f"assign {item.data(Qt.UserRole)} {sid}")

    def ticked_units(self) -> list[str]:
        return [self.units.item(i).data(Qt.UserRole) for i in range(self.units.count())
                if self.units.item(i).checkState() == Qt.Checked]

    def tick(self, uid: str, on: bool = True) -> None:
        for i in range(self.units.count()):
            if self.units.item(i).data(Qt.UserRole) == uid:
                self.units.item(i).setCheckState(Qt.Checked if on else Qt.Unchecked)

    def new_sheet_text(self) -> str:
        """The ``opsheet`` action the form describes."""
        hid = self.session.board.hex_id
        units = "+".join(self.ticked_units())
        objective = ",".join(hid(h) for h in self.objective)
        text = (f"opsheet {self.new_id.text().strip()} {self.new_type.currentData()} "
                f"{self.new_formation.currentData()} units {units} objective {objective}")
        return text + (f" route {'-'.join(hid(h) for h in self.route)}" if self.route else "")

    def _create(self) -> None:
        self.act.emit(self.new_sheet_text())

    def created(self) -> None:
        """The sheet was created: the form is emptied for the next one."""
        for i in range(self.units.count()):
            self.units.item(i).setCheckState(Qt.Unchecked)
        self.new_id.clear()
        self.clear_draft()

    # ------------------------------------------------------------ drawing on the map
    def _modes(self) -> dict:
        return {"units": self.pick_units, "objective": self.draw_objective, "route": self.draw_route}

    def _draw(self, what: str, on: bool) -> None:
        if on:
            for mode, b in self._modes().items():
                if mode != what and b.isChecked():
                    b.blockSignals(True)
                    b.setChecked(False)
                    b.blockSignals(False)
        self.drawing.emit(what if on else "")

    def drawing_what(self) -> str:
        return next((mode for mode, b in self._modes().items() if b.isChecked()), "")

    def stop_drawing(self) -> None:
        for b in self._modes().values():
            b.setChecked(False)

    def hex_picked(self, h) -> None:
        """A map click while drawing: the objective toggles the hex, the route appends it (or takes back the last);
        picking units ticks or unticks the side's units in the hex."""
        what = self.drawing_what()
        if what == "units":
            st, rules = self.session.state, self.session.rules
            here = [k for k in rules.order if st.units[k].hex == h and rules.specs[k].side == self.side_id()]
            ticked = set(self.ticked_units())
            on = not all(k in ticked for k in here)
            for k in here:
                self.tick(k, on)
            return
        if what == "objective":
            if h in self.objective:
                self.objective.remove(h)
            else:
                self.objective.append(h)
        elif what == "route":
            if self.route and self.route[-1] == h:
                self.route.pop()
            else:
                self.route.append(h)
        self._show_draft()

    def clear_draft(self) -> None:
        self.objective, self.route = [], []
        self._show_draft()

    def _show_draft(self) -> None:
        hid = self.session.board.hex_id if self.session is not None else str
        self.objective_label.setText("objective: " + (", ".join(hid(h) for h in self.objective) or "—"))
        self.route_label.setText("route: " + (" → ".join(hid(h) for h in self.route) or "—"))
        if self.session is not None:
            self._enable()
        if self.objective or self.route:        # the sheet's drawing goes on on the map: Create in view below
            self.scroll.ensureWidgetVisible(self.create_button)
        self.drawing.emit(self.drawing_what())
