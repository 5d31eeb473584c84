"""The layers of a printed sheet, bottom to top: ground and hills, terrain, lines, features, grid, labels."""
from __future__ import annotations

import shapely
from shapely.geometry import box

from engine.maps.hexes import SQRT3
from engine.maps.art import shapes
from engine.maps.art.canvas import Canvas
from engine.maps.art.linework import paint_hexsides, paint_links, paint_named_lines
from engine.maps.art.palette import (AREA_EDGE, AREA_LABEL, CONTOUR, GRID, HALO, INK, PAPER, TERRAIN_STYLE,
                      ground_colour, terrain_order)
from engine.maps.art.symbols import FEATURE_SYMBOLS, TERRAIN_SYMBOLS

GRID_WIDTH = 0.018   # hex sizes
# Areas printed as a name only, centred on their hexes: colour and text size (hex sizes).
LABEL_ONLY = {"bay": ((36, 84, 150), 0.5), "hill": ((120, 70, 30), 0.34), "place": ((80, 60, 40), 0.3),
              "landing zone": ((170, 30, 30), 0.4)}


def paint(cv: Canvas) -> None:
    """Draw every layer of a sheet."""
    paint_ground(cv)
    paint_terrain(cv)
    paint_sea(cv)
    paint_hexsides(cv)
    paint_links(cv)
    paint_features(cv)
    paint_obstacles(cv)
    paint_areas(cv)
    paint_named_lines(cv)
    paint_grid(cv)
    paint_labels(cv)
    paint_margin(cv)


def paint_ground(cv: Canvas) -> None:
    """Ground tinted by height, with a contour line wherever the elevation changes."""
    elev = cv.board.elevation
    heights = sorted({elev.get(h, 0.0) for h in cv.hexes})
    lo, span = heights[0], (heights[-1] - heights[0]) or 1.0
    cv.fill(cv.rect, ground_colour(0.0))
    for level in heights[1:]:
        zone = shapes.smooth(cv.region(lambda h, L=level: elev.get(h, 0.0) >= L), 0.6)
        zone = shapes.wobble(zone, 0.05, cv.seed + int(level))
        cv.fill(zone.intersection(cv.rect), ground_colour((level - lo) / span))
        cv.stroke(zone.boundary.intersection(cv.rect), CONTOUR, 0.04)


def paint_terrain(cv: Canvas) -> None:
    """Each terrain as a soft-edged region with its symbol in every hex; unknown terrain is named."""
    terrain = cv.board.terrain
    for name in sorted({terrain.get(h) for h in cv.hexes} - {None, "clear"}, key=lambda n: (terrain_order(n), n)):
        hexes = [h for h in cv.hexes if terrain.get(h) == name]
        style = TERRAIN_STYLE.get(name)
        if style is None:
            for h in hexes:
                cx, cy = cv.center(h)
                cv.text(cx, cy + 0.45, name, 0.2, colour=(90, 80, 70))
            continue
        colour, alpha, edge, soften, bend = style
        zone = shapes.smooth(cv.region(lambda h: terrain.get(h) == name), soften)
        zone = shapes.wobble(zone, bend, cv.seed + sum(map(ord, name)))
        cv.fill(zone.intersection(cv.rect), colour, alpha)
        if edge is not None:
            cv.stroke(zone.boundary.intersection(cv.rect), edge, 0.04)
        if name in ("lake", "sea"):
            cv.stroke(zone.buffer(-0.14).boundary.intersection(cv.rect), (96, 146, 196), 0.02)
        symbol = TERRAIN_SYMBOLS.get(name)
        if symbol is not None:
            for h in hexes:
                symbol(cv, h)


def paint_sea(cv: Canvas) -> None:
    """Traced sea outlines (kind "sea"): water over the coast hexes up to the printed shore line."""
    polys = [ob.polygon() for ob in cv.board.obstacles if ob.kind == "sea" and ob.sheet in (None, cv.sheet.id)]
    if not polys:
        return
    sea = shapely.union_all(polys)            # pieces traced apart join without a seam
    cv.fill(sea.intersection(cv.rect), TERRAIN_STYLE["sea"][0])
    cv.stroke(sea.boundary.intersection(cv.rect.buffer(-0.02)), TERRAIN_STYLE["sea"][2], 0.04)


def paint_features(cv: Canvas) -> None:
    """Hex features by their symbols (unknown ones by name); trenches and wire last, on top."""
    feats = cv.board.features
    order = list(FEATURE_SYMBOLS)
    for h in cv.hexes:
        for name in sorted(set(feats.get(h, ())) - set(order)):
            cx, cy = cv.center(h)
            cv.text(cx, cy + 0.42, name, 0.18, colour=(90, 40, 30), halo=PAPER)
    for name in order:
        for h in cv.hexes:
            if name in feats.get(h, ()):
                FEATURE_SYMBOLS[name](cv, h)


def paint_obstacles(cv: Canvas) -> None:
    """Traced LOS obstacles as printed: dark woods, solid buildings, grey for anything else."""
    for ob in cv.board.obstacles:
        if ob.sheet not in (None, cv.sheet.id) or ob.kind == "sea":
            continue
        poly = ob.polygon()
        if ob.kind in ("woods", "forest", "orchard"):
            cv.fill(poly, (58, 104, 46), 230)
            cv.stroke(poly.exterior, (30, 62, 26), 0.03)
            rnd = cv.rng("obstacle", *poly.centroid.coords[0])
            inner = poly.buffer(-0.1)
            x0, y0, x1, y1 = inner.bounds
            for _ in range(10):
                x, y = rnd.uniform(x0, x1), rnd.uniform(y0, y1)
                if inner.contains(shapely.Point(x, y)):
                    cv.disc(x, y, 0.05, (96, 150, 72))
        elif ob.kind in ("building", "house", "wall"):
            cv.fill(poly, (96, 40, 34))
            cv.stroke(poly.exterior, INK, 0.02)
        else:
            cv.fill(poly, (90, 90, 90), 160)
            cv.stroke(poly.exterior, INK, 0.02)


def paint_areas(cv: Canvas) -> None:
    """Named areas other than towns: a tinted band and a dashed line just inside their edge."""
    for name in sorted(cv.board.areas):
        area = cv.board.areas[name]
        if area.kind == "town" or area.kind in LABEL_ONLY or not (area.hexes & cv.on_sheet):
            continue
        inner = shapes.hex_union(cv.layout, [h for h in area.hexes if h in cv.on_sheet]).buffer(-0.08, join_style="mitre")
        cv.fill(inner.difference(inner.buffer(-0.16, join_style="mitre")), AREA_EDGE, 60)
        for ring in shapes.lines_of(inner):
            cv.dashed(list(ring.coords), AREA_EDGE, 0.045, 0.16, 0.09)


def paint_grid(cv: Canvas) -> None:
    """The hex grid, a centre dot in every hex and its printed id at the top."""
    wd = max(cv.ss, int(round(GRID_WIDTH * cv.s)))
    for h in cv.hexes:
        corners = cv.pts(cv.layout.polygon_corners(h))
        cv.draw.line(corners + [corners[0]], fill=GRID, width=wd, joint="curve")
    top = SQRT3 / 2 if cv.board.orientation == "flat" else 0.78
    for h in cv.hexes:
        cx, cy = cv.center(h)
        cv.disc(cx, cy, 0.035, GRID)
        cv.text(cx, cy - top + 0.07, cv.sheet.numbering.format(h), 0.2, colour=GRID, anchor="mt",
                halo=HALO if cv.board.terrain.get(h, "clear") != "clear" else None, halo_width=0.03)


def paint_labels(cv: Canvas) -> None:
    """Town names below their towns, other areas' names above them."""
    for name in sorted(cv.board.areas):
        area = cv.board.areas[name]
        hexes = [h for h in area.hexes if h in cv.on_sheet]
        if not hexes:
            continue
        xs, ys = zip(*(cv.center(h) for h in hexes))
        if area.kind in LABEL_ONLY:
            colour, size = LABEL_ONLY[area.kind]
            below = 0.62 if len(hexes) == 1 else 0.0      # a one-hex place keeps its symbol clear
            cv.text(sum(xs) / len(xs), sum(ys) / len(ys) + below, name, size, colour=colour, bold=True, halo=HALO)
        elif area.kind == "town":
            cv.text(sum(xs) / len(xs), max(ys) + 0.62, name.upper(), 0.34, bold=True, halo=HALO)
        else:
            cv.text(sum(xs) / len(xs), min(ys) - 0.5, name, 0.26, colour=AREA_LABEL, bold=True, halo=HALO)


def paint_margin(cv: Canvas) -> None:
    """The map's frame, its title in the strip below (or above) it with its off-map boxes (right to left).

    Sides where another sheet carries the map on get no frame; a sheet with
    no room for a strip prints its title inside its top left corner.
    """
    x0, y0, x1, y1 = cv.rect.bounds
    joined = shapes.joined_sides(cv.board, cv.sheet)
    _margins, strip = shapes.sheet_margins(cv.board, cv.sheet)
    edges = {"top": ((x0, y0), (x1, y0)), "bottom": ((x0, y1), (x1, y1)),
             "left": ((x0, y0), (x0, y1)), "right": ((x1, y0), (x1, y1))}
    for side, (a, b) in edges.items():
        if side in joined:
            continue
        cv.polyline([a, b], INK, 0.05)
        off = {"top": (0, -0.15), "bottom": (0, 0.15), "left": (-0.15, 0), "right": (0.15, 0)}[side]
        grow = [(0.15 if side in ("top", "bottom") else 0.0), (0.15 if side in ("left", "right") else 0.0)]
        cv.polyline([(a[0] + off[0] - grow[0], a[1] + off[1] - grow[1]),
                     (b[0] + off[0] + grow[0], b[1] + off[1] + grow[1])], INK, 0.02)
    title = cv.board.name if len(cv.board.sheets) == 1 else f"{cv.board.name} — sheet {cv.sheet.id}"
    if strip is None:
        cv.text(x0 + 0.5, y0 + 1.2, title.upper(), 0.42, bold=True, anchor="lm", halo=HALO)
        return
    mid = y1 + 0.75 if strip == "bottom" else y0 - 0.75
    cv.text(x0, mid, title.upper(), 0.42, bold=True, anchor="lm")
    right = x1
    for key in sorted(cv.board.boxes, reverse=True):
        if right - 4.2 < x0 + 8.0:
            break
        frame = box(right - 4.2, mid - 0.4, right, mid + 0.4)
        cv.fill(frame, (226, 218, 196))
        cv.stroke(frame.exterior, INK, 0.03)
        name = cv.board.boxes[key].name
        cv.text(right - 2.1, mid, name, min(0.28, 3.8 / (0.62 * max(1, len(name)))), bold=True)   # fits its box
        right -= 4.6
