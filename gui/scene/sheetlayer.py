"""A sheet's image on the map, painted from its tile pyramid: only visible tiles of the right level.

Tiles are read from disk between the GUI's events, newest request first
(``gui.scene.idlework``), and kept as pixmaps in a least-recently-used cache shared
by every sheet.  A tile
that is not in memory yet is drawn from the nearest coarser level that is, so
zooming and panning never wait for the disk.  Until the pyramid is built, its
coarse levels stand in for it (its first view: a partial pyramid), blurred
when zoomed in past them; a scan that cannot be read small (a PNG) stands in
with a picture that grows from the top as the scan is decoded (``add_rows``).
"""
from __future__ import annotations

import math
from collections import OrderedDict
from functools import partial
from typing import Callable

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPixmap, QTransform

from gui.scene.idlework import IdleQueue
from gui.scene.tiles import PAPER_RGB, Pyramid

CACHE_BYTES = 384 * 1024 * 1024
PAPER = QColor(*PAPER_RGB)


def screen_format(image: QImage) -> QImage:
    """A tile in the format the screen draws fastest: opaque tiles without an alpha channel,
    so they are copied rather than blended (several times faster when scaled smoothly)."""
    if image.hasAlphaChannel():
        return image.convertToFormat(QImage.Format_ARGB32_Premultiplied)
    return image.convertToFormat(QImage.Format_RGB32)


def _decoded(data: bytes | None) -> QImage:
    """A tile's picture from its bytes (a null image if there are none or they are damaged)."""
    return QImage.fromData(data) if data else QImage()


class TileStore(QObject):
    """Pixmaps of tiles by ``(folder, level, col, row)``: an LRU cache fed by reads between events."""

    loaded = Signal(object)          # the key of a tile now in memory

    def __init__(self, budget_bytes: int = CACHE_BYTES, parent=None):
        super().__init__(parent)
        self.budget = budget_bytes
        self.used = 0
        self._pixmaps: OrderedDict[tuple, QPixmap] = OrderedDict()
        self._queue = IdleQueue(self)
        self.reads = 0

    def get(self, key: tuple) -> QPixmap | None:
        pm = self._pixmaps.get(key)
        if pm is not None:
            self._pixmaps.move_to_end(key)
        return pm

    def request(self, key: tuple, read: Callable[[], bytes | None]) -> None:
        """Read a tile soon (between events) unless it is in memory or already asked for; ``read()`` gives its
        encoded bytes (``Pyramid.tile_bytes``)."""
        if key not in self._pixmaps:
            self._queue.submit(key, lambda: self._read(key, read))

    def load_now(self, key: tuple, read: Callable[[], bytes | None]) -> QPixmap | None:
        """Read a tile in this thread (the top level of a pyramid, always kept)."""
        pm = self.get(key)
        if pm is None:
            image = _decoded(read())
            if not image.isNull():
                self._store(key, screen_format(image))
                pm = self._pixmaps.get(key)
        return pm

    def pending(self) -> int:
        return self._queue.pending()

    def _read(self, key: tuple, read: Callable[[], bytes | None]) -> None:
        image = _decoded(read())
        if not image.isNull():
            image = screen_format(image)
        self._store(key, image)

    def _store(self, key: tuple, image: QImage) -> None:
        if image.isNull() or key in self._pixmaps:
            return
        pm = QPixmap.fromImage(image)
        self.reads += 1
        self._pixmaps[key] = pm
        self.used += pm.width() * pm.height() * 4
        while self.used > self.budget and len(self._pixmaps) > 1:
            old_key, old = self._pixmaps.popitem(last=False)
            self.used -= old.width() * old.height() * 4
        self.loaded.emit(key)

    def shutdown(self) -> None:
        self._queue.clear()


class SheetLayer(QObject):
    """One sheet's image in its own pixel coordinates, painted tile by tile from a pyramid.

    Not a scene item: the map view paints it as part of its cached background,
    so panning only paints the strip that comes into view.
    """

    changed = Signal(QRectF)          # a part of the image (in its pixels) must be painted again

    def __init__(self, width: int, height: int, store: TileStore, label: str = "", parent=None):
        super().__init__(parent)
        self.width, self.height = width, height
        self.store = store
        self.label = label
        self.pyramid: Pyramid | None = None
        self.preview: Pyramid | None = None     # the coarse levels only, shown until the pyramid is ready
        self.growing: QImage | None = None      # or the scan small, decoded so far from the top (the rest paper)
        self.growing_level = 0                  # ... at the size of this pyramid level
        self.grown = 0                          # ... its rows decoded so far
        self.progress = 0.0
        self.error = ""
        self.last_level: int | None = None
        self.to_scene = QTransform()
        self.dpr = 1.0                    # device pixels per logical pixel of the view
        store.loaded.connect(self._tile_arrived)

    def rect(self) -> QRectF:
        return QRectF(0, 0, self.width, self.height)

    def scene_rect(self) -> QRectF:
        return self.to_scene.mapRect(self.rect())

    def set_preview(self, partial: Pyramid) -> None:
        """Show the sheet from a partial pyramid (its coarse levels) while the whole one is built."""
        if self.pyramid is None:
            self.preview = partial
            self._load_top(partial)
            self.changed.emit(self.rect())

    def add_rows(self, level: int, top: int, rows: QImage) -> None:
        """The next rows of the growing first view: ``rows`` at the size of pyramid level ``level``, from
        its row ``top``."""
        if self.pyramid is not None or self.preview is not None:
            return
        k = 1 << level
        changed = QRectF(0, top * k, self.width, rows.height() * k)
        if self.growing is None or self.growing_level != level:
            w, h = -(-self.width // k), -(-self.height // k)
            self.growing = QImage(w, h, QImage.Format_RGB32)
            self.growing.fill(PAPER)
            self.growing_level = level
            self.grown = 0
            changed = self.rect()            # the placeholder's words go
        p = QPainter(self.growing)
        p.drawImage(0, top, rows)
        p.end()
        self.grown = max(self.grown, top + rows.height())
        self.changed.emit(changed)

    def set_pyramid(self, pyramid: Pyramid) -> None:
        self.pyramid = pyramid
        self.preview = None
        self.growing = None
        self._load_top(pyramid)
        self.changed.emit(self.rect())

    def shown(self) -> Pyramid | None:
        """The pyramid painted: the whole one, or the partial one of the first view, or None."""
        return self.pyramid or self.preview

    def _load_top(self, pyramid: Pyramid) -> None:
        top = len(pyramid.levels) - 1
        lv = pyramid.levels[top]
        for row in range(lv.rows):
            for col in range(lv.cols):
                self.store.load_now((str(pyramid.folder), top, col, row), partial(pyramid.tile_bytes, top, col, row))

    def set_progress(self, fraction: float) -> None:
        """How far the pyramid is: written on the placeholder, so repainted only while the placeholder is shown
        and its figure changes (a first view on screen is not painted again for it)."""
        shown = f"{self.progress * 100:.0f}"
        self.progress = fraction
        if self.shown() is None and self.growing is None and f"{fraction * 100:.0f}" != shown:
            self.changed.emit(self.rect())

    def set_error(self, message: str) -> None:
        self.error = message
        self.changed.emit(self.rect())

    def _key(self, level: int, col: int, row: int) -> tuple:
        return (str(self.shown().folder), level, col, row)

    def _tile_arrived(self, key) -> None:
        p = self.shown()
        if p is not None and key[0] == str(p.folder):
            t = p.tile << key[1]
            self.changed.emit(QRectF(key[2] * t, key[3] * t, t, t))

    def paint(self, painter: QPainter, scene_rect: QRectF, fast: bool = False) -> None:
        """Paint the part of the sheet inside ``scene_rect`` (scene coordinates); ``fast``: no smoothing."""
        inverse, ok = self.to_scene.inverted()
        exposed = inverse.mapRect(scene_rect).intersected(self.rect())
        if exposed.isEmpty():
            return
        painter.save()
        painter.setTransform(self.to_scene, True)
        if self.shown() is None and self.growing is not None:
            self._paint_growing(painter, exposed, fast)
        elif self.shown() is None:
            self._paint_placeholder(painter, exposed)
        else:
            t = QTransform(painter.worldTransform())  # a copy: the painter's own changes below
            scale = (abs(t.m11() * t.m22() - t.m12() * t.m21())) ** 0.5
            level = self.shown().level_for(scale * self.dpr)
            self.last_level = level
            painter.setRenderHint(QPainter.Antialiasing, False)
            painter.setRenderHint(QPainter.SmoothPixmapTransform, not fast)
            if t.type().value <= QTransform.TxScale.value:
                # tiles are drawn in device pixels on whole-pixel edges: no seams, and Qt's
                # raster engine scales far faster without a scaling world transform
                painter.resetTransform()
                self._paint_level(painter, exposed, level, t)
            else:
                self._paint_level(painter, exposed, level, None)
        painter.restore()

    def visible_tiles(self, exposed: QRectF, level: int) -> list[tuple[int, int]]:
        """``(col, row)`` of the tiles of a level that meet a rectangle (level-0 pixels)."""
        lv = self.shown().levels[level]
        t = self.shown().tile << level
        c0 = max(0, int(exposed.left() // t))
        c1 = min(lv.cols - 1, int(math.ceil(exposed.right() / t)) - 1)
        r0 = max(0, int(exposed.top() // t))
        r1 = min(lv.rows - 1, int(math.ceil(exposed.bottom() / t)) - 1)
        return [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def _paint_level(self, painter: QPainter, exposed: QRectF, level: int, to_device: QTransform | None) -> None:
        p = self.shown()
        k = 1 << level
        t = p.tile
        lv = p.levels[level]
        for col, row in self.visible_tiles(exposed, level):
            key = self._key(level, col, row)
            pm = self.store.get(key)
            w = min(t, lv.width - col * t)
            h = min(t, lv.height - row * t)
            target = QRectF(col * t * k, row * t * k, w * k, h * k)
            if pm is not None:
                painter.drawPixmap(_on_device(target, to_device), pm, QRectF(0, 0, pm.width(), pm.height()))
                continue
            self.store.request(key, partial(p.tile_bytes, level, col, row))
            self._paint_coarser(painter, target, level, to_device)

    def _paint_coarser(self, painter: QPainter, target: QRectF, level: int, to_device: QTransform | None) -> None:
        """Fill ``target`` from the nearest coarser level in memory."""
        p = self.shown()
        t = p.tile
        for up in range(level + 1, len(p.levels)):
            k = 1 << up
            col, row = int(target.left() // (t * k)), int(target.top() // (t * k))
            pm = self.store.get(self._key(up, col, row))
            if pm is None:
                continue
            # the part of the coarse tile that covers the target, in the coarse tile's pixels
            sx = (target.left() - col * t * k) / k
            sy = (target.top() - row * t * k) / k
            src = QRectF(sx, sy, target.width() / k, target.height() / k)
            painter.drawPixmap(_on_device(target, to_device), pm, src)
            return
        painter.fillRect(_on_device(target, to_device), PAPER)

    def _paint_growing(self, painter: QPainter, exposed: QRectF, fast: bool) -> None:
        """The growing first view, scaled up to the sheet: the rows decoded so far, paper below them."""
        k = 1 << self.growing_level
        painter.setRenderHint(QPainter.SmoothPixmapTransform, not fast)
        painter.drawImage(exposed, self.growing, QRectF(exposed.left() / k, exposed.top() / k,
                                                        exposed.width() / k, exposed.height() / k))

    def _paint_placeholder(self, painter: QPainter, exposed: QRectF) -> None:
        painter.fillRect(exposed, PAPER)
        painter.setPen(QColor(90, 80, 60))
        font = QFont()
        font.setPixelSize(max(12, int(min(self.width, self.height) / 30)))
        painter.setFont(font)
        text = self.error or f"Preparing {self.label} … {self.progress * 100:.0f}%"
        painter.drawText(self.rect(), Qt.AlignCenter | Qt.TextWordWrap, text)


def _on_device(rect: QRectF, to_device: QTransform | None) -> QRectF:
    """A rectangle in device pixels with whole-pixel edges (unchanged without a transform)."""
    if to_device is None:
        return rect
    r = to_device.mapRect(rect)
    x0, y0, x1, y1 = round(r.left()), round(r.top()), round(r.right()), round(r.bottom())
    return QRectF(x0, y0, x1 - x0, y1 - y0)
