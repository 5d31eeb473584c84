"""The TCS docks of the play window: the clock, Op Sheets, artillery and the question pending.

Each dock shows what the engine's queries say (``turn_info``, ``sequence``,
``ammunition``, the state's sheets, batteries and markers) and asks for actions
in their text form through ``act``; which of them are legal now is the engine's
``legal_actions``, and a refusal comes back from the engine with its rule.
No rule lives here.
"""
from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QDrag, QFont
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDockWidget, QFormLayout, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton,
                               QScrollArea, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from engine.errors import IllegalAction
from gui.common.typeahead import TypeAheadGuard

UNIT_MIME = "application/x-sandtable-tcs-unit"
MANY_CHOICES = 12           # more results than this: a list to pick from instead of a row of buttons

class ColumnScroll(QScrollArea):
    """A dock's column scrolled up and down.  Focus passed on (a button disabled by its own click hands the focus to
    the next widget, as Implement does) scrolls only vertically: the column keeps its left edge in view when it is
    wider than a narrow dock, instead of sliding sideways to the widget focused."""

    def focusNextPrevChild(self, next_: bool) -> bool:     # noqa: N802 (Qt's name)
        bar = self.horizontalScrollBar()
        x = bar.value()
        moved = super().focusNextPrevChild(next_)
        bar.setValue(x)
        return moved


class TcsDock(QDockWidget):
    """A dock of the TCS play window: a titled column of widgets, found by its object name in a saved layout."""

    def __init__(self, title: str, name: str, parent=None):
        super().__init__(title, parent)
        self.setObjectName(name)
        self._body = QWidget()
        self.column = QVBoxLayout(self._body)
        self.column.setContentsMargins(6, 4, 6, 4)

    def show_column(self, scrolled: bool = False) -> None:
        """Put the column in the dock (once it is filled), in a scroll area if it may be taller than the dock."""
        if not scrolled:
            self.setWidget(self._body)
            return
        scroll = ColumnScroll()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._body)
        self.setWidget(scroll)
        self.scroll = scroll


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
            for i, (phase, step, who) in enumerate(rules.sequence(min(st.turn, len(rules.turns) - 1))):
                here = i == st.step
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


class PendingDock(TcsDock):
    """The question the game waits for: a decision (initiative, retreat, overwatch) or a printed chart result,
    with its whole working, offering only the legal answers."""

    act = Signal(str)

    def __init__(self, parent=None):
        super().__init__("Question", "tcspending", parent)
        self.typeahead = TypeAheadGuard()            # keys typed for the question before kept out of the next
        self.lay = self.column
        self.title = QLabel()
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.lay.addWidget(self.title)
        self.lay.addWidget(self.text)
        self.button_box = QWidget()
        self.button_row = QGridLayout(self.button_box)
        self.button_row.setContentsMargins(0, 0, 0, 0)
        self.lay.addWidget(self.button_box)
        pick = QHBoxLayout()
        self.many = QComboBox()             # many answers: typed (completed from the answers) or picked
        self.many.setEditable(True)
        self.many.setInsertPolicy(QComboBox.NoInsert)
        self.many.lineEdit().setPlaceholderText("type an answer, or pick one")
        self.many.lineEdit().installEventFilter(self)
        self.many.installEventFilter(self)
        self.enter = QPushButton("Enter")
        self.enter.setToolTip("Play the answer chosen (Return)")
        self.enter.clicked.connect(self._enter_typed)
        pick.addWidget(self.many, 1)
        pick.addWidget(self.enter)
        self.pick_box = QWidget()
        self.pick_box.setLayout(pick)
        self.lay.addWidget(self.pick_box)
        self.refusal = QLabel()
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet("color: #a01010")
        self.lay.addWidget(self.refusal)
        self.lay.addStretch(1)
        self.show_column()
        self.buttons: list[QPushButton] = []
        self.answers: list[tuple[str, str]] = []     # (label, action text)
        self._asked = None                           # the question whose answers are in the box
        self._key = None                             # the key press being handled (Return), if any

    def eventFilter(self, obj, event) -> bool:        # noqa: N802 (Qt's name)
        """Return in the answer typed (or picked) plays it; keys typed for the question just answered are left out
        of the next one."""
        if self.typeahead.drop(event):
            self.refusal.setText(f"Left out {self.typeahead.dropped} key(s) pressed before this question was asked")
            return True
        if event.type() == QEvent.KeyPress and event.key() in (Qt.Key_Return, Qt.Key_Enter) \
                and self.pick_box.isVisibleTo(self):
            self._key = event
            try:
                self._enter_typed()
            finally:
                self._key = None
            return True
        return super().eventFilter(obj, event)

    def _play(self, text: str) -> None:
        """Play an answer (by the key being handled, or a click)."""
        self.typeahead.answered(self._key)
        self.act.emit(text)

    def _enter_typed(self) -> None:
        """Play the answer whose label is typed in the box (the one picked, or the one the typing completes to)."""
        text = self.many.currentText().strip()
        i = self.many.findText(text, Qt.MatchFixedString)
        if i < 0:
            i = self.many.findText(text, Qt.MatchStartsWith) if text else -1
        if i < 0:
            labels = [self.many.itemText(k) for k in range(self.many.count())]
            shown = ", ".join(labels[:6]) + (" …" if len(labels) > 6 else "")
            self.refusal.setText(f"{text!r} is not one of the answers ({shown})" if text else "Type or pick an answer")
            return
        self.refusal.clear()
        self.many.setCurrentIndex(i)
        self._play(self.many.itemData(i))

    @staticmethod
    def question_text(pending: dict, sides: dict) -> str:
        """The question with a side named first by its id shown by its name ("Soviet won the … initiative")."""
        text = pending.get("text", "")
        head, sep, rest = text.partition(" ")
        side = sides.get(head) if sep else None
        return f"{getattr(side, 'name', head)} {rest}" if side is not None else text

    def show_pending(self, pending: dict | None, legal: list[str], sides: dict, charts_elsewhere: bool = False) -> None:
        self.refusal.clear()
        for b in self.buttons:
            b.deleteLater()
        self.buttons = []
        self.answers = []
        typed = self.many.currentText()             # kept when the same question is shown again (a refresh)
        self.many.clear()
        if pending is None:
            self.title.setText("Nothing asked")
            self.text.setText("The game waits for no decision and no printed result.")
            self.pick_box.hide()
            return
        if pending["kind"] == "chart" and charts_elsewhere:
            self.title.setText(f"Printed result needed: {pending['prompt'].title}")
            self.text.setText("Asked in the chart prompt panel.")
            self.pick_box.hide()
            return
        if pending["kind"] == "chart":
            prompt = pending["prompt"]
            self.title.setText(f"Printed result needed: {prompt.title}")
            self.text.setText(prompt.text())
            self.answers = [(t.split(" = ", 1)[1], t) for t in legal if " = " in t]
        else:
            who = getattr(sides.get(pending.get("side", "")), "name", pending.get("side", ""))
            self.title.setText(f"Decision: {pending['what']}" + (f" ({who})" if who else ""))
            self.text.setText(self.question_text(pending, sides))
            labels = {s: getattr(v, "name", s) for s, v in sides.items()}
            self.answers = [(labels.get(t.split()[-1], t.split()[-1]), t) for t in legal if t.startswith("choose ")]
        asked = (pending.get("what"), pending.get("text"), tuple(self.answers))
        new = asked != self._asked
        if new:
            self._asked = asked
            self.typeahead.new_question()
        if len(self.answers) > MANY_CHOICES:
            for label, text in self.answers:
                self.many.addItem(str(label), text)
            self.pick_box.show()
            if new:                             # a new question: the keyboard goes to its answer
                typed = ""
                self.many.setFocus()
            # nothing chosen for the player (the box picks its first answer when filled): a Return alone answers
            # nothing (a landing's first hex, taken unit after unit, overstacked it: Leros 3.6g)
            self.many.setCurrentIndex(-1)
            self.many.setEditText(typed)
            return
        self.pick_box.hide()
        for i, (label, text) in enumerate(self.answers):
            b = QPushButton(str(label))
            b.setToolTip(text)
            b.clicked.connect(lambda _=False, t=text: self._play(t))
            b.installEventFilter(self)
            self.button_row.addWidget(b, i // 4, i % 4)
            self.buttons.append(b)
