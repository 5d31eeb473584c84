"""The editor's map view: the play window's MapView with the editor's overlays and tool clicks."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QPainter

from engine.maps.board import Sheet

from ..mapview import MapView, sheet_to_scene
from .overlay import paint_overlays


class EditorView(MapView):
    """A MapView whose left button belongs to the current tool; pan with the middle button or Space."""

    pointed = Signal(float, float)        # lattice coordinates under the mouse

    def __init__(self, editor, parent=None, cache=None):
        super().__init__(parent, cache=cache)
        self.editor = editor
        self.setFocusPolicy(Qt.StrongFocus)

    # ------------------------------------------------------------ coordinates
    def lattice(self, scene_pos: QPointF) -> tuple[float, float]:
        return (scene_pos.x() / self.scale_, scene_pos.y() / self.scale_)

    def scene_point(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.scale_, y * self.scale_)

    def lattice_to_viewport(self, x: float, y: float) -> QPointF:
        return QPointF(self.mapFromScene(self.scene_point(x, y)))

    def image_to_viewport(self, sheet: Sheet, u: float, v: float) -> QPointF:
        return self.lattice_to_viewport(*sheet.transform.inverse().apply(u, v))

    def layer_of(self, sheet: Sheet):
        for layer in self.images:
            if layer.label.startswith(f"sheet {sheet.id} (") or (not sheet.id and layer is self.images[0]):
                return layer
        return None

    def sheet_moved(self, sheet: Sheet) -> None:
        """A sheet's transform changed (a new fit): place its image again under the fixed grid."""
        layer = self.layer_of(sheet)
        if layer is not None:
            layer.to_scene = sheet_to_scene(sheet, self.scale_)
        self.refresh()

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
