"""Line of sight between two hexes (or table points): clear or blocked, by what, where, and why.

The sight line runs from the observer's eyes (ground + observer height) to
the target (ground + target height), straight between the two centres.  Every
hex it passes through is an obstacle as high as its ground plus its tallest
whole-hex obstacle; every traced obstacle it crosses is as high as the ground
under it plus its own height.  The line is blocked where an obstacle's top is
above it.  The observer's and the target's own hexes never block.  Lines
along a hexside or through a hex corner follow the ruleset's edge rule
(``docs/los.md``).  Build a :class:`~engine.los.model.SightMap` once per board
and ruleset and ask it many questions.
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Iterable, Mapping, Union

import numpy as np

from engine.maps.board import Board
from engine.errors import IllegalAction
from engine.maps.hexes import FLAT, Hex, hex_distance
from engine.los.grid import point_f
from engine.los.walk import Line
from engine.los.model import EPS_HEIGHT, GROUND, SightMap, traced_pieces
from engine.los.rules import DEFAULT_LOS_RULES, LosRules

SQRT3 = math.sqrt(3.0)
Place = Union[Hex, tuple]


@dataclass(frozen=True)
class Obstruction:
    """One obstacle that rises above the sight line, and where."""

    kind: str                    # "woods", "ground", "rr embankment", "smoke", …
    hex_id: str | None           # the hex it stands in ("A05.06"), or "A05.06/A06.06" along a hexside
    rule: str                    # the rule that makes it an obstacle, if a special one
    distance: float              # along the line from the observer, in hexes
    point: tuple[float, float]   # lattice coordinates
    line_height: float           # metres
    top: float                   # metres (math.inf for an obstacle that always blocks)
    traced: bool                 # a traced outline rather than a whole hex

    def to_dict(self) -> dict:
        return {"kind": self.kind, "hex": self.hex_id, "rule": self.rule,
                "distance": round(self.distance, 3),
                "point": [round(self.point[0], 4), round(self.point[1], 4)],
                "line_height": round(self.line_height, 3),
                "top": None if math.isinf(self.top) else round(self.top, 3),
                "always_blocks": math.isinf(self.top), "traced": self.traced}

    def explain(self) -> str:
        what = f"{self.kind} ({'traced, ' if self.traced else ''}{self.hex_id or 'off the map'})"
        rule = f" [{self.rule}]" if self.rule else ""
        top = "always blocks" if math.isinf(self.top) else f"top {self.top:g} m"
        return (f"{what}{rule} at {self.distance:.2f} hexes: line {self.line_height:.1f} m, {top}")


@dataclass(frozen=True)
class LosResult:
    """The answer to "can this hex see that one?", able to explain itself."""

    frm: str
    to: str
    range: int | None              # in hexes (None between table points)
    observer_elevation: float      # metres: ground (or stand) + observer height
    target_elevation: float
    clear: bool                    # nothing rises above the line
    obstructions: tuple[Obstruction, ...] = ()
    visibility_limit: int | None = None
    direct_fire_rule: str = ""     # set when a hex refuses direct fire (Black Wednesday 1.1f)

    @property
    def blocked(self) -> bool:
        return not self.clear

    @property
    def beyond_visibility(self) -> bool:
        return self.visibility_limit is not None and self.range is not None and self.range > self.visibility_limit

    @property
    def can_see(self) -> bool:
        """Spotting: the line is clear and the target within the visibility limit."""
        return self.clear and not self.beyond_visibility

    @property
    def direct_fire(self) -> bool:
        """Direct fire needs what spotting needs, and neither hex may refuse it."""
        return self.can_see and not self.direct_fire_rule

    @property
    def blocker(self) -> Obstruction | None:
        return self.obstructions[0] if self.obstructions else None

    def to_dict(self) -> dict:
        return {"from": self.frm, "to": self.to, "range": self.range,
                "result": "clear" if self.clear else "blocked",
                "can_see": self.can_see, "direct_fire": self.direct_fire,
                "direct_fire_rule": self.direct_fire_rule or None,
                "visibility_limit": self.visibility_limit, "beyond_visibility": self.beyond_visibility,
                "observer_elevation": round(self.observer_elevation, 3),
                "target_elevation": round(self.target_elevation, 3),
                "blocked_by": self.blocker.to_dict() if self.blocker else None,
                "obstructions": [o.to_dict() for o in self.obstructions]}

    def explain(self) -> str:
        rng = f", range {self.range}" if self.range is not None else ""
        head = f"{self.frm} -> {self.to}{rng}: "
        if self.clear:
            text = head + "clear"
        else:
            text = head + "blocked by " + self.blocker.explain()
            if len(self.obstructions) > 1:
                text += f" (and {len(self.obstructions) - 1} more)"
        if self.beyond_visibility:
            text += f"; beyond the visibility limit of {self.visibility_limit} hexes"
        if self.direct_fire_rule:
            text += f"; no direct fire ({self.direct_fire_rule}), spotting allowed"
        return text


def sight_map(board: Board, rules: LosRules = DEFAULT_LOS_RULES) -> SightMap:
    """The board prepared for many line-of-sight questions under a ruleset."""
    return SightMap(board, rules)


def _place(sm: SightMap, p: Place):
    """(point, triangle coordinates, hex index, hex or None, label) of a hex or a table point."""
    # a place off the map has no hex of its own (-1 never matches a hex; its ground is the off-map slot's)
    if isinstance(p, Hex):
        xy = sm.layout.hex_to_pixel(p)
        q, r = (p.q, p.r) if sm.orientation == FLAT else (p.r, p.q)
        f = (2 * r + q, -2 * q - r, q - r)                  # triangle coordinates (engine.los.grid)
        i = sm.hex_index(p)
        return xy, f, i if i < sm.n else -1, p, _label(sm, i) or f"{p} (off the map)"
    x, y = float(p[0]), float(p[1])
    i = sm.hex_index(sm.layout.pixel_to_hex(x, y))
    return (x, y), point_f(sm.layout, x, y), i if i < sm.n else -1, None, f"({x:g}, {y:g})"


def _label(sm: SightMap, i: int, j: int | None = None) -> str | None:
    """The printed id of hex index i (with "/j" for a hexside pair); None off the map."""
    if not 0 <= i < sm.n:
        return None
    text = sm.board.hex_id(sm.hexes[i])
    if j is not None and j != i and 0 <= j < sm.n:
        text += "/" + sm.board.hex_id(sm.hexes[j])
    return text


def line_of_sight(where: Union[SightMap, Board], frm: Place, to: Place, *,
                  rules: LosRules | None = None,
                  observer_height: float | None = None, target_height: float | None = None,
                  observer_type: str | None = None, target_type: str | None = None,
                  markers: Mapping[Hex, Iterable[str]] | None = None,
                  visibility_limit: int | None = None, every: bool = False) -> LosResult:
    """Exact line of sight from ``frm`` to ``to`` (hexes or table points), explained.

    Heights are metres above the ground (defaults: the unit type's, else the
    ruleset's).  ``markers`` maps hexes to markers on the map now (smoke).
    ``visibility_limit`` (hexes) overrides the ruleset's (Black Wednesday 1.8).
    The answer names the first obstruction; ``every=True`` lists them all.
    """
    sm = where if isinstance(where, SightMap) else SightMap(where, rules or DEFAULT_LOS_RULES)
    R = sm.rules
    P, FP, ia, ha, la = _place(sm, frm)
    Q, FQ, ib, hb, lb = _place(sm, to)
    oh = observer_height if observer_height is not None else R.unit_height(observer_type, R.observer_height)
    th = target_height if target_height is not None else R.unit_height(target_type, R.target_height)
    z0 = float(sm.stand[ia]) + oh
    zT = float(sm.stand[ib]) + th
    limit = visibility_limit if visibility_limit is not None else R.visibility_limit
    rng = hex_distance(ha, hb) if ha is not None and hb is not None else None
    walled = sm.no_direct_fire.get(ia) or sm.no_direct_fire.get(ib) or ""   # Black Wednesday 1.1f
    if (P[0], P[1]) == (Q[0], Q[1]):
        return LosResult(la, lb, rng, z0, zT, True, (), limit, walled)
    line = Line(FP, FQ, zT < z0, sm.orientation)
    both = R.edge_rule == "both"
    dz = zT - z0
    n = sm.n
    where_ = sm.index_qr.get
    raised = sm.marker_tops(markers)
    hex_top = sm.hex_top_list
    ground = sm.ground_list

    def hex_top_of(i: int) -> float:
        if i == ia or i == ib:
            return -math.inf                                  # own hexes never block
        return raised[i][0] if i in raised else hex_top[i]

    def ground_of(i: int) -> float:
        return -math.inf if i == ia or i == ib else ground[i]

    def judge(t, i, j, top_of, add):
        """(blocked, the hex whose top counts, the other hex of a hexside pair, top, line height)."""
        ta_, tb_ = top_of(i), top_of(j) if j != i else None
        if tb_ is not None and (tb_ < ta_ if both else tb_ > ta_):   # the edge rule
            i, j, ta_ = j, i, tb_
        top = ta_ + add
        z = z0 + t * dz
        return top - z > EPS_HEIGHT, i, j, top, z

    # the line against the hexes (ground and whole-hex obstacles)
    touches = [(t, where_(a, n), where_(b, n) if b != a else where_(a, n), c)
               for t, a, b, c in line.touches(corners=not both)]
    hits: list[tuple] = []
    for order, (t, i, j, _c) in enumerate(touches):
        blocked, i2, j2, top, z = judge(t, i, j, hex_top_of, 0.0)
        if blocked:
            hits.append((t, 0, order, i2, j2, top, z, None))
            if not every:
                break
    # traced obstacles, as far as the first blocking hex when only the first obstruction is wanted
    upto = 1.0 if every or not hits else hits[0][0] + 1e-9
    if sm.tree is not None:
        reach = {ia, ib} - {-1}
        for t, i, j, _c in touches:
            if t > upto:
                break
            reach.add(i)
            reach.add(j)
        if n in reach:
            near = None                                       # the line leaves the map: ask the tree
        else:
            ptr, at = sm.traced_ptr_list, sm.traced_at_list
            near = np.array(sorted({p for h in reach for p in at[ptr[h]:ptr[h + 1]]}), dtype=np.int64)
        ta, tb, who = traced_pieces(sm, P, Q, R.edge_rule, upto, near)
        ts = [x[0] for x in touches]
        for s_, (a, b, w) in enumerate(zip(ta.tolist(), tb.tolist(), who.tolist())):
            h = sm.traced_height_list[w]
            inner = min(1e-7, (b - a) / 2.0)
            # the line is lowest in the stretch at its far end when descending, else at its near end
            t_end, t_in = (b, b - inner) if line.descending else (a, a + inner)
            ca, cb = line.cell(t_in)
            i, j = where_(ca, n), where_(cb, n)
            checks = [(t_end, i, j)] + [(t, i, j) for t, i, j, _c in touches[bisect_right(ts, a):bisect_left(ts, b)]]
            for t, i, j in checks:
                blocked, i2, j2, top, z = judge(t, i, j, ground_of, h)
                if blocked:
                    hits.append((t, 1, s_, i2, j2, top, z, w))
    hits.sort(key=lambda x: (x[0], x[1], x[2]))
    found: list[Obstruction] = []
    seen: set = set()
    for t, src, _o, i, j, top, z, w in hits:
        if src == 0:
            key = ("hex", i)
            kid = raised[i][1] if i in raised else sm.hex_kind_list[i]
            name, rule, traced_ = sm.kind_names[kid], sm.kind_rules[kid], False
        else:
            key = ("traced", w)
            name, rule, traced_ = sm.traced[w].kind, sm.traced[w].rule, True
        if key in seen:
            continue
        seen.add(key)
        found.append(_obstruction(sm, P, Q, t, name, rule, i, j if j != i else None, z, top, traced_))
        if not every:
            break
    return LosResult(la, lb, rng, z0, zT, not found, tuple(found), limit, walled)


def _obstruction(sm, P, Q, t, kind, rule, i, j, z, top, traced) -> Obstruction:
    t = float(t)
    x = P[0] + t * (Q[0] - P[0])
    y = P[1] + t * (Q[1] - P[1])
    dist = t * math.hypot(Q[0] - P[0], Q[1] - P[1]) / (SQRT3 * sm.layout.size)
    return Obstruction(kind if kind else GROUND, _label(sm, i, j), rule, dist, (x, y), float(z), float(top), traced)


def require_direct_fire(result: LosResult) -> None:
    """Raise IllegalAction unless direct fire may be traced along this line."""
    if result.direct_fire_rule:
        raise IllegalAction(result.direct_fire_rule,
                            f"no direct fire into or out of a walled hex ({result.frm} -> {result.to}); "
                            "spotting is allowed")
    if result.beyond_visibility:
        raise IllegalAction("", f"{result.to} is {result.range} hexes away, beyond the visibility limit "
                                f"of {result.visibility_limit}")
    if result.blocked:
        raise IllegalAction(result.blocker.rule, f"no line of sight from {result.frm} to {result.to}: "
                                                 f"blocked by {result.blocker.explain()}")


__all__ = ["line_of_sight", "sight_map", "require_direct_fire", "LosResult", "Obstruction", "SightMap",
           "LosRules", "DEFAULT_LOS_RULES"]
