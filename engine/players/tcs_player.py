"""The computer players of the Tactical Combat Series (Black Wednesday, Leros): a baseline and a strong player.

Both choose only among ``rules.legal_actions`` (plus Op Sheets they write themselves and the engine checks with
``check_new_sheet``), so they never do what the rules forbid, and they read only what a player at the table may
read: their own side's Op Sheets, the units on the map, the scenario's victory conditions and objectives, the
enemy hexes their units spot (the fire and mission offers hold only those).  The enemy's Op Sheets, plotted
barrages and planned drop zones are never looked at.

Each decision leaves one line in ``last_reason`` ("fire 1-A at B05.04: 3 enemy units, the most in range").

- Command Phase (TCS 6.0): complete a sheet whose objective its units hold; implement every sheet that may be;
  roll reserves; add free units to an implemented sheet of their formation; write a new sheet for a formation's
  free units toward the nearest victory hex the side must take (``attack``) or keep (``hasty_defense``), with a
  straight route.
- Aircraft & Artillery (TCS 18, 25): an air strike on the largest spotted enemy stack; a fire mission of each
  battery on the largest spotted stack away from its own units; BW 4.7's plotted fire likewise.
- Action Phases (TCS 5-15): assault where the odds favour it, fire at the best target in range, then units with
  orders to go somewhere change to Move mode and walk toward their objective (a wire hex on the way is breached,
  BW 1.4b), the others stay in Fire mode.  Units with attack orders sweep the empty hexes to take within 3, each
  to a different hex (a hex is the side's that last passed through it: BW 5.0, Leros 5.2a), and one unit goes to
  stand in each hex where a unit of its side denies the enemy a condition (BW 4's El Bastion).
- The games' own decisions (Leros boats, landings, parachute flights, naval gunfire; BW's Prep Log and
  commissars) are taken from the legal offers by the same scoring: toward the objectives, at the enemy.

The strong player differs where it pays: fire is massed (every unit in range of the chosen hex fires at it
together), targets are weighed by the victory hexes they stand on, assaults are judged by the firepower on each
side and made by every unit next to the hex together, moves prefer the victory hexes still to be taken, and
missions avoid hexes next to its own units.  It garrisons its empty victory hexes when the enemy comes near and
walks back into those the enemy passed through (Leros 3's Mt. Meraviglia, Rachi Ridge), sends a dozen units to
close on and assault an enemy-held hex the enemy must leave (El Bastion), sweeps within 4 hexes and goes on past
a taken objective rather than completing its sheet while hexes to take lie empty (a new sheet waits on its
prep roll, TCS 6.9), lets its defence units counter-attack hexes to keep within 2, and adds no unit to an attack
away from every victory hex.
"""
from __future__ import annotations

from ..maps.hexes import are_adjacent, hex_distance, hex_linedraw

BASELINE, STRONG = "baseline", "strong"
STRONG_OPTIONS: dict[str, type] = {"budget": float}     # the window's thinking limit: each decision here takes less


def _t(a) -> str:
    return a.text() if hasattr(a, "text") else str(a)


def _verb(a) -> str:
    return _t(a).split(" ", 1)[0]


class TcsPlayer:
    """A TCS player for one side; ``level`` is "baseline" or "strong"."""

    def __init__(self, side: str, level: str = BASELINE, cancel=None):
        self.side, self.level, self.cancel = side, level, cancel
        self.last_reason = ""
        self.moded: dict = {}            # (turn, step) -> units whose mode this player set in that phase
        self._goals = None

    def fork(self) -> "TcsPlayer":
        p = TcsPlayer(self.side, self.level, self.cancel)
        p.moded = {k: type(v)(v) for k, v in self.moded.items()}
        p._goals = self._goals
        return p

    @property
    def strong(self) -> bool:
        return self.level == STRONG

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

    # ------------------------------------------------------------------ the decision
    def choose(self, rules, st):
        if st.pending:
            return self._pending(rules, st)
        if rules.current(st)[1] == "action" and not (
                rules.game is not None and hasattr(rules.game, "before_play_offers")
                and rules.game.before_play_offers(rules, st)):
            saved, rules._scope = rules._scope, (st, {"occ": rules.occupancy(st)})   # as legal_actions scopes
            try:
                a = self._step_action(rules, st, {})
            finally:
                rules._scope = saved
            if a is not None:
                return a
            from ..rulesets.tcs.actions import End
            self.last_reason = "no unit has a fire, an assault or a move worth making: the phase ends"
            return End()
        legal = rules.legal_actions(st)
        if not legal:
            raise ValueError("the game offers no action")
        phase, step, _ = rules.current(st)
        if len(legal) == 1 and step != "create":            # a sheet the listing does not offer may be written
            self.last_reason = "nothing else to do in this step"
            return legal[0]
        by: dict[str, list] = {}
        for a in legal:
            by.setdefault(_verb(a), []).append(a)
        for verb in ("preplog",):
            if verb in by:
                self.last_reason = "the Prep Log as the scenario sets it out (BW 1.10b): the first Program offered"
                return by[verb][0]
        handler = getattr(self, f"_step_{step}", None)
        if handler is not None:
            a = handler(rules, st, by)
            if a is not None:
                return a
        a = self._special(rules, st, by)
        if a is not None:
            return a
        self.last_reason = f"nothing worth doing left in this step ({rules.step_title(phase, step, self.side)})"
        return by["end"][0]

    # ------------------------------------------------------------------ pending questions
    def _pending(self, rules, st):
        legal = rules.legal_actions(st)
        p = st.pending[0]
        if p["kind"] == "chart":
            self.last_reason = "a printed result the owner's chart lacks: the first of the chart's results"
            return legal[0]
        what, options = p["what"], list(p["options"])
        pick = options[0]
        why = "the first option"
        if what == "initiative" and self.side in options:
            pick, why = self.side, "it takes the initiative to act first"
        elif what == "overwatch":
            fire = [o for o in options if o != "pass"]
            if fire:
                pick, why = fire[0], "overwatch fire at the unit moving in the open"
            else:
                pick, why = "pass", "no overwatch fire is open"
        elif what == "retreat":
            enemy = [u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != self.side]

            def safety(o):
                try:
                    h = rules.hex(o)
                except Exception:
                    return (0, o)
                return (-min((hex_distance(h, e) for e in enemy), default=99), o)
            pick = min(options, key=safety)
            why = "the retreat hex farthest from the enemy"
        elif what in ("commissar",):
            pick = next((o for o in options if o in ("yes", "shoot", "execute", "rally")), options[0])
            why = "the commissar steadies the unit (BW)"
        elif what == "drift":
            why = "the drift the rules offer first"
        for a in legal:
            if getattr(a, "value", None) == pick:
                self.last_reason = f"{what}: {pick}, {why}"
                return a
        self.last_reason = f"{what}: {_t(legal[0])}, the first answer offered"
        return legal[0]

    # ------------------------------------------------------------------ Command Phase (TCS 6.0)
    def _mine(self, st):
        return [s for s in st.sheets.values() if s.side == self.side]

    def _step_review(self, rules, st, by):
        for a in by.get("complete", []):
            s = st.sheets[a.sheet]
            alive = [u for u in s.units if st.units.get(u) and st.units[u].hex is not None]
            if not alive:
                self.last_reason = f"complete {s.id}: none of its units is left (TCS 6.10)"
                return a
            if self.strong and s.implemented and s.type == "attack" and self._empty_open(rules, st):
                continue    # its units sweep on under these orders: a new sheet would wait on the prep roll (6.9)
            if s.implemented and s.type in ("attack", "move") and s.objective and \
                    all(st.control.get(h) == self.side for h in s.objective):
                self.last_reason = f"complete {s.id}: its objective is taken, a new sheet will go further (TCS 6.10)"
                return a
        return None

    def _step_implement(self, rules, st, by):
        if by.get("implement"):
            a = by["implement"][0]
            self.last_reason = f"implement {a.sheet}: roll on the Command Prep Table (TCS 6.9)"
            return a
        return None

    def _step_reserve(self, rules, st, by):
        if by.get("reserve"):
            a = by["reserve"][0]
            self.last_reason = f"reserve check for {a.sheet} (TCS 6.11)"
            return a
        return None

    def _step_add(self, rules, st, by):
        for a in by.get("assign", []):
            s = st.sheets.get(a.sheet)
            if s is None or not s.implemented:
                continue
            if s.type in ("attack", "move") and s.objective and all(st.control.get(h) == self.side for h in s.objective):
                continue                    # its objective is taken: the unit waits for a new sheet going further
            if self.strong and s.type not in ("attack", "move") and self.open_goals(rules, st):
                continue                    # victory hexes still to take: a new attack sheet, not a defence
            if self.strong and s.type in ("attack", "move") and s.objective and \
                    not set(s.objective) & (self.goals(rules)[0] | self.goals(rules)[1]):
                continue                    # an attack away from every victory hex: the unit waits for a sheet
            self.last_reason = f"assign {a.unit} to {a.sheet}: a free unit joins its formation's orders (TCS 6.7)"
            return a
        return None

    def _step_create(self, rules, st, by):
        from ..rulesets.tcs import actions as A

        own = [k for k in rules.order if rules.specs[k].side == self.side and st.units[k].hex is not None]
        goals = self.open_goals(rules, st)
        take, keep = self.goals(rules)
        for f in rules.scenario.formations.values():
            if f.side != self.side:
                continue
            free = [u for u in own if rules.specs[u].formation == f.id and not st.units[u].sheet]
            if not free:
                continue
            start = st.units[free[0]].hex
            if goals:
                obj = min(goals, key=lambda h: (hex_distance(start, h), h))
                kind = "attack"
            elif keep:
                obj = min(keep, key=lambda h: (hex_distance(start, h), h))
                kind = "hasty_defense"
            else:
                continue
            line = tuple(rules.hid(h) for h in hex_linedraw(start, obj) if h in rules.board)
            route = line[:: max(1, len(line) // 4)]                 # a few points of the straight line
            if not route or route[-1] != rules.hid(obj):
                route += (rules.hid(obj),)
            sid = f"OS{st.next_id}"
            for t in (kind, "attack", "hasty_defense", "move"):
                a = A.NewSheet(sid, t, f.id, tuple(free), (rules.hid(obj),), route)
                try:
                    rules.check_new_sheet(st, a, self.side)
                except Exception:
                    continue
                held = "to take" if obj in goals else "to keep"
                self.last_reason = (f"Op Sheet {sid} ({t}) for {f.id}: {len(free)} free units toward {rules.hid(obj)}, "
                                    f"the nearest victory hex {held} (TCS 6.8)")
                return a
        if by.get("opsheet"):
            a = by["opsheet"][0]
            self.last_reason = f"Op Sheet {a.sheet} ({a.type}) for {a.formation}: the sheet the rules offer (TCS 6.8)"
            return a
        return None

    # ------------------------------------------------------------------ Aircraft & Artillery (TCS 18, 25)
    def _enemy_count(self, rules, st) -> dict:
        out: dict = {}
        for k, u in st.units.items():
            if u.hex is not None and rules.specs[k].side != self.side:
                out[u.hex] = out.get(u.hex, 0) + 1
        return out

    def _own_hexes(self, rules, st) -> set:
        return {u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side == self.side}

    def _hex_value(self, rules, st, h, counts) -> float:
        v = counts.get(h, 0)
        if self.strong:
            take, keep = self.goals(rules)
            if h in take or h in keep:
                v += 1.5
        return v

    def _step_sorties(self, rules, st, by):
        counts = self._enemy_count(rules, st)
        best = max(by.get("airstrike", []), key=lambda a: (counts.get(rules.hex(a.hex), 0), a.hex), default=None)
        if best is not None:
            self.last_reason = f"air strike on {best.hex}: {counts.get(rules.hex(best.hex), 0)} enemy units (TCS 25.0)"
        return best

    def _step_missions(self, rules, st, by):
        counts = self._enemy_count(rules, st)
        mine = self._own_hexes(rules, st)
        for verb in ("plot", "naval"):
            if by.get(verb):
                def val(a):
                    hs = [rules.hex(x) for x in (getattr(a, "hexes", None) or (a.hex,))]
                    return (sum(counts.get(h, 0) for h in hs), _t(a))
                a = max(by[verb], key=val)
                if val(a)[0] > 0 or verb == "naval":
                    self.last_reason = f"{_t(a)}: plotted on the enemy ({val(a)[0]} units in its hexes)"
                    return a
        cands = [a for a in by.get("mission", []) if a.ammo == "he"]
        if not cands:
            return None
        used = set(st.batteries_used) | {m.battery for m in st.missions}

        def score(a):
            h = rules.hex(a.hex)
            v = self._hex_value(rules, st, h, counts)
            if self.strong and any(are_adjacent(h, m) or h == m for m in mine):
                v -= 10                                 # a scatter would fall on its own units
            return (v, a.hex, a.battery)
        cands = [a for a in cands if a.battery not in used]
        if not cands:
            return None
        a = max(cands, key=score)
        if score(a)[0] <= 0:
            return None
        self.last_reason = (f"fire mission of {a.battery} on {a.hex} spotted by {a.spotter}: "
                            f"{counts.get(rules.hex(a.hex), 0)} enemy units there (TCS 18.0)")
        return a

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

    # ------------------------------------------------------------------ the games' own actions
    def _special(self, rules, st, by):
        """Leros boats, landings, flights and naval gunfire; BW's own offers (mounting tanks)."""
        goals = self.open_goals(rules, st)

        def near_goal(h):
            return min((hex_distance(h, g) for g in goals), default=0)
        for verb in ("embark", "plan"):
            if by.get(verb):
                def where(a):
                    z = getattr(a, "lz", None) or getattr(a, "dz", None)
                    try:
                        return (near_goal(rules.hex(z)), _t(a))
                    except Exception:
                        return (99, _t(a))
                a = min(by[verb], key=where)
                what = "landing zone" if verb == "embark" else "drop zone"
                self.last_reason = f"{_t(a)}: the {what} nearest the objectives (Leros 2.0, 3.0)"
                return a
        for verb in ("takeoff", "request", "demand"):
            if by.get(verb):
                a = by[verb][0]
                self.last_reason = f"{_t(a)}: the flight or support the game offers now (Leros)"
                return a
        return None


def strong_for(rules, side: str, cancel=None, **options):
    """The strong TCS player for ``side`` as a function of the state (the contract of ``engine.computer``)."""
    return _for(rules, side, STRONG, cancel, options)


def baseline_for(rules, side: str, **options):
    return _for(rules, side, BASELINE, None, options)


def _for(rules, side, level, cancel, options):
    from ..computer import chooser

    if getattr(rules, "name", "") != "tcs":
        raise ValueError(f"this player knows the Tactical Combat Series only, not the {getattr(rules, 'name', '?')} rules")
    if side not in rules.side_ids:
        raise ValueError(f"the scenario has no side {side!r} (sides: {', '.join(rules.side_ids)})")
    unknown = set(options) - set(STRONG_OPTIONS)
    if unknown:
        raise ValueError(f"the TCS player has no option {', '.join(sorted(unknown))}")
    return chooser(rules, TcsPlayer(side, level, cancel))       # budget: its decisions take far less (bench)
