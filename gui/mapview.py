"""The map view: a board's sheets on one scene, the hex grid and ids, counters and stacks.

Scene coordinates are the board's lattice plane times ``scale``, the first
sheet's pixels per lattice unit, so at zoom 1 that sheet's scan is shown pixel
for pixel and every sheet lines up on the one lattice.  Hit tests never ask
the scene: the hex under a point is lattice arithmetic, the stack in it a
dictionary lookup.
"""
from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QTransform
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

from engine.board import Board, Sheet
from engine.hexes import Hex

from .counterart import CounterArt
from .counteritem import StackItem, StackViewer
from .griditem import GridItem
from .pyramidjob import PyramidJob, cache_root
from .tileitem import TiledImageItem, TileStore
from .tiles import MapImageError, open_map_image

ZOOM_PRESETS = (0.125, 0.25, 0.5, 1.0, 2.0)
MIN_ZOOM, MAX_ZOOM = 0.01, 8.0
WHEEL_STEP = 1.25
VIEWER_DELAY_MS = 350
DIRECTIONS = {"flat": ("SE", "NE", "N", "NW", "SW", "S"), "pointy": ("E", "NE", "NW", "W", "SW", "SE")}


def sheet_to_scene(sheet: Sheet, scale: float) -> QTransform:
    """Image pixels of a sheet to scene coordinates: the inverse of its fitted transform, times ``scale``."""
    i = sheet.transform.inverse()
    return QTransform(scale * i.a, scale * i.d, scale * i.b, scale * i.e, scale * i.c, scale * i.f)


class MapView(QGraphicsView):
    """Shows a board: tiled sheet images, grid, hex ids and stacks; zoom, pan, fit and hover."""

    hovered = Signal(str)
    tiling = Signal(str, float)        # sheet label, fraction done (1.0 when ready)
    problem = Signal(str)

    def __init__(self, parent=None, cache: Path | None = None):
        super().__init__(parent)
        scene = QGraphicsScene(self)
        scene.setItemIndexMethod(QGraphicsScene.NoIndex)
        self.setScene(scene)
        self.setRenderHints(QPainter.SmoothPixmapTransform | QPainter.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.DontAdjustForAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setMouseTracking(True)
        self.setBackgroundBrush(QColor(58, 58, 62))
        self.cache = cache
        self.store = TileStore(parent=self)
        self.art = CounterArt()
        self.board: Board | None = None
        self.scale_ = 1.0
        self.grid: GridItem | None = None
        self.images: list[TiledImageItem] = []
        self.jobs: list[PyramidJob] = []
        self._retired: list[PyramidJob] = []
        self.stacks: dict[Hex, StackItem] = {}
        self.viewer = StackViewer(self.art)
        self.problems: list[str] = []
        self._pan_from: QPointF | None = None
        self._space = False
        self._hover_hex: Hex | None = None
        self._viewer_timer = QTimer(self, singleShot=True, interval=VIEWER_DELAY_MS, timeout=self._show_viewer)

    # ------------------------------------------------------------ the board
    def show_board(self, board: Board) -> None:
        """Show a board: its sheets' images (tiled in the background), its grid and ids."""
        for job in self.jobs:
            job.cancel()
            self._retired.append(job)
        self.jobs = []
        self._retired = [j for j in self._retired if not j.wait(0)]
        scene = self.scene()
        self.viewer.setParentItem(None)
        if self.viewer.scene() is scene:
            scene.removeItem(self.viewer)
        scene.clear()
        self.images.clear()
        self.stacks.clear()
        self.problems.clear()
        self.board = board
        scales = [sh.transform.scale for sh in board.sheets if sh.image]
        self.scale_ = scales[0] if scales else 64.0
        for sheet in board.sheets:
            self._add_sheet(board, sheet)
        self.grid = GridItem(board, self.scale_)
        self.grid.setZValue(10)
        scene.addItem(self.grid)
        scene.addItem(self.viewer)
        self.viewer.close()
        rect = self.grid.boundingRect()
        for item in self.images:
            rect = rect.united(item.sceneBoundingRect())
        scene.setSceneRect(rect.adjusted(-self.scale_ * 2, -self.scale_ * 2, self.scale_ * 2, self.scale_ * 2))
        self.fit()

    def _add_sheet(self, board: Board, sheet: Sheet) -> None:
        path = board.image_path(sheet)
        if path is None:
            return
        try:
            with open_map_image(path) as im:
                w, h = im.size
        except MapImageError as e:
            self.problems.append(str(e))
            self.problem.emit(str(e))
            return
        item = TiledImageItem(w, h, self.store, label=f"sheet {sheet.id} ({path.name})" if sheet.id else path.name)
        item.setTransform(sheet_to_scene(sheet, self.scale_))
        item.setZValue(len(self.images))
        self.scene().addItem(item)
        self.images.append(item)
        job = PyramidJob(path, self.cache or cache_root(), parent=self)
        label = item.label
        job.progress.connect(lambda f, it=item, lb=label: (it.set_progress(f), self.tiling.emit(lb, f)))
        job.ready.connect(lambda p, it=item, lb=label: (it.set_pyramid(p), self.tiling.emit(lb, 1.0)))
        job.failed.connect(lambda msg, it=item: self._tiles_failed(it, msg))
        self.jobs.append(job)
        job.start()

    def _tiles_failed(self, item: TiledImageItem, message: str) -> None:
        item.set_error(message)
        self.problems.append(message)
        self.problem.emit(message)

    # ------------------------------------------------------------ counters
    def set_art(self, art: CounterArt) -> None:
        self.art = art
        self.viewer.art = art
        for st in self.stacks.values():
            st.art = art

    def set_pieces(self, placed: list[tuple[object, Hex]]) -> None:
        """Put units on the map: ``(unit, hex)`` pairs, later ones on top within a hex."""
        for st in self.stacks.values():
            self.scene().removeItem(st)
        self.stacks.clear()
        by_hex: dict[Hex, list] = {}
        for unit, h in placed:
            by_hex.setdefault(h, []).append(unit)
        for h, units in by_hex.items():
            st = StackItem(h, units, self.art, self.scale_)
            st.setPos(self.hex_centre(h))
            st.setZValue(20)
            self.scene().addItem(st)
            self.stacks[h] = st
        self.viewer.close()

    def stack_at(self, pos: QPointF) -> StackItem | None:
        h = self.hex_at_scene(pos)
        return self.stacks.get(h) if h is not None else None

    # ------------------------------------------------------------ geometry
    def hex_centre(self, h: Hex) -> QPointF:
        x, y = self.board.center(h)
        return QPointF(x * self.scale_, y * self.scale_)

    def hex_at_scene(self, pos: QPointF) -> Hex | None:
        """The board hex under a scene point, or None off the board."""
        if self.board is None:
            return None
        h = self.board.hex_at(pos.x() / self.scale_, pos.y() / self.scale_)
        return h if h in self.board else None

    # ------------------------------------------------------------ zoom and pan
    def zoom(self) -> float:
        """Screen pixels per scene unit (1.0: the first sheet's scan pixel for pixel)."""
        return self.transform().m11()

    def set_zoom(self, z: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``z`` keeping the scene point under ``anchor`` (viewport pixels) in place."""
        z = max(MIN_ZOOM, min(MAX_ZOOM, z))
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        before = self.mapToScene(anchor.toPoint())
        self.setTransform(QTransform.fromScale(z, z))
        after = self.mapToScene(anchor.toPoint())
        d = after - before
        self._scroll_by_scene(d)

    def _scroll_by_scene(self, d: QPointF) -> None:
        z = self.zoom()
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(round(h.value() - d.x() * z))
        v.setValue(round(v.value() - d.y() * z))

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.zoom() * factor, anchor)

    def fit(self) -> None:
        """The whole board in the window."""
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.KeepAspectRatio)

    def centre_on_hex(self, h: Hex) -> None:
        self.centerOn(self.hex_centre(h))

    def wheelEvent(self, event):
        dy = event.angleDelta().y()
        if dy:
            self.zoom_by(WHEEL_STEP ** (dy / 120), event.position())
        event.accept()

    def keyPressEvent(self, event):
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.OpenHandCursor)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event):
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    def mousePressEvent(self, event):
        pos = event.position()
        scene_pos = self.mapToScene(pos.toPoint())
        if event.button() == Qt.MiddleButton or (event.button() == Qt.LeftButton and self._space):
            self._start_pan(pos)
            return
        if event.button() == Qt.LeftButton:
            st = self.stack_at(scene_pos)
            if st is not None:
                self._toggle_viewer(st)
                return
            if self.viewer.pinned:
                self.viewer.close()
            self._start_pan(pos)
            return
        super().mousePressEvent(event)

    def _start_pan(self, pos: QPointF) -> None:
        self._pan_from = pos
        self.viewport().setCursor(Qt.ClosedHandCursor)

    def mouseMoveEvent(self, event):
        pos = event.position()
        if self._pan_from is not None:
            d = pos - self._pan_from
            self._pan_from = pos
            h, v = self.horizontalScrollBar(), self.verticalScrollBar()
            h.setValue(round(h.value() - d.x()))
            v.setValue(round(v.value() - d.y()))
            return
        self.hover_at(self.mapToScene(pos.toPoint()))
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if self._pan_from is not None:
            self._pan_from = None
            if self._space:
                self.viewport().setCursor(Qt.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            return
        super().mouseReleaseEvent(event)

    def leaveEvent(self, event):
        self._viewer_timer.stop()
        if not self.viewer.pinned:
            self.viewer.close()
        super().leaveEvent(event)

    # ------------------------------------------------------------ hover and the stack viewer
    def hover_at(self, scene_pos: QPointF) -> str:
        """Describe the hex under a scene point on the status line; returns the text."""
        h = self.hex_at_scene(scene_pos)
        if h != self._hover_hex:
            self._hover_hex = h
            self._viewer_timer.stop()
            if not self.viewer.pinned:
                self.viewer.close()
            if h in self.stacks and len(self.stacks[h].units) > 1:
                self._viewer_timer.start()
        text = self.describe_hex(h) if h is not None else ""
        self.hovered.emit(text)
        return text

    def describe_hex(self, h: Hex) -> str:
        """Hex id(s), terrain, elevation, hex features, hexside features and links, units."""
        b = self.board
        parts = [" / ".join(b.hex_ids(h)), b.terrain_of(h) or "no terrain",
                 f"elevation {b.elevation_of(h):g} {b.elevation_unit}"]
        feats = sorted(b.features_of(h))
        if feats:
            parts.append(", ".join(feats))
        names = DIRECTIONS.get(b.orientation, DIRECTIONS["flat"])
        sides = []
        from engine.hexes import hex_neighbor

        for d in range(6):
            n = hex_neighbor(h, d)
            found = sorted(b.hexside_features(h, n)) + sorted(k for k in b.links if b.has_link(k, h, n))
            if found:
                sides.append(f"{names[d]} {'+'.join(found)}")
        if sides:
            parts.append("hexsides: " + ", ".join(sides))
        st = self.stacks.get(h)
        if st is not None:
            parts.append(f"{len(st.units)} unit(s): " + ", ".join(str(getattr(u, 'id', u)) for u in reversed(st.units)))
        return "  |  ".join(parts)

    def _show_viewer(self) -> None:
        st = self.stacks.get(self._hover_hex)
        if st is not None:
            self.viewer.show_stack(st)

    def _toggle_viewer(self, st: StackItem) -> None:
        if self.viewer.pinned and self.viewer.hex == st.hex:
            self.viewer.close()
        else:
            self.viewer.show_stack(st, pinned=True)

    # ------------------------------------------------------------ overlays
    def set_grid_visible(self, on: bool) -> None:
        if self.grid is not None:
            self.grid.show_grid = on
            self.grid.update()

    def set_ids_visible(self, on: bool) -> None:
        if self.grid is not None:
            self.grid.show_ids = on
            self.grid.update()

    # ------------------------------------------------------------ drawing
    def paintEvent(self, event):
        self.art.new_frame()
        super().paintEvent(event)
        if self.art.deferred:
            QTimer.singleShot(0, self.viewport().update)

    def tiles_ready(self) -> bool:
        """Every sheet's pyramid is built (or failed) and no tile read is pending."""
        return all(j.finished for j in self.jobs) and self.store.pending() == 0

    def wait_until_drawn(self, timeout: float = 60.0) -> bool:
        """Process events until every visible tile is in memory and drawn (tests, screenshots, benchmarks)."""
        app = QApplication.instance()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            app.processEvents()
            if all(j.finished for j in self.jobs):
                self.viewport().repaint()
                app.processEvents()
                if self.store.pending() == 0 and self.art.deferred == 0:
                    self.viewport().repaint()
                    if self.store.pending() == 0:
                        return True
            time.sleep(0.005)
        return False
