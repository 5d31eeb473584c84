"""The editor's overlays over the scan: terrain codes, elevations, hexsides, links, names, obstacles, contours.

Everything is painted in viewport pixels from lattice coordinates, and only
for the hexes the view shows.
"""
from __future__ import annotations

import hashlib

import numpy as np

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

TERRAIN_COLOURS = {
    "clear": QColor(240, 235, 200), "woods": QColor(40, 130, 50), "forest": QColor(30, 110, 40),
    "rough": QColor(150, 120, 80), "town": QColor(200, 80, 80), "city": QColor(170, 40, 40),
    "lake": QColor(60, 120, 220), "marsh": QColor(90, 170, 160), "bog": QColor(110, 150, 110),
    "fortification": QColor(120, 120, 120), "airfield": QColor(180, 180, 200), "sea": QColor(40, 90, 200),
}
HEXSIDE_COLOURS = {"river": QColor(20, 90, 230), "stream": QColor(80, 150, 240), "ditch": QColor(130, 70, 20),
                   "wall": QColor(60, 60, 60)}
LINK_COLOURS = {"road": QColor(170, 30, 30), "railroad": QColor(20, 20, 20), "trail": QColor(150, 100, 40)}
CODES_MIN_PX = 14.0      # a hex this many pixels across shows its code
FINE_MIN_PX = 24.0       # ... and is drawn with smooth, dashed lines (below: plain lines, much faster)
TINT_ALPHA = 90


def colour_of(name: str, table: dict, alpha: int = 255) -> QColor:
    """A terrain's (or feature's) colour: the table's, else one made from its name."""
    c = table.get(name)
    if c is None:
        d = hashlib.md5(name.encode()).digest()
        c = QColor(60 + d[0] % 160, 60 + d[1] % 160, 60 + d[2] % 160)
    c = QColor(c)
    c.setAlpha(alpha)
    return c


def hex_polygon(view, h) -> QPolygonF:
    return QPolygonF([view.lattice_to_viewport(x, y) for x, y in view.board.layout.polygon_corners(h)])


def visible_hexes(view) -> list:
    """The board's hexes whose centres are inside the viewport (with a hex of margin)."""
    vp = view.viewport().rect()
    corners = [view.lattice(view.mapToScene(p)) for p in (vp.topLeft(), vp.topRight(), vp.bottomLeft(),
                                                             vp.bottomRight())]
    x0, x1 = min(x for x, _ in corners) - 1, max(x for x, _ in corners) + 1
    y0, y1 = min(y for _, y in corners) - 1, max(y for _, y in corners) + 1
    hexes, xy = view.editor.centres()
    inside = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
    return [hexes[i] for i in np.nonzero(inside)[0]]


def hex_px(view) -> float:
    """Screen pixels across a hex (corner to corner)."""
    return 2 * view.scale_ * view.zoom()


def paint_overlays(painter: QPainter, view, editor) -> None:
    """Every overlay the editor has switched on, then the current tool's own drawing."""
    painter.setRenderHint(QPainter.Antialiasing, True)
    board = view.board
    shown = visible_hexes(view)
    px = hex_px(view)
    calibrating = editor.tool_key == "calibrate"     # the scan and the grid alone while calibrating
    if editor.show_terrain and not calibrating:
        _paint_terrain(painter, view, board, shown, px, editor.show_elevation)
    elif editor.show_elevation and not calibrating:
        _paint_elevation(painter, view, board, shown, px)
    if editor.show_lines or editor.show_names:
        paths = line_paths(board, editor.overlay_cache)
        if editor.show_lines:
            _paint_lines(painter, view, paths)
        if editor.show_names:
            _paint_areas(painter, view, paths)
    if editor.show_obstacles:
        _paint_obstacles(painter, view, board, board.contours)
    if editor.selection:
        painter.setPen(QPen(QColor(250, 200, 0), 2))
        painter.setBrush(QColor(255, 220, 0, 80))
        for h in editor.selection:
            painter.drawPolygon(hex_polygon(view, h))
    if editor.marked:
        painter.setPen(QPen(QColor(230, 0, 0), 3))
        painter.setBrush(Qt.NoBrush)
        for h in editor.marked:
            painter.drawPolygon(hex_polygon(view, h))
    if editor.tool is not None:
        editor.tool.paint(painter, view)
    editor.grid_finder.paint(painter, view)


def _paint_terrain(painter, view, board, shown, px, with_elevation) -> None:
    if px < CODES_MIN_PX:
        return
    code_of = {name: code for code, name in board.legend.items()}
    font = QFont("DejaVu Sans")
    font.setPixelSize(int(max(9, min(22, px * 0.22))))
    font.setBold(True)
    painter.setFont(font)
    for h in shown:
        t = board.terrain.get(h)
        poly = hex_polygon(view, h)
        if t is None:
            painter.setPen(QPen(QColor(230, 0, 0, 160), 1, Qt.DotLine))
            painter.setBrush(Qt.NoBrush)
            painter.drawPolygon(poly)
            continue
        painter.setPen(Qt.NoPen)
        painter.setBrush(colour_of(t, TERRAIN_COLOURS, TINT_ALPHA))
        painter.drawPolygon(poly)
        c = view.lattice_to_viewport(*board.center(h))
        painter.setPen(QColor(0, 0, 0, 220))
        text = code_of.get(t, t[:1])
        feats = board.features.get(h)
        if feats:
            text += " " + "".join(sorted(f[:2] for f in feats))
        painter.drawText(QRectF(c.x() - px / 2, c.y() - px * 0.3, px, px * 0.3), Qt.AlignCenter, text)
        if with_elevation and h in board.elevation:
            painter.drawText(QRectF(c.x() - px / 2, c.y(), px, px * 0.3), Qt.AlignCenter,
                             f"{board.elevation[h]:g}")


def _paint_elevation(painter, view, board, shown, px) -> None:
    if px < CODES_MIN_PX:
        return
    font = QFont("DejaVu Sans")
    font.setPixelSize(int(max(9, min(20, px * 0.2))))
    painter.setFont(font)
    painter.setPen(QColor(90, 40, 0))
    for h in shown:
        if h in board.elevation:
            c = view.lattice_to_viewport(*board.center(h))
            painter.drawText(QRectF(c.x() - px / 2, c.y() - px * 0.15, px, px * 0.3), Qt.AlignCenter,
                             f"{board.elevation[h]:g}")


def _lattice_painter(painter, view) -> None:
    """Let the painter draw in lattice coordinates (pens stay in screen pixels: cosmetic)."""
    painter.setTransform(view.lattice_to_scene() * view.viewportTransform())


def _pen(colour: QColor, width: float, style=Qt.SolidLine) -> QPen:
    pen = QPen(colour, width, style, Qt.RoundCap, Qt.RoundJoin)
    pen.setCosmetic(True)
    return pen


def line_paths(board, cache: dict) -> dict:
    """Hexside features, links, named lines and areas as painter paths in lattice coordinates, built once per edit."""
    if "lines" in cache:
        return cache
    lay = board.layout

    def segment(path, side):
        (x0, y0), (x1, y1) = lay.hexside_segment(side)
        path.moveTo(x0, y0)
        path.lineTo(x1, y1)

    sides: dict[tuple[str, int], QPainterPath] = {}
    for side, feats in board.hexsides.items():
        for i, f in enumerate(sorted(feats)):
            segment(sides.setdefault((f, i), QPainterPath()), side)
    links: dict[str, QPainterPath] = {}
    for kind, found in board.links.items():
        path = links.setdefault(kind, QPainterPath())
        for side in found:
            path.moveTo(*board.center(side.a))
            path.lineTo(*board.center(side.b))
    named = QPainterPath()
    for line in board.lines.values():
        for side in line.hexsides:
            segment(named, side)
    areas = []
    for area in board.areas.values():
        if not area.hexes:
            continue
        path = QPainterPath()
        xs = ys = 0.0
        for h in area.hexes:
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in lay.polygon_corners(h)]))
            path.closeSubpath()
            x, y = board.center(h)
            xs, ys = xs + x, ys + y
        areas.append((area, path, (xs / len(area.hexes), ys / len(area.hexes))))
    cache.update(sides=sides, links=links, lines=named, areas=areas)
    return cache


def _paint_lines(painter, view, paths) -> None:
    painter.save()
    _lattice_painter(painter, view)
    painter.setBrush(Qt.NoBrush)
    fine = hex_px(view) >= FINE_MIN_PX
    painter.setRenderHint(QPainter.Antialiasing, fine)
    for (feature, i), path in paths["sides"].items():
        painter.setPen(_pen(colour_of(feature, HEXSIDE_COLOURS, 220), 5 - 2 * i))
        painter.drawPath(path)
    for kind, path in paths["links"].items():
        dashed = fine and kind == "railroad"
        painter.setPen(_pen(colour_of(kind, LINK_COLOURS, 220), 3, Qt.DashLine if dashed else Qt.SolidLine))
        painter.drawPath(path)
    painter.setPen(_pen(QColor(240, 120, 0, 230), 4, Qt.DashLine if fine else Qt.SolidLine))
    painter.drawPath(paths["lines"])
    painter.restore()


def _paint_areas(painter, view, paths) -> None:
    painter.save()
    _lattice_painter(painter, view)
    painter.setRenderHint(QPainter.Antialiasing, hex_px(view) >= FINE_MIN_PX)
    for area, path, _centre in paths["areas"]:
        painter.setPen(_pen(colour_of(area.kind, {}, 200), 1.5))
        painter.setBrush(colour_of(area.kind, {}, 60))
        painter.drawPath(path)
    painter.restore()
    font = QFont("DejaVu Sans")
    font.setPixelSize(13)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor(0, 0, 0))
    for area, _path, (x, y) in paths["areas"]:
        c = view.lattice_to_viewport(x, y)
        painter.drawText(QRectF(c.x() - 150, c.y() - 10, 300, 20), Qt.AlignCenter, f"{area.name} ({area.kind})")


def _paint_obstacles(painter, view, board, contours) -> None:
    font = QFont("DejaVu Sans")
    font.setPixelSize(12)
    painter.setFont(font)
    for ob in board.obstacles:
        poly = QPolygonF([view.lattice_to_viewport(x, y) for x, y in ob.points])
        painter.setPen(QPen(QColor(0, 90, 0), 2))
        painter.setBrush(QColor(0, 160, 0, 70))
        painter.drawPolygon(poly)
        r = poly.boundingRect()
        painter.setPen(QColor(0, 50, 0))
        painter.drawText(r, Qt.AlignCenter, f"{ob.kind} {ob.height:g}")
    for c in contours:
        pts = [view.lattice_to_viewport(x, y) for x, y in c.points]
        if c.closed:
            pts.append(pts[0])
        painter.setPen(QPen(QColor(150, 80, 20), 2))
        painter.setBrush(Qt.NoBrush)
        painter.drawPolyline(QPolygonF(pts))
        painter.setPen(QColor(120, 60, 10))
        painter.drawText(pts[0] + QPointF(4, -4), f"{c.elevation:g}")
