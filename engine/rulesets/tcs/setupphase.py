"""The TCS set-up phase: before turn 1 each side, in its game's order, may re-place its units in their set-up areas.

A scenario file gives a unit a set-up area (``setup``, an area expression) and the hex it stands on (``hex``, a
legal set-up written from the areas).  When some unit's area holds more than one hex the game opens with a set-up
phase for each side that has such units, in the game's set-up order (Leros 5.1a: the Germans first, the British
second; BW 1.10b: the Soviets first, then the Axis).  The units start at the file's hexes, so ending the phase at
once ("end") accepts the set-up as written; ``place UNIT HEX`` moves one unit to another hex of its area.

A placement is refused, citing the rule, outside the unit's area (the file's ``setup_rule``; BW 4.4 Free Set Up),
outside the scenario's play area, over the stacking limit, north of the wire for the Axis (BW 1.10f), and, in
Leros, a British unit next to a German one unless it is in a Building or Village hex (Leros 5.1a).  Ending a side's
set-up checks the finished set-up: BW 1.10f / 4.4's trench hexes covered, Leros 5.1a for every British unit.

The listing (``offers``) holds only placements that keep the finished set-up passing its checks, so a player
choosing among them (the random player too) can always end its set-up.
"""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from ...maps.hexes import Hex, hex_distance, hex_neighbors
from . import actions as A

SHELTER = ("building", "village")          # Leros 5.1a: British units may set up next to Germans in these


class SetupPhase:
    """The set-up areas of one scenario's units and the checks of the set-up phase (built once per rules)."""

    def __init__(self, rules):
        from .setup import SetUp

        self.rules = rules
        self.board = rules.board
        self.setup = SetUp(rules.scenario)
        self.areas: dict[str, frozenset] = {}
        for u in rules.scenario.units:
            if u.setup and not u.enters and not u.release and u.hex not in self.board.boxes:
                self.areas[u.id] = frozenset(self.setup.area(u.id))
        self.leros = bool(getattr(rules.scenario, "leros", None))
        self.limit = self.setup.limit
        self.play = self.setup.play
        choosing = {rules.specs[u].side for u, a in self.areas.items() if len(a) > 1}
        self.sides = [s for s in rules.setup_order() if s in choosing]

    # ------------------------------------------------------------ what stands where
    def _occupancy(self, st) -> dict:
        """Hex -> the number of units counted for stacking there (FOs never count)."""
        occ: dict = {}
        for k, u in st.units.items():
            if u.hex is not None and not self.rules.specs[k].fo:
                occ[u.hex] = occ.get(u.hex, 0) + 1
        return occ

    def _enemy_near(self, st, side: str) -> set:
        """Hexes next to (or holding) a unit of the other side on the map."""
        near = set()
        for k, u in st.units.items():
            if u.hex is not None and self.rules.specs[k].side != side:
                near.add(u.hex)
                near.update(hex_neighbors(u.hex))
        return near

    def _sheltered(self, h: Hex) -> bool:
        return self.board.terrain.get(h) in SHELTER

    # ------------------------------------------------------------ one placement
    def problem(self, st, uid: str, h: Hex, occ=None, near=None) -> tuple[str, str] | None:
        """Why ``uid`` may not be placed in ``h`` now: (rule, message), or None."""
        rules = self.rules
        spec = rules.specs[uid]
        hid = rules.hid(h)
        area = self.areas.get(uid)
        if area is None:
            return ("", f"{uid} has no set-up area: it starts where the scenario puts it")
        if h not in area:
            if self.setup._free(uid):                                           # BW 4.4
                return ("BW 4.4", f"{uid} sets up freely in play south of the trench line (inclusive); {hid} is not")
            return (self.setup.rule(uid), f"{uid} sets up {spec.setup}; {hid} is outside that area")
        if self.setup.bw and spec.side == "axis":
            from .games import bw_setup
            if bw_setup.north_of_wire(self.board, h):                              # BW 1.10f
                return ("BW 1.10f", f"no Axis unit may set up north of the wire line or the Peat Bog; {hid} is")
        if self.play is not None and h not in self.play:
            return ("scenario map area", f"{hid} is outside the scenario's play area")
        if not spec.fo and st.units[uid].hex != h:
            here = (occ if occ is not None else self._occupancy(st)).get(h, 0)
            if here + 1 > self.limit:
                return ("TCS stacking (game data)", f"{hid} already holds {here} units (stacking limit {self.limit})")
        if self.leros and spec.side == "british" and not self._sheltered(h):
            if h in (near if near is not None else self._enemy_near(st, "british")):     # Leros 5.1a
                return ("Leros 5.1a", f"a British unit may not set up next to a German unit unless in a Building "
                                      f"or Village hex; {hid} is {self.board.terrain.get(h, 'open')} next to a German")
        if self.leros and spec.side == "german":
            cornered = self._cornered(st, uid, h)
            if cornered:                                                           # Leros 5.1a
                return ("Leros 5.1a", f"a German unit in {hid} would leave {cornered} no hex of its set-up area "
                                      f"where it may stand (British units may not set up next to a German unit "
                                      f"outside Buildings and Villages)")
        return None

    def _cornered(self, st, uid: str, h: Hex) -> str:
        """Leros 5.1a: a British unit with a small set-up area that a German in ``h`` would leave no legal hex
        (so its side could never finish its set-up); "" for none."""
        germans = {u.hex for k, u in st.units.items() if u.hex is not None and k != uid
                   and self.rules.specs[k].side == "german"} | {h}
        for k, area in self.areas.items():
            if self.rules.specs[k].side != "british" or len(area) > 19 or min(hex_distance(h, x) for x in area) > 1:
                continue
            if not any(self._sheltered(x) or all(hex_distance(x, g) > 1 for g in germans) for x in area):
                return k
        return ""

    def check_place(self, st, action: A.Place, side: str) -> Hex:
        if not st.setup:
            raise IllegalAction("", "units are placed in the set-up phase before the first turn, not now")
        spec = self.rules.specs.get(action.unit)
        if spec is None:
            raise IllegalAction("", f"there is no unit {action.unit!r}")
        if spec.side != side:
            raise IllegalAction(self.rule_of_order(), f"{action.unit} is set up in the {spec.side} set-up, "
                                                      f"not the {side}")
        h = self.rules.hex(action.to)
        why = self.problem(st, action.unit, h)
        if why:
            raise IllegalAction(*why)
        return h

    def rule_of_order(self) -> str:
        return "Leros 5.1a" if self.leros else "BW 1.10b" if self.setup.bw else "set-up order"

    def place(self, st, action: A.Place, side: str, events: list) -> None:
        h = self.check_place(st, action, side)
        frm = st.units[action.unit].hex
        st.units[action.unit].hex = h
        events.append(Event("place", f"{action.unit} sets up in {self.rules.hid(h)}"
                                     + (f" (from {self.rules.hid(frm)})" if frm is not None else ""),
                            {"unit": action.unit, "hex": self.rules.hid(h)}))

    # ------------------------------------------------------------ the finished set-up
    def finish_problem(self, st, side: str) -> tuple[str, str] | None:
        """What keeps ``side``'s set-up from being finished: (rule, message), or None."""
        if self.setup.bw and side == "axis":
            from .games import bw_setup
            self.setup.hexes = {k: u.hex for k, u in st.units.items() if u.hex is not None}
            return bw_setup.finish_problem(self.setup)                # BW 1.10f, 4.4
        if self.leros and side == "british":
            bad = self.offenders(st, side)
            if bad:                                                    # Leros 5.1a
                return ("Leros 5.1a", f"British units may not set up next to a German unit unless in a Building or "
                                      f"Village hex: {', '.join(f'{k} in {self.rules.hid(st.units[k].hex)}' for k in bad[:6])}"
                                      + (f" and {len(bad) - 6} more" if len(bad) > 6 else ""))
        return None

    def offenders(self, st, side: str) -> list[str]:
        """Leros 5.1a: the side's British units standing next to a German unit outside a Building or Village hex
        (the Germans set up first, so their placements may leave a British unit of the file there)."""
        if not (self.leros and side == "british"):
            return []
        near = self._enemy_near(st, "british")
        return [k for k in self.areas if self.rules.specs[k].side == "british" and st.units[k].hex in near
                and not self._sheltered(st.units[k].hex)]

    def may_place(self, st, side: str, uid: str, h, occ=None, near=None, critical=None) -> bool:
        """Whether the listing offers ``place uid h`` now (``offers`` builds the same test for every hex)."""
        area = self.areas.get(uid)
        if area is None or len(area) < 2 or self.rules.specs[uid].side != side or h == st.units[uid].hex:
            return False
        must = (critical if critical is not None else self._critical(st, side)).get(uid)
        if must and any(hex_distance(h, x) > 1 for x in must):
            return False
        return self.problem(st, uid, h, occ, near) is None

    def end(self, st, side: str, events: list) -> None:
        why = self.finish_problem(st, side)
        if why:
            raise IllegalAction(*why)
        st.setup = st.setup[1:]
        events.append(Event("setup", f"{self.rules.side_name(side)} set-up finished"
                                     + (f"; {self.rules.side_name(st.setup[0])} sets up" if st.setup else
                                        "; play begins"), {"side": side}))

    # ------------------------------------------------------------ the listing
    def offers(self, st, side: str) -> list:
        """Every placement of the side's units that keeps its set-up finishable, then ``end`` if it may end now."""
        rules = self.rules
        occ = self._occupancy(st)
        near = self._enemy_near(st, side)
        critical = self._critical(st, side)
        out: list = []
        for uid in rules.order:
            area = self.areas.get(uid)
            if area is None or len(area) < 2 or rules.specs[uid].side != side:
                continue
            at = st.units[uid].hex
            must = critical.get(uid)
            for h in sorted(area):
                if h == at or (must and any(hex_distance(h, x) > 1 for x in must)):
                    continue
                if self.problem(st, uid, h, occ, near) is None:
                    out.append(A.Place(uid, rules.hid(h)))
        if self.finish_problem(st, side) is None:
            out.append(A.End())
        return out

    def _critical(self, st, side: str) -> dict[str, list]:
        """BW 1.10f, 4.4: for each unit that alone covers a trench hex the finished set-up must cover, those hexes
        (it may move only where it still covers them all)."""
        if not (self.setup.bw and side == "axis"):
            return {}
        from .games import bw_setup
        self.setup.hexes = {k: u.hex for k, u in st.units.items() if u.hex is not None}
        board = self.board
        need = self._trench_need()
        cover = {k: h for k, h in self.setup.hexes.items() if k in self.areas and bw_setup.may_cover(self.setup, k)}
        by: dict = {}
        for t in need:
            who = [k for k, h in cover.items() if hex_distance(h, t) <= 1]
            if len(who) == 1:
                by.setdefault(who[0], []).append(t)
        del board
        return by

    def _trench_need(self) -> list:
        """The trench hexes a finished Axis set-up must cover (as ``bw_setup.bare_trench`` reads them)."""
        got = self.__dict__.get("_need")
        if got is None:
            from .games import bw_setup
            saved = self.setup.hexes
            self.setup.hexes = {}
            got = self._need = bw_setup.bare_trench(self.setup)      # with nobody placed, every hex to cover
            self.setup.hexes = saved
        return got

    def hexes_for(self, st, uid: str) -> set:
        """Where ``uid`` may be placed now (the window lights them while it is dragged)."""
        out = set()
        occ = self._occupancy(st)
        near = self._enemy_near(st, self.rules.specs[uid].side) if uid in self.rules.specs else set()
        for h in self.areas.get(uid, ()):
            if h == st.units[uid].hex or self.problem(st, uid, h, occ, near) is None:
                out.add(h)
        return out
