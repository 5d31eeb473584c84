"""The line-of-sight thread: drawn from hex to hex, green where the engine says clear, red from where it is blocked."""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

CLEAR = QColor(30, 170, 60)
BLOCKED = QColor(210, 30, 30)


class SightThread(QGraphicsItem):
    """A thread between two scene points; ``block`` (a scene point) turns it red from there on."""

    def __init__(self):
        super().__init__()
        self.a = QPointF()
        self.b = QPointF()
        self.block: QPointF | None = None
        self.setZValue(50)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.hide()

    def set_line(self, a: QPointF, b: QPointF, block: QPointF | None) -> None:
        self.prepareGeometryChange()
        self.a, self.b, self.block = QPointF(a), QPointF(b), QPointF(block) if block is not None else None
        self.show()
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self.a, self.b).normalized().adjusted(-40, -40, 40, 40)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing, True)
        pen = QPen(CLEAR, 4)
        pen.setCosmetic(True)
        pen.setCapStyle(Qt.RoundCap)
        end = self.block if self.block is not None else self.b
        painter.setPen(pen)
        painter.drawLine(QLineF(self.a, end))
        if self.block is not None:
            pen.setColor(BLOCKED)
            painter.setPen(pen)
            painter.drawLine(QLineF(self.block, self.b))
            lod = option.levelOfDetailFromTransform(painter.worldTransform())
            r = 7 / max(lod, 1e-6)
            painter.setBrush(BLOCKED)
            painter.drawEllipse(self.block, r, r)
