"""Leros' sides, weather and tracks (Leros 1.2, 1.4, 3.6j), the off-map state the game keeps (boats, planes,
the tracks: :class:`Tracks`) and the map's Leros facts (all-sea hexes, landing zones, piers,
batteries, night turns); what ``leros.py``, ``leros_sea.py`` and ``leros_air.py`` share."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ....errors import IllegalAction
from ....maps.hexes import Hex
from ..sight import terrain_key

GERMAN, BRITISH = "german", "british"
WEATHER = ("Normal", "Wind", "Gale", "Storm")
HOLDING = {GERMAN: "kos", BRITISH: "samos"}
SEA_BOXES = ("A", "B", "C", "D")
# The stand-in Air Movement Track (the printed one is on the charts): Athens, six outward boxes, the Execution
# box; three return boxes back to Athens.  Leros 3.6j: "those first three boxes" (A, B, C) are on-the-ground
# preparation: weather never aborts a flight there and a self-abort goes straight back to Athens; D, E and F,
# the outward boxes opposite a returning box, face return boxes 3, 2 and 1.
AIR_OUT = ("air-A", "air-B", "air-C", "air-D", "air-E", "air-F", "air-execution")
AIR_BACK = ("air-return-1", "air-return-2", "air-return-3", "athens")
AIR_OPPOSITE = {"air-D": "air-return-3", "air-E": "air-return-2", "air-F": "air-return-1"}
PREP_BOXES = ("air-A", "air-B", "air-C")
SURRENDER_FROM = (13, 11, 1, 0)        # 0100 Nov 13 (day, month, hour, minute), Leros 1.3


def weather_effects(weather: str) -> dict:
    """What each weather allows (Leros 1.4a-d): sorties, air movement, smoke and illum, attack zones blocking
    LOS, and whether boats must roll to advance."""
    if weather not in WEATHER:
        raise IllegalAction("Leros 1.4", f"weather is one of {', '.join(WEATHER)}, not {weather!r}")
    bad = weather in ("Gale", "Storm")
    return {"sorties": not bad,                      # 1.4c, 1.4d
            "air_movement": weather == "Normal",     # 1.4: air movement only in Normal weather
            "smoke_illum": not bad,                  # 1.4c, 1.4d
            "zones_block_los": not bad,              # 1.4c, 1.4d
            "weather_limits_visibility": bad,        # the Weather Track (tcs.weather_visibility)
            "boats_roll": weather == "Storm"}        # 1.4d


# ---------------------------------------------------------------- the off-map state

@dataclass
class Boat:
    id: str
    type: str                           # counter type: "MFP", "I-Boat", "Barge", "M-Sweep", "Sub"
    side: str
    box: str                            # "kos"/"samos", "A".."D", "approach"
    load: list[str] = field(default_factory=list)
    lz: int = 0                         # the trip's Landing Zone (0: no trip)
    returning: bool = False
    sheet: str = ""                     # the load's Op Sheet (1.2f: units land with an implemented sheet)
    waited: bool = False                # reached its Landing Zone box this turn (lands next Action Phase)

    def copy(self) -> "Boat":
        return replace(self, load=list(self.load))


@dataclass
class Plane:
    """A Ju-52 and its flight (one or two units, Leros 3.6d) with the drop zone of its company."""

    id: str
    box: str                            # "athens", an AIR_OUT box or an AIR_BACK box
    load: list[str] = field(default_factory=list)
    dz: str = ""                        # the plotted drop zone hex id
    returning: bool = False
    aborted: bool = False

    def copy(self) -> "Plane":
        return replace(self, load=list(self.load))


@dataclass
class Tracks:
    """Everything Leros keeps off the map: boats, Ju-52s, units in boxes, surrender demands, plots."""

    boats: dict[str, Boat] = field(default_factory=dict)
    planes: dict[str, Plane] = field(default_factory=dict)
    boxed: dict[str, str] = field(default_factory=dict)        # unit -> "kos", "samos", "athens", "boat", "plane"
    drift: str = "N"                                            # 3.6a Direction of Drift
    demands: dict[str, int] = field(default_factory=lambda: {GERMAN: 0, BRITISH: 0})
    surrendered: str = ""
    surrender_turn: str = ""
    batteries_lost: list[str] = field(default_factory=list)     # 1.2g: occupied by the enemy
    landed: dict[str, int] = field(default_factory=dict)        # unit -> turn of its drop, until the next German
                                                                # Action Phase begins (3.6i: still landing)
    free_until: dict[str, int] = field(default_factory=dict)    # unit -> first turn it needs an Op Sheet (3.6i)
    naval_plot: list[str] = field(default_factory=list)         # 2.5 hexes noted at 1200
    reserve_requested: bool = False                             # 3.5
    reserve_groups: int = 0
    reserve_lock_until: int = -1                                # turn index of the next allowed request
    overstack_check: int = -1                                   # 3.6g: turn whose German action phase ends it
    german_sorties: tuple = (-1, 0)                             # 2.3b: (turn, sorties) of the German roll
    deadline: int = -1                                          # 3.5: turn by whose end the British must surrender

    def copy(self) -> "Tracks":
        return replace(self, boats={k: b.copy() for k, b in self.boats.items()},
                       planes={k: p.copy() for k, p in self.planes.items()}, boxed=dict(self.boxed),
                       demands=dict(self.demands), batteries_lost=list(self.batteries_lost),
                       landed=dict(self.landed), free_until=dict(self.free_until), naval_plot=list(self.naval_plot))

    def to_dict(self) -> dict:
        return {"boats": {k: {"type": b.type, "side": b.side, "box": b.box, "load": list(b.load), "lz": b.lz,
                              "returning": b.returning, "sheet": b.sheet, "waited": b.waited}
                          for k, b in sorted(self.boats.items())},
                "planes": {k: {"box": p.box, "load": list(p.load), "dz": p.dz, "returning": p.returning,
                               "aborted": p.aborted} for k, p in sorted(self.planes.items())},
                "boxed": dict(sorted(self.boxed.items())), "drift": self.drift, "demands": dict(self.demands),
                "surrendered": self.surrendered, "surrender_turn": self.surrender_turn,
                "batteries_lost": list(self.batteries_lost), "landed": dict(sorted(self.landed.items())),
                "free_until": dict(sorted(self.free_until.items())), "naval_plot": list(self.naval_plot),
                "reserve": [self.reserve_requested, self.reserve_groups, self.reserve_lock_until],
                "overstack_check": self.overstack_check, "german_sorties": list(self.german_sorties),
                "deadline": self.deadline}


# ---------------------------------------------------------------- the map's Leros facts

def is_all_sea(board, h: Hex) -> bool:
    """An all-sea hex (3.6h): off the map, or sea terrain without coast."""
    return h not in board or terrain_key(board, h) == "sea"


def lz_hexes(board, lz: int) -> list[Hex]:
    """The coastal hexes of a Landing Zone (1.2f: units land in any of them)."""
    area = board.areas.get(f"Landing Zone {lz}")
    if area is None:
        raise IllegalAction("Leros 1.2e", f"there is no Landing Zone {lz} on this map (1-16)")
    return sorted(area.hexes)


def piers_of(board, lz: int) -> list[Hex]:
    return [h for h in lz_hexes(board, lz) if "pier" in board.features_of(h)]


def battery_hexes(board) -> dict[str, Hex]:
    """Coastal batteries by letter ("Coastal Battery G" -> G)."""
    out = {}
    for name, area in board.areas.items():
        if name.startswith("Coastal Battery "):
            out[name.split()[-1]] = next(iter(area.hexes))
    return out


def night_turn(rules, st) -> bool:
    return rules.turns[st.turn].kind == "night"


def boxes_per_turn(rules, st) -> int:
    """Boats and Ju-52s move one box per turn, three at night (Leros 1.2a, 3.6b)."""
    return 3 if night_turn(rules, st) else 1


def side_of(rules, uid: str) -> str:
    return rules.specs[uid].side


def enemy_units_at(rules, st, h: Hex, side: str) -> list[str]:
    return [k for k, u in st.units.items() if u.hex == h and side_of(rules, k) != side]


def own_units_at(rules, st, h: Hex, side: str) -> list[str]:
    return [k for k, u in st.units.items() if u.hex == h and side_of(rules, k) == side]


def is_platoon(rules, uid: str) -> bool:
    """Platoon-sized units lose a step when their boat aborts (1.2g); the scenario names the others."""
    return uid not in rules.leros.get("not_platoons", ())


def is_heavy(rules, uid: str) -> bool:
    """Heavy Loading Point counters (1.2c): 120mm mortars, 88mm AT guns, halftrack AA, howitzers."""
    return uid in rules.leros.get("heavy", ())
