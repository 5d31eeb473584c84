"""A TCS scenario file: clock, weather, sides, formations, battalions, units, Op Sheets, artillery, air, victory.

The TCS reads its own scenario format (``[scenario] ruleset = "tcs"``), found
through the own-format hook like the skirmish's; docs/scenario-format.md
describes every key.  Counter values are never in the scenario: units name
their type, and the values come from the owner's counter manifest
(``tcs.counter.*`` chart slots).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import BadFile, Problem, excerpt
from ...fileio import read_toml
from .clock import parse_clock, turn_track

SHEET_TYPES = ("prepared_defense", "attack", "hasty_defense", "move")
AMMO_TYPES = ("he", "smoke", "illum")
MODES = ("move", "fire")
TOP = ("scenario", "options", "sides", "formations", "battalions", "units", "op_sheets", "batteries", "ammo",
       "preplotted", "air", "trps", "victory", "fire_shifts", "releases", "ammo_arrivals", "leros")
CONDITION_KINDS = ("occupy_all", "occupy_any", "occupy_at_least", "hold_fewer", "no_units", "exit", "no_exit")
EXIT_GROUPS = ("platoon", "company", "battalion", "regiment")      # BW 5.1: the intact formation an exit counts



# A game's own section of a scenario file and its reader ``read(reader, doc, board, units, sheets) -> dict``: each
# game registers its own (engine/rulesets/tcs/games/), the series never imports a game.
GAME_SECTIONS: dict = {}

@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    nation: str                     # the Artillery Adjustment Table line it uses (BW 3.2)
    command_prep: int               # TCS 6.9f
    staff: int = 0                  # the Staff modifier to the row (Leros 2.1d: some sides have none)
    max_implemented: int = 99       # implemented Op Sheets at one time (Leros 2.1b, BW 2.1b)
    staff_asked: bool = False       # the Staff modifier is the printed one, asked in play (Leros 4.6)


@dataclass(frozen=True)
class FormationSpec:
    id: str
    side: str
    name: str
    max_implemented: int = 1        # TCS 6.7b (3.1), read from BW 2.1b: one implemented and one not,
    max_sheets: int = 2             # or two not implemented
    command_prep: int = 0           # the formation's own rating (BW 2.1d, 3.1c); 0: the side's
    uncoordinated: bool = False     # BW 2.1e: an implementation releases one battalion at a time


@dataclass(frozen=True)
class UnitSpec:
    id: str
    side: str
    type: str                       # the counter manifest's unit type
    hex: str
    formation: str = ""
    battalion: str = ""
    vehicle: bool = False
    fo: bool = False
    mode: str = "fire"
    steps_lost: int = 0
    assault_trained: bool = False   # BW 1.12, Leros 1.7
    setup: str = ""                 # the area expression the unit may set up in (BW 1.10e/f); "" fixed at ``hex``
    setup_rule: str = ""            # the rule the set-up area comes from, cited when a placement is refused
    enters: str = ""                # a reinforcement's clock ("0900 10 Feb"); it is off the map until then
    entry: str = ""                 # the area expression it enters through (BW 1.10g/h)
    release: str = ""               # a variable reinforcement's release group (``[[releases]]``)


@dataclass(frozen=True)
class SheetSpec:
    id: str
    side: str
    formation: str
    type: str
    units: tuple[str, ...]
    objective: tuple[str, ...]
    route: tuple[str, ...] = ()
    implemented: bool = False
    weighted_turns: int = 0
    size: int = 0                   # the Op Sheet Size modifier to the Command Prep row (TCS 6.9f)
    reserve: bool = False           # TCS 6.14


@dataclass(frozen=True)
class BatterySpec:
    id: str
    side: str
    calibre: str                    # "105mm": the Barrage Values Chart row and the ammunition pool
    fires_as: str = "battery"       # or "battalion"
    unit: str = ""                  # an on-map mortar or gun unit that fires it and may spot for itself
    smoke: bool | None = None       # None: the series rule (80 mm and more, Leros 2.6)
    release: str = ""               # a variable-reinforcement group that makes it available (BW 3.5)
    smoke_rule: str = ""            # the rule cited when ``smoke`` is false ("BW 2.8"); "" cites the series rule


@dataclass(frozen=True)
class Preplot:
    clock: str
    battery: str
    hex: str


@dataclass(frozen=True)
class AirSpec:
    side: str
    table: str                      # the game's sortie availability chart slot, like "bw.air_sortie"
    sortie_type: str                # the counter manifest type whose firepower a sortie attacks with
    weather: tuple[str, ...] = ()   # weather states that allow sorties (empty: any)


@dataclass(frozen=True)
class FireShift:
    feature: str
    shift: int
    rule: str


@dataclass(frozen=True)
class Release:
    """A group of variable reinforcements (BW 2.7, 3.3, 3.5): rolled for each Command Phase once its trigger holds."""

    id: str
    side: str
    rule: str
    table: str = ""                 # a printed chart slot ("bw.german_reinforcements"); "" rolls ``at_least`` on 2d6
    at_least: int = 0               # BW 2.7: 11 or 12 on two dice
    trigger: str = ""               # "trench" (a Soviet unit has entered a trench hex, BW 3.3a/3.5), "entered:GROUP",
    #                                 or "at:CLOCK" (released at that turn without a roll, BW 4.3's schedule)
    result: str = "released"        # the table result that releases this group ("A", "B", "released")
    order: int = 0                  # German groups go in the order listed (BW 3.5 note: I-215's batteries first)


@dataclass(frozen=True)
class Condition:
    """A victory condition the engine evaluates at the end (BW 5.0): occupation, holding, exits."""

    id: str
    text: str
    kind: str                       # one of CONDITION_KINDS
    side: str                       # whose occupation (or whose units) it counts
    area: str = ""                  # an area expression on the map
    count: int = 0
    group: str = "battalion"        # exit and no_exit: the formation that must leave intact (EXIT_GROUPS)
    credit: str = ""                # occupy_at_least: hexes the game credits besides those held (BW scenario 2)


@dataclass(frozen=True)
class Level:
    """A victory level: ``at_least`` of ``conditions`` met (all if 0), or the ``otherwise`` level."""

    name: str
    winner: str
    conditions: tuple[str, ...] = ()
    at_least: int = 0
    rank: int = 0                   # position on the campaign scale (BW 5.1 shifts move along it)


@dataclass(frozen=True)
class Objective:
    hex: str
    points: int
    held_by: str = ""


@dataclass
class TcsScenario:
    """What a TCS game starts from (checked on loading)."""

    path: str
    id: str
    name: str
    map: str
    start: str
    end: str
    year: int
    first_player: str
    weather: str
    twilight: frozenset[str]
    sides: dict[str, SideSpec]
    formations: dict[str, FormationSpec]
    battalions: dict[str, tuple[str, int]]          # id -> (side, starting morale)
    units: list[UnitSpec]
    op_sheets: list[SheetSpec]
    batteries: list[BatterySpec]
    ammo: dict[tuple[str, str, str], int]           # (side, calibre, type) -> rounds
    preplotted: list[Preplot]
    air: list[AirSpec]
    trps: dict[str, tuple[str, ...]]
    objectives: list[Objective]
    fire_shifts: list[FireShift]
    options: dict = field(default_factory=dict)
    weather_table: str = ""                         # the game's weather chart slot ("bw.weather"); "" none
    variants: dict = field(default_factory=dict)
    ruleset: str = "tcs"
    play_area: str = ""                             # area expression; "" the whole map
    releases: list = field(default_factory=list)    # Release groups
    conditions: list = field(default_factory=list)  # victory Conditions
    levels: list = field(default_factory=list)      # victory Levels, best for the first side first
    holder: str = ""                                # who holds the condition hexes nobody occupies at the start
    shifts: list = field(default_factory=list)      # (side whose losses, per N units, toward side) BW 5.1
    ammo_arrivals: list = field(default_factory=list)  # (clock, side, calibre, type, rounds): BW 2.3c, 3.2c

    def turns(self):
        return turn_track(parse_clock(self.start, self.year), parse_clock(self.end, self.year), self.twilight)


DEFAULT_OPTIONS = {
    "stacking_units": 4,            # counters a hex may hold (FOs ignored, BW); game data
    "stacking_vehicles": 4,
    "sfa_morale_shift": 2,          # columns right on the target's morale check (3rd-edition notes; unverified)
    "bn_morale_step_losses": 5,     # steps a battalion loses per level of battalion morale (a choice)
    "bn_morale_max": 6,
    "overrun_mp": 3,                # movement points an overrun costs (a choice)
    "illum_radius": 3,              # hexes around an illum marker spotted as by day (a choice)
    "illum_always_scatters": False, # Leros 1.1g
    "smoke_level": 2,               # a new smoke marker's level (BW: Level 2 Smoke)
    "attack_zones_block_los": True, # Leros 1.4c/d: not in Gale or Storm
    "no_zone_block_weather": [],
    "no_smoke_weather": [],
    "game_rules": "",               # a game's own rules module under engine/rulesets/tcs/games ("black_wednesday")
    "full_breaches": [],            # wire hexes Fully Breached at the start (BW scenarios 4-8)
    "prep_log": "",                 # BW 2.4: the Prep Log fired ("historical" or a Log file beside the scenario)
    "prep_battalions": [],          # BW 2.4: the Log's columns this scenario uses (empty: all)
    "variants": [],                 # a game's optional rules in use (BW 4.1-4.7: "4.2", "4.6", ...)
    "looting_at_start": False,      # BW 2.1f: sheets implemented before play stay inside the looting limit
    "looting": [],                  # BW 2.1f: units under the looting restriction at the start (scenarios 4-6)
    "at289_division": "",           # BW 2.3a: the division the 289 AT Regiment serves ("": the game's default)
    "spotters": "any",              # who spots for a battery: "any" own unit (the series; BW 2.3a/d and 2.2d narrow
    #                                 it for the Soviets, BW 3.2d's Axis has no FO counters) or "fo" (FOs only)
}


GAME_RULES = ("black_wednesday",)   # games with rules of their own joined by the option (games/<name>_rules.py)

# what each option's value may be, beyond its type: (low, high) for numbers, "strings" for a list of strings,
# a tuple of the words allowed, or a check of its own
OPTION_RANGES = {
    "stacking_units": (1, 99), "stacking_vehicles": (0, 99), "sfa_morale_shift": (0, 10),
    "bn_morale_step_losses": (1, 99), "bn_morale_max": (0, 99), "overrun_mp": (0, 99), "illum_radius": (0, 20),
    "smoke_level": (1, 9),
}
OPTION_WORDS = {"spotters": ("any", "fo")}
OPTION_STRING_LISTS = ("no_zone_block_weather", "no_smoke_weather", "full_breaches", "prep_battalions", "variants",
                       "looting")
MAX_OPTION_ITEMS = 10_000


def option_problem(key: str, v) -> str | None:
    """Why the value ``v`` of option ``key`` (of the right type) cannot be used, or None."""
    if key in OPTION_RANGES:
        low, high = OPTION_RANGES[key]
        if not low <= v <= high:
            return f"expected a whole number from {low} to {high}, got {excerpt(v)}"
    elif key in OPTION_WORDS and v not in OPTION_WORDS[key]:
        return f"expected one of {', '.join(map(repr, OPTION_WORDS[key]))}, got {excerpt(v)}"
    elif key in OPTION_STRING_LISTS:
        if len(v) > MAX_OPTION_ITEMS or not all(isinstance(x, str) and 0 < len(x) <= 200 for x in v):
            return f"expected a list of names (strings of 1 to 200 characters), got {excerpt(v)}"
    elif key == "game_rules" and v and v not in GAME_RULES:
        return f"no game has rules called {excerpt(v)} (known games: {', '.join(GAME_RULES)}; \"\" for none)"
    elif key == "prep_log" and v and (len(v) > 1000 or "\0" in v):
        return f"expected \"historical\" or the name of a Prep Log file beside the scenario, got {excerpt(v)}"
    return None


class _Reader:
    def __init__(self, file: str):
        self.file, self.problems = file, []

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(Problem(self.file, key, msg))

    def get(self, d: dict, key: str, typ, where: str, default=None, required=False, choices=None):
        if key not in d:
            if required:
                self.bad(f"{where}.{key}", f"missing (expected {getattr(typ, '__name__', typ)})")
            return default
        v = d[key]
        if typ is float and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if not isinstance(v, typ) or (isinstance(v, bool) and typ is not bool):
            self.bad(f"{where}.{key}", f"expected {getattr(typ, '__name__', typ)}, got {v!r}")
            return default
        if choices is not None and v not in choices:
            self.bad(f"{where}.{key}", f"expected one of {', '.join(map(str, choices))}, got {v!r}")
            return default
        return v

    def strs(self, d: dict, key: str, where: str) -> tuple[str, ...]:
        v = d.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.bad(f"{where}.{key}", "expected a list of strings")
            return ()
        return tuple(v)

    def tables(self, doc: dict, key: str) -> list[tuple[str, dict]]:
        v = doc.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
            self.bad(key, f"expected [[{key}]] tables")
            return []
        return [(f"{key}[{i}]", x) for i, x in enumerate(v)]


def load_tcs_scenario(path: str | Path, variant=None) -> TcsScenario:
    """Read and check a TCS scenario file (BadFile lists every problem with its key)."""
    file = str(path)
    doc = read_toml(path)
    r = _Reader(file)
    for k in doc:
        if k not in TOP:
            r.bad(k, f"unknown section (expected one of {', '.join(TOP)})")
    head = doc.get("scenario", {})
    if not isinstance(head, dict):
        raise BadFile([Problem(file, "scenario", "expected a table")])
    g = lambda key, typ, **kw: r.get(head, key, typ, "scenario", **kw)  # noqa: E731
    sid = g("id", str, required=True, default="")
    name = g("name", str, default=sid)
    mp = g("map", str, required=True, default="")
    start, end = g("start", str, required=True, default=""), g("end", str, required=True, default="")
    year = g("year", int, default=1943)
    weather = g("weather", str, default="clear")
    twilight = frozenset(r.strs(head, "twilight", "scenario"))
    first = g("first_player", str, default="")
    weather_table = g("weather_table", str, default="")
    play_area = g("play_area", str, default="")
    if "playing_minutes" in head:            # the game library's playing time (engine/scenario/catalog.py)
        from engine.scenario.catalog import check_playing_minutes

        wrong = check_playing_minutes(head["playing_minutes"])
        if wrong:
            r.bad("scenario.playing_minutes", wrong)
    for key, val in (("start", start), ("end", end)):
        if val:
            try:
                parse_clock(val, year)
            except ValueError as e:
                r.bad(f"scenario.{key}", str(e))
    options = dict(DEFAULT_OPTIONS)
    raw_opts = doc.get("options", {})
    if not isinstance(raw_opts, dict):
        r.bad("options", f"expected a table of options ([options]), got {excerpt(raw_opts)}")
    else:
        for k, v in raw_opts.items():
            if k not in DEFAULT_OPTIONS:
                r.bad(f"options.{excerpt(k) if len(k) > 60 else k}", f"unknown option (expected one of "
                                                                     f"{', '.join(DEFAULT_OPTIONS)})")
            elif type(v) is not type(DEFAULT_OPTIONS[k]):
                r.bad(f"options.{k}", f"expected {type(DEFAULT_OPTIONS[k]).__name__}, got {excerpt(v)}")
            elif option_problem(k, v):
                r.bad(f"options.{k}", option_problem(k, v))
            else:
                options[k] = v
    sides: dict[str, SideSpec] = {}
    for where, t in r.tables(doc, "sides"):
        i = r.get(t, "id", str, where, required=True)
        if i is None:
            continue
        sides[i] = SideSpec(i, r.get(t, "name", str, where, default=i), r.get(t, "nation", str, where, default=i),
                            r.get(t, "command_prep", int, where, required=True, default=3),
                            r.get(t, "staff", int, where, default=0),
                            r.get(t, "max_implemented", int, where, default=99),
                            r.get(t, "staff_asked", bool, where, default=False))
    if len(sides) != 2:
        r.bad("sides", "expected exactly two [[sides]]")
    if first and first not in sides:
        r.bad("scenario.first_player", f"expected one of the sides ({', '.join(sides)})")

    def side_of(t, where):
        s = r.get(t, "side", str, where, required=True, default="")
        if s and s not in sides:
            r.bad(f"{where}.side", f"expected one of the sides ({', '.join(sides)}), got {s!r}")
        return s

    formations = {}
    for where, t in r.tables(doc, "formations"):
        i = r.get(t, "id", str, where, required=True)
        if i:
            formations[i] = FormationSpec(i, side_of(t, where), r.get(t, "name", str, where, default=i),
                                          r.get(t, "max_implemented", int, where, default=1),
                                          r.get(t, "max_sheets", int, where, default=2),
                                          r.get(t, "command_prep", int, where, default=0),
                                          r.get(t, "uncoordinated", bool, where, default=False))
    battalions = {}
    for where, t in r.tables(doc, "battalions"):
        i = r.get(t, "id", str, where, required=True)
        if i:
            battalions[i] = (side_of(t, where), r.get(t, "morale", int, where, default=0))
    units = []
    seen = set()
    for where, t in r.tables(doc, "units"):
        i = r.get(t, "id", str, where, required=True)
        if not i:
            continue
        if i in seen or " " in i or "+" in i:
            r.bad(f"{where}.id", f"unit ids are unique and have no spaces or '+' ({i!r})")
        seen.add(i)
        f = r.get(t, "formation", str, where, default="")
        if f and f not in formations:
            r.bad(f"{where}.formation", f"no formation {f!r}")
        b = r.get(t, "battalion", str, where, default="")
        if b and b not in battalions:
            r.bad(f"{where}.battalion", f"no battalion {b!r}")
        units.append(UnitSpec(i, side_of(t, where), r.get(t, "type", str, where, required=True, default=""),
                              r.get(t, "hex", str, where, required=True, default=""), f, b,
                              r.get(t, "vehicle", bool, where, default=False), r.get(t, "fo", bool, where, default=False),
                              r.get(t, "mode", str, where, default="fire", choices=MODES),
                              r.get(t, "steps_lost", int, where, default=0),
                              r.get(t, "assault_trained", bool, where, default=False),
                              r.get(t, "setup", str, where, default=""), r.get(t, "setup_rule", str, where, default=""),
                              r.get(t, "enters", str, where, default=""), r.get(t, "entry", str, where, default=""),
                              r.get(t, "release", str, where, default="")))
        if (units[-1].enters or units[-1].release) and not units[-1].entry:
            r.bad(f"{where}.entry", "a reinforcement needs the area it enters through")
        if units[-1].enters:
            try:
                parse_clock(units[-1].enters, year)
            except ValueError as e:
                r.bad(f"{where}.enters", str(e))
    sheets = []
    for where, t in r.tables(doc, "op_sheets"):
        i = r.get(t, "id", str, where, required=True)
        if not i:
            continue
        us = r.strs(t, "units", where)
        for u in us:
            if u not in seen:
                r.bad(f"{where}.units", f"no unit {u!r}")
        f = r.get(t, "formation", str, where, required=True, default="")
        if f and f not in formations:
            r.bad(f"{where}.formation", f"no formation {f!r}")
        sheets.append(SheetSpec(i, side_of(t, where), f, r.get(t, "type", str, where, required=True,
                                                               default="move", choices=SHEET_TYPES),
                                us, r.strs(t, "objective", where), r.strs(t, "route", where),
                                r.get(t, "implemented", bool, where, default=False),
                                r.get(t, "weighted_turns", int, where, default=0),
                                r.get(t, "size", int, where, default=0), r.get(t, "reserve", bool, where, default=False)))
    batteries = []
    for where, t in r.tables(doc, "batteries"):
        i = r.get(t, "id", str, where, required=True)
        if i:
            u = r.get(t, "unit", str, where, default="")
            if u and u not in seen:
                r.bad(f"{where}.unit", f"no unit {u!r}")
            batteries.append(BatterySpec(i, side_of(t, where), r.get(t, "calibre", str, where, required=True, default=""),
                                         r.get(t, "fires_as", str, where, default="battery", choices=("battery", "battalion")),
                                         u, r.get(t, "smoke", bool, where, default=None),
                                         r.get(t, "release", str, where, default=""),
                                         r.get(t, "smoke_rule", str, where, default="")))
    ammo = {}
    for where, t in r.tables(doc, "ammo"):
        s = side_of(t, where)
        c = r.get(t, "calibre", str, where, required=True, default="")
        for a in AMMO_TYPES:
            ammo[(s, c, a)] = r.get(t, a, int, where, default=0)
    pre = []
    for where, t in r.tables(doc, "preplotted"):
        c = r.get(t, "clock", str, where, required=True, default="")
        try:
            parse_clock(c, year)
        except ValueError as e:
            r.bad(f"{where}.clock", str(e))
        pre.append(Preplot(c, r.get(t, "battery", str, where, required=True, default=""),
                           r.get(t, "hex", str, where, required=True, default="")))
    air = [AirSpec(side_of(t, where), r.get(t, "table", str, where, required=True, default=""),
                   r.get(t, "sortie_type", str, where, required=True, default=""), r.strs(t, "weather", where))
           for where, t in r.tables(doc, "air")]
    trps: dict[str, tuple[str, ...]] = {}
    for where, t in r.tables(doc, "trps"):
        trps[side_of(t, where)] = r.strs(t, "hexes", where)
    shifts = [FireShift(r.get(t, "feature", str, where, required=True, default=""),
                        r.get(t, "shift", int, where, required=True, default=0),
                        r.get(t, "rule", str, where, default="")) for where, t in r.tables(doc, "fire_shifts")]
    releases = []
    for where, t in r.tables(doc, "releases"):
        releases.append(Release(r.get(t, "id", str, where, required=True, default=""), side_of(t, where),
                                r.get(t, "rule", str, where, default=""), r.get(t, "table", str, where, default=""),
                                r.get(t, "at_least", int, where, default=0), r.get(t, "trigger", str, where, default=""),
                                r.get(t, "result", str, where, default="released"), len(releases)))
    arrivals = []
    for where, t in r.tables(doc, "ammo_arrivals"):
        c = r.get(t, "clock", str, where, required=True, default="")
        try:
            parse_clock(c, year)
        except ValueError as e:
            r.bad(f"{where}.clock", str(e))
        s_, cal = side_of(t, where), r.get(t, "calibre", str, where, required=True, default="")
        for a in AMMO_TYPES:
            arrivals.append((c, s_, cal, a, r.get(t, a, int, where, default=0)))
    rel_ids = {x.id for x in releases}
    for i, u in enumerate(units):
        if u.release and u.release not in rel_ids:
            r.bad(f"units[{i}].release", f"no [[releases]] group {u.release!r}")
    for i, b in enumerate(batteries):
        if b.release and b.release not in rel_ids:
            r.bad(f"batteries[{i}].release", f"no [[releases]] group {b.release!r}")
    conditions, levels, vshifts, holder = [], [], [], ""
    objs = []
    vic = doc.get("victory", {})
    if isinstance(vic, dict):
        holder = r.get(vic, "holder", str, "victory", default="")
        for where, t in r.tables(vic, "conditions"):
            w = "victory." + where
            conditions.append(Condition(r.get(t, "id", str, w, required=True, default=""),
                                        r.get(t, "text", str, w, default=""),
                                        r.get(t, "kind", str, w, required=True, default="occupy_all",
                                              choices=CONDITION_KINDS),
                                        side_of(t, w), r.get(t, "area", str, w, default=""),
                                        r.get(t, "count", int, w, default=0),
                                        r.get(t, "group", str, w, default="battalion", choices=EXIT_GROUPS),
                                        r.get(t, "credit", str, w, default="", choices=("", "released_reserves"))))
        cids = {c.id for c in conditions}
        for where, t in r.tables(vic, "levels"):
            w = "victory." + where
            lv = Level(r.get(t, "name", str, w, required=True, default=""), r.get(t, "winner", str, w, default=""),
                       r.strs(t, "conditions", w), r.get(t, "at_least", int, w, default=0),
                       r.get(t, "rank", int, w, default=0))
            if lv.winner and lv.winner not in sides:
                r.bad(f"{w}.winner", f"expected one of the sides ({', '.join(sides)}) or \"\" for a draw")
            for c in lv.conditions:
                if c not in cids:
                    r.bad(f"{w}.conditions", f"no condition {c!r}")
            levels.append(lv)
        for where, t in r.tables(vic, "shifts"):
            w = "victory." + where
            vshifts.append((side_of(t, w), r.get(t, "per", int, w, required=True, default=1),
                           r.get(t, "toward", str, w, required=True, default="")))
        for where, t in r.tables(vic, "objectives"):
            objs.append(Objective(r.get(t, "hex", str, "victory." + where, required=True, default=""),
                                  r.get(t, "points", int, "victory." + where, default=1),
                                  r.get(t, "held_by", str, "victory." + where, default="")))
    _check_references(r, sides, formations, units, sheets, batteries, pre, air, weather_table)
    board = _board(file, mp, r)
    if board is not None:
        _check_hexes(board, r, units, sheets, pre, objs, trps)
        _check_areas(board, r, units, conditions, play_area)
    game = {}
    for section, read_section in GAME_SECTIONS.items():   # a game's own section ([leros]: its sea and air tracks)
        if section in doc:
            game = read_section(r, doc[section], board, units, sheets)
    if r.problems:
        raise BadFile(r.problems)
    sc = TcsScenario(file, sid, name, mp, start, end, year, first or next(iter(sides)), weather, twilight, sides,
                     formations, battalions, units, sheets, batteries, ammo, pre, air, trps, objs, shifts, options,
                     weather_table, play_area=play_area, releases=releases, conditions=conditions, levels=levels,
                     holder=holder, shifts=vshifts, ammo_arrivals=arrivals)
    sc.board = board
    sc.leros = game
    sc.game_name = g("game", str, default="")       # the printed game it is from ("Black Wednesday"): its own charts
    return sc


def _check_references(r: _Reader, sides, formations, units, sheets, batteries, pre, air, weather_table) -> None:
    """Op Sheets hold their own side's units, plots name batteries, game tables name chart slots."""
    from engine.charts import load_slots

    side_of = {u.id: u.side for u in units}
    for i, s in enumerate(sheets):
        f = formations.get(s.formation)
        if f is not None and f.side != s.side:
            r.bad(f"op_sheets[{i}].formation", f"{s.formation} is a formation of {f.side}, not {s.side}")
        for u in s.units:
            if u in side_of and side_of[u] != s.side:
                r.bad(f"op_sheets[{i}].units", f"{u} is a unit of {side_of[u]}, not {s.side}")
    names = {b.id for b in batteries}
    for i, p in enumerate(pre):
        if p.battery not in names:
            r.bad(f"preplotted[{i}].battery", f"no battery {p.battery!r} (batteries: {', '.join(sorted(names))})")
    slots = load_slots(Path(__file__).with_name("charts.toml"))
    for i, a in enumerate(air):
        if a.table not in slots:
            r.bad(f"air[{i}].table", f"no chart {a.table!r} (a sortie table like \"tcs.air_sortie\")")
    if weather_table and weather_table not in slots:
        r.bad("scenario.weather_table", f"no chart {weather_table!r} (a weather table like \"bw.weather\")")


def _check_areas(board, r: _Reader, units, conditions, play_area: str) -> None:
    """Set-up, entry and victory areas parse on the map, and a unit's hex lies in its set-up area (BW 1.10e/f)."""
    from ...scenario.areas import AreaContext, AreaError, AreaSyntaxError

    ctx = AreaContext(board)

    def hexes(where, expr):
        try:
            return ctx.hexes(expr)
        except (AreaSyntaxError, AreaError) as e:
            r.bad(where, f"{expr!r}: {e}")
            return None
    if play_area:
        hexes("scenario.play_area", play_area)
    for i, u in enumerate(units):
        if u.setup and not u.enters and not u.release:
            area = hexes(f"units[{i}].setup", u.setup)
            if area is not None and not area:
                r.bad(f"units[{i}].setup", f"{u.setup!r} has no hex on the map")
            try:
                h = board.parse_hex(u.hex)
            except Exception:  # noqa: BLE001 - the hex itself was reported by _check_hexes
                continue
            if area and h not in area:
                r.bad(f"units[{i}].hex", f"{u.id} at {u.hex} is outside its set-up area {u.setup!r} ({u.setup_rule})")
        if u.entry:
            area = hexes(f"units[{i}].entry", u.entry)
            if area is not None and not area:
                r.bad(f"units[{i}].entry", f"{u.entry!r} has no hex on the map")
    for i, c in enumerate(conditions):
        for part in c.area.split(";") if c.area else ():
            hexes(f"victory.conditions[{i}].area", part.strip())


def map_path(sc: TcsScenario) -> Path:
    p = Path(sc.map)
    return p if p.is_absolute() else Path(sc.path).parent / p


def _board(file: str, mp: str, r: _Reader):
    """The scenario's map (None, with the problem noted, if it is missing or bad)."""
    from engine.maps.mapfile import load_map

    if not mp:
        return None
    p = Path(mp) if Path(mp).is_absolute() else Path(file).parent / mp
    if not p.exists():
        r.bad("scenario.map", f"the map file {mp} is missing")
        return None
    try:
        return load_map(p)
    except BadFile as e:
        r.problems.extend(e.problems)
        return None


def _check_hexes(board, r: _Reader, units, sheets, pre, objs, trps) -> None:
    """Every hex the scenario names is on its map."""
    from ...errors import BadHexId

    def check(where, hid):
        if hid in board.boxes and where.startswith("units["):
            return                              # a unit that starts off the map, in one of its boxes
        try:
            board.parse_hex(hid)
        except BadHexId as e:
            r.bad(where, str(e))
    for i, u in enumerate(units):
        check(f"units[{i}].hex", u.hex)
    for i, s in enumerate(sheets):
        for h in s.objective + s.route:
            check(f"op_sheets[{i}]", h)
    for i, p in enumerate(pre):
        check(f"preplotted[{i}].hex", p.hex)
    for i, o in enumerate(objs):
        check(f"victory.objectives[{i}].hex", o.hex)
    for side, hexes in trps.items():
        for h in hexes:
            check(f"trps ({side})", h)
