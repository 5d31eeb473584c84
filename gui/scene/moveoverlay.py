"""What a picked-up counter shows: its legal destinations lit with their costs, and the counter itself under the cursor."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

LIT = QColor(70, 190, 90, 90)
LIT_EDGE = QColor(20, 120, 40, 220)
COST_INK = QColor(10, 60, 20)



def cost_text(cost) -> str:
    """A movement cost as a player reads it: ``1`` for 1.0, ``1.5`` for 1.5."""
    if isinstance(cost, float) and cost.is_integer():
        return str(int(cost))
    return str(cost)

class DestinationsOverlay(QGraphicsItem):
    """Legal destinations of the unit being moved: each hex lit, its movement cost written in it."""

    def __init__(self, board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.costs: dict = {}
        self._path = QPainterPath()
        self._rect = QRectF()
        self.setZValue(30)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def show_costs(self, costs: dict) -> None:
        """Light these hexes (``{hex: cost or None}``); an empty dict hides the overlay."""
        self.prepareGeometryChange()
        self.costs = dict(costs)
        lay, s = self.board.layout, self.scale
        path = QPainterPath()
        for h in self.costs:
            path.addPolygon(QPolygonF([QPointF(x * s, y * s) for x, y in lay.polygon_corners(h)]))
            path.closeSubpath()
        self._path = path
        self._rect = path.boundingRect().adjusted(-2, -2, 2, 2)
        self.setVisible(bool(self.costs))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        pen = QPen(LIT_EDGE, 2)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(LIT)
        painter.drawPath(self._path)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if lod * self.scale < 12:
            return
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(max(1, int(self.scale * 0.42)))
        painter.setFont(font)
        painter.setPen(COST_INK)
        s = self.scale
        for h, cost in self.costs.items():
            if cost is None:
                continue
            x, y = self.board.center(h)
            painter.drawText(QRectF(x * s - s / 2, y * s + s * 0.25, s, s * 0.6), Qt.AlignCenter, cost_text(cost))


class CounterGhost(QGraphicsItem):
    """The counter being dragged, drawn at counter size under the cursor."""

    def __init__(self, art, unit, side: float):
        super().__init__()
        self.art, self.unit, self.side = art, unit, side
        self.setZValue(40)
        self.setOpacity(0.9)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def boundingRect(self) -> QRectF:
        s = self.side
        return QRectF(-s / 2 - 2, -s / 2 - 2, s + 4, s + 4)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        s = self.side
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        dpr = widget.devicePixelRatioF() if widget is not None else 1.0
        target = QRectF(-s / 2, -s / 2, s, s)
        pm = self.art.picture(self.unit, s * lod * dpr, dpr)
        painter.setPen(QPen(QColor(255, 230, 80), 0))
        if pm is None:
            painter.fillRect(target, self.art.colours(self.unit)[0])
        else:
            painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
            painter.drawPixmap(target, pm, QRectF(0, 0, pm.width(), pm.height()))
        painter.drawRect(target)


class SelectionMarks(QGraphicsItem):
    """A yellow frame round each selected stack."""

    def __init__(self, rect_of, colour: QColor = QColor(255, 215, 0), width: float = 3, z: float = 35):
        super().__init__()
        self.rect_of = rect_of            # hex -> scene rectangle of its stack
        self.colour, self.width = QColor(colour), width
        self.hexes: set = set()
        self._rect = QRectF()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def show_hexes(self, hexes) -> None:
        self.prepareGeometryChange()
        self.hexes = set(hexes)
        r = QRectF()
        for h in self.hexes:
            r = r.united(self.rect_of(h))
        self._rect = r.adjusted(-6, -6, 6, 6)
        self.setVisible(bool(self.hexes))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        pen = QPen(self.colour, self.width)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.NoBrush)
        for h in self.hexes:
            painter.drawRect(self.rect_of(h))


class ReadyMarks(SelectionMarks):
    """A frame round each counter whose unit may act now: a bright line on a dark one, never smaller on screen than
    ``min_px`` square, so that it is seen at the zoom a whole map opens at as well as close up."""

    def __init__(self, rect_of, colour: QColor = QColor(0, 230, 255), min_px: float = 26, z: float = 30):
        super().__init__(rect_of, colour, 3, z)
        self.min_px = min_px
        self.zoom = 1.0                   # screen pixels per scene unit, set by the view as it zooms

    def set_zoom(self, zoom: float) -> None:
        if zoom > 0 and zoom != self.zoom:
            self.zoom = zoom
            self.show_hexes(self.hexes)   # the frames' scene size changes with the zoom

    def frame(self, h) -> QRectF:
        """The scene rectangle framed round hex ``h``'s counter: the counter's, or wider to reach ``min_px``."""
        r = self.rect_of(h)
        side = self.min_px / self.zoom
        if r.width() >= side and r.height() >= side:
            return r
        c = r.center()
        w, hgt = max(r.width(), side), max(r.height(), side)
        return QRectF(c.x() - w / 2, c.y() - hgt / 2, w, hgt)

    def show_hexes(self, hexes) -> None:
        self.prepareGeometryChange()
        self.hexes = set(hexes)
        r = QRectF()
        for h in self.hexes:
            r = r.united(self.frame(h))
        pad = 6 / self.zoom
        self._rect = r.adjusted(-pad, -pad, pad, pad)
        self.setVisible(bool(self.hexes))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setBrush(Qt.NoBrush)
        for colour, width in ((QColor(20, 20, 30, 230), self.width + 2.5), (self.colour, self.width)):
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            pen.setJoinStyle(Qt.MiterJoin)
            painter.setPen(pen)
            for h in self.hexes:
                painter.drawRect(self.frame(h))


class LineMarks(QGraphicsItem):
    """A line of hexes drawn on the map (a victory condition's free line), centre to centre."""

    def __init__(self, centre, colour: QColor = QColor(255, 140, 0, 220), z: float = 28):
        super().__init__()
        self.centre = centre              # hex -> scene point of its centre
        self.colour = QColor(colour)
        self.hexes: list = []
        self._path = QPainterPath()
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.hide()

    def show_hexes(self, hexes: list) -> None:
        self.prepareGeometryChange()
        self.hexes = list(hexes)
        path = QPainterPath()
        for i, h in enumerate(self.hexes):
            p = self.centre(h)
            path.moveTo(p) if i == 0 else path.lineTo(p)
        self._path = path
        self.setVisible(len(self.hexes) > 1)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(-12, -12, 12, 12)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        pen = QPen(self.colour, 6, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.NoBrush)
        painter.drawPath(self._path)
        painter.setBrush(self.colour)
        r = 5 / max(option.levelOfDetailFromTransform(painter.worldTransform()), 1e-3)
        for h in self.hexes[:1] + self.hexes[-1:]:
            painter.drawEllipse(self.centre(h), r, r)
