"""Area expressions: the set-up and entry areas of a scenario, like ``within 2 of staraya_russa``.

Grammar (lowest precedence first)::

    expr     := and_expr (("or" | ",") and_expr)*     a comma list is a union: ``0606, 0706, 0607``
    and_expr := not_expr ("and" not_expr)*
    not_expr := "not" not_expr | primary
    primary  := "(" expr ")"
              | "all"                                  every hex of the map
              | HEXID                                  one hex, like 0512 or B16.29
              | NAME                                   a named area; a line's name means the hexes along it
              | "within" N "of" primary                hexes at most N from it (see below for lines)
              | "adjacent" "to" primary                neighbours of it, not it
              | "along" LINE                           hexes with a side on the line
              | "inside" LINE | "outside" LINE         the two sides of a closed line
              | ("west"|"east"|"north"|"south") "of" LINE    a side of a line from edge to edge
              | ["on" "or"] ("north"|"south") "of" "row" "of" primary   by printed row number
              | "row" "of" primary                     the same printed row
              | "terrain" NAME | "feature" NAME
              | "edge" ("north"|"south"|"east"|"west")
              | ("columns"|"rows") N "to" N            by printed column or row number
              | "sheet" NAME                           the hexes of one map sheet (``sheet B``: Leros' map B)

Names are matched without regard to case, spaces, hyphens or underscores
(``staraya_russa`` names the area "Staraya Russa"); a name with other
characters can be quoted.  A hex along a line counts as one hex from it, so
``within 1 of start_line`` is ``along start_line`` and ``not within 2 of
pocket_perimeter`` is "at least three hexes from the pocket perimeter line".
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from engine.maps.board import Board
from engine.maps.hexes import Hex, hex_neighbors, hexside

KEYWORDS = {"or", "and", "not", "all", "within", "of", "adjacent", "to", "along", "inside", "outside",
            "west", "east", "north", "south", "on", "row", "terrain", "feature", "edge", "columns", "rows", "sheet"}
COMPASS = ("north", "south", "east", "west")
_TOKEN = re.compile(r"\s*(?:(,)|(\()|(\))|'([^']*)'|\"([^\"]*)\"|([A-Za-z0-9_.\-]+))")


EXAMPLES = "for example '0606', '0606, 0706, 0607', 'within 2 of B16.29', 'Staraya Russa and not terrain swamp'"


class AreaSyntaxError(ValueError):
    """An area expression that does not parse; its message ends with examples of the syntax."""

    def __str__(self) -> str:
        return f"{super().__str__()} ({EXAMPLES})"


class AreaError(ValueError):
    """An area expression that names something the map does not have."""


def norm(name: str) -> str:
    """A name's comparable form: ``Staraya Russa`` -> ``starayarussa``."""
    return re.sub(r"[\s_\-]+", "", name.lower())


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise AreaSyntaxError(f"unexpected {text[pos:].strip()[:12]!r}")
        pos = m.end()
        if m.group(1):
            out.append(("kw", "or"))         # a comma list is a union
        elif m.group(2):
            out.append(("(", "("))
        elif m.group(3):
            out.append((")", ")"))
        elif m.group(4) is not None or m.group(5) is not None:
            out.append(("name", m.group(4) if m.group(4) is not None else m.group(5)))
        else:
            w = m.group(6)
            if w.lower() in KEYWORDS:
                out.append(("kw", w.lower()))
            elif w.isdigit():
                out.append(("num", w))
            else:
                out.append(("name", w))
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expect_kw(self, word: str):
        t = self.take()
        if t != ("kw", word):
            raise AreaSyntaxError(f"expected {word!r}, found {t[1] or 'the end'!r}")

    def parse(self):
        if not self.toks:
            raise AreaSyntaxError("empty expression")
        node = self.or_expr()
        if self.peek()[0] != "end":
            raise AreaSyntaxError(f"unexpected {self.peek()[1]!r}")
        return node

    def or_expr(self):
        node = self.and_expr()
        while self.peek() == ("kw", "or"):
            self.take()
            node = ("or", node, self.and_expr())
        return node

    def and_expr(self):
        node = self.not_expr()
        while self.peek() == ("kw", "and"):
            self.take()
            node = ("and", node, self.not_expr())
        return node

    def not_expr(self):
        if self.peek() == ("kw", "not"):
            self.take()
            return ("not", self.not_expr())
        return self.primary()

    def name(self) -> str:
        t = self.take()
        if t[0] not in ("name", "num"):
            raise AreaSyntaxError(f"expected a name, found {t[1] or 'the end'!r}")
        return t[1]

    def primary(self):
        kind, word = self.take()
        if kind == "(":
            node = self.or_expr()
            if self.take()[0] != ")":
                raise AreaSyntaxError("missing ')'")
            return node
        if kind == "num":
            return ("hex", word)
        if kind == "name":
            return ("name", word)
        if kind != "kw":
            raise AreaSyntaxError(f"expected an area, found {word or 'the end'!r}")
        if word == "all":
            return ("all",)
        if word == "within":
            n = self.take()
            if n[0] != "num":
                raise AreaSyntaxError(f"expected a number of hexes after 'within', found {n[1]!r}")
            self.expect_kw("of")
            return ("within", int(n[1]), self.primary())
        if word == "adjacent":
            self.expect_kw("to")
            return ("adjacent", self.primary())
        if word in ("along", "inside", "outside"):
            return (word, self.name())
        if word == "terrain" or word == "feature" or word == "sheet":
            return (word, self.name())
        if word == "edge":
            d = self.take()
            if d[0] != "kw" or d[1] not in COMPASS:
                raise AreaSyntaxError(f"expected north, south, east or west after 'edge', found {d[1]!r}")
            return ("edge", d[1])
        if word in ("columns", "rows"):
            lo = self.take()
            self.expect_kw("to")
            hi = self.take()
            if lo[0] != "num" or hi[0] != "num":
                raise AreaSyntaxError(f"expected '{word} N to M' with numbers, found {lo[1]!r} to {hi[1]!r}")
            return ("band", word, int(lo[1]), int(hi[1]))
        if word == "row":
            self.expect_kw("of")
            return ("row", "=", self.primary())
        if word == "on":
            self.expect_kw("or")
            d = self.take()
            if d not in (("kw", "north"), ("kw", "south")):
                raise AreaSyntaxError(f"expected 'north' or 'south' after 'on or', found {d[1]!r}")
            self.expect_kw("of")
            self.expect_kw("row")
            self.expect_kw("of")
            return ("row", "<=" if d[1] == "north" else ">=", self.primary())
        if word in COMPASS:
            self.expect_kw("of")
            if self.peek() == ("kw", "row") and word in ("north", "south"):
                self.take()
                self.expect_kw("of")
                return ("row", "<" if word == "north" else ">", self.primary())
            return ("side", word, self.name())
        raise AreaSyntaxError(f"unexpected {word!r}")


def parse_area(text: str):
    """The syntax tree of an area expression; raises AreaSyntaxError."""
    if not isinstance(text, str):
        raise AreaSyntaxError("expected a string")
    return _Parser(text).parse()


# ---------------------------------------------------------------- evaluation

@dataclass
class AreaContext:
    """Evaluates area expressions on one board, caching the sides of its lines."""

    board: Board
    _hexes: frozenset[Hex] = field(default=frozenset(), init=False)
    _areas: dict[str, str] = field(default_factory=dict, init=False)
    _lines: dict[str, str] = field(default_factory=dict, init=False)
    _parts: dict[str, list[frozenset[Hex]]] = field(default_factory=dict, init=False)
    _cache: dict[str, frozenset[Hex]] = field(default_factory=dict, init=False)

    def __post_init__(self):
        self._hexes = frozenset(self.board.hexes())
        self._areas = {norm(k): k for k in self.board.areas}
        self._lines = {norm(k): k for k in self.board.lines}

    def hexes(self, text: str) -> frozenset[Hex]:
        """The hexes an expression names; raises AreaSyntaxError or AreaError."""
        if text not in self._cache:
            self._cache[text] = frozenset(self._eval(parse_area(text)) & self._hexes)
        return self._cache[text]

    def contains(self, text: str, h: Hex) -> bool:
        return h in self.hexes(text)

    # ------------------------------------------------------------ nodes
    def _eval(self, node) -> set[Hex]:
        op = node[0]
        if op == "or":
            return self._eval(node[1]) | self._eval(node[2])
        if op == "and":
            return self._eval(node[1]) & self._eval(node[2])
        if op == "not":
            return set(self._hexes) - self._eval(node[1])
        if op == "all":
            return set(self._hexes)
        if op == "hex":
            try:
                return {self.board.parse_hex(node[1])}
            except ValueError as e:
                raise AreaError(str(e)) from None
        if op == "name":
            key = norm(node[1])
            if key in self._areas:
                return set(self.board.areas[self._areas[key]].hexes)
            if key in self._lines:
                return self._along(node[1])
            try:                                   # a TCS hex id like B16.29 reads as a name
                return {self.board.parse_hex(node[1])}
            except ValueError:
                pass
            raise AreaError(f"the map has no area or line {node[1]!r} "
                            f"(areas: {', '.join(sorted(self.board.areas)) or 'none'}; "
                            f"lines: {', '.join(sorted(self.board.lines)) or 'none'})")
        if op == "within":
            n, sub = node[1], node[2]
            base = self._eval(sub)
            if sub[0] == "name" and norm(sub[1]) in self._lines and norm(sub[1]) not in self._areas:
                n -= 1   # a hex along a line is one hex from it
            return self._grow(base, n) if n >= 0 else set()
        if op == "adjacent":
            base = self._eval(node[1])
            return self._grow(base, 1) - base
        if op == "along":
            return self._along(node[1])
        if op in ("inside", "outside"):
            return self._inside(node[1]) if op == "inside" else set(self._hexes) - self._inside(node[1])
        if op == "side":
            return self._side(node[2], node[1])
        if op == "terrain":
            t = norm(node[1])
            return {h for h, name in self.board.terrain.items() if norm(name) == t}
        if op == "feature":
            f = norm(node[1])
            return {h for h, fs in self.board.features.items() if any(norm(x) == f for x in fs)}
        if op == "sheet":
            ids = {sh.id for sh in self.board.sheets}
            if node[1] not in ids:
                raise AreaError(f"the map has no sheet {node[1]!r} (sheets: {', '.join(sorted(ids)) or 'none'})")
            return {h for h in self._hexes if any(sh.id == node[1] for sh in self.board.sheets_of(h))}
        if op == "edge":
            return self._edge(node[1])
        if op == "row":
            return self._rows(node[1], self._eval(node[2]), node[2])
        if op == "band":
            i = 0 if node[1] == "columns" else 1
            return {h for h in self._hexes if node[2] <= self.colrow_of(h)[i] <= node[3]}
        raise AreaError(f"unknown expression {op!r}")  # pragma: no cover - the parser makes no others

    def _grow(self, base: set[Hex], n: int) -> set[Hex]:
        out = set(base)
        frontier = set(base)
        for _ in range(n):
            nxt = set()
            for h in frontier:
                for m in hex_neighbors(h):
                    if m not in out:
                        nxt.add(m)
            out |= nxt
            frontier = nxt
        return out

    def _line(self, name: str):
        key = norm(name)
        if key not in self._lines:
            raise AreaError(f"the map has no line {name!r} (lines: {', '.join(sorted(self.board.lines)) or 'none'})")
        return self.board.lines[self._lines[key]]

    def _along(self, name: str) -> set[Hex]:
        return {h for side in self._line(name).hexsides for h in side.hexes()}

    def _components(self, name: str) -> list[frozenset[Hex]]:
        """The parts the line cuts the map into (flood fill that never crosses it)."""
        line = self._line(name)
        if line.name in self._parts:
            return self._parts[line.name]
        cut = line.hexsides
        seen: set[Hex] = set()
        parts = []
        for start in sorted(self._hexes):
            if start in seen:
                continue
            part = {start}
            seen.add(start)
            todo = deque([start])
            while todo:
                h = todo.popleft()
                for m in hex_neighbors(h):
                    if m in self._hexes and m not in seen and hexside(h, m) not in cut:
                        seen.add(m)
                        part.add(m)
                        todo.append(m)
            parts.append(frozenset(part))
        self._parts[line.name] = parts
        return parts

    def _inside(self, name: str) -> set[Hex]:
        edges = self._edge("north") | self._edge("south") | self._edge("east") | self._edge("west")
        parts = self._components(name)
        inside = set().union(*[p for p in parts if not (p & edges)]) if parts else set()
        if not inside:
            raise AreaError(f"line {name!r} does not enclose any hexes (is it closed?)")
        return inside

    def _side(self, name: str, direction: str) -> set[Hex]:
        parts = self._components(name)
        edge = self._edge(direction)
        opposite = self._edge({"west": "east", "east": "west", "north": "south", "south": "north"}[direction])
        mine = [p for p in parts if p & edge and not p & opposite]
        if not mine:
            raise AreaError(f"line {name!r} does not cut the map into a {direction} and an opposite part "
                            f"(does it run from edge to edge?)")
        return set().union(*mine)

    def _edge(self, direction: str) -> set[Hex]:
        """A map edge: the map's own area named like "north edge" when it has one (a sheet
        printed with north to one side, as Black Wednesday's are), else the sheets' outer
        hexes along that side of the picture (north at the top)."""
        named = next((a for a in self.board.areas.values() if norm(a.name) == norm(f"{direction} edge")), None)
        if named is not None and named.hexes:
            return set(named.hexes) & self._hexes
        out = set()
        for sh in self.board.sheets:
            num = sh.numbering
            last_col = num.first_col + num.cols - 1
            for h in sh.hexes():
                col, row = num.hex_to_colrow(h)
                on = {"west": col == num.first_col, "east": col == last_col,
                      "north": row == num.top_row, "south": row == num.bottom_row}[direction]
                if on and any(m not in self._hexes for m in hex_neighbors(h)):
                    out.add(h)
        return out

    def colrow_of(self, h: Hex) -> tuple[int, int]:
        """Printed column and row numbers of a hex (on its first sheet)."""
        sheets = self.board.sheets_of(h)
        return sheets[0].numbering.hex_to_colrow(h) if sheets else (0, 0)

    def row_of(self, h: Hex) -> int:
        return self.colrow_of(h)[1]

    def _rows(self, op: str, base: set[Hex], node) -> set[Hex]:
        rows = {self.row_of(h) for h in base & self._hexes}
        if len(rows) != 1:
            raise AreaError(f"'row of' needs hexes in one printed row; {node!r} has rows {sorted(rows)}")
        r0 = rows.pop()
        test = {"=": r0.__eq__, "<": r0.__gt__, ">": r0.__lt__, "<=": r0.__ge__, ">=": r0.__le__}[op]
        return {h for h in self._hexes if test(self.row_of(h))}
