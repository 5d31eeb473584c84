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
LIT = QColor(0, 200, 230)           # the zone of the selected boat, flight or action
SCATTER = QColor(200, 40, 40)       # a drop zone marker's scatter (3.6e)
DRIFT = QColor(120, 40, 160)        # a flight's drift and landing (3.6e)


def has_tracks(session) -> bool:
    """Whether the game's rules keep off-map tracks the window can show."""
    return session is not None and callable(getattr(session.rules, "track_view", None))


def zone_named(text: str, view: dict) -> tuple[str, list[str]] | None:
    """The zone an action or a row of the tracks names, as ``(label, hex ids)``: "embark B U lz 4",
    "Barge-1 (Barge) to Landing Zone 4: ...", "plan P U dz B34.25", "Ju52-1 drop zone B34.25: ..."; else None."""
    w = text.replace(":", " ").replace(",", " ").split()
    for i, word in enumerate(w[:-1]):
        nxt = w[i + 1]
        if word.lower() == "lz" or (word.lower() == "zone" and i and w[i - 1].lower() == "landing"):
            if nxt.isdigit():
                z = next((z for z in view.get("map_landing_zones", []) if z["lz"] == int(nxt)), None)
                if z is not None:
                    return f"Landing Zone {nxt}", list(z["hexes"])
        if word.lower() == "dz" or (word == "zone" and i and w[i - 1].lower() == "drop"):
            if any(c.isdigit() for c in nxt):
                return f"drop zone {nxt}", [nxt]
    return None


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
    light = Signal(object)          # (label, hex ids) of the zone a selected row names, or None

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
        self.tree.currentItemChanged.connect(self._current_row)
        self.tree.setToolTip("Double-click a drop zone or Landing Zone to show it on the map")
        lay.addWidget(self.tree, 3)
        # One way to plan: the Ju-52, its units, then a click on the drop zone plans the flight, as on the track
        # board (a Ju-52 and its units selected, a click on the map).  No separate Plan button to press after it.
        box = QGroupBox("Plan a flight (drop zones are planned before the British set up)")
        form = QFormLayout(box)
        self.plane = QComboBox()
        form.addRow("Ju-52", self.plane)
        self.units = QListWidget()
        self.units.setMaximumHeight(90)
        self.units.itemChanged.connect(lambda _item: self._enable_pick())
        form.addRow("Units", self.units)
        dz = QHBoxLayout()
        self.dz_label = QLabel("—")
        self.pick_dz = QPushButton("Pick on map", checkable=True)
        self.pick_dz.toggled.connect(self.picking.emit)
        dz.addWidget(self.dz_label, 1)
        dz.addWidget(self.pick_dz)
        form.addRow("Drop zone", dz)
        self.hint = QLabel("Tick the units the Ju-52 carries, press Pick on map and click the drop zone: "
                           "the click plans the flight.")
        self.hint.setWordWrap(True)
        form.addRow(self.hint)
        lay.addWidget(box)
        self.setWidget(body)
        self.view: dict = {}
        self.dz = ""                  # the hex id picked for the flight (shown until the flight is planned)
        self._can_plan = False        # the engine offers a ``plan`` now

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
        self._can_plan = any(t.startswith("plan ") for t in legal) and self.plane.count() > 0
        for w in (self.plane, self.units):
            w.setEnabled(self._can_plan)
        self._enable_pick()

    def _enable_pick(self) -> None:
        """Pick on map once there is something to plan: a Ju-52 and at least one unit ticked for it."""
        ready = self._can_plan and bool(self.ticked_units())
        self.pick_dz.setEnabled(ready)
        self.pick_dz.setToolTip("Click the drop zone hex on the map: the click plans the flight" if ready else
                                "Tick the units the Ju-52 carries first" if self._can_plan else
                                "No flight can be planned now")
        if not ready and self.pick_dz.isChecked():
            self.pick_dz.setChecked(False)

    # ------------------------------------------------------------ planning a flight
    def ticked_units(self) -> list[str]:
        return [self.units.item(i).text() for i in range(self.units.count())
                if self.units.item(i).checkState() == Qt.Checked]

    def tick(self, uid: str, on: bool = True) -> None:
        for i in range(self.units.count()):
            if self.units.item(i).text() == uid:
                self.units.item(i).setCheckState(Qt.Checked if on else Qt.Unchecked)

    def choose(self, plane: str, units: list[str]) -> None:
        """The flight being planned: a Ju-52 in Athens and the units ticked for it (from the track board)."""
        if plane:
            self.plane.setCurrentText(plane)
        for i in range(self.units.count()):
            item = self.units.item(i)
            item.setCheckState(Qt.Checked if item.text() in units else Qt.Unchecked)

    def hex_picked(self, hex_id: str) -> None:
        """The drop zone clicked on the map plans the flight at once (the engine's ``plan`` action, refused with
        its rule if it breaks one; then the hex stays shown and another click tries again)."""
        self.dz = hex_id
        self.dz_label.setText(hex_id)
        self.pick_dz.setChecked(False)
        if self._can_plan and self.ticked_units() and self.plane.currentText():
            self._plan()

    def plan_text(self) -> str:
        return f"plan {self.plane.currentText()} {'+'.join(self.ticked_units())} dz {self.dz}"

    def _plan(self) -> None:
        self.act.emit(self.plan_text())

    def planned(self) -> None:
        """The flight was planned: clear the picked drop zone."""
        self.dz = ""
        self.dz_label.setText("—")

    def _current_row(self, item, _previous) -> None:
        if item is None:
            self.light.emit(None)
            return
        self.light.emit(zone_named(item.text(0) + " " + item.text(1), self.view))

    def _activated(self, item, _col) -> None:
        h = item.data(0, Qt.UserRole)
        if h:
            self.go_to.emit(h)


class ZoneMarks(QGraphicsItem):
    """Every Landing Zone the map prints (1.2f), thinly; the Landing Zones boats are bound for and the planned drop
    zones (3.6c), with a label each at the zone's hexes; the hex picked for a flight being planned; the zone lit by
    the selected boat, flight or action; and the last drop's scatter and drift (3.6e) as arrows from the planned
    to the actual hexes."""

    def __init__(self, board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.zones: list[tuple[QPainterPath, QColor, str]] = []
        self.anchors: dict[str, QPointF] = {}        # label -> the scene point it is drawn at (a zone's hex)
        self.printed: list[tuple[QPainterPath, str, QPointF]] = []    # every map Landing Zone
        self.lit: tuple[QPainterPath, str, QPointF] | None = None
        self.arrows: list[tuple[QPointF, QPointF, QColor, str]] = []  # from, to, colour, label
        self.ends: list[tuple[QPointF, str]] = []                     # a flight's end: point, fate
        self.landed: list[tuple[list[QPointF], str, QPointF]] = []    # units landed from the sea: hexes, label
        self._placed: list[QRectF] = []
        self.drawn: list[tuple[str, QRectF]] = []                     # the last paint's labels: text, box
        self.setZValue(27)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def _area(self, hexes) -> QPainterPath:
        path = QPainterPath()
        lay, s = self.board.layout, self.scale
        for h in hexes:
            path.addPolygon(QPolygonF([QPointF(x * s, y * s) for x, y in lay.polygon_corners(h)]))
            path.closeSubpath()
        return path.simplified()

    def _centre(self, h) -> QPointF:
        x, y = self.board.center(h)
        return QPointF(x * self.scale, y * self.scale)

    def _anchor(self, hexes) -> QPointF:
        """Where a zone's label goes: the centre of the zone's hex nearest its middle."""
        pts = [self._centre(h) for h in hexes]
        mx = sum(p.x() for p in pts) / len(pts)
        my = sum(p.y() for p in pts) / len(pts)
        return min(pts, key=lambda p: (p.x() - mx) ** 2 + (p.y() - my) ** 2)

    def show_view(self, view: dict, picked: str = "", lit: tuple[str, list[str]] | None = None,
                  drops: list[dict] | None = None) -> None:
        """The engine's track view's zones (hex ids), the hex picked for a new flight, the zone lit (a label and
        its hex ids) and the last drop's events' data (``what`` scatter or flight)."""
        self.prepareGeometryChange()
        b = self.board
        self.zones, self.anchors, self.printed, self.arrows, self.ends = [], {}, [], [], []
        bound = {z["lz"] for z in view.get("landing_zones", [])}
        for z in view.get("map_landing_zones", []):
            hexes = [b.parse_hex(h) for h in z["hexes"]]
            if z["lz"] not in bound:
                self.printed.append((self._area(hexes), f"LZ {z['lz']}", self._anchor(hexes)))
                self.anchors[f"LZ {z['lz']}"] = self._anchor(hexes)
        for z in view.get("landing_zones", []):
            hexes = [b.parse_hex(h) for h in z["hexes"]]
            text = f"LZ {z['lz']} · {len(z['boats'])} boat{'s' * (len(z['boats']) != 1)}"
            self.zones.append((self._area(hexes), LANDING_ZONE, text))
            self.anchors[text] = self._anchor(hexes)
        for d in view.get("drop_zones", []):
            text = f"DZ {d['hex']} · {len(d['planes'])} Ju-52"
            self.zones.append((self._area([b.parse_hex(d["hex"])]), DROP_ZONE, text))
            self.anchors[text] = self._centre(b.parse_hex(d["hex"]))
        if picked:
            self.zones.append((self._area([b.parse_hex(picked)]), PICKED, f"new DZ {picked}"))
            self.anchors[f"new DZ {picked}"] = self._centre(b.parse_hex(picked))
        self.lit = None
        if lit is not None and lit[1]:
            hexes = [b.parse_hex(h) for h in lit[1]]
            self.lit = (self._area(hexes), lit[0], self._anchor(hexes))
        from engine.maps.hexes import Hex
        self.landed = []
        by_lz: dict[int, list[dict]] = {}
        for d in drops or []:
            if d.get("what") == "landing":
                by_lz.setdefault(d["lz"], []).append(d)
        for lz, ds in sorted(by_lz.items()):       # the units landed from the sea this turn or the last (1.2f)
            hexes = sorted({d["hex"] for d in ds})
            boats = len({d["boat"] for d in ds})
            text = f"landed at LZ {lz}: {len(ds)} unit{'s' * (len(ds) != 1)} from {boats} boat{'s' * (boats != 1)}"
            self.landed.append(([self._centre(b.parse_hex(h)) for h in hexes], text,
                                self._anchor([b.parse_hex(h) for h in hexes])))
        for d in drops or []:
            if d.get("what") == "scatter":
                self.arrows.append((self._centre(b.parse_hex(d["dz"])), self._centre(b.parse_hex(d["to"])),
                                    SCATTER, f"DZ {d['dz']} scatters"))
            elif d.get("what") == "flight":
                start = self._centre(b.parse_hex(d["marker"]))
                drift = self._centre(Hex(*d["drift_qr"]))
                end = self._centre(Hex(*d["to_qr"]))
                if drift != start:
                    self.arrows.append((start, drift, DRIFT, ""))
                self.arrows.append((drift, end, DRIFT, d["plane"]))
                self.ends.append((end, d.get("fate", "landed")))
        self.update()

    def labels(self) -> list[str]:
        return [text for _p, _c, text in self.zones]

    def printed_labels(self) -> list[str]:
        return [text for _p, text, _a in self.printed]

    def landed_labels(self) -> list[str]:
        return [text for _p, text, _a in self.landed]

    def lit_label(self) -> str:
        return self.lit[1] if self.lit is not None else ""

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for path in [z[0] for z in self.zones] + [p[0] for p in self.printed] + ([self.lit[0]] if self.lit else []):
            r = r.united(path.boundingRect())
        for a, b, _c, _t in self.arrows:
            r = r.united(QRectF(a, b).normalized())
        for points, _t, _a in self.landed:
            for p in points:
                r = r.united(QRectF(p, p))
        m = 12 * self.scale         # labels keep a readable size zoomed out, so they reach well past their zones
        return r.adjusted(-m, -m, m, m)

    def _free(self, box: QRectF, optional: bool = False) -> QRectF | None:
        """``box`` moved up or down by whole label heights to the nearest place where it overlaps no label drawn
        before it in this paint (labels keep their size zoomed out, so near zones' labels would cover each other);
        where it stands when no place within five heights is free, or None then for an ``optional`` label (one the
        map prints anyway: it is left out)."""
        step = box.height() * 1.05
        for k in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5):
            moved = box.translated(0, k * step)
            if not any(moved.intersects(p) for p in self._placed):
                self._placed.append(moved)
                return moved
        if optional:
            return None
        self._placed.append(box)
        return box

    def _label(self, painter: QPainter, at: QPointF, text: str, colour: QColor, above: float = 0.5,
               optional: bool = False) -> None:
        s = self.scale
        high = painter.fontMetrics().height() * 1.2
        width = painter.fontMetrics().horizontalAdvance(text) + high * 0.5
        box = self._free(QRectF(at.x() - width / 2, at.y() - above * s - high / 2, width, high), optional)
        if box is None:
            return
        self.drawn.append((text, box))
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(255, 255, 255, 210))
        painter.drawRoundedRect(box, 0.15 * s, 0.15 * s)
        painter.setPen(colour.darker(140))
        painter.drawText(box, Qt.AlignCenter, text)

    def _tag(self, painter: QPainter, at: QPointF, text: str, colour: QColor, left: bool = False) -> None:
        """A small label on a white ground, centred on ``at`` (or starting there)."""
        fm = painter.fontMetrics()
        w, h = fm.horizontalAdvance(text) + fm.height() * 0.5, fm.height() * 1.15
        box = self._free(QRectF(at.x() if left else at.x() - w / 2, at.y() - h / 2, w, h))
        self.drawn.append((text, box))
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(255, 255, 255, 215))
        painter.drawRoundedRect(box, h * 0.2, h * 0.2)
        painter.setPen(colour.darker(130))
        painter.drawText(box, Qt.AlignCenter, text)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        s = self.scale
        self._placed, self.drawn = [], []        # the labels of this paint: kept apart (_free), and for a look
        least = 11 / max(1e-6, painter.worldTransform().m11())     # labels stay readable zoomed out (11 px)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(1, int(max(s * 0.45, least))))
        painter.setFont(font)
        printed_font = QFont(font)
        for path, text, at in self.printed:
            pen = QPen(LANDING_ZONE, 1.5, Qt.DashLine)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            painter.drawPath(path)          # its label last: the zones boats and flights are bound for come first
        font.setPixelSize(max(1, int(max(s * 0.55, least * 1.1))))
        painter.setFont(font)
        for path, colour, text in self.zones:
            pen = QPen(colour, 4, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
            pen.setCosmetic(True)
            painter.setPen(pen)
            fill = QColor(colour)
            fill.setAlpha(70)
            painter.setBrush(fill)
            painter.drawPath(path)
        for path, colour, text in self.zones:
            self._label(painter, self.anchors[text], text, colour, 0.9 if not text.startswith("LZ") else 0.0)
        if self.lit is not None:
            path = self.lit[0]
            pen = QPen(LIT, 7, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
            pen.setCosmetic(True)
            painter.setPen(pen)
            fill = QColor(LIT)
            fill.setAlpha(60)
            painter.setBrush(fill)
            painter.drawPath(path)          # the zone's own label already names it
        for points, text, at in self.landed:
            pen = QPen(LANDING_ZONE, 3)
            pen.setCosmetic(True)
            for p in points:
                painter.setPen(pen)
                painter.setBrush(Qt.NoBrush)
                painter.drawEllipse(p, 0.48 * s, 0.48 * s)
            self._label(painter, at, text, LANDING_ZONE, -0.9)
        for a, b, colour, _text in self.arrows:
            _arrow(painter, a, b, colour, s)
        font.setPixelSize(max(1, int(max(s * 0.3, least * 0.9))))
        painter.setFont(font)
        landed: dict[tuple, list[str]] = {}
        for a, b, colour, text in self.arrows:
            if colour == SCATTER:       # the planned drop zone ringed, "scatter" beside the marker's new hex
                pen = QPen(SCATTER, 2.5, Qt.DashLine)
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.setBrush(Qt.NoBrush)
                painter.drawEllipse(a, 0.42 * s, 0.42 * s)
                self._tag(painter, QPointF(a.x(), a.y() + 0.75 * s), "planned " + text.split()[1], SCATTER)
            elif text:
                landed.setdefault((round(b.x(), 1), round(b.y(), 1)), []).append(text)
        for (x, y), planes in landed.items():     # one tag a landing hex, naming the Ju-52s that dropped there
            self._tag(painter, QPointF(x + 0.55 * s, y - 0.55 * s), ", ".join(planes), DRIFT, left=True)
        for at, fate in self.ends:
            pen = QPen({"landed": DRIFT, "sea": LANDING_ZONE}.get(fate, SCATTER), 3)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            r = 0.3 * s
            if fate == "landed":
                painter.drawEllipse(at, r, r)
            else:                   # lost in the sea (3.6h) or on the British (3.6f)
                painter.drawLine(QPointF(at.x() - r, at.y() - r), QPointF(at.x() + r, at.y() + r))
                painter.drawLine(QPointF(at.x() - r, at.y() + r), QPointF(at.x() + r, at.y() - r))
        painter.setFont(printed_font)
        for _path, text, at in self.printed:     # left out where there is no room: the map prints its zones
            self._label(painter, at, text, LANDING_ZONE, 0.0, optional=True)


def _arrow(painter: QPainter, a: QPointF, b: QPointF, colour: QColor, s: float) -> None:
    """A line from ``a`` to ``b`` with a head at ``b`` (a dot when they are the same hex)."""
    colour = QColor(colour)
    colour.setAlpha(215)            # the counters under an arrow still show
    pen = QPen(colour, 2.5, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
    pen.setCosmetic(True)
    painter.setPen(pen)
    painter.setBrush(colour)
    if a == b:
        painter.drawEllipse(a, 0.12 * s, 0.12 * s)
        return
    painter.drawLine(a, b)
    dx, dy = b.x() - a.x(), b.y() - a.y()
    n = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / n, dy / n
    head = 0.35 * s
    left = QPointF(b.x() - head * ux + head * 0.5 * uy, b.y() - head * uy - head * 0.5 * ux)
    right = QPointF(b.x() - head * ux - head * 0.5 * uy, b.y() - head * uy + head * 0.5 * ux)
    painter.drawPolygon(QPolygonF([b, left, right]))
