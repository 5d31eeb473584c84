"""Set-up, entry and victory areas drawn over the map view as tinted hexes with an outline."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

AREA_Z = 50.0


class AreaOverlay:
    """Named hex sets shown on a map view's scene, each in its own colour."""

    def __init__(self, view):
        self.view = view
        self.items: dict[str, QGraphicsPathItem] = {}
        self.hexes: dict[str, frozenset] = {}

    def show(self, name: str, hexes, colour: str = "#e0a020") -> None:
        """Show (or replace) one area."""
        self.hide(name)
        board, scale = self.view.board, self.view.scale_
        path = QPainterPath()
        lay = board.layout
        for h in hexes:
            corners = [QPointF(x * scale, y * scale) for x, y in lay.polygon_corners(h)]
            path.moveTo(corners[0])
            for c in corners[1:]:
                path.lineTo(c)
            path.closeSubpath()
        path.setFillRule(Qt.WindingFill)
        item = QGraphicsPathItem(path.simplified())
        fill = QColor(colour)
        fill.setAlpha(45)
        edge = QColor(colour)
        pen = QPen(edge, max(1.0, scale * 0.08))
        pen.setCosmetic(False)
        item.setPen(pen)
        item.setBrush(QBrush(fill))
        item.setZValue(AREA_Z)
        self.view.scene().addItem(item)
        self.items[name] = item
        self.hexes[name] = frozenset(hexes)

    def hide(self, name: str) -> None:
        item = self.items.pop(name, None)
        self.hexes.pop(name, None)
        if item is not None and item.scene() is not None:
            item.scene().removeItem(item)

    def clear(self) -> None:
        for name in list(self.items):
            self.hide(name)

    def forget(self) -> None:
        """The scene was cleared (a new board): drop the items without touching it."""
        self.items.clear()
        self.hexes.clear()
