"""Off-map tracks of a TCS game that has them (Leros): the Sea and Air Movement Tracks in a dock, and the
planned drop zones and the Landing Zones of boats under way drawn on the map.

What is shown is the engine's ``track_view`` (boxes in track order, boats with their loads and Landing
Zones, Ju-52s with their flights and drop zones); a flight is planned by playing the engine's ``plan``
action, whose refusal comes back with its rule.  No rule lives here.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (QComboBox, QDockWidget, QFormLayout, QGraphicsItem, QGroupBox, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                               QWidget)

DROP_ZONE = QColor(240, 120, 0)
PICKED = QColor(255, 200, 0)
LANDING_ZONE = QColor(30, 90, 200)


def has_tracks(session) -> bool:
    """Whether the game's rules keep off-map tracks the window can show."""
    return session is not None and callable(getattr(session.rules, "track_view", None))


def _boat_text(b: dict) -> str:
    if not b["load"]:
        return f"{b['id']} ({b['type']}) empty" + (", returning" if b["returning"] else "")
    where = "returning" if b["returning"] else f"to Landing Zone {b['lz']}"
    return f"{b['id']} ({b['type']}) {where}: {', '.join(b['load'])}"


def _plane_text(p: dict) -> str:
    if p["returning"]:
        where = "returning" + (" (aborted)" if p["aborted"] else "")
    else:
        where = f"drop zone {p['dz']}" if p["dz"] else "no flight planned"
    load = ", ".join(p["load"]) if p["load"] else "empty"
    return f"{p['id']} {where}: {load}"


class TracksDock(QDockWidget):
    """The Sea Movement Tracks (each side's Holding box, boxes A-D and Approach box), the Air Movement Track,
    the planned drop zones and Landing Zones, and a form to plan a Ju-52's flight to a drop zone picked on
    the map."""

    act = Signal(str)
    picking = Signal(bool)          # the next map click is the flight's drop zone
    go_to = Signal(str)             # a hex id to centre the map on

    def __init__(self, parent=None):
        super().__init__("Sea and air tracks", parent)
        self.setObjectName("tcstracks")
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(6, 4, 6, 4)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(("Box", "Contents"))
        self.tree.setColumnWidth(0, 250)
        self.tree.itemActivated.connect(self._activated)
        self.tree.setToolTip("Double-click a drop zone or Landing Zone to show it on the map")
        lay.addWidget(self.tree, 3)
        box = QGroupBox("Plan a flight (drop zones are planned before the British set up)")
        form = QFormLayout(box)
        self.plane = QComboBox()
        form.addRow("Ju-52", self.plane)
        self.units = QListWidget()
        self.units.setMaximumHeight(90)
        form.addRow("Units", self.units)
        dz = QHBoxLayout()
        self.dz_label = QLabel("—")
        self.pick_dz = QPushButton("Pick on map", checkable=True)
        self.pick_dz.setToolTip("Click the drop zone hex on the map")
        self.pick_dz.toggled.connect(self.picking.emit)
        dz.addWidget(self.dz_label, 1)
        dz.addWidget(self.pick_dz)
        form.addRow("Drop zone", dz)
        self.plan = QPushButton("Plan flight")
        self.plan.clicked.connect(self._plan)
        form.addRow(self.plan)
        lay.addWidget(box)
        self.setWidget(body)
        self.view: dict = {}
        self.dz = ""                  # the hex id picked for the next flight

    # ------------------------------------------------------------ what the engine says
    def show_game(self, session, legal: list[str]) -> None:
        self.view = session.rules.track_view(session.state)
        expanded = {self.tree.topLevelItem(i).text(0) for i in range(self.tree.topLevelItemCount())
                    if self.tree.topLevelItem(i).isExpanded()} or None
        self.tree.clear()
        sides = session.rules.scenario.sides
        for side in dict.fromkeys(b["side"] for b in self.view["sea"]):
            name = getattr(sides.get(side), "name", side)
            boxes = [b for b in self.view["sea"] if b["side"] == side]
            n = sum(len(b["boats"]) for b in boxes)
            top = QTreeWidgetItem([f"Sea Movement Track ({name})", f"{n} boat{'s' * (n != 1)}"])
            self.tree.addTopLevelItem(top)
            for b in boxes:
                self._box(top, b["name"], [_boat_text(x) for x in b["boats"]], b["units"],
                          f"{len(b['boats'])} boat{'s' * (len(b['boats']) != 1)}")
        if self.view["air"]:
            n = sum(len(b["planes"]) for b in self.view["air"])
            top = QTreeWidgetItem(["Air Movement Track", f"{n} Ju-52 · drift {self.view['drift']}"])
            self.tree.addTopLevelItem(top)
            for b in self.view["air"]:
                self._box(top, b["name"], [_plane_text(p) for p in b["planes"]], b["units"],
                          f"{len(b['planes'])} Ju-52")
        zones = QTreeWidgetItem(["Drop zones and Landing Zones",
                                 f"{len(self.view['drop_zones'])} DZ · {len(self.view['landing_zones'])} LZ"])
        self.tree.addTopLevelItem(zones)
        for d in self.view["drop_zones"]:
            it = QTreeWidgetItem([f"Drop zone {d['hex']}",
                                  f"{len(d['planes'])} Ju-52: {', '.join(d['units'])}"])
            it.setData(0, Qt.UserRole, d["hex"])
            zones.addChild(it)
        for z in self.view["landing_zones"]:
            it = QTreeWidgetItem([f"Landing Zone {z['lz']}", f"{len(z['boats'])} boats: {', '.join(z['boats'])}"])
            it.setData(0, Qt.UserRole, z["hexes"][len(z["hexes"]) // 2])
            zones.addChild(it)
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            top.setExpanded(expanded is None or top.text(0) in expanded)
        self._fill_form(session, legal)

    def _box(self, top, name: str, rows: list[str], units: list[str], count: str) -> None:
        it = QTreeWidgetItem([name, count if rows else ("—" if not units else "")])
        top.addChild(it)
        for r in rows + ([f"waiting: {', '.join(units)}"] if units else []):
            row = QTreeWidgetItem([r])
            row.setToolTip(0, r)
            it.addChild(row)
            row.setFirstColumnSpanned(True)      # a boat and its load read across the whole dock
        it.setExpanded(bool(rows))

    def _fill_form(self, session, legal: list[str]) -> None:
        athens = next((b for b in self.view["air"] if b["box"] == "athens"), None)
        keep = self.plane.currentText()
        self.plane.clear()
        self.units.clear()
        if athens is not None:
            self.plane.addItems([p["id"] for p in athens["planes"] if not p["load"]])
            for u in athens["units"]:
                item = QListWidgetItem(u)
                item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
                item.setCheckState(Qt.Unchecked)
                self.units.addItem(item)
        if keep:
            self.plane.setCurrentText(keep)
        can = any(t.startswith("plan ") for t in legal)
        for w in (self.plane, self.units, self.pick_dz, self.plan):
            w.setEnabled(can and self.plane.count() > 0)

    # ------------------------------------------------------------ planning a flight
    def ticked_units(self) -> list[str]:
        return [self.units.item(i).text() for i in range(self.units.count())
                if self.units.item(i).checkState() == Qt.Checked]

    def tick(self, uid: str, on: bool = True) -> None:
        for i in range(self.units.count()):
            if self.units.item(i).text() == uid:
                self.units.item(i).setCheckState(Qt.Checked if on else Qt.Unchecked)

    def hex_picked(self, hex_id: str) -> None:
        self.dz = hex_id
        self.dz_label.setText(hex_id)
        self.pick_dz.setChecked(False)

    def plan_text(self) -> str:
        return f"plan {self.plane.currentText()} {'+'.join(self.ticked_units())} dz {self.dz}"

    def _plan(self) -> None:
        self.act.emit(self.plan_text())

    def planned(self) -> None:
        """The flight was planned: clear the picked drop zone."""
        self.dz = ""
        self.dz_label.setText("—")

    def _activated(self, item, _col) -> None:
        h = item.data(0, Qt.UserRole)
        if h:
            self.go_to.emit(h)


class ZoneMarks(QGraphicsItem):
    """Planned drop zones (3.6c) and the Landing Zones boats are bound for (1.2f), with a label each, and the
    hex picked for a flight being planned."""

    def __init__(self, board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.zones: list[tuple[QPainterPath, QColor, str]] = []
        self.setZValue(27)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def _area(self, hexes) -> QPainterPath:
        path = QPainterPath()
        lay, s = self.board.layout, self.scale
        for h in hexes:
            path.addPolygon(QPolygonF([QPointF(x * s, y * s) for x, y in lay.polygon_corners(h)]))
            path.closeSubpath()
        return path.simplified()

    def show_view(self, view: dict, picked: str = "") -> None:
        """The engine's track view's zones (hex ids), and the hex picked for a new flight."""
        self.prepareGeometryChange()
        b = self.board
        self.zones = []
        for z in view.get("landing_zones", []):
            self.zones.append((self._area([b.parse_hex(h) for h in z["hexes"]]), LANDING_ZONE,
                               f"LZ {z['lz']} · {len(z['boats'])} boat{'s' * (len(z['boats']) != 1)}"))
        for d in view.get("drop_zones", []):
            self.zones.append((self._area([b.parse_hex(d["hex"])]), DROP_ZONE,
                               f"DZ {d['hex']} · {len(d['planes'])} Ju-52"))
        if picked:
            self.zones.append((self._area([b.parse_hex(picked)]), PICKED, f"new DZ {picked}"))
        self.update()

    def labels(self) -> list[str]:
        return [text for _p, _c, text in self.zones]

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for path, _c, _t in self.zones:
            r = r.united(path.boundingRect())
        return r.adjusted(-4 * self.scale, -2 * self.scale, 4 * self.scale, 2 * self.scale)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(1, int(self.scale * 0.55)))
        painter.setFont(font)
        for path, colour, text in self.zones:
            pen = QPen(colour, 4, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
            pen.setCosmetic(True)
            painter.setPen(pen)
            fill = QColor(colour)
            fill.setAlpha(70)
            painter.setBrush(fill)
            painter.drawPath(path)
            r = path.boundingRect()
            label = QRectF(r.center().x() - 4 * self.scale, r.top() - 0.9 * self.scale, 8 * self.scale,
                           0.8 * self.scale)
            painter.setPen(Qt.NoPen)
            painter.setBrush(QColor(255, 255, 255, 200))
            width = painter.fontMetrics().horizontalAdvance(text) + 0.4 * self.scale
            painter.drawRect(QRectF(label.center().x() - width / 2, label.top(), width, label.height()))
            painter.setPen(colour.darker(140))
            painter.drawText(label, Qt.AlignCenter, text)
