"""Counters on the map: stacks with their top counter over a depth edge, and the stack viewer.

A stack is every unit in one hex; hexes are lattice hexes, so a stack in a
hex that two sheets share is one stack whichever sheet it was put on.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem

from gui.scene.counterart import CounterArt, art_key

COUNTER_SIDE = 1.15          # counter side in lattice units (a hex is 2 across corners, 1.73 across flats)
EDGE_STEP = 0.05             # depth edge offset per counter below the top, lattice units
MAX_EDGES = 4
EDGE_COLOUR = QColor(40, 35, 30)


class CountersLayer:
    """Every stack on the map: visible stacks are found with numpy and painted in one call.

    A stack is the list of units in a hex, the top one last.  It shows its top
    counter and one edge per counter underneath (up to ``MAX_EDGES``).  The map
    view paints this layer into its cached background, so panning does not
    paint counters again; ``changed`` callers repaint the part that changed.
    """

    def __init__(self, art: CounterArt, scale: float, centre):
        self.visible = True
        self.art = art
        self.scale = scale
        self.side = COUNTER_SIDE * scale
        self.centre = centre                 # hex -> QPointF (scene)
        self.stacks: dict = {}
        self.top_of: dict = {}               # unit id (and picture key) of each stack's top counter -> its hex
        self._hexes: list = []
        self._xy = np.zeros((0, 2))
        self._rect = QRectF()
        self.drawn = 0
        self.lifted = None                   # the hex whose top counter is being moved

    def set_stacks(self, stacks: dict) -> None:
        """Replace every stack: ``{hex: [unit, ...]}``, top unit last."""
        self.stacks = {h: list(u) for h, u in stacks.items() if u}
        self._hexes = list(self.stacks)
        self.top_of = {units[-1].id: h for h, units in self.stacks.items()}
        self.top_of.update({art_key(units[-1]): h for h, units in self.stacks.items()})
        pts = [self.centre(h) for h in self._hexes]
        self._xy = np.array([(p.x(), p.y()) for p in pts], dtype=float).reshape(-1, 2)
        if len(self._xy):
            m = self.side
            lo, hi = self._xy.min(axis=0), self._xy.max(axis=0)
            self._rect = QRectF(lo[0] - m, lo[1] - m, hi[0] - lo[0] + 2 * m, hi[1] - lo[1] + 2 * m)
        else:
            self._rect = QRectF()

    def rect(self) -> QRectF:
        return self._rect

    def counter_rect(self, h) -> QRectF:
        """Where the top counter of the stack in ``h`` is drawn (scene coordinates)."""
        c = self.centre(h)
        s = self.side
        return QRectF(c.x() - s / 2, c.y() - s / 2, s, s)

    def stack_rect(self, h) -> QRectF:
        """The counter and its depth edges (scene coordinates)."""
        e = EDGE_STEP * self.scale * MAX_EDGES
        return self.counter_rect(h).adjusted(-1, -e - 1, e + 1, 1)

    def paint(self, painter: QPainter, r: QRectF, dpr: float = 1.0, fast: bool = False) -> None:
        """Paint the stacks that meet ``r`` (scene coordinates); ``fast``: no smoothing."""
        s = self.side
        reach = s * 0.5 + EDGE_STEP * self.scale * MAX_EDGES
        xy = self._xy
        self.drawn = 0
        if not len(xy) or not self.visible:
            return
        m = (xy[:, 0] >= r.left() - reach) & (xy[:, 0] <= r.right() + reach) & \
            (xy[:, 1] >= r.top() - reach) & (xy[:, 1] <= r.bottom() + reach)
        idx = np.nonzero(m)[0]
        self.drawn = len(idx)
        if not len(idx):
            return
        world = QTransform(painter.worldTransform())  # a copy: the painter's own changes below
        if world.type().value > QTransform.TxScale.value:
            return
        # drawn in device pixels: Qt's raster engine blits far faster without a scaling world transform
        zoom, dx, dy = world.m11(), world.dx(), world.dy()
        side = round(s * zoom)
        if side < 1:
            return
        step = EDGE_STEP * self.scale * zoom
        colours = self.art.colours
        pictures = self.art.pictures_for(side * dpr, dpr)    # None: too small for art
        stacks, hexes, lifted = self.stacks, self._hexes, self.lifted
        dev_xy = xy[idx] * zoom + (dx - side / 2, dy - side / 2)
        painter.save()
        painter.resetTransform()
        if pictures is None:
            self._paint_squares(painter, idx.tolist(), dev_xy.round().astype(int).tolist(), side, step)
            painter.restore()
            return
        outline = side > 20 and not fast
        painter.setPen(QPen(EDGE_COLOUR, 0) if outline else Qt.NoPen)
        painter.setRenderHint(QPainter.SmoothPixmapTransform, not fast)
        offsets = [round(d * step) for d in range(MAX_EDGES + 1)]
        fill, rect, brush, draw = painter.fillRect, painter.drawRect, painter.setBrush, painter.drawPixmap
        stand_in = self.art.stand_in
        # plain Python numbers: Qt's bindings convert numpy scalars slowly
        for i, x0, y0 in zip(idx.tolist(), *dev_xy.round().astype(int).T.tolist()):
            h = hexes[i]
            units = stacks[h]
            if h == lifted:
                units = units[:-1]
                if not units:
                    continue
            n = len(units)
            if n > 1:
                for d in range(min(MAX_EDGES, n - 1), 0, -1):
                    # the counters underneath show as edges up and to the right
                    e = offsets[d]
                    if outline:
                        brush(colours(units[-1 - d])[2])
                        rect(x0 + e, y0 - e, side, side)
                    else:
                        fill(x0 + e, y0 - e, side, side, colours(units[-1 - d])[2])
            top = units[-1]
            pm = pictures.get(art_key(top))
            if pm is None:
                pm = stand_in(top, side * dpr, dpr)
            if pm is None:
                fill(x0, y0, side, side, colours(top)[0])
            else:
                draw(x0, y0, side, side, pm)
        painter.restore()


    def _paint_squares(self, painter: QPainter, idx: list, corners: list, side: int, step: float) -> None:
        """Counters too small for art: coloured squares, gathered by depth and colour and drawn one
        call per colour (stacks never overlap one another, so only the depth order matters)."""
        colours, stacks, hexes, lifted = self.art.colours, self.stacks, self._hexes, self.lifted
        offsets = [round(d * step) for d in range(MAX_EDGES + 1)]
        layers: list[dict] = [{} for _ in range(MAX_EDGES + 1)]     # depth -> colour -> (QColor, rects)
        for i, (x0, y0) in zip(idx, corners):
            h = hexes[i]
            units = stacks[h]
            if h == lifted:
                units = units[:-1]
            for d in range(min(MAX_EDGES, len(units) - 1), -1, -1):
                c = colours(units[-1 - d])[2 if d else 0]      # the top counter's fill, edges underneath
                e = offsets[d]
                group = layers[d].get(c.rgba())
                if group is None:
                    group = layers[d][c.rgba()] = (c, [])
                group[1].append(QRect(x0 + e, y0 - e, side, side))
        painter.setPen(Qt.NoPen)
        for layer in reversed(layers):                  # the deepest edges first, the top counters last
            for c, rects in layer.values():
                painter.setBrush(c)
                painter.drawRects(rects)


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
        self.decorate = None        # (painter, unit, counter rect) -> None: a ruleset's marks on each counter
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self.setZValue(100)
        self.hide()

    def show_stack(self, hex_, units: list, where: QPointF, pinned: bool = False) -> None:
        """Show the units of the stack in ``hex_`` (top first) with the viewer's corner at ``where``."""
        self.prepareGeometryChange()
        self.units = list(reversed(units))       # top counter first
        self.hex = hex_
        self.pinned = pinned
        self.setPos(where)
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
        dpr = widget.devicePixelRatioF() if widget is not None else 1.0
        for i, unit in enumerate(self.units):
            x = r.left() + self.PAD + i * (self.px + self.PAD)
            target = QRectF(x, r.top() + 16 + self.PAD / 2, self.px, self.px)
            pm = self.art.picture(unit, self.px * dpr, dpr)
            if pm is None:
                painter.fillRect(target, self.art.colours(unit)[0])
            else:
                painter.drawPixmap(target, pm, QRectF(0, 0, pm.width(), pm.height()))
            if self.decorate is not None:
                self.decorate(painter, unit, target)
