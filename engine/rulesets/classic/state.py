"""The classic game state: plain data, copied on every action."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.maps.hexes import Hex

from ..demyansk.state import Battle  # the same declared battle as Demyansk's (its actions are shared too)

ON_MAP, DUE, ELIMINATED, REMOVED = "map", "due", "eliminated", "removed"
GAME_OVER = "game-over"


@dataclass(slots=True)
class Unit:
    hex: Hex | None = None
    status: str = ON_MAP
    steps_lost: int = 0
    moved: bool = False
    left_zoc: bool = False          # left an enemy zone of control this phase
    out_of_supply: bool = False
    z: int = 0

    def copy(self) -> "Unit":
        return Unit(self.hex, self.status, self.steps_lost, self.moved, self.left_zoc, self.out_of_supply, self.z)


@dataclass
class State:
    turn: int
    phase: str
    units: dict[str, Unit]
    rng: int
    battles: list[Battle] = field(default_factory=list)
    resolving: bool = False
    pending: list[dict] = field(default_factory=list)
    attacked: list[str] = field(default_factory=list)     # units that have attacked this phase
    next_z: int = 1
    side: str = ""                  # the side whose phase it is
    over: bool = False
    # dice a planning player sets before trying a battle: ``roll`` takes these first (never in a real game's
    # log; saved and hashed only when some are left, so no game that does not use them changes)
    preset_dice: list[int] = field(default_factory=list)

    def copy(self) -> "State":
        return replace(self, units={k: v.copy() for k, v in self.units.items()},
                       battles=[replace(b) for b in self.battles],
                       pending=[dict(p) for p in self.pending], attacked=list(self.attacked),
                       preset_dice=list(self.preset_dice))

    def on_map(self, uid: str) -> bool:
        return self.units[uid].status == ON_MAP


def state_to_dict(st: State, hex_id) -> dict:
    def plain(v):
        if isinstance(v, Hex):
            return hex_id(v)
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v
    units = {uid: {"hex": hex_id(u.hex) if u.hex is not None else "", "status": u.status, "steps_lost": u.steps_lost,
                   "moved": u.moved, "left_zoc": u.left_zoc, "out_of_supply": u.out_of_supply, "z": u.z}
             for uid, u in sorted(st.units.items())}
    doc = {"turn": st.turn, "phase": st.phase, "rng": str(st.rng), "units": units,
           "battles": [b.to_dict() for b in st.battles], "resolving": st.resolving,
           "pending": [plain(p) for p in st.pending], "attacked": list(st.attacked), "next_z": st.next_z,
           "side": st.side, "over": st.over}
    if st.preset_dice:
        doc["preset_dice"] = list(st.preset_dice)
    return doc
