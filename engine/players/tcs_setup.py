"""The TCS players' set-up before turn 1 (engine/rulesets/tcs/setupphase.py; mixed into
:class:`~engine.players.tcs_player.TcsPlayer`).

The baseline keeps the set-up as the scenario writes it.  The strong player moves each unit with a set-up area
of more than one hex, one placement at a time in the scenario's order, to the legal hex of its area nearest its
Op Sheet's objective: an attack or move sheet's units go as far forward toward the objective as their area lets
them, a defence sheet's units onto its objective hexes (or as near as they may stand), a unit on no sheet toward
the nearest victory hex its side must take or keep.  Each placement brings one unit strictly nearer, so the
set-up ends; the listing offers only placements that leave the set-up finishable (BW 1.10f, Leros 5.1a).
"""
from __future__ import annotations

from ..maps.hexes import hex_distance
from .tcs_common import _t

DEFENCE = ("hasty_defense", "prepared_defense")


class TcsSetup:
    def _setup_choice(self, rules, st):
        """The set-up decision without the whole listing (thousands of placements in Black Wednesday): the same
        choice as among ``legal_actions`` (each candidate checked as the listing checks it), nearest first."""
        from ..rulesets.tcs.actions import End, Place

        phase = rules.setup_phase
        can_end = phase.finish_problem(st, self.side) is None
        occ, near = phase._occupancy(st), phase._enemy_near(st, self.side)
        critical = phase._critical(st, self.side)
        bad = phase.offenders(st, self.side)
        if bad:                                  # Leros 5.1a: a unit the enemy's set-up left next to it moves first
            uid = bad[0]
            aim, why = self._setup_aim(rules, st, uid)
            for h in sorted(phase.areas[uid], key=lambda h: (min((hex_distance(h, g) for g in aim), default=0),
                                                           rules.hid(h))):
                if phase.may_place(st, self.side, uid, h, occ, near, critical):
                    self.last_reason = (f"place {uid} {rules.hid(h)}: it may not stay next to an enemy unit (Leros "
                                        f"5.1a); the hex of its set-up area nearest {why}")
                    return Place(uid, rules.hid(h))
        if not self.strong:
            self.last_reason = "the set-up as the scenario writes it (a legal set-up): the set-up ends"
            return End() if can_end else None
        for uid in rules.order:
            area = phase.areas.get(uid)
            if area is None or len(area) < 2 or rules.specs[uid].side != self.side:
                continue
            aim, why = self._setup_aim(rules, st, uid)
            if not aim:
                continue
            here = st.units[uid].hex
            now = min(hex_distance(here, g) for g in aim)
            for d, hid, h in sorted((min(hex_distance(h, g) for g in aim), rules.hid(h), h) for h in area):
                if d >= now:
                    break
                if phase.may_place(st, self.side, uid, h, occ, near, critical):
                    self.last_reason = (f"place {uid} {hid}: {d} hexes from {why} ({now} where the scenario put "
                                        f"it), the nearest its set-up area allows")
                    return Place(uid, hid)
        self.last_reason = "every unit stands as near its objective as its set-up area allows: the set-up ends"
        return End() if can_end else None

    def _setup_aim(self, rules, st, uid: str) -> tuple[list, str]:
        """The hexes a unit sets up toward and the words for them: its Op Sheet's objective, else the open goals."""
        sheet = next((s for s in st.sheets.values() if s.side == self.side and uid in s.units and s.objective), None)
        if sheet is not None:
            kind = "defence" if sheet.type in DEFENCE else sheet.type.replace("_", " ")
            return list(sheet.objective), f"its {kind} objective {rules.hid(sheet.objective[0])} ({sheet.id})"
        goals = self.open_goals(rules, st)
        if goals:
            return goals, "the nearest victory hex"
        enemy = [u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != self.side]
        return enemy, "the nearest enemy unit"

    def _step_setup(self, rules, st, by):
        """The listing's first placement when the set-up may not end and no unit has a better hex (the side must
        still move a unit before its set-up passes its checks)."""
        if by.get("place"):
            a = by["place"][0]
            self.last_reason = f"{_t(a)}: the set-up may not end as it stands; the first placement the rules allow"
            return a
        return None
