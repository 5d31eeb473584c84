"""Lines on the map: rivers and ditches along hexsides, roads and railroads between hex centres, named lines."""
from __future__ import annotations

import math

import shapely
from shapely.geometry import LineString

from engine.maps.hexes import SQRT3
from engine.maps.art import shapes
from engine.maps.art.canvas import Canvas
from engine.maps.art.palette import (DITCH, INK, LINE_STYLE, OTHER_LINE, RAIL, RIVER, ROAD, ROAD_EDGE, WATER_EDGE)


# Hexside features a map records but prints no line for (a gate is where a road crosses a wall).
UNPRINTED_HEXSIDES = ("gate",)


def side_chains(cv: Canvas, sides) -> list[list[tuple]]:
    """Hexsides touching the sheet, joined into polylines along the hex edges."""
    edges = []
    for side in sorted(sides):
        if side.a in cv.on_sheet or side.b in cv.on_sheet:
            a, b = cv.layout.hexside_segment(side)
            edges.append((shapes.key(a), shapes.key(b)))
    return shapes.chains(edges)


def link_chains(cv: Canvas, links) -> list[list[tuple]]:
    """Hex-to-hex links touching the sheet, joined into polylines through hex centres.

    A line that ends in a hex at the edge of the board, heading off it, is
    drawn on to the edge of the printed map, as printed maps show roads
    leaving the sheet.
    """
    edges = []
    for side in sorted(links):
        if side.a in cv.on_sheet or side.b in cv.on_sheet:
            edges.append((shapes.key(cv.center(side.a)), shapes.key(cv.center(side.b))))
    out = []
    for chain in shapes.chains(edges):
        chain = list(chain)
        if chain[0] != chain[-1]:
            chain = _run_off(cv, chain[::-1])[::-1]
            chain = _run_off(cv, chain)
        for part in shapes.lines_of(LineString(chain).intersection(cv.rect)):
            out.append(list(part.coords))
    return out


def _run_off(cv: Canvas, chain: list[tuple]) -> list[tuple]:
    """The chain with one more step if its last hex is on the sheet and the next one is off the board."""
    (px, py), (ex, ey) = chain[-2], chain[-1]
    end = cv.layout.pixel_to_hex(ex, ey)
    beyond = cv.layout.pixel_to_hex(2 * ex - px, 2 * ey - py)
    if end in cv.on_sheet and beyond not in cv.board:
        return chain + [(2 * ex - px, 2 * ey - py)]
    return chain


def paint_hexsides(cv: Canvas) -> None:
    """Rivers as blue bands, ditches as toothed lines, other hexside features as grey bars."""
    hexsides = cv.board.hexsides
    for name in sorted({n for v in hexsides.values() for n in v}):
        chains = side_chains(cv, [s for s, names in hexsides.items() if name in names])
        if name == "river":
            for c in chains:
                cv.polyline(c, WATER_EDGE, 0.17)
            for c in chains:
                cv.polyline(c, RIVER, 0.11)
        elif name in ("ditch", "at ditch", "AT ditch"):
            for c in chains:
                ditch(cv, c)
        elif name == "wall":
            for c in chains:
                cv.polyline(c, (84, 78, 72), 0.09)
            for c in chains:
                cv.polyline(c, (184, 176, 164), 0.04)
        elif name in UNPRINTED_HEXSIDES:
            continue
        else:
            for c in chains:
                cv.polyline(c, (80, 80, 80), 0.06)


def ditch(cv: Canvas, chain) -> None:
    """A ditch: a line with teeth on its west (or, where it runs east-west, north) side."""
    cv.polyline(chain, DITCH, 0.045)
    line = LineString(chain)
    n = int(line.length / 0.16)
    for i in range(n):
        d = (i + 0.5) * line.length / n
        p, q = line.interpolate(d), line.interpolate(min(line.length, d + 0.01))
        dx, dy = q.x - p.x, q.y - p.y
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        if nx > 1e-9 or (abs(nx) <= 1e-9 and ny > 0):
            nx, ny = -nx, -ny
        cv.polyline([(p.x, p.y), (p.x + 0.11 * nx, p.y + 0.11 * ny)], DITCH, 0.03, caps=False)


def paint_links(cv: Canvas) -> None:
    """Roads (cased, light fill) and railroads (line with cross ties), bridged over rivers."""
    for kind in sorted(cv.board.links):
        links = cv.board.links[kind]
        chains = link_chains(cv, links)
        if kind == "road":
            bridges(cv, links, 0.13)
            for c in chains:
                cv.polyline(c, ROAD_EDGE, 0.13)
            for c in chains:
                cv.polyline(c, ROAD, 0.075)
        elif kind == "highway":
            bridges(cv, links, 0.2)
            for c in chains:
                cv.polyline(c, ROAD_EDGE, 0.2)
            for c in chains:
                cv.polyline(c, (226, 96, 64), 0.13)
            for c in chains:
                cv.polyline(c, ROAD, 0.04)
        elif kind == "railroad":
            bridges(cv, links, 0.1)
            for c in chains:
                railroad(cv, c)
        else:
            for c in chains:
                cv.polyline(c, (110, 90, 70), 0.05)


def railroad(cv: Canvas, chain) -> None:
    """A railroad: cross ties every 0.17 hex sizes under a black line."""
    line = LineString(chain)
    n = max(1, int(line.length / 0.17))
    for i in range(n + 1):
        d = i * line.length / n
        a, b = line.interpolate(max(0.0, d - 0.01)), line.interpolate(min(line.length, d + 0.01))
        dx, dy = b.x - a.x, b.y - a.y
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln * 0.09, dx / ln * 0.09
        p = line.interpolate(d)
        cv.polyline([(p.x - nx, p.y - ny), (p.x + nx, p.y + ny)], RAIL, 0.025, caps=False)
    cv.polyline(chain, RAIL, 0.045)


def bridges(cv: Canvas, links, width: float) -> None:
    """A bridge (deck and flared parapets) wherever a link crosses a river hexside."""
    for side in sorted(links):
        if "river" not in cv.board.hexsides.get(side, ()):
            continue
        if side.a not in cv.on_sheet and side.b not in cv.on_sheet:
            continue
        (ax, ay), (bx, by) = cv.center(side.a), cv.center(side.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (bx - ax) / SQRT3, (by - ay) / SQRT3
        nx, ny = -dy, dx
        half = width * 0.5 + 0.04
        deck = shapely.Polygon([(mx - 0.2 * dx - nx * half, my - 0.2 * dy - ny * half),
                                (mx - 0.2 * dx + nx * half, my - 0.2 * dy + ny * half),
                                (mx + 0.2 * dx + nx * half, my + 0.2 * dy + ny * half),
                                (mx + 0.2 * dx - nx * half, my + 0.2 * dy - ny * half)])
        cv.fill(deck, (236, 230, 214))
        for k in (-1, 1):
            ox, oy = nx * k * (half + 0.01), ny * k * (half + 0.01)
            cv.polyline([(mx - 0.28 * dx + ox + 0.08 * k * nx, my - 0.28 * dy + oy + 0.08 * k * ny),
                         (mx - 0.2 * dx + ox, my - 0.2 * dy + oy),
                         (mx + 0.2 * dx + ox, my + 0.2 * dy + oy),
                         (mx + 0.28 * dx + ox + 0.08 * k * nx, my + 0.28 * dy + oy + 0.08 * k * ny)],
                        INK, 0.04, caps=False)


def paint_named_lines(cv: Canvas) -> None:
    """Start lines, perimeters and other named lines, dashed along their hexsides."""
    for name in sorted(cv.board.lines):
        ln = cv.board.lines[name]
        colour, width, dash, gap = LINE_STYLE.get(ln.kind, OTHER_LINE)
        for c in side_chains(cv, ln.hexsides):
            cv.dashed(c, colour, width, dash, gap)
