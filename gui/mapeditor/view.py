"""The editor's map view: the play window's MapView with the editor's overlays and tool clicks."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QTransform

from engine.maps.board import Affine, Board, Sheet

from gui.scene.mapview import MapView, sheet_to_scene
from .overlay import paint_overlays


class EditorView(MapView):
    """A MapView whose left button belongs to the current tool; pan with the middle button or Space.

    While a sheet is calibrated its scan stays where it is on the screen: a new fit moves
    the grid and the overlays over the still scan (``correction``, from the lattice to the
    lattice as the scan was shown), so a click aimed at a hex lands on that hex. "Fit view"
    (:meth:`straighten`) shows the lattice square to the screen again.
    """

    pointed = Signal(float, float)        # lattice coordinates under the mouse

    def __init__(self, editor, parent=None, cache=None):
        super().__init__(parent, cache=cache)
        self.editor = editor
        self.setFocusPolicy(Qt.StrongFocus)
        self.correction = QTransform()                 # lattice -> lattice as shown (identity: straight)
        self.shown_with: dict[str, Affine] = {}        # sheet id -> the transform its scan is shown with
        # The scene always has room around the map (_room_around), so both bars always have a range. Shown
        # only "as needed", a bar appearing narrowed the viewport, the refit on resize shrank the map, the
        # bar vanished and the view widened again: a layout loop that froze the window at some sizes.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOn)

    # ------------------------------------------------------------ coordinates
    def lattice(self, scene_pos: QPointF) -> tuple[float, float]:
        inverse, _ok = self.correction.inverted()
        p = inverse.map(QPointF(scene_pos.x() / self.scale_, scene_pos.y() / self.scale_))
        return (p.x(), p.y())

    def scene_point(self, x: float, y: float) -> QPointF:
        p = self.correction.map(QPointF(x, y))
        return QPointF(p.x() * self.scale_, p.y() * self.scale_)

    def lattice_to_scene(self) -> QTransform:
        """Lattice coordinates to scene coordinates (the correction, then the scale)."""
        return self.correction * QTransform.fromScale(self.scale_, self.scale_)

    def scene_correction(self) -> QTransform:
        """Scene to scene: where the straight scene's points are shown while the scan is kept still."""
        s = QTransform.fromScale(self.scale_, self.scale_)
        return s.inverted()[0] * self.correction * s

    def hex_centre(self, h):
        return self.scene_point(*self.board.center(h))

    def hex_at_scene(self, pos: QPointF):
        if self.board is None:
            return None
        h = self.board.hex_at(*self.lattice(pos))
        return h if h in self.board else None

    def lattice_to_viewport(self, x: float, y: float) -> QPointF:
        return QPointF(self.mapFromScene(self.scene_point(x, y)))

    def image_to_viewport(self, sheet: Sheet, u: float, v: float) -> QPointF:
        return self.lattice_to_viewport(*sheet.transform.inverse().apply(u, v))

    def layer_of(self, sheet: Sheet):
        for layer in self.images:
            if layer.label.startswith(f"sheet {sheet.id} (") or (not sheet.id and layer is self.images[0]):
                return layer
        return None

    def show_board(self, board: Board) -> None:
        self.correction = QTransform()
        self.shown_with = {sh.id: sh.transform for sh in board.sheets}
        self.content = QRectF()
        super().show_board(board)
        self.content = self.scene().sceneRect()
        self._room_around()
        self.fit()

    def _room_around(self) -> None:
        """A scene far larger than the map, so that growing it never shifts what is on the screen."""
        c = self.content
        self.scene().setSceneRect(self.scene().sceneRect().united(c.adjusted(-c.width(), -c.height(),
                                                                               c.width(), c.height())))

    def fit(self) -> None:
        """The whole map (grid and scans) in the window."""
        rect = getattr(self, "content", QRectF())
        if rect.isEmpty():
            super().fit()
            return
        self._fitted = True
        self._moved()
        self.fitInView(rect, Qt.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom())

    def sheet_moved(self, sheet: Sheet) -> None:
        """A sheet's transform changed (a new fit): its scan stays still on the screen, the grid moves over it."""
        before = self.shown_with.get(sheet.id, sheet.transform)
        now = sheet.transform
        if before != now:
            try:
                self.correction = _qt(now) * _qt(before.inverse()) * self.correction
            except ValueError:          # a singular fit: show it straight
                self.correction = QTransform()
            self.shown_with[sheet.id] = now
        self._place_sheets()

    def straighten(self) -> None:
        """Fit view: the grid square to the screen again, every scan placed by its fit, the whole board shown."""
        if self.board is None:
            return
        self.correction = QTransform()
        self.shown_with = {sh.id: sh.transform for sh in self.board.sheets}
        self._place_sheets()
        self.fit()

    def _place_sheets(self) -> None:
        c = self.scene_correction()
        rect = self.scene_correction().mapRect(self.grid.rect) if self.grid is not None else QRectF()
        for sheet in self.board.sheets:
            layer = self.layer_of(sheet)
            if layer is not None:
                layer.to_scene = sheet_to_scene(sheet, self.scale_) * c
                rect = rect.united(layer.scene_rect())
        if not rect.isEmpty():
            m = self.scale_ * 2
            self.content = rect.adjusted(-m, -m, m, m)
            self._room_around()
        self.refresh()

    def drawBackground(self, painter: QPainter, rect) -> None:
        finder = getattr(self.editor, "grid_finder", None)
        if self.grid is not None and finder is not None and finder.proposal is not None:
            grid, self.grid = self.grid, None      # a found grid is shown alone: the one it would replace is hidden
            try:
                super().drawBackground(painter, rect)
            finally:
                self.grid = grid
            return
        c = self.scene_correction()
        if c.isIdentity() or self.grid is None:
            super().drawBackground(painter, rect)
            return
        grid, self.grid = self.grid, None      # the scans and counters as usual, the grid moved by the fit
        try:
            super().drawBackground(painter, rect)
        finally:
            self.grid = grid
        painter.save()
        painter.setTransform(c, True)
        grid.paint(painter, c.inverted()[0].mapRect(rect), self.moving)
        painter.restore()

    # ------------------------------------------------------------ mouse and keys to the tool
    def _tool_event(self, event) -> bool:
        return not self._space and event.button() in (Qt.LeftButton, Qt.RightButton)

    def mousePressEvent(self, event):
        if self._tool_event(event) and self.editor.tool is not None:
            pos = self.lattice(self.mapToScene(event.position().toPoint()))
            self.editor.tool.press(pos, event.button(), event.modifiers())
            self.viewport().update()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event):
        super().mouseMoveEvent(event)
        if self._pan_from is not None:
            return
        pos = self.lattice(self.mapToScene(event.position().toPoint()))
        self.pointed.emit(*pos)
        if self.editor.tool is not None:
            self.editor.tool.move(pos, event.buttons())
            self.viewport().update()

    def mouseReleaseEvent(self, event):
        if self._pan_from is None and self._tool_event(event) and self.editor.tool is not None:
            pos = self.lattice(self.mapToScene(event.position().toPoint()))
            self.editor.tool.release(pos, event.button())
            self.viewport().update()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event):
        if self._tool_event(event) and self.editor.tool is not None:
            self.editor.tool.finish()
            self.viewport().update()
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event):
        tool = self.editor.tool
        if tool is not None and not event.isAutoRepeat() and tool.key(event.key()):
            self.viewport().update()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------ overlays
    def drawForeground(self, painter: QPainter, rect) -> None:
        if self.board is None:
            return
        painter.save()
        painter.resetTransform()
        paint_overlays(painter, self, self.editor)
        painter.restore()


def _qt(t: Affine) -> QTransform:
    """An affine map of the plane as a QTransform (row vectors: ``p * Q``)."""
    return QTransform(t.a, t.d, t.b, t.e, t.c, t.f)
