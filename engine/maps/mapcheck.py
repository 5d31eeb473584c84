""""Check map": what looks unfinished or wrong on a board (hexes with no terrain, an id naming two places,
hexsides and links off the map, elevation jumps, empty areas and lines), each a :class:`Finding`;
``validate`` fails a file on the findings in ``PROBLEM_KINDS``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from engine.maps.board import Board
from engine.errors import BadHexId, Problem
from engine.maps.hexes import Hex

DEFAULT_MAX_JUMP = 40.0   # metres between neighbours before "check map" calls it a jump (two 20 m contours)
JUMP_CONTOURS = 2         # a map that gives its contour interval: a jump is more than two contours


# ---------------------------------------------------------------- checks

# Findings that make a map wrong (an id naming two places): `validate` fails the file. Every other
# finding is a warning: the file is valid (a hex may say nothing of its terrain, docs/map-format.md),
# but something looks unfinished.
PROBLEM_KINDS = frozenset({"id clash"})
FINDING_KEYS = {"no terrain": "terrain", "id clash": "sheets", "edge hexside": "hexsides", "edge link": "links",
                "elevation jump": "elevation", "empty area": "areas", "empty line": "lines"}


@dataclass(frozen=True)
class Finding:
    """One thing "check map" found: what, in words, and where (hexes to go to)."""

    kind: str
    message: str
    hexes: tuple[Hex, ...] = ()

    @property
    def severity(self) -> str:
        """"problem" (the map cannot be played as it is) or "warning"."""
        return "problem" if self.kind in PROBLEM_KINDS else "warning"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "severity": self.severity, "message": self.message,
                "hexes": [[h.q, h.r] for h in self.hexes]}

    def problem(self, path: str) -> Problem:
        """The finding as a file problem (the key is the map file's table it is about)."""
        return Problem(str(path), FINDING_KEYS.get(self.kind, ""), self.message)


def _ids(board: Board, hexes: Iterable[Hex]) -> str:
    out = []
    for h in hexes:
        try:
            out.append(board.hex_id(h))
        except BadHexId:
            out.append(f"({h.q}, {h.r}) off the map")
    return "/".join(out)


def jump_limit(board: Board) -> float:
    """The largest elevation step between neighbours that "check map" takes as drawn terrain.

    Two contour lines between two hex centres is a steep slope a map may print; more is more
    likely a typing slip.  A map that gives its contour interval is measured in its own contours
    (Leros's is 25 m, so 50 m steps are its cliffs); others against DEFAULT_MAX_JUMP.
    """
    if board.contour_interval:
        return JUMP_CONTOURS * board.contour_interval
    return DEFAULT_MAX_JUMP


def check_map(board: Board, max_jump: float | None = None) -> list[Finding]:
    """Everything that looks unfinished or wrong on a map, in a fixed order (``max_jump``: jump_limit's)."""
    if max_jump is None:
        max_jump = jump_limit(board)
    out: list[Finding] = []
    hexes = board.hexes()
    for h in hexes:
        if h not in board.terrain:
            out.append(Finding("no terrain", f"{board.hex_id(h)} has no terrain", (h,)))
    for side in sorted(board.hexsides, key=lambda s: (s.a, s.b)):
        feats = board.hexsides[side]
        if feats and (side.a not in board or side.b not in board):
            out.append(Finding("edge hexside", f"{'+'.join(sorted(feats))} on {_ids(board, side.hexes())} "
                                               "does not separate two hexes of the map",
                               tuple(h for h in side.hexes() if h in board)))
    for kind in sorted(board.links):
        for side in sorted(board.links[kind], key=lambda s: (s.a, s.b)):
            if side.a not in board or side.b not in board:
                out.append(Finding("edge link", f"{kind} {_ids(board, side.hexes())} leads off the map",
                                   tuple(h for h in side.hexes() if h in board)))
    for h in hexes:
        for n in board.neighbors(h):
            if n > h:
                jump = abs(board.elevation_of(h) - board.elevation_of(n))
                if jump > max_jump:
                    out.append(Finding("elevation jump",
                                       f"{board.hex_id(h)} to {board.hex_id(n)}: {jump:g} {board.elevation_unit} "
                                       f"(more than {max_jump:g})", (h, n)))
    seen: dict[str, Hex] = {}
    for sh in board.sheets:
        for h in sh.hexes():
            text = sh.numbering.format(h)
            if text in seen and seen[text] != h:
                out.append(Finding("id clash", f"{text} names two hexes (on sheet {sh.id} and another sheet)",
                                   (seen[text], h)))
            seen.setdefault(text, h)
    for bid in sorted(board.boxes):
        if bid in seen:
            out.append(Finding("id clash", f"box {bid!r} has the id of hex {bid}", (seen[bid],)))
    for name in sorted(board.areas):
        if not any(h in board for h in board.areas[name].hexes):
            out.append(Finding("empty area", f"area {name!r} has no hex of the map"))
    for name in sorted(board.lines):
        ln = board.lines[name]
        if not any(s.a in board and s.b in board for s in ln.hexsides):
            out.append(Finding("empty line", f"line {name!r} has no hexside of the map"))
    return out
