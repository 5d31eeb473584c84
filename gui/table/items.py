"""What the table view draws: terrain outlines, teams on their bases, cards, guns and their cones, rulers.

Scene coordinates are the table image's pixels: inches times the table's
``pixels_per_inch``.  Labels ignore the zoom so they stay readable.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsItem, QGraphicsLineItem, QGraphicsPathItem,
                               QGraphicsSimpleTextItem)

from engine.maps.table import bearing_vector

from .shapes import path_points_inches, polygon_path

TEAM_FILL = {"rifle": QColor(120, 40, 36), "lmg": QColor(70, 30, 60)}
TERRAIN_PEN = {"building": QColor(60, 40, 28), "copse": QColor(30, 60, 20), "crest": QColor(100, 76, 40),
               "wall": QColor(70, 66, 60), "field": QColor(140, 120, 60), "road": QColor(150, 130, 90)}
BAND_FILL = {"close": QColor(220, 30, 20, 120), "effective": QColor(235, 120, 20, 90),
             "long": QColor(240, 200, 40, 65)}
CONE_PEN = QColor(150, 20, 10)
LABEL_FONT = QFont("Sans", 8)
LABEL_Z = 50


def label(text: str, parent: QGraphicsItem, colour=QColor(255, 255, 255), back=QColor(0, 0, 0, 170)):
    """A small label that keeps its size at any zoom, drawn on a dark plate."""
    item = _Label(text, colour, back, parent)
    item.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
    item.setZValue(LABEL_Z)
    return item


class _Label(QGraphicsSimpleTextItem):
    """Text on a translucent plate."""

    def __init__(self, text, colour, back, parent):
        super().__init__(text, parent)
        self.setFont(LABEL_FONT)
        self.setBrush(colour)
        self.back = back

    def paint(self, painter, option, widget=None):
        painter.fillRect(self.boundingRect().adjusted(-2, -1, 2, 1), self.back)
        super().paint(painter, option, widget)


def terrain_outline(piece, ppi: float) -> QGraphicsPathItem:
    """A terrain piece's outline, named in its tooltip."""
    item = QGraphicsPathItem(polygon_path(piece.polygon, ppi))
    pen = QPen(TERRAIN_PEN.get(piece.kind, QColor(80, 80, 80)), 2, Qt.DashLine)
    pen.setCosmetic(True)
    item.setPen(pen)
    item.setToolTip(f"{piece.name} ({piece.kind})")
    item.setZValue(1)
    return item


class TeamItem(QGraphicsEllipseItem):
    """A team on its base (its footprint): a dot per figure, its id and Bravado beside it; a yellow ring when
    pinned, dashed in cover, white when a decision of its own is owed."""

    def __init__(self, team: dict, leaders: list[str], radius_px: float, asked: bool = False):
        r = radius_px
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.team_id = team["id"]
        self.team = team
        self.setZValue(20)
        self.setBrush(QBrush(TEAM_FILL.get(team["kind"], QColor(90, 90, 90))))
        ring = QColor(240, 220, 60) if team["pinned"] else QColor(20, 20, 20)
        if asked:   # the engine waits for this team's decision (press on or take cover, bayonet or hold)
            ring = QColor(255, 255, 255)
        pen = QPen(ring, 3 if team["pinned"] or asked else 1.5, Qt.DashLine if team["cover"] else Qt.SolidLine)
        pen.setCosmetic(True)
        self.setPen(pen)
        if team["done"]:
            self.setOpacity(0.7)
        state = ["pinned" if team["pinned"] else "", "in cover" if team["cover"] else "",
                 "acted" if team["done"] else ""]
        lead = f" with {', '.join(leaders)}" if leaders else ""
        self.setToolTip(f"{team['id']} {team['name']} ({team['kind']}): {team['figures']} figures, "
                        f"Bravado {team['bravado']}{lead}" + "".join(f"; {s}" for s in state if s))
        kind = " LMG" if team["kind"] == "lmg" else ""
        text = f"{team['id']}{kind} B{team['bravado']}" + (f" {' '.join(leaders)}" if leaders else "")
        self.label = label(text, self, QColor(255, 240, 200))
        self.label.setPos(-r, r * 1.05)

    def mark_chosen(self) -> None:
        """A halo round the team whose orders are listed."""
        r = self.rect().width() / 2 * 1.45
        halo = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r, self)
        pen = QPen(QColor(60, 200, 255), 2)
        pen.setCosmetic(True)
        halo.setPen(pen)
        self.halo = halo

    def paint(self, painter, option, widget=None):
        super().paint(painter, option, widget)
        r = self.rect().width() / 2
        n = max(0, int(self.team["figures"]))
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(235, 225, 200))
        dot = r * 0.22
        for i in range(n):   # one figure per dot, round the base
            a = 2 * math.pi * i / max(1, n) - math.pi / 2
            c = QPointF(math.cos(a) * r * 0.5, math.sin(a) * r * 0.5) if n > 1 else QPointF(0, 0)
            painter.drawEllipse(c, dot, dot)


class LeaderItem(QGraphicsPathItem):
    """A leader on his own (his team is gone): a small diamond with his id, until he joins a team."""

    def __init__(self, leader: dict, radius_px: float):
        r = radius_px * 0.7
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(0, -r), QPointF(r, 0), QPointF(0, r), QPointF(-r, 0), QPointF(0, -r)]))
        super().__init__(path)
        self.leader_id = leader["id"]
        self.setBrush(QColor(230, 200, 60))
        pen = QPen(QColor(20, 20, 20), 1.5)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setZValue(21)
        self.setToolTip(f"{leader['name']} ({leader['id']}), alone: Bravado {leader['bravado']}")
        self.label = label(leader["id"], self, QColor(255, 240, 200))
        self.label.setPos(-r, r)


class CardItem(QGraphicsPathItem):
    """A playing card lying on a defensive position: its back until it is turned over, then its face."""

    def __init__(self, card: dict, width: float, depth: float, ppi: float):
        super().__init__()
        self.card_id = card["id"]
        self.revealed = bool(card["revealed"])
        cx, cy = card["at"]
        fx, fy = bearing_vector(card["facing"])
        sx, sy = -fy, fx
        corners = [(cx + fx * dd * depth / 2 + sx * ww * width / 2, cy + fy * dd * depth / 2 + sy * ww * width / 2)
                   for dd, ww in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(x * ppi, y * ppi) for x, y in corners]))
        path.closeSubpath()
        self.setPath(path)
        self.setZValue(10)
        pen = QPen(QColor(30, 30, 30), 1.5)
        pen.setCosmetic(True)
        self.setPen(pen)
        front = QGraphicsLineItem(corners[0][0] * ppi, corners[0][1] * ppi, corners[1][0] * ppi,
                                  corners[1][1] * ppi, self)
        fpen = QPen(QColor(250, 250, 250), 3)
        fpen.setCosmetic(True)
        front.setPen(fpen)
        face = card.get("face")
        if not self.revealed:
            self.setBrush(QBrush(QColor(40, 70, 150), Qt.SolidPattern))
            hatch = QGraphicsPathItem(path, self)
            hatch.setBrush(QBrush(QColor(200, 210, 240), Qt.DiagCrossPattern))
            hatch.setPen(Qt.NoPen)
            text = f"{card['id']} ?"
            self.setToolTip(f"{card['id']}: a card face down at {card['position']} "
                            "(turned over when a team comes within 18 inches of its front edge)")
        else:
            self.setBrush(QColor(250, 248, 240) if card.get("picture") else QColor(190, 186, 178))
            text = card_face(face)
            self.setToolTip(f"{card['id']} at {card['position']}: {text}"
                            + (" - a machine gun" if card.get("picture") else " - nobody there"))
        red = face is not None and face[-1] in "HD"
        self.label = label(text, self, QColor(200, 0, 0) if red else QColor(20, 20, 20), QColor(255, 255, 255, 210))
        self.label.setPos((cx + width / 2) * ppi, (cy + depth / 4) * ppi)


def card_face(face: str | None) -> str:
    """A card's face in print, like ``J♦``."""
    if not face:
        return "?"
    return face[:-1] + {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}.get(face[-1], face[-1])


class GunItem(QGraphicsEllipseItem):
    """A machine gun on its position, with its Bravado; grey when silent, white when taken."""

    def __init__(self, gun: dict, bravado: int, radius_px: float):
        r = radius_px
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.gun_id = gun["id"]
        self.setZValue(18)      # under the teams: a team that takes the position stands on it
        if gun["captured"]:
            fill, state = QColor(245, 245, 245), "taken"
        elif gun["silenced"]:
            fill, state = QColor(130, 130, 130), "silent"
        else:
            fill, state = QColor(25, 25, 25), "firing"
        self.setBrush(fill)
        pen = QPen(QColor(200, 30, 20), 2)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setToolTip(f"machine gun at {gun['id']}: {state}, Bravado {bravado}")
        text = f"HMG {gun['id']} taken" if gun["captured"] else f"HMG {gun['id']} B{bravado} {state}"
        self.label = label(text, self, QColor(255, 200, 190))
        self.label.setPos(-r, -r * 2.6)


class ConeItem(QGraphicsPathItem):
    """A gun's cone of fire, drawn translucent in its three range bands (close, effective, long)."""

    def __init__(self, gun_id: str, ppi: float):
        super().__init__()
        self.gun_id = gun_id
        self.ppi = ppi
        self.setZValue(15)
        pen = QPen(CONE_PEN, 2)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.bands: dict[str, QGraphicsPathItem] = {}
        for name, colour in BAND_FILL.items():
            b = QGraphicsPathItem(self)
            b.setBrush(colour)
            b.setPen(Qt.NoPen)
            b.setFlag(QGraphicsItem.ItemStacksBehindParent, True)
            self.bands[name] = b
        self.bearing = None
        self.target = None

    def set_cone(self, cone, bands: dict, bearing: float | None = None, target: str | None = None) -> None:
        """Lay the drawn cone where the engine says the gun lays."""
        self.setPath(polygon_path(cone, self.ppi))
        for name, item in self.bands.items():
            item.setPath(polygon_path(bands.get(name), self.ppi))
        self.bearing, self.target = bearing, target
        aim = f", laid on {target}" if target else ""
        self.setToolTip(f"cone of fire of {self.gun_id}{aim}: close to 6 inches, effective to 12, long to 18")

    def outline_inches(self) -> list[tuple[float, float]]:
        """The drawn cone's corners in inches."""
        return path_points_inches(self.path(), self.ppi)


class RulerItem(QGraphicsLineItem):
    """A tape measure: a line with its length in inches written at its middle."""

    def __init__(self, ppi: float, colour=QColor(255, 255, 255)):
        super().__init__()
        self.ppi = ppi
        pen = QPen(colour, 2, Qt.DashLine)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setZValue(40)
        self.text = label("", self, QColor(255, 255, 255), QColor(0, 0, 0, 200))
        self.hide()

    def measure(self, a: tuple[float, float], b: tuple[float, float], text: str) -> None:
        """Stretch from ``a`` to ``b`` (inches) and show ``text`` at the far end."""
        self.setLine(a[0] * self.ppi, a[1] * self.ppi, b[0] * self.ppi, b[1] * self.ppi)
        self.text.setText(text)
        self.text.setPos((a[0] + b[0]) / 2 * self.ppi, (a[1] + b[1]) / 2 * self.ppi)
        self.show()


class AllowanceItem(QGraphicsEllipseItem):
    """How far a dragged team may be ordered to move: a circle of its allowance round where it stands."""

    def __init__(self):
        super().__init__()
        pen = QPen(QColor(60, 200, 255), 2)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setBrush(QColor(60, 200, 255, 40))
        self.setZValue(12)
        self.hide()

    def show_round(self, at: tuple[float, float], inches: float, ppi: float) -> None:
        r = inches * ppi
        self.setRect(at[0] * ppi - r, at[1] * ppi - r, 2 * r, 2 * r)
        self.show()


class FlashItem(QGraphicsEllipseItem):
    """A ring marking where the enemy acted; it swells and fades."""

    def __init__(self, at: tuple[float, float], radius_px: float, ppi: float):
        super().__init__()
        self.at = at
        self.centre = QPointF(at[0] * ppi, at[1] * ppi)
        self.radius = radius_px
        pen = QPen(QColor(255, 60, 30), 4)
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setZValue(45)
        self.grow(0.0)

    def grow(self, t: float) -> None:
        r = self.radius * (0.6 + 0.8 * float(t))
        self.setRect(self.centre.x() - r, self.centre.y() - r, 2 * r, 2 * r)
        self.setOpacity(1.0 - 0.8 * float(t))
