"""Counters on the map: one item per stack, its top counter drawn over a depth edge, and the stack viewer.

A stack is every unit in one hex; hexes are lattice hexes, so a stack in a
hex that two sheets share is one stack whichever sheet it was put on.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from .counterart import CounterArt

COUNTER_SIDE = 1.15          # counter side in lattice units (a hex is 2 across corners, 1.73 across flats)
EDGE_STEP = 0.05             # depth edge offset per counter below the top, lattice units
MAX_EDGES = 4
EDGE_COLOUR = QColor(40, 35, 30)


class StackItem(QGraphicsItem):
    """The units in one hex, top one last; paints the top counter and one edge per counter below it."""

    def __init__(self, hex_, units: list, art: CounterArt, scale: float):
        super().__init__()
        self.hex = hex_
        self.units = list(units)
        self.art = art
        self.scale = scale
        self.side = COUNTER_SIDE * scale
        self.setAcceptHoverEvents(False)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, False)

    @property
    def top(self):
        return self.units[-1]

    def depth(self) -> int:
        return min(MAX_EDGES, len(self.units) - 1)

    def boundingRect(self) -> QRectF:
        s = self.side
        e = EDGE_STEP * self.scale * self.depth()
        return QRectF(-s / 2 - 1, -s / 2 - e - 1, s + e + 2, s + e + 2)

    def counter_rect(self) -> QRectF:
        """Where the top counter is drawn, in item coordinates."""
        s = self.side
        return QRectF(-s / 2, -s / 2, s, s)

    def set_units(self, units: list) -> None:
        self.prepareGeometryChange()
        self.units = list(units)
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        dev = painter.device()
        dpr = dev.devicePixelRatioF() if dev is not None else 1.0
        s = self.side
        step = EDGE_STEP * self.scale
        for i in range(self.depth(), 0, -1):
            # the counters underneath show as edges up and to the right
            r = QRectF(-s / 2 + i * step, -s / 2 - i * step, s, s)
            fill, _ = self.art.colours(self.units[-1 - i])
            painter.fillRect(r, fill.darker(130))
            if lod * s > 20:
                painter.setPen(QPen(EDGE_COLOUR, 0))
                painter.drawRect(r)
        rect = self.counter_rect()
        pm = self.art.picture(self.top, s * lod * dpr, dpr)
        if pm is None:
            fill, _ = self.art.colours(self.top)
            painter.fillRect(rect, fill)
            return
        painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
        painter.drawPixmap(rect, pm, QRectF(0, 0, pm.width(), pm.height()))


class StackViewer(QGraphicsItem):
    """The units of a stack spread side by side beside it, at a readable size whatever the zoom."""

    PAD = 6

    def __init__(self, art: CounterArt):
        super().__init__()
        self.art = art
        self.units: list = []
        self.px = 72
        self.pinned = False
        self.hex = None
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setZValue(100)
        self.hide()

    def show_stack(self, stack: StackItem, pinned: bool = False) -> None:
        self.prepareGeometryChange()
        self.units = list(reversed(stack.units))       # top counter first
        self.hex = stack.hex
        self.pinned = pinned
        self.setPos(stack.pos() + QPointF(stack.side * 0.6, -stack.side * 0.6))
        self.show()
        self.update()

    def close(self) -> None:
        self.pinned = False
        self.hex = None
        self.hide()

    def boundingRect(self) -> QRectF:
        n = max(1, len(self.units))
        w = n * (self.px + self.PAD) + self.PAD
        return QRectF(0, -self.px - 2 * self.PAD - 14, w, self.px + 2 * self.PAD + 14)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = self.boundingRect()
        painter.setPen(QPen(QColor(30, 30, 30), 1))
        painter.setBrush(QBrush(QColor(250, 248, 240, 235)))
        painter.drawRoundedRect(r, 6, 6)
        font = QFont("DejaVu Sans")
        font.setPixelSize(11)
        painter.setFont(font)
        painter.drawText(QRectF(r.left() + self.PAD, r.top() + 2, r.width(), 14), Qt.AlignLeft,
                         f"{len(self.units)} unit(s), top first")
        dev = painter.device()
        dpr = dev.devicePixelRatioF() if dev is not None else 1.0
        for i, unit in enumerate(self.units):
            x = r.left() + self.PAD + i * (self.px + self.PAD)
            target = QRectF(x, r.top() + 16 + self.PAD / 2, self.px, self.px)
            pm = self.art.picture(unit, self.px * dpr, dpr)
            if pm is None:
                painter.fillRect(target, self.art.colours(unit)[0])
            else:
                painter.drawPixmap(target, pm, QRectF(0, 0, pm.width(), pm.height()))
