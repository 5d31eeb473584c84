"""Reading a map file (docs/map-format.md) into a Board, every problem named with its key and line: the
format's keys and limits, the loader of each section, and the hexes and labels of a sheet;
``mapfile.load_map`` runs it."""
from __future__ import annotations

import difflib
import math
import os
import re
from pathlib import Path
from typing import Any

from engine.maps.board import UPHILL_SIDES, Affine, Area, Board, Box, Contour, Line, Obstacle, Sheet
from engine.errors import BadHexId, Problem
from engine.maps.hexes import ORIENTATIONS, Hex, Hexside, hex_distance, hexside
from engine.keypath import format_path
from engine.maps.numbering import ROW_DIRECTIONS, STYLES, VASSAL_KEYS, NumberingScheme, VassalLabels
from engine.errors import excerpt

FORMAT = 1
NO_VALUE = "."          # a hex without terrain / without elevation in a sheet's rows
MAX_SHEET_SIDE = 999    # columns or rows of one sheet
MAX_HEXES = 250_000     # hexes of one map

TOP_KEYS = ("map", "legend", "sheets", "terrain", "elevation", "features", "hexsides",
            "links", "areas", "lines", "boxes", "obstacles", "contours")
MAP_KEYS = ("format", "name", "orientation", "elevation_unit", "contour_interval", "printed_ids", "notes")
SHEET_KEYS = ("id", "image", "numbering", "first_col", "first_row", "cols", "rows", "shifted",
              "row_direction", "origin", "transform", "col_digits", "row_digits", "vassal")
ROWS_KEYS = ("rows",)
TERRAIN_KEYS = ("rows", "painted")
AREA_KEYS = ("name", "kind", "hexes")
LINE_KEYS = ("name", "kind", "hexsides")
BOX_KEYS = ("id", "name", "kind")
OBSTACLE_KEYS = ("kind", "height", "sheet", "points")
CONTOUR_KEYS = ("elevation", "closed", "uphill", "sheet", "points")

_TCS_SHEET_ID = re.compile(r"^[A-Za-z]+$")
_SHEET_ID = re.compile(r"^[A-Za-z0-9_-]+$")


# ---------------------------------------------------------------- loading

def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and math.isfinite(v))


class _Loader:
    """One pass over a parsed map document that builds the board and collects problems."""

    def __init__(self, path: Path, doc: dict[str, Any]):
        self.path = path
        self.file = str(path)
        self.doc = doc
        self.problems: list[Problem] = []
        self.ids: dict[str, Hex] = {}
        self.sheet_grids: dict[str, list[list[Hex]]] = {}
        self.overlap: set[Hex] = set()

    # ------------------------------------------------------------ helpers
    def problem(self, path: tuple, message: str) -> None:
        self.problems.append(Problem(self.file, format_path(path), message))

    def keys(self, table: dict, path: tuple, allowed: tuple, required: tuple = ()) -> bool:
        """Unknown keys are problems; missing required keys are problems; False if any."""
        ok = True
        for k in table:
            if k not in allowed:
                ok = False
                close = difflib.get_close_matches(str(k), allowed, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.problem(path + (k,), f"unknown key ({hint}expected one of {', '.join(allowed)})")
        for k in required:
            if k not in table:
                ok = False
                self.problem(path, f"missing key {k!r}")
        return ok

    def table(self, value: Any, path: tuple) -> dict | None:
        if isinstance(value, dict):
            return value
        self.problem(path, f"expected a table, found {_kind_of(value)}")
        return None

    def array(self, value: Any, path: tuple) -> list | None:
        if isinstance(value, list):
            return value
        self.problem(path, f"expected an array, found {_kind_of(value)}")
        return None

    def string(self, value: Any, path: tuple, choices: tuple = ()) -> str | None:
        if not isinstance(value, str):
            self.problem(path, f"expected a string, found {_kind_of(value)}")
            return None
        if choices and value not in choices:
            self.problem(path, f"{value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def integer(self, value: Any, path: tuple, lo: int, hi: int) -> int | None:
        if not _is_int(value):
            self.problem(path, f"expected an integer, found {_kind_of(value)}")
            return None
        if not lo <= value <= hi:
            self.problem(path, f"{value} is out of range (expected {lo} to {hi})")
            return None
        return value

    def number(self, value: Any, path: tuple) -> float | None:
        if not _is_number(value):
            what = "not a finite number" if isinstance(value, float) else f"found {_kind_of(value)}"
            self.problem(path, f"expected a number, {what}")
            return None
        return float(value)

    # ------------------------------------------------------------ the whole file
    def load(self) -> tuple[Board, list[Problem]]:
        doc = self.doc
        board = Board(source=str(self.path))
        self.keys(doc, (), TOP_KEYS, required=("map", "sheets"))
        if "map" in doc:
            self.load_map_table(doc["map"], board)
        if "legend" in doc:
            self.load_legend(doc["legend"], board)
        sheets_ok = False
        if "sheets" in doc:
            sheets_ok = self.load_sheets(doc["sheets"], board)
        if sheets_ok:
            board.invalidate()
            self.load_rows("terrain", board, self.terrain_row)
            self.load_rows("elevation", board, self.elevation_row)
            self.load_features(board)
            self.load_hexsides(board)
            self.load_links(board)
            self.load_areas(board)
            self.load_lines(board)
            self.load_obstacles(board)
            self.load_contours(board)
        else:
            for k in ("terrain", "elevation", "features", "hexsides", "links", "areas", "lines", "obstacles",
                      "contours"):
                if k in doc and not isinstance(doc[k], (dict, list)):
                    self.problem((k,), f"expected a table or an array, found {_kind_of(doc[k])}")
        self.load_boxes(board)
        return board, self.problems

    def load_map_table(self, value: Any, board: Board) -> None:
        t = self.table(value, ("map",))
        if t is None:
            return
        self.keys(t, ("map",), MAP_KEYS, required=("format",))
        if "format" in t:
            fmt = t["format"]
            if not _is_int(fmt):
                self.problem(("map", "format"), f"expected an integer, found {_kind_of(fmt)}")
            elif fmt != FORMAT:
                self.problem(("map", "format"), f"format {fmt} is not supported (this program reads format {FORMAT})")
        if "name" in t:
            name = self.string(t["name"], ("map", "name"))
            if name is not None:
                board.name = name
        if "orientation" in t:
            o = self.string(t["orientation"], ("map", "orientation"), ORIENTATIONS)
            if o is not None:
                board.orientation = o
        if "elevation_unit" in t:
            u = self.string(t["elevation_unit"], ("map", "elevation_unit"))
            if u is not None:
                board.elevation_unit = u
        if "contour_interval" in t:
            ci = self.number(t["contour_interval"], ("map", "contour_interval"))
            if ci is not None and ci <= 0:
                self.problem(("map", "contour_interval"), f"expected a number above 0, found {ci:g}")
            elif ci is not None:
                board.contour_interval = ci
        if "printed_ids" in t:
            if isinstance(t["printed_ids"], bool):
                board.printed_ids = t["printed_ids"]
            else:
                self.problem(("map", "printed_ids"), f"expected true or false, found {_kind_of(t['printed_ids'])}")
        if "notes" in t:
            notes = self.string(t["notes"], ("map", "notes"))
            if notes is not None:
                board.notes = notes

    def load_legend(self, value: Any, board: Board) -> None:
        t = self.table(value, ("legend",))
        if t is None:
            return
        for code, name in t.items():
            path = ("legend", code)
            if len(code) != 1 or code == NO_VALUE or code.isspace():
                self.problem(path, f"a terrain code is one character other than '{NO_VALUE}' and space")
                continue
            name = self.string(name, path)
            if name is not None:
                board.legend[code] = name

    # ------------------------------------------------------------ sheets
    def load_sheets(self, value: Any, board: Board) -> bool:
        arr = self.array(value, ("sheets",))
        if arr is None:
            return False
        if not arr:
            self.problem(("sheets",), "a map needs at least one sheet")
            return False
        before = len(self.problems)
        seen: set[str] = set()
        for i, item in enumerate(arr):
            sheet = self.load_sheet(item, ("sheets", i), board.orientation)
            if sheet is None:
                continue
            if sheet.id in seen:
                self.problem(("sheets", i, "id"), f"sheet id {sheet.id!r} is used twice")
                continue
            seen.add(sheet.id)
            board.sheets.append(sheet)
        if len(self.problems) > before:
            return False
        return self.index_sheets(board)

    def load_sheet(self, value: Any, path: tuple, orientation: str) -> Sheet | None:
        t = self.table(value, path)
        if t is None:
            return None
        before = len(self.problems)
        self.keys(t, path, SHEET_KEYS, required=("id", "cols", "rows"))
        style = "tcs"
        if "numbering" in t:
            style = self.string(t["numbering"], path + ("numbering",), STYLES) or style
        sid = self.string(t["id"], path + ("id",)) if "id" in t else None
        if sid is not None:
            pattern = _TCS_SHEET_ID if style == "tcs" else _SHEET_ID
            if not pattern.match(sid):
                what = "letters" if style == "tcs" else "letters, digits, '-' and '_'"
                self.problem(path + ("id",), f"a sheet id is made of {what}, not {sid!r}")
        nums = {}
        first_lo = -MAX_SHEET_SIDE if style == "vassal" else 0     # VASSAL's raw indices may be negative
        for k, default, lo in (("first_col", 1, first_lo), ("first_row", 1, first_lo), ("cols", None, 1),
                               ("rows", None, 1)):
            if k in t:
                nums[k] = self.integer(t[k], path + (k,), lo, MAX_SHEET_SIDE)
            else:
                nums[k] = default
        digits = {}
        for k in ("col_digits", "row_digits"):
            if k in t:
                if style == "tcs":
                    self.problem(path + (k,), "only classic numbering has a digit count (TCS ids are like A05.06)")
                else:
                    digits[k] = self.integer(t[k], path + (k,), 1, 3)
        shifted = "even"
        if "shifted" in t:
            shifted = self.string(t["shifted"], path + ("shifted",), ("even", "odd")) or shifted
        row_direction = "down"
        if "row_direction" in t:
            row_direction = self.string(t["row_direction"], path + ("row_direction",), ROW_DIRECTIONS) or row_direction
        origin = (0, 0)
        if "origin" in t:
            o = t["origin"]
            if (isinstance(o, list) and len(o) == 2 and all(_is_int(x) and abs(x) <= 100_000 for x in o)):
                origin = (o[0], o[1])
            else:
                self.problem(path + ("origin",), "expected two integers [q, r] (the axial position of the sheet's first hex)")
        transform = Affine()
        if "transform" in t:
            tr = t["transform"]
            if isinstance(tr, list) and len(tr) == 6 and all(_is_number(x) for x in tr):
                transform = Affine(*(float(x) for x in tr))
                try:
                    transform.inverse()
                except ValueError:
                    self.problem(path + ("transform",), "the transform is singular (it squashes the lattice into a line)")
            else:
                self.problem(path + ("transform",), "expected six numbers [a, b, c, d, e, f] (u = a*x + b*y + c, v = d*x + e*y + f)")
        vassal = None
        if style == "vassal":
            vassal = self.vassal_labels(t.get("vassal"), path + ("vassal",))
        elif "vassal" in t:
            self.problem(path + ("vassal",), "only numbering = \"vassal\" has VASSAL options")
        image = None
        if "image" in t:
            image = self.string(t["image"], path + ("image",))
            if image is not None:
                self.check_image(image, path + ("image",))
        if len(self.problems) > before:
            return None
        if style == "classic":
            for k, n, first in (("col_digits", nums["cols"], nums["first_col"]), ("row_digits", nums["rows"], nums["first_row"])):
                d = digits.get(k, 2)
                if first + n - 1 >= 10 ** d:
                    self.problem(path + (k,), f"{d} digits cannot number up to {first + n - 1}")
                    return None
        try:
            scheme = NumberingScheme(style=style, sheet=sid, orientation=orientation,
                                     first_col=nums["first_col"], first_row=nums["first_row"],
                                     cols=nums["cols"], rows=nums["rows"], shifted=shifted,
                                     origin=origin, col_digits=digits.get("col_digits", 2),
                                     row_digits=digits.get("row_digits", 2), row_direction=row_direction,
                                     vassal=vassal)
        except ValueError as e:
            self.problem(path, str(e))
            return None
        return Sheet(sid, scheme, image, transform)

    def vassal_labels(self, value: Any, path: tuple) -> VassalLabels | None:
        """The ``vassal = {...}`` options of a sheet numbered as a VASSAL module numbers its grid."""
        if value is None:
            self.problem(path, "missing: VASSAL numbering needs its options (vassal = { sideways = false, ... })")
            return None
        t = self.table(value, path)
        if t is None or not self.keys(t, path, VASSAL_KEYS):
            return None
        kinds = {"sideways": bool, "h_descend": bool, "v_descend": bool, "stagger": bool, "first": str, "sep": str,
                 "h_type": str, "v_type": str, "location_format": str}
        got = {}
        for k in VASSAL_KEYS:
            if k not in t:
                continue
            want = kinds.get(k, int)
            v = t[k]
            if want is int and not _is_int(v) or want is not int and not isinstance(v, want):
                self.problem(path + (k,), f"expected {'true or false' if want is bool else 'a string' if want is str else 'an integer'}, found {_kind_of(v)}")
                continue
            got[k] = v
        try:
            return VassalLabels(**got)
        except ValueError as e:
            self.problem(path, str(e))
            return None

    def check_image(self, image: str, path: tuple) -> None:
        folder = self.path.parent
        try:
            found = (folder / image).is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            where = str(folder) if str(folder) != "." else "the current folder"
            self.problem(path, f"file {image!r} not found (looked in {where}{os.sep if where != 'the current folder' else ''})")

    def index_sheets(self, board: Board) -> bool:
        """Every printed id of every sheet, and the hexes two sheets share."""
        total = sum(sh.numbering.cols * sh.numbering.rows for sh in board.sheets)
        if total > MAX_HEXES:
            self.problem(("sheets",), f"the sheets have {total} hexes in all (at most {MAX_HEXES})")
            return False
        ids = self.ids
        seen: set[Hex] = set()
        ok = True
        for i, sh in enumerate(board.sheets):
            grid = sheet_grid(sh.numbering)
            self.sheet_grids[sh.id] = grid
            hexes = [h for row in grid for h in row]
            labels = [x for row in sheet_labels(sh.numbering) for x in row]
            mine = set(hexes)
            self.overlap |= seen & mine
            seen |= mine
            new = dict(zip(labels, hexes))
            clash = next((k for k in sorted(ids.keys() & new.keys()) if ids[k] != new[k]), None)
            ids.update(new)
            if clash is not None:
                ok = False
                self.problem(("sheets", i, "id"),
                             f"hex id {clash!r} names two different hexes on two sheets "
                             f"(give the sheets different column or row ranges, or TCS numbering)")
        return ok

    # ------------------------------------------------------------ hex ids
    def resolve(self, text: Any, path: tuple, board: Board) -> Hex | None:
        if not isinstance(text, str):
            self.problem(path, f"expected a hex id (a string), found {_kind_of(text)}")
            return None
        h = self.ids.get(text)
        if h is not None:
            return h
        return self.resolve_slow(text, path, board)

    def resolve_slow(self, text: str, path: tuple, board: Board) -> Hex | None:
        t = text.strip()
        for sh in board.sheets:
            if sh.numbering.matches(t):
                try:
                    return sh.numbering.parse(t)
                except BadHexId:
                    continue
        matching = [sh for sh in board.sheets if sh.numbering.matches(t)]
        if matching:
            ranges = "; ".join(f"sheet {sh.id} has columns {sh.numbering.format_range()}" for sh in matching)
            self.problem(path, f"{excerpt(text)} is off the map ({ranges})")
        else:
            forms = ", ".join(sh.numbering.format_colrow(sh.numbering.first_col, sh.numbering.first_row)
                              for sh in board.sheets)
            self.problem(path, f"{excerpt(text)} is not a hex id of this map (ids look like {forms})")
        return None

    def resolve_side(self, text: Any, path: tuple, board: Board) -> Hexside | None:
        if not isinstance(text, str):
            self.problem(path, f"expected a hexside like \"A05.06/A05.07\", found {_kind_of(text)}")
            return None
        parts = text.split("/")
        if len(parts) != 2:
            self.problem(path, f"{excerpt(text)} is not a hexside (expected two hex ids joined by '/', like \"A05.06/A05.07\")")
            return None
        a = self.resolve(parts[0].strip(), path, board)
        b = self.resolve(parts[1].strip(), path, board)
        if a is None or b is None:
            return None
        if hex_distance(a, b) != 1:
            self.problem(path, f"{excerpt(text)}: the two hexes are not adjacent, so they share no hexside")
            return None
        return hexside(a, b)

    # ------------------------------------------------------------ rows
    def load_rows(self, section: str, board: Board, parse_row) -> None:
        if section not in self.doc:
            return
        t = self.table(self.doc[section], (section,))
        if t is None:
            return
        sheet_ids = [sh.id for sh in board.sheets]
        merged: dict[Hex, tuple[Any, str, int, int]] = {}
        for sid, block in t.items():
            path = (section, sid)
            if sid not in self.sheet_grids:
                self.problem(path, f"no sheet has id {sid!r} (sheets: {', '.join(sheet_ids)})")
                continue
            b = self.table(block, path)
            if b is None:
                continue
            if not self.keys(b, path, TERRAIN_KEYS if section == "terrain" else ROWS_KEYS, required=("rows",)):
                continue
            rows = self.array(b["rows"], path + ("rows",))
            if rows is None:
                continue
            grid = self.sheet_grids[sid]
            ns = board.sheet(sid).numbering
            if len(rows) != len(grid):
                self.problem(path + ("rows",), f"{len(rows)} rows, but sheet {sid} has {len(grid)} "
                                               f"(rows {ns.first_row}-{ns.first_row + ns.rows - 1})")
                continue
            overlap = self.overlap
            for ri, (row, hexes) in enumerate(zip(rows, grid)):
                rpath = path + ("rows", ri)
                values = parse_row(row, rpath, hexes, board, ns)
                if values is None:
                    continue
                for ci, (h, v) in enumerate(zip(hexes, values)):
                    if h in overlap:
                        prev = merged.get(h)
                        if prev is None:
                            merged[h] = (v, sid, ri, ci)
                        elif prev[0] != v:
                            other = board.sheet(prev[1]).numbering.format(h)
                            self.problem(rpath, f"column {ci + 1} ({ns.format(h)}) says {_show(v)}, "
                                                f"but sheet {prev[1]} says {_show(prev[0])} for the same hex ({other})")
            if section == "terrain" and "painted" in b:
                self.load_painted(b["painted"], path + ("painted",), board, sid)
        return

    def load_painted(self, value: Any, path: tuple, board: Board, sid: str) -> None:
        """The hexes of a sheet whose terrain a person painted by hand (the map editor's examples), by id."""
        ids = self.array(value, path)
        if ids is None:
            return
        ns = board.sheet(sid).numbering
        on_sheet = {h for row in self.sheet_grids[sid] for h in row}
        for i, text in enumerate(ids):
            if not isinstance(text, str):
                self.problem(path + (i,), f"expected a hex id (a string), found {_kind_of(text)}")
                continue
            try:
                h = ns.parse(text.strip())
            except BadHexId:
                h = None
            if h not in on_sheet:
                self.problem(path + (i,), f"{excerpt(text)} is not a hex of sheet {sid} (ids like "
                                          f"{ns.format_colrow(ns.first_col, ns.first_row)}, columns "
                                          f"{ns.format_range()})")
                continue
            if h not in board.terrain:
                self.problem(path + (i,), f"{excerpt(text)} is listed as painted but has no terrain in the rows")
                continue
            board.painted.add(h)

    def terrain_row(self, row: Any, path: tuple, hexes: list[Hex], board: Board, ns) -> list | None:
        if not isinstance(row, str):
            self.problem(path, f"expected a string of terrain codes, found {_kind_of(row)}")
            return None
        if len(row) != len(hexes):
            what = "short" if len(row) < len(hexes) else "long"
            self.problem(path, f"row too {what}: {len(row)} codes, but the sheet has {len(hexes)} columns")
            return None
        legend = board.legend
        terrain = board.terrain
        out = []
        for ci, (code, h) in enumerate(zip(row, hexes)):
            if code == NO_VALUE:
                out.append(None)
                continue
            name = legend.get(code)
            if name is None:
                have = ", ".join(legend) or "nothing"
                self.problem(path, f"unknown terrain code {code!r} at column {ci + 1} "
                                   f"({ns.format(h)}; legend has {have})")
                return None
            terrain[h] = name
            out.append(name)
        return out

    def elevation_row(self, row: Any, path: tuple, hexes: list[Hex], board: Board, ns) -> list | None:
        if not isinstance(row, str):
            self.problem(path, f"expected a string of numbers separated by spaces, found {_kind_of(row)}")
            return None
        tokens = row.split()
        if len(tokens) != len(hexes):
            what = "short" if len(tokens) < len(hexes) else "long"
            self.problem(path, f"row too {what}: {len(tokens)} values, but the sheet has {len(hexes)} columns")
            return None
        elevation = board.elevation
        out = []
        for ci, (tok, h) in enumerate(zip(tokens, hexes)):
            if tok == NO_VALUE:
                out.append(None)
                continue
            try:
                v = float(tok)
            except ValueError:
                v = math.nan
            if not math.isfinite(v) or "_" in tok:
                self.problem(path, f"{tok!r} at column {ci + 1} ({ns.format(h)}) is not a number "
                                   f"(write '{NO_VALUE}' for a hex without elevation)")
                return None
            elevation[h] = v
            out.append(v)
        return out

    # ------------------------------------------------------------ features, hexsides, links
    def named_lists(self, section: str):
        if section not in self.doc:
            return
        t = self.table(self.doc[section], (section,))
        if t is None:
            return
        for name, items in t.items():
            arr = self.array(items, (section, name))
            if arr is not None:
                yield name, arr

    def load_features(self, board: Board) -> None:
        for name, arr in self.named_lists("features"):
            for i, text in enumerate(arr):
                h = self.resolve(text, ("features", name, i), board)
                if h is not None:
                    board.features.setdefault(h, set()).add(name)

    def load_hexsides(self, board: Board) -> None:
        for name, arr in self.named_lists("hexsides"):
            for i, text in enumerate(arr):
                side = self.resolve_side(text, ("hexsides", name, i), board)
                if side is not None:
                    board.hexsides.setdefault(side, set()).add(name)

    def load_links(self, board: Board) -> None:
        for kind, arr in self.named_lists("links"):
            links = board.links.setdefault(kind, set())
            for i, text in enumerate(arr):
                path = ("links", kind, i)
                if not isinstance(text, str):
                    self.problem(path, f"expected a path of hex ids like \"A01.01 A02.01 A02.02\", found {_kind_of(text)}")
                    continue
                ids = text.split()
                if len(ids) < 2:
                    self.problem(path, f"{excerpt(text)}: a path needs at least two hex ids separated by spaces")
                    continue
                hexes = [self.resolve(t, path, board) for t in ids]
                if any(h is None for h in hexes):
                    continue
                for k, (a, b) in enumerate(zip(hexes, hexes[1:])):
                    if hex_distance(a, b) != 1:
                        self.problem(path, f"{ids[k]!r} and {ids[k + 1]!r} (hexes {k + 1} and {k + 2} of the path) are not adjacent")
                        break
                    links.add(hexside(a, b))
            if not links:
                del board.links[kind]

    # ------------------------------------------------------------ areas, lines, boxes, obstacles
    def tables(self, section: str):
        if section not in self.doc:
            return
        arr = self.array(self.doc[section], (section,))
        if arr is None:
            return
        for i, item in enumerate(arr):
            t = self.table(item, (section, i))
            if t is not None:
                yield i, t

    def named_sets(self, board: Board, section: str, allowed: tuple, members: str, resolve, what: str,
                   defined: dict):
        """Each well-formed entry of [[areas]] or [[lines]] not already in ``defined``, as (name, kind, members)."""
        for i, t in self.tables(section):
            path = (section, i)
            self.keys(t, path, allowed, required=("name", members))
            name = self.string(t["name"], path + ("name",)) if "name" in t else None
            kind = self.string(t.get("kind", what), path + ("kind",))
            found = set()
            arr = self.array(t[members], path + (members,)) if members in t else None
            for k, text in enumerate(arr or ()):
                m = resolve(text, path + (members, k), board)
                if m is not None:
                    found.add(m)
            if name is None or kind is None:
                continue
            if name in defined:
                self.problem(path + ("name",), f"{what} {name!r} is defined twice")
                continue
            yield name, kind, found

    def load_areas(self, board: Board) -> None:
        for name, kind, hexes in self.named_sets(board, "areas", AREA_KEYS, "hexes", self.resolve, "area",
                                                 board.areas):
            board.areas[name] = Area(name, kind, hexes)

    def load_lines(self, board: Board) -> None:
        for name, kind, sides in self.named_sets(board, "lines", LINE_KEYS, "hexsides", self.resolve_side, "line",
                                                 board.lines):
            board.lines[name] = Line(name, kind, sides)

    def load_boxes(self, board: Board) -> None:
        for i, t in self.tables("boxes"):
            path = ("boxes", i)
            self.keys(t, path, BOX_KEYS, required=("id",))
            bid = self.string(t["id"], path + ("id",)) if "id" in t else None
            name = self.string(t.get("name", bid or ""), path + ("name",))
            kind = self.string(t.get("kind", "holding"), path + ("kind",))
            if bid is None or name is None or kind is None:
                continue
            if bid in board.boxes:
                self.problem(path + ("id",), f"box {bid!r} is defined twice")
                continue
            board.boxes[bid] = Box(bid, name, kind)

    def traced_sheet(self, t: dict, path: tuple, board: Board) -> tuple[str | None, Sheet] | None:
        """The sheet id (None: the first sheet) and sheet a traced outline is on; None when its sheet is not usable."""
        if "sheet" not in t:
            return None, board.sheets[0]
        sheets = {sh.id: sh for sh in board.sheets}
        sheet_id = self.string(t["sheet"], path + ("sheet",))
        if sheet_id is not None and sheet_id not in sheets:
            self.problem(path + ("sheet",), f"no sheet has id {sheet_id!r} (sheets: {', '.join(sheets)})")
            return None
        if sheet_id is None:
            return None
        return sheet_id, sheets[sheet_id]

    def traced_points(self, t: dict, path: tuple, sheet: Sheet, need: int, expected: str) -> list | None:
        """A traced outline's points, given in pixels of the sheet's image, in lattice coordinates; None if unusable."""
        pts = t.get("points")
        if pts is None:
            return None
        if not (isinstance(pts, list) and len(pts) >= need
                and all(isinstance(p, list) and len(p) == 2 and all(_is_number(x) for x in p) for p in pts)):
            self.problem(path + ("points",), f"{expected} [u, v] points (pixels of the sheet's image)")
            return None
        inv = sheet.transform.inverse()
        return [inv.apply(float(u), float(v)) for u, v in pts]

    def load_obstacles(self, board: Board) -> None:
        for i, t in self.tables("obstacles"):
            path = ("obstacles", i)
            self.keys(t, path, OBSTACLE_KEYS, required=("kind", "height", "points"))
            kind = self.string(t["kind"], path + ("kind",)) if "kind" in t else None
            height = self.number(t["height"], path + ("height",)) if "height" in t else None
            on = self.traced_sheet(t, path, board)
            if on is None:
                continue
            sheet_id, sheet = on
            lattice = self.traced_points(t, path, sheet, 3, "expected three or more")
            if lattice is None or kind is None or height is None:
                continue
            board.obstacles.append(Obstacle(kind, height, lattice, sheet_id))

    def load_contours(self, board: Board) -> None:
        for i, t in self.tables("contours"):
            path = ("contours", i)
            self.keys(t, path, CONTOUR_KEYS, required=("elevation", "points"))
            elevation = self.number(t["elevation"], path + ("elevation",)) if "elevation" in t else None
            closed = t.get("closed", False)
            if not isinstance(closed, bool):
                self.problem(path + ("closed",), f"expected true or false, found {_kind_of(closed)}")
                closed = None
            uphill = self.string(t.get("uphill", "right"), path + ("uphill",), UPHILL_SIDES)
            on = self.traced_sheet(t, path, board)
            if on is None or closed is None:
                continue
            sheet_id, sheet = on
            if closed:
                lattice = self.traced_points(t, path, sheet, 3, "a closed ring needs three or more")
            else:
                lattice = self.traced_points(t, path, sheet, 2, "expected two or more")
            if lattice is None or elevation is None or uphill is None:
                continue
            board.contours.append(Contour(elevation, lattice, closed, uphill, sheet_id))


def sheet_grid(ns: NumberingScheme) -> list[list[Hex]]:
    """A sheet's hexes as printed rows, top to bottom, each row left to right."""
    cols = range(ns.first_col, ns.first_col + ns.cols)
    rows = ns.printed_rows()
    if ns.orientation == "flat":        # down a column, r grows by one per row
        top = [ns.colrow_to_hex(c, ns.top_row) for c in cols]
        return [[Hex(h.q, h.r + k) for h in top] for k in range(ns.rows)]
    left = [ns.colrow_to_hex(ns.first_col, r) for r in rows]   # along a row, q grows by one
    return [[Hex(h.q + k, h.r) for k in range(ns.cols)] for h in left]


def sheet_labels(ns: NumberingScheme) -> list[list[str]]:
    """A sheet's printed ids in the same order as :func:`sheet_grid`."""
    c0, r0 = ns.first_col, ns.first_row
    if ns.style == "vassal":
        return [[ns.format_colrow(c, r) for c in range(c0, c0 + ns.cols)] for r in ns.printed_rows()]
    if ns.style == "tcs":
        heads = [f"{ns.sheet}{c:02d}." for c in range(c0, c0 + ns.cols)]
        tails = [f"{r:02d}" for r in ns.printed_rows()]
    else:
        heads = [f"{c:0{ns.col_digits}d}" for c in range(c0, c0 + ns.cols)]
        tails = [f"{r:0{ns.row_digits}d}" for r in ns.printed_rows()]
    return [[head + tail for head in heads] for tail in tails]


def _show(v: Any) -> str:
    return "nothing" if v is None else repr(v)
