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

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QTransform
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView, QRubberBand, QStyleFactory

from engine.maps.board import Board, Sheet
from engine.maps.hexes import Hex, hex_linedraw, hex_neighbor

from gui.scene.counterart import CounterArt
from gui.scene.counterlayer import CountersLayer, StackViewer
from gui.scene.gridlayer import GridLayer
from gui.scene.idlework import IdleQueue
from gui.scene.lostool import SightThread
from gui.scene.moveoverlay import CounterGhost, DestinationsOverlay, LineMarks, ReadyMarks, SelectionMarks, cost_text
from gui.scene.pyramidjob import PyramidJob
from gui.scene.sheetlayer import SheetLayer, TileStore
from gui.scene.tiles import MapImageError, open_map_image
from gui.common.userfolders import cache_root

ZOOM_PRESETS = (0.125, 0.25, 0.5, 1.0, 2.0)
MIN_ZOOM, MAX_ZOOM = 0.01, 8.0
WHEEL_STEP = 1.25
VIEWER_DELAY_MS = 350
STILL_MS = 180          # the view is "still" this long after the last zoom or pan: full quality again
DRAG_START_PX = 6       # a press on a counter that moves this far picks it up (less: a click)
DIRECTIONS = {"flat": ("SE", "NE", "N", "NW", "SW", "S"), "pointy": ("E", "NE", "NW", "W", "SW", "SE")}


def sheet_to_scene(sheet: Sheet, scale: float) -> QTransform:
    """Image pixels of a sheet to scene coordinates: the inverse of its fitted transform, times ``scale``."""
    i = sheet.transform.inverse()
    return QTransform(scale * i.a, scale * i.d, scale * i.b, scale * i.e, scale * i.c, scale * i.f)


class MapView(QGraphicsView):
    """Shows a board: tiled sheet images, grid, hex ids and stacks; zoom, pan, fit and hover."""

    hovered = Signal(str)
    picked = Signal(object, object)            # unit, hex: a counter was picked up
    dropped = Signal(object, object, object)   # unit, from hex, to hex: and put down there
    group_dropped = Signal(list, object)       # [(unit, from hex)], to hex: a selection moved together
    tiling = Signal(str, float)        # sheet label, fraction done (1.0 when ready)
    problem = Signal(str)
    zoom_changed = Signal(float)
    sight_asked = Signal(object, object)       # from hex, to hex: the line-of-sight tool wants an answer
    hex_clicked = Signal(object)               # a click (no drag) on a hex without a stack
    stack_clicked = Signal(object)             # a click (no drag) on a stack: its hex
    tray_picked = Signal(str)                  # a unit id dragged in from the reinforcement tray
    tray_dropped = Signal(str, object)         # ... and dropped on this hex
    context_asked = Signal(object, object)     # hex of a stack right-clicked, the global point: its actions menu

    def __init__(self, parent=None, cache: Path | None = None):
        super().__init__(parent)
        scene = QGraphicsScene(self)
        scene.setItemIndexMethod(QGraphicsScene.NoIndex)
        self.setScene(scene)
        self.setRenderHints(QPainter.SmoothPixmapTransform | QPainter.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        # sheets, grid, ids and counters are the background: cached, so panning paints only the new strip
        self.setCacheMode(QGraphicsView.CacheBackground)
        self.setOptimizationFlag(QGraphicsView.DontAdjustForAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.setBackgroundBrush(QColor(58, 58, 62))
        # scroll bars in the plain style: Fusion's are repainted at every pan and zoom step at a cost
        # of about 2 ms a frame, the plain ones for a fraction of that, and they look alike
        plain = QStyleFactory.create("Windows")
        if plain is not None:
            plain.setParent(self)
            for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
                bar.setStyle(plain)
        self.cache = cache
        self.store = TileStore(parent=self)
        # grid blocks built between events after a board opens: every one of them, however many
        self._prepare = IdleQueue(self, limit=None)
        self.art = CounterArt(parent=self)
        self.art.ready.connect(self._picture_ready)
        self.board: Board | None = None
        self.scale_ = 1.0
        self.grid: GridLayer | None = None
        self.images: list[SheetLayer] = []
        self.jobs: list[PyramidJob] = []
        self._retired: list[PyramidJob] = []
        self.counters: CountersLayer | None = None
        self.viewer = StackViewer(self.art)
        self.problems: list[str] = []
        self._pan_from: QPointF | None = None
        self._pan_start = QPointF()
        self._space = False
        self._hover_hex: Hex | None = None
        self._pointer: QPointF | None = None      # where the mouse is over the map (viewport pixels); None: not over it
        self.drag_enabled = False
        self.selected: set[Hex] = set()
        self.marks: SelectionMarks | None = None
        self.ready_marks: ReadyMarks | None = None          # a bright frame round counters whose units may act now
        self._ready_units: set = set()
        self._band: QRubberBand | None = None
        self._band_from = None
        self.los_mode = False
        self._los_from = None
        self.thread: SightThread | None = None
        self._press = None
        self._drag = None
        self.lift_next: str | None = None         # a unit a stack's menu chose to move: the next drag lifts it
        self._ghost = None
        self._blocked: dict = {}
        self._notes: dict = {}                    # lit hexes that mean something else than a move (fire at it)
        self.hover_note = None                    # hex -> a line the ruleset adds to the hex described (or None)
        self.overlay: DestinationsOverlay | None = None
        self.line_marks: LineMarks | None = None
        self.trace_marks: LineMarks | None = None
        self.click_targets: set[Hex] = set()      # stacks a click chooses (a pending choice) instead of opening
        self.trace: list[Hex] = []                # hexes the dragged counter has passed through, in order
        self._viewer_timer = QTimer(self, singleShot=True, interval=VIEWER_DELAY_MS, timeout=self._show_viewer)
        # while zooming and panning, frames are drawn fast (no smoothing); once still, in full quality
        self.moving = False
        self._drawn_fast = False
        self.fast_while_moving = True
        self._still_timer = QTimer(self, singleShot=True, interval=STILL_MS, timeout=self._became_still)
        self.zoom_changed.connect(self._zoomed)

    # ------------------------------------------------------------ the board
    def show_board(self, board: Board) -> None:
        """Show a board: its sheets' images (tiled in the background), its grid and ids."""
        for job in self.jobs:
            job.cancel()
            for signal in (job.preview, job.rows, job.progress, job.ready, job.failed):   # its sheet layer is deleted below
                signal.disconnect()
            self._retired.append(job)
        self.jobs = []
        self._retired = [j for j in self._retired if not j.wait(0)]
        scene = self.scene()
        self.viewer.setParentItem(None)
        if self.viewer.scene() is scene:
            scene.removeItem(self.viewer)
        scene.clear()
        for layer in self.images:
            layer.deleteLater()
        self.images.clear()
        self.problems.clear()
        self.board = board
        scales = [sh.transform.scale for sh in board.sheets if sh.image]
        self.scale_ = scales[0] if scales else 64.0
        for sheet in board.sheets:
            self._add_sheet(board, sheet)
        self.grid = GridLayer(board, self.scale_)
        self._prepare.clear()
        for key in self.grid.blocks():
            self._prepare.submit(key, lambda g=self.grid, k=key: g._block_path(k))
        self.counters = CountersLayer(self.art, self.scale_, self.hex_centre)
        self.overlay = DestinationsOverlay(board, self.scale_)
        self.overlay.hide()
        scene.addItem(self.overlay)
        self.line_marks = LineMarks(self.hex_centre)
        scene.addItem(self.line_marks)
        self.trace_marks = LineMarks(self.hex_centre, QColor(255, 230, 80, 200), z=32)
        scene.addItem(self.trace_marks)
        self.click_targets = set()
        self._drag = self._ghost = self._press = None
        self._los_from = None
        self.thread = SightThread()
        scene.addItem(self.thread)
        self.selected = set()
        self.marks = SelectionMarks(lambda h: self.counters.stack_rect(h))
        self.marks.hide()
        scene.addItem(self.marks)
        self.ready_marks = ReadyMarks(lambda h: self.counters.counter_rect(h))
        self.ready_marks.hide()
        self.ready_marks.set_zoom(self.zoom())
        scene.addItem(self.ready_marks)
        scene.addItem(self.viewer)
        self.viewer.close()
        rect = self.grid.rect
        for layer in self.images:
            rect = rect.united(layer.scene_rect())
        scene.setSceneRect(rect.adjusted(-self.scale_ * 2, -self.scale_ * 2, self.scale_ * 2, self.scale_ * 2))
        self.resetCachedContent()
        self.fit()
        self._hover_hex = None
        self.hovered.emit("")               # a description of the last board's hex does not apply to this one

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
        item = SheetLayer(w, h, self.store, label=f"sheet {sheet.id} ({path.name})" if sheet.id else path.name,
                          parent=self)
        item.to_scene = sheet_to_scene(sheet, self.scale_)
        item.changed.connect(lambda r, it=item: self._sheet_changed(it, r))
        self.images.append(item)
        job = PyramidJob(path, self.cache or cache_root(), parent=self)
        label = item.label
        job.preview.connect(item.set_preview)
        job.rows.connect(item.add_rows)
        job.progress.connect(lambda f, it=item, lb=label: (it.set_progress(f), self.tiling.emit(lb, f)))
        job.ready.connect(lambda p, it=item, lb=label: (it.set_pyramid(p), self.tiling.emit(lb, 1.0)))
        job.failed.connect(lambda msg, it=item: self._tiles_failed(it, msg))
        self.jobs.append(job)
        job.start()

    def _sheet_changed(self, layer: SheetLayer, rect: QRectF) -> None:
        """Part of a sheet changed (a tile arrived, the pyramid is ready): repaint that part of the background."""
        self.refresh(layer.to_scene.mapRect(rect))

    def _on_screen(self, scene_rect: QRectF) -> QRectF:
        """The part of ``scene_rect`` the viewport shows (a pixel's margin for smoothing at the edges)."""
        shown = self.mapToScene(self.viewport().rect().adjusted(-1, -1, 1, 1)).boundingRect()
        return scene_rect.intersected(shown)

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, self.backgroundBrush())
        dpr = self.devicePixelRatioF()
        fast = self.moving
        self._drawn_fast = self._drawn_fast or fast
        for layer in self.images:
            layer.dpr = dpr
            layer.paint(painter, rect, fast)
        if self.grid is not None:
            self.grid.paint(painter, rect, fast)
        if self.counters is not None:
            self.counters.paint(painter, rect, dpr, fast)

    def _moved(self) -> None:
        """The view zoomed or panned: draw fast until it has been still for STILL_MS."""
        if self.fast_while_moving:
            self.moving = True
            self._still_timer.start()

    def _became_still(self) -> None:
        self.moving = False
        if self._drawn_fast:
            self._drawn_fast = False
            self.refresh()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        self._moved()
        super().scrollContentsBy(dx, dy)

    def _tiles_failed(self, item: SheetLayer, message: str) -> None:
        item.set_error(message)
        self.problems.append(message)
        self.problem.emit(message)

    # ------------------------------------------------------------ counters
    def _picture_ready(self, unit_id: str) -> None:
        """A counter picture was made: repaint the stack it tops, and the stack viewer."""
        if self.counters is not None:
            h = self.counters.top_of.get(unit_id)
            if h is not None:
                self.refresh(self.counters.stack_rect(h))
        if self.viewer.isVisible():
            self.viewer.update()

    def set_art(self, art: CounterArt) -> None:
        """Use another set of counter pictures (a scenario's sides and colours)."""
        if art is self.art:
            return
        self.art.ready.disconnect(self._picture_ready)
        self.art.shutdown()
        art.setParent(self)
        art.ready.connect(self._picture_ready)
        self.art = art
        self.viewer.art = art
        if self.counters is not None:
            self.counters.art = art
            self.refresh()

    def set_pieces(self, placed: list[tuple[object, Hex]]) -> None:
        """Put units on the map: ``(unit, hex)`` pairs, later ones on top within a hex."""
        by_hex: dict[Hex, list] = {}
        for unit, h in placed:
            by_hex.setdefault(h, []).append(unit)
        self.counters.set_stacks(by_hex)
        self.show_ready(self._ready_units)
        self.select(self.selected)
        self.viewer.close()
        self.refresh()
        self.rehover()

    @property
    def stacks(self) -> dict[Hex, list]:
        """The units in each hex, top one last."""
        return self.counters.stacks if self.counters is not None else {}

    def stack_at(self, pos: QPointF) -> Hex | None:
        """The hex of the stack under a scene point, or None."""
        h = self.hex_at_scene(pos)
        return h if h in self.stacks else None

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
        self._fitted = False
        self._moved()
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        before = self.mapToScene(anchor.toPoint())
        self.setTransform(QTransform.fromScale(z, z))
        after = self.mapToScene(anchor.toPoint())
        d = after - before
        self._scroll_by_scene(d)
        self.zoom_changed.emit(z)

    def _zoomed(self, z: float) -> None:
        if self.ready_marks is not None:
            self.ready_marks.set_zoom(z)

    def _scroll_by_scene(self, d: QPointF) -> None:
        self._fitted = False
        z = self.zoom()
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(round(h.value() - d.x() * z))
        v.setValue(round(v.value() - d.y() * z))

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.zoom() * factor, anchor)

    def fit(self) -> None:
        """The whole board in the window; it stays fitted as the window is resized until the user zooms."""
        self._fitted = True
        rect = self.scene().sceneRect()
        if rect.isEmpty():
            return
        self._moved()
        self.fitInView(rect, Qt.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom())

    def resizeEvent(self, event):
        super().resizeEvent(event)
        # A board opened before the window was shown was fitted to a
        # placeholder size: fit again once the view has its real size.
        if getattr(self, "_fitted", False) and self.isVisible():
            self.fit()

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
        if event.button() == Qt.LeftButton and self.los_mode:
            h = self.hex_at_scene(scene_pos)
            if h is not None:
                self._los_from = h
                self.sight_asked.emit(h, h)
            return
        shift = bool(event.modifiers() & Qt.ShiftModifier)
        if event.button() == Qt.LeftButton and shift:
            h = self.stack_at(scene_pos)
            if h is not None:
                self.select(self.selected ^ {h})   # shift-click adds a stack to the selection or takes it out
            else:
                self._band_from = pos.toPoint()     # shift-drag on the map: a rubber band
                if self._band is None:
                    self._band = QRubberBand(QRubberBand.Rectangle, self.viewport())
                self._band.setGeometry(QRect(self._band_from, QSize()))
                self._band.show()
            return
        if event.button() == Qt.LeftButton:
            h = self.stack_at(scene_pos)
            if h is not None:
                self._press = (pos, h)          # a click opens the stack viewer, a drag moves the top unit
                if h not in self.selected:
                    self.select(set())
                return
            self.select(set())
            if self.viewer.pinned:
                self.viewer.close()
            self._start_pan(pos)
            return
        super().mousePressEvent(event)

    def _start_pan(self, pos: QPointF) -> None:
        self._pan_from = pos
        self._pan_start = pos
        self.viewport().setCursor(Qt.ClosedHandCursor)

    def mouseMoveEvent(self, event):
        pos = event.position()
        self._pointer = QPointF(pos)
        scene_pos = self.mapToScene(pos.toPoint())
        if self._pan_from is not None:
            d = pos - self._pan_from
            self._pan_from = pos
            h, v = self.horizontalScrollBar(), self.verticalScrollBar()
            h.setValue(round(h.value() - d.x()))
            v.setValue(round(v.value() - d.y()))
            return
        if self._los_from is not None:
            h = self.hex_at_scene(scene_pos)
            if h is not None:
                self.sight_asked.emit(self._los_from, h)
            return
        if self._band_from is not None:
            self._band.setGeometry(QRect(self._band_from, pos.toPoint()).normalized())
            return
        if self._press is not None and self._drag is None and self.drag_enabled:
            p0, h = self._press
            if (pos - p0).manhattanLength() >= DRAG_START_PX:
                self._start_drag(h, scene_pos)
        if self._drag is not None:
            self._ghost.setPos(scene_pos)
            h = self.hex_at_scene(scene_pos)
            self._extend_trace(h)
            self.hovered.emit(self.describe_target(h))
            return
        self.hover_at(scene_pos)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if self._pan_from is not None:
            self._pan_from = None
            if self._space:
                self.viewport().setCursor(Qt.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            pos = event.position()
            if (pos - self._pan_start).manhattanLength() < DRAG_START_PX and event.button() == Qt.LeftButton:
                h = self.hex_at_scene(self.mapToScene(pos.toPoint()))
                if h is not None:
                    self.hex_clicked.emit(h)
            return
        if self._los_from is not None:
            self._los_from = None               # the thread stays until the next one
            return
        if self._band_from is not None:
            band = QRect(self._band_from, event.position().toPoint()).normalized()
            self._band_from = None
            self._band.hide()
            area = self.mapToScene(band).boundingRect()
            self.select(self.selected | {h for h in self.stacks if area.contains(self.hex_centre(h))})
            return
        if self._drag is not None:
            unit, frm = self._drag
            to = self.hex_at_scene(self.mapToScene(event.position().toPoint()))
            self._extend_trace(to)
            self.end_drag()
            self._press = None
            if to is not None and to != frm:
                if frm in self.selected:
                    group = [(u, h) for h in sorted(self.selected, key=lambda x: (x.q, x.r))
                             for u in reversed(self.stacks.get(h, []))]
                    self.select(set())
                    self.group_dropped.emit(group, to)
                else:
                    self.dropped.emit(unit, frm, to)
            return
        if self._press is not None:
            _, h = self._press
            self._press = None
            if h in self.click_targets:
                self.hex_clicked.emit(h)        # a stack that is one of a pending choice's options
            else:
                self.stack_clicked.emit(h)
                self._toggle_viewer(h)
            return
        super().mouseReleaseEvent(event)

    def show_ready(self, unit_ids) -> None:
        """Frame, subtly, the stacks holding a unit that may act now (the rules' answer); empty hides them."""
        self._ready_units = set(unit_ids)
        if self.ready_marks is not None:
            self.ready_marks.show_hexes({h for h, units in self.stacks.items()
                                         if any(u.id in self._ready_units for u in units)})

    def ready_hexes(self) -> set:
        return set(self.ready_marks.hexes) if self.ready_marks is not None else set()

    # ------------------------------------------------------------ selection
    def select(self, hexes: set) -> None:
        """Select these stacks (shift-click, rubber band); a drag of one of them moves them all."""
        self.selected = {h for h in hexes if h in self.stacks}
        if self.marks is not None:
            self.marks.show_hexes(self.selected)

    # ------------------------------------------------------------ units dragged in from the tray
    def dragEnterEvent(self, event):
        from gui.scene.tray import MIME

        if event.mimeData().hasFormat(MIME) and self.drag_enabled:
            event.acceptProposedAction()
            self.tray_picked.emit(bytes(event.mimeData().data(MIME)).decode("utf-8"))
        else:
            event.ignore()

    def dragMoveEvent(self, event):
        from gui.scene.tray import MIME

        if event.mimeData().hasFormat(MIME):
            event.acceptProposedAction()
            self._pointer = QPointF(event.position())
            h = self.hex_at_scene(self.mapToScene(event.position().toPoint()))
            self.hovered.emit(self.describe_target(h))
        else:
            event.ignore()

    def dragLeaveEvent(self, event):
        self.show_destinations({})
        self._pointer = None
        self.rehover()
        super().dragLeaveEvent(event)

    def dropEvent(self, event):
        from gui.scene.tray import MIME

        if not event.mimeData().hasFormat(MIME):
            event.ignore()
            return
        event.acceptProposedAction()
        uid = bytes(event.mimeData().data(MIME)).decode("utf-8")
        h = self.hex_at_scene(self.mapToScene(event.position().toPoint()))
        self.show_destinations({})
        if h is not None:
            self.tray_dropped.emit(uid, h)

    # ------------------------------------------------------------ line of sight
    def set_los_mode(self, on: bool) -> None:
        """The line-of-sight tool: a drag draws a thread from hex to hex instead of panning."""
        self.los_mode = on
        self._los_from = None
        if self.thread is not None and not on:
            self.thread.hide()
        self.viewport().setCursor(Qt.CrossCursor) if on else self.viewport().unsetCursor()

    def show_sight(self, frm: Hex, to: Hex, block_point: tuple[float, float] | None) -> None:
        """Draw the thread as the engine answered: ``block_point`` in lattice coordinates, None if clear."""
        s = self.scale_
        block = QPointF(block_point[0] * s, block_point[1] * s) if block_point is not None else None
        self.thread.set_line(self.hex_centre(frm), self.hex_centre(to), block)

    # ------------------------------------------------------------ moving a counter
    def _start_drag(self, h: Hex, scene_pos: QPointF) -> None:
        stack = self.stacks[h]
        unit = next((u for u in stack if getattr(u, "id", None) == self.lift_next), stack[-1])
        self.lift_next = None
        self.viewer.close()
        self._drag = (unit, h)
        self.counters.lifted = h
        self.refresh(self.counters.stack_rect(h))
        self._ghost = CounterGhost(self.art, unit, self.counters.side)
        self._ghost.setPos(scene_pos)
        self.scene().addItem(self._ghost)
        self.trace = [h]
        self.viewport().setCursor(Qt.ClosedHandCursor)
        self.picked.emit(unit, h)

    def _extend_trace(self, h: Hex | None) -> None:
        """Add the hex under the dragged counter to its trace: gaps filled hex by hex, a loop cut out."""
        if h is None or not self.trace or h == self.trace[-1] or self.board is None:
            return
        for step in hex_linedraw(self.trace[-1], h)[1:]:
            if step not in self.board:
                return
            if step in self.trace:
                del self.trace[self.trace.index(step) + 1:]     # back over its own track: the loop is dropped
            else:
                self.trace.append(step)
        if self.trace_marks is not None:
            self.trace_marks.show_hexes(self.trace)

    def traced_path(self, frm: Hex, to: Hex) -> list[Hex]:
        """The path the last drag traced from ``frm`` to ``to``, or [] if it passed through no hex in between."""
        t = self.trace
        if len(t) < 3 or t[0] != frm or t[-1] != to:
            return []
        return list(t)

    def show_line(self, hexes: list[Hex]) -> None:
        """Draw a line of hexes on the map (a victory condition's free line); [] hides it."""
        if self.line_marks is not None:
            self.line_marks.show_hexes(hexes)

    def show_destinations(self, costs: dict, blocked: dict | None = None, notes: dict | None = None) -> None:
        """Light the legal destinations of the unit being moved (``{hex: cost}``) as the rules gave them;
        ``notes`` lights other hexes with what dropping there means (``{hex: "fire at it"}``)."""
        self._notes = dict(notes or {})
        self.overlay.show_costs({**{h: None for h in self._notes}, **costs})
        self._blocked = dict(blocked or {})

    def describe_target(self, h: Hex | None) -> str:
        """What dropping here would mean, from the rules' own answers given at pick-up."""
        if h is None:
            return "off the map"
        hid = self.board.hex_id(h)
        if h in self._notes:
            return f"{hid}: {self._notes[h]}"
        if h in self.overlay.costs:
            cost = self.overlay.costs[h]
            return f"{hid}: legal" + (f", costs {cost_text(cost)} MP" if cost is not None else "")
        if h in self._blocked:
            return f"{hid}: {self._blocked[h]}"
        return f"{hid}: not a legal destination"

    def end_drag(self) -> None:
        """Put the picked-up counter down (the pieces are set again by whoever owns them)."""
        if self._drag is None:
            return
        _, h = self._drag
        self._drag = None
        self.counters.lifted = None
        self.refresh(self.counters.stack_rect(h))
        if self._ghost is not None:
            self.scene().removeItem(self._ghost)
            self._ghost = None
        self.overlay.show_costs({})
        self._blocked = {}
        self._notes = {}
        if self.trace_marks is not None:
            self.trace_marks.show_hexes([])
        self.viewport().unsetCursor()
        self.rehover()                      # "B12.07: legal, costs 2 MP" no longer applies once the counter is down

    def leaveEvent(self, event):
        self._viewer_timer.stop()
        if not self.viewer.pinned:
            self.viewer.close()
        self._pointer = None
        self._hover_hex = None
        self.hovered.emit("")               # the pointer left the map: no hex is described any more
        super().leaveEvent(event)

    # ------------------------------------------------------------ hover and the stack viewer
    def rehover(self) -> str:
        """Describe again the hex under the pointer (its units may have changed); nothing when it is off the map."""
        if self._drag is not None:
            return ""                       # a counter being dragged: its target is described as it moves
        if self._pointer is None or self.board is None:
            self._hover_hex = None
            self.hovered.emit("")
            return ""
        return self.hover_at(self.mapToScene(self._pointer.toPoint()))

    def hover_at(self, scene_pos: QPointF) -> str:
        """Describe the hex under a scene point on the status line; returns the text."""
        h = self.hex_at_scene(scene_pos)
        if h != self._hover_hex:
            self._hover_hex = h
            self._viewer_timer.stop()
            if not self.viewer.pinned:
                self.viewer.close()
            if h in self.stacks and len(self.stacks[h]) > 1:
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
        for d in range(6):
            n = hex_neighbor(h, d)
            found = sorted(b.hexside_features(h, n)) + sorted(k for k in b.links if b.has_link(k, h, n))
            if found:
                sides.append(f"{names[d]} {'+'.join(found)}")
        if sides:
            parts.append("hexsides: " + ", ".join(sides))
        units = self.stacks.get(h)
        if units:
            parts.append(f"{len(units)} unit(s): " + ", ".join(str(getattr(u, 'id', u)) for u in reversed(units)))
        note = self.hover_note(h) if self.hover_note is not None else ""
        if note:
            parts.append(note)
        return "  |  ".join(parts)

    def contextMenuEvent(self, event):
        """A right-click on a stack asks for its units' actions (whoever listens shows them)."""
        h = self.stack_at(self.mapToScene(event.pos()))
        if h is not None:
            self.context_asked.emit(h, event.globalPos())
            event.accept()
            return
        super().contextMenuEvent(event)

    def _viewer_corner(self, h: Hex) -> QPointF:
        c = self.hex_centre(h)
        s = self.counters.side
        return QPointF(c.x() + s * 0.6, c.y() - s * 0.6)

    def _show_viewer(self) -> None:
        h = self._hover_hex
        if h in self.stacks:
            self.viewer.show_stack(h, self.stacks[h], self._viewer_corner(h))

    def _toggle_viewer(self, h: Hex) -> None:
        if self.viewer.pinned and self.viewer.hex == h:
            self.viewer.close()
        else:
            self.viewer.show_stack(h, self.stacks[h], self._viewer_corner(h), pinned=True)

    # ------------------------------------------------------------ overlays
    def refresh(self, scene_rect: QRectF | None = None) -> None:
        """Paint the background (sheets, grid, counters) again, all of it or one part."""
        if scene_rect is None:
            self.resetCachedContent()
            self.viewport().update()
        else:
            # only what is on screen: the view's background cache hands the invalidated rectangle to
            # drawBackground unclipped, and a whole sheet invalidated at 130 % asked for every one of its
            # 2,520 finest tiles (the queue kept the last 512, none of them on screen)
            scene_rect = self._on_screen(scene_rect)
            if not scene_rect.isEmpty():
                self.invalidateScene(scene_rect, QGraphicsScene.BackgroundLayer)

    def set_counters_visible(self, on: bool) -> None:
        if self.counters is not None:
            self.counters.visible = on
            self.refresh()

    def set_grid_visible(self, on: bool) -> None:
        if self.grid is not None:
            self.grid.show_grid = on
            self.refresh()

    def set_ids_visible(self, on: bool) -> None:
        if self.grid is not None:
            self.grid.show_ids = on
            self.refresh()

    # ------------------------------------------------------------ drawing


    def settle(self) -> None:
        """End fast drawing now (as if the view had been still for a while)."""
        self._still_timer.stop()
        self._became_still()

    def tiles_ready(self) -> bool:
        """Every sheet's pyramid is built (or failed) and no tile read is pending."""
        return all(j.finished for j in self.jobs) and self.store.pending() == 0

    def wait_until_drawn(self, timeout: float = 60.0) -> bool:
        """Process events until every visible tile and counter picture is in memory and drawn
        (and the grid is ready for any zoom)."""
        app = QApplication.instance()
        self.settle()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            app.processEvents()
            if all(j.finished for j in self.jobs):
                self.viewport().repaint()
                app.processEvents()
                if self.store.pending() == 0 and self.art.pending() == 0 and self._prepare.pending() == 0:
                    if self.moving:              # moved again meanwhile: the last frame was a fast one
                        self.settle()
                        continue
                    self.viewport().repaint()
                    if self._drawn_fast:         # some part was still drawn fast: draw it all again
                        self.settle()
                        continue
                    if self.store.pending() == 0 and self.art.pending() == 0:
                        return True
                continue                     # tiles or pictures to make: no sleeping
            time.sleep(0.005)                # waiting for the pyramid to be built
        return False
