"""Shapely polygons in inches to Qt painter paths in scene pixels, and back (for checking what is drawn)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF


def _rings(geom):
    if geom is None or geom.is_empty:
        return
    parts = getattr(geom, "geoms", None)
    if parts is not None:
        for g in parts:
            yield from _rings(g)
        return
    if geom.geom_type == "Polygon":
        yield geom.exterior.coords
        for ring in geom.interiors:
            yield ring.coords


def polygon_path(geom, ppi: float) -> QPainterPath:
    """A (multi)polygon in inches as a painter path in pixels (holes by the odd-even rule)."""
    path = QPainterPath()
    path.setFillRule(Qt.OddEvenFill)
    for ring in _rings(geom):
        path.addPolygon(QPolygonF([QPointF(x * ppi, y * ppi) for x, y in ring]))
        path.closeSubpath()
    return path


def path_points_inches(path: QPainterPath, ppi: float) -> list[tuple[float, float]]:
    """The corners of a drawn path, back in inches."""
    return [(p.x() / ppi, p.y() / ppi) for poly in path.toSubpathPolygons() for p in poly]
