"""TCS counters drawn plain: the unit's id, its type and formation on its side's colour.

The printed counter values belong to the owner (a counter manifest of chart
cells), so the face carries no numbers; a counter image cut from the owner's
own sheets is used when there is one, as for every scenario.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPen

from gui.scene.counterart import CounterArt, counter_face, pil_to_qimage


def draw_tcs_counter(unit, px: int, fill: QColor, ink: QColor) -> QImage:
    img, p = counter_face(px, fill)
    font = QFont("DejaVu Sans")
    p.setPen(QPen(ink, max(1.0, px / 40)))
    words = str(unit.type).split()
    kind = "".join(w[0] for w in words).upper() if len(words) > 1 else str(unit.type)[:3].upper()
    box = QRectF(px * 0.26, px * 0.2, px * 0.48, px * 0.26)
    p.setBrush(Qt.NoBrush)
    if unit.vehicle:
        p.drawRoundedRect(box, px * 0.1, px * 0.1)
    else:
        p.drawRect(box)
    font.setBold(True)
    font.setPixelSize(max(5, int(px * 0.13)))
    p.setFont(font)
    p.drawText(box, Qt.AlignCenter, "FO" if unit.fo else kind)
    font.setPixelSize(max(6, int(px * 0.19)))
    p.setFont(font)
    p.drawText(QRectF(0, px * 0.48, px, px * 0.26), Qt.AlignCenter, unit.id)
    font.setBold(False)
    font.setPixelSize(max(5, int(px * 0.12)))
    p.setFont(font)
    p.drawText(QRectF(0, px * 0.74, px, px * 0.2), Qt.AlignCenter, unit.formation)
    p.end()
    return img


class TcsCounterArt(CounterArt):
    """Counter pictures of a TCS scenario's units (cut images first, else the plain TCS face)."""

    def colours(self, unit):
        c = self._colours.get(unit.id)
        if c is None:
            side = self.sides.get(unit.side)
            f = QColor(getattr(side, "colour", "#c8c8c8"))
            c = self._colours[unit.id] = (f, QColor(20, 20, 20), f.darker(130))
        return c

    def render(self, unit, px: int) -> QImage:
        if self.images is not None:
            from engine.counters.art import cut_counter_image

            cut = cut_counter_image(self.images, unit, px)
            if cut is not None:
                return pil_to_qimage(cut)
        fill, ink, _edge = self.colours(unit)
        return draw_tcs_counter(unit, px, fill, ink)
