"""How a counter looks at the table: face down (a blank), its back up, its step-loss and text markers.

The ruleset says how each counter is shown (``rules.looks(state)``: the free
table and the classic rules); this module only dresses the scenario's unit so
that the counter art draws it that way, under its own picture key.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from .counterart import counter_face


class DressedUnit:
    """A scenario unit as the table shows it; every other attribute is the unit's own (its id above all)."""

    def __init__(self, unit, look):
        self._unit = unit
        self.look = look
        self.blank = bool(look.hidden)
        if look.back and not look.hidden:
            from engine.counters.art import reduced_values

            self.attack, self.defense, self.movement = reduced_values(unit)
        parts = [unit.id, "down" if look.hidden else "back" if look.back else "front"]
        if not look.hidden:
            parts += [f"-{look.steps_lost}" if look.steps_lost else "", *look.markers]
        self.art_key = "|".join(parts)

    def __getattr__(self, name):
        return getattr(self._unit, name)


def dressed(unit, look):
    """The unit dressed by its look, or the unit itself when it is plainly face up."""
    return DressedUnit(unit, look) if look is not None else unit


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
