"""Classic combat: odds or differential columns, terrain multipliers and shifts with their caps, other shifts,
the battles that may be announced."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations

from engine.maps.hexes import hex_distance

from ...errors import IllegalAction
from ..demyansk import actions as A
from .state import ON_MAP, State
from .text import cite, n_

MAX_GROUP = 6


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


class CombatMixin:
    """Combat odds and declarations of the classic rules (mixed into ClassicRules)."""

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
        total, dfs = n_(total), n_(dfs)
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
