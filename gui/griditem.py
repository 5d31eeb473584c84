"""The hex grid and hex ids over the whole board, painted only where the view shows them.

The board's hexes are grouped into square blocks; each block has its own
QPainterPath of hex edges (every edge once), and a paint call draws only the
blocks that meet the exposed rectangle.  Hex ids are drawn for visible hexes
only, and only when a hex is big enough on screen to read them.
"""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from engine.board import Board
from engine.hexes import hex_neighbor

BLOCK = 6.0            # block side in lattice units (hex sizes)
IDS_MIN_PX = 30.0      # a hex must be this many screen pixels across to show its id
GRID_COLOUR = QColor(25, 25, 60, 150)
ID_COLOUR = QColor(15, 15, 45, 230)


class GridItem(QGraphicsItem):
    """The board's hex grid in scene coordinates (``scale`` scene units per lattice unit)."""

    def __init__(self, board: Board, scale: float):
        super().__init__()
        self.board, self.scale = board, scale
        self.show_grid = True
        self.show_ids = True
        self.ids_drawn = 0
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        lay = board.layout
        hexes = board.hexes()
        self._ids = [board.hex_id(h) for h in hexes]
        self._centres = np.array([lay.hex_to_pixel(h) for h in hexes], dtype=float).reshape(-1, 2) * scale
        self._blocks: dict[tuple[int, int], QPainterPath] = {}
        on_board = set(hexes)
        for h, (cx, cy) in zip(hexes, self._centres):
            key = (int(cx // (BLOCK * scale)), int(cy // (BLOCK * scale)))
            path = self._blocks.setdefault(key, QPainterPath())
            corners = [QPointF(x * scale, y * scale) for x, y in lay.polygon_corners(h)]
            for i in range(6):
                # each edge once: the hex whose neighbour across it is "greater" (or off the board) draws it
                n = _neighbour_across(lay, h, i)
                if n in on_board and (n.q, n.r) < (h.q, h.r):
                    continue
                path.moveTo(corners[i])
                path.lineTo(corners[(i + 1) % 6])
        self._block_rects = {k: p.boundingRect() for k, p in self._blocks.items()}
        rect = QRectF()
        for r in self._block_rects.values():
            rect = rect.united(r)
        self._rect = rect.adjusted(-scale, -scale, scale, scale)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        exposed = option.exposedRect
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if self.show_grid:
            pen = QPen(GRID_COLOUR)
            pen.setCosmetic(True)
            pen.setWidthF(1.0 if lod * self.scale < 40 else 1.5)
            painter.setPen(pen)
            painter.setRenderHint(QPainter.Antialiasing, lod * self.scale >= 12)
            for key, path in self._blocks.items():
                if self._block_rects[key].intersects(exposed):
                    painter.drawPath(path)
        self.ids_drawn = 0
        if self.show_ids and lod * self.scale * 2 >= IDS_MIN_PX:
            self._paint_ids(painter, exposed)

    def _paint_ids(self, painter: QPainter, exposed: QRectF) -> None:
        s = self.scale
        c = self._centres
        m = (c[:, 0] >= exposed.left() - s) & (c[:, 0] <= exposed.right() + s) & \
            (c[:, 1] >= exposed.top() - s) & (c[:, 1] <= exposed.bottom() + s)
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(1, int(s * 0.24)))
        painter.setFont(font)
        painter.setPen(ID_COLOUR)
        painter.setRenderHint(QPainter.TextAntialiasing, True)
        w, h, dy = s * 1.2, s * 0.3, s * 0.80
        for i in np.nonzero(m)[0]:
            x, y = c[i]
            painter.drawText(QRectF(x - w / 2, y - dy, w, h), Qt.AlignCenter, self._ids[i])
            self.ids_drawn += 1


def _neighbour_across(layout, h, corner: int):
    """The neighbour across the edge from corner ``corner`` to ``corner + 1``."""
    cs = layout.polygon_corners(h)
    mx = (cs[corner][0] + cs[(corner + 1) % 6][0]) / 2
    my = (cs[corner][1] + cs[(corner + 1) % 6][1]) / 2
    cx, cy = layout.hex_to_pixel(h)
    return layout.pixel_to_hex(cx + 2 * (mx - cx), cy + 2 * (my - cy))
