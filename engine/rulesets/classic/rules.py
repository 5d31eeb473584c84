"""The classic hex-and-counter rules bound to one scenario: its phases, movement, zones of control, stacking,
combat, results, retreats, advances, supply and reinforcements, all configured by the scenario's data."""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from itertools import combinations

from engine.maps.hexes import Hex, hex_distance

from ...errors import BadHexId, IllegalAction
from ...game import Event, Outcome, next_die, seed_rng
from ..demyansk import actions as A
from .config import Config
from .mapinfo import MapInfo
from .state import DUE, ELIMINATED, GAME_OVER, ON_MAP, REMOVED, Battle, State, Unit, state_to_dict

MAX_GROUP = 6


def _n(x: float):
    """A whole number shown as one (10, not 10.0)."""
    return int(x) if float(x).is_integer() else x


def cite(rule: str) -> str:
    """``Rule 7.2 (scenario)``: the scenario's own rule number, as refusals cite it."""
    return f"Rule {rule} (scenario)" if rule else ""


@dataclass
class Reach:
    unit: str
    start: Hex
    allowance: float
    destinations: dict[Hex, float] = field(default_factory=dict)
    blocked: dict[Hex, str] = field(default_factory=dict)


@dataclass
class Odds:
    """A battle's arithmetic: strengths, the column and every modifier with its rule."""

    attack: float
    defense: float
    column: int                       # 1-based column of the CRT; 0 below the lowest (refused)
    label: str
    modifiers: list[str] = field(default_factory=list)
    shift: int = 0
    defense_printed: float = 0.0          # the defenders' own values, before terrain and supply

    @property
    def multiplier(self) -> str:
        """The terrain's multiplier on the defence as a whole (x1 when the terrain shifts columns instead)."""
        return f"{self.defense / self.defense_printed:.3g}" if self.defense_printed else "1"


class _Tables:
    """The CRT as the play window's battle panel asks it (``crt(roll, column)``)."""

    def __init__(self, rules):
        self.rules = rules

    def crt(self, roll: int, column: int) -> str:
        cfg = self.rules.cfg
        return cfg.crt_rows[roll - cfg.crt_first][column - 1]


class ClassicRules:
    """A scenario under the classic rules; never changes during a game."""

    name = "classic"

    def __init__(self, scenario, board, cfg: Config):
        self.scenario, self.board, self.cfg = scenario, board, cfg
        self.map = MapInfo(board, cfg)
        self.units = scenario.units
        self.order = list(scenario.units)
        self.sides = tuple(scenario.sides)
        self.type_of = {uid: cfg.unit_types[u.type] for uid, u in scenario.units.items()}
        self.phase_by_name = {p.name: p for p in cfg.phases}
        # the battle panel counts the die faces of a 1d6 table (other rolls: no chances shown)
        self.tables = _Tables(self) if (cfg.crt_dice, cfg.crt_sides) == (1, 6) else None
        from ...scenario import AreaContext

        self.areas = AreaContext(board)
        self.arrives = {uid: r for r in scenario.reinforcements for uid in r.units}
        self.sources = {s: self.areas.hexes(a) for s, a in cfg.supply_sources.items()} if cfg.supply else {}
        self._ineighbors = [tuple(self.map.index[n] for n in self.map.neighbors[h]) for h in self.map.hexes]
        self.judge = None
        if scenario.victory is not None and scenario.victory.kind == "conditions":
            from ...scenario.victory import Judge

            self.judge = Judge(scenario.victory, scenario, self.areas)

    # ------------------------------------------------------------ unit values
    def values(self, st: State, uid: str) -> tuple[int, int, int]:
        """Attack, defence, movement of the face up (the back once a step is lost)."""
        u = self.units[uid]
        if st.units[uid].steps_lost and u.reduced:
            a, d, m = (int(x) for x in u.reduced.split("-"))
            return a, d, m
        return u.attack, u.defense, u.movement

    def has(self, uid: str, names) -> bool:
        """A unit's type is one of ``names`` or has one of them as a tag."""
        t = self.type_of[uid]
        return t.name in names or bool(t.tags & set(names))

    def _scale(self, v: float, k: float) -> float:
        if k == 1:
            return v
        x = v * k
        return float(math.ceil(x - 1e-9) if self.cfg.halves == "up" else math.floor(x + 1e-9))

    def allowance(self, st: State, uid: str) -> float:
        ma = float(self.values(st, uid)[2])
        if st.units[uid].out_of_supply:
            ma = self._scale(ma, self.cfg.supply_movement)
        return ma

    # ------------------------------------------------------------ positions
    def _cache(self, st: State) -> dict:
        c = st.__dict__.get("_cache")
        if c is None:
            c = st.__dict__["_cache"] = {}
        return c

    def occupants(self, st: State) -> dict[Hex, list[str]]:
        c = self._cache(st)
        if "occ" not in c:
            occ: dict[Hex, list[str]] = {}
            for uid in self.order:
                u = st.units[uid]
                if u.status == ON_MAP:
                    occ.setdefault(u.hex, []).append(uid)
            c["occ"] = occ
        return c["occ"]

    def side_hexes(self, st: State, side: str) -> set[Hex]:
        c = self._cache(st)
        key = ("hexes", side)
        if key not in c:
            c[key] = {h for h, us in self.occupants(st).items() if self.units[us[0]].side == side}
        return c[key]

    def zoc(self, st: State, side: str) -> set[Hex]:
        """Hexes in the zone of control of ``side``'s units (not into terrain or across hexsides that block it)."""
        c = self._cache(st)
        key = ("zoc", side)
        if key not in c:
            out = set()
            nb, into, across = self.map.neighbors, self.map.no_zoc_into, self.map.no_zoc_across
            for h, us in self.occupants(st).items():
                if self.units[us[0]].side != side or not any(self.type_of[u].zoc for u in us):
                    continue
                for n in nb[h]:
                    if n not in into and (h, n) not in across:
                        out.add(n)
            c[key] = out
        return c[key]

    def enemy_of(self, side: str) -> list[str]:
        return [s for s in self.sides if s != side]

    def enemy_zoc(self, st: State, side: str) -> set[Hex]:
        out: set[Hex] = set()
        for e in self.enemy_of(side):
            out |= self.zoc(st, e)
        return out

    def enemy_hexes(self, st: State, side: str) -> set[Hex]:
        out: set[Hex] = set()
        for e in self.enemy_of(side):
            out |= self.side_hexes(st, e)
        return out

    def _flags(self, st: State, side: str) -> tuple[bytearray, bytearray]:
        """Enemy-occupied hexes and enemy zones of control for ``side``, as flags by hex number."""
        c = self._cache(st)
        key = ("flags", side)
        if key not in c:
            index = self.map.index
            enemy, ezoc = bytearray(len(index)), bytearray(len(index))
            for h in self.enemy_hexes(st, side):
                enemy[index[h]] = 1
            for h in self.enemy_zoc(st, side):
                ezoc[index[h]] = 1
            c[key] = (enemy, ezoc)
        return c[key]

    def _stack_use(self, st: State) -> dict[Hex, int]:
        """Hex -> the units (or stacking points) in it now."""
        c = self._cache(st)
        if "stack" not in c:
            by_count = self.cfg.stack_by == "count"
            c["stack"] = {h: len(us) if by_count else sum(self.type_of[u].stack for u in us)
                          for h, us in self.occupants(st).items()}
        return c["stack"]

    def stack_room(self, st: State, h: Hex, uids) -> bool:
        """Whether ``uids`` may end in ``h`` on top of what is there (stacking limit by count or points)."""
        limit = self.cfg.stack_limit
        if not limit:
            return True
        here = [u for u in self.occupants(st).get(h, []) if u not in uids]
        if self.cfg.stack_by == "count":
            return len(here) + len(uids) <= limit
        return sum(self.type_of[u].stack for u in (*here, *uids)) <= limit

    # ------------------------------------------------------------ states
    def initial_state(self, seed: int) -> State:
        placed = self.scenario.default_placement()
        units, z = {}, 1
        for uid in self.order:
            if uid in placed:
                units[uid] = Unit(self.board.parse_hex(placed[uid]), ON_MAP, self.units[uid].losses, z=z)
                z += 1
            else:
                units[uid] = Unit(None, DUE, self.units[uid].losses)
        st = State(self.scenario.first_turn, self.cfg.phases[0].name, units, seed_rng(seed), next_z=z)
        self._begin_phase(st, [])
        return st

    def state_to_dict(self, st: State) -> dict:
        return state_to_dict(st, self.map.hex_id)

    def is_over(self, st: State) -> bool:
        return st.over

    def outcome(self, st: State) -> Outcome | None:
        if not st.over:
            return None
        if self.judge is not None:
            return self.judge.outcome(self.facts(st))
        return Outcome(None, "the scenario gives no victory conditions")

    def facts(self, st: State):
        from ...scenario.victory import DUE as V_DUE, ELIMINATED as V_ELIM, GONE, ON_MAP as V_MAP, Facts

        status = {ON_MAP: V_MAP, DUE: V_DUE, ELIMINATED: V_ELIM, REMOVED: GONE}
        return Facts(sides=self.sides, unit_side={u: s.side for u, s in self.units.items()},
                     where={uid: u.hex if u.status == ON_MAP else None for uid, u in st.units.items()},
                     status={uid: status[u.status] for uid, u in st.units.items()},
                     steps={uid: 0 if u.status in (ELIMINATED, REMOVED) else self.units[uid].steps - u.steps_lost
                            for uid, u in st.units.items()},
                     original_steps={u: s.steps for u, s in self.units.items()})

    def standing(self, st: State) -> list:
        """The scenario's victory conditions as they stand in this state (the victory dock shows them)."""
        from ..free.standing import judge_standing

        return judge_standing(self.judge, self.facts(st), st.over, st.turn, self.scenario.last_turn)

    def looks(self, st: State) -> dict:
        """Counters with a step lost show their back (the play window asks)."""
        from ..free.state import Look

        return {uid: Look(back=True) for uid, u in st.units.items() if u.steps_lost and self.units[uid].steps > 1}

    def parse_action(self, text: str):
        return A.parse_action(text)

    def hex(self, text: str) -> Hex:
        try:
            return self.board.parse_hex(text)
        except BadHexId as e:
            raise IllegalAction("", str(e)) from None

    def phase(self, st: State):
        return self.phase_by_name.get(st.phase)

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
        enemy = self.enemy_hexes(st, side)
        ezoc = self.enemy_zoc(st, side)
        zrule = cite(cfg.zoc_rules.get(side) or cfg.zoc_rule)
        leave_cost = 0.0
        in_zoc = start in ezoc
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
            if n in enemy:
                r.blocked[n] = f"{mrule}: a unit may never enter a hex with an enemy unit"
            elif m.step(cls, start, n) is None:
                r.blocked[n] = f"{mrule}: {m.why_not(cls, start, n)}"
            elif in_zoc and n in ezoc and (no_more_zoc or not cfg.zoc_to_zoc):
                r.blocked[n] = f"{zrule}: a unit leaving an enemy zone of control may not enter another"
        index, hexes = m.index, m.hexes
        enemy_i, ezoc_i = self._flags(st, side)
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
                raise IllegalAction(mrule, f"a path goes from hex to adjacent hex: {hid(h)} and {hid(n)} are not adjacent")
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

    # ------------------------------------------------------------ combat
    def odds(self, st: State, defender: str, attackers) -> Odds:
        """A battle's strengths, column and modifiers, whether or not it may be announced now."""
        cfg = self.cfg
        attackers = tuple(attackers)
        mods: list[str] = []
        total = 0.0
        for a in attackers:
            v = float(self.values(st, a)[0])
            if st.units[a].out_of_supply:
                v = self._scale(v, cfg.supply_attack)
                mods.append(f"{cite(cfg.supply_rule)}: {a} out of supply attacks x{cfg.supply_attack:g}".lstrip(": "))
            total += v
        dh = st.units[defender].hex
        defenders = [d for d in self.occupants(st).get(dh, []) if self.units[d].side == self.units[defender].side]
        across = [self.map.sides.get((st.units[a].hex, dh), ()) for a in attackers]
        dfs = 0.0
        tshift = 0
        printed = sum(self.values(st, d)[1] for d in defenders)
        for d in defenders:
            mult = 1.0
            dside = self.units[d].side
            for k in self.map.kinds[dh]:
                row = cfg.terrain[k]
                if (row.types and not self.has(d, row.types)) or (row.sides and dside not in row.sides):
                    continue
                if cfg.terrain_effect in ("multiply", "both") and row.defense != 1:
                    mult *= row.defense
                    mods.append(f"{cite(row.rule) or 'terrain'}: {k} x{row.defense:g}")
                if cfg.terrain_effect in ("shift", "both") and row.shift:
                    tshift += row.shift
                    mods.append(f"{cite(row.rule) or 'terrain'}: {k} {row.shift:+d} column(s)")
            for name, row in self.cfg.hexside.items():
                hit = [any(r.name == name for r in rows) for rows in across]
                if not attackers or not (all(hit) if row.all_attackers else any(hit)):
                    continue
                if (row.types and not self.has(d, row.types)) or (row.sides and dside not in row.sides):
                    continue
                if cfg.terrain_effect in ("multiply", "both") and row.defense != 1:
                    mult *= row.defense
                    mods.append(f"{cite(row.rule) or 'terrain'}: attacked across {name} x{row.defense:g}")
                if cfg.terrain_effect in ("shift", "both") and row.shift:
                    tshift += row.shift
                    mods.append(f"{cite(row.rule) or 'terrain'}: attacked across {name} {row.shift:+d} column(s)")
            if cfg.max_multiplier and mult > cfg.max_multiplier:
                mult = cfg.max_multiplier
                mods.append(f"{cite(cfg.combat_rule) or 'combat'}: terrain at most x{cfg.max_multiplier:g}")
            v = float(self.values(st, d)[1]) * mult
            if st.units[d].out_of_supply:
                v = self._scale(v, cfg.supply_defense)
            dfs += v
        if cfg.max_terrain_shift and abs(tshift) > cfg.max_terrain_shift:
            tshift = int(math.copysign(cfg.max_terrain_shift, tshift))
            mods.append(f"{cite(cfg.combat_rule) or 'combat'}: terrain shifts at most {cfg.max_terrain_shift}")
        total, dfs = _n(total), _n(dfs)
        vals = cfg.column_values
        if cfg.method == "odds":
            x = total / dfs if dfs else math.inf
            text = f"{total:g}:{dfs:g}"
        else:
            x = total - dfs
            text = f"{total:g}-{dfs:g} = {x:+g}"
        idx = self._column(x)
        if idx < 0:
            return Odds(total, dfs, 0, f"{text} (below {cfg.columns[0]})", mods, 0, printed)
        if x > vals[-1] and math.isfinite(x):
            mods.append(f"{cite(cfg.combat_rule) or 'combat'}: above {cfg.columns[-1]} is {cfg.columns[-1]}")
        shift = 0
        for s in cfg.shifts:
            if self._shift_applies(st, s, defender, defenders, attackers, across):
                shift += s.shift
                mods.append(f"{cite(s.rule) or 'shift'}: {s.name} {s.shift:+d}")
        if cfg.max_shift and abs(shift) > cfg.max_shift:
            shift = int(math.copysign(cfg.max_shift, shift))
            mods.append(f"{cite(cfg.combat_rule) or 'combat'}: other shifts at most {cfg.max_shift}")
        col = max(0, min(len(vals) - 1, idx + shift + tshift))
        return Odds(total, dfs, col + 1, cfg.columns[col], mods, shift + tshift, printed)

    def _column(self, x: float) -> int:
        """The column index of a ratio or difference (-1: below the lowest and refused)."""
        vals, cfg = self.cfg.column_values, self.cfg
        if x < vals[0]:
            if cfg.rounding == "up" or (cfg.rounding == "nearest" and len(vals) > 1 and
                                        vals[0] - x < (vals[1] - vals[0]) / 2):
                return 0
            return -1 if cfg.below == "refused" else 0
        best = max(i for i, v in enumerate(vals) if v <= x + 1e-9)
        if cfg.rounding == "up" and vals[best] < x - 1e-9 and best + 1 < len(vals):
            return best + 1
        if cfg.rounding == "nearest" and best + 1 < len(vals) and vals[best + 1] - x < x - vals[best]:
            return best + 1
        return best

    def _shift_applies(self, st, s, defender, defenders, attackers, across) -> bool:
        if s.kind == "combined_arms":
            return any(self.has(a, s.types) for a in attackers) and any(self.has(a, s.other) for a in attackers)
        if s.kind == "all_across":
            return bool(attackers) and all(any(r.name == s.hexside for r in rows) for rows in across)
        if s.kind == "any_across":
            return any(any(r.name == s.hexside for r in rows) for rows in across)
        if s.kind == "attacker_types":
            return any(self.has(a, s.types) for a in attackers)
        if s.kind == "defender_types":
            return any(self.has(d, s.types) for d in defenders)
        if s.kind == "defender_terrain":
            return s.terrain in self.map.kinds[st.units[defender].hex]
        if s.kind == "out_of_supply":
            who = defenders if s.side == "defender" else attackers
            return any(st.units[u].out_of_supply for u in who)
        return False

    def check_declaration(self, st: State, defender: str, attackers: tuple[str, ...]) -> Odds:
        cfg = self.cfg
        rule = cite(cfg.combat_rule)
        ph = self.phase(st)
        if ph is None or "attack" not in ph.does:
            raise IllegalAction(rule, f"battles are announced only in a combat phase, not in the {st.phase} phase")
        if st.resolving and cfg.declare_first:
            raise IllegalAction(rule, "all battles are announced before the first is resolved")
        if defender not in self.units or st.units[defender].status != ON_MAP or self.units[defender].side == ph.side:
            raise IllegalAction(rule, f"{defender} is not an enemy unit on the map")
        if not attackers or len(set(attackers)) != len(attackers):
            raise IllegalAction(rule, "a battle needs attacking units, each named once")
        dh = st.units[defender].hex
        if any(st.units[b.defender].hex == dh for b in st.battles if st.units[b.defender].status == ON_MAP) \
                or any(b.defender == defender for b in st.battles):
            raise IllegalAction(rule, f"the hex of {defender} is already attacked this phase")
        taken = set(st.attacked) | {a for b in st.battles for a in b.attackers}
        for a in attackers:
            if a not in self.units or self.units[a].side != ph.side or st.units[a].status != ON_MAP:
                raise IllegalAction(rule, f"{a} is not one of your units on the map")
            if ph.types and not self.has(a, ph.types):
                raise IllegalAction(cite(ph.rule), f"only {', '.join(ph.types)} units attack in the {ph.name} phase")
            if cfg.attack_once and a in taken:
                raise IllegalAction(rule, f"{a} already attacks this phase: a unit attacks once")
            if hex_distance(st.units[a].hex, dh) != 1:
                raise IllegalAction(rule, f"{a} is not adjacent to {defender}")
            if self.values(st, a)[0] <= 0:
                raise IllegalAction(rule, f"{a} has no attack strength")
        o = self.odds(st, defender, attackers)
        if o.column == 0:
            raise IllegalAction(rule, f"attacks below {cfg.columns[0]} are not allowed ({o.label})")
        return o

    def declarations(self, st: State) -> list:
        ph = self.phase(st)
        taken = set(st.attacked) | {a for b in st.battles for a in b.attackers}
        attacked = {st.units[b.defender].hex for b in st.battles}
        occ = self.occupants(st)
        out = []
        seen = set()
        for d in self.order:
            u = st.units[d]
            if u.status != ON_MAP or self.units[d].side == ph.side or u.hex in seen or u.hex in attacked:
                continue
            seen.add(u.hex)
            near = [a for n in self.map.neighbors[u.hex] for a in occ.get(n, ())
                    if self.units[a].side == ph.side and a not in taken]
            groups = (combinations(near, k) for k in range(1, min(len(near), MAX_GROUP) + 1)) if len(near) <= 8 \
                else iter([[(a,) for a in near], [tuple(near)]])
            for gs in groups:
                for g in gs:
                    try:
                        self.check_declaration(st, d, tuple(g))
                    except IllegalAction:
                        continue
                    out.append(A.Declare(d, tuple(g)))
        return out

    # ------------------------------------------------------------ results
    def roll(self, st: State, events: list, purpose: str) -> int:
        total = 0
        faces = []
        for _ in range(self.cfg.crt_dice):
            die, st.rng = next_die(st.rng, self.cfg.crt_sides)
            faces.append(die)
            total += die
        events.append(Event("roll", f"rolled {total} for {purpose}", {"dice": faces, "total": total, "purpose": purpose}))
        return total

    def resolve(self, st: State, defender: str, events: list) -> None:
        b = next((b for b in st.battles if b.defender == defender and not b.resolved), None)
        if b is None:
            raise IllegalAction(cite(self.cfg.combat_rule), f"there is no announced battle against {defender} to resolve")
        b.resolved = True
        st.resolving = True
        st.attacked.extend(b.attackers)
        attackers = [a for a in b.attackers if st.units[a].status == ON_MAP]
        if st.units[defender].status != ON_MAP or not attackers:
            events.append(Event("combat", f"the battle against {defender} does not take place"))
            return
        o = self.odds(st, defender, attackers)
        roll = self.roll(st, events, f"combat at {o.label}")
        code = self.cfg.crt_rows[roll - self.cfg.crt_first][o.column - 1]
        self._result(st, defender, tuple(attackers), code, events, o.label)

    def _result(self, st: State, defender: str, attackers: tuple, code: str, events: list, label: str = "") -> None:
        cfg = self.cfg
        res = cfg.results[code]
        rule = cite(cfg.crt_rule)
        dh = st.units[defender].hex
        defenders = [d for d in self.occupants(st).get(dh, []) if self.units[d].side == self.units[defender].side]
        events.append(Event("result", f"{code}{': ' + res.text if res.text else ''}" + (f" at {label}" if label else ""),
                            {"result": code}))
        if res.ask:
            st.pending.append({"kind": "result", "side": self.units[attackers[0]].side, "defender": defender, "attackers": list(attackers),
                               "options": [c for c, r in cfg.results.items() if not r.ask], "rule": rule})
            return
        need = sum(self.values(st, d)[1] for d in defenders)     # exchange: the defenders' printed defence
        if res.defender_eliminated or res.exchange:
            for d in defenders:
                self._eliminate(st, d, events)
        if res.attacker_eliminated:
            for a in attackers:
                self._eliminate(st, a, events)
        if res.exchange:
            # the attacker loses units, weakest first, until their attack strengths reach the defence lost
            lost = 0
            for a in sorted(attackers, key=lambda a: (self.values(st, a)[0], self.order.index(a))):
                if lost >= need or st.units[a].status != ON_MAP:
                    continue
                lost += self.values(st, a)[0]
                self._eliminate(st, a, events)
        self._steps(st, defenders, res.defender_steps, events)
        self._steps(st, list(attackers), res.attacker_steps, events)
        if res.defender_retreat:
            for d in defenders:
                if st.units[d].status == ON_MAP:
                    self._ask_retreat(st, d, res.defender_retreat, events)
        if res.attacker_retreat:
            for a in attackers:
                if st.units[a].status == ON_MAP:
                    self._ask_retreat(st, a, res.attacker_retreat, events)
        if res.advance and cfg.advance_allowed:
            st.pending.append({"kind": "advance", "side": self.units[attackers[0]].side, "hex": dh, "attackers": list(attackers), "left": cfg.advance_units})
        self._next_pending(st)

    def _next_pending(self, st: State) -> None:
        """Drop an advance that cannot happen (the hex still held, no attacker left)."""
        while st.pending and st.pending[0]["kind"] == "advance":
            p = st.pending[0]
            if not self._advance_options(st, p):
                st.pending.pop(0)
                continue
            break
        self.forget(st)

    def _advance_options(self, st: State, p: dict) -> list[str]:
        if p["left"] <= 0 or p["hex"] in self.occupants(st) and any(
                self.units[u].side != self.units[p["attackers"][0]].side for u in self.occupants(st)[p["hex"]]):
            return []
        if any(q["kind"] == "retreat" for q in st.pending):
            return ["wait"]
        return [a for a in p["attackers"] if st.units[a].status == ON_MAP and st.units[a].hex != p["hex"]
                and hex_distance(st.units[a].hex, p["hex"]) == 1 and self.stack_room(st, p["hex"], (a,))]

    def _eliminate(self, st: State, uid: str, events: list, why: str = "eliminated") -> None:
        u = st.units[uid]
        if u.status != ON_MAP:
            return
        u.status, u.hex = ELIMINATED, None
        self.forget(st)
        events.append(Event("eliminated", f"{uid} {why}", {"unit": uid}))

    def _steps(self, st: State, uids: list, n: int, events: list) -> None:
        """``n`` step losses, each taken by the unit with the most steps left (a unit's last step eliminates it)."""
        for _ in range(n):
            alive = [u for u in uids if st.units[u].status == ON_MAP]
            if not alive:
                return
            u = max(alive, key=lambda x: (self.units[x].steps - st.units[x].steps_lost, -self.order.index(x)))
            st.units[u].steps_lost += 1
            if st.units[u].steps_lost >= self.units[u].steps:
                self._eliminate(st, u, events, "eliminated (its last step lost)")
            else:
                events.append(Event("step", f"{u} loses a step", {"unit": u}))

    def retreat_options(self, st: State, uid: str, n: int) -> tuple[list[str], set[str]]:
        """Where a unit may retreat ``n`` hexes (each step further from its hex) and which of those only through an
        enemy zone of control; ``off`` when it may leave the map."""
        cfg = self.cfg
        side = self.units[uid].side
        start = st.units[uid].hex
        enemy, ezoc = self.enemy_hexes(st, side), self.enemy_zoc(st, side)
        own = self.side_hexes(st, side)
        cls = self.type_of[uid].cls
        paths = {start: False}       # hex -> only reached through an enemy ZOC
        off = False
        for i in range(n):
            nxt: dict[Hex, bool] = {}
            for h, dirty in paths.items():
                if len(self.map.neighbors[h]) < 6 and cfg.retreat_off_map == "removed":
                    off = True
                for m in self.map.neighbors[h]:
                    if hex_distance(m, start) != i + 1 or m in enemy or m in self.map.prohibited[cls]:
                        continue
                    z = m in ezoc and m not in own
                    if z and cfg.retreat_through_zoc == "no":
                        continue
                    d = dirty or z
                    nxt[m] = min(nxt.get(m, True), d)
            paths = nxt
        opts = sorted((h for h in paths if self.stack_room(st, h, (uid,))), key=lambda h: (h.q, h.r))
        out = [self.map.hex_id(h) for h in opts]
        dirty = {self.map.hex_id(h) for h in opts if paths[h]}
        if off:
            out.append("off")
        return out, dirty

    def _ask_retreat(self, st: State, uid: str, n: int, events: list) -> None:
        opts, dirty = self.retreat_options(st, uid, n)
        if not opts:
            self._eliminate(st, uid, events, f"eliminated: no retreat of {n} hex(es) ({cite(self.cfg.retreat_rule) or 'retreat'})")
            return
        st.pending.append({"kind": "retreat", "side": self.units[uid].side, "unit": uid, "hexes": n, "options": opts, "dirty": sorted(dirty)})

    def forget(self, st: State) -> None:
        st.__dict__.pop("_cache", None)

    def answer(self, st: State, action, events: list) -> None:
        p = st.pending[0]
        if p["kind"] == "result":
            if not isinstance(action, A.EnterResult) or action.result not in p["options"]:
                raise IllegalAction(p["rule"], f"enter the printed chart's result: one of {', '.join(p['options'])}")
            st.pending.pop(0)
            self._result(st, p["defender"], tuple(p["attackers"]), action.result, events)
            return
        if p["kind"] == "retreat":
            if not isinstance(action, A.Retreat) or action.unit != p["unit"] or action.to not in p["options"]:
                raise IllegalAction(cite(self.cfg.retreat_rule), f"{p['unit']} must retreat {p['hexes']} hex(es): "
                                    f"one of {', '.join(p['options'])}")
            st.pending.pop(0)
            u = st.units[p["unit"]]
            if action.to == "off":
                u.status, u.hex = REMOVED, None
                events.append(Event("retreat", f"{p['unit']} retreats off the map"))
            else:
                u.hex = self.hex(action.to)
                u.z, st.next_z = st.next_z, st.next_z + 1
                events.append(Event("retreat", f"{p['unit']} retreats to {action.to}"))
                if action.to in p["dirty"] and self.cfg.retreat_through_zoc == "step_loss":
                    self._steps(st, [p["unit"]], 1, events)
            self._next_pending(st)
            return
        opts = self._advance_options(st, p)
        if not isinstance(action, A.Advance) or (action.unit != "none" and action.unit not in opts):
            raise IllegalAction(cite(self.cfg.advance_rule), f"advance one of {', '.join(opts)} into "
                                f"{self.map.hex_id(p['hex'])}, or none")
        if action.unit == "none":
            st.pending.pop(0)
        else:
            u = st.units[action.unit]
            u.hex, u.z, st.next_z = p["hex"], st.next_z, st.next_z + 1
            p["left"] -= 1
            events.append(Event("advance", f"{action.unit} advances into {self.map.hex_id(p['hex'])}"))
        self._next_pending(st)

    # ------------------------------------------------------------ reinforcements
    def entry_hexes(self, st: State, uid: str) -> list[Hex]:
        r = self.arrives.get(uid)
        if r is not None and r.entry:
            area = self.areas.hexes(r.entry)
        else:
            dep = {u: d for d in self.scenario.deployments for u in d.units}
            area = self.areas.hexes(dep[uid].area or "all") if uid in dep else frozenset(self.map.hexes)
        side = self.units[uid].side
        bad = self.enemy_hexes(st, side) | self.enemy_zoc(st, side) | self.map.prohibited[self.type_of[uid].cls]
        return sorted((h for h in area if h not in bad and self.stack_room(st, h, (uid,))), key=lambda h: (h.q, h.r))

    def check_enter(self, st: State, uid: str, h: Hex) -> None:
        ph = self.phase(st)
        if uid not in self.units or st.units[uid].status != DUE:
            raise IllegalAction("", f"{uid} is not waiting off the map")
        r = self.arrives.get(uid)
        rule = cite(r.rule if r else "")
        if ph is None or self.units[uid].side != ph.side or not (
                "reinforce" in ph.does or ("move" in ph.does and not self._has_reinforce_phase(ph.side))):
            raise IllegalAction(rule, f"{uid} enters in its side's reinforcement phase, not in the {st.phase} phase")
        if r is not None and r.turn > st.turn:
            raise IllegalAction(rule, f"{uid} arrives on turn {r.turn} (now turn {st.turn})")
        if h not in self.entry_hexes(st, uid):
            raise IllegalAction(rule, f"{uid} may not enter at {self.map.hex_id(h)}: it enters "
                                f"{'at ' + r.entry if r and r.entry else 'in its set-up area'}, in a hex free of enemy "
                                "units and zones of control, within the stacking limit")

    def _has_reinforce_phase(self, side: str) -> bool:
        return any(p.side == side and "reinforce" in p.does for p in self.cfg.phases)

    # ------------------------------------------------------------ apply
    def apply(self, st: State, action) -> tuple[State, list[Event]]:
        if st.over:
            raise IllegalAction("", "the game is over")
        events: list[Event] = []
        if st.pending:
            new = st.copy()
            self.answer(new, action, events)
            return new, events
        if isinstance(action, A.Move):
            uid = action.unit
            to = self.hex(action.to)
            if uid in self.units and action.frm and st.units[uid].status == ON_MAP \
                    and self.hex(action.frm) != st.units[uid].hex:
                raise IllegalAction("", f"{uid} is in {self.map.hex_id(st.units[uid].hex)}, not {action.frm}")
            cost = self.check_move(st, uid, to)
            if action.via:
                cost = self.check_path(st, uid, [self.hex(x) for x in (action.frm, *action.via, action.to)])
            new = st.copy()
            u = new.units[uid]
            frm = self.map.hex_id(u.hex)
            u.hex, u.moved, u.z, new.next_z = to, True, new.next_z, new.next_z + 1
            self.forget(new)
            events.append(Event("move", f"{uid} moves {frm}-{action.to} ({cost:g} MP)", {"unit": uid, "cost": cost}))
            return new, events
        if isinstance(action, A.Enter):
            h = self.hex(action.to)
            self.check_enter(st, action.unit, h)
            new = st.copy()
            u = new.units[action.unit]
            u.hex, u.status, u.z, new.next_z = h, ON_MAP, new.next_z, new.next_z + 1
            u.moved = "move" in self.phase(st).does
            self.forget(new)
            events.append(Event("enter", f"{action.unit} enters at {action.to}", {"unit": action.unit}))
            return new, events
        if isinstance(action, A.Declare):
            o = self.check_declaration(st, action.defender, tuple(action.attackers))
            new = st.copy()
            new.battles.append(Battle(action.defender, tuple(action.attackers)))
            events.append(Event("declare", f"battle announced: {action.text()} at {o.label}", {"modifiers": o.modifiers}))
            if not self.cfg.declare_first:
                self.resolve(new, action.defender, events)
            return new, events
        if isinstance(action, A.Resolve):
            new = st.copy()
            self.resolve(new, action.defender, events)
            return new, events
        if isinstance(action, A.EndPhase):
            left = [b.defender for b in st.battles if not b.resolved]
            if left:
                raise IllegalAction(cite(self.cfg.combat_rule), f"announced battles must all be resolved: {', '.join(left)}")
            new = st.copy()
            self._end_phase(new, events)
            return new, events
        if isinstance(action, (A.Retreat, A.Advance, A.EnterResult)):
            raise IllegalAction(cite(self.cfg.retreat_rule), "there is no retreat, advance or result to decide now")
        raise IllegalAction("", f"{action.text()!r} is not an action of the classic rules")

    def _end_phase(self, st: State, events: list) -> None:
        names = [p.name for p in self.cfg.phases]
        i = names.index(st.phase)
        if i + 1 < len(names):
            st.phase = names[i + 1]
        elif st.turn >= self.scenario.last_turn:
            st.over, st.phase, st.side = True, GAME_OVER, ""
            out = self.outcome(st)
            events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}", {"breakdown": out.breakdown}))
            return
        else:
            st.turn += 1
            st.phase = names[0]
        events.append(Event("phase", f"turn {st.turn}, {st.phase} phase"))
        self._begin_phase(st, events)

    def _begin_phase(self, st: State, events: list) -> None:
        st.battles, st.resolving, st.attacked = [], False, []
        st.side = self.phase_by_name[st.phase].side
        for u in st.units.values():
            u.moved = False
        self.forget(st)
        self._supply(st)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, st: State) -> list:
        if st.over:
            return []
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "result":
                return [A.EnterResult(r) for r in p["options"]]
            if p["kind"] == "retreat":
                return [A.Retreat(p["unit"], o) for o in p["options"]]
            return [A.Advance(o) for o in self._advance_options(st, p) if o != "wait"] + [A.Advance("none")]
        out: list = []
        ph = self.phase(st)
        if "reinforce" in ph.does or ("move" in ph.does and not self._has_reinforce_phase(ph.side)):
            for uid in self.order:
                if st.units[uid].status == DUE and self.units[uid].side == ph.side and \
                        (uid not in self.arrives or self.arrives[uid].turn <= st.turn):
                    out.extend(A.Enter(uid, self.map.hex_id(h)) for h in self.entry_hexes(st, uid))
        if "move" in ph.does:
            for uid in self.order:
                if self.may_move(st, uid) is None:
                    r = self.reach(st, uid)
                    frm = self.map.hex_id(r.start)
                    out.extend(A.Move(uid, self.map.hex_id(h), frm) for h in sorted(r.destinations, key=lambda h: (h.q, h.r)))
        if "attack" in ph.does:
            if not (st.resolving and self.cfg.declare_first):
                out.extend(self.declarations(st))
            out.extend(A.Resolve(b.defender) for b in st.battles if not b.resolved)
        if not any(not b.resolved for b in st.battles):
            out.append(A.EndPhase())
        return out
