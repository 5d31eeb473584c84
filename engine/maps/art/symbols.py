"""Printed symbols: trees, rocks, tufts and buildings for terrain; trenches, wire, forts, airfields, mills."""
from __future__ import annotations

import math

import shapely
import shapely.affinity
from shapely.geometry import box

from engine.maps.hexes import Hex, hex_neighbors, hexsides_of
from engine.maps.art.canvas import Canvas
from engine.maps.art.palette import INK


# ---------------------------------------------------------------- terrain

def woods(cv: Canvas, h: Hex) -> None:
    """A cluster of tree crowns, back to front, each with its shadow and a light top."""
    rnd = cv.rng("woods", h.q, h.r)
    cx, cy = cv.center(h)
    crowns = []
    for _ in range(9):
        a, d = rnd.uniform(0, 2 * math.pi), 0.62 * math.sqrt(rnd.random())
        crowns.append((cy + d * math.sin(a), cx + d * math.cos(a), rnd.uniform(0.13, 0.2)))
    for y, x, r in sorted(crowns):
        cv.disc(x + 0.02, y + 0.03, r, (70, 100, 50))
        cv.disc(x, y, r, (92, 140, 66), outline=(48, 84, 38), width=0.02)
        cv.disc(x - r * 0.3, y - r * 0.3, r * 0.38, (128, 172, 96))


def rough(cv: Canvas, h: Hex) -> None:
    """Stipple and a few broken rock outlines."""
    rnd = cv.rng("rough", h.q, h.r)
    cx, cy = cv.center(h)
    for _ in range(16):
        a, d = rnd.uniform(0, 2 * math.pi), 0.7 * math.sqrt(rnd.random())
        cv.disc(cx + d * math.cos(a), cy + d * math.sin(a), 0.025, (120, 92, 60))
    for _ in range(5):
        a, d = rnd.uniform(0, 2 * math.pi), 0.55 * math.sqrt(rnd.random())
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        s = rnd.uniform(0.09, 0.14)
        cv.polyline([(x - s, y + s * 0.5), (x - s * 0.2, y - s * 0.6), (x + s * 0.3, y - s * 0.1),
                     (x + s, y + s * 0.5)], (110, 82, 52), 0.025, caps=False)


def _tufts(cv: Canvas, h: Hex, kind: str, colour, water) -> None:
    rnd = cv.rng(kind, h.q, h.r)
    cx, cy = cv.center(h)
    for _ in range(5):
        a, d = rnd.uniform(0, 2 * math.pi), 0.58 * math.sqrt(rnd.random())
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        cv.polyline([(x - 0.16, y + 0.02), (x + 0.16, y + 0.02)], water, 0.025)
        for k in range(-2, 3):
            ang = math.radians(24 * k)
            ln = 0.15 - 0.02 * abs(k)
            bx = x + 0.025 * k
            cv.polyline([(bx, y), (bx + ln * math.sin(ang), y - ln * math.cos(ang))], colour, 0.018, caps=False)


def marsh(cv: Canvas, h: Hex) -> None:
    """Reed tufts over short strokes of water."""
    _tufts(cv, h, "marsh", (40, 104, 86), (82, 140, 190))


def bog(cv: Canvas, h: Hex) -> None:
    """Peat cuttings (dark strips) and tufts."""
    rnd = cv.rng("peat", h.q, h.r)
    cx, cy = cv.center(h)
    for i in range(3):
        y = cy - 0.35 + 0.35 * i + rnd.uniform(-0.05, 0.05)
        x = cx + rnd.uniform(-0.25, 0.05)
        cv.fill(box(x, y - 0.04, x + rnd.uniform(0.22, 0.38), y + 0.04), (112, 84, 56), 200)
    _tufts(cv, h, "bog", (70, 84, 40), (120, 96, 64))


def town(cv: Canvas, h: Hex) -> None:
    """Scattered houses, some turned."""
    rnd = cv.rng("town", h.q, h.r)
    cx, cy = cv.center(h)
    for _ in range(6):
        a, d = rnd.uniform(0, 2 * math.pi), 0.55 * math.sqrt(rnd.random())
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        bw, bh = rnd.uniform(0.1, 0.2), rnd.uniform(0.07, 0.13)
        rot = rnd.choice((0.0, 0.0, math.pi / 2, rnd.uniform(-0.4, 0.4)))
        house = shapely.affinity.rotate(box(x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2), rot,
                                        origin=(x, y), use_radians=True)
        cv.fill(house, (168, 82, 66))
        cv.stroke(house.exterior, (96, 44, 36), 0.012)


def city(cv: Canvas, h: Hex) -> None:
    """Blocks on a street grid, a few lots left empty."""
    rnd = cv.rng("city", h.q, h.r)
    cx, cy = cv.center(h)
    for i in range(-2, 3):
        for j in range(-2, 3):
            x, y = cx + 0.27 * i + 0.06 * (j % 2), cy + 0.25 * j
            if math.hypot(x - cx, y - cy) > 0.68 or rnd.random() < 0.2:
                continue
            bw, bh = rnd.uniform(0.13, 0.19), rnd.uniform(0.1, 0.16)
            block = box(x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)
            cv.fill(block, (132, 62, 54))
            cv.stroke(block.exterior, (72, 34, 30), 0.012)


def _houses(cv: Canvas, h: Hex, kind: str, roofs, edge) -> None:
    rnd = cv.rng(kind, h.q, h.r)
    cx, cy = cv.center(h)
    for _ in range(5):
        a, d = rnd.uniform(0, 2 * math.pi), 0.52 * math.sqrt(rnd.random())
        x, y = cx + d * math.cos(a), cy + d * math.sin(a)
        bw, bh = rnd.uniform(0.12, 0.2), rnd.uniform(0.08, 0.13)
        rot = rnd.choice((0.0, math.pi / 2, rnd.uniform(-0.5, 0.5)))
        house = shapely.affinity.rotate(box(x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2), rot,
                                        origin=(x, y), use_radians=True)
        cv.fill(house, rnd.choice(roofs))
        cv.stroke(house.exterior, edge, 0.014)


def building(cv: Canvas, h: Hex) -> None:
    """Houses with tin (grey) and thatched (straw) roofs, or terra-cotta ones on a Mediterranean map."""
    roofs = ((150, 150, 146), (196, 168, 96)) if cv.board.terrain.get(h) == "building" \
        and "village" not in set(cv.board.terrain.values()) else ((190, 92, 60), (204, 110, 70))
    _houses(cv, h, "building", roofs, (70, 56, 44))


def village(cv: Canvas, h: Hex) -> None:
    """White-roofed houses with dark outlines."""
    _houses(cv, h, "village", ((250, 250, 246), (238, 238, 232)), (80, 76, 70))


TERRAIN_SYMBOLS = {"woods": woods, "forest": woods, "rough": rough, "marsh": marsh, "bog": bog,
                   "peat bog": bog, "town": town, "city": city, "building": building, "village": village}


# ---------------------------------------------------------------- hex features

def _spokes(cv: Canvas, h: Hex, name: str) -> list[tuple[tuple, tuple]]:
    """Half-lines from the hex centre toward neighbours with the same feature (or straight across)."""
    feats = cv.board.features
    c = cv.center(h)
    out = []
    for n in hex_neighbors(h):
        if name in feats.get(n, ()):
            nc = cv.center(n)
            out.append((c, ((c[0] + nc[0]) / 2, (c[1] + nc[1]) / 2)))
    if len(out) == 1:
        out.append((c, (2 * c[0] - out[0][1][0], 2 * c[1] - out[0][1][1])))
    if not out:
        out = [((c[0] - 0.6, c[1]), c), (c, (c[0] + 0.6, c[1]))]
    return out


def trench(cv: Canvas, h: Hex) -> None:
    """A zigzag trench with its spoil, joined to the trenches next door."""
    for a, b in _spokes(cv, h, "trench"):
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy)
        n = max(2, int(ln / 0.09))
        nx, ny = -dy / ln, dx / ln
        pts = []
        for i in range(n + 1):
            t = i / n
            off = 0.0 if i in (0, n) else (0.06 if i % 2 else -0.06)
            pts.append((a[0] + dx * t + nx * off, a[1] + dy * t + ny * off))
        cv.polyline(pts, (200, 176, 140), 0.13)
        cv.polyline(pts, (84, 56, 34), 0.06)


def wire(cv: Canvas, h: Hex) -> None:
    """A wire entanglement: a line of crosses, joined to the wire next door."""
    colour = (40, 36, 32)
    for a, b in _spokes(cv, h, "wire"):
        cv.polyline([a, b], colour, 0.02, caps=False)
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = max(1, int(math.hypot(dx, dy) / 0.16))
        for i in range(n):
            x, y = a[0] + dx * (i + 0.5) / n, a[1] + dy * (i + 0.5) / n
            s = 0.065
            cv.polyline([(x - s, y - s), (x + s, y + s)], colour, 0.026, caps=False)
            cv.polyline([(x - s, y + s), (x + s, y - s)], colour, 0.026, caps=False)


def fortification(cv: Canvas, h: Hex) -> None:
    """A star fort."""
    cx, cy = cv.center(h)
    star = []
    for i in range(10):
        r = 0.36 if i % 2 == 0 else 0.2
        a = math.radians(-90 + 36 * i)
        star.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    poly = shapely.Polygon(star)
    cv.fill(poly, (150, 40, 36), 150)
    cv.stroke(poly.exterior, (110, 24, 20), 0.035)


def airfield(cv: Canvas, h: Hex) -> None:
    """Two crossing runways with centre marks."""
    cx, cy = cv.center(h)
    for ang in (math.radians(20), math.radians(-40)):
        strip = shapely.affinity.rotate(box(cx - 0.72, cy - 0.08, cx + 0.72, cy + 0.08), ang,
                                        origin=(cx, cy), use_radians=True)
        cv.fill(strip, (150, 148, 140))
        cv.stroke(strip.exterior, (70, 68, 64), 0.015)
        d = (math.cos(ang), math.sin(ang))
        for k in range(-3, 4):
            x, y = cx + d[0] * 0.18 * k, cy + d[1] * 0.18 * k
            cv.polyline([(x - d[0] * 0.05, y - d[1] * 0.05), (x + d[0] * 0.05, y + d[1] * 0.05)],
                        (245, 244, 238), 0.02, caps=False)


def mill(cv: Canvas, h: Hex) -> None:
    """A mill house with four sails; a mill with walls on its hexsides is drawn walled."""
    if any("wall" in cv.board.hexsides.get(s, ()) for s in hexsides_of(h)):
        walled(cv, h)
        return
    cx, cy = cv.center(h)
    cy += 0.1
    body = box(cx - 0.12, cy - 0.1, cx + 0.12, cy + 0.2)
    cv.fill(body, (168, 82, 66))
    cv.stroke(body.exterior, INK, 0.02)
    hub = (cx, cy - 0.1)
    for a in (45, 135, 225, 315):
        r = math.radians(a)
        cv.polyline([hub, (hub[0] + 0.3 * math.cos(r), hub[1] + 0.3 * math.sin(r))], INK, 0.035)
    cv.disc(hub[0], hub[1], 0.04, INK)


def hospital(cv: Canvas, h: Hex) -> None:
    """One very large low building with a red cross on its roof."""
    cx, cy = cv.center(h)
    body = box(cx - 0.5, cy - 0.3, cx + 0.5, cy + 0.3)
    cv.fill(body, (150, 132, 120))
    cv.stroke(body.exterior, INK, 0.025)
    cv.fill(box(cx - 0.05, cy - 0.2, cx + 0.05, cy + 0.2), (200, 30, 30))
    cv.fill(box(cx - 0.2, cy - 0.05, cx + 0.2, cy + 0.05), (200, 30, 30))


def walled(cv: Canvas, h: Hex) -> None:
    """A walled city building (Black Wednesday's Mill): a stone wall ring round a solid block."""
    cx, cy = cv.center(h)
    ring = shapely.Point(cx, cy).buffer(0.58, quad_segs=3)
    cv.stroke(ring.exterior, (90, 84, 78), 0.07)
    cv.stroke(ring.exterior, (176, 168, 156), 0.03)
    block = box(cx - 0.22, cy - 0.16, cx + 0.24, cy + 0.2)
    cv.fill(block, (120, 56, 48))
    cv.stroke(block.exterior, INK, 0.02)


def crash(cv: Canvas, h: Hex) -> None:
    """A downed aircraft: a broken fuselage and a wing, with a scorch mark."""
    cx, cy = cv.center(h)
    cv.disc(cx, cy, 0.3, (120, 110, 96))
    cv.polyline([(cx - 0.38, cy + 0.1), (cx + 0.05, cy - 0.05)], (60, 66, 60), 0.08)
    cv.polyline([(cx + 0.1, cy - 0.07), (cx + 0.4, cy - 0.18)], (60, 66, 60), 0.07)
    cv.polyline([(cx - 0.1, cy - 0.3), (cx + 0.05, cy + 0.3)], (84, 90, 84), 0.07)


def station(cv: Canvas, h: Hex) -> None:
    """A station building beside the track."""
    cx, cy = cv.center(h)
    body = box(cx - 0.3, cy + 0.12, cx + 0.3, cy + 0.34)
    cv.fill(body, (170, 70, 58))
    cv.stroke(body.exterior, INK, 0.02)


def embankment(cv: Canvas, h: Hex) -> None:
    """A raised railroad: a bank with hachures on both sides, joined to the bank next door."""
    for a, b in _spokes(cv, h, "rr embankment"):
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy)
        if ln == 0:
            continue
        nx, ny = -dy / ln, dx / ln
        cv.polyline([a, b], (196, 170, 120), 0.3, caps=False)
        n = max(2, int(ln / 0.1))
        for i in range(n):
            x, y = a[0] + dx * (i + 0.5) / n, a[1] + dy * (i + 0.5) / n
            for k in (-1, 1):
                cv.polyline([(x + k * nx * 0.09, y + k * ny * 0.09), (x + k * nx * 0.2, y + k * ny * 0.2)],
                            (120, 92, 60), 0.018, caps=False)


def pier(cv: Canvas, h: Hex) -> None:
    """A pier: a plank jetty from the shore out to sea."""
    cx, cy = cv.center(h)
    sea = [n for n in hex_neighbors(h) if cv.board.terrain.get(n) == "sea"]
    tx, ty = cv.center(sea[0]) if sea else (cx + 1.0, cy)
    ex, ey = cx + (tx - cx) * 0.6, cy + (ty - cy) * 0.6
    cv.polyline([(cx, cy), (ex, ey)], INK, 0.13, caps=False)
    cv.polyline([(cx, cy), (ex, ey)], (190, 160, 110), 0.08, caps=False)


def castle(cv: Canvas, h: Hex) -> None:
    """A castle: a crenellated curtain wall with corner towers."""
    cx, cy = cv.center(h)
    wall = box(cx - 0.38, cy - 0.3, cx + 0.38, cy + 0.3)
    cv.fill(wall, (196, 184, 160))
    cv.stroke(wall.exterior, INK, 0.06)
    for x, y in ((cx - 0.38, cy - 0.3), (cx + 0.38, cy - 0.3), (cx - 0.38, cy + 0.3), (cx + 0.38, cy + 0.3)):
        cv.disc(x, y, 0.1, (170, 156, 130), outline=INK, width=0.03)
    for i in range(-3, 4):
        cv.fill(box(cx + 0.1 * i - 0.03, cy - 0.36, cx + 0.1 * i + 0.03, cy - 0.3), INK)


def battery(cv: Canvas, h: Hex) -> None:
    """A coastal battery: a gun emplacement (ring and barrel)."""
    cx, cy = cv.center(h)
    cv.disc(cx, cy + 0.18, 0.16, (110, 110, 104), outline=INK, width=0.03)
    cv.polyline([(cx, cy + 0.18), (cx + 0.3, cy - 0.05)], INK, 0.06)


def unprinted(cv: Canvas, h: Hex) -> None:
    """A feature the map knows but prints no symbol for (a coast hex is coast by its own art)."""


# Features drawn over the others (lines that join from hex to hex) come last.
FEATURE_SYMBOLS = {"coast": unprinted, "rr embankment": embankment, "fortification": fortification,
                   "el bastion": fortification, "airfield": airfield, "mill": mill,
                   "hospital": hospital, "fw-190 crash": crash, "train station": station, "pier": pier,
                   "castle": castle, "coastal battery": battery, "wire": wire, "trench": trench}
