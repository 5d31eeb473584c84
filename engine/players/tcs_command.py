"""A TCS player's Command Phase (TCS 6.0): reviewing, implementing and writing Op Sheets, rolling reserves
(mixed into :class:`~engine.players.tcs_player.TcsPlayer`)."""
from __future__ import annotations

from ..maps.hexes import hex_distance, hex_linedraw


class TcsCommand:
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
