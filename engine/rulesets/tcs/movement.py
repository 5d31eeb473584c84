"""TCS movement (TCS 5.0): modes, movement allowance, stacking, one-hex moves and their paths, exits (BW 5.0)
and reinforcements' arrival; a part of :class:`~engine.rulesets.tcs.rules.TcsRules`."""
from __future__ import annotations

from fractions import Fraction

from ...errors import IllegalAction
from ...game import Event
from ...maps.hexes import Hex, are_adjacent
from . import actions as A
from .sight import counter, movement_cost
from .state import PARALYZED, State, UnitState


class MovementRules:
    """The movement part of ``TcsRules`` (TCS 5.0, reinforcements)."""

    def _own(self, st, uid: str, side: str) -> UnitState:
        if uid not in self.specs or self.specs[uid].side != side or st.units[uid].hex is None:
            raise IllegalAction("TCS sequence of play", f"{uid} is not a unit of {side} on the map")
        return st.units[uid]

    def ma(self, st, uid: str) -> Fraction:
        """A unit's movement allowance: its counter's, unless the game gives it one (BW 1.11a: towed guns, 8)."""
        if self.game is not None and hasattr(self.game, "movement_allowance"):
            ma = self.game.movement_allowance(self, st, uid)
            if ma is not None:
                return Fraction(ma)
        return Fraction(int(counter(self, st, "movement", uid) or 0))

    def _ma(self, st, uid: str) -> Fraction:
        """``ma``, read once per unit inside a listing (it depends on the state alone)."""
        memo = self.scope_memo(st)
        if memo is None:
            return self.ma(st, uid)
        key = ("ma", uid)
        if key not in memo:
            memo[key] = self.ma(st, uid)
        return memo[key]

    def check_mode(self, st, a: A.SetMode, side: str) -> None:
        u = self._own(st, a.unit, side)
        if a.mode not in ("move", "fire") or a.mode == u.mode:
            raise IllegalAction("TCS 5.0", f"{a.unit} is in {u.mode} mode; modes are move and fire")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{a.unit} is paralyzed and cannot change mode")
        if u.fired:
            raise IllegalAction("TCS 5.0", f"{a.unit} has fired this phase")
        if a.mode == "move" and u.mp_used + self._ma(st, a.unit) / 2 > self._ma(st, a.unit):
            raise IllegalAction("TCS 5.0", f"{a.unit} has not half its movement allowance left to enter Move mode")

    def _do_setmode(self, st, a: A.SetMode, side, events) -> None:
        self.check_mode(st, a, side)
        u = st.units[a.unit]
        if a.mode == "move":
            u.mp_used += self.ma(st, a.unit) / 2          # 3.1: entering Move Mode costs half the MPs
        u.mode = a.mode
        events.append(Event("mode", f"{a.unit} to {a.mode} mode"))

    def scope_memo(self, st) -> dict | None:
        """The memo of the listing that reads ``st`` now, or None outside a listing (or for another state)."""
        sc = self._scope
        return sc[1] if sc is not None and sc[0] is st else None

    def occupancy(self, st) -> dict:
        """Hex -> the units in it, in the state's order (an index legality checks share; built per query)."""
        memo = self.scope_memo(st)
        if memo is not None and "occ" in memo:
            return memo["occ"]
        at: dict = {}
        for k, u in st.units.items():
            if u.hex is not None:
                at.setdefault(u.hex, []).append(k)
        return at

    def units_at(self, st, h: Hex) -> list[str]:
        """The units in hex ``h``: from the listing's index, or by one pass over the units."""
        memo = self.scope_memo(st)
        if memo is not None and "occ" in memo:
            return memo["occ"].get(h, [])
        return [k for k, u in st.units.items() if u.hex == h]

    def stack_problem(self, st, uid: str, h: Hex) -> str:
        units = [k for k in self.units_at(st, h) if k != uid and not self.specs[k].fo]
        if self.specs[uid].fo:
            return ""
        if len(units) + 1 > self.options["stacking_units"]:
            return f"{self.hid(h)} would hold more than {self.options['stacking_units']} units (stacking limit)"
        veh = [k for k in units if self.specs[k].vehicle]
        if self.specs[uid].vehicle and len(veh) + 1 > self.options["stacking_vehicles"]:
            return f"{self.hid(h)} would hold more than {self.options['stacking_vehicles']} vehicles (stacking limit)"
        return ""

    def check_move(self, st, uid: str, to: Hex, side: str) -> Fraction:
        u = self._own(st, uid, side)
        if self.game is not None and to in self.board and are_adjacent(u.hex, to):
            self._game_move(st, uid, to)
        if u.mode != "move":
            if self.game is not None and hasattr(self.game, "fire_mode_move") and to in self.board \
                    and are_adjacent(u.hex, to):
                return self.game.fire_mode_move(self, st, uid, to)       # BW 1.1e man-handling (or refused)
            raise IllegalAction("TCS 5.0", f"{uid} is in Fire mode; only units in Move mode move")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{uid} is paralyzed")
        if not self.has_orders(st, uid):
            raise IllegalAction("TCS 6.0", f"{uid} has no implemented Op Sheet to carry out")
        if to not in self.board or not are_adjacent(u.hex, to):
            raise IllegalAction("TCS 5.0", f"{uid} moves one hex at a time, to a neighbour of {self.hid(u.hex)}")
        if any(self.specs[k].side != side for k in self.units_at(st, to)):
            raise IllegalAction("TCS 5.0", f"{self.hid(to)} holds enemy units (assault or overrun it)")
        cost, why = movement_cost(self, st, uid, u.hex, to)
        if cost is None:
            raise IllegalAction("TCS 5.0", why)
        if self.game is not None:
            cost = self.game.move_cost(self, st, uid, to, cost)
        if u.mp_used + cost > self._ma(st, uid):
            raise IllegalAction("TCS 5.0", f"{uid} has {self.ma(st, uid) - u.mp_used} MPs left; {self.hid(to)} costs {cost}")
        why = self.stack_problem(st, uid, to)
        if why:
            raise IllegalAction("TCS stacking (game data)", why)
        return cost

    def destinations(self, st, uid: str):
        """Where a unit can move on now with the MPs it has left, at what cost by the cheapest legal path, and why
        each neighbour it cannot enter is refused (``paths.Reach``; TCS 5.0)."""
        from .paths import reach
        return reach(self, st, uid)

    def cheapest_path(self, st, uid: str, to: Hex) -> list[Hex]:
        """The cheapest legal path of hexes from the unit to ``to`` (TCS 5.0); IllegalAction if there is none."""
        from .paths import cheapest_path
        return cheapest_path(self, st, uid, to)

    def check_path(self, st, uid: str, path) -> Fraction:
        """The MPs a path of hexes costs the unit (its own hex first), or IllegalAction with the first refusal."""
        from .paths import check_path
        return check_path(self, st, uid, list(path))

    def _game_move(self, st, uid: str, to: Hex) -> None:
        if self.game is not None:
            self.game.check(self.game.move_problem(self, st, uid, to))

    def has_orders(self, st, uid: str) -> bool:
        """Whether a unit may move and assault: an implemented Op Sheet (TCS 6.0; games add exceptions)."""
        u = st.units[uid]
        return bool(u.sheet and u.sheet in st.sheets and (st.sheets[u.sheet].implemented
                                                          or st.marks.get("started " + u.sheet)))   # BW 2.1e

    def _do_move(self, st, a: A.Move, side, events) -> None:
        to = self.hex(a.to)
        cost = self.check_move(st, a.unit, to, side)
        u = st.units[a.unit]
        frm = u.hex
        u.hex, u.mp_used, u.moved = to, u.mp_used + cost, True
        if self.game is not None:
            self.game.after_move(self, st, a.unit, frm, to)
        self._take(st, to, side)
        events.append(Event("move", f"{a.unit} moves to {a.to} ({cost} MP)", {"unit": a.unit, "to": a.to}))
        self._run(st, "overwatch", {"mover": a.unit, "hex": a.to}, [], events, False)

    def check_exit(self, st, uid: str, side: str) -> None:
        """BW 5.0 "exiting": a unit in Move mode with orders, in a map-edge hex, pays 1 MP to leave the map; only
        in scenarios whose victory counts exits."""
        u = self._own(st, uid, side)
        if not self.exits:
            raise IllegalAction("BW 5.0", "no victory condition of this scenario counts units leaving the map")
        if u.mode != "move" or u.morale_state == PARALYZED or not self.has_orders(st, uid):
            raise IllegalAction("BW 5.0", f"{uid} must be in Move mode, not paralyzed, carrying out an Op Sheet")
        if len(self.board.neighbors(u.hex)) == 6:
            raise IllegalAction("BW 5.0", f"{self.hid(u.hex)} is not on the map edge: units exit from the edge hexrow")
        if u.mp_used + 1 > self.ma(st, uid):
            raise IllegalAction("BW 5.0", f"{uid} has not the 1 MP leaving the map costs")

    def _do_exit(self, st, a: A.Exit, side, events) -> None:
        self.check_exit(st, a.unit, side)
        u = st.units[a.unit]
        st.marks["exited " + a.unit] = self.hid(u.hex)
        events.append(Event("exit", f"{a.unit} leaves the map from {self.hid(u.hex)} (BW 5.0)", {"unit": a.unit}))
        u.hex, u.mp_used = None, u.mp_used + 1
        if self.game is not None and hasattr(self.game, "after_exit"):
            self.game.after_exit(self, st, events)                                      # BW 1.10h

    def _take(self, st, h: Hex, side: str) -> None:
        if h in self.tracked:
            st.control[h] = side
        flag = f"trench:{side}"
        if h in self.trench and flag not in st.flags:      # BW 3.3a, 3.5: the first unit to enter a trench hex
            st.flags.append(flag)

    def arrive(self, st: State, events: list) -> None:
        """Reinforcements due by this turn's clock (or released) enter through their entry area: each takes the
        first hex of it, in hex order, with room under the stacking limit; a unit finding no room waits a turn."""
        now = self.turns[st.turn].when
        from .clock import parse_clock
        for clock, side, calibre, kind, n in self.scenario.ammo_arrivals:     # BW 2.3c, 3.2c
            if n and parse_clock(clock, self.scenario.year) == now:
                key = f"{side}|{calibre}|{kind}"
                st.ammo[key] = st.ammo.get(key, 0) + n
                events.append(Event("ammo", f"{side} receives {n} {kind} rounds of {calibre} ({clock})"))
        at = None                 # hex -> units, built when a unit first looks for room
        # (entry, side, fo, vehicle) -> how many of the entry's first hexes have no room for such a unit: units only
        # arrive here, so a hex with no room stays so and the next unit of the kind looks on from there
        blocked: dict = {}
        for uid in [k for k in self.order if k in st.waiting]:
            due = st.waiting[uid]
            if due.startswith("release "):
                if due[8:] not in st.released:
                    continue
            elif parse_clock(due, self.scenario.year) > now:
                continue
            if at is None:
                at = self.occupancy(st)
            spec = self.specs[uid]
            kind = (spec.entry, spec.side, spec.fo, spec.vehicle)
            hexes = self.entries[uid]
            spot = None
            saved, self._scope = self._scope, (st, {"occ": at})
            try:
                prefix = True
                for i in range(blocked.get(kind, 0), len(hexes)):
                    h = hexes[i]
                    full = bool(self.stack_problem(st, uid, h)) or any(self.specs[k].side != spec.side
                                                                       for k in at.get(h, ()))
                    closed = self.game is not None and hasattr(self.game, "entry_closed") \
                        and self.game.entry_closed(self, st, h)                          # BW 1.10h
                    if not full and not closed:
                        spot = h
                        break
                    prefix = prefix and full          # only a full hex surely stays so while units arrive
                    if prefix:
                        blocked[kind] = i + 1
            finally:
                self._scope = saved
            if spot is None:
                continue
            st.units[uid].hex = spot
            at.setdefault(spot, []).append(uid)
            st.units[uid].mode = "move"
            del st.waiting[uid]
            events.append(Event("arrive", f"{uid} enters at {self.hid(spot)} ({self.specs[uid].entry})",
                                {"unit": uid, "hex": self.hid(spot)}))
