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
    def _step_setup(self, rules, st, by):
        from ..rulesets.tcs.actions import End

        if not self.strong or not by.get("place"):
            self.last_reason = ("the set-up as the scenario writes it (a legal set-up): the set-up ends"
                                if not self.strong else "no unit can stand nearer its objective: the set-up ends")
            return End() if by.get("end") else None
        options: dict[str, list] = {}
        for a in by["place"]:
            options.setdefault(a.unit, []).append(a)
        for uid in rules.order:
            if uid not in options:
                continue
            aim, why = self._setup_aim(rules, st, uid)
            if not aim:
                continue
            here = st.units[uid].hex
            now = min(hex_distance(here, g) for g in aim)

            def score(a):
                h = rules.hex(a.to)
                return (min(hex_distance(h, g) for g in aim), a.to)
            best = min(options[uid], key=score)
            d = score(best)[0]
            if d < now:
                self.last_reason = (f"{_t(best)}: {d} hexes from {why} ({now} where the scenario put it), the "
                                    f"nearest its set-up area allows")
                return best
        self.last_reason = "every unit stands as near its objective as its set-up area allows: the set-up ends"
        return End() if by.get("end") else None

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
