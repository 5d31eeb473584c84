"""A TCS player's Action Phases (TCS 5-15): targets, sweeps, assault, fire and movement, each with its reason
(mixed into :class:`~engine.players.tcs_player.TcsPlayer`)."""
from __future__ import annotations

from ..maps.hexes import are_adjacent, hex_distance
from .tcs_common import _t


class TcsAction:
    # ------------------------------------------------------------------ Action Phases (TCS 5-15)
    def _orders(self, rules, st, uid):
        s = st.sheets.get(st.units[uid].sheet)
        if s is None or not s.implemented or s.side != self.side:
            return None
        return s

    def _target(self, rules, st, uid):
        """Where a unit is going: the next point of its sheet's route, else its objective (None: stays).  Kept for
        the state it was found in (a decision asks it for every move of every unit)."""
        if getattr(self, "_tc", (None,))[0] is not st:
            self._tc = (st, {})
        memo = self._tc[1]
        if uid not in memo:
            memo[uid] = self._find_target(rules, st, uid)
        return memo[uid]

    def _find_target(self, rules, st, uid):
        h = st.units[uid].hex
        g = self._guards(rules, st).get(uid)
        if g is not None:
            return None if g == h else g
        if self.strong:
            g = self._strikes(rules, st).get(uid)
            if g is not None and g in self._enemy_hexes(rules, st):
                return g
        s = self._orders(rules, st, uid)
        if s is not None and self.strong and s.type not in ("attack", "move"):
            return self._sweep(rules, st, uid, 2, retake=True)  # a defence's local counter-attack
        if s is None or s.type not in ("attack", "move") or not s.objective:
            return None
        obj = min(s.objective, key=lambda o: (hex_distance(h, o), o))
        if self.strong:
            if h in self.guard_hexes(rules) and sum(1 for k, u in st.units.items() if u.hex == h
                                                    and rules.specs[k].side == self.side) == 1:
                return None         # the last unit on a victory hex holds it (a hex is its last occupier's)
        sweep = self._sweep(rules, st, uid)
        if sweep is not None:
            return sweep
        if self.strong and hex_distance(h, obj) <= 2:
            rest = self._empty_open(rules, st) or set(self.open_goals(rules, st))
            if rest:                # the objective reached: on to the nearest hex still to take
                return min(rest, key=lambda o: (hex_distance(h, o), o))
        if hex_distance(h, obj) == 0:
            return None
        for p in s.route:
            if hex_distance(p, obj) < hex_distance(h, obj) and hex_distance(h, p) > 0:
                return p
        return obj

    def _enemy_hexes(self, rules, st) -> set:
        """The hexes holding enemy units, kept for the state they were counted in."""
        if getattr(self, "_eh", (None,))[0] is not st:
            me = self.side
            self._eh = (st, {u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != me})
        return self._eh[1]

    def _empty_open(self, rules, st) -> set:
        """The hexes to take (the strong player: and to take back) that are not this side's and hold no enemy unit:
        one step in takes them (BW 5.0, Leros 5.2a: a hex is the side's that last occupied or passed through it).
        Kept for the state it was made for."""
        if getattr(self, "_eo", (None,))[0] is not st:
            me = self.side
            enemy = self._enemy_hexes(rules, st)
            take, keep = self.goals(rules)
            hexes = take | keep if self.strong else take
            self._eo = (st, {h for h in hexes if st.control.get(h) != me and h not in enemy})
        return self._eo[1]

    def _strikes(self, rules, st) -> dict:
        """Strong player, this phase: unit -> an enemy-held hex the enemy must not stand in at the end (BW 4: no
        Spanish unit in El Bastion), for up to twelve of the nearest units with orders within 12 hexes of it: they
        close in and assault it together."""
        key = ("strike", st.turn, st.step)
        if key in self.moded:
            return self.moded[key]
        me = self.side
        hexes = {h for c in getattr(rules.scenario, "conditions", ()) if c.kind == "no_units" and c.side != me
                 for h in rules.condition_hexes.get(c.id, ())} & self._enemy_hexes(rules, st)
        out: dict = {}
        if hexes:
            guards = self._guards(rules, st)
            from ..rulesets.tcs.sight import counter
            own = [k for k in rules.order if rules.specs[k].side == me and st.units[k].hex is not None
                   and k not in guards and rules.has_orders(st, k) and not st.units[k].morale_state
                   and not (st.units[k].mode == "fire" and st.units[k].fired)
                   and int(counter(rules, st, "firepower", k) or 0) > 0]
            for h in sorted(hexes):
                near = sorted((hex_distance(st.units[k].hex, h), k) for k in own if k not in out)
                for d, k in near[:12]:
                    if d <= 12:
                        out[k] = h
        self.moded[key] = out
        return out

    def _sweep(self, rules, st, uid, reach: int = 0, retake: bool = False):
        """A unit with attack orders takes the nearest hex to take that no enemy holds and no other unit of its side
        is already sent to this phase (within 4 hexes; the baseline within 3), so an area like Krasni Bor (BW 4: the
        Axis must hold fewer than 50 of its hexes) is swept hex by hex rather than walked through in one file.
        ``retake``: only the hexes to keep the enemy passed through, within ``reach`` (a defence's counter-attack)."""
        key = ("sweep", st.turn, st.step)
        claims = self.moded.setdefault(key, {})
        empty = self._empty_open(rules, st)
        h = st.units[uid].hex
        c = claims.get(uid)
        if retake:
            empty = empty & self.goals(rules)[1]
        if c is not None and c in empty and c != h:
            return c
        claims.pop(uid, None)
        taken = set(claims.values())
        reach = reach or (4 if self.strong else 3)
        near = [g for g in empty if abs(g.q - h.q) <= reach and g not in taken and 0 < hex_distance(h, g) <= reach]
        if not near:
            return None
        g = min(near, key=lambda o: (hex_distance(h, o), o))
        claims[uid] = g
        return g

    def _step_action(self, rules, st, by):
        """An Action Phase decision built unit by unit and checked with the rules' own ``check_*`` (the same checks
        ``legal_actions`` makes), so the whole listing of every unit's every hex is not needed each time."""
        from ..errors import IllegalAction
        from ..rulesets.tcs import actions as A
        from ..rulesets.tcs.sight import counter

        key = (st.turn, st.step)
        done = self.moded.setdefault(key, set())
        idle = self.moded.setdefault(("idle",) + key, set())
        for k in [k for k in self.moded if k[-2:] != key]:        # only this phase's memory is kept
            del self.moded[k]
        side = self.side
        own = [k for k in rules.order if rules.specs[k].side == side and st.units[k].hex is not None]
        counts = self._enemy_count(rules, st)
        enemy = sorted(counts)

        memo = self.moded.setdefault(("fire",) + key, {})      # this phase's refusals of a unit's fire at a hex

        def ok(fn, a):
            if fn == rules.check_fire:
                k = (a.kind, a.units, a.target, st.units[a.units[0]].hex)
                if k not in memo:
                    try:
                        fn(st, a, side)
                        memo[k] = True
                    except IllegalAction:
                        memo[k] = False
                return memo[k]
            try:
                fn(st, a, side)
                return True
            except IllegalAction:
                return False
        # assaults: a unit in Move mode next to an enemy hex, where the odds favour it (TCS 15.0)
        cands = []
        for uid in own:
            u = st.units[uid]
            if u.mode != "move" or u.morale_state:
                continue
            for h in sorted(n for n in rules.board.neighbors(u.hex) if n in counts):
                if are_adjacent(u.hex, h):
                    a = A.Assault((uid,), rules.hid(h))
                    if ok(rules.check_assault, a):
                        cands.append(a)
        if cands and self.strong:
            strikes = self._strikes(rules, st)
            coming = {h for k, h in strikes.items() if k not in idle and st.units[k].hex is not None
                      and hex_distance(st.units[k].hex, h) > 1}
            massed = []
            for h in sorted({rules.hex(a.hex) for a in cands}):
                if h in coming:
                    continue                    # the others sent to assault it are still on their way
                group = tuple(a.units[0] for a in cands if rules.hex(a.hex) == h)
                if len(group) > 1:
                    a = A.Assault(group, rules.hid(h))
                    if ok(rules.check_assault, a):
                        massed.append(a)
            cands = [a for a in cands if rules.hex(a.hex) not in coming] + massed
        if cands:
            a = self._assault(rules, st, {"assault": cands}, counts)
            if a is not None:
                return a
        # fire: units in Fire mode, not yet fired, at enemy hexes in range that the rules accept (TCS 8.0, 9.0)
        area, point = [], []
        guards = self._guards(rules, st)
        strikes = self._strikes(rules, st) if self.strong else {}
        for uid in own:
            u = st.units[uid]
            if u.mode != "fire" or u.fired or u.morale_state or uid in idle:
                continue
            if guards.get(uid, u.hex) != u.hex or (uid in strikes and hex_distance(u.hex, strikes[uid]) > 1):
                continue                        # on its way to hold or assault a victory hex: it moves, not fires
            rng = int(counter(rules, st, "range", uid) or 0)
            near = [h for h in enemy if hex_distance(u.hex, h) <= rng]
            if not near:
                continue
            if int(counter(rules, st, "firepower", uid) or 0) > 0:
                for h in sorted(near, key=lambda h: (-self._hex_value(rules, st, h, counts), h)):
                    a = A.Fire("area", (uid,), rules.hid(h))
                    if ok(rules.check_fire, a):
                        area.append(a)
                        if not self.strong:
                            break               # the best hex this unit may fire at
            if int(counter(rules, st, "point_fire", uid) or 0) > 0:
                for h in near:
                    for k, x in st.units.items():
                        if x.hex == h and rules.specs[k].side != side:
                            a = A.Fire("point", (uid,), k)
                            if ok(rules.check_fire, a):
                                point.append(a)
        a = self._fire(rules, st, {"fire": area, "pointfire": point}, counts)
        if a is not None:
            return a
        # modes: to Move mode the units with somewhere to go, to Fire mode the others (each once a phase)
        for uid in own:
            if uid in done:
                continue
            u = st.units[uid]
            tgt = self._target(rules, st, uid)
            if u.mode == "fire" and tgt is not None and not u.fired:
                a = A.SetMode(uid, "move")
                done.add(uid)
                if ok(rules.check_mode, a):
                    self.last_reason = (f"{uid} to Move mode: " + self._why_going(rules, st, uid, tgt) + " (TCS 5.0)")
                    return a
            elif u.mode == "move" and tgt is None and not u.moved:
                a = A.SetMode(uid, "fire")
                done.add(uid)
                if ok(rules.check_mode, a):
                    self.last_reason = f"{uid} to Fire mode: it holds where it is and fires (TCS 5.0)"
                    return a
        # moves: one hex nearer the unit's target, checked by the rules (TCS 5.0; BW 1.4b wire is breached)
        moves = []
        for uid in own:
            u = st.units[uid]
            if u.mode != "move" or uid in idle:
                continue
            tgt = self._target(rules, st, uid)
            if tgt is None:
                idle.add(uid)
                continue
            found = False
            for n in rules.board.neighbors(u.hex):
                if hex_distance(n, tgt) < hex_distance(u.hex, tgt):
                    a = A.Move(uid, rules.hid(n))
                    try:
                        rules.check_move(st, uid, n, side)
                    except IllegalAction:
                        continue
                    moves.append(a)
                    found = True
            if not found:
                idle.add(uid)
        return self._move(rules, st, {"move": moves})

    def _assault(self, rules, st, by, counts):
        cands = by.get("assault", []) + by.get("overrun", [])
        if not cands:
            return None
        from ..rulesets.tcs.sight import counter

        def power(uids):
            return sum(int(counter(rules, st, "firepower", k) or 0) + 1 for k in uids)
        best, best_odds = None, 0.0
        for a in cands:
            h = rules.hex(a.hex)
            defenders = [k for k, u in st.units.items() if u.hex == h and rules.specs[k].side != self.side]
            if self.strong:
                odds = power(a.units) / max(1, power(defenders))
                need = 1.5
            else:
                odds = len(a.units) / max(1, len(defenders))
                need = 2.0
            if odds >= need and odds > best_odds:
                best, best_odds = a, odds
        if best is None:
            return None
        self.last_reason = (f"{_t(best)}: odds of {best_odds:.1f} to 1 favour the assault"
                            + (f", {len(best.units)} units together" if len(best.units) > 1 else "") + " (TCS 15.0)")
        return best

    def _fire(self, rules, st, by, counts):
        from ..rulesets.tcs import actions as A

        area = [a for a in by.get("fire", []) if a.kind == "area"]
        point = by.get("pointfire", [])
        if point:
            def pv(a):
                typ = rules.specs[a.target].type.lower()
                return (any(w in typ for w in ("tank", "t-34", "kv", "pz", "stug")), a.target, a.units)
            a = max(point, key=pv)
            self.last_reason = f"{_t(a)}: point fire at the enemy vehicle in sight (TCS 9.0)"
            return a
        if not area:
            return None

        def score(a):
            h = rules.hex(a.target)
            return (self._hex_value(rules, st, h, counts), a.target, a.units)
        a = max(area, key=score)
        if self.strong:
            group = [x.units[0] for x in area if x.target == a.target]
            if len(group) > 1:
                massed = A.Fire("area", tuple(group), a.target)
                try:
                    rules.check_fire(st, massed, self.side)
                    self.last_reason = (f"{_t(massed)}: {len(group)} units mass their fire on the best target, "
                                        f"{counts.get(rules.hex(a.target), 0)} enemy units (TCS 8.0)")
                    return massed
                except Exception:
                    pass
        self.last_reason = (f"{_t(a)}: {counts.get(rules.hex(a.target), 0)} enemy units there, "
                            f"the best target in range (TCS 8.0)")
        return a

    def _move(self, rules, st, by):
        moves = by.get("move", [])
        if not moves:
            return None
        best, best_key = None, None
        take = self.goals(rules)[0]
        for a in moves:
            tgt = self._target(rules, st, a.unit)
            if tgt is None:
                continue
            u = st.units[a.unit]
            to = rules.hex(a.to)
            gain = hex_distance(u.hex, tgt) - hex_distance(to, tgt)
            if gain <= 0:
                continue
            k = (gain, 0, a.unit, a.to)
            if self.strong:
                grab = st.control.get(to) != self.side and to in take
                k = (gain + (1 if grab else 0), -hex_distance(to, tgt), a.unit, a.to)
            if best_key is None or k > best_key:
                best, best_key = a, k
        if best is None:
            return None
        tgt = self._target(rules, st, best.unit)
        words = ""
        if getattr(rules, "game", None) is not None and hasattr(rules.game, "move_words"):
            try:
                words = rules.game.move_words(rules, st, best.unit, rules.hex(best.to))
            except Exception:
                words = ""
        self.last_reason = f"{_t(best)}: a hex nearer {rules.hid(tgt)}, " + \
            ("to hold that victory hex" if self._guard_of(st, best.unit) == tgt else
             "to take that victory hex" if self.moded.get(("sweep", st.turn, st.step), {}).get(best.unit) == tgt
             else "to assault it with the others sent there"
             if self.moded.get(("strike", st.turn, st.step), {}).get(best.unit) == tgt
             else "on its Op Sheet's way") + \
            (f"; {words}" if words else "")
        return best

    def _guard_of(self, st, uid):
        return self.moded.get(("guard", st.turn, st.step), {}).get(uid)

    def _why_going(self, rules, st, uid, tgt) -> str:
        if self._guard_of(st, uid) == tgt:
            if tgt in self.must_occupy(rules):
                return (f"it goes to stand in {rules.hid(tgt)}: a unit of its side there denies the enemy a "
                        f"victory condition")
            return f"it goes to hold {rules.hid(tgt)}, a victory hex of its side with none of its units on it"
        if self.moded.get(("sweep", st.turn, st.step), {}).get(uid) == tgt:
            return f"it goes to take {rules.hid(tgt)}, a victory hex no enemy holds, one step in"
        if self.moded.get(("strike", st.turn, st.step), {}).get(uid) == tgt:
            return (f"it closes on {rules.hid(tgt)} to assault it with the others sent there: the enemy must not "
                    f"stand there at the end")
        return f"its Op Sheet sends it toward {rules.hid(tgt)}"
