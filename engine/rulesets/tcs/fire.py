"""TCS direct fire (TCS 8.0, 9.0, 12.0): area fire, SFAs, point fire and who may fire overwatch; a part of
:class:`~engine.rulesets.tcs.rules.TcsRules`."""
from __future__ import annotations

from ...errors import IllegalAction
from ...maps.hexes import Hex, hex_distance
from . import actions as A
from .proc import chart_value
from .sight import counter, spotted_hexes, spotters
from .state import OK


class FireRules:
    """The direct fire part of ``TcsRules`` (TCS 8.0, 9.0, 12.0)."""

    def may_fire_sfa(self, st, uid: str) -> bool:
        """Whether a unit may fire an SFA: unassigned units may not (TCS 6.0; games add exceptions)."""
        u = st.units[uid]
        return bool(u.sheet and u.sheet in st.sheets)

    def overwatchers(self, st, mover: str, h: Hex) -> list[str]:
        """Enemy units that may fire overwatch at a unit entering ``h`` (TCS 12.0): in Fire mode, unsuppressed,
        not yet fired this phase, in range, and spotting it."""
        side = self.specs[mover].side
        values: dict = {}

        def value(slot: str, typ: str) -> int:
            if (slot, typ) not in values:
                values[slot, typ] = int(chart_value(self, st, f"tcs.counter.{slot}", (typ,)) or 0)
            return values[slot, typ]
        cands = []
        for k, u in st.units.items():
            spec = self.specs[k]
            if u.hex is None or spec.side == side or u.mode != "fire" or u.morale_state != OK or u.fired or spec.fo:
                continue
            if hex_distance(u.hex, h) <= value("range", spec.type) and \
                    (value("firepower", spec.type) or value("point_fire", spec.type)):
                if self.game is not None and self.game.fire_problem(self, st, u.hex, h):
                    continue                  # BW 1.1f: no overwatch into or out of the Mill
                cands.append(k)
        if cands and self.game is not None and hasattr(self.game, "overwatch_candidates"):
            cands = self.game.overwatch_candidates(self, st, mover, h, cands)     # BW 1.3c
        return sorted(spotters(self, st, mover, h, "", cands)) if cands else []

    def check_fire(self, st, a: A.Fire, side: str) -> Hex:
        units = list(a.units)
        if a.kind == "point":
            if len(units) != 1 or a.target not in self.specs or st.units[a.target].hex is None \
                    or self.specs[a.target].side == side:
                raise IllegalAction("TCS 9.0", "point fire: one unit at one enemy unit on the map")
            h = st.units[a.target].hex
        else:
            h = self.hex(a.target)
            if not any(v.hex == h and self.specs[k].side != side for k, v in st.units.items()):
                raise IllegalAction("TCS 8.0", f"there is no enemy unit in {a.target}")
        if len(set(units)) != len(units):
            raise IllegalAction("TCS 8.0", "a unit fires once")
        for uid in units:
            u = self._own(st, uid, side)
            if u.mode != "fire":
                raise IllegalAction("TCS 5.0", f"{uid} is in Move mode; only units in Fire mode fire")
            if u.morale_state != OK:
                raise IllegalAction("TCS 13.0", f"{uid} is {u.morale_state} and cannot fire")
            if u.fired:
                raise IllegalAction("TCS 8.0", f"{uid} has fired this phase")
            if self.game is not None:
                self.game.check(self.game.fire_problem(self, st, u.hex, h, uid, a.kind))
            if a.kind == "sfa" and not self.may_fire_sfa(st, uid):
                raise IllegalAction("TCS 6.0", f"{uid} is unassigned: unassigned units may not fire SFAs")
            rng = int(counter(self, st, "range", uid) or 0)
            d = hex_distance(u.hex, h)
            if d > rng:
                raise IllegalAction("TCS 8.0", f"{self.hid(h)} is {d} hexes from {uid}, beyond its range of {rng} "
                                               f"({d} > {rng})")
            if a.kind == "point":
                if int(counter(self, st, "point_fire", uid) or 0) <= 0:
                    raise IllegalAction("TCS 9.0", f"{uid} has no point fire")
                if uid not in spotters(self, st, a.target, h, side, [uid]):
                    from .explain import unseen_reason
                    raise IllegalAction("TCS 11.0", f"{uid} does not spot {a.target}: "
                                                    + unseen_reason(self, st, uid, h, side))
            else:
                if int(counter(self, st, "firepower", uid) or 0) <= 0:
                    raise IllegalAction("TCS 8.0", f"{uid} has no area firepower")
                if h not in spotted_hexes(self, st, side, uid):
                    from .explain import unseen_reason
                    raise IllegalAction("TCS 11.0", f"{uid} spots no enemy unit in {a.target}: "
                                                    + unseen_reason(self, st, uid, h, side))
        return h

    def _do_fire(self, st, a: A.Fire, side, events) -> None:
        h = self.check_fire(st, a, side)
        if a.kind == "point":
            self._run(st, "point_fire", {"unit": a.units[0], "target": a.target}, [], events, False)
            return
        if a.kind == "sfa":
            st.sfa_hexes.append(h)
        self._run(st, "area_fire", {"units": list(a.units), "hex": self.hid(h), "sfa": a.kind == "sfa"}, [], events, False)
