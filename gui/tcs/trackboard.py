"""The Sea and Air Movement Tracks drawn as the charts print them: a row of boxes a track, the boats, Ju-52s and
waiting units as counters in them, and the Landing Zones a boat may sail for as a strip of boxes under each sea
track.

A counter is selected with a click (Ctrl adds waiting units to the selection) and dragged to another box where an
action of the engine takes it there: the board plays each action it could mean (``takeoff``, ``abortflight``,
``embark`` to each Landing Zone) on a copy of the game and keeps those the engine accepts, lighting the boxes
they lead to.  What the engine refuses is reported with its rule.  No rule lives here.
"""
from __future__ import annotations

from math import ceil

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (QDockWidget, QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsSimpleTextItem,
                               QGraphicsView, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget)

from engine.errors import IllegalAction

CW, CH, GAP = 50, 30, 3            # a counter on the board, and the space between counters
HEAD = 18                           # a box's title band
LIT = QColor(0, 200, 230)           # a Landing Zone or box lit by the selected counter
TARGET = QColor(60, 190, 60)        # where a drag may end (an action of the engine takes the counter there)
PLANE = QColor(150, 150, 160)
PAPER = QColor(245, 240, 225)


def _short(box_name: str) -> str:
    """A box's title on the board: "German Sea Movement Box A" -> "Box A", "Athens Return Leg Box 2" -> "Return 2"."""
    for long, short in (("Sea Movement Box ", "Box "), ("Air Movement Box ", "Box "), ("Athens Return Leg Box ", "Return "),
                        ("Leros Parachute Assault Execution Box", "Execution"), (" Approach Box", " Approach")):
        if long in box_name:
            return box_name.replace(long, short).replace("German ", "").replace("British ", "")
    return box_name.replace(" Box", "")


class TrackCounter(QGraphicsRectItem):
    """A boat, a Ju-52 or a waiting unit in a box of the board."""

    def __init__(self, board: "TrackBoard", kind: str, cid: str, lines: tuple[str, str], fill: QColor, tip: str):
        super().__init__(0, 0, CW, CH)
        self.board, self.kind, self.cid, self.lines = board, kind, cid, lines
        self.setBrush(fill)
        self.setPen(QPen(QColor(30, 30, 30), 1))
        self.setToolTip(tip)
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(2)
        self.home = QPointF()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = self.rect()
        painter.setRenderHint(QPainter.Antialiasing, True)
        selected = self.isSelected()
        painter.setPen(QPen(LIT.darker(120), 3) if selected else self.pen())
        painter.setBrush(self.brush())
        painter.drawRoundedRect(r, 3, 3)
        font = QFont("DejaVu Sans")
        font.setPixelSize(9)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(15, 15, 15))
        painter.drawText(QRectF(r.left(), r.top() + 1, r.width(), r.height() / 2), Qt.AlignCenter, self.lines[0])
        font.setBold(False)
        painter.setFont(font)
        painter.drawText(QRectF(r.left(), r.center().y(), r.width(), r.height() / 2 - 1), Qt.AlignCenter,
                         self.lines[1])

    def mousePressEvent(self, event):
        self.board.pressed(self, event)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event):
        super().mouseReleaseEvent(event)
        self.board.released(self)


class BoxItem(QGraphicsRectItem):
    """A box of a track (or a Landing Zone of the strip under a sea track): where counters sit and drags end."""

    def __init__(self, key: str, title: str, rect: QRectF, zone: bool = False):
        super().__init__(rect)
        self.key, self.title, self.zone = key, title, zone
        self.lit = self.target = False
        self.setZValue(0)
        self.setToolTip(title)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = self.rect()
        fill = QColor(225, 238, 250) if self.zone else PAPER
        if self.target:
            fill = QColor(210, 245, 210)
        painter.setBrush(fill)
        pen = QPen(TARGET if self.target else LIT if self.lit else QColor(70, 70, 70), 4 if self.lit or self.target else 1)
        painter.setPen(pen)
        painter.drawRect(r)
        font = QFont("DejaVu Sans")
        font.setPixelSize(10 if not self.zone else 11)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(30, 50, 90) if self.zone else QColor(40, 40, 40))
        band = r if self.zone else QRectF(r.left(), r.top(), r.width(), HEAD)
        painter.drawText(band, Qt.AlignCenter, self.title)


class TrackBoard(QGraphicsView):
    """The tracks of the engine's ``track_view``, drawn as boxes with counters; drags play engine actions."""

    act = Signal(str)                   # an action the engine accepted on a copy: play it
    refused = Signal(str, str)          # rule, sentence: a drag the engine refuses
    selected = Signal(list)             # [(kind, id)] of the counters selected now

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.Antialiasing, True)
        self.setDragMode(QGraphicsView.NoDrag)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setBackgroundBrush(QColor(200, 210, 215))
        self.boxes: dict[str, BoxItem] = {}
        self.counters: dict[tuple[str, str], TrackCounter] = {}
        self.session = None
        self.view: dict = {}
        self.legal: list[str] = []
        self.targets: dict[str, str] = {}       # box key -> the action that takes the dragged counter there
        self._held_units: list[str] = []        # waiting units selected when a boat was picked up
        self.scene().selectionChanged.connect(self._selection_changed)

    # ------------------------------------------------------------ drawing what the engine says
    def show_game(self, session, view: dict, legal: list[str]) -> None:
        keep = [(c.kind, c.cid) for c in self.counters.values() if c.isSelected()]
        self.session, self.view, self.legal = session, view, legal
        scene = self.scene()
        scene.blockSignals(True)
        scene.clear()
        self.boxes, self.counters, self.targets = {}, {}, {}
        sides = session.rules.scenario.sides
        colours = {s: QColor(getattr(v, "colour", "#c8c8c8")) for s, v in
                   getattr(session.scenario, "sides", {}).items()}      # the map's counter colours
        colours.setdefault("german", PLANE)
        y = 0.0
        for side in dict.fromkeys(b["side"] for b in view["sea"]):
            name = getattr(sides.get(side), "name", side)
            boxes = [b for b in view["sea"] if b["side"] == side]
            y = self._track(f"Sea Movement Track ({name})", y, [
                (b["box"], _short(b["name"]), b["name"],
                 [("boat", x["id"], (x["id"], f"LZ {x['lz']}" if x["load"] and not x["returning"] else
                                     "home" if x["returning"] else "empty"), _boat_tip(x), colours.get(side, PLANE))
                  for x in b["boats"]] +
                 [("unit", u, _two_lines(u), f"{u} waits in the {b['name']}", colours.get(side, PLANE).lighter(130))
                  for u in b["units"]], 6 if i == 0 else 3) for i, b in enumerate(boxes)])
            y = self._zone_strip(side, y, view.get("map_landing_zones", []))
        if view["air"]:
            out = [b for b in view["air"] if not b["box"].startswith("air-return")]
            back = {b["box"]: b for b in view["air"] if b["box"].startswith("air-return")}
            y = self._track(f"Air Movement Track · drift {view['drift']}", y, [
                (b["box"], _short(b["name"]), b["name"],
                 [("plane", p["id"], (p["id"], p["dz"] or ("home" if p["returning"] else "no flight")), _plane_tip(p),
                   PLANE) for p in b["planes"]] +
                 [("unit", u, _two_lines(u), f"{u} waits in the {b['name']}", colours.get("german", PLANE).lighter(130))
                  for u in b["units"]], 6 if i == 0 else 3) for i, b in enumerate(out)])
            # the Return Leg boxes under the outward boxes they face (the engine's track: Leros 3.6j), left to right,
            # each as wide as the box above it or as its Ju-52s need, pushed right rather than overlapping
            rows = max((ceil(len(b["planes"]) / 3) for b in back.values()), default=0)
            height = HEAD + max(1, rows) * (CH + GAP) + GAP
            x = 0.0
            for key, b in sorted(back.items(), key=lambda kb: self.boxes[kb[1]["faces"]].rect().left()
                                 if kb[1].get("faces") in self.boxes else 0.0):
                above = self.boxes.get(b.get("faces", ""))
                left = max(x, above.rect().left() if above is not None else x)
                cols = min(3, max(1, len(b["planes"])))
                width = max(above.rect().width() if above is not None else 0.0, cols * (CW + GAP) + GAP)
                self._box(key, _short(b["name"]) + " ←", b["name"], QRectF(left, y, width, height),
                          [("plane", p["id"], (p["id"], "home"), _plane_tip(p), PLANE) for p in b["planes"]], cols)
                x = left + width + 6
            y += height + 10
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-4, -4, 4, 4))
        for key in keep:
            c = self.counters.get(key)
            if c is not None:
                c.setSelected(True)
        scene.blockSignals(False)
        self._selection_changed()       # what the selected counters light follows the game (a flight planned)

    def _track(self, title: str, y: float, boxes: list) -> float:
        label = QGraphicsSimpleTextItem(title)
        f = QFont("DejaVu Sans")
        f.setPixelSize(12)
        f.setBold(True)
        label.setFont(f)
        label.setPos(0, y)
        self.scene().addItem(label)
        y += 18
        rows = max(max(1, ceil(len(items) / cols)) for _k, _t, _n, items, cols in boxes)
        height = HEAD + rows * (CH + GAP) + GAP
        x = 0.0
        for key, title_, name, items, _cols in boxes:
            cols = max(1, ceil(len(items) / rows))          # as many rows as the fullest box, no wider than needed
            width = max(cols * (CW + GAP) + GAP, 66)
            self._box(key, title_, name, QRectF(x, y, width, height), items, cols)
            x += width + 6
        return y + height + 6

    def _box(self, key, title, name, rect: QRectF, items: list, cols: int) -> None:
        box = BoxItem(key, title, rect)
        box.setToolTip(name)
        self.scene().addItem(box)
        self.boxes[key] = box
        for i, (kind, cid, lines, tip, fill) in enumerate(items):
            c = TrackCounter(self, kind, cid, lines, fill or PLANE, tip)
            c.home = QPointF(rect.left() + GAP + (i % cols) * (CW + GAP), rect.top() + HEAD + GAP + (i // cols) * (CH + GAP))
            c.setPos(c.home)
            c.box = key
            self.scene().addItem(c)
            self.counters[(kind, cid)] = c

    def _zone_strip(self, side: str, y: float, zones: list) -> float:
        """The Landing Zones a boat of this side may sail for (1.2e): where an empty boat is dragged to embark."""
        x = 0.0
        label = QGraphicsSimpleTextItem("Landing Zones:")
        label.setPos(0, y + 6)
        self.scene().addItem(label)
        x = 100.0
        for z in zones:
            box = BoxItem(f"lz:{side}:{z['lz']}", f"LZ {z['lz']}", QRectF(x, y, 42, 26), zone=True)
            box.setToolTip(f"Landing Zone {z['lz']}: drag an empty boat here to embark the selected units for it")
            self.scene().addItem(box)
            self.boxes[box.key] = box
            x += 46
        return y + 40

    # ------------------------------------------------------------ selection
    def selected_ids(self, kind: str | None = None) -> list[str]:
        return [c.cid for c in self.counters.values() if c.isSelected() and (kind is None or c.kind == kind)]

    def select(self, kind: str, cid: str, add: bool = False) -> bool:
        c = self.counters.get((kind, cid))
        if c is None:
            return False
        if not add:
            self.scene().clearSelection()
        c.setSelected(True)
        return True

    def _selection_changed(self) -> None:
        self._light()
        self.selected.emit([(c.kind, c.cid) for c in self.counters.values() if c.isSelected()])

    def _light(self) -> None:
        """The selected boat's Landing Zone (and a Ju-52's box) lit on the board."""
        for b in self.boxes.values():
            b.lit = False
        for c in self.counters.values():
            if c.isSelected() and c.kind == "boat":
                boat = self._boat(c.cid)
                if boat and boat["lz"] and boat["load"]:
                    zone = self.boxes.get(f"lz:{self._side_of_boat(c.cid)}:{boat['lz']}")
                    if zone is not None:
                        zone.lit = True
        for b in self.boxes.values():
            b.update()

    def _boat(self, bid: str) -> dict | None:
        return next((x for b in self.view.get("sea", []) for x in b["boats"] if x["id"] == bid), None)

    def _side_of_boat(self, bid: str) -> str:
        return next((b["side"] for b in self.view.get("sea", []) for x in b["boats"] if x["id"] == bid), "")

    def lit_zone(self) -> str:
        """The key of the Landing Zone box lit now ("" when none)."""
        return next((k for k, b in self.boxes.items() if b.lit), "")

    # ------------------------------------------------------------ dragging: what the engine accepts
    def candidates(self, counter: TrackCounter) -> dict[str, str]:
        """Box key -> action text, for each action the engine accepts now that takes the counter to that box."""
        s = self.session
        if s is None or counter.kind == "unit" or self.session.state.pending:
            return {}
        out: dict[str, str] = {}
        if counter.kind == "plane":
            for text in (f"takeoff {counter.cid}", f"abortflight {counter.cid}"):
                after = self._try(text)
                if after is None:
                    continue
                box = next((b["box"] for b in s.rules.track_view(after)["air"]
                            if any(p["id"] == counter.cid for p in b["planes"])), "")
                if box and box != counter.box:
                    out[box] = text
        elif counter.kind == "boat":
            side = self._side_of_boat(counter.cid)
            units = self._held_units or [t.split()[2] for t in self.legal
                                         if t.startswith(f"embark {counter.cid} ")][:1]
            if units:
                for z in self.view.get("map_landing_zones", []):
                    text = f"embark {counter.cid} {'+'.join(units)} lz {z['lz']}"
                    if self._try(text) is not None:
                        out[f"lz:{side}:{z['lz']}"] = text
        return out

    def _try(self, text: str):
        """The game after ``text`` if the engine accepts it now, else None (the game itself is not touched)."""
        try:
            after, _events = self.session.rules.apply(self.session.state, text)
        except IllegalAction:
            return None
        return after

    def pressed(self, counter: TrackCounter, _event) -> None:
        if counter.kind == "boat":
            self._held_units = [c.cid for c in self.counters.values() if c.isSelected() and c.kind == "unit"
                                and c.box == counter.box]
        self.targets = self.candidates(counter)
        counter.setFlag(QGraphicsItem.ItemIsMovable, bool(self.targets))
        for key, b in self.boxes.items():
            b.target = key in self.targets
            b.update()

    def released(self, counter: TrackCounter) -> None:
        targets, self.targets = self.targets, {}
        for b in self.boxes.values():
            b.target = False
            b.update()
        if counter.pos() == counter.home:
            return
        centre = counter.sceneBoundingRect().center()
        where = next((k for k, b in self.boxes.items() if b.rect().contains(centre)), "")
        counter.setPos(counter.home)
        self._held_units = []
        if where in targets:
            QTimer.singleShot(0, self, lambda t=targets[where]: self.act.emit(t))     # the board is redrawn after it
        elif where and where != counter.box:
            title = self.boxes[where].toolTip().split(":")[0]
            self.refused.emit("", f"no action of the game takes {counter.cid} to {title} now"
                              + (f" (it can go to: {', '.join(self.boxes[k].title for k in targets)})" if targets else ""))

    def drag_to(self, kind: str, cid: str, box_key: str) -> str:
        """Drag a counter onto a box as a mouse would (for the keyboard and tests): the action played, or ""."""
        c = self.counters.get((kind, cid))
        if c is None:
            return ""
        self.targets = self.candidates(c)
        text = self.targets.get(box_key, "")
        self.targets = {}
        if text:
            self.act.emit(text)
        return text


def _two_lines(uid: str) -> tuple[str, str]:
    """A unit id on a small counter: "8-II-16-MG1" -> ("8-II-16", "MG1")."""
    head, _, tail = uid.rpartition("-")
    return (head, tail) if head else (uid, "")


def _boat_tip(b: dict) -> str:
    if not b["load"]:
        return f"{b['id']} ({b['type']}) empty" + (", returning" if b["returning"] else "")
    where = "returning" if b["returning"] else f"to Landing Zone {b['lz']}"
    return f"{b['id']} ({b['type']}) {where}: {', '.join(b['load'])}"


def _plane_tip(p: dict) -> str:
    where = ("returning" + (" (aborted)" if p["aborted"] else "")) if p["returning"] else \
        (f"drop zone {p['dz']}" if p["dz"] else "no flight planned")
    return f"{p['id']} {where}: {', '.join(p['load']) if p['load'] else 'empty'}"


class Legend(QWidget):
    """What the colours on the map and the board mean."""

    ROWS = (("Landing Zone (printed on the map)", QColor(30, 90, 200), "thin"),
            ("Landing Zone a loaded boat is bound for", QColor(30, 90, 200), "fill"),
            ("Planned drop zone", QColor(240, 120, 0), "fill"),
            ("Hex picked for a new drop zone", QColor(255, 200, 0), "fill"),
            ("Lit: the zone of the selected boat, flight or action", LIT, "thick"),
            ("Scatter of a drop zone marker", QColor(200, 40, 40), "arrow"),
            ("A flight's drift and landing", QColor(120, 40, 160), "arrow"),
            ("Units landed from the sea (this turn or the last)", QColor(30, 90, 200), "ring"))

    def __init__(self, parent=None):
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 2, 4, 2)
        grid.setVerticalSpacing(1)
        for i, (text, colour, how) in enumerate(self.ROWS):
            sw = QLabel()
            sw.setFixedSize(26, 14)
            a = colour.name()
            style = {"thin": f"border: 1px solid {a}; background: transparent;",
                     "fill": f"border: 3px solid {a}; background: rgba({colour.red()},{colour.green()},"
                             f"{colour.blue()},90);",
                     "thick": f"border: 4px solid {a}; background: transparent;",
                     "arrow": f"border: none; border-bottom: 3px solid {a};",
                     "ring": f"border: 3px solid {a}; border-radius: 7px; background: transparent;"}[how]
            sw.setStyleSheet(style)
            grid.addWidget(sw, i, 0)
            lab = QLabel(text + (" →" if how == "arrow" else ""))
            grid.addWidget(lab, i, 1)
        self.texts = [r[0] for r in self.ROWS]


class TrackBoardDock(QDockWidget):
    """The board of tracks under the map, with the legend of the map's zone colours."""

    def __init__(self, parent=None):
        super().__init__("Sea and Air Movement Tracks", parent)
        self.setObjectName("tcstrackboard")
        body = QWidget()
        lay = QHBoxLayout(body)
        lay.setContentsMargins(4, 2, 4, 2)
        self.board = TrackBoard()
        lay.addWidget(self.board, 1)
        side = QVBoxLayout()
        self.hint = QLabel("Click a boat or a Ju-52 to light its zone on the map; drag it to a box lit green to "
                           "play that action. Ctrl+click waiting units, then drag an empty boat to a Landing Zone "
                           "to embark them; select an empty Ju-52 in Athens and its units, then click the drop "
                           "zone on the map.")
        self.hint.setWordWrap(True)
        self.hint.setMaximumWidth(360)
        side.addWidget(self.hint)
        title = QLabel("<b>On the map</b>")
        side.addWidget(title)
        self.legend = Legend()
        self.legend.setMaximumWidth(360)
        side.addWidget(self.legend)
        side.addStretch(1)
        lay.addLayout(side)
        self.setWidget(body)
