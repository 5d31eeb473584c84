"""The map view: sheet images placed on one scene, the hex grid and hex ids painted over them."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImageReader, QPainter, QPainterPath, QPen, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem, QGraphicsScene, QGraphicsView

from engine.board import Board, Sheet


def sheet_image_path(board: Board, sheet: Sheet) -> Path | None:
    """Where a sheet's image lies: relative paths are relative to the map file."""
    if not sheet.image:
        return None
    p = Path(sheet.image)
    source = getattr(board, "source", None)
    if not p.is_absolute() and source:
        p = Path(source).parent / p
    return p


def qtransform(sheet: Sheet) -> QTransform:
    """The sheet's lattice-to-pixel affine as a QTransform."""
    t = sheet.transform
    return QTransform(t.a, t.d, t.b, t.e, t.c, t.f)


class GridItem(QGraphicsItem):
    """The hex grid of one sheet and, when zoomed in enough, its hex ids."""

    def __init__(self, board: Board, sheet: Sheet, rect: QRectF):
        super().__init__()
        self.board, self.sheet, self._rect = board, sheet, rect
        self.show_ids = True
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        lay, tf = board.layout, sheet.transform
        hexes = sheet.hexes()
        self._ids = [sheet.numbering.format(h) for h in hexes]
        self._centres = tf.apply_many(np.array([lay.hex_to_pixel(h) for h in hexes]))
        path = QPainterPath()
        for h in hexes:
            pts = [QPointF(*tf.apply(x, y)) for x, y in lay.polygon_corners(h)]
            path.moveTo(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            path.closeSubpath()
        self._path = path
        self._hex_px = tf.scale  # pixels per lattice unit (hex size)
        if not rect.isValid():
            self._rect = path.boundingRect()

    def boundingRect(self) -> QRectF:
        return self._rect.united(self._path.boundingRect())

    def paint(self, painter: QPainter, option, widget=None):
        painter.setRenderHint(QPainter.Antialiasing, True)
        pen = QPen(QColor(20, 20, 60, 170))
        pen.setCosmetic(True)
        pen.setWidthF(1.0)
        painter.setPen(pen)
        painter.drawPath(self._path)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        on_screen = self._hex_px * lod
        if not self.show_ids or on_screen < 22:
            return
        r = option.exposedRect
        c = self._centres
        mask = (c[:, 0] >= r.left() - self._hex_px) & (c[:, 0] <= r.right() + self._hex_px) & \
               (c[:, 1] >= r.top() - self._hex_px) & (c[:, 1] <= r.bottom() + self._hex_px)
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(6, int(self._hex_px * 0.28)))
        painter.setFont(font)
        painter.setPen(QColor(10, 10, 40, 220))
        dy = self._hex_px * 0.62
        w = self._hex_px * 1.4
        for i in np.nonzero(mask)[0]:
            x, y = c[i]
            painter.drawText(QRectF(x - w / 2, y - dy, w, self._hex_px * 0.4), Qt.AlignCenter, self._ids[i])


class MapView(QGraphicsView):
    """Shows a board: its sheets' images and grid; wheel zoom around the cursor; drag to pan."""

    hovered = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setMouseTracking(True)
        self.setBackgroundBrush(QColor(60, 60, 60))
        self.board: Board | None = None
        self.grid_items: list[GridItem] = []
        self.problems: list[str] = []

    def show_board(self, board: Board) -> None:
        scene = self.scene()
        scene.clear()
        self.grid_items.clear()
        self.problems.clear()
        self.board = board
        for sheet in board.sheets:
            rect = QRectF()
            path = sheet_image_path(board, sheet)
            if path is not None:
                reader = QImageReader(str(path))
                image = reader.read()
                if image.isNull():
                    self.problems.append(f"{path}: cannot read the image ({reader.errorString()})")
                else:
                    item = QGraphicsPixmapItem(QPixmap.fromImage(image))
                    item.setTransformationMode(Qt.SmoothTransformation)
                    item.setZValue(0)
                    scene.addItem(item)
                    rect = item.sceneBoundingRect()
            grid = GridItem(board, sheet, rect)
            grid.setZValue(1)
            scene.addItem(grid)
            self.grid_items.append(grid)
        scene.setSceneRect(scene.itemsBoundingRect())
        self.fit()

    def fit(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.KeepAspectRatio)

    def set_grid_visible(self, on: bool) -> None:
        for g in self.grid_items:
            g.setVisible(on)

    def wheelEvent(self, event):
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.scale(factor, factor)

    def hex_at_scene(self, pos: QPointF):
        """The hex under a scene point (first sheet whose image contains it), or None."""
        if self.board is None:
            return None
        for sheet in self.board.sheets:
            x, y = sheet.transform.inverse().apply(pos.x(), pos.y())
            h = self.board.hex_at(x, y)
            if sheet.numbering.contains(h):
                return h
        return None

    def mouseMoveEvent(self, event):
        super().mouseMoveEvent(event)
        h = self.hex_at_scene(self.mapToScene(event.position().toPoint()))
        if h is None or self.board is None:
            self.hovered.emit("")
            return
        b = self.board
        parts = [" / ".join(b.hex_ids(h)), b.terrain_of(h) or "no terrain", f"{b.elevation_of(h):g} {b.elevation_unit}"]
        feats = sorted(b.features_of(h))
        if feats:
            parts.append(", ".join(feats))
        sides = sorted({f for n in b.neighbors(h) for f in b.hexside_features(h, n)})
        if sides:
            parts.append("hexsides: " + ", ".join(sides))
        self.hovered.emit("  |  ".join(parts))
