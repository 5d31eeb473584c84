"""Writing a map file (docs/map-format.md): the whole text of a board, keys and lists in a fixed order so
that the same board always gives the same text, roads and rivers as paths of hexes;
``mapfile.save_map`` writes it atomically."""
from __future__ import annotations

import math
import re
from typing import Any

from engine.maps.board import Board
from engine.maps.hexes import Hex, Hexside, hexside
from engine.maps.mapload import FORMAT, NO_VALUE

OBSTACLE_DECIMALS = 3   # obstacle and contour points are written to a thousandth of a pixel
PATH_PIECE = 12         # a long road is written as pieces of 12 hexes, each starting where the last ended
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# ---------------------------------------------------------------- saving

def dumps_map(board: Board) -> str:
    """The text of a map file for a board (deterministic: same board, same text)."""
    if not board.sheets:
        raise ValueError("a map needs at least one sheet")
    w = _Writer()
    w.table("map")
    w.kv("format", FORMAT)
    w.kv("name", board.name)
    w.kv("orientation", board.orientation)
    w.kv("elevation_unit", board.elevation_unit)
    if board.contour_interval is not None:
        w.kv("contour_interval", board.contour_interval)
    if board.printed_ids:
        w.kv("printed_ids", True)
    if board.notes:
        w.text_block("notes", board.notes)

    legend = _legend_for(board)
    w.table("legend")
    for code in sorted(legend):
        w.kv(code, legend[code])

    for sh in board.sheets:
        ns = sh.numbering
        w.array_table("sheets")
        w.kv("id", sh.id)
        if sh.image is not None:
            w.kv("image", sh.image)
        w.kv("numbering", ns.style)
        w.kv("first_col", ns.first_col)
        w.kv("first_row", ns.first_row)
        w.kv("cols", ns.cols)
        w.kv("rows", ns.rows)
        w.kv("shifted", ns.shifted)
        if ns.row_direction != "down":
            w.kv("row_direction", ns.row_direction)
        if ns.style == "classic":
            w.kv("col_digits", ns.col_digits)
            w.kv("row_digits", ns.row_digits)
        if ns.vassal is not None:
            w.kv("vassal", ns.vassal.as_dict())
        w.kv("origin", list(ns.origin))
        w.kv("transform", sh.transform.as_list())

    code_of = {}
    for code in sorted(legend, reverse=True):
        code_of[legend[code]] = code
    painted_done: set[Hex] = set()
    for sh in board.sheets:
        hexes = sh.hexes()
        if not any(h in board.terrain for h in hexes):
            continue
        w.table("terrain", sh.id)
        cols = sh.numbering.cols
        rows = []
        for r in range(0, len(hexes), cols):
            rows.append("".join(code_of[board.terrain[h]] if h in board.terrain else NO_VALUE
                                for h in hexes[r:r + cols]))
        w.rows("rows", rows)
        # the hexes painted by hand, under the first sheet that has them (a hex two sheets share, once)
        mine = [h for h in hexes if h in board.painted and h in board.terrain and h not in painted_done]
        if mine:
            painted_done.update(mine)
            w.rows("painted", sorted(sh.numbering.format(h) for h in mine))
    for sh in board.sheets:
        hexes = sh.hexes()
        if not any(h in board.elevation for h in hexes):
            continue
        w.table("elevation", sh.id)
        cols = sh.numbering.cols
        cells = [_num(board.elevation[h]) if h in board.elevation else NO_VALUE for h in hexes]
        width = max(len(c) for c in cells)
        cells = [c.rjust(width) for c in cells]
        w.rows("rows", [" ".join(cells[r:r + cols]) for r in range(0, len(cells), cols)])

    hid = board.hex_id
    by_feature: dict[str, list[str]] = {}
    for h, names in board.features.items():
        for name in names:
            by_feature.setdefault(name, []).append(hid(h))
    if by_feature:
        w.table("features")
        for name in sorted(by_feature):
            w.rows(name, sorted(by_feature[name]))

    def side_id(s: Hexside) -> str:
        return f"{hid(s.a)}/{hid(s.b)}"

    by_side: dict[str, list[str]] = {}
    for s, names in board.hexsides.items():
        for name in names:
            by_side.setdefault(name, []).append(side_id(s))
    if by_side:
        w.table("hexsides")
        for name in sorted(by_side):
            w.rows(name, sorted(by_side[name]))

    kinds = [k for k in sorted(board.links) if board.links[k]]
    if kinds:
        w.table("links")
        for kind in kinds:
            pieces = []
            for p in link_paths(board.links[kind]):
                for i in range(0, len(p) - 1, PATH_PIECE - 1):
                    pieces.append(" ".join(hid(h) for h in p[i:i + PATH_PIECE]))
            w.rows(kind, pieces)

    _write_named(w, "areas", board.areas, "hexes", lambda a: (hid(h) for h in a.hexes), 10)
    _write_named(w, "lines", board.lines, "hexsides", lambda ln: (side_id(s) for s in ln.hexsides), 5)
    for bid in sorted(board.boxes):
        b = board.boxes[bid]
        w.array_table("boxes")
        w.kv("id", b.id)
        w.kv("name", b.name)
        w.kv("kind", b.kind)
    for ob in board.obstacles:
        w.array_table("obstacles")
        w.kv("kind", ob.kind)
        w.kv("height", ob.height)
        _write_traced(w, board, ob.sheet, ob.points)
    for co in board.contours:
        w.array_table("contours")
        w.kv("elevation", float(co.elevation))
        w.kv("closed", bool(co.closed))
        w.kv("uphill", co.uphill)
        _write_traced(w, board, co.sheet, co.points)
    return w.text()


def _write_named(w: "_Writer", section: str, named: dict, members: str, member_ids, per_line: int) -> None:
    """Write [[areas]] or [[lines]]: each entry's name, kind and sorted member ids, in order of name."""
    for name in sorted(named):
        item = named[name]
        w.array_table(section)
        w.kv("name", item.name)
        w.kv("kind", item.kind)
        w.rows(members, sorted(member_ids(item)), per_line=per_line)


def _write_traced(w: "_Writer", board: Board, sheet_id: str | None, points: list) -> None:
    """Write a traced outline's sheet (unless the first) and its points in pixels of that sheet's image."""
    sheet = board.sheet(sheet_id) if sheet_id is not None else board.sheets[0]
    if sheet_id is not None:
        w.kv("sheet", sheet_id)
    pts = [[_round_px(c) for c in sheet.transform.apply(x, y)] for x, y in points]
    w.kv("points", pts)


def _legend_for(board: Board) -> dict[str, str]:
    """The board's legend, plus a code for any terrain name the legend lacks."""
    legend = dict(board.legend)
    have = set(legend.values())
    for name in sorted(set(board.terrain.values()) - have):
        pool = [c for c in name.lower() + name.upper() if c.isalnum()]
        pool += list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        code = next((c for c in pool if c not in legend), None)
        if code is None:
            raise ValueError(f"no free one-letter code for terrain {name!r}")
        legend[code] = name
        have.add(name)
    return legend


def link_paths(links: set[Hexside]) -> list[list[Hex]]:
    """Hex-to-hex links as few, long paths (each link in exactly one path), deterministic."""
    adj: dict[Hex, list[Hex]] = {}
    for s in links:
        adj.setdefault(s.a, []).append(s.b)
        adj.setdefault(s.b, []).append(s.a)
    for v in adj.values():
        v.sort()
    unused = set(links)
    left = {h: len(v) for h, v in adj.items()}
    paths = []
    while unused:
        odd = [h for h, n in left.items() if n % 2 == 1]
        start = min(odd) if odd else min(h for h, n in left.items() if n > 0)
        path = [start]
        cur = start
        while True:
            nxt = next((n for n in adj[cur] if hexside(cur, n) in unused), None)
            if nxt is None:
                break
            unused.discard(hexside(cur, nxt))
            left[cur] -= 1
            left[nxt] -= 1
            path.append(nxt)
            cur = nxt
        paths.append(path)
    paths.sort()
    return paths


def _num(v: float) -> str:
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


def _round_px(c: float) -> float:
    r = round(c, OBSTACLE_DECIMALS)
    return 0.0 if r == 0 else r


def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\u{o:04x}"))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _toml_str(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v} cannot be written to a map file")
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to a map file")


class _Writer:
    """A small TOML emitter: short arrays inline, rows and id lists one block per line."""

    def __init__(self):
        self.parts: list[str] = []

    def _header(self, text: str) -> None:
        if self.parts:
            self.parts.append("")
        self.parts.append(text)

    def table(self, *names: str) -> None:
        self._header("[" + ".".join(_toml_key(n) for n in names) + "]")

    def array_table(self, name: str) -> None:
        self._header("[[" + _toml_key(name) + "]]")

    def kv(self, key: str, value: Any) -> None:
        self.parts.append(f"{_toml_key(key)} = {_toml_value(value)}")

    def text_block(self, key: str, text: str) -> None:
        """A string as a TOML multi-line string, one line of the file per line of text."""
        if "\n" not in text:
            self.kv(key, text)
            return
        body = "\n".join(_toml_str(line)[1:-1] for line in text.split("\n"))
        self.parts.append(f'{_toml_key(key)} = """')
        self.parts.append(body + '"""')

    def rows(self, key: str, items: list[str], per_line: int = 1) -> None:
        if not items:
            self.parts.append(f"{_toml_key(key)} = []")
            return
        self.parts.append(f"{_toml_key(key)} = [")
        for i in range(0, len(items), per_line):
            self.parts.append("  " + " ".join(_toml_str(s) + "," for s in items[i:i + per_line]))
        self.parts.append("]")

    def text(self) -> str:
        return "\n".join(self.parts) + "\n"
