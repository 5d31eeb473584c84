"""TCS assaults and overruns (TCS 15.0); a part of :class:`~engine.rulesets.tcs.rules.TcsRules`."""
from __future__ import annotations

from ...errors import IllegalAction
from ...maps.hexes import Hex, are_adjacent
from . import actions as A
from .proc import chart_value
from .procs import firepower_of
from .sight import movement_cost, terrain_key
from .state import OK


class AssaultRules:
    """The assault part of ``TcsRules`` (TCS 15.0)."""

    def assault_defence_firepower(self, st, ctx, units: list[str]) -> int:
        """The defenders' fire in an assault: their firepower (TCS 15.0; games change it, Leros 3.6i)."""
        return firepower_of(self, st, ctx, units)

    def check_assault(self, st, a: A.Assault, side: str) -> Hex:
        h = self.hex(a.hex)
        if not any(v.hex == h and self.specs[k].side != side for k, v in st.units.items()):
            raise IllegalAction("TCS 15.0", f"there is no enemy unit in {a.hex}")
        if a.overrun and (len(a.units) != 1 or not self.specs.get(a.units[0]) or not self.can_overrun(st, a.units[0])):
            raise IllegalAction("TCS 15.0", "an overrun is made by one vehicle (or a unit the game lets overrun: "
                                            "BW 2.6 mounted cavalry)")
        if a.overrun:
            cls = chart_value(self, st, "tcs.terrain.combat", (terrain_key(self.board, h),))
            if cls not in ("Open", "Billiard"):
                raise IllegalAction("TCS 15.0", f"vehicles overrun only Open hexes, not {cls}")
        for uid in a.units:
            u = self._own(st, uid, side)
            if self.game is not None:
                self.game.check(self.game.assault_problem(self, st, uid, a.overrun))
            if u.mode != "move" or u.morale_state != OK or u.fired:
                raise IllegalAction("TCS 15.0", f"{uid} must be in Move mode, unsuppressed and not yet in combat")
            if not are_adjacent(u.hex, h):
                raise IllegalAction("TCS 15.0", f"{uid} is not adjacent to {a.hex}")
            if not self.has_orders(st, uid):
                raise IllegalAction("TCS 6.0", f"{uid} has no implemented Op Sheet to carry out")
            if a.overrun:
                cost, why = movement_cost(self, st, uid, u.hex, h)
                if cost is None:
                    raise IllegalAction("TCS 5.0", why)
                if u.mp_used + cost + self.options["overrun_mp"] > self.ma(st, uid):
                    raise IllegalAction("TCS 15.0", f"{uid} lacks the MPs for an overrun")
        return h

    def can_overrun(self, st, uid: str) -> bool:
        """Whether a unit may overrun: a vehicle (TCS 15.0), or a unit the game lets (BW 2.6: mounted cavalry)."""
        if self.specs[uid].vehicle:
            return True
        return self.game is not None and hasattr(self.game, "overruns") and self.game.overruns(self, st, uid)

    def _do_assault(self, st, a: A.Assault, side, events) -> None:
        self.check_assault(st, a, side)
        if a.overrun:                     # the overrun's cost and the hex's own (TCS 15.0; overrun_mp is data)
            u = st.units[a.units[0]]
            cost, _why = movement_cost(self, st, a.units[0], u.hex, self.hex(a.hex))
            u.mp_used += self.options["overrun_mp"] + cost
        self._run(st, "assault", {"units": list(a.units), "hex": a.hex, "overrun": a.overrun}, [], events, False)
