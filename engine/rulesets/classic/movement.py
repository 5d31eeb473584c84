"""Classic movement and supply: legal destinations and their costs, traced paths, supply lines."""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from engine.maps.hexes import Hex

from ...errors import IllegalAction
from .state import ON_MAP, State
from .text import cite


@dataclass
class Reach:
    """Where a unit may end its move this phase, at what cost, and why each blocked neighbour is blocked."""

    unit: str
    start: Hex
    allowance: float
    destinations: dict[Hex, float] = field(default_factory=dict)
    blocked: dict[Hex, str] = field(default_factory=dict)


class MovementMixin:
    """Movement and supply of the classic rules (mixed into ClassicRules)."""

    # ------------------------------------------------------------ movement
    def may_move(self, st: State, uid: str) -> str | None:
        """Why a unit may not move now (``rule: message``), or None."""
        if uid not in self.units:
            return f"there is no unit {uid!r}"
        u, ph = st.units[uid], self.phase(st)
        if u.status != ON_MAP:
            return f"{uid} is not on the map"
        if ph is None or "move" not in ph.does:
            return f"{cite(ph.rule if ph else '')}: units move only in a movement phase, not in the {st.phase} phase"
        if self.units[uid].side != ph.side:
            return f"{cite(ph.rule)}: it is {self.scenario.sides[ph.side].name}'s phase"
        if ph.types and not self.has(uid, ph.types):
            return f"{cite(ph.rule)}: only {', '.join(ph.types)} units move in the {ph.name} phase"
        if u.moved:
            return f"{cite(self.cfg.movement_rule)}: {uid} has already moved this phase"
        return None

    def reach(self, st: State, uid: str) -> Reach:
        """Legal destinations of one unit with their costs, and why each blocked neighbour is blocked."""
        cfg, m = self.cfg, self.map
        side = self.units[uid].side
        start = st.units[uid].hex
        ma = self.allowance(st, uid)
        r = Reach(uid, start, ma)
        cls = self.type_of[uid].cls
        index = m.index
        enemy_i, ezoc_i = self._flags(st, side)
        zrule = cite(cfg.zoc_rules.get(side) or cfg.zoc_rule)
        leave_cost = 0.0
        in_zoc = bool(ezoc_i[index[start]])
        no_more_zoc = False
        if in_zoc:
            how = cfg.zoc_leave[side]
            if how == "banned":
                for n in m.neighbors[start]:
                    r.blocked[n] = f"{zrule}: a unit may not leave an enemy zone of control"
                return r
            if how == "cost":
                c = cfg.zoc_leave_cost[side]
                leave_cost = self._scale(ma, 0.5) if c == "half" else float(c)
            no_more_zoc = not cfg.zoc_after_leaving[side]
        mrule = cite(cfg.movement_rule)
        for n in m.neighbors[start]:           # why a neighbour is blocked (the search below skips it silently)
            if enemy_i[index[n]]:
                r.blocked[n] = f"{mrule}: a unit may never enter a hex with an enemy unit"
            elif m.step(cls, start, n) is None:
                r.blocked[n] = f"{mrule}: {m.why_not(cls, start, n)}"
            elif in_zoc and ezoc_i[index[n]] and (no_more_zoc or not cfg.zoc_to_zoc):
                r.blocked[n] = f"{zrule}: a unit leaving an enemy zone of control may not enter another"
        hexes = m.hexes
        s0 = index[start]
        dist = {s0: 0.0}
        heap = [(0.0, s0)]
        edges = m.iedges[cls]
        stop = cfg.zoc_stop
        minimum = cfg.minimum_move
        zoc_to_zoc = cfg.zoc_to_zoc
        inf = math.inf
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > dist[h]:
                continue
            first = h == s0
            if not first and stop and ezoc_i[h]:
                continue
            for n, s in edges[h]:
                if enemy_i[n] or (no_more_zoc and ezoc_i[n]):
                    continue
                if first:
                    if in_zoc and ezoc_i[n] and not zoc_to_zoc:
                        continue
                    s += leave_cost
                new = cost + s
                if new > ma and not (first and minimum):
                    continue
                if new < dist.get(n, inf):
                    dist[n] = new
                    if new <= ma:
                        heapq.heappush(heap, (new, n))
        dist = {hexes[i]: c for i, c in dist.items()}
        srule = cite(cfg.stack_rule)
        limit = cfg.stack_limit
        used = self._stack_use(st) if limit else {}
        mine = 1 if cfg.stack_by == "count" else self.type_of[uid].stack
        near = m.neighbors[start]
        for h, c in dist.items():
            if h == start:
                continue
            if limit and used.get(h, 0) + mine > limit:
                if h in near:
                    r.blocked[h] = f"{srule}: the stacking limit is {cfg.stack_limit} (units may pass through)"
                continue
            r.destinations[h] = c
        return r

    def destinations(self, st: State, uid: str) -> Reach:
        return self.reach(st, uid)

    def check_move(self, st: State, uid: str, to: Hex) -> float:
        why = self.may_move(st, uid)
        if why:
            rule, _, msg = why.partition(": ")
            raise IllegalAction(rule, msg or why)
        r = self.reach(st, uid)
        if to in r.destinations:
            return r.destinations[to]
        if to in r.blocked:
            rule, _, msg = r.blocked[to].partition(": ")
            raise IllegalAction(rule, msg)
        if to == r.start:
            raise IllegalAction("", f"{uid} is already in {self.map.hex_id(to)}")
        raise IllegalAction(cite(self.cfg.movement_rule),
                            f"{uid} cannot reach {self.map.hex_id(to)} this phase: its movement allowance is "
                            f"{r.allowance:g} and a unit that enters an enemy zone of control stops")

    def check_path(self, st: State, uid: str, path: list[Hex]) -> float:
        """The cost of moving along a path the player traced (its hexes from the unit's own), or IllegalAction:
        the same steps as ``reach``, along this path instead of the cheapest."""
        cfg, m = self.cfg, self.map
        hid = m.hex_id
        side = self.units[uid].side
        start = st.units[uid].hex
        if path[0] != start:
            raise IllegalAction("", f"a path for {uid} begins in {hid(start)}, not {hid(path[0])}")
        mrule, zrule = cite(cfg.movement_rule), cite(cfg.zoc_rules.get(side) or cfg.zoc_rule)
        cls = self.type_of[uid].cls
        ma = self.allowance(st, uid)
        enemy, ezoc = self.enemy_hexes(st, side), self.enemy_zoc(st, side)
        in_zoc = start in ezoc
        no_more_zoc = in_zoc and not cfg.zoc_after_leaving[side]
        leave = 0.0
        if in_zoc and cfg.zoc_leave[side] == "cost":
            c = cfg.zoc_leave_cost[side]
            leave = self._scale(ma, 0.5) if c == "half" else float(c)
        cost = 0.0
        for i, (h, n) in enumerate(zip(path, path[1:])):
            if n not in m.neighbors[h]:
                raise IllegalAction(mrule, f"a path goes from hex to adjacent hex: {hid(h)} and {hid(n)} "
                                           "are not adjacent")
            if n in path[:i + 1]:
                raise IllegalAction(mrule, f"the path enters {hid(n)} twice")
            if i > 0 and cfg.zoc_stop and h in ezoc:
                raise IllegalAction(zrule, f"a unit entering an enemy zone of control stops: {uid} may not go on "
                                           f"from {hid(h)}")
            if n in enemy:
                raise IllegalAction(mrule, f"a unit may never enter a hex with an enemy unit ({hid(n)})")
            step = m.step(cls, h, n)
            if step is None:
                raise IllegalAction(mrule, m.why_not(cls, h, n))
            if (no_more_zoc or (i == 0 and in_zoc and not cfg.zoc_to_zoc)) and n in ezoc:
                raise IllegalAction(zrule, f"a unit leaving an enemy zone of control may not enter another ({hid(n)})")
            cost += step + (leave if i == 0 else 0.0)
            if cost > ma and not (i == 0 and cfg.minimum_move and len(path) == 2):
                raise IllegalAction(mrule, f"the path costs {cost:g} MP by {hid(n)}, more than {uid}'s movement "
                                           f"allowance of {ma:g}")
        return cost

    # ------------------------------------------------------------ supply
    def _supply(self, st: State) -> None:
        """Each unit traces a line of at most ``range`` hexes to a source, free of enemy units and of enemy zones of
        control not occupied by a friendly unit (checked as each phase begins)."""
        if not self.cfg.supply:
            return
        index, hexes, rng = self.map.index, self.map.hexes, self.cfg.supply_range
        nb = self._ineighbors
        for side in self.sides:
            enemy_i, ezoc_i = self._flags(st, side)
            own = bytearray(len(hexes))
            for h in self.side_hexes(st, side):
                own[index[h]] = 1
            seen = {}
            for h in self.sources[side]:
                i = index[h]
                if not enemy_i[i] and (not ezoc_i[i] or own[i]):
                    seen[i] = 0
            todo = list(seen)
            for step in range(1, rng + 1):
                nxt = []
                for i in todo:
                    for n in nb[i]:
                        if n not in seen and not enemy_i[n] and (not ezoc_i[n] or own[n]):
                            seen[n] = step
                            nxt.append(n)
                todo = nxt
            for uid in self.order:
                u = st.units[uid]
                if self.units[uid].side == side:
                    u.out_of_supply = u.status == ON_MAP and index[u.hex] not in seen
