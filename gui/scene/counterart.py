"""Counter pictures at the size they are shown, rendered at the screen's pixel ratio, in the background.

The art comes from ``engine.counters.art.counter_image`` when the engine has it;
otherwise a plain counter is drawn here from the unit's own values.  Pictures
are made for a few fixed pixel sizes ("buckets"), the smallest bucket at least
as big as the counter on screen, so a counter is never scaled up and stays
crisp.  A picture not made yet is drawn between the GUI's events (newest
request first, ``gui.scene.idlework``) and the nearest size already made stands in
(or a square in the counter's colour); when it is made, ``ready(unit id)``
says so and the view repaints that counter.
"""
from __future__ import annotations

import bisect
from collections import OrderedDict

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap

from gui.scene.idlework import IdleQueue

BUCKETS = (16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384)
PLAIN_BELOW_PX = 11          # smaller than this on screen: a coloured square, no art
CACHE_PICTURES = 6000


def art_key(unit) -> str:
    """The key of a counter's picture: its id, or the id with its look at the table (``gui.scene.tablelook``)."""
    return getattr(unit, "art_key", None) or unit.id


def bucket_for(device_px: float) -> int:
    i = bisect.bisect_left(BUCKETS, device_px)
    return BUCKETS[min(i, len(BUCKETS) - 1)]


def pil_to_qimage(img) -> QImage:
    """A Pillow image as a QImage (copied, premultiplied for fast drawing)."""
    img = img.convert("RGBA")
    data = img.tobytes("raw", "RGBA")
    q = QImage(data, img.width, img.height, img.width * 4, QImage.Format_RGBA8888)
    return q.convertToFormat(QImage.Format_ARGB32_Premultiplied)


def unit_colours(unit, sides: dict) -> tuple[str, str]:
    """(fill, lettering) of a unit's counter: the engine's choice when it has one, else its side's."""
    side = sides.get(getattr(unit, "side", ""))
    try:
        from engine.counters.art import colours_for
    except ImportError:
        colours_for = None
    if colours_for is not None:
        try:
            return colours_for(unit, side)
        except (AttributeError, KeyError, TypeError):
            pass
    if side is not None:
        branch = getattr(side, "branches", {}).get(getattr(unit, "branch", ""))
        if branch is not None:
            return branch.fill, branch.text
        return getattr(side, "colour", "#c8c8c8"), "#141414"
    return "#c8c8c8", "#141414"


def counter_face(px: int, fill: QColor) -> tuple[QImage, QPainter]:
    """A counter's empty face: a ``px`` square image, transparent but for a dark-edged rounded square in ``fill``.

    Returns the image and the (antialiased) painter still open on it: the caller draws the rest and ends it.
    """
    img = QImage(px, px, QImage.Format_ARGB32_Premultiplied)
    img.fill(Qt.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing, True)
    p.setRenderHint(QPainter.TextAntialiasing, True)
    p.setPen(QPen(QColor(20, 20, 20), max(1.0, px / 48)))
    p.setBrush(fill)
    p.drawRoundedRect(QRectF(0.5, 0.5, px - 1, px - 1), px * 0.06, px * 0.06)
    return img, p


def draw_plain_counter(unit, px: int, fill: QColor, text: QColor) -> QImage:
    """A plain counter: size on top, a box with the type, the id, and attack-defense-movement."""
    img, p = counter_face(px, fill)
    p.setPen(QPen(text, max(1.0, px / 40)))
    font = QFont("DejaVu Sans")
    font.setBold(True)
    font.setPixelSize(max(6, int(px * 0.15)))
    p.setFont(font)
    p.drawText(QRectF(0, px * 0.02, px, px * 0.18), Qt.AlignCenter, str(getattr(unit, "size", "") or ""))
    box = QRectF(px * 0.28, px * 0.22, px * 0.44, px * 0.28)
    p.setBrush(Qt.NoBrush)
    p.drawRect(box)
    font.setPixelSize(max(5, int(px * 0.11)))
    p.setFont(font)
    p.drawText(box, Qt.AlignCenter, str(getattr(unit, "type", "") or "")[:3].upper())
    font.setPixelSize(max(5, int(px * 0.12)))
    font.setBold(False)
    p.setFont(font)
    p.drawText(QRectF(0, px * 0.51, px, px * 0.16), Qt.AlignCenter, str(getattr(unit, "id", "")))
    font.setBold(True)
    font.setPixelSize(max(6, int(px * 0.2)))
    p.setFont(font)
    values = "-".join(str(getattr(unit, k, "")) for k in ("attack", "defense", "movement"))
    p.drawText(QRectF(0, px * 0.68, px, px * 0.28), Qt.AlignCenter, values)
    p.end()
    return img


def blank_counter(px: int, fill: QColor) -> QImage:
    """A face-down counter: the side's colour and a question mark, nothing else."""
    img, p = counter_face(px, fill.darker(115))
    font = QFont("DejaVu Sans")
    font.setBold(True)
    font.setPixelSize(max(6, int(px * 0.5)))
    p.setFont(font)
    p.setPen(QColor(250, 250, 250, 200))
    p.drawText(QRectF(0, 0, px, px), Qt.AlignCenter, "?")
    p.end()
    return img


def add_markers(img: QImage, unit) -> QImage:
    """The counter with its step-loss marker (a red corner, ``-1``) and its text markers (strips at the foot)."""
    look = getattr(unit, "look", None)
    if look is None or look.hidden or not (look.steps_lost or look.markers):
        return img
    px = img.width()
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing, True)
    font = QFont("DejaVu Sans")
    font.setBold(True)
    if look.steps_lost:
        r = QRectF(px * 0.62, 0, px * 0.38, px * 0.3)
        p.fillRect(r, QColor(190, 30, 30, 230))
        font.setPixelSize(max(5, int(px * 0.2)))
        p.setFont(font)
        p.setPen(QColor(255, 255, 255))
        p.drawText(r, Qt.AlignCenter, f"-{look.steps_lost}")
    font.setPixelSize(max(5, int(px * 0.13)))
    p.setFont(font)
    h = px * 0.17
    for i, text in enumerate(reversed(look.markers[-3:])):
        r = QRectF(0, px - h * (i + 1), px, h)
        p.fillRect(r, QColor(250, 220, 60, 235))
        p.setPen(QColor(20, 20, 20))
        p.drawText(r, Qt.AlignCenter, text)
    p.end()
    return img


class CounterArt(QObject):
    """Counter pictures by ``(unit id, bucket, pixel ratio)``, made between events, LRU-dropped."""

    ready = Signal(str)                  # a unit id whose picture has just been made

    def __init__(self, sides: dict | None = None, parent=None, images=None):
        super().__init__(parent)
        self.sides = sides or {}
        self.images = images             # a folder of cut counter images (<unit>-front.png), used first
        self._pictures: OrderedDict[tuple, QPixmap] = OrderedDict()
        self._by_unit: dict[str, set[tuple]] = {}
        self._queue = IdleQueue(self)
        self._sized: dict[tuple, dict[str, QPixmap]] = {}   # (bucket, dpr) -> unit id -> picture
        self._colours: dict[str, tuple[QColor, QColor, QColor]] = {}
        self.made = 0
        self.stand_ins = 0

    def colours(self, unit) -> tuple[QColor, QColor, QColor]:
        """(fill, lettering, depth edge) colours of a unit's counter."""
        c = self._colours.get(unit.id)
        if c is None:
            fill, ink = unit_colours(unit, self.sides)
            f = QColor(fill)
            c = self._colours[unit.id] = (f, QColor(ink), f.darker(130))
        return c

    def pictures_for(self, device_px: float, dpr: float) -> dict | None:
        """Pictures made for this size on screen, by unit id (None: too small for art, draw squares)."""
        if device_px < PLAIN_BELOW_PX:
            return None
        return self._sized.setdefault((bucket_for(device_px), dpr), {})

    def stand_in(self, unit, device_px: float, dpr: float) -> QPixmap | None:
        """Ask for the unit's picture at this size and return the nearest one made meanwhile."""
        return self.picture(unit, device_px, dpr)

    def picture(self, unit, device_px: float, dpr: float) -> QPixmap | None:
        """The counter's picture for this size on screen, or the nearest one made; None: draw a square."""
        if device_px < PLAIN_BELOW_PX:
            return None
        b = bucket_for(device_px)
        key = (art_key(unit), b, dpr)
        pm = self._pictures.get(key)
        if pm is not None:
            self._pictures.move_to_end(key)
            return pm
        if key not in self._queue:
            self._queue.submit(key, lambda: self._make(unit, key))
        self.stand_ins += 1
        return self._nearest(art_key(unit), b, dpr)

    def pending(self) -> int:
        return self._queue.pending()

    def render(self, unit, px: int) -> QImage:
        """The counter at ``px`` x ``px`` device pixels (as the table shows it: face down, back up, markers)."""
        if getattr(unit, "blank", False):
            return blank_counter(px, QColor(unit_colours(unit, self.sides)[0]))
        return add_markers(self._render_face(unit, px), unit)

    def _render_face(self, unit, px: int) -> QImage:
        try:
            from engine.counters.art import counter_image, cut_counter_image
        except ImportError:
            counter_image = None
        if counter_image is not None and self.images is not None:
            cut = cut_counter_image(self.images, unit, px)
            if cut is not None:
                return pil_to_qimage(cut)
        if counter_image is not None:
            try:
                return pil_to_qimage(counter_image(unit, px, self.sides.get(unit.side)))
            except (TypeError, ValueError, KeyError, AttributeError):
                pass
        fill, ink = unit_colours(unit, self.sides)
        return draw_plain_counter(unit, px, QColor(fill), QColor(ink))

    def _make(self, unit, key) -> None:
        try:
            image = self.render(unit, key[1])
        except Exception:  # a picture that cannot be made leaves the coloured square; never a crash
            image = QImage()
        self._store(key, image)

    def _store(self, key, image: QImage) -> None:
        if image.isNull() or key in self._pictures:
            return
        pm = QPixmap.fromImage(image)
        pm.setDevicePixelRatio(key[2])
        self._pictures[key] = pm
        self._sized.setdefault((key[1], key[2]), {})[key[0]] = pm
        self._by_unit.setdefault(key[0], set()).add(key)
        self.made += 1
        while len(self._pictures) > CACHE_PICTURES:
            old, _ = self._pictures.popitem(last=False)
            self._by_unit.get(old[0], set()).discard(old)
            self._sized.get((old[1], old[2]), {}).pop(old[0], None)
        self.ready.emit(key[0])

    def _nearest(self, uid: str, bucket: int, dpr: float) -> QPixmap | None:
        best = None
        for key in self._by_unit.get(uid, ()):
            if key[2] == dpr and (best is None or abs(key[1] - bucket) < abs(best[1] - bucket)):
                best = key
        return self._pictures.get(best) if best else None

    def shutdown(self) -> None:
        self._queue.clear()
