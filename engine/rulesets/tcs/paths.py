"""Where a TCS unit can move on from where it stands, and the cheapest legal path there (TCS 5.0).

A unit moves hex by hex, each hex its own ``move`` action (overwatch may answer any of them), paying the
Terrain Effects Chart's cost of each hex from the Movement Allowance it has left.  These queries try each step
exactly as :meth:`TcsRules.check_move` would judge it when it is played, on a scratch copy of the state with
the unit where the path has taken it, so a path found here is one the hex-by-hex moves accept (a question a
move raises, such as overwatch or a wire breach, may still stop the unit on the way).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from fractions import Fraction

from ...errors import IllegalAction
from ...maps.hexes import Hex, are_adjacent


@dataclass
class Reach:
    """The hexes a unit can reach now with the MPs it has left: ``destinations`` hex -> MPs it costs (by the
    cheapest path), ``came_from`` to walk each path back, and ``blocked`` neighbour -> why it cannot be entered."""

    start: Hex
    destinations: dict = field(default_factory=dict)
    came_from: dict = field(default_factory=dict)
    blocked: dict = field(default_factory=dict)

    def path_to(self, to: Hex) -> list[Hex]:
        """The cheapest path from the unit's hex to ``to``, both included ([] if ``to`` is not reached)."""
        if to not in self.destinations:
            return []
        path = [to]
        while path[-1] != self.start:
            path.append(self.came_from[path[-1]])
        return path[::-1]


def reach(rules, st, uid: str) -> Reach:
    """Dijkstra over the hex-by-hex moves the rules accept now (TCS 5.0); ties keep the first path found, in the
    board's neighbour order, so the answer is the same every time."""
    side = rules.specs[uid].side
    u0 = rules._own(st, uid, side)
    work = st.copy()
    u = work.units[uid]
    start, used0, moved0 = u0.hex, u0.mp_used, u0.moved
    out = Reach(start)
    best: dict[Hex, Fraction] = {start: used0}
    heap = [(used0, 0, start)]
    seq = 1
    try:
        while heap:
            used, _, h = heapq.heappop(heap)
            if used > best[h]:
                continue
            u.hex, u.mp_used, u.moved = h, used, moved0 or h != start
            for n in rules.board.neighbors(h):
                if n == start:
                    continue
                try:
                    cost = rules.check_move(work, uid, n, side)
                except IllegalAction as e:
                    if h == start:
                        out.blocked[n] = e.message if not e.rule or e.message.startswith(e.rule) else \
                            f"{e.rule}: {e.message}"
                    continue
                total = used + cost
                if n not in best or total < best[n]:
                    best[n] = total
                    out.came_from[n] = h
                    heapq.heappush(heap, (total, seq, n))
                    seq += 1
    finally:
        u.hex, u.mp_used, u.moved = start, used0, moved0
    out.destinations = {h: v - used0 for h, v in best.items() if h != start}
    for h in out.destinations:
        out.blocked.pop(h, None)
    return out


def cheapest_path(rules, st, uid: str, to: Hex) -> list[Hex]:
    """The cheapest legal path from the unit's hex to ``to`` (both included); IllegalAction with the rule when
    there is none (the refusal of the hex itself when it is next to the unit)."""
    r = reach(rules, st, uid)
    path = r.path_to(to)
    if path:
        return path
    if to in r.blocked:
        rules.check_move(st, uid, to, rules.specs[uid].side)         # raises the refusal of the hex next door
    u = st.units[uid]
    left = rules.ma(st, uid) - u.mp_used
    raise IllegalAction("TCS 5.0", f"{uid} has no legal path to {rules.hid(to)} with the {left} MPs it has left")


def check_path(rules, st, uid: str, path: list[Hex]) -> Fraction:
    """The MPs a path costs (its first hex the unit's own), or IllegalAction with the rule of the first hex the
    moves would refuse, saying how far the unit would get."""
    side = rules.specs[uid].side
    u0 = rules._own(st, uid, side)
    if not path or path[0] != u0.hex:
        raise IllegalAction("TCS 5.0", f"a path of {uid} starts in its hex {rules.hid(u0.hex)}")
    work = st.copy()
    u = work.units[uid]
    total = Fraction(0)
    for i, (a, b) in enumerate(zip(path, path[1:])):
        if not are_adjacent(a, b):
            raise IllegalAction("TCS 5.0", f"{rules.hid(a)} and {rules.hid(b)} are not neighbours")
        u.hex = a
        try:
            cost = rules.check_move(work, uid, b, side)
        except IllegalAction as e:
            raise IllegalAction(e.rule, f"{e.message} (after {i} of {len(path) - 1} hexes)") from None
        u.mp_used += cost
        u.moved = True
        total += cost
    return total
