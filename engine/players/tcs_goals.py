"""What a TCS player's side must take and keep: the victory hexes, the hexes to guard and to stand in, and
the enemy-held hexes to close on (mixed into :class:`~engine.players.tcs_player.TcsPlayer`)."""
from __future__ import annotations

from ..maps.hexes import hex_distance


class TcsGoals:
    # ------------------------------------------------------------------ what the side must take and keep
    def goals(self, rules) -> tuple[set, set]:
        """(hexes to take, hexes to keep): the victory conditions' hexes and the scenario's objectives (public)."""
        if self._goals is not None:
            return self._goals
        me = self.side
        take, keep = set(), set()
        for c in getattr(rules.scenario, "conditions", ()):
            hexes = set(rules.condition_hexes.get(c.id, ()))
            if c.kind in ("occupy_all", "occupy_at_least", "occupy_any"):
                (take if c.side == me else keep).update(hexes)
            elif c.kind == "hold_fewer":
                (take if c.side != me else keep).update(hexes)
            elif c.kind == "no_units":
                # the enemy must be cleared out (BW 4: no Spanish unit in El Bastion, for the Soviets), or, for the
                # side named, a unit of its own there denies the condition: a hex to take either way
                take.update(hexes)
        for o in getattr(rules.scenario, "objectives", ()):
            take.add(rules.board.parse_hex(o.hex))
        for f in getattr(rules, "features", ()) or ():                 # Leros 5.2a: the victory features
            hexes = {rules.board.parse_hex(h) for h in f["hexes"]}
            take.update(hexes)
            keep.update(hexes)
        self._goals = (take, keep)
        return self._goals

    def guard_hexes(self, rules) -> set:
        """The victory hexes few enough to garrison: the Leros features (5.2a: a feature is the side's that occupies
        or last passed through it) and the hexes of an ``occupy_*`` condition of at most 15 hexes.  An area like
        Krasni Bor (BW 4: fewer than 50 of its hexes) is held by fighting for it, not by a unit in each hex."""
        if getattr(self, "_guard_set", None) is not None:
            return self._guard_set
        out = set()
        for c in getattr(rules.scenario, "conditions", ()):
            hexes = set(rules.condition_hexes.get(c.id, ()))
            if c.kind in ("occupy_all", "occupy_at_least", "occupy_any") and len(hexes) <= 15:
                out |= hexes
            if c.kind == "no_units" and c.side == self.side and len(hexes) <= 15:
                out |= hexes            # BW 4's El Bastion: a unit of the side named there denies the condition
        for f in getattr(rules, "features", ()) or ():
            out |= {rules.board.parse_hex(h) for h in f["hexes"]}
        self._guard_set = out
        return out

    def must_occupy(self, rules) -> set:
        """Hexes where a unit of this side must stand at the end: a ``no_units`` condition naming this side (BW 4:
        a Spanish unit in El Bastion denies the Soviets their victory)."""
        return {h for c in getattr(rules.scenario, "conditions", ()) if c.kind == "no_units" and c.side == self.side
                for h in rules.condition_hexes.get(c.id, ())}

    def _guards(self, rules, st) -> dict:
        """This phase's garrisons: unit -> the victory hex it goes to hold.  The baseline sends one unit to each hex
        where its side must stand (``must_occupy``), nothing more.  The strong player: each garrison hex with no
        enemy unit and none of its own gets the nearest unit with orders within 10 hexes when the enemy is within
        12, three when within 6 (the enemy takes an empty hex by walking in, and one step back in retakes a hex the
        enemy passed through: Leros 5.2a, BW 5.0), and a hex where its side must stand gets one whatever the
        distance.  Units attacking a hex not yet held are left to their attack."""
        key = ("guard", st.turn, st.step)
        if key in self.moded:
            return self.moded[key]
        me = self.side
        own = [k for k in rules.order if rules.specs[k].side == me and st.units[k].hex is not None]
        enemy = [u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != me]
        at: dict = {}
        for k in own:
            at.setdefault(st.units[k].hex, []).append(k)
        guard = self.guard_hexes(rules)
        must = self.must_occupy(rules)
        eh = set(enemy)
        held = {h for h in guard if h not in eh and (st.control.get(h) == me or h in at or h in must or self.strong)}
        if not self.strong:
            held &= must
        out: dict = {}
        busy = {k for h in guard if h in at for k in at[h]}          # units already on a victory hex stay there
        from ..rulesets.tcs.sight import counter

        def free(k):
            u = st.units[k]
            s = st.sheets.get(u.sheet)
            attacking = (s is not None and s.type in ("attack", "move") and s.objective
                         and any(st.control.get(o) != me for o in s.objective))
            return (k not in busy and k not in out and not attacking and not u.morale_state
                    and rules.has_orders(st, k) and not (u.mode == "fire" and u.fired) and rules.ma(st, k) > 0
                    and int(counter(rules, st, "firepower", k) or 0) > 0)
        for h in sorted(held, key=lambda h: (min((hex_distance(h, e) for e in enemy), default=99), h)):
            threat = min((hex_distance(h, e) for e in enemy), default=99)
            want = (3 if threat <= 6 else 1 if threat <= 12 or h in must else 0) if self.strong else 1
            want -= len(at.get(h, ()))
            near = sorted((hex_distance(st.units[k].hex, h), k) for k in own if free(k))
            for d, k in near[:max(0, want)]:
                if d > 10:
                    break
                out[k] = h
        self.moded[key] = out
        return out

    def open_goals(self, rules, st) -> list:
        """The victory hexes not (yet) this side's, in hex order."""
        take, keep = self.goals(rules)
        return sorted(h for h in take | keep if st.control.get(h) != self.side)
