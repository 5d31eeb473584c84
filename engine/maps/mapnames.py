"""The map's named things as plain functions: areas, lines and boxes created, renamed and removed, obstacles
added and removed, a terrain's legend code changed; the map editor's session (``mapedit.MapEdit``)
makes each an undoable step."""
from __future__ import annotations

import math
from typing import Iterable

from engine.maps.board import Area, Board, Box, Contour, Line, Obstacle
from engine.maps.hexes import Hex, Hexside

NO_CODE = ". "            # characters that cannot code a terrain (the map file's "no terrain" and space)


# ---------------------------------------------------------------- names, boxes, obstacles

def name_area(board: Board, name: str, kind: str, hexes: Iterable[Hex]) -> Area:
    """Create or replace a named area (town, set-up area, entry area, landing zone)."""
    name = name.strip()
    if not name:
        raise ValueError("an area needs a name")
    area = Area(name, kind.strip() or "area", {h for h in hexes if h in board})
    board.areas[name] = area
    return area


def name_line(board: Board, name: str, kind: str, sides: Iterable[Hexside]) -> Line:
    """Create or replace a named line along hexsides (start line, perimeter)."""
    name = name.strip()
    if not name:
        raise ValueError("a line needs a name")
    line = Line(name, kind.strip() or "line", set(sides))
    board.lines[name] = line
    return line


def add_box(board: Board, box_id: str, name: str = "", kind: str = "holding") -> Box:
    """Create or replace an off-map box (holding box, track, dead pile)."""
    box_id = box_id.strip()
    if not box_id:
        raise ValueError("a box needs an id")
    box = Box(box_id, name.strip() or box_id, kind.strip() or "holding")
    board.boxes[box_id] = box
    return box


def remove_area(board: Board, name: str) -> Area:
    """Delete a named area; returns it."""
    return _remove_named(board.areas, name, f"no area is called {name!r}")


def rename_area(board: Board, name: str, new_name: str) -> Area:
    """Give a named area another name (unused by any other area); returns it."""
    return _rename_named(board.areas, name, new_name, "area", f"no area is called {name!r}", "name")


def remove_line(board: Board, name: str) -> Line:
    """Delete a named line; returns it."""
    return _remove_named(board.lines, name, f"no line is called {name!r}")


def rename_line(board: Board, name: str, new_name: str) -> Line:
    """Give a named line another name (unused by any other line); returns it."""
    return _rename_named(board.lines, name, new_name, "line", f"no line is called {name!r}", "name")


def remove_box(board: Board, box_id: str) -> Box:
    """Delete an off-map box; returns it."""
    return _remove_named(board.boxes, box_id, f"no box has id {box_id!r}")


def rename_box(board: Board, box_id: str, new_id: str, name: str | None = None) -> Box:
    """Give a box another id (unused by any other box) and, when given, another name; returns it."""
    box = _rename_named(board.boxes, box_id, new_id, "box", f"no box has id {box_id!r}", "id")
    if name is not None and name.strip():
        box.name = name.strip()
    return box


def _remove_named(named: dict, key: str, missing: str):
    """Take the entry ``key`` out of one of the board's named tables; ``missing`` says it is not there."""
    if key not in named:
        raise ValueError(missing)
    return named.pop(key)


def _rename_named(named: dict, key: str, new_key: str, what: str, missing: str, attr: str):
    """File an entry of one of the board's named tables under another key, kept in its ``attr`` too."""
    new_key = _new_name(new_key, key, named, what)
    item = _remove_named(named, key, missing)
    setattr(item, attr, new_key)
    named[new_key] = item
    return item


def _new_name(new: str, old: str, taken: dict, what: str) -> str:
    new = new.strip()
    if not new:
        raise ValueError(f"a {what} needs a name" if what != "box" else "a box needs an id")
    if new != old and new in taken:
        raise ValueError(f"another {what} is already called {new!r}")
    return new


def remove_obstacle(board: Board, index: int) -> Obstacle:
    """Delete the traced obstacle at ``index`` of the board's list; returns it."""
    if not 0 <= index < len(board.obstacles):
        raise ValueError(f"there is no obstacle number {index + 1} (the map has {len(board.obstacles)})")
    return board.obstacles.pop(index)


def remove_contour(board: Board, index: int) -> Contour:
    """Delete the traced contour line at ``index`` of the board's list; returns it."""
    if not 0 <= index < len(board.contours):
        raise ValueError(f"there is no contour number {index + 1} (the map has {len(board.contours)})")
    return board.contours.pop(index)


def recode_terrain(board: Board, terrain: str, code: str) -> str:
    """Make ``code`` the legend letter of a terrain (its only one); refused when another terrain has it."""
    if len(code) != 1 or code in NO_CODE:
        raise ValueError("a terrain code is one character other than '.' and space")
    other = board.legend.get(code)
    if other is not None and other != terrain:
        raise ValueError(f"the letter {code!r} already codes {other!r}: give that terrain another letter first")
    for c in [c for c, name in board.legend.items() if name == terrain]:
        del board.legend[c]
    board.legend[code] = terrain
    return code


def add_obstacle(board: Board, kind: str, height: float, points: list[tuple[float, float]],
                 sheet: str | None = None) -> Obstacle:
    """Add a traced LOS obstacle "as printed" (three or more lattice points)."""
    from shapely.geometry import Polygon

    if len(points) < 3:
        raise ValueError("an obstacle outline needs three or more points")
    if not Polygon(points).is_valid:
        raise ValueError("the outline crosses itself; trace it again without crossing")
    if not math.isfinite(height) or height < 0:
        raise ValueError(f"an obstacle's height is a number of {board.elevation_unit} from 0 up")
    if sheet is None and board.sheets:
        sheet = board.sheets[0].id
    ob = Obstacle(kind.strip() or "obstacle", float(height), [(float(x), float(y)) for x, y in points], sheet)
    board.obstacles.append(ob)
    return ob
