"""The table's state: where every counter is, which face is up, its markers, the notes, the track and the dice."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.maps.hexes import Hex

ON_MAP = "map"
DUE = "due"                 # a reinforcement whose turn has not come
AVAILABLE = "available"     # off the map, free to be brought on (set-up, released reinforcements)
IN_BOX = "box"              # in an off-map box (``box`` names it)
GAME_OVER = "game-over"


@dataclass(slots=True)
class Piece:
    """One counter at the table."""

    hex: Hex | None = None
    status: str = AVAILABLE
    box: str = ""
    flipped: bool = False
    steps_lost: int = 0
    markers: tuple[str, ...] = ()
    hidden: bool = False
    z: int = 0                   # stacking order: the last put down is on top

    def copy(self) -> "Piece":
        return Piece(self.hex, self.status, self.box, self.flipped, self.steps_lost, self.markers, self.hidden, self.z)


@dataclass(frozen=True)
class Look:
    """How a counter is shown: face up or down (hidden), front or back, its step-loss and other markers."""

    hidden: bool = False
    back: bool = False
    steps_lost: int = 0
    markers: tuple[str, ...] = ()


@dataclass
class TableState:
    """Everything that changes at the table."""

    turn: int
    phase: str
    units: dict[str, Piece]
    rng: int
    notes: dict[str, str] = field(default_factory=dict)   # printed hex id -> note
    next_z: int = 1
    over: bool = False

    def copy(self) -> "TableState":
        return replace(self, units={k: v.copy() for k, v in self.units.items()}, notes=dict(self.notes))

    def on_map(self, uid: str) -> bool:
        return self.units[uid].status == ON_MAP


def state_to_dict(st: TableState, hex_id) -> dict:
    units = {}
    for uid in sorted(st.units):
        p = st.units[uid]
        units[uid] = {"hex": hex_id(p.hex) if p.hex is not None else "", "status": p.status, "box": p.box,
                      "flipped": p.flipped, "steps_lost": p.steps_lost, "markers": list(p.markers),
                      "hidden": p.hidden, "z": p.z}
    return {"turn": st.turn, "phase": st.phase, "rng": str(st.rng), "units": units,
            "notes": dict(sorted(st.notes.items())), "next_z": st.next_z, "over": st.over}
