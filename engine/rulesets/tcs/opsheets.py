"""The TCS Command Phase's Op Sheets (TCS 6): completing, implementing, reserve checks, adding units, new sheets
and the sheets the legal actions offer; a part of :class:`~engine.rulesets.tcs.rules.TcsRules`."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from ...maps.hexes import hex_distance, hex_linedraw
from . import actions as A
from .proc import _ok, chart_value
from .scenario import SHEET_TYPES
from .state import OpSheet, State


class OpSheetRules:
    """The Op Sheet part of ``TcsRules`` (TCS 6)."""

    def _sheet(self, st: State, sid: str, side: str) -> OpSheet:
        s = st.sheets.get(sid)
        if s is None or s.side != side:
            raise IllegalAction("TCS 6.0", f"{side} has no Op Sheet {sid!r}")
        return s

    def _do_complete(self, st, a: A.Complete, side, events) -> None:
        s = self._sheet(st, a.sheet, side)
        if not s.implemented and not a.cancel:
            raise IllegalAction("TCS 6.11", f"{a.sheet} is not implemented, so it cannot be completed (cancel it)")
        for u in s.units:
            if st.units[u].sheet == a.sheet:
                st.units[u].sheet = ""
        del st.sheets[a.sheet]
        events.append(Event("opsheet", f"{a.sheet} {'cancelled' if a.cancel else 'completed'}: its units are unassigned"))

    def check_implement(self, st, sid: str, side: str) -> OpSheet:
        s = self._sheet(st, sid, side)
        if s.implemented:
            raise IllegalAction("TCS 6.9f", f"{sid} is already implemented")
        if s.reserve:
            raise IllegalAction("TCS 6.14d", f"{sid} is a reserve: it is released by a reserve check")
        if s.rolled:
            raise IllegalAction("TCS 6.9f", f"{sid} has had its implementation roll this turn")
        first = int(chart_value(self, st, "tcs.command_prep_thresholds", (s.type, 1)))
        if s.weighted_turns < first:
            raise IllegalAction("TCS 6.9f", f"{sid} has {s.weighted_turns} weighted turns; it needs {first} to roll")
        self.check_limits(st, s)
        return s

    def check_limits(self, st, s: OpSheet, new: bool = False) -> None:
        """Implemented-sheet limits per side (Leros 2.1b, BW 2.1c) and per formation (TCS 6.7b), for every formation
        the sheet holds (BW 2.1b: one sheet may carry several divisions, each counting it)."""
        side = self.scenario.sides[s.side]
        imp = [x for x in st.sheets.values() if x.side == s.side and x.implemented and x.id != s.id]
        if not new and len(imp) >= side.max_implemented:
            raise IllegalAction("TCS 6.7b", f"{s.side} already has {len(imp)} implemented Op Sheets (limit {side.max_implemented})")
        for fid in sorted(self.sheet_formations(s)):
            f = self.scenario.formations.get(fid)
            if f is None:
                continue
            mine = [x for x in st.sheets.values() if x.id != s.id and fid in self.sheet_formations(x)]
            if new and len(mine) >= f.max_sheets:
                raise IllegalAction("TCS 6.7b", f"{fid} already has {len(mine)} Op Sheets (limit {f.max_sheets})")
            if not new and sum(x.implemented for x in mine) >= f.max_implemented:
                raise IllegalAction("TCS 6.7b", f"{fid} already has an implemented Op Sheet (limit {f.max_implemented})")

    def sheet_formations(self, s: OpSheet) -> set[str]:
        """The formations a sheet counts against: its own, and those of its units where a game lets formations
        share a sheet (BW 2.1b: "more than one division on a single Op Sheet")."""
        if self.game is not None and hasattr(self.game, "sheet_formations"):
            return self.game.sheet_formations(self, s)
        return {s.formation}

    def _do_implement(self, st, a: A.Implement, side, events) -> None:
        self.check_implement(st, a.sheet, side)
        self._run(st, "implement", {"sheet": a.sheet}, [], events, False)

    def _do_reservecheck(self, st, a: A.ReserveCheck, side, events) -> None:
        s = self._sheet(st, a.sheet, side)
        if not s.reserve or s.rolled:
            raise IllegalAction("TCS 6.14d", f"{a.sheet} is not a reserve waiting for its check")
        self._run(st, "reserve_check", {"sheet": a.sheet}, [], events, False)

    def check_assign(self, st, uid: str, sid: str, side: str) -> OpSheet:
        s = self._sheet(st, sid, side)
        if uid not in self.specs or self.specs[uid].side != side or st.units[uid].hex is None:
            raise IllegalAction("TCS 6.13", f"{uid} is not a unit of {side} on the map")
        if uid in s.units:
            raise IllegalAction("TCS 6.13", f"{uid} is already on {sid}")
        cur = st.units[uid].sheet
        if cur and cur in st.sheets and st.sheets[cur].implemented:
            raise IllegalAction("TCS 6.13", f"{uid} is carrying out {cur}; complete or cancel it first")
        if self.specs[uid].formation and s.formation and not self.fits_formation(uid, s.formation):
            raise IllegalAction("TCS 6.13", f"{uid} belongs to {self.specs[uid].formation}, not {s.formation}")
        if self.specs[uid].formation != s.formation and self.game is not None:
            more = s.copy()                       # BW 2.1b: a division joining a sheet counts it (TCS 6.7b)
            more.units = s.units + [uid]
            if self.sheet_formations(more) != self.sheet_formations(s):
                self.check_limits(st, more, new=True)
                if s.implemented:
                    self.check_limits(st, more)
        if self.game is not None and hasattr(self.game, "sheet_problem"):           # BW 2.1f looting
            self.game.check(self.game.sheet_problem(self, st, [uid], s.objective, s.id))
        return s

    def fits_formation(self, uid: str, formation: str) -> bool:
        """Whether a unit may be on a sheet of ``formation``: its own, or as the game allows (BW 3.1b, 4.1a)."""
        if self.specs[uid].formation == formation:
            return True
        return self.game is not None and hasattr(self.game, "formations_mix") and \
            self.game.formations_mix(self, uid, formation)

    def _do_assign(self, st, a: A.Assign, side, events) -> None:
        s = self.check_assign(st, a.unit, a.sheet, side)
        s.units.append(a.unit)
        if s.implemented:
            st.units[a.unit].sheet = s.id
        events.append(Event("opsheet", f"{a.unit} added to {a.sheet}"))

    def check_new_sheet(self, st, a: A.NewSheet, side: str) -> OpSheet:
        if a.sheet in st.sheets or not a.sheet.isidentifier() and not a.sheet.replace("-", "").isalnum():
            raise IllegalAction("TCS 6.8", f"{a.sheet!r} is taken or not a sheet id")
        if a.type not in SHEET_TYPES:
            raise IllegalAction("TCS 6.8", f"Op Sheet types are {', '.join(SHEET_TYPES)}, not {a.type!r}")
        if a.formation not in self.scenario.formations or self.scenario.formations[a.formation].side != side:
            raise IllegalAction("TCS 6.8", f"{side} has no formation {a.formation!r}")
        if not a.objective:
            raise IllegalAction("TCS 6.8", "an Op Sheet names its objective")
        obj = [self.hex(h) for h in a.objective]
        route = [self.hex(h) for h in a.route]
        s = OpSheet(a.sheet, side, a.formation, a.type, [], obj, route)
        self.check_limits(st, s, new=True)
        for u in a.units:
            if u not in self.specs or self.specs[u].side != side or st.units[u].hex is None:
                raise IllegalAction("TCS 6.8", f"{u} is not a unit of {side} on the map")
            if not self.fits_formation(u, a.formation):
                raise IllegalAction("TCS 6.8", f"{u} is not in {a.formation}")
        if any(self.specs[u].formation != a.formation for u in a.units):
            self.check_limits(st, OpSheet(a.sheet, side, a.formation, a.type, list(a.units), obj, route), new=True)
        if self.game is not None and hasattr(self.game, "sheet_problem"):           # BW 2.1f looting
            self.game.check(self.game.sheet_problem(self, st, a.units, obj))
        s.units = list(a.units)
        return s

    def _do_newsheet(self, st, a: A.NewSheet, side, events) -> None:
        st.sheets[a.sheet] = self.check_new_sheet(st, a, side)
        if self.game is not None and hasattr(self.game, "drawn_before_play"):        # BW 1.10k
            st.sheets[a.sheet].weighted_turns = self.game.drawn_before_play(self, st)
        st.next_id += 1
        events.append(Event("opsheet", f"new Op Sheet {a.sheet}: {a.type} for {a.formation}"))

    def no_accrual(self, st, sheet) -> str:
        """Why a sheet accrues no weighted turns this Command Phase ("" when it does: TCS 6.9d; games add
        exceptions, Leros 3.6i)."""
        return ""

    def _sheet_offers(self, st, side, own) -> list:
        """One sheet of each type per formation with room, its units the formation's free units, its objective the
        nearest scenario objective, its route a straight line (any other sheet may be written out in full)."""
        out = []
        objectives = [self.board.parse_hex(o.hex) for o in self.scenario.objectives]
        for f in self.scenario.formations.values():
            if f.side != side:
                continue
            free = [u for u in own if self.specs[u].formation == f.id and not st.units[u].sheet]
            if not free or not objectives:
                continue
            start = st.units[free[0]].hex
            obj = min(objectives, key=lambda h: (hex_distance(start, h), h))
            route = tuple(self.hid(h) for h in hex_linedraw(start, obj) if h in self.board)
            sid = f"OS{st.next_id}"
            for t in SHEET_TYPES:
                a = A.NewSheet(sid, t, f.id, tuple(free), (self.hid(obj),), route)
                if _ok(lambda: self.check_new_sheet(st, a, side)):
                    out.append(a)
        return out
