"""The tool palette: tool buttons, each tool's settings, the calibration table and the map checks."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QButtonGroup, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout,
                               QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QScrollArea, QSpinBox, QStackedWidget, QTableWidget,
                               QTableWidgetItem, QToolButton, QVBoxLayout, QWidget)

from engine.maps.mapedit import STARTER_TERRAINS

# (tool key, button text, shortcut, settings page)
TOOLS = (
    ("calibrate", "Calibrate", "C", "calibrate"),
    ("terrain", "Paint terrain", "P", "terrain"),
    ("fill", "Fill region", "F", "terrain"),
    ("feature", "Hex feature", "X", "feature"),
    ("elevation", "Elevation", "E", "elevation"),
    ("hexside", "Hexside", "H", "hexside"),
    ("trace hexside", "Trace hexside", "R", "hexside"),
    ("trace link", "Road / rail", "W", "link"),
    ("select", "Select && name", "N", "names"),
    ("trace line", "Named line", "M", "line"),
    ("trace obstacle", "Obstacle", "O", "obstacle"),
    ("trace contour", "Contour", "K", "contour"),
    ("los", "LOS thread", "V", "los"),
)
FEATURES = ("trench", "wire", "airfield", "fortification", "mill", "minefield", "bunker")
HEXSIDE_FEATURES = ("river", "stream", "ditch", "wall", "cliff", "ridge")
LINK_KINDS = ("road", "railroad", "trail")
AREA_KINDS = ("town", "setup", "entry", "landing zone", "area")
LINE_KINDS = ("start", "perimeter", "line")
OBSTACLE_KINDS = ("woods", "building", "town", "orchard", "hedge")
BOX_KINDS = ("holding", "track", "dead")


def _combo(items, editable=True) -> QComboBox:
    c = QComboBox()
    c.setEditable(editable)
    c.addItems(list(items))
    return c


def row_of(*widgets) -> QHBoxLayout:
    """The widgets side by side, left to right; a ``(widget, stretch)`` pair gives that one the spare width."""
    row = QHBoxLayout()
    for w in widgets:
        row.addWidget(*(w if isinstance(w, tuple) else (w,)))
    return row


class NamedList(QListWidget):
    """The list of named things; the Delete key asks for the chosen one to be deleted."""

    delete_pressed = Signal()

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace) and self.currentItem() is not None:
            self.delete_pressed.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class Palette(QWidget):
    """Everything the tools read their settings from, and the lists that go to the map when clicked."""

    tool_chosen = Signal(str)
    id_entered = Signal(str)
    grid_accepted = Signal(str)       # the id typed for the found grid's highlighted hex
    finding_chosen = Signal(int)
    click_chosen = Signal(int)
    acted = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMinimumWidth(290)
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)
        grid = QGridLayout()
        self.buttons: dict[str, QToolButton] = {}
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        for i, (key, text, shortcut, _page) in enumerate(TOOLS):
            b = QToolButton()
            b.setText(f"{text} ({shortcut})")
            b.setCheckable(True)
            b.setToolButtonStyle(Qt.ToolButtonTextOnly)
            b.setSizePolicy(b.sizePolicy().horizontalPolicy().Expanding, b.sizePolicy().verticalPolicy())
            b.clicked.connect(lambda _=False, k=key: self.tool_chosen.emit(k))
            self.group.addButton(b)
            self.buttons[key] = b
            grid.addWidget(b, i // 2, i % 2)
        box.addLayout(grid)
        row = QHBoxLayout()
        row.addWidget(QLabel("Brush radius"))
        self.radius_spin = QSpinBox(minimum=0, maximum=6)
        row.addWidget(self.radius_spin)
        row.addStretch(1)
        box.addLayout(row)
        self.stack = QStackedWidget()
        self.pages: dict[str, QWidget] = {}
        for name, maker in (("calibrate", self._calibrate_page), ("terrain", self._terrain_page),
                            ("feature", self._feature_page), ("elevation", self._elevation_page),
                            ("hexside", self._hexside_page), ("link", self._link_page), ("names", self._names_page),
                            ("line", self._line_page), ("obstacle", self._obstacle_page),
                            ("contour", self._contour_page), ("los", self._los_page)):
            page = maker()
            if name == "calibrate":
                # the tallest page: it scrolls rather than make the window taller than a small screen
                scroll = QScrollArea()
                scroll.setWidgetResizable(True)
                scroll.setFrameShape(QFrame.NoFrame)
                scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
                scroll.setWidget(page)
                page = scroll
            self.pages[name] = page
            self.stack.addWidget(page)
        box.addWidget(self.stack, 3)
        box.addWidget(self._checks_box(), 1)      # the tool's page gets three parts of the height, the checks one
        # a button acts and hands the keyboard back to the map (tool letters, numbers for elevations, Enter)
        for b in self.findChildren(QPushButton) + self.findChildren(QToolButton):
            b.setFocusPolicy(Qt.NoFocus)
            b.clicked.connect(lambda _=False: self.acted.emit())

    def set_grid_message(self, text: str) -> None:
        """What Find the grid has to say (the label takes room only when there is something to say)."""
        self.grid_label.setText(text)
        self.grid_label.setVisible(bool(text))

    def show_grid_answer(self, on: bool, suggestion: str) -> None:
        """Show (or hide) the field for the found grid's first hex id, filled with ``suggestion``."""
        self.grid_answer.setVisible(on)
        if on:
            self.grid_id_edit.setText(suggestion)
            self.grid_id_edit.selectAll()
            self.grid_id_edit.setFocus()

    def show_tool(self, key: str) -> None:
        for k, _text, _s, page in TOOLS:
            if k == key:
                self.buttons[k].setChecked(True)
                self.stack.setCurrentWidget(self.pages[page])

    # ------------------------------------------------------------ pages
    def _calibrate_page(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        found = QGroupBox("Find the grid on the scan")
        fl = QVBoxLayout(found)
        self.find_grid_button = QPushButton("Find the grid")
        self.find_grid_button.setToolTip("Look for the printed hex lines on this sheet's scan and propose the "
                                         "calibration (Ctrl+Shift+G)")
        fl.addWidget(self.find_grid_button)
        self.grid_label = QLabel("")
        self.grid_label.setWordWrap(True)
        self.grid_label.setMinimumHeight(self.grid_label.fontMetrics().lineSpacing() * 3)
        self.grid_label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.grid_label.setVisible(False)
        fl.addWidget(self.grid_label)
        self.grid_answer = QWidget()
        al = QHBoxLayout(self.grid_answer)
        al.setContentsMargins(0, 0, 0, 0)
        self.grid_id_edit = QLineEdit()
        self.grid_id_edit.setPlaceholderText("id of the highlighted hex")
        self.grid_id_edit.returnPressed.connect(lambda: self.grid_accepted.emit(self.grid_id_edit.text()))
        self.grid_accept_button = QPushButton("Accept")
        self.grid_accept_button.clicked.connect(lambda: self.grid_accepted.emit(self.grid_id_edit.text()))
        self.grid_discard_button = QPushButton("Discard")
        al.addWidget(self.grid_id_edit, 1)
        al.addWidget(self.grid_accept_button)
        al.addWidget(self.grid_discard_button)
        fl.addWidget(self.grid_answer)
        self.grid_answer.setVisible(False)
        lay.addWidget(found)
        form = QFormLayout()
        self.sheet_combo = QComboBox()
        form.addRow("Sheet", self.sheet_combo)
        self.id_edit = QLineEdit()
        self.id_edit.setPlaceholderText("id of the clicked hex, like A05.06")
        self.id_edit.returnPressed.connect(lambda: self.id_entered.emit(self.id_edit.text()))
        form.addRow("Hex id", self.id_edit)
        lay.addLayout(form)
        self.click_table = QTableWidget(0, 4)
        self.click_table.setHorizontalHeaderLabels(["hex", "u", "v", "residual px"])
        self.click_table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.click_table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.click_table.verticalHeader().setVisible(False)
        self.click_table.cellClicked.connect(lambda r, _c: self.click_chosen.emit(r))
        lay.addWidget(self.click_table, 1)
        self.rms_label = QLabel("No fit yet: click three hex centres or more")
        self.rms_label.setWordWrap(True)
        lay.addWidget(self.rms_label)
        self.remove_click_button = QPushButton("Remove the selected point")
        lay.addWidget(self.remove_click_button)
        self.fit_view_button = QPushButton("Fit view")
        self.fit_view_button.setToolTip("The scan stays still while you click; this shows the grid square to the "
                                        "screen again and the whole map in the window")
        lay.addWidget(self.fit_view_button)
        align = QGroupBox("Align this sheet on a shared hex")
        f2 = QFormLayout(align)
        self.align_here = QLineEdit()
        self.align_there = QLineEdit()
        self.align_button = QPushButton("Align")
        f2.addRow("Id on this sheet", self.align_here)
        f2.addRow("Same hex on the map", self.align_there)
        f2.addRow(self.align_button)
        lay.addWidget(align)
        return w

    def _terrain_page(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.addWidget(QLabel("Terrain (right button: erase)"))
        self.terrain_list = QListWidget()
        self.set_terrains(STARTER_TERRAINS)
        lay.addWidget(self.terrain_list, 1)
        letter = QHBoxLayout()
        letter.addWidget(QLabel("Letter in the legend"))
        self.legend_letter = QLineEdit()
        self.legend_letter.setMaxLength(1)
        self.legend_letter.setMaximumWidth(40)
        self.legend_letter.setPlaceholderText("–")
        self.legend_letter_button = QPushButton("Set letter")
        letter.addWidget(self.legend_letter)
        letter.addWidget(self.legend_letter_button)
        letter.addStretch(1)
        lay.addLayout(letter)
        self.new_terrain = QLineEdit()
        self.new_terrain.setPlaceholderText("another terrain")
        add = QPushButton("Add")
        add.clicked.connect(self._add_terrain)
        self.new_terrain.returnPressed.connect(self._add_terrain)
        lay.addLayout(row_of(self.new_terrain, add))
        self.codes_check = QCheckBox("Show terrain codes over the scan (T)")
        self.codes_check.setChecked(True)
        lay.addWidget(self.codes_check)
        return w

    def _add_terrain(self) -> None:
        name = self.new_terrain.text().strip()
        if name:
            self.add_terrains([name])
            self.terrain_list.setCurrentRow(self.terrain_list.count() - 1)
            items = self.terrain_list.findItems(name, Qt.MatchExactly)
            if items:
                self.terrain_list.setCurrentItem(items[0])
            self.new_terrain.clear()

    def set_terrains(self, names) -> None:
        """Offer exactly these terrains (a map's own list: another map's terrains are not kept), the first chosen."""
        self.terrain_list.clear()
        self.add_terrains(names)
        self.terrain_list.setCurrentRow(0)

    def add_terrains(self, names) -> None:
        have = {self.terrain_list.item(i).text() for i in range(self.terrain_list.count())}
        for n in names:
            if n not in have:
                self.terrain_list.addItem(n)
                have.add(n)

    def _feature_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.feature_combo = _combo(FEATURES)
        f.addRow("Hex feature", self.feature_combo)
        f.addRow(QLabel("Click or drag to add it; right button removes it"))
        return w

    def _elevation_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.elevation_spin = QDoubleSpinBox(minimum=-500, maximum=9000, decimals=1, singleStep=10)
        f.addRow("Elevation", self.elevation_spin)
        self.fill_elevation_button = QPushButton("Give every hex without an elevation this one")
        f.addRow(self.fill_elevation_button)
        self.elevation_check = QCheckBox("Show elevations")
        self.elevation_check.setChecked(True)
        f.addRow(self.elevation_check)
        f.addRow(QLabel("Drag to paint this elevation; right button forgets it.\n"
                        "Select hexes (N) and use 'Set selection to N' to set many at once."))
        return w

    def _hexside_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.hexside_combo = _combo(HEXSIDE_FEATURES)
        f.addRow("Hexside feature", self.hexside_combo)
        f.addRow(QLabel("Hexside (H): click a hexside to switch it.\nTrace (R): click along the printed line,\n"
                        "Enter shows the snapped hexsides, Enter again keeps them,\nBackspace drops the last point."))
        return w

    def _link_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.link_combo = _combo(LINK_KINDS)
        f.addRow("Kind", self.link_combo)
        f.addRow(QLabel("Click along the printed road from hex to hex;\nEnter shows the hexes, Enter again keeps them."))
        return w

    def _names_page(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        area = QGroupBox("Name the selected hexes")
        f = QFormLayout(area)
        self.area_name = QLineEdit()
        self.area_kind = _combo(AREA_KINDS)
        self.name_area_button = QPushButton("Name area")
        f.addRow("Name", self.area_name)
        f.addRow("Kind", self.area_kind)
        f.addRow(self.name_area_button)
        self.selection_label = QLabel("0 hexes selected")
        f.addRow(self.selection_label)
        lay.addWidget(area)
        named = QGroupBox("Areas, lines, boxes, obstacles and contours")
        v = QVBoxLayout(named)
        self.names_list = NamedList()
        v.addWidget(self.names_list, 1)
        f4 = QFormLayout()
        self.rename_edit = QLineEdit()
        self.rename_edit.setPlaceholderText("new name")
        self.rename_id_edit = QLineEdit()
        self.rename_id_edit.setPlaceholderText("new id (boxes)")
        f4.addRow("Name", self.rename_edit)
        f4.addRow("Box id", self.rename_id_edit)
        v.addLayout(f4)
        self.rename_button = QPushButton("Rename")
        self.delete_named_button = QPushButton("Delete")
        v.addLayout(row_of(self.rename_button, self.delete_named_button))
        lay.addWidget(named, 1)
        boxes = QGroupBox("Off-map box or track")
        f2 = QFormLayout(boxes)
        self.box_id = QLineEdit()
        self.box_name = QLineEdit()
        self.box_kind = _combo(BOX_KINDS)
        self.add_box_button = QPushButton("Add box")
        f2.addRow("Id", self.box_id)
        f2.addRow("Name", self.box_name)
        f2.addRow("Kind", self.box_kind)
        f2.addRow(self.add_box_button)
        lay.addWidget(boxes)
        elev = QGroupBox("Elevation of the selected hexes")
        f3 = QFormLayout(elev)
        self.set_elevation_spin = QDoubleSpinBox(minimum=-500, maximum=9000, decimals=1, singleStep=10)
        self.set_elevation_button = QPushButton("Set selection to N")
        f3.addRow("N", self.set_elevation_spin)
        f3.addRow(self.set_elevation_button)
        lay.addWidget(elev)
        scroll = QScrollArea()              # a tall page scrolls rather than make the window taller than a screen
        scroll.setWidget(w)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        return scroll

    def _line_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.line_name_edit = QLineEdit("Start line")
        self.line_kind_combo = _combo(LINE_KINDS)
        f.addRow("Name", self.line_name_edit)
        f.addRow("Kind", self.line_kind_combo)
        f.addRow(QLabel("Click along the line; Enter snaps it to hexsides,\nEnter again names it."))
        return w

    def _obstacle_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.obstacle_combo = _combo(OBSTACLE_KINDS)
        self.obstacle_height_spin = QDoubleSpinBox(minimum=0, maximum=500, decimals=1, value=20, singleStep=5)
        f.addRow("Kind", self.obstacle_combo)
        f.addRow("Height", self.obstacle_height_spin)
        f.addRow(QLabel("Click round the printed symbol;\nEnter closes it, Enter again keeps it."))
        return w

    def _contour_page(self) -> QWidget:
        w = QWidget()
        f = QFormLayout(w)
        self.contour_spin = QDoubleSpinBox(minimum=-500, maximum=9000, decimals=1, value=20, singleStep=10)
        self.contour_closed_check = QCheckBox("Closed ring (a hilltop)")
        self.contour_uphill_combo = _combo(("right", "left"), editable=False)
        self.base_spin = QDoubleSpinBox(minimum=-500, maximum=9000, decimals=1, value=0, singleStep=10)
        self.derive_button = QPushButton("Derive hex elevations from contours")
        f.addRow("Elevation", self.contour_spin)
        f.addRow(self.contour_closed_check)
        f.addRow("Higher ground on the", self.contour_uphill_combo)
        f.addRow("Below every contour", self.base_spin)
        f.addRow(self.derive_button)
        return w

    def _los_page(self) -> QWidget:
        w = QWidget()
        v = QVBoxLayout(w)
        self.los_label = QLabel("Click an observer hex, then move over targets.")
        self.los_label.setWordWrap(True)
        v.addWidget(self.los_label)
        v.addStretch(1)
        return w

    def _checks_box(self) -> QWidget:
        g = QGroupBox("Check map")
        lay = QVBoxLayout(g)
        self.jump_spin = QDoubleSpinBox(minimum=0, maximum=9000, decimals=0, value=40, singleStep=10)
        self.check_button = QPushButton("Check (Ctrl+K)")
        lay.addLayout(row_of(QLabel("Elevation jump over"), self.jump_spin, self.check_button))
        self.findings = QListWidget()
        self.findings.setMinimumHeight(90)
        self.findings.itemClicked.connect(lambda it: self.finding_chosen.emit(self.findings.row(it)))
        self.findings.currentRowChanged.connect(lambda r: r >= 0 and self.finding_chosen.emit(r))
        lay.addWidget(self.findings)
        return g

    # ------------------------------------------------------------ values the tools read
    def terrain(self) -> str:
        it = self.terrain_list.currentItem()
        return it.text() if it is not None else "clear"

    def feature(self) -> str:
        return self.feature_combo.currentText().strip() or "feature"

    def elevation_value(self) -> float:
        return float(self.elevation_spin.value())

    def radius(self) -> int:
        return int(self.radius_spin.value())

    def hexside_feature(self) -> str:
        return self.hexside_combo.currentText().strip() or "river"

    def link_kind(self) -> str:
        return self.link_combo.currentText().strip() or "road"

    def line_name(self) -> str:
        return self.line_name_edit.text()

    def line_kind(self) -> str:
        return self.line_kind_combo.currentText()

    def obstacle_kind(self) -> str:
        return self.obstacle_combo.currentText()

    def obstacle_height(self) -> float:
        return float(self.obstacle_height_spin.value())

    def contour_elevation(self) -> float:
        return float(self.contour_spin.value())

    def contour_closed(self) -> bool:
        return self.contour_closed_check.isChecked()

    def contour_uphill(self) -> str:
        return self.contour_uphill_combo.currentText()

    # ------------------------------------------------------------ what the editor shows here
    def show_clicks(self, clicks, fit) -> None:
        t = self.click_table
        t.setRowCount(len(clicks))
        for i, (hid, (u, v)) in enumerate(clicks):
            res = f"{fit.residuals[i]:.2f}" if fit is not None else "—"
            for j, text in enumerate((hid, f"{u:.1f}", f"{v:.1f}", res)):
                item = QTableWidgetItem(text)
                if fit is not None and i == fit.suspect() and len(clicks) > 3:     # only a click that disagrees
                    item.setBackground(QColor(255, 190, 190))
                t.setItem(i, j, item)
        if fit is None:
            self.rms_label.setText(f"{len(clicks)} point(s): no fit yet (three hex centres not in one line are needed)")
        else:
            worst = clicks[fit.worst][0]
            self.rms_label.setText(f"Fit from {len(clicks)} points: total (RMS) residual {fit.rms:.2f} px; "
                                   f"worst {worst} at {fit.residuals[fit.worst]:.2f} px")

    def show_findings(self, findings) -> None:
        self.findings.clear()
        for f in findings:
            self.findings.addItem(QListWidgetItem(f"{f.severity}: {f.kind}: {f.message}"))
        if not findings:
            self.findings.addItem("No findings: the map looks complete")
