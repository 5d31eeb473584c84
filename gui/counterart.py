"""Counter pictures at the size they are shown, rendered at the screen's pixel ratio and cached.

The art comes from ``engine.counters.counter_image(unit, size_px)`` when the
engine has it; otherwise a plain counter is drawn here from the unit's own
values (side colour, type, size, attack-defense-movement).  Pictures are made
for a few fixed pixel sizes ("buckets"), the smallest bucket at least as big
as the counter on screen, so a counter is never scaled up and stays crisp.
A frame renders at most ``RENDERS_PER_FRAME`` new pictures; the others show
the nearest picture already made until the next frame.
"""
from __future__ import annotations

import bisect
from collections import OrderedDict

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap

BUCKETS = (16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384)
PLAIN_BELOW_PX = 11          # smaller than this on screen: a coloured square, no art
RENDERS_PER_FRAME = 24
CACHE_PICTURES = 4000


def bucket_for(device_px: float) -> int:
    i = bisect.bisect_left(BUCKETS, device_px)
    return BUCKETS[min(i, len(BUCKETS) - 1)]


def _engine_art():
    try:
        from engine.counters import counter_image
    except ImportError:
        return None
    return counter_image


def pil_to_qimage(img) -> QImage:
    """A Pillow image as a QImage (copied)."""
    img = img.convert("RGBA")
    data = img.tobytes("raw", "RGBA")
    q = QImage(data, img.width, img.height, img.width * 4, QImage.Format_RGBA8888)
    return q.copy()


def unit_colours(unit, sides: dict) -> tuple[QColor, QColor]:
    """Fill and text colours of a unit's counter: its branch's, else its side's."""
    side = sides.get(getattr(unit, "side", ""), None)
    fill, text = QColor(200, 200, 200), QColor(20, 20, 20)
    if side is not None:
        fill = QColor(getattr(side, "colour", "#c8c8c8"))
        branch = getattr(side, "branches", {}).get(getattr(unit, "branch", ""), None)
        if branch is not None:
            fill = QColor(branch.fill)
            text = QColor(branch.text)
    return fill, text


def draw_plain_counter(unit, px: int, fill: QColor, text: QColor) -> QImage:
    """A plain counter: size on top, the unit type's box, id, and attack-defense-movement."""
    img = QImage(px, px, QImage.Format_ARGB32_Premultiplied)
    img.fill(Qt.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing, True)
    p.setRenderHint(QPainter.TextAntialiasing, True)
    r = QRectF(0.5, 0.5, px - 1, px - 1)
    p.setPen(QPen(QColor(20, 20, 20), max(1.0, px / 48)))
    p.setBrush(fill)
    p.drawRoundedRect(r, px * 0.06, px * 0.06)
    p.setPen(QPen(text, max(1.0, px / 40)))
    font = QFont("DejaVu Sans")
    font.setBold(True)
    size = str(getattr(unit, "size", "") or "")
    font.setPixelSize(max(6, int(px * 0.15)))
    p.setFont(font)
    p.drawText(QRectF(0, px * 0.02, px, px * 0.18), Qt.AlignCenter, size)
    box = QRectF(px * 0.28, px * 0.22, px * 0.44, px * 0.28)
    p.setBrush(Qt.NoBrush)
    p.drawRect(box)
    kind = str(getattr(unit, "type", "") or "")
    if kind in ("infantry", "inf"):
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
    elif kind in ("armor", "armour", "panzer", "tank"):
        p.drawRoundedRect(box.adjusted(px * 0.05, px * 0.06, -px * 0.05, -px * 0.06), px * 0.06, px * 0.06)
    elif kind:
        font.setPixelSize(max(5, int(px * 0.11)))
        p.setFont(font)
        p.drawText(box, Qt.AlignCenter, kind[:3].upper())
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


class CounterArt:
    """Counter pictures by ``(unit id, bucket, pixel ratio)``, least recently used dropped first."""

    def __init__(self, sides: dict | None = None):
        self.sides = sides or {}
        self._pictures: OrderedDict[tuple, QPixmap] = OrderedDict()
        self._by_unit: dict[str, set[tuple]] = {}
        self.renders_left = RENDERS_PER_FRAME
        self.deferred = 0
        self.renders = 0
        self._engine = _engine_art()

    def new_frame(self) -> None:
        self.renders_left = RENDERS_PER_FRAME
        self.deferred = 0

    def colours(self, unit) -> tuple[QColor, QColor]:
        return unit_colours(unit, self.sides)

    def picture(self, unit, device_px: float, dpr: float) -> QPixmap | None:
        """The counter's picture for this size on screen; None means draw a plain square."""
        if device_px < PLAIN_BELOW_PX:
            return None
        b = bucket_for(device_px)
        key = (unit.id, b, dpr)
        pm = self._pictures.get(key)
        if pm is not None:
            self._pictures.move_to_end(key)
            return pm
        if self.renders_left <= 0:
            self.deferred += 1
            return self._nearest(unit.id, b, dpr)
        self.renders_left -= 1
        pm = QPixmap.fromImage(self.render(unit, b))
        pm.setDevicePixelRatio(dpr)
        self._pictures[key] = pm
        self._by_unit.setdefault(unit.id, set()).add(key)
        self.renders += 1
        while len(self._pictures) > CACHE_PICTURES:
            old, _ = self._pictures.popitem(last=False)
            self._by_unit.get(old[0], set()).discard(old)
        return pm

    def render(self, unit, px: int) -> QImage:
        """The counter at ``px`` x ``px`` device pixels."""
        if self._engine is not None:
            try:
                return pil_to_qimage(self._engine(unit, px))
            except (TypeError, ValueError, KeyError, AttributeError):
                pass
        fill, text = self.colours(unit)
        return draw_plain_counter(unit, px, fill, text)

    def _nearest(self, uid: str, bucket: int, dpr: float) -> QPixmap | None:
        best = None
        for key in self._by_unit.get(uid, ()):
            if key[2] == dpr and (best is None or abs(key[1] - bucket) < abs(best[1] - bucket)):
                best = key
        return self._pictures.get(best) if best else None
