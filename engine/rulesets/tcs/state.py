"""The TCS game state: plain data (units, Op Sheets, markers, ammunition, pending choices, chart memory)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...charts import ChartMemory, ChartPrompt
from ...maps.hexes import Hex

OK, SUPPRESSED, PARALYZED = "", "suppressed", "paralyzed"


@dataclass
class UnitState:
    hex: Hex | None                 # None: eliminated
    mode: str = "fire"              # "move" or "fire" (TCS 5.0 modes)
    steps_lost: int = 0
    morale_state: str = OK          # "", "suppressed", "paralyzed"
    mp_used: Fraction = Fraction(0)
    moved: bool = False             # moved in this phase
    fired: bool = False             # fired in this phase
    fired_turn: bool = False        # fired or fired upon this turn (TCS 6.9d weighted turns)
    sheet: str = ""                 # the Op Sheet it is on

    def copy(self) -> "UnitState":
        return _shallow(self)             # every field is immutable (hexes, strings, numbers)


@dataclass
class OpSheet:
    id: str
    side: str
    formation: str
    type: str
    units: list[str]
    objective: list[Hex]
    route: list[Hex]
    implemented: bool = False
    weighted_turns: int = 0
    size: int = 0
    reserve: bool = False
    rolled: bool = False            # an implementation roll made this Command Phase

    def copy(self) -> "OpSheet":
        c = _shallow(self)
        c.units, c.objective, c.route = list(self.units), list(self.objective), list(self.route)
        return c


@dataclass
class Barrage:
    """A marker on the map: a barrage (with its attack zone), smoke or illumination."""

    id: str
    side: str
    kind: str                       # "he", "smoke", "illum"
    hex: Hex
    zone: list[Hex]
    battery: str = ""
    continuous: bool = False
    level: int = 0                  # smoke level

    def copy(self) -> "Barrage":
        c = _shallow(self)
        c.zone = list(self.zone)
        return c


@dataclass
class Mission:
    """A fire mission placed this phase and not yet executed."""

    battery: str
    hex: Hex
    spotter: str
    ammo: str
    continuous: bool = False


@dataclass
class State:
    turn: int                               # index on the scenario's turn track
    step: int                               # index in the turn's sequence of steps
    units: dict[str, UnitState]
    sheets: dict[str, OpSheet]
    battalions: dict[str, int]              # battalion -> battalion morale
    bn_losses: dict[str, int]
    ammo: dict[str, int]                    # "side|calibre|type" -> rounds
    rng: int
    weather: str
    memory: ChartMemory = field(default_factory=ChartMemory)
    preset_dice: list[int] = field(default_factory=list)
    pending: list[dict] = field(default_factory=list)
    order: list[str] = field(default_factory=list)          # who goes first in this phase
    markers: list[Barrage] = field(default_factory=list)
    missions: list[Mission] = field(default_factory=list)
    batteries_used: list[str] = field(default_factory=list)
    sorties: int = 0                                         # sorties available to the phasing side
    sfa_hexes: list[Hex] = field(default_factory=list)
    control: dict[Hex, str] = field(default_factory=dict)
    next_id: int = 1
    over: bool = False
    waiting: dict[str, str] = field(default_factory=dict)   # off-map reinforcements: unit -> clock or release group
    released: list[str] = field(default_factory=list)        # variable reinforcement groups released (BW 2.7, 3.3, 3.5)
    flags: list[str] = field(default_factory=list)           # game events rules key on ("trench": BW 3.3a, 3.5)
    marks: dict[str, str] = field(default_factory=dict)      # a game's own markers ("wire B16.30": "partial", BW 1.4)
    setup: list[str] = field(default_factory=list)           # sides still to set up before turn 1, in order (setupphase.py)

    def copy(self) -> "State":
        """A copy sharing nothing mutable with this state (a game's subclass keeps its class and extra fields)."""
        c = _shallow(self)
        units = c.units = {}
        new = object.__new__
        for k, u in self.units.items():      # _shallow inlined: hundreds of units, every action
            units[k] = x = new(type(u))
            x.__dict__ = u.__dict__.copy()
        c.sheets = {k: s.copy() for k, s in self.sheets.items()}
        c.battalions, c.bn_losses, c.ammo = dict(self.battalions), dict(self.bn_losses), dict(self.ammo)
        c.memory = self.memory.copy()
        c.preset_dice, c.pending, c.order = list(self.preset_dice), [dict(p) for p in self.pending], list(self.order)
        c.markers, c.missions = [m.copy() for m in self.markers], list(self.missions)
        c.batteries_used, c.sfa_hexes = list(self.batteries_used), list(self.sfa_hexes)
        c.control, c.waiting, c.released = dict(self.control), dict(self.waiting), list(self.released)
        c.flags, c.marks, c.setup = list(self.flags), dict(self.marks), list(self.setup)
        return c


def _shallow(obj):
    """A field-for-field copy of a dataclass instance without running ``__init__`` (``dataclasses.replace``
    costs ten times more, and a game state is copied for every action and every procedure)."""
    c = object.__new__(type(obj))
    c.__dict__ = obj.__dict__.copy()
    return c


def _pending_dict(p: dict) -> dict:
    out = {k: v for k, v in p.items() if k != "prompt"}
    if "prompt" in p:
        out["prompt"] = p["prompt"].to_dict()
    return out


def state_to_dict(st: State, hex_id) -> dict:
    """The state as plain data (JSON-able; the hash of the game is taken over it)."""
    hid = lambda h: hex_id(h) if h is not None else None  # noqa: E731
    return {
        "turn": st.turn, "step": st.step, "weather": st.weather, "rng": str(st.rng), "over": st.over,
        "units": {k: {"hex": hid(u.hex), "mode": u.mode, "steps_lost": u.steps_lost, "morale": u.morale_state,
                      "mp_used": str(u.mp_used), "moved": u.moved, "fired": u.fired, "fired_turn": u.fired_turn,
                      "sheet": u.sheet} for k, u in sorted(st.units.items())},
        "sheets": {k: {"side": s.side, "formation": s.formation, "type": s.type, "units": list(s.units),
                       "objective": [hid(h) for h in s.objective], "route": [hid(h) for h in s.route],
                       "implemented": s.implemented, "weighted_turns": s.weighted_turns, "size": s.size,
                       "reserve": s.reserve, "rolled": s.rolled} for k, s in sorted(st.sheets.items())},
        "battalions": dict(sorted(st.battalions.items())), "bn_losses": dict(sorted(st.bn_losses.items())),
        "ammo": dict(sorted(st.ammo.items())),
        "memory": st.memory.to_dict(),
        "preset_dice": list(st.preset_dice),
        "pending": [_pending_dict(p) for p in st.pending],
        "order": list(st.order),
        "markers": [{"id": m.id, "side": m.side, "kind": m.kind, "hex": hid(m.hex), "zone": [hid(h) for h in m.zone],
                     "battery": m.battery, "continuous": m.continuous, "level": m.level} for m in st.markers],
        "missions": [{"battery": m.battery, "hex": hid(m.hex), "spotter": m.spotter, "ammo": m.ammo,
                      "continuous": m.continuous} for m in st.missions],
        "batteries_used": list(st.batteries_used), "sorties": st.sorties,
        "sfa_hexes": [hid(h) for h in st.sfa_hexes],
        "control": {hid(h): s for h, s in sorted(st.control.items())},
        "next_id": st.next_id,
        "waiting": dict(sorted(st.waiting.items())), "released": list(st.released), "flags": list(st.flags), "marks": dict(sorted(st.marks.items())),
        # only while sides are setting up: a game with no set-up phase (or past it) keeps its plain form
        **({"setup": list(st.setup)} if st.setup else {}),
    }


__all__ = ["Barrage", "ChartPrompt", "Mission", "OpSheet", "State", "UnitState", "state_to_dict",
           "OK", "SUPPRESSED", "PARALYZED"]
