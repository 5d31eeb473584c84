"""The editor's tools: what a click, a drag, Enter and Escape do in each mode.

A tool only reads the mouse and asks the editor (and through it the engine's
``engine.maps.mapedit``) to change the board; it keeps no map facts of its own.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPen, QPolygonF

from engine.errors import BadHexId
from engine.maps.hexes import hex_linedraw
from engine.maps.mapedit import (Contour, brush, hexside_at, paint_terrain, path_links, set_elevation, set_feature,
                            suggest_id, trace_hexsides, trace_path)

from .overlay import hex_polygon


FREEHAND_STEP = 0.3     # hex sizes between the points of a line traced by dragging


class Tool:
    """A mode of the editor; the base does nothing."""

    name = ""
    hint = ""

    def __init__(self, editor):
        self.editor = editor
        self.hover: tuple[float, float] | None = None

    @property
    def board(self):
        return self.editor.board

    def press(self, pos, button, mods) -> None:
        pass

    def move(self, pos, buttons) -> None:
        self.hover = pos

    def release(self, pos, button) -> None:
        pass

    def finish(self) -> None:
        pass

    def key(self, key) -> bool:
        return False

    def cancel(self) -> None:
        pass

    def paint(self, painter, view) -> None:
        pass

    def hex_under(self, pos):
        h = self.board.hex_at(*pos)
        return h if h in self.board else None


# ---------------------------------------------------------------- calibration

class CalibrateTool(Tool):
    """Click a hex centre on the scan, type or accept its id; the grid is refitted at once."""

    name = "calibrate"
    hint = "Click the centre of a hex on the scan, then type its id (or accept the suggestion) and press Enter"

    def __init__(self, editor):
        super().__init__(editor)
        self.pending: tuple[float, float] | None = None

    def press(self, pos, button, mods) -> None:
        if button != Qt.LeftButton:
            self.pending = None
            return
        finder = getattr(self.editor, "grid_finder", None)
        if finder is not None and finder.wants_clicks:
            # Find the grid was not sure: the click decides it (image pixels of the sheet searched)
            finder.click(self.board.sheet(finder.sheet_id).transform.apply(*pos))
            return
        sheet = self.editor.current_sheet()
        self.pending = sheet.transform.apply(*pos)
        self.editor.ask_click_id(suggest_id(self.board, sheet, self.pending) or "")

    def accept(self, hex_id: str) -> bool:
        """Record the pending click as the centre of ``hex_id``; False (with a message) for a bad id."""
        if self.pending is None:
            self.editor.status("Click a hex centre first")
            return False
        sheet = self.editor.current_sheet()
        try:
            self.editor.edit.click_centre(sheet.id, hex_id.strip(), self.pending)
        except BadHexId as e:
            self.editor.status(str(e))
            return False
        self.pending = None
        self.editor.calibrated(sheet)
        return True

    def key(self, key) -> bool:
        if key == Qt.Key_Escape:
            self.pending = None
            finder = getattr(self.editor, "grid_finder", None)
            if finder is not None and finder.wants_clicks:
                finder.discard()
                self.editor.palette.set_grid_message("Calibrate by clicking hex centres and typing their ids.")
            return True
        return False

    def cancel(self) -> None:
        self.pending = None

    def paint(self, painter, view) -> None:
        sheet = self.editor.current_sheet()
        cal = self.editor.edit.calibrations.get(sheet.id)
        font = QFont("DejaVu Sans")
        font.setPixelSize(13)
        font.setBold(True)
        painter.setFont(font)
        if cal is not None:
            fit = cal.fit
            for i, (hid, uv) in enumerate(cal.clicks):
                p = view.image_to_viewport(sheet, *uv)
                worst = fit is not None and i == fit.worst and len(cal.clicks) > 3
                colour = QColor(230, 0, 0) if worst else QColor(0, 80, 230)
                try:
                    c = view.lattice_to_viewport(*self.board.center(sheet.numbering.parse(hid)))
                    painter.setPen(QPen(QColor(0, 0, 0, 160), 1, Qt.DashLine))
                    painter.drawLine(p, c)
                except BadHexId:
                    pass
                painter.setPen(QPen(colour, 3 if worst else 2))
                painter.drawLine(p + QPointF(-9, 0), p + QPointF(9, 0))
                painter.drawLine(p + QPointF(0, -9), p + QPointF(0, 9))
                painter.drawEllipse(p, 6, 6)
                res = f" {fit.residuals[i]:.1f}px" if fit is not None else ""
                painter.drawText(p + QPointF(10, -8), hid + res)
        if self.pending is not None:
            p = view.image_to_viewport(sheet, *self.pending)
            painter.setPen(QPen(QColor(255, 170, 0), 3))
            painter.drawEllipse(p, 8, 8)


# ---------------------------------------------------------------- painting hexes

class PaintTool(Tool):
    """Paint with the brush: terrain, a hex feature or an elevation; the right button erases."""

    hint = "Drag to paint with the brush (radius in the palette); right button erases"

    def __init__(self, editor, what: str):
        super().__init__(editor)
        self.what = what               # "terrain", "feature", "elevation"
        self.name = what
        self.changed = False
        self.erasing = False
        self.last = None

    def key(self, key) -> bool:
        """Elevation: type a number over the map (``60``) to paint that value next, without reaching for the palette."""
        if self.what != "elevation":
            return False
        digit = {Qt.Key_Period: "."}.get(key)
        if Qt.Key_0 <= key <= Qt.Key_9:
            digit = str(key - Qt.Key_0)
        if digit is None:
            return False
        self.typed = (self.typed if self.last is None and getattr(self, "typed_open", False) else "") + digit
        self.typed_open = True
        try:
            self.editor.palette.elevation_spin.setValue(float(self.typed))
        except ValueError:
            return True
        self.editor.status(f"elevation {self.typed}: click or drag to paint it")
        return True

    def _value(self):
        p = self.editor.palette
        return {"terrain": p.terrain, "feature": p.feature, "elevation": p.elevation_value}[self.what]()

    def _field(self) -> str:
        return {"terrain": "terrain", "feature": "features", "elevation": "elevation"}[self.what]

    def press(self, pos, button, mods) -> None:
        self.typed_open = False            # the next digit starts a new number
        h = self.hex_under(pos)
        if h is None:
            return
        self.erasing = button == Qt.RightButton
        value = self._value()
        label = f"{'erase' if self.erasing else 'paint'} {self.what} {'' if self.erasing else value}".strip()
        names = self.editor.edit.PAINT_FIELDS if self.what == "terrain" else (self._field(),)
        if self.what == "terrain" and not self.erasing:
            from engine.maps.mapedit import terrain_code
            self.editor.edit.begin(label, names)
            terrain_code(self.board, value)
        else:
            self.editor.edit.begin(label, names)
        self.changed = False
        self.last = None
        self._dab(h, value)

    def _dab(self, h, value) -> None:
        if h == self.last:
            return
        # a fast drag skips hexes between two mouse events: paint the line between them too
        line = hex_linedraw(self.last, h)[1:] if self.last is not None else [h]
        self.last = h
        r = self.editor.palette.radius()
        hexes = list(dict.fromkeys(x for c in line for x in brush(self.board, c, r)))
        b = self.board
        if self.what == "terrain":
            ed = self.editor.edit
            known = len(ed.painted), len(ed.suggested)
            ed.mark_painted(hexes, not self.erasing)        # painted by hand: examples for suggested terrain
            done = paint_terrain(b, hexes, None if self.erasing else value)
            done = done or known != (len(ed.painted), len(ed.suggested))
        elif self.what == "feature":
            done = set_feature(b, hexes, value, not self.erasing)
        else:
            done = set_elevation(b, hexes, None if self.erasing else value)
        if done:
            self.changed = True
            self.editor.changed(repaint_only=True)

    def move(self, pos, buttons) -> None:
        super().move(pos, buttons)
        if buttons & (Qt.LeftButton | Qt.RightButton) and self.last is not None:
            h = self.hex_under(pos)
            if h is not None:
                self._dab(h, self._value())

    def release(self, pos, button) -> None:
        if self.last is None:
            return
        self.editor.edit.commit(self.changed)
        self.last = None
        if self.changed:
            self.editor.changed()

    def paint(self, painter, view) -> None:
        if self.hover is None:
            return
        h = self.hex_under(self.hover)
        if h is None:
            return
        painter.setPen(QPen(QColor(255, 255, 255), 2))
        painter.setBrush(Qt.NoBrush)
        for x in brush(self.board, h, self.editor.palette.radius()):
            painter.drawPolygon(hex_polygon(view, x))


class FillTool(Tool):
    """Click a hex: its whole region of equal terrain takes the palette's terrain."""

    name = "fill"
    hint = "Click a hex to fill its region of equal terrain (or of no terrain) with the palette's terrain"

    def press(self, pos, button, mods) -> None:
        h = self.hex_under(pos)
        if h is None:
            return
        terrain = None if button == Qt.RightButton else self.editor.palette.terrain()
        done = self.editor.edit.fill(h, terrain)
        self.editor.changed()
        self.editor.status(f"filled {len(done)} hexes with {terrain or 'no terrain'}")


# ---------------------------------------------------------------- hexsides

class HexsideTool(Tool):
    """Click near a hexside to switch the palette's hexside feature on or off there."""

    name = "hexside"
    hint = ("Click a hexside to switch the hexside feature on or off; right-click a suggested one to turn it down "
            "(the next suggestions learn from it)")

    def press(self, pos, button, mods) -> None:
        side = hexside_at(self.board, *pos)
        if side is None:
            self.editor.status("Click closer to a hexside")
            return
        ids = "/".join(self.board.hex_id(h) if h in self.board else "off map" for h in side.hexes())
        if button == Qt.RightButton:
            feature = self.editor.edit.reject_suggested_side(side)
            if feature is None:
                self.editor.status(f"{ids} is not suggested: right-click a suggested hexside (dashed magenta) to "
                                   "turn it down")
                return
            self.editor.changed()
            self.editor.status(f"Turned down {feature} at {ids}: Suggest hexsides again and those that look like "
                               "it go too")
            return
        feature = self.editor.palette.hexside_feature()
        on = self.editor.edit.toggle_hexside(side, feature)
        self.editor.changed()
        self.editor.status(f"{feature} {'on' if on else 'off'} at {ids}")

    def paint(self, painter, view) -> None:
        if self.hover is None:
            return
        side = hexside_at(self.board, *self.hover)
        if side is None:
            return
        (x0, y0), (x1, y1) = self.board.layout.hexside_segment(side)
        painter.setPen(QPen(QColor(255, 255, 255, 220), 7, Qt.SolidLine, Qt.RoundCap))
        painter.drawLine(view.lattice_to_viewport(x0, y0), view.lattice_to_viewport(x1, y1))


# ---------------------------------------------------------------- tracing

class TraceTool(Tool):
    """Click points along a printed feature; Enter (or a double click) shows the result, Enter again keeps it."""

    KINDS = ("hexside", "link", "line", "obstacle", "contour")

    def __init__(self, editor, kind: str):
        super().__init__(editor)
        self.kind = kind
        self.name = f"trace {kind}"
        self.points: list[tuple[float, float]] = []
        self.preview = None            # hexsides, a path of hexes, or the points themselves
        self.hint = {"hexside": "Click or drag along a printed river or ditch; Enter to snap it to hexsides, Enter again to keep",
                     "link": "Click or drag along a printed road or railroad; Enter to see its hexes, Enter again to keep",
                     "line": "Click along a named line; Enter to snap it, Enter again to name it",
                     "obstacle": "Click round a printed wood or building; Enter to close it, Enter again to keep",
                     "contour": "Click along a printed contour line; Enter to end it, Enter again to keep"}[kind]

    def press(self, pos, button, mods) -> None:
        if button == Qt.RightButton:
            self.finish()
            return
        if self.preview is not None:
            self.preview = None
        self.points.append(pos)

    def move(self, pos, buttons) -> None:
        """Dragging draws freehand: a point every FREEHAND_STEP hex sizes along the way."""
        super().move(pos, buttons)
        if buttons & Qt.LeftButton and self.points and self.preview is None:
            last = self.points[-1]
            if (pos[0] - last[0]) ** 2 + (pos[1] - last[1]) ** 2 >= FREEHAND_STEP ** 2:
                self.points.append(pos)

    def finish(self) -> None:
        if self.preview is not None:
            self.accept()
            return
        pts = self.points
        b = self.board
        if self.kind in ("hexside", "line"):
            self.preview = trace_hexsides(b, pts) if len(pts) >= 2 else None
        elif self.kind == "link":
            path = trace_path(b, pts) if len(pts) >= 2 else []
            self.preview = path if len(path) >= 2 else None
        elif self.kind == "obstacle":
            self.preview = list(pts) if len(pts) >= 3 else None
        else:
            need = 3 if self.editor.palette.contour_closed() else 2
            self.preview = list(pts) if len(pts) >= need else None
        if self.preview is None:
            self.editor.status("Not enough points traced yet")
        else:
            self.editor.status(f"{self._describe()} — Enter to keep, Escape to discard")

    def _describe(self) -> str:
        if self.kind in ("hexside", "line"):
            return f"{len(self.preview)} hexsides"
        if self.kind == "link":
            return f"{len(self.preview)} hexes: " + " ".join(self.board.hex_id(h) for h in self.preview)
        return f"{len(self.preview)} points"

    def accept(self) -> None:
        p = self.editor.palette
        ed = self.editor.edit
        try:
            if self.kind == "hexside":
                ed.accept_hexsides(self.preview, p.hexside_feature())
            elif self.kind == "link":
                ed.accept_links(p.link_kind(), path_links(self.preview))
            elif self.kind == "line":
                ed.name_line(p.line_name(), p.line_kind(), self.preview)
            elif self.kind == "obstacle":
                ed.add_obstacle(p.obstacle_kind(), p.obstacle_height(), self.preview,
                                self.editor.current_sheet().id)
            else:
                ed.add_contour(Contour(p.contour_elevation(), list(self.preview), p.contour_closed(),
                                       p.contour_uphill()))
        except ValueError as e:
            self.editor.status(str(e))
            return
        self.editor.status(f"kept {self._describe()}")
        self.points, self.preview = [], None
        self.editor.changed()

    def key(self, key) -> bool:
        if key in (Qt.Key_Return, Qt.Key_Enter):
            self.finish()
            return True
        if key == Qt.Key_Escape:
            self.cancel()
            return True
        if key == Qt.Key_Backspace and self.points:
            self.points.pop()
            self.preview = None
            return True
        return False

    def cancel(self) -> None:
        self.points, self.preview = [], None

    def paint(self, painter, view) -> None:
        pts = [view.lattice_to_viewport(x, y) for x, y in self.points]
        if self.preview is None and self.hover is not None and pts:
            pts = pts + [view.lattice_to_viewport(*self.hover)]
        painter.setPen(QPen(QColor(255, 0, 200), 2, Qt.DashLine))
        painter.setBrush(Qt.NoBrush)
        if pts:
            painter.drawPolyline(QPolygonF(pts))
            for p in pts[:len(self.points)]:
                painter.drawEllipse(p, 3, 3)
        if self.preview is None:
            return
        b = self.board
        pen = QPen(QColor(255, 0, 200), 6, Qt.SolidLine, Qt.RoundCap)
        painter.setPen(pen)
        if self.kind in ("hexside", "line"):
            for side in self.preview:
                (x0, y0), (x1, y1) = b.layout.hexside_segment(side)
                painter.drawLine(view.lattice_to_viewport(x0, y0), view.lattice_to_viewport(x1, y1))
        elif self.kind == "link":
            painter.drawPolyline(QPolygonF([view.lattice_to_viewport(*b.center(h)) for h in self.preview]))
        else:
            poly = QPolygonF([view.lattice_to_viewport(x, y) for x, y in self.preview])
            if self.kind == "obstacle" or self.editor.palette.contour_closed():
                painter.setBrush(QColor(255, 0, 200, 50))
                painter.drawPolygon(poly)
            else:
                painter.drawPolyline(poly)


# ---------------------------------------------------------------- selection for names

class SelectTool(Tool):
    """Click or drag to select hexes (Ctrl adds, the right button removes) to name them or set their elevation."""

    name = "select"
    hint = "Drag over hexes to select them (Ctrl adds), then name the area or set their elevation in the palette"

    def __init__(self, editor):
        super().__init__(editor)
        self.adding = True
        self.dragging = False
        self.last = None

    def press(self, pos, button, mods) -> None:
        h = self.hex_under(pos)
        sel = self.editor.selection
        self.adding = button != Qt.RightButton
        if self.adding and not mods & (Qt.ControlModifier | Qt.ShiftModifier):
            sel.clear()
        self.dragging = True
        self.last = None
        self._touch(h)

    def _touch(self, h) -> None:
        if h is None:
            return
        line = hex_linedraw(self.last, h) if self.last is not None else [h]
        self.last = h
        for x in line:
            if x not in self.board:
                continue
            if self.adding:
                self.editor.selection.add(x)
            else:
                self.editor.selection.discard(x)
        self.editor.selection_changed()

    def move(self, pos, buttons) -> None:
        super().move(pos, buttons)
        if self.dragging and buttons & (Qt.LeftButton | Qt.RightButton):
            self._touch(self.hex_under(pos))

    def release(self, pos, button) -> None:
        self.dragging = False

    def key(self, key) -> bool:
        if key == Qt.Key_Escape:
            self.editor.selection.clear()
            self.editor.selection_changed()
            return True
        return False


# ---------------------------------------------------------------- the LOS thread

class LosTool(Tool):
    """Click an observer hex; the thread follows the mouse to the target and says clear or blocked, and why."""

    name = "los"
    hint = "Click the observer's hex; move the mouse to a target to see the line of sight"

    def __init__(self, editor):
        super().__init__(editor)
        self.observer = None
        self.target = None
        self.result = None

    def press(self, pos, button, mods) -> None:
        if button == Qt.RightButton:
            self.observer = self.target = self.result = None
            return
        self.observer = self.hex_under(pos)
        self.target = self.result = None

    def move(self, pos, buttons) -> None:
        super().move(pos, buttons)
        if self.observer is None:
            return
        t = self.hex_under(pos)
        if t is not None and t != self.target:
            self.target = t
            self.result = self.editor.line_of_sight(self.observer, t)
            self.editor.status(self.result.explain())

    def paint(self, painter, view) -> None:
        if self.observer is None:
            return
        b = self.board
        a = view.lattice_to_viewport(*b.center(self.observer))
        painter.setPen(QPen(QColor(255, 255, 255), 2))
        painter.drawEllipse(a, 7, 7)
        if self.target is None or self.result is None:
            return
        t = view.lattice_to_viewport(*b.center(self.target))
        clear = self.result.clear
        painter.setPen(QPen(QColor(0, 200, 0) if clear else QColor(230, 0, 0), 3))
        if clear:
            painter.drawLine(a, t)
            return
        blk = self.result.blocker
        bp = view.lattice_to_viewport(*blk.point)
        painter.drawLine(a, bp)
        painter.setPen(QPen(QColor(230, 0, 0, 120), 2, Qt.DotLine))
        painter.drawLine(bp, t)
        painter.setBrush(QColor(230, 0, 0))
        painter.drawEllipse(bp, 5, 5)
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QColor(150, 0, 0))
        painter.drawText(QRectF(bp.x() + 8, bp.y() - 20, 300, 20), Qt.AlignLeft, blk.kind)
