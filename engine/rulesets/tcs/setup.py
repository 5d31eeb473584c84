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


class SetUp:
    def __init__(self, scenario):
        self.scenario = scenario
        self.board = scenario.board
        self.ctx = AreaContext(self.board)
        self.specs = {u.id: u for u in scenario.units}
        self.limit = scenario.options["stacking_units"]
        self.play = self.ctx.hexes(scenario.play_area) if scenario.play_area else None
        self.hexes: dict[str, object] = {}

    def placed(self) -> list[str]:
        return [u for u in self.specs if u in self.hexes]

    def to_place(self) -> list[str]:
        """Units that set up on the map (reinforcements enter later) and are not yet placed."""
        return [u.id for u in self.scenario.units if u.setup and not u.enters and not u.release
                and u.id not in self.hexes]

    def area(self, uid: str) -> frozenset:
        return self.ctx.hexes(self.specs[uid].setup)

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
        rule = spec.setup_rule or "set-up"
        if spec.setup and h not in self.area(uid):
            raise IllegalAction(rule, f"{uid} sets up {spec.setup}; {hex_id} is outside that area")
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

    def auto(self) -> None:
        """Place every unit still to place at the first hex of its area with room (hex order)."""
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
