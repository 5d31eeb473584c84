"""The Demyansk game state: plain data, copied on every action, serialisable to a dict."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from engine.maps.hexes import Hex
from ...charts import ChartMemory

# Where a unit is (status): on the map, due as a reinforcement, or gone.
ON_MAP = "map"
DUE = "due"
HELD = "held"                    # a variable reinforcement not released yet
ELIMINATED = "eliminated"        # destroyed (counts for victory points, 9.3)
OFF_MAP = "off-map"              # retreated off the map: gone, not destroyed (6.7)
WITHDRAWN = "withdrawn"          # withdrawn under 9.3 special rule 1

PHASES = (
    "german-reinforcement",      # 3.1
    "german-mechanized-movement",  # 3.2
    "german-combat",             # 3.3
    "german-movement",           # 3.4
    "soviet-reinforcement",      # 3.5
    "soviet-hq-movement",        # 3.6
    "soviet-combat",             # 3.7
    "soviet-movement",           # 3.8
)
GAME_OVER = "game-over"


@dataclass(slots=True)
class UnitState:
    """Where a unit is and what it has done this phase."""

    hex: Hex | None = None
    status: str = ON_MAP
    moved: bool = False          # moved this phase (each unit moves once a phase)
    entry_mp: int = 0            # MP spent entering the map this turn (errata: entry hex's cost)
    out_of_command: bool = False  # 8.1: began the phase outside every HQ's radius
    landed_on: str | None = None  # 8.2: the German unit a parachute brigade survived landing on
    dropped: bool = False        # 8.2: air-dropped already (only once)
    drop_turn: int | None = None  # errata: full strength inside the perimeter on the drop turn
    destroyed_in_combat: bool = False

    def copy(self) -> "UnitState":
        return UnitState(self.hex, self.status, self.moved, self.entry_mp, self.out_of_command, self.landed_on,
                         self.dropped, self.drop_turn, self.destroyed_in_combat)


@dataclass
class Battle:
    """A declared battle (6): one defender, its attackers, and whether it has been resolved."""

    defender: str
    attackers: tuple[str, ...]
    resolved: bool = False

    def to_dict(self) -> dict:
        return {"defender": self.defender, "attackers": list(self.attackers), "resolved": self.resolved}


@dataclass
class State:
    """Everything that changes during a game of Demyansk Pocket."""

    turn: int
    phase: str
    units: dict[str, UnitState]
    rng: int
    preset_dice: list[int] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    resolving: bool = False               # 6: once a battle is resolved no more are declared
    pending: list[dict] = field(default_factory=list)
    pocket_supplied: bool = True          # 7.2
    pocket_linked: bool = False           # 7.2: a free path joins the pocket to the west
    pocket_attack_limit: int | None = None  # 7.2.2: Soviet units the pocket may attack this turn
    trapped: list[str] = field(default_factory=list)  # 7.2: western units cut off this turn
    forts_lost: list[Hex] = field(default_factory=list)  # 6.2: entered by a Soviet unit
    airfield_soviet: bool = False         # 7.2.4: a Soviet unit was the last to occupy it
    front_failures: list[int] = field(default_factory=list)  # 7.3: turns without a front
    withdrawal_vp: int = 0                # 9.3 VP 5
    released: dict[str, int] = field(default_factory=dict)  # variable reinforcement id -> turn of its release event
    charts: ChartMemory = field(default_factory=ChartMemory)  # 6.6: blank CRT cells answered in this game
    over: bool = False

    def copy(self) -> "State":
        return replace(
            self,
            units={k: v.copy() for k, v in self.units.items()},
            preset_dice=list(self.preset_dice),
            battles=[replace(b) for b in self.battles],
            pending=[dict(p) for p in self.pending],
            trapped=list(self.trapped),
            forts_lost=list(self.forts_lost),
            front_failures=list(self.front_failures),
            released=dict(self.released),
            charts=self.charts.copy(),
        )

    def on_map(self, uid: str) -> bool:
        return self.units[uid].status == ON_MAP

    def occupant_map(self) -> dict[Hex, list[str]]:
        """Hex -> ids of the units in it (two only when a parachute brigade sits on a German unit)."""
        occ: dict[Hex, list[str]] = {}
        for uid, u in self.units.items():
            if u.status == ON_MAP:
                occ.setdefault(u.hex, []).append(uid)
        return occ


def state_to_dict(state: State, hex_id) -> dict:
    """Plain data with printed hex ids, in a fixed key order."""
    units = {}
    for uid in sorted(state.units):
        u = state.units[uid]
        d = {}
        for f in fields(UnitState):
            v = getattr(u, f.name)
            if f.name == "hex":
                v = hex_id(v) if v is not None else ""
            elif v is None:
                v = ""
            d[f.name] = v
        units[uid] = d
    out = {
        "turn": state.turn, "phase": state.phase, "rng": str(state.rng),
        "preset_dice": list(state.preset_dice),
        "units": units,
        "battles": [b.to_dict() for b in state.battles],
        "resolving": state.resolving,
        "pending": [_plain(p, hex_id) for p in state.pending],
        "pocket_supplied": state.pocket_supplied, "pocket_linked": state.pocket_linked,
        "pocket_attack_limit": -1 if state.pocket_attack_limit is None else state.pocket_attack_limit,
        "trapped": list(state.trapped),
        "forts_lost": sorted(hex_id(h) for h in state.forts_lost),
        "airfield_soviet": state.airfield_soviet,
        "front_failures": list(state.front_failures),
        "withdrawal_vp": state.withdrawal_vp,
        "over": state.over,
    }
    if state.released:
        out["released"] = dict(sorted(state.released.items()))
    if state.charts.cells:           # absent while empty: a game that never answered one hashes as before
        out["charts"] = state.charts.to_dict()
    return out


def _plain(v, hex_id):
    if isinstance(v, Hex):
        return hex_id(v)
    if isinstance(v, dict):
        return {k: _plain(x, hex_id) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x, hex_id) for x in v]
    if v is None:
        return ""
    return v
