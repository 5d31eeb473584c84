"""The table view: the table's image in inches, terrain, teams, cards and guns; drag a team to order a move.

While a team is dragged the view shows the circle it may be ordered within
(the engine's ``allowance``), a ruler with the distance, and every gun's cone
re-laid where the engine says it would lay (``preview_guns``).  The drop is
handed to the window, which orders the move; the view never decides a rule.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsScene, QGraphicsView

from engine.rulesets.scw.cone import band_polygons
from engine.rulesets.scw.enemy import active_guns, gun_cone
from engine.maps.table import distance

from .items import (AllowanceItem, CardItem, ConeItem, FlashItem, GunItem, LeaderItem, RulerItem, TeamItem,
                    terrain_outline)

DRAG_START_PX = 4        # a press on a team that moves this far (screen pixels) picks it up
WHEEL_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
FLASH_MS = 1500          # how long the ring marking an enemy action lasts


class TableView(QGraphicsView):
    """Shows a gridless table and the game on it: drag a team to move it, the bare table to pan, right-drag
    (or the tape-measure tool) to measure; the wheel zooms."""

    team_dropped = Signal(str, float, float)    # team id, x, y in inches
    team_clicked = Signal(str)                  # a click (no drag) on a team
    hovered = Signal(str)                       # what is under the pointer, in words
    measured = Signal(str)                      # the tape measure's reading

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform | QPainter.TextAntialiasing)
        # zooms keep a point they name in place (zoom_by): Qt's "under the mouse" anchor reads the global pointer
        # and the last hover point, which a drag (handled here, not by Qt) leaves stale
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setBackgroundBrush(QColor(58, 58, 62))
        self.setMouseTracking(True)
        self.session = None
        self.table = None
        self.ppi = 10.0
        self.teams: dict[str, TeamItem] = {}
        self.cards: dict[str, CardItem] = {}
        self.guns: dict[str, GunItem] = {}
        self.cones: dict[str, ConeItem] = {}
        self.leaders: dict[str, LeaderItem] = {}     # leaders whose team is gone
        self.selected: str | None = None               # the team whose orders are listed
        self.image_item: QGraphicsPixmapItem | None = None
        self.image_problem = ""
        self.flashes: list = []         # rings marking what the enemy just did
        self._flash_anims: list = []    # their animations, stopped before another game's table replaces them
        self.measuring = False          # the tape-measure tool is on
        self._press = None              # (team id or None, scene point, screen point, button)
        self._dragging = None           # team id being dragged
        self._measure_from = None       # inches
        self._pan_from = None           # viewport point of a left-drag on the bare table
        self.ruler: RulerItem | None = None
        self.tape: RulerItem | None = None
        self.allowance: AllowanceItem | None = None

    # ------------------------------------------------------------ the table
    def set_session(self, session) -> None:
        """Show the table of a game and the game on it."""
        for anim in self._flash_anims:          # the rings they swell go with the old table
            anim.valueChanged.disconnect()
            anim.finished.disconnect()
            anim.stop()
        self._flash_anims = []
        self.session = session
        self.table = session.table
        self.ppi = self.table.pixels_per_inch
        sc = self.scene()
        sc.clear()
        self.flashes = []
        self.teams, self.cards, self.guns, self.cones, self.leaders = {}, {}, {}, {}, {}
        w, h = self.table.width * self.ppi, self.table.height * self.ppi
        sc.setSceneRect(QRectF(-2 * self.ppi, -2 * self.ppi, w + 4 * self.ppi, h + 4 * self.ppi))
        # the table image is small (a 6 x 4 foot table at 20 pixels an inch is 1440 x 960): one pixmap, no tiles
        self.image_item = None
        self.image_problem = ""
        pix = QPixmap(str(self.table.image_path)) if self.table.image else QPixmap()
        if pix.isNull():
            self.image_problem = (f"{self.table.source}: table.image: cannot read the image "
                                  f"{self.table.image_path}" if self.table.image else "")
            sc.addRect(QRectF(0, 0, w, h), QColor(90, 80, 60), QColor(196, 178, 128))
        else:
            self.image_item = sc.addPixmap(pix)
            self.image_item.setScale(w / max(1, pix.width()))
            self.image_item.setTransformationMode(Qt.SmoothTransformation)
        for piece in self.table.pieces:
            sc.addItem(terrain_outline(piece, self.ppi))
        self.allowance = AllowanceItem()
        sc.addItem(self.allowance)
        self.ruler = RulerItem(self.ppi, QColor(60, 200, 255))
        sc.addItem(self.ruler)
        self.tape = RulerItem(self.ppi, QColor(255, 255, 255))
        sc.addItem(self.tape)
        self.show_state()

    def show_state(self) -> None:
        """Draw the game as the engine says it stands now (teams back where they are, cones as laid)."""
        if self.session is None:
            return
        sc = self.scene()
        for group in (self.teams, self.cards, self.guns, self.cones, self.leaders):
            for item in group.values():
                sc.removeItem(item)
            group.clear()
        v = self.session.view()
        rules = self.session.rules
        r = self.table.footprint_radius * self.ppi
        for cid, c in sorted(v["cards"].items()):
            if c["at"] is None:
                continue
            item = CardItem(c, rules.t["cards"]["card_width"], rules.t["cards"]["card_depth"], self.ppi)
            sc.addItem(item)
            self.cards[cid] = item
        firing = {g["id"] for g in active_guns(v)}
        for gid, g in sorted(v["guns"].items()):
            item = GunItem(g, self.session.gun_bravado(g), r)
            item.setPos(g["at"][0] * self.ppi, g["at"][1] * self.ppi)
            sc.addItem(item)
            self.guns[gid] = item
            if gid in firing:
                cone = ConeItem(gid, self.ppi)
                shape = gun_cone(g)
                cone.set_cone(shape, band_polygons(tuple(g["at"]), shape, rules.bands), g["bearing"], g.get("target"))
                sc.addItem(cone)
                self.cones[gid] = cone
        for tid, t in sorted(v["teams"].items(), key=lambda kv: (len(kv[0]), kv[0])):
            if not t["alive"]:
                continue
            leaders = [lid for lid, ld in sorted(v["leaders"].items()) if ld["alive"] and ld["team"] == tid]
            item = TeamItem(t, leaders, r, asked=bool(v["pending"]) and v["pending"]["team"] == tid)
            if tid == self.selected:
                item.mark_chosen()
            item.setPos(t["at"][0] * self.ppi, t["at"][1] * self.ppi)
            sc.addItem(item)
            self.teams[tid] = item
        for lid, ld in sorted(v["leaders"].items()):
            if ld["alive"] and ld["team"] is None and ld["at"]:
                item = LeaderItem(ld, r)
                item.setPos(ld["at"][0] * self.ppi, ld["at"][1] * self.ppi)
                sc.addItem(item)
                self.leaders[lid] = item
        self.allowance.hide()
        self.ruler.hide()

    def flash(self, at: tuple[float, float]) -> None:
        """A ring that swells and fades where the enemy just acted (a gun laid, a card turned over)."""
        ring = FlashItem(at, self.table.footprint_radius * self.ppi * 3, self.ppi)
        self.scene().addItem(ring)
        self.flashes.append(ring)
        anim = QVariantAnimation(self)
        self._flash_anims.append(anim)
        anim.setDuration(FLASH_MS)
        anim.setStartValue(0.0)
        anim.setEndValue(1.0)
        anim.valueChanged.connect(ring.grow)
        anim.finished.connect(lambda: self._flash_done(ring, anim))
        anim.start(QVariantAnimation.DeleteWhenStopped)

    def _flash_done(self, ring, anim=None) -> None:
        if anim in self._flash_anims:
            self._flash_anims.remove(anim)
        if ring in self.flashes:
            self.flashes.remove(ring)
            self.scene().removeItem(ring)

    def fit(self) -> None:
        if self.table is not None:
            self.fitInView(self.sceneRect(), Qt.KeepAspectRatio)

    def zoom_by(self, f: float, anchor: QPointF | None = None) -> None:
        """Zoom by ``f`` keeping the table point under ``anchor`` (viewport pixels; the viewport's centre if
        not given) in place."""
        z = self.transform().m11() * f
        if not MIN_ZOOM <= z <= MAX_ZOOM:
            return
        if anchor is None:
            anchor = QPointF(self.viewport().width() / 2, self.viewport().height() / 2)
        before = self.mapToScene(anchor.toPoint())
        self.scale(f, f)
        d = (self.mapToScene(anchor.toPoint()) - before) * z
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(round(h.value() - d.x()))
        v.setValue(round(v.value() - d.y()))

    def wheelEvent(self, event) -> None:
        self.zoom_by(WHEEL_STEP if event.angleDelta().y() > 0 else 1 / WHEEL_STEP, event.position())

    def inches(self, scene: QPointF) -> tuple[float, float]:
        return (scene.x() / self.ppi, scene.y() / self.ppi)

    def screen_point(self, at: tuple[float, float]):
        """Where a point on the table (inches) is on the viewport."""
        return self.mapFromScene(QPointF(at[0] * self.ppi, at[1] * self.ppi))

    def team_at(self, scene: QPointF) -> str | None:
        """The team whose base is under a scene point (the topmost)."""
        for item in self.scene().items(scene):
            # topLevelItem(), never parentItem(): PySide6 hands a top-level item that Python did not make (the
            # table image from addPixmap) back to Python's ownership when parentItem() answers None, and the
            # scene's own delete then leaves Python a second delete of it, a crash in a later garbage collection
            top = item.topLevelItem()
            if isinstance(top, TeamItem):
                return top.team_id
        return None

    # ------------------------------------------------------------ dragging and measuring
    def mousePressEvent(self, event) -> None:
        if self.session is None:
            return super().mousePressEvent(event)
        scene = self.mapToScene(event.position().toPoint())
        team = None if (self.measuring or event.button() == Qt.RightButton) else self.team_at(scene)
        if event.button() not in (Qt.LeftButton, Qt.RightButton):
            return super().mousePressEvent(event)
        self._press = (team, scene, event.position().toPoint(), event.button())
        self._pan_from = None
        if team is None and (self.measuring or event.button() == Qt.RightButton):
            self._measure_from = self.inches(scene)
            self.tape.hide()
        elif team is None:          # a left-drag on the bare table pans
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.ClosedHandCursor)
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        pos = event.position().toPoint()
        scene = self.mapToScene(pos)
        at = self.inches(scene)
        if self._press is None:
            self.hovered.emit(self._hover_text(scene, at))
            return super().mouseMoveEvent(event)
        team, start, screen, _ = self._press
        if team is not None:
            if self._dragging is None and (pos - screen).manhattanLength() >= DRAG_START_PX:
                self._start_drag(team)
            if self._dragging is not None:
                self._drag_to(at)
        elif self._pan_from is not None:
            delta = pos - self._pan_from
            self._pan_from = pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
        elif self._measure_from is not None:
            d = distance(self._measure_from, at)
            text = f"{d:.1f} in"
            self.tape.measure(self._measure_from, at, text)
            self.measured.emit(f"Tape measure: {d:.1f} inches")
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        if self._press is None:
            return super().mouseReleaseEvent(event)
        team, _, _, _ = self._press
        at = self.inches(self.mapToScene(event.position().toPoint()))
        self._press = None
        self._measure_from = None
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
        if self._dragging is not None:
            tid, self._dragging = self._dragging, None
            self.allowance.hide()
            self.ruler.hide()
            self.team_dropped.emit(tid, round(at[0], 2), round(at[1], 2))
        elif team is not None:
            self.team_clicked.emit(team)
        event.accept()

    def keyPressEvent(self, event) -> None:
        """Escape drops nothing: a dragged team goes back where it stands, the cones as they are laid."""
        if event.key() == Qt.Key_Escape and self._dragging is not None:
            self._dragging = None
            self._press = None
            self.show_state()
            event.accept()
            return
        super().keyPressEvent(event)

    def _start_drag(self, team: str) -> None:
        self._dragging = team
        t = self.session.state["teams"][team]
        self.allowance.show_round(tuple(t["at"]), self.session.allowance(team), self.ppi)
        self.teams[team].setZValue(30)

    def _drag_to(self, at: tuple[float, float]) -> None:
        """The dragged team follows the pointer; the ruler, and the cones where the engine would lay them."""
        team = self._dragging
        start = tuple(self.session.state["teams"][team]["at"])
        self.teams[team].setPos(at[0] * self.ppi, at[1] * self.ppi)
        d = distance(start, at)
        allowed = self.session.allowance(team)
        self.ruler.measure(start, at, f"{d:.1f} in of {allowed:g}")
        self.measured.emit(f"{team}: {d:.1f} inches; it may be ordered up to {allowed:g}")
        for gid, laid in self.session.preview(team, at).items():
            cone = self.cones.get(gid)
            if cone is not None:
                cone.set_cone(laid["cone"], laid["bands"], laid["bearing"], laid["target"])

    def _hover_text(self, scene: QPointF, at: tuple[float, float]) -> str:
        if self.table is None or not self.table.contains(at):
            return ""
        parts = [f"{at[0]:.1f}, {at[1]:.1f} in"]
        parts += [f"{p.name} ({p.kind})" for p in self.table.pieces_at(at)]
        team = self.team_at(scene)
        if team:
            parts.append(self.teams[team].toolTip())
        return " - ".join(parts)
