"""Setting a TCS scenario up from its set-up rules (BW 1.10e/f): each unit inside its set-up area.

A scenario file gives each unit a set-up area (an area expression, ``setup``) and the rule it comes from
(``setup_rule``).  :class:`SetUp` places units: ``place`` refuses a hex outside the unit's area (citing the
rule), a hex off the map or outside the scenario's play area, and a hex over the stacking limit;
``auto`` places every unit from its area alone (the first hex, in hex order, with room), which is how the
scenario files' own hexes are written.  ``placed_scenario()`` gives the scenario with the placements made.
"""
from __future__ import annotations

import dataclasses

from ...errors import BadHexId, IllegalAction
from ...scenario.areas import AreaContext
from .games import bw_setup


class SetUp:
    def __init__(self, scenario):
        self.scenario = scenario
        self.board = scenario.board
        self.ctx = AreaContext(self.board)
        self.specs = {u.id: u for u in scenario.units}
        self.limit = scenario.options["stacking_units"]
        self.play = self.ctx.hexes(scenario.play_area) if scenario.play_area else None
        self.hexes: dict[str, object] = {}
        self.bw = bw_setup.is_bw(scenario)
        self.free = self.bw and bw_setup.free_set_up(scenario)      # BW 4.4 Axis Free Set Up
        self._free_area = bw_setup.free_area(scenario, self.board) if self.free else frozenset()

    def _free(self, uid: str) -> bool:
        return self.free and self.specs[uid].side == "axis"

    def placed(self) -> list[str]:
        return [u for u in self.specs if u in self.hexes]

    def to_place(self) -> list[str]:
        """Units that set up on the map (reinforcements enter later) and are not yet placed."""
        return [u.id for u in self.scenario.units if u.setup and not u.enters and not u.release
                and u.id not in self.hexes]

    def area(self, uid: str) -> frozenset:
        if self._free(uid):
            return self._free_area                                # BW 4.4
        return self.ctx.hexes(self.specs[uid].setup)

    def rule(self, uid: str) -> str:
        return "BW 4.4" if self._free(uid) else (self.specs[uid].setup_rule or "set-up")

    def check(self, uid: str, hex_id: str):
        spec = self.specs.get(uid)
        if spec is None:
            raise IllegalAction("", f"no unit {uid!r} in this scenario")
        if spec.enters or spec.release:
            raise IllegalAction("BW 1.10g/h", f"{uid} is a reinforcement: it enters the map, it does not set up")
        try:
            h = self.board.parse_hex(hex_id)
        except BadHexId as e:
            raise IllegalAction("", str(e)) from None
        rule = self.rule(uid)
        if self._free(uid) and h not in self.area(uid):                 # BW 4.4
            raise IllegalAction(rule, f"{uid} sets up freely in play south of the trench line (inclusive); "
                                      f"{hex_id} is not")
        if spec.setup and h not in self.area(uid):
            raise IllegalAction(rule, f"{uid} sets up {spec.setup}; {hex_id} is outside that area")
        if self.bw and spec.side == "axis" and bw_setup.north_of_wire(self.board, h):   # BW 1.10f
            raise IllegalAction("BW 1.10f", f"no Axis unit may set up north of the wire line or the Peat Bog; "
                                            f"{hex_id} is")
        if self.play is not None and h not in self.play:
            raise IllegalAction("scenario map area", f"{hex_id} is outside the scenario's play area")
        if not spec.fo:
            here = [k for k, x in self.hexes.items() if x == h and k != uid and not self.specs[k].fo]
            if len(here) + 1 > self.limit:
                raise IllegalAction("TCS stacking (game data)",
                                    f"{hex_id} already holds {len(here)} units (stacking limit {self.limit})")
        return h

    def place(self, uid: str, hex_id: str) -> None:
        self.hexes[uid] = self.check(uid, hex_id)

    def finish(self) -> None:
        """End the set-up: every unit placed, and the game's checks on a finished set-up pass (BW 1.10f:
        trench hexes by the wire covered, nobody north of the wire; BW 4.4: every trench hex covered);
        IllegalAction citing the rule otherwise."""
        left = self.to_place()
        if left:
            raise IllegalAction(self.rule(left[0]), f"{len(left)} units still to set up ({left[0]} first)")
        if self.bw:
            bw_setup.check_finished(self)

    def auto(self) -> None:
        """Place every unit still to place at the first hex of its area with room (hex order); in Black
        Wednesday first one unit on each trench hex a finished set-up must cover (BW 1.10f, 4.4)."""
        if self.bw:
            self._cover()
        for uid in self.to_place():
            for h in sorted(self.area(uid)):
                try:
                    self.place(uid, self.board.hex_id(h))
                    break
                except IllegalAction:
                    continue
            else:
                raise IllegalAction(self.specs[uid].setup_rule, f"no room for {uid} in {self.specs[uid].setup}")

    def placed_scenario(self):
        """The scenario with its units at the placed hexes."""
        units = [dataclasses.replace(u, hex=self.board.hex_id(self.hexes[u.id])) if u.id in self.hexes else u
                 for u in self.scenario.units]
        sc = dataclasses.replace(self.scenario, units=units)
        sc.board = self.board
        return sc

    def _cover(self) -> None:
        """BW 1.10f, 4.4: while a trench hex the finished set-up must cover is bare, put the first unit still to
        place that may stand there on the hex by it (or it) that covers the most bare trench hexes."""
        from ...maps.hexes import hex_neighbors

        for _ in range(len(self.specs)):
            need = bw_setup.bare_trench(self)
            bare = set(need)
            for h in need:
                spots = sorted([h, *hex_neighbors(h)],
                               key=lambda x: (-len(bare & {x, *hex_neighbors(x)}), x))
                if self._place_one(spots):
                    break
            else:
                return

    def _place_one(self, spots) -> bool:
        for spot in spots:
            for uid in self.to_place():
                if bw_setup.may_cover(self, uid) and spot in self.area(uid):
                    try:
                        self.place(uid, self.board.hex_id(spot))
                        return True
                    except IllegalAction:
                        break
        return False
