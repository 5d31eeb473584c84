"""What a TCS game draws over the map: Op Sheet objectives and routes, barrages and their attack zones,
hexes being picked for a sheet or a mission, and each counter's state (mode, suppressed, paralyzed, steps lost).

Every shape comes from the engine's answers (``op_sheet_geometry``, the state's
markers and missions, ``unit_status``); these items only paint them.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

OBJECTIVE = QColor(230, 60, 200)
ROUTE = QColor(230, 60, 200)
DRAFT = QColor(255, 200, 0)
ZONE = QColor(220, 40, 30, 60)
ZONE_EDGE = QColor(200, 30, 20, 200)
SMOKE = QColor(200, 200, 200, 110)
ILLUM = QColor(255, 250, 150, 90)
MISSION = QColor(255, 120, 0)
BREACH = {"breach-partial": QColor(240, 170, 20, 120), "breach-full": QColor(60, 170, 60, 110),
          "breach-breaching": QColor(240, 90, 20, 120)}
MODE_MOVE = QColor(40, 120, 220)
MODE_FIRE = QColor(200, 40, 40)


def _geometry_path(geom, s: float) -> QPainterPath:
    """A shapely geometry in lattice coordinates as a painter path in scene coordinates (scale ``s``)."""
    path = QPainterPath()
    if geom is None or geom.is_empty:
        return path
    kind = geom.geom_type
    if kind.startswith("Multi") or kind == "GeometryCollection":
        for g in geom.geoms:
            path.addPath(_geometry_path(g, s))
        return path
    if kind == "Polygon":
        for ring in (geom.exterior, *geom.interiors):
            path.addPolygon(QPolygonF([QPointF(x * s, y * s) for x, y in ring.coords]))
            path.closeSubpath()
    elif kind == "LineString":
        pts = list(geom.coords)
        path.moveTo(pts[0][0] * s, pts[0][1] * s)
        for x, y in pts[1:]:
            path.lineTo(x * s, y * s)
    elif kind == "Point":
        r = 0.45 * s
        path.addEllipse(QPointF(geom.x * s, geom.y * s), r, r)
    return path


class SheetMarks(QGraphicsItem):
    """The selected Op Sheet's objective (an area or a point) and route, and a sheet being drawn."""

    def __init__(self, board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.objective = QPainterPath()
        self.route = QPainterPath()
        self.draft_objective = QPainterPath()
        self.draft_route = QPainterPath()
        self.label = ""
        self.setZValue(26)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def _hexes_area(self, hexes) -> QPainterPath:
        path = QPainterPath()
        lay, s = self.board.layout, self.scale
        for h in hexes:
            path.addPolygon(QPolygonF([QPointF(x * s, y * s) for x, y in lay.polygon_corners(h)]))
            path.closeSubpath()
        return path

    def _hexes_line(self, hexes) -> QPainterPath:
        path = QPainterPath()
        s = self.scale
        for i, h in enumerate(hexes):
            x, y = self.board.center(h)
            path.moveTo(x * s, y * s) if i == 0 else path.lineTo(x * s, y * s)
        return path

    def show_sheet(self, objective, route, label: str = "") -> None:
        """The engine's geometry of one sheet (lattice coordinates); None, None hides it."""
        self.prepareGeometryChange()
        self.objective = _geometry_path(objective, self.scale)
        self.route = _geometry_path(route, self.scale)
        self.label = label
        self.update()

    def show_draft(self, objective: list, route: list) -> None:
        """Hexes picked so far for a new sheet: its objective hexes and its route through hex centres."""
        self.prepareGeometryChange()
        self.draft_objective = self._hexes_area(objective)
        self.draft_route = self._hexes_line(route)
        if len(route) == 1:
            x, y = self.board.center(route[0])
            self.draft_route.addEllipse(QPointF(x * self.scale, y * self.scale), 0.2 * self.scale, 0.2 * self.scale)
        self.update()

    def boundingRect(self) -> QRectF:
        r = QRectF()
        for p in (self.objective, self.route, self.draft_objective, self.draft_route):
            if not p.isEmpty():
                r = r.united(p.boundingRect())
        return r.adjusted(-self.scale, -self.scale, self.scale, self.scale)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        for obj, route, colour in ((self.objective, self.route, OBJECTIVE),
                                   (self.draft_objective, self.draft_route, DRAFT)):
            pen = QPen(colour, 4, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
            pen.setCosmetic(True)
            painter.setPen(pen)
            fill = QColor(colour)
            fill.setAlpha(70)
            painter.setBrush(fill)
            painter.drawPath(obj)
            pen.setStyle(Qt.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            painter.drawPath(route)
        if self.label and not self.objective.isEmpty():
            font = QFont("DejaVu Sans")
            font.setBold(True)
            font.setPixelSize(max(1, int(self.scale * 0.5)))
            painter.setFont(font)
            painter.setPen(OBJECTIVE.darker(150))
            r = self.objective.boundingRect()
            painter.drawText(QRectF(r.left() - self.scale, r.top() - self.scale * 0.8, r.width() + 2 * self.scale,
                                    self.scale * 0.7), Qt.AlignCenter, self.label)


class BarrageMarks(QGraphicsItem):
    """Barrage, smoke and illumination markers with their attack zones; missions placed and not yet fired."""

    def __init__(self, board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.markers: list = []         # (label, kind, hex, zone hexes)
        self.missions: list = []        # (label, hex)
        self.picked = None              # a target hex being chosen
        self.setZValue(24)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def show_marks(self, markers: list, missions: list, picked=None) -> None:
        self.prepareGeometryChange()
        self.markers, self.missions, self.picked = list(markers), list(missions), picked
        self.setVisible(bool(self.markers or self.missions or self.picked is not None))
        self.update()

    def _poly(self, h) -> QPolygonF:
        s = self.scale
        return QPolygonF([QPointF(x * s, y * s) for x, y in self.board.layout.polygon_corners(h)])

    def _centre(self, h) -> QPointF:
        x, y = self.board.center(h)
        return QPointF(x * self.scale, y * self.scale)

    def boundingRect(self) -> QRectF:
        hexes = [h for _l, _k, h, z in self.markers for h in [h, *z]] + [h for _l, h in self.missions]
        if self.picked is not None:
            hexes.append(self.picked)
        r = QRectF()
        for h in hexes:
            r = r.united(self._poly(h).boundingRect())
        return r.adjusted(-self.scale, -self.scale, self.scale, self.scale)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        s = self.scale
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(1, int(s * 0.32)))
        painter.setFont(font)
        for label, kind, h, zone in self.markers:
            fill = {"smoke": SMOKE, "illum": ILLUM, **BREACH}.get(kind, ZONE)
            pen = QPen(ZONE_EDGE if kind == "he" else fill.darker(160), 2)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(fill)
            for z in zone:
                painter.drawPolygon(self._poly(z))
            c = self._centre(h)
            wide = max(s * 0.84, painter.fontMetrics().horizontalAdvance(label) + s * 0.12)   # the whole label
            box = QRectF(c.x() - wide / 2, c.y() - s * 0.78, wide, s * 0.36)
            painter.setBrush(QColor(250, 250, 240, 235))
            painter.drawRect(box)
            painter.setPen(QColor(20, 20, 20))
            painter.drawText(box, Qt.AlignCenter, label)
        for label, h in self.missions:
            pen = QPen(MISSION, 3, Qt.DashLine)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            painter.drawPolygon(self._poly(h))
            c = self._centre(h)
            painter.drawLine(QPointF(c.x() - s * 0.3, c.y()), QPointF(c.x() + s * 0.3, c.y()))
            painter.drawLine(QPointF(c.x(), c.y() - s * 0.3), QPointF(c.x(), c.y() + s * 0.3))
            painter.setPen(MISSION.darker(150))
            painter.drawText(QRectF(c.x() - s, c.y() + s * 0.45, 2 * s, s * 0.4), Qt.AlignCenter, label)
        if self.picked is not None:
            pen = QPen(MISSION, 4)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(QBrush(QColor(255, 160, 0, 60)))
            painter.drawPolygon(self._poly(self.picked))


class UnitStateMarks(QGraphicsItem):
    """Each counter's state, as ``unit_status`` gives it, in small flags on the top counter of its stack:
    its mode (M or F), Suppressed (S) or Paralyzed (P), and the steps lost (-1)."""

    def __init__(self, counters):
        super().__init__()
        self.counters = counters        # the map's counter layer: where each stack's top counter is drawn
        self.states: dict = {}          # hex -> (mode, morale, steps lost, steps)
        self._rect = QRectF()
        self.setZValue(22)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def show_states(self, states: dict) -> None:
        self.prepareGeometryChange()
        self.states = dict(states)
        r = QRectF()
        for h in self.states:
            r = r.united(self.counters.counter_rect(h))
        self._rect = r.adjusted(-4, -4, 4, 4)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        side = self.counters.side
        if lod * side < 18:
            return                      # too small to read: the counters alone
        painter.setRenderHint(QPainter.Antialiasing, True)
        for h, state in self.states.items():
            paint_state(painter, self.counters.counter_rect(h), side, state)


def paint_state(painter: QPainter, r: QRectF, side: float, state: tuple) -> None:
    """A counter's state flags in the counter rect ``r`` (``side`` across): mode, morale state, steps lost."""
    mode, morale, lost, _steps = state
    font = QFont("DejaVu Sans")
    font.setBold(True)
    font.setPixelSize(max(1, int(side * 0.2)))
    painter.setFont(font)
    f = side * 0.27
    flag = QRectF(r.left() - f * 0.25, r.top() - f * 0.25, f, f)
    painter.setPen(QPen(QColor(255, 255, 255), 0))
    painter.setBrush(MODE_MOVE if mode == "move" else MODE_FIRE)
    painter.drawRoundedRect(flag, f * 0.2, f * 0.2)
    painter.drawText(flag, Qt.AlignCenter, "M" if mode == "move" else "F")
    if morale in ("suppressed", "paralyzed"):
        m = QRectF(r.right() - f * 0.75, r.top() - f * 0.25, f, f)
        painter.setBrush(QColor(240, 200, 0) if morale == "suppressed" else QColor(120, 0, 160))
        painter.setPen(QPen(QColor(20, 20, 20), 0))
        painter.drawRoundedRect(m, f * 0.2, f * 0.2)
        painter.setPen(QColor(20, 20, 20) if morale == "suppressed" else QColor(255, 255, 255))
        painter.drawText(m, Qt.AlignCenter, "S" if morale == "suppressed" else "P")
    if lost:
        box = QRectF(r.right() - f * 1.05, r.bottom() - f * 0.75, f * 1.3, f)
        painter.setPen(QPen(QColor(255, 255, 255), 0))
        painter.setBrush(QColor(20, 20, 20))
        painter.drawRoundedRect(box, f * 0.2, f * 0.2)
        painter.drawText(box, Qt.AlignCenter, f"-{int(lost)}")
