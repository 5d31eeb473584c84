"""Map editing: every change the map editor makes to a Board, as plain functions, with undo.

The functions change a :class:`~engine.maps.board.Board` in place and return what
they changed.  :class:`MapEdit` wraps them for an editing session: each edit
is one undoable step (a snapshot of the board fields it touches, DESIGN
lesson 5), and the session also holds what the map file does not store, such
as the calibration clicks.  Points are lattice
coordinates (hex size 1) unless a name says ``uv`` (image pixels).
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Callable, Iterable

from engine.maps.board import UPHILL_SIDES, Area, Board, Box, Contour, Fit, Line, Obstacle, Sheet
from engine.maps.calibration import Calibration, fit_similarity, guess_transform, place_sheet, suggest_id
from engine.maps.contours import add_contour, check_contour, contour_region, derive_elevations
from engine.maps.hexes import Hex, Hexside, hex_distance, hex_linedraw, hex_neighbor, hex_range, hexside
from engine.maps.mapcheck import DEFAULT_MAX_JUMP, PROBLEM_KINDS, Finding, check_map, jump_limit
from engine.maps.mapnames import (NO_CODE, add_box, add_obstacle, name_area, name_line, recode_terrain, remove_area,
                                  remove_box, remove_contour, remove_line, remove_obstacle, rename_area, rename_box,
                                  rename_line)
from engine.maps.numbering import NumberingScheme


# ---------------------------------------------------------------- new maps

@dataclass
class SheetSpec:
    """What a person says about one scan before calibrating it."""

    id: str
    image: str
    cols: int
    rows: int
    numbering: str = "tcs"
    first_col: int = 1
    first_row: int = 1
    shifted: str = "even"
    col_digits: int = 2
    row_digits: int = 2
    origin: tuple[int, int] = (0, 0)
    row_direction: str = "down"        # "up": rows counted from the bottom edge (TCS sheets)


DEFAULT_TERRAIN = "clear"
# the terrains a map editor offers for a map that has none of its own yet (more are added by name)
STARTER_TERRAINS = ("clear", "woods", "rough", "hills", "marsh", "lake", "town", "city")


def palette_terrains(board: Board) -> list[str]:
    """The terrains to paint ``board`` with: the starter list, then the map's own (its legend's and its hexes')."""
    own = (set(board.legend.values()) | set(board.terrain.values())) - set(STARTER_TERRAINS)
    return list(STARTER_TERRAINS) + sorted(t for t in own if t)


def new_board(name: str, orientation: str, specs: Iterable[SheetSpec], terrain: str | None = DEFAULT_TERRAIN) -> Board:
    """A board with one sheet per scan, every hex of ``terrain`` (None: no terrain yet); ValueError names a bad sheet."""
    board = Board(name=name, orientation=orientation)
    seen = set()
    for sp in specs:
        if sp.id in seen:
            raise ValueError(f"sheet id {sp.id!r} is used twice")
        seen.add(sp.id)
        scheme = NumberingScheme(style=sp.numbering, sheet=sp.id, orientation=orientation,
                                 first_col=sp.first_col, first_row=sp.first_row, cols=sp.cols, rows=sp.rows,
                                 shifted=sp.shifted, origin=tuple(sp.origin), col_digits=sp.col_digits,
                                 row_digits=sp.row_digits, row_direction=sp.row_direction)
        board.sheets.append(Sheet(sp.id, scheme, sp.image))
    board.invalidate()
    if terrain:
        terrain_code(board, terrain)
        paint_terrain(board, board.hexes(), terrain)
    return board


# ---------------------------------------------------------------- hexes: terrain, features, elevation

def brush(board: Board, center: Hex, radius: int = 0) -> list[Hex]:
    """The board's hexes within ``radius`` of a centre hex."""
    return [h for h in hex_range(center, radius) if h in board]


def paint_terrain(board: Board, hexes: Iterable[Hex], terrain: str | None) -> set[Hex]:
    """Give hexes a terrain (None clears it); returns the hexes that changed."""
    changed = set()
    for h in hexes:
        if h not in board or board.terrain.get(h) == terrain:
            continue
        if terrain is None:
            del board.terrain[h]
        else:
            board.terrain[h] = terrain
        changed.add(h)
    return changed


def region(board: Board, start: Hex, key: Callable[[Hex], object]) -> set[Hex]:
    """The connected hexes around ``start`` on which ``key`` gives the same value."""
    if start not in board:
        return set()
    want = key(start)
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in board.neighbors(h):
            if n not in seen and key(n) == want:
                seen.add(n)
                todo.append(n)
    return seen


def flood_fill(board: Board, start: Hex, terrain: str | None) -> set[Hex]:
    """Paint the region of equal terrain (or of no terrain) around ``start``; returns the changed hexes."""
    return paint_terrain(board, region(board, start, board.terrain.get), terrain)


def set_feature(board: Board, hexes: Iterable[Hex], feature: str, on: bool = True) -> set[Hex]:
    """Add (or remove) a hex feature such as trench or wire; returns the hexes that changed."""
    changed = set()
    for h in hexes:
        if h not in board:
            continue
        have = board.features.setdefault(h, set())
        if on and feature not in have:
            have.add(feature)
            changed.add(h)
        elif not on and feature in have:
            have.discard(feature)
            changed.add(h)
        if not have:
            del board.features[h]
    return changed


def set_elevation(board: Board, hexes: Iterable[Hex], value: float | None) -> set[Hex]:
    """Set hexes to elevation ``value`` (None forgets it); returns the hexes that changed."""
    changed = set()
    for h in hexes:
        if h not in board or board.elevation.get(h) == value:
            continue
        if value is None:
            del board.elevation[h]
        else:
            board.elevation[h] = float(value)
        changed.add(h)
    return changed


# ---------------------------------------------------------------- hexsides and links

def hexside_at(board: Board, x: float, y: float, reach: float = 0.45) -> Hexside | None:
    """The hexside nearest a lattice point if it is within ``reach`` hex sizes of it, else None."""
    h = board.hex_at(x, y)
    best, best_d = None, None
    lay = board.layout
    for d in range(6):
        side = hexside(h, hex_neighbor(h, d))
        mx, my = lay.hexside_midpoint(side)
        dist = math.hypot(mx - x, my - y)
        if best_d is None or dist < best_d:
            best, best_d = side, dist
    return best if best_d <= reach else None


def toggle_hexside(board: Board, side: Hexside, feature: str) -> bool:
    """Switch a hexside feature on or off; returns True when it is now on."""
    have = board.hexsides.setdefault(side, set())
    if feature in have:
        have.discard(feature)
        on = False
    else:
        have.add(feature)
        on = True
    if not have:
        del board.hexsides[side]
    return on


def add_hexsides(board: Board, sides: Iterable[Hexside], feature: str) -> set[Hexside]:
    """Put a hexside feature on several hexsides (an accepted trace); returns the new ones."""
    changed = set()
    for s in sides:
        have = board.hexsides.setdefault(s, set())
        if feature not in have:
            have.add(feature)
            changed.add(s)
    return changed


def trace_hexsides(board: Board, points: list[tuple[float, float]]) -> list[Hexside]:
    """The hexsides a traced line runs along, to show before accepting (Black Wednesday 1.5)."""
    return board.snap_polyline(points)


def trace_path(board: Board, points: list[tuple[float, float]], step: float = 0.25) -> list[Hex]:
    """The hexes a traced road or railroad passes through, in order, each adjacent to the last."""
    from shapely.geometry import LineString

    if len(points) < 2:
        return [board.hex_at(*points[0])] if points and board.hex_at(*points[0]) in board else []
    line = LineString(points)
    n = max(2, int(math.ceil(line.length / step)) + 1)
    path: list[Hex] = []
    for i in range(n):
        p = line.interpolate(i / (n - 1), normalized=True)
        h = board.hex_at(p.x, p.y)
        if path and h == path[-1]:
            continue
        if path and hex_distance(path[-1], h) > 1:
            path.extend(hex_linedraw(path[-1], h)[1:-1])
        path.append(h)
    out: list[Hex] = []
    for h in path:               # a wiggle back into the hex before: cut the loop
        if h in out:
            del out[out.index(h) + 1:]
        else:
            out.append(h)
    return [h for h in out if h in board]


def path_links(path: list[Hex]) -> list[Hexside]:
    """The hex-to-hex links of a path of adjacent hexes."""
    return [hexside(a, b) for a, b in zip(path, path[1:]) if hex_distance(a, b) == 1]


def add_links(board: Board, kind: str, links: Iterable[Hexside]) -> set[Hexside]:
    """Add hex-to-hex links of a kind (road, railroad); returns the new ones."""
    have = board.links.setdefault(kind, set())
    new = set(links) - have
    have |= new
    return new


def remove_links(board: Board, kind: str, links: Iterable[Hexside]) -> set[Hexside]:
    """Remove hex-to-hex links of a kind; returns the ones that were there."""
    have = board.links.get(kind, set())
    gone = set(links) & have
    have -= gone
    if kind in board.links and not have:
        del board.links[kind]
    return gone


# ---------------------------------------------------------------- an editing session with undo

EDITABLE = ("terrain", "features", "elevation", "hexsides", "links", "areas", "lines", "boxes", "obstacles",
            "contours", "legend", "name")


def _copy_field(value):
    if isinstance(value, dict) and value and isinstance(next(iter(value.values())), set):
        return {k: set(v) for k, v in value.items()}
    if isinstance(value, dict) and all(isinstance(v, (str, float, int)) for v in value.values()):
        return dict(value)
    return copy.deepcopy(value)


SESSION_FIELDS = ("suggested", "suggested_sides", "rejected_sides")   # undoable, MapEdit's, not the board


@dataclass
class Step:
    """One undoable edit: its label and the fields of the board before (or after) it."""

    label: str
    fields: dict


class MapEdit:
    """A board being edited: the operations as undoable steps and the calibration."""

    def __init__(self, board: Board, max_undo: int = 500):
        self.board = board
        self.undo_stack: list[Step] = []
        self.redo_stack: list[Step] = []
        self.max_undo = max_undo
        self.calibrations: dict[str, Calibration] = {sh.id: Calibration(sh.id, start=sh.transform) for sh in board.sheets}
        # what the session knows and the map file does not: the suggestions not accepted yet (never saved), hex
        # or hexside -> (terrain or feature, confidence); the hexes painted by hand are the board's (saved with
        # the map, so that its examples are still there when it is opened again)
        self.suggested: dict[Hex, tuple[str, float]] = {}
        self.suggested_sides: dict[Hexside, tuple[str, float]] = {}
        # hexsides the person turned down, by feature: they teach the next suggestions what the line is not
        self.rejected_sides: dict[str, set[Hexside]] = {}
        self.dirty = False

    @property
    def painted(self) -> set[Hex]:
        """The hexes a person painted by hand: the examples terrain is suggested from (``Board.painted``)."""
        return self.board.painted

    @painted.setter
    def painted(self, hexes: set[Hex]) -> None:
        self.board.painted = hexes

    @property
    def contours(self) -> list[Contour]:
        """The board's traced contour lines."""
        return self.board.contours

    # ------------------------------------------------------------ undo
    def _snapshot(self, names: Iterable[str]) -> dict:
        snap = {}
        for n in names:
            if n == "sheets":
                snap[n] = [(sh.id, sh.numbering, sh.transform) for sh in self.board.sheets]
            elif n == "calibrations":
                snap[n] = copy.deepcopy(self.calibrations)
            elif n in SESSION_FIELDS:
                snap[n] = copy.copy(getattr(self, n))          # sets and dicts of immutable values
            else:
                snap[n] = _copy_field(getattr(self.board, n))
        return snap

    def _restore(self, snap: dict) -> None:
        for n, v in snap.items():
            if n == "sheets":
                for (sid, numbering, transform), sh in zip(v, self.board.sheets):
                    sh.numbering, sh.transform = numbering, transform
                self.board.invalidate()
            elif n == "calibrations":
                self.calibrations = copy.deepcopy(v)
            elif n in SESSION_FIELDS:
                setattr(self, n, copy.copy(v))
            else:
                setattr(self.board, n, _copy_field(v))

    def edit(self, label: str, names: tuple[str, ...], change: Callable[[], object]):
        """Run ``change`` as one undoable step touching the named fields; returns its result.

        A change that raises leaves the board as it was and records nothing.
        """
        before = self._snapshot(names)
        try:
            result = change()
        except Exception:
            self._restore(before)
            raise
        self.undo_stack.append(Step(label, before))
        del self.undo_stack[:-self.max_undo]
        self.redo_stack.clear()
        self._changed(names)
        return result

    def _changed(self, names: Iterable[str]) -> None:
        """A step touched these fields: the map differs from its file unless they are all the session's own
        (suggestions, hexsides turned down), which no file holds."""
        if any(n not in SESSION_FIELDS for n in names):
            self.dirty = True

    def begin(self, label: str, names: tuple[str, ...]) -> None:
        """Start a step made of many small changes (a drag of the brush); ``commit`` ends it."""
        self._open = Step(label, self._snapshot(names))

    def commit(self, changed: bool = True) -> None:
        """End the step ``begin`` started; nothing is recorded when nothing changed."""
        step, self._open = getattr(self, "_open", None), None
        if step is None:
            return
        if not changed:
            return
        self.undo_stack.append(step)
        del self.undo_stack[:-self.max_undo]
        self.redo_stack.clear()
        self._changed(step.fields)

    def can_undo(self) -> bool:
        return bool(self.undo_stack)

    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo(self) -> str | None:
        """Undo the last edit; returns its label (None when there is nothing to undo)."""
        if not self.undo_stack:
            return None
        step = self.undo_stack.pop()
        self.redo_stack.append(Step(step.label, self._snapshot(step.fields)))
        self._restore(step.fields)
        self._changed(step.fields)
        return step.label

    def redo(self) -> str | None:
        """Redo the last undone edit; returns its label."""
        if not self.redo_stack:
            return None
        step = self.redo_stack.pop()
        self.undo_stack.append(Step(step.label, self._snapshot(step.fields)))
        self._restore(step.fields)
        self._changed(step.fields)
        return step.label

    # ------------------------------------------------------------ the operations as steps
    PAINT_FIELDS = ("terrain", "legend", "painted", "suggested")

    def paint(self, center: Hex, terrain: str | None, radius: int = 0) -> set[Hex]:
        """Paint the brush's hexes by hand (they become examples for suggestions)."""
        return self.paint_stroke(brush(self.board, center, radius), terrain)

    def paint_stroke(self, hexes: Iterable[Hex], terrain: str | None) -> set[Hex]:
        """A whole drag of the brush as one step."""
        hexes = [h for h in hexes if h in self.board]

        def change():
            self._coded(terrain)
            self.mark_painted(hexes, terrain is not None)
            return paint_terrain(self.board, hexes, terrain)
        return self.edit(f"paint {terrain or 'no terrain'}", self.PAINT_FIELDS, change)

    def fill(self, start: Hex, terrain: str | None) -> set[Hex]:
        """Fill a region; its hexes' suggestions are settled (but they are no examples: nobody looked at each)."""
        def change():
            self._coded(terrain)
            region_hexes = region(self.board, start, self.board.terrain.get)
            for h in region_hexes:
                self.suggested.pop(h, None)
            return paint_terrain(self.board, region_hexes, terrain)
        return self.edit(f"fill with {terrain or 'no terrain'}", ("terrain", "legend", "suggested"), change)

    def _coded(self, terrain: str | None) -> bool:
        """Give a terrain a legend code before painting with it (the file writes codes)."""
        if terrain is not None:
            terrain_code(self.board, terrain)
        return True

    def feature(self, hexes: Iterable[Hex], feature: str, on: bool = True) -> set[Hex]:
        hexes = list(hexes)
        return self.edit(f"{'add' if on else 'remove'} {feature}", ("features",),
                         lambda: set_feature(self.board, hexes, feature, on))

    def elevation(self, hexes: Iterable[Hex], value: float | None) -> set[Hex]:
        hexes = list(hexes)
        return self.edit(f"elevation {value}", ("elevation",), lambda: set_elevation(self.board, hexes, value))

    def toggle_hexside(self, side: Hexside, feature: str) -> bool:
        return self.edit(f"toggle {feature}", ("hexsides",), lambda: toggle_hexside(self.board, side, feature))

    def accept_hexsides(self, sides: Iterable[Hexside], feature: str) -> set[Hexside]:
        sides = list(sides)
        return self.edit(f"trace {feature}", ("hexsides",), lambda: add_hexsides(self.board, sides, feature))

    def accept_links(self, kind: str, links: Iterable[Hexside]) -> set[Hexside]:
        links = list(links)
        return self.edit(f"trace {kind}", ("links",), lambda: add_links(self.board, kind, links))

    def erase_links(self, kind: str, links: Iterable[Hexside]) -> set[Hexside]:
        links = list(links)
        return self.edit(f"erase {kind}", ("links",), lambda: remove_links(self.board, kind, links))

    def name_area(self, name: str, kind: str, hexes: Iterable[Hex]) -> Area:
        hexes = list(hexes)
        return self.edit(f"area {name}", ("areas",), lambda: name_area(self.board, name, kind, hexes))

    def remove_area(self, name: str) -> Area:
        return self.edit(f"delete area {name}", ("areas",), lambda: remove_area(self.board, name))

    def rename_area(self, name: str, new_name: str) -> Area:
        return self.edit(f"rename area {name}", ("areas",), lambda: rename_area(self.board, name, new_name))

    def remove_line(self, name: str) -> Line:
        return self.edit(f"delete line {name}", ("lines",), lambda: remove_line(self.board, name))

    def rename_line(self, name: str, new_name: str) -> Line:
        return self.edit(f"rename line {name}", ("lines",), lambda: rename_line(self.board, name, new_name))

    def remove_box(self, box_id: str) -> Box:
        return self.edit(f"delete box {box_id}", ("boxes",), lambda: remove_box(self.board, box_id))

    def rename_box(self, box_id: str, new_id: str, name: str | None = None) -> Box:
        return self.edit(f"rename box {box_id}", ("boxes",), lambda: rename_box(self.board, box_id, new_id, name))

    def name_line(self, name: str, kind: str, sides: Iterable[Hexside]) -> Line:
        sides = list(sides)
        return self.edit(f"line {name}", ("lines",), lambda: name_line(self.board, name, kind, sides))

    def add_box(self, box_id: str, name: str = "", kind: str = "holding") -> Box:
        return self.edit(f"box {box_id}", ("boxes",), lambda: add_box(self.board, box_id, name, kind))

    def add_obstacle(self, kind: str, height: float, points, sheet: str | None = None) -> Obstacle:
        return self.edit(f"obstacle {kind}", ("obstacles",),
                         lambda: add_obstacle(self.board, kind, height, points, sheet))

    def remove_obstacle(self, index: int) -> Obstacle:
        return self.edit("delete obstacle", ("obstacles",), lambda: remove_obstacle(self.board, index))

    def add_contour(self, contour: Contour) -> Contour:
        check_contour(self.board, contour)
        return self.edit(f"contour {contour.elevation:g}", ("contours",), lambda: add_contour(self.board, contour))

    def remove_contour(self, index: int) -> Contour:
        return self.edit("delete contour", ("contours",), lambda: remove_contour(self.board, index))

    def derive_elevations(self, base: float = 0.0) -> dict[Hex, float]:
        if not self.contours:
            raise ValueError("trace contour lines first")
        return self.edit("elevations from contours", ("elevation",),
                         lambda: derive_elevations(self.board, self.contours, base))

    def recode_terrain(self, terrain: str, code: str) -> str:
        return self.edit(f"code {terrain} as {code}", ("legend",), lambda: recode_terrain(self.board, terrain, code))

    def set_printed_ids(self, on: bool) -> None:
        """Say whether the scans print their own hex ids (the program's are then hidden by default); one step."""
        self.edit("the scans print hex ids" if on else "the scans print no hex ids", ("printed_ids",),
                  lambda: setattr(self.board, "printed_ids", bool(on)))

    def set_legend(self, code: str, terrain: str) -> None:
        if len(code) != 1 or code in NO_CODE:
            raise ValueError("a terrain code is one character other than '.' and space")
        self.edit(f"legend {code}", ("legend",), lambda: self.board.legend.__setitem__(code, terrain))

    # ------------------------------------------------------------ suggestions as steps
    def mark_painted(self, hexes: Iterable[Hex], painted: bool = True) -> None:
        """Hexes painted by hand (examples for suggestions), or erased; their suggestions are settled.

        Called inside a step that ``begin`` opened with "painted" and "suggested" among its fields.
        """
        hexes = set(hexes)
        if painted:
            self.painted |= hexes
        else:
            self.painted -= hexes
        for h in hexes:
            self.suggested.pop(h, None)

    def examples(self, count_unpainted: bool = False) -> dict[Hex, str]:
        """The hexes to learn terrain from: those painted by hand and, while some hex has no terrain yet (a map
        whose terrain is partly done, opened again), every hex that has one: that terrain is the person's own
        earlier work, and painting one hex more must not set it aside.

        The terrain a hex has without being painted (a new map's starting terrain) counts only when the person
        says so (``count_unpainted``): it is a guess, and a map filled with "clear" is mostly not clear.
        """
        b = self.board
        got = {h: b.terrain[h] for h in self.painted if h in b.terrain}
        if count_unpainted or len(b.terrain) < len(b.hexes()):
            got = {**b.terrain, **got}
        return got

    def confirmed(self) -> set[Hex]:
        """The hexes whose terrain the person gave (painted by hand): a suggestion never overrules them."""
        return {h for h in self.painted if h in self.board.terrain}

    def unexampled(self, examples: dict[Hex, str]) -> dict[str, int]:
        """Terrains that hexes have but no example shows, with how many hexes have them: a suggestion can
        only give those hexes one of the terrains the examples show."""
        shown = set(examples.values())
        counts: dict[str, int] = {}
        for h, t in self.board.terrain.items():
            if t not in shown and h not in examples:
                counts[t] = counts.get(t, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def suggest_terrain(self, suggestions: dict[Hex, tuple[str, float]]) -> int:
        """Show terrain suggestions (replacing earlier ones); one step. Returns how many."""
        new = {h: (t, float(c)) for h, (t, c) in suggestions.items() if h in self.board}
        self.edit(f"suggest terrain for {len(new)} hexes", ("suggested",), lambda: setattr(self, "suggested", new))
        return len(new)

    def accept_suggested(self, hexes: Iterable[Hex], label: str = "") -> set[Hex]:
        """Give suggested hexes their suggested terrain (one step); returns the hexes accepted."""
        hexes = [h for h in hexes if h in self.suggested]

        def change():
            for h in hexes:
                t, _c = self.suggested.pop(h)
                terrain_code(self.board, t)
                self.board.terrain[h] = t
            return set(hexes)
        return self.edit(label or f"accept {len(hexes)} suggested hexes", ("terrain", "legend", "suggested"), change)

    def dismiss_suggested(self) -> int:
        """Forget every suggestion not accepted (one step); returns how many there were."""
        n = len(self.suggested) + len(self.suggested_sides)

        def change():
            self.suggested = {}
            self.suggested_sides = {}
        self.edit("dismiss suggestions", ("suggested", "suggested_sides"), change)
        return n

    def suggest_hexsides(self, feature: str, sides: dict[Hexside, float]) -> int:
        """Show hexside suggestions for one feature (replacing earlier ones for it); one step."""
        new = {s: v for s, v in self.suggested_sides.items() if v[0] != feature}
        new.update({s: (feature, float(c)) for s, c in sides.items()})
        self.edit(f"suggest {feature} on {len(sides)} hexsides", ("suggested_sides",),
                  lambda: setattr(self, "suggested_sides", new))
        return len(sides)

    def reject_suggested_side(self, side: Hexside) -> str | None:
        """Turn down a suggested hexside (one step): it is no longer suggested, and it is kept among its feature's
        rejected hexsides to teach the next suggestions; returns the feature, or None if it was not suggested."""
        if side not in self.suggested_sides:
            return None
        feature = self.suggested_sides[side][0]

        def change():
            del self.suggested_sides[side]
            self.rejected_sides = {f: set(v) for f, v in self.rejected_sides.items()}
            self.rejected_sides.setdefault(feature, set()).add(side)
            return feature
        return self.edit(f"turn down {feature}", ("suggested_sides", "rejected_sides"), change)

    def accept_suggested_sides(self, sides: Iterable[Hexside]) -> set[Hexside]:
        """Put their suggested feature on suggested hexsides (one step); returns the hexsides accepted."""
        sides = [s for s in sides if s in self.suggested_sides]

        def change():
            for s in sides:
                f, _c = self.suggested_sides.pop(s)
                self.board.hexsides.setdefault(s, set()).add(f)
            return set(sides)
        return self.edit(f"accept {len(sides)} suggested hexsides", ("hexsides", "suggested_sides"), change)

    # ------------------------------------------------------------ calibration as steps
    def click_centre(self, sheet_id: str, hex_id: str, uv: tuple[float, float]) -> Fit | None:
        """Record a clicked hex centre on a sheet's image and refit; raises BadHexId for a bad id."""
        sh = self.board.sheet(sheet_id)
        sh.numbering.parse(hex_id)
        cal = self.calibrations.setdefault(sheet_id, Calibration(sheet_id, start=sh.transform))

        def change():
            cal.clicks.append((hex_id, (float(uv[0]), float(uv[1]))))
            return cal.fit_to(self.board)
        return self.edit(f"calibrate {hex_id}", ("sheets", "calibrations"), change)

    def remove_click(self, sheet_id: str, index: int) -> Fit | None:
        cal = self.calibrations[sheet_id]

        def change():
            cal.clicks.pop(index)
            return cal.fit_to(self.board)
        return self.edit("remove calibration point", ("sheets", "calibrations"), change)

    def use_found_grid(self, sheet_id: str, orientation: str, numbering: NumberingScheme,
                       clicks: list[tuple[str, tuple[float, float]]]) -> Fit | None:
        """Calibrate a sheet from a grid found on its scan, as one step: the sheet takes the found grid's
        orientation and size (``numbering``) and ``clicks`` become its calibration points, fitted at once.

        Hexes the sheet gains get the terrain most of the map has (a new map's starting terrain); hexes it
        loses keep nothing.  ValueError when another sheet has the other orientation.
        """
        b = self.board
        sh = b.sheet(sheet_id)
        if orientation != b.orientation and len(b.sheets) > 1:
            raise ValueError(f"the grid found on sheet {sheet_id} is {orientation}-top but the map's other sheets "
                             f"are {b.orientation}-top")
        for hid, _uv in clicks:
            numbering.parse(hid)

        def change():
            counts: dict[str, int] = {}
            for t in b.terrain.values():
                counts[t] = counts.get(t, 0) + 1
            common = max(counts, key=counts.get) if counts else None
            b.orientation = orientation
            sh.numbering = numbering
            b.invalidate()
            on_board = set(b.hexes())
            b.terrain = {h: t for h, t in b.terrain.items() if h in on_board}
            if common is not None:
                for h in sh.hexes():
                    b.terrain.setdefault(h, common)
            cal = Calibration(sheet_id, clicks=[(hid, (float(u), float(v))) for hid, (u, v) in clicks],
                              start=sh.transform)
            self.calibrations[sheet_id] = cal
            return cal.fit_to(b)
        return self.edit("find the grid", ("sheets", "orientation", "terrain", "calibrations"), change)

    def place_sheet(self, sheet_id: str, id_here: str, id_on_board: str) -> None:
        """Move a sheet on the lattice; its hexes keep their terrain where the new place has none yet."""
        b = self.board
        sh = b.sheet(sheet_id)

        def change():
            before = {sh.numbering.format(h): b.terrain[h] for h in sh.hexes() if h in b.terrain}
            place_sheet(b, sh, id_here, id_on_board)
            for h in sh.hexes():
                t = before.get(sh.numbering.format(h))
                if t is not None and h not in b.terrain:
                    b.terrain[h] = t
        self.edit(f"place sheet {sheet_id}", ("sheets", "terrain"), change)


def terrain_code(board: Board, terrain: str) -> str:
    """The legend's code letter of a terrain, adding one (its first free letter) if needed."""
    for code, name in board.legend.items():
        if name == terrain:
            return code
    for ch in terrain.lower() + terrain.upper() + "abcdefghijklmnopqrstuvwxyz0123456789":
        if ch.isalnum() and ch not in board.legend:
            board.legend[ch] = terrain
            return ch
    raise ValueError("no free terrain code left")


__all__ = ["SheetSpec", "new_board", "guess_transform", "suggest_id", "place_sheet", "Calibration", "fit_similarity",
           "brush",
           "paint_terrain", "region", "flood_fill", "set_feature", "set_elevation", "hexside_at",
           "toggle_hexside", "add_hexsides", "trace_hexsides", "trace_path", "path_links", "add_links",
           "remove_links", "name_area", "name_line", "add_box", "add_obstacle", "Contour", "contour_region",
           "check_contour", "add_contour", "remove_area", "rename_area", "remove_line", "rename_line", "remove_box",
           "rename_box", "remove_obstacle", "remove_contour", "recode_terrain", "UPHILL_SIDES",
           "derive_elevations", "Finding", "PROBLEM_KINDS", "DEFAULT_TERRAIN", "check_map", "MapEdit", "Step", "terrain_code", "DEFAULT_MAX_JUMP",
           "jump_limit", "SESSION_FIELDS"]
