"""The hex grid and hex ids over the whole board, painted only where the view shows them.

The board's hexes are grouped into square blocks; each block has its own
QPainterPath of hex edges (every edge once), and painting draws only the
blocks that meet the exposed rectangle.  The grid is left out when hexes are
too small on screen to tell apart (the scan shows its printed grid anyway),
and hex ids are drawn only for visible hexes big enough to read them, as
prepared static texts in screen pixels.
"""
from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPainterPath, QPen, QStaticText, QTransform

from engine.maps.board import Board

BLOCK = 6.0            # block side in lattice units (hex sizes)
GRID_MIN_PX = 20.0     # a hex must be this many screen pixels across its corners to show the grid
SMOOTH_MIN_PX = 28.0   # ... and this many for antialiased grid lines
IDS_MIN_PX = 48.0      # ... and this many to show its id
GRID_COLOUR = QColor(25, 25, 60, 150)
# while the view moves the grid is drawn opaque, in the colour GRID_COLOUR has over the
# map's paper: blending each line pixel costs several times more than writing it
FAST_GRID_COLOUR = QColor(106, 103, 114)
ID_COLOUR = QColor(15, 15, 45, 230)
# the still grid stroked opaque into a layer laid on translucent (``_paint_translucent``);
# SANDTABLE_GRID_LAYER=0 strokes it translucent straight onto the map, as before (for the benchmark)
LAYERED = os.environ.get("SANDTABLE_GRID_LAYER", "1") != "0"


class GridLayer:
    """The board's hex grid and ids in scene coordinates (``scale`` scene units per lattice unit)."""

    def __init__(self, board: Board, scale: float):
        self.board, self.scale = board, scale
        self.show_grid = True
        self.show_ids = True
        self.ids_drawn = 0
        self.blocks_drawn = 0
        lay = board.layout
        hexes = board.hexes()
        self._ids = [board.hex_id(h) for h in hexes]
        self._centres = np.array([lay.hex_to_pixel(h) for h in hexes], dtype=float).reshape(-1, 2) * scale
        self._texts: dict[int, list[QStaticText | None]] = {}
        # hexes by block; a block's path of edges is built the first time the block is shown
        self._on_board = set(hexes)
        self._hexes = hexes
        self._members: dict[tuple[int, int], list[int]] = {}
        cell = BLOCK * scale
        for i, (cx, cy) in enumerate(self._centres.tolist()):
            self._members.setdefault((int(cx // cell), int(cy // cell)), []).append(i)
        self._blocks: dict[tuple[int, int], QPainterPath] = {}
        self._edges = None                                  # (corner offsets, neighbour across each edge)
        self._block_rects: dict[tuple[int, int], QRectF] = {}
        for key, members in self._members.items():
            c = self._centres[members]
            lo, hi = c.min(axis=0) - scale, c.max(axis=0) + scale
            self._block_rects[key] = QRectF(lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1])
        self._zoom = None                                   # the zoom of the device-pixel paths below
        self._device_paths: dict[tuple[int, int], QPainterPath] = {}
        rect = QRectF()
        for r in self._block_rects.values():
            rect = rect.united(r)
        self.rect = rect

    def blocks(self) -> list[tuple[int, int]]:
        """The keys of every block, to build their paths ahead of time (``_block_path``)."""
        return list(self._members)

    def _block_path(self, key: tuple[int, int]) -> QPainterPath:
        """The edges of one block's hexes, built once."""
        path = self._blocks.get(key)
        if path is not None:
            return path
        on_board = self._on_board
        if self._edges is None:
            # corner offsets and the neighbour across each edge are the same for every hex
            lay, scale = self.board.layout, self.scale
            origin = type(self._hexes[0])(0, 0) if self._hexes else None
            self._edges = ([(x * scale, y * scale) for x, y in (lay.corner_offset(k) for k in range(6))],
                           [_neighbour_across(lay, origin, k) for k in range(6)])
        offsets, across = self._edges
        path = QPainterPath()
        for i in self._members[key]:
            h = self._hexes[i]
            cx, cy = self._centres[i].tolist()
            for k in range(6):
                # each edge once: drawn by the hex whose neighbour across it is smaller or off the board
                n = h + across[k]
                if n in on_board and (n.q, n.r) < (h.q, h.r):
                    continue
                (ax, ay), (bx, by) = offsets[k], offsets[(k + 1) % 6]
                path.moveTo(cx + ax, cy + ay)
                path.lineTo(cx + bx, cy + by)
        self._blocks[key] = path
        return path

    def _blocks_meeting(self, exposed: QRectF) -> list[tuple[int, int]]:
        """The keys of the blocks that may meet ``exposed``, found by their cells (not a loop over all)."""
        cell, m = BLOCK * self.scale, self.scale       # a block reaches one hex beyond its cell
        c0, c1 = int((exposed.left() - m) // cell), int((exposed.right() + m) // cell)
        r0, r1 = int((exposed.top() - m) // cell), int((exposed.bottom() + m) // cell)
        if (c1 - c0 + 1) * (r1 - r0 + 1) > len(self._block_rects):
            return list(self._block_rects)
        rects = self._block_rects
        return [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (c, r) in rects]

    def paint(self, painter: QPainter, exposed: QRectF, fast: bool = False) -> None:
        """Paint the grid and ids inside ``exposed`` (scene coordinates); ``fast``: no antialiasing."""
        t = QTransform(painter.worldTransform())  # a copy: the painter's own changes below
        hex_px = 2 * self.scale * (abs(t.m11() * t.m22() - t.m12() * t.m21())) ** 0.5
        self.blocks_drawn = 0
        if self.show_grid and hex_px >= GRID_MIN_PX:
            pen = QPen(FAST_GRID_COLOUR if fast else GRID_COLOUR)
            pen.setCosmetic(True)
            pen.setWidthF(1.0 if hex_px < 80 else 1.5)
            painter.save()
            painter.setPen(pen)
            smooth = hex_px >= SMOOTH_MIN_PX and not fast
            painter.setRenderHint(QPainter.Antialiasing, smooth)
            # while moving, the lattice paths under the scaling transform: an opaque line without
            # antialiasing strokes as fast that way, and a zoom step maps no paths
            plain = t.m12() == 0 and t.m21() == 0 and t.m11() == t.m22() and not fast
            if plain:
                # paths in device pixels for this zoom, drawn with only a translation: a scaling
                # world transform makes Qt's raster engine stroke several times slower
                if self._zoom != t.m11():
                    self._zoom = t.m11()
                    self._device_paths.clear()
                zoom = QTransform.fromScale(t.m11(), t.m11())
                painter.resetTransform()
                painter.translate(t.dx(), t.dy())
            keys = [k for k in self._blocks_meeting(exposed) if self._block_rects[k].intersects(exposed)]
            if plain:
                paths = []
                for key in keys:
                    dp = self._device_paths.get(key)
                    if dp is None:
                        dp = self._device_paths[key] = zoom.map(self._block_path(key))
                    paths.append(dp)
                if smooth and pen.widthF() > 1.0 and GRID_COLOUR.alpha() < 255 and LAYERED:
                    _paint_translucent(painter, paths, t.mapRect(exposed), QPointF(t.dx(), t.dy()), pen)
                else:
                    for dp in paths:
                        painter.drawPath(dp)
            else:
                for key in keys:
                    painter.drawPath(self._block_path(key))
            self.blocks_drawn += len(keys)
            painter.restore()
        self.ids_drawn = 0
        # while the view moves, ids wait: text is the dearest thing to draw, and it comes back once still
        if self.show_ids and hex_px >= IDS_MIN_PX and not fast:
            self._paint_ids(painter, exposed, hex_px)

    def _paint_ids(self, painter: QPainter, exposed: QRectF, hex_px: float) -> None:
        s = self.scale
        c = self._centres
        m = (c[:, 0] >= exposed.left() - s) & (c[:, 0] <= exposed.right() + s) & \
            (c[:, 1] >= exposed.top() - s) & (c[:, 1] <= exposed.bottom() + s)
        idx = np.nonzero(m)[0]
        if not len(idx):
            return
        px = int(min(15, max(8, hex_px * 0.11)))
        texts = self._texts.setdefault(px, [None] * len(self._ids))
        font = QFont("DejaVu Sans")
        font.setPixelSize(px)
        world = QTransform(painter.worldTransform())  # a copy: the painter's own changes below
        pts = c[idx].copy()
        pts[:, 1] -= s * 0.80           # ids sit near the top of the hex, as printed ids do
        painter.save()
        painter.resetTransform()
        painter.setFont(font)
        painter.setPen(ID_COLOUR)
        for i, (x, y) in zip(idx.tolist(), pts.tolist()):   # plain numbers: numpy scalars convert slowly
            st = texts[i]
            if st is None:
                st = QStaticText(self._ids[i])
                st.prepare(QTransform(), font)
                texts[i] = st
            p = world.map(QPointF(x, y))
            w = st.size().width()
            painter.drawStaticText(QPointF(p.x() - w / 2, p.y()), st)
            self.ids_drawn += 1
        painter.restore()


def _paint_translucent(painter: QPainter, paths: list[QPainterPath], device: QRectF, origin: QPointF,
                       pen: QPen) -> None:
    """Stroke device-pixel paths (``origin``: where the painter's translation puts them) in the pen's colour
    made opaque into a transparent layer over ``device``, then lay the layer on with the colour's opacity.
    Only for lines wider than a pixel: a one-pixel smooth line is stroked fast in any colour, and the layer's
    own cost (filling it, laying it on) is then the greater (63 blocks at 0.19x: 1.78 ms against 0.22 ms).

    The same picture as stroking in the translucent colour (where lines cross, better: blended once), for a
    third of the time: Qt's raster engine strokes an antialiased line wider than a pixel several times
    slower in a translucent colour than in an opaque one (1,890 edges: 9.2 ms against 3.3 ms of CPU).
    """
    area = device.toAlignedRect().intersected(QRect(QPoint(0, 0), painter.device().size()
                                                    / max(1.0, painter.device().devicePixelRatioF())))
    if area.isEmpty():
        return
    dpr = painter.device().devicePixelRatioF()
    layer = QImage(area.size() * dpr, QImage.Format_ARGB32_Premultiplied)
    layer.setDevicePixelRatio(dpr)
    layer.fill(Qt.transparent)
    solid = QPen(pen)
    colour = QColor(pen.color())
    colour.setAlpha(255)
    solid.setColor(colour)
    p = QPainter(layer)
    p.setRenderHint(QPainter.Antialiasing, True)
    p.setPen(solid)
    p.translate(origin.x() - area.left(), origin.y() - area.top())
    for path in paths:
        p.drawPath(path)
    p.end()
    painter.save()
    painter.resetTransform()
    painter.setOpacity(pen.color().alphaF())
    painter.drawImage(area.topLeft(), layer)
    painter.restore()


def _neighbour_across(layout, h, corner: int):
    """The neighbour across the edge from corner ``corner`` to ``corner + 1``."""
    cs = layout.polygon_corners(h)
    mx = (cs[corner][0] + cs[(corner + 1) % 6][0]) / 2
    my = (cs[corner][1] + cs[(corner + 1) % 6][1]) / 2
    cx, cy = layout.hex_to_pixel(h)
    return layout.pixel_to_hex(cx + 2 * (mx - cx), cy + 2 * (my - cy))
