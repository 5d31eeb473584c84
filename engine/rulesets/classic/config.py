"""The classic rules as data: every table a scenario (or the shared rules file it names) gives, checked.

Each problem names the file, the key path, its line and the values allowed
(a CRT row of the wrong length, a result the ``[results]`` do not define, a
terrain of the map missing from the terrain effects chart, ...).  The keys
are documented in docs/classic-rules.md.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ...fileio import read_toml
from ..ruledata import RulesData

TOP_KEYS = ("file", "phases", "movement", "unit_types", "terrain", "hexside", "roads", "zoc", "stacking", "combat",
            "crt", "results", "retreat", "advance", "supply")
PHASE_DOES = ("move", "attack", "reinforce", "special")
LEAVE = ("free", "cost", "banned")
METHODS = ("odds", "differential")
ROUNDING = ("down", "up", "nearest")
BELOW = ("refused", "lowest")
SHIFT_KINDS = ("combined_arms", "all_across", "any_across", "attacker_types", "defender_types", "defender_terrain",
               "out_of_supply")
RESULT_KEYS = ("attacker_eliminated", "defender_eliminated", "attacker_steps", "defender_steps", "attacker_retreat",
               "defender_retreat", "exchange", "advance", "ask", "text")
THROUGH_ZOC = ("no", "allowed", "step_loss")
OFF_MAP = ("eliminated", "removed", "no")
HALVES = ("up", "down")


@dataclass(frozen=True)
class Phase:
    name: str
    side: str
    does: tuple[str, ...]
    types: tuple[str, ...] = ()          # only these unit types act ("" = all)
    rule: str = ""


@dataclass(frozen=True)
class Terrain:
    """One row of the terrain effects chart (a whole-hex terrain, a hex feature or a hexside feature)."""

    name: str
    mp: dict[str, float]                  # movement class -> MP (to enter, or added to cross a hexside)
    prohibited: frozenset[str] = frozenset()   # movement classes that may not enter / cross
    defense: float = 1.0                  # the defender's strength multiplier
    shift: int = 0                        # columns (negative: in the defender's favour)
    types: tuple[str, ...] = ()           # the multiplier or shift applies to these defender types only ("" = all)
    sides: tuple[str, ...] = ()           # ... and to defenders of these sides only
    all_attackers: bool = True            # a hexside's effect: only if every attacker attacks across one
    blocks_zoc: bool = False              # zones of control do not extend into it / across it
    rule: str = ""


@dataclass(frozen=True)
class Shift:
    name: str
    kind: str
    shift: int
    types: tuple[str, ...] = ()
    other: tuple[str, ...] = ()
    hexside: str = ""
    terrain: str = ""
    side: str = ""                        # out_of_supply: "attacker" or "defender"
    rule: str = ""


@dataclass(frozen=True)
class Result:
    code: str
    attacker_eliminated: bool = False
    defender_eliminated: bool = False
    attacker_steps: int = 0
    defender_steps: int = 0
    attacker_retreat: int = 0
    defender_retreat: int = 0
    exchange: bool = False
    advance: bool = True
    ask: bool = False
    text: str = ""


@dataclass(frozen=True)
class UnitType:
    name: str
    cls: str
    tags: frozenset[str] = frozenset()
    stack: int = 1
    zoc: bool = True


@dataclass
class Config:
    """Every table of the classic rules, checked."""

    phases: tuple[Phase, ...]
    classes: tuple[str, ...]
    unit_types: dict[str, UnitType]
    terrain: dict[str, Terrain]
    hexside: dict[str, Terrain]
    roads: dict[str, dict[str, float]]
    minimum_move: bool = True
    movement_rule: str = ""
    halves: str = "up"
    # zones of control
    zoc_stop: bool = True
    zoc_leave: dict[str, str] = field(default_factory=dict)        # side -> free | cost | banned
    zoc_leave_cost: dict[str, str] = field(default_factory=dict)   # side -> MP or "half"
    zoc_after_leaving: dict[str, bool] = field(default_factory=dict)  # side -> may enter another EZOC that phase
    zoc_to_zoc: bool = False
    zoc_rule: str = ""
    zoc_rules: dict[str, str] = field(default_factory=dict)
    # stacking
    stack_limit: int = 0
    stack_by: str = "count"
    stack_rule: str = ""
    # combat
    method: str = "odds"
    rounding: str = "down"
    columns: tuple[str, ...] = ()
    column_values: tuple[float, ...] = ()
    below: str = "refused"
    terrain_effect: str = "multiply"
    max_multiplier: float = 0.0
    max_terrain_shift: int = 0
    max_shift: int = 0
    shifts: tuple[Shift, ...] = ()
    attack_once: bool = True
    declare_first: bool = True
    combat_rule: str = ""
    # results
    crt_dice: int = 1
    crt_sides: int = 6
    crt_first: int = 1
    crt_rows: tuple[tuple[str, ...], ...] = ()
    crt_rule: str = ""
    results: dict[str, Result] = field(default_factory=dict)
    retreat_through_zoc: str = "no"
    retreat_off_map: str = "eliminated"
    retreat_rule: str = ""
    advance_allowed: bool = True
    advance_units: int = 1
    advance_rule: str = ""
    # supply
    supply: bool = False
    supply_sources: dict[str, str] = field(default_factory=dict)
    supply_range: int = 0
    supply_attack: float = 1.0
    supply_defense: float = 1.0
    supply_movement: float = 1.0
    supply_rule: str = ""


_RATIO = re.compile(r"^(\d+(?:\.\d+)?)[-:](\d+(?:\.\d+)?)$")
_DIFF = re.compile(r"^[+-]?\d+$")


def column_value(method: str, text: str) -> float | None:
    """The number a CRT column stands for: ``3-2`` -> 1.5 (odds), ``+2`` -> 2 (differential); None if malformed."""
    if method == "odds":
        m = _RATIO.match(text)
        return float(m.group(1)) / float(m.group(2)) if m and float(m.group(2)) else None
    return float(int(text)) if _DIFF.match(text) else None


DEFAULTS = Path(__file__).with_name("defaults.toml")
DEFAULT_KEYS = ("combat", "crt", "results")     # taken together from defaults.toml when the scenario gives none


def _defaults(d: RulesData, scenario, board) -> None:
    """Fill what the scenario's rules leave out: phases, unit types and a chart made from the scenario and its map,
    and (all three or none) the combat, CRT and results of defaults.toml."""
    data = d.data
    if "phases" not in data:
        sides = list(scenario.sides)
        if scenario.first_side in sides:
            i = sides.index(scenario.first_side)
            sides = sides[i:] + sides[:i]
        data["phases"] = [p for s in sides for p in (
            {"name": f"{scenario.sides[s].name} movement", "side": s, "does": ["move"]},
            {"name": f"{scenario.sides[s].name} combat", "side": s, "does": ["attack"]})]
    if "unit_types" not in data:
        data["unit_types"] = {t: {} for t in sorted({u.type for u in scenario.units.values()})}
    if "terrain" not in data:
        names = set(board.terrain.values()) | {"clear"}
        data["terrain"] = {t: {"mp": 1} for t in sorted(names)}
    if not any(k in data for k in DEFAULT_KEYS):
        for k, v in read_toml(DEFAULTS).items():
            data[k] = v
            d._where[k] = (str(DEFAULTS), "")


def read_config(scenario, board) -> Config:
    """The classic rules of a scenario, or BadFile listing every problem with its file, key, line and allowed values."""
    d = RulesData(scenario)
    _defaults(d, scenario, board)
    data = d.data
    for k in data:
        if k not in TOP_KEYS:
            d.bad(k, f"unknown key of the classic rules (expected one of: {', '.join(TOP_KEYS[1:])})")
    sides = tuple(scenario.sides)

    # ---------------------------------------------------------------- phases
    phases = []
    items = data.get("phases", [])
    if not isinstance(items, list) or not items:
        d.bad("phases", "expected [[phases]] tables: each a name, the side that acts and what it does "
                        f"(does: {', '.join(PHASE_DOES)})")
        items = []
    for i, t in enumerate(items):
        key = f"phases[{i}]"
        if not isinstance(t, dict):
            d.bad(key, "expected a table")
            continue
        for k in t:
            if k not in ("name", "side", "does", "types", "rule"):
                d.bad(f"{key}.{k}", "unknown key (expected one of: name, side, does, types, rule)")
        name = d.value(t, key, "name", str, f"phase {i + 1}")
        side = d.value(t, key, "side", str, "", sides)
        if "side" not in t:
            d.bad(f"{key}.side", f"missing: the side that acts (sides: {', '.join(sides)})")
        does = d.strings(t, key, "does", (), PHASE_DOES)
        phases.append(Phase(name, side, does, d.strings(t, key, "types"), d.value(t, key, "rule", str, "")))
    if len({p.name for p in phases}) != len(phases):
        d.bad("phases", "two phases have the same name")

    # ---------------------------------------------------------------- movement and unit types
    mv = d.table(data, "", "movement", ("classes", "minimum_move", "halves", "rule"))
    classes = d.strings(mv, "movement", "classes", ("foot",))
    if not classes:
        d.bad("movement.classes", "expected at least one movement class, like [\"foot\", \"tracked\"]")
    unit_types: dict[str, UnitType] = {}
    ut = d.table(data, "", "unit_types")
    for name, t in ut.items():
        key = f"unit_types.{name}"
        if not isinstance(t, dict):
            d.bad(key, "expected a table (class, tags, stack, zoc)")
            continue
        for k in t:
            if k not in ("class", "tags", "stack", "zoc"):
                d.bad(f"{key}.{k}", "unknown key (expected one of: class, tags, stack, zoc)")
        cls = d.value(t, key, "class", str, classes[0] if classes else "foot", classes)
        unit_types[name] = UnitType(name, cls, frozenset(d.strings(t, key, "tags")),
                                    d.value(t, key, "stack", int, 1), d.value(t, key, "zoc", bool, True))
    used = sorted({u.type for u in scenario.units.values()})
    for t in used:
        if t not in unit_types:
            first = next(i for i, u in enumerate(scenario.units.values()) if u.type == t)
            d.bad("unit_types", f"the unit type {t!r} (units[{first}]) has no row "
                                f"(rows: {', '.join(unit_types) or 'none'}); give its movement class "
                                f"(classes: {', '.join(classes)})")

    def chart_row(table_key: str, name: str, t, hexside: bool) -> Terrain | None:
        key = f"{table_key}.{name}"
        if not isinstance(t, dict):
            d.bad(key, "expected a table (mp, prohibited, defense, shift, ...)")
            return None
        allowed = ("mp", "prohibited", "defense", "shift", "types", "sides", "blocks_zoc", "rule") + \
            (("all_attackers",) if hexside else ())
        for k in t:
            if k not in allowed:
                d.bad(f"{key}.{k}", f"unknown key (expected one of: {', '.join(allowed)})")
        mp: dict[str, float] = {}
        raw = t.get("mp", 0 if hexside else None)
        prohibited = t.get("prohibited", False)
        if prohibited is True:
            banned = frozenset(classes)
        elif isinstance(prohibited, list):
            banned = frozenset(d.strings(t, key, "prohibited", (), classes))
        else:
            banned = frozenset()
            if prohibited is not False:
                d.bad(f"{key}.prohibited", f"expected true, false or a list of movement classes ({', '.join(classes)})")
        if isinstance(raw, (int, float)) and not isinstance(raw, bool):
            mp = {c: float(raw) for c in classes}
        elif isinstance(raw, dict):
            for c, v in raw.items():
                if c not in classes:
                    d.bad(f"{key}.mp.{c}", f"{c!r} is not a movement class (classes: {', '.join(classes)})")
                elif not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
                    d.bad(f"{key}.mp.{c}", f"expected a number of MP 0 or more, found {v!r}")
                else:
                    mp[c] = float(v)
            for c in classes:
                if c not in mp and c not in banned:
                    d.bad(f"{key}.mp", f"no cost for the movement class {c!r} (give one, or list it in prohibited; "
                                       f"classes: {', '.join(classes)})")
        elif raw is None and banned != frozenset(classes):
            d.bad(f"{key}.mp", f"missing: the MP to enter, a number or one per class ({', '.join(classes)})")
        elif raw is not None:
            d.bad(f"{key}.mp", f"expected a number or a table of numbers by class, found {raw!r}")
        defense = d.value(t, key, "defense", (int, float), 1)
        return Terrain(name, mp, banned, float(defense), d.value(t, key, "shift", int, 0), d.strings(t, key, "types"),
                       d.strings(t, key, "sides", (), sides), d.value(t, key, "all_attackers", bool, True),
                       d.value(t, key, "blocks_zoc", bool, False), d.value(t, key, "rule", str, ""))

    terrain = {}
    for name, t in d.table(data, "", "terrain").items():
        row = chart_row("terrain", name, t, False)
        if row:
            terrain[name] = row
    on_map = sorted(set(board.terrain.values()) | ({"clear"} if len(board.terrain) < len(board.hexes()) else set()))
    for name in on_map:
        if name not in terrain:
            d.bad("terrain", f"the map's terrain {name!r} is missing from the terrain effects chart "
                             f"(rows: {', '.join(terrain) or 'none'}; the map's terrains: {', '.join(on_map)})")
    hexside = {}
    for name, t in d.table(data, "", "hexside").items():
        row = chart_row("hexside", name, t, True)
        if row:
            hexside[name] = row
    roads = {}
    for name, t in d.table(data, "", "roads").items():
        key = f"roads.{name}"
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            roads[name] = {c: float(t) for c in classes}
        elif isinstance(t, dict):
            roads[name] = {}
            for c in classes:
                v = t.get(c)
                if not isinstance(v, (int, float)) or isinstance(v, bool):
                    d.bad(f"{key}.{c}", f"expected the MP per hex along the {name} for class {c!r}")
                else:
                    roads[name][c] = float(v)
        else:
            d.bad(key, f"expected MP per hex along a {name} (a number, or one per class: {', '.join(classes)})")
        if name not in board.links:
            d.bad(key, f"the map has no {name!r} links (links: {', '.join(board.links) or 'none'})")

    # ---------------------------------------------------------------- zones of control
    zoc = d.table(data, "", "zoc", ("stop", "leave", "leave_cost", "enter_another", "zoc_to_zoc", "rule", "sides"))
    cfg_zoc_leave, cfg_leave_cost, cfg_after, zoc_rules = {}, {}, {}, {}
    per_side = d.table(zoc, "zoc", "sides")
    for s in per_side:
        if s not in sides:
            d.bad(f"zoc.sides.{s}", f"{s!r} is not a side (sides: {', '.join(sides)})")
    for s in sides:
        t = per_side.get(s, {}) if isinstance(per_side.get(s, {}), dict) else {}
        key = f"zoc.sides.{s}"
        cfg_zoc_leave[s] = d.value(t, key, "leave", str, d.value(zoc, "zoc", "leave", str, "free", LEAVE), LEAVE)
        cost = t.get("leave_cost", zoc.get("leave_cost", 0))
        if not (cost == "half" or (isinstance(cost, int) and not isinstance(cost, bool) and cost >= 0)):
            d.bad(f"{key}.leave_cost" if "leave_cost" in t else "zoc.leave_cost",
                  f"expected MP (a whole number) or \"half\" (half the allowance), found {cost!r}")
            cost = 0
        cfg_leave_cost[s] = cost
        cfg_after[s] = d.value(t, key, "enter_another", bool, d.value(zoc, "zoc", "enter_another", bool, True))
        zoc_rules[s] = d.value(t, key, "rule", str, "")

    # ---------------------------------------------------------------- stacking
    st = d.table(data, "", "stacking", ("limit", "by", "rule"))
    cfg = Config(tuple(phases), classes, unit_types, terrain, hexside, roads,
                 minimum_move=d.value(mv, "movement", "minimum_move", bool, True),
                 movement_rule=d.value(mv, "movement", "rule", str, ""),
                 halves=d.value(mv, "movement", "halves", str, "up", HALVES),
                 zoc_stop=d.value(zoc, "zoc", "stop", bool, True), zoc_leave=cfg_zoc_leave,
                 zoc_leave_cost=cfg_leave_cost, zoc_after_leaving=cfg_after,
                 zoc_to_zoc=d.value(zoc, "zoc", "zoc_to_zoc", bool, False),
                 zoc_rule=d.value(zoc, "zoc", "rule", str, ""),
                 zoc_rules=zoc_rules,
                 stack_limit=d.value(st, "stacking", "limit", int, 0),
                 stack_by=d.value(st, "stacking", "by", str, "count", ("count", "points")),
                 stack_rule=d.value(st, "stacking", "rule", str, ""))

    # ---------------------------------------------------------------- combat
    cb = d.table(data, "", "combat", ("method", "rounding", "columns", "below", "terrain", "max_multiplier",
                                      "max_terrain_shift", "max_shift", "shifts", "attack_once", "declare_first",
                                      "rule"))
    cfg.method = d.value(cb, "combat", "method", str, "odds", METHODS)
    cfg.rounding = d.value(cb, "combat", "rounding", str, "down", ROUNDING)
    cfg.columns = d.strings(cb, "combat", "columns")
    values = []
    for i, c in enumerate(cfg.columns):
        v = column_value(cfg.method, c)
        if v is None:
            d.bad(f"combat.columns[{i}]", f"{c!r} is not a column of the {cfg.method} method "
                                          + ("(like \"3-2\" or \"2:1\")" if cfg.method == "odds"
                                             else "(like \"-2\" or \"+3\")"))
            v = float("nan")
        values.append(v)
    if not cfg.columns:
        d.bad("combat.columns", "missing: the CRT's columns, lowest first (like [\"1-2\", \"1-1\", \"2-1\"] or "
                                "[\"-2\", \"0\", \"+2\"])")
    elif any(b <= a for a, b in zip(values, values[1:])):
        d.bad("combat.columns", "the columns must rise from the lowest to the highest")
    cfg.column_values = tuple(values)
    cfg.below = d.value(cb, "combat", "below", str, "refused", BELOW)
    cfg.terrain_effect = d.value(cb, "combat", "terrain", str, "multiply", ("multiply", "shift", "both"))
    cfg.max_multiplier = float(d.value(cb, "combat", "max_multiplier", (int, float), 0))
    cfg.max_terrain_shift = d.value(cb, "combat", "max_terrain_shift", int, 0)
    cfg.max_shift = d.value(cb, "combat", "max_shift", int, 0)
    cfg.attack_once = d.value(cb, "combat", "attack_once", bool, True)
    cfg.declare_first = d.value(cb, "combat", "declare_first", bool, True)
    cfg.combat_rule = d.value(cb, "combat", "rule", str, "")
    shifts = []
    raw = cb.get("shifts", [])
    if not isinstance(raw, list):
        d.bad("combat.shifts", "expected [[combat.shifts]] tables")
        raw = []
    for i, t in enumerate(raw):
        key = f"combat.shifts[{i}]"
        if not isinstance(t, dict):
            d.bad(key, "expected a table")
            continue
        for k in t:
            if k not in ("name", "kind", "shift", "types", "other", "hexside", "terrain", "side", "rule"):
                d.bad(f"{key}.{k}", "unknown key (expected one of: name, kind, shift, types, other, hexside, "
                                    "terrain, side, rule)")
        kind = d.value(t, key, "kind", str, "", SHIFT_KINDS)
        if "kind" not in t:
            d.bad(f"{key}.kind", f"missing (kinds: {', '.join(SHIFT_KINDS)})")
        hs = d.value(t, key, "hexside", str, "")
        if kind in ("all_across", "any_across") and hs not in hexside:
            d.bad(f"{key}.hexside", f"{hs!r} is not a row of [hexside] (rows: {', '.join(hexside) or 'none'})")
        tr = d.value(t, key, "terrain", str, "")
        if kind == "defender_terrain" and tr not in terrain:
            d.bad(f"{key}.terrain", f"{tr!r} is not a row of [terrain] (rows: {', '.join(terrain)})")
        shifts.append(Shift(d.value(t, key, "name", str, kind), kind or "", d.value(t, key, "shift", int, 0),
                            d.strings(t, key, "types"), d.strings(t, key, "other"), hs, tr,
                            d.value(t, key, "side", str, "attacker", ("attacker", "defender")),
                            d.value(t, key, "rule", str, "")))
    cfg.shifts = tuple(shifts)

    # ---------------------------------------------------------------- results and the CRT
    results = {}
    for code, t in d.table(data, "", "results").items():
        key = f"results.{code}"
        if not isinstance(t, dict):
            d.bad(key, "expected a table of what the result does (" + ", ".join(RESULT_KEYS) + ")")
            continue
        for k in t:
            if k not in RESULT_KEYS:
                d.bad(f"{key}.{k}", f"unknown key (expected one of: {', '.join(RESULT_KEYS)})")
        results[code] = Result(code, **{k: d.value(t, key, k, type(getattr(Result, k)) if k != "text" else str,
                                                   getattr(Result, k)) for k in RESULT_KEYS})
    crt = d.table(data, "", "crt", ("dice", "sides", "rows", "rule"))
    cfg.crt_dice = d.value(crt, "crt", "dice", int, 1)
    cfg.crt_sides = d.value(crt, "crt", "sides", int, 6)
    cfg.crt_first = cfg.crt_dice
    cfg.crt_rule = d.value(crt, "crt", "rule", str, "")
    rows = crt.get("rows", [])
    want = cfg.crt_dice * cfg.crt_sides - cfg.crt_dice + 1
    if not isinstance(rows, list) or len(rows) != want:
        d.bad("crt.rows", f"expected {want} rows, one for each roll of {cfg.crt_dice}d{cfg.crt_sides} "
                          f"({cfg.crt_first} to {cfg.crt_dice * cfg.crt_sides}), found "
                          f"{len(rows) if isinstance(rows, list) else rows!r}")
        rows = rows if isinstance(rows, list) else []
    out_rows = []
    for i, row in enumerate(rows):
        key = f"crt.rows[{i}]"
        if not isinstance(row, list) or len(row) != len(cfg.columns):
            d.bad(key, f"the row for a roll of {cfg.crt_first + i} has {len(row) if isinstance(row, list) else 0} "
                       f"cells; expected {len(cfg.columns)}, one per column ({', '.join(cfg.columns)})")
            continue
        for j, cell in enumerate(row):
            if cell not in results:
                d.bad(key, f"column {cfg.columns[j]}: the result {cell!r} is not defined in [results] "
                           f"(results: {', '.join(results) or 'none'})")
        out_rows.append(tuple(row))
    cfg.crt_rows = tuple(out_rows)
    cfg.results = results

    rt = d.table(data, "", "retreat", ("through_enemy_zoc", "off_map", "rule"))
    cfg.retreat_through_zoc = d.value(rt, "retreat", "through_enemy_zoc", str, "no", THROUGH_ZOC)
    cfg.retreat_off_map = d.value(rt, "retreat", "off_map", str, "eliminated", OFF_MAP)
    cfg.retreat_rule = d.value(rt, "retreat", "rule", str, "")
    av = d.table(data, "", "advance", ("allowed", "units", "rule"))
    cfg.advance_allowed = d.value(av, "advance", "allowed", bool, True)
    cfg.advance_units = d.value(av, "advance", "units", int, 1)
    cfg.advance_rule = d.value(av, "advance", "rule", str, "")

    sp = d.table(data, "", "supply", ("enabled", "sources", "range", "attack", "defense", "movement", "rule"))
    cfg.supply = d.value(sp, "supply", "enabled", bool, False)
    if cfg.supply:
        src = d.table(sp, "supply", "sources")
        for s in sides:
            if s not in src or not isinstance(src[s], str):
                d.bad("supply.sources", f"expected an area expression for each side's supply sources "
                                        f"(sides: {', '.join(sides)}), missing {s!r}")
        cfg.supply_sources = {s: v for s, v in src.items() if isinstance(v, str)}
        cfg.supply_range = d.value(sp, "supply", "range", int, 0)
        if cfg.supply_range <= 0:
            d.bad("supply.range", "expected the number of hexes a supply line may run (1 or more)")
    cfg.supply_attack = float(d.value(sp, "supply", "attack", (int, float), 1))
    cfg.supply_defense = float(d.value(sp, "supply", "defense", (int, float), 1))
    cfg.supply_movement = float(d.value(sp, "supply", "movement", (int, float), 1))
    cfg.supply_rule = d.value(sp, "supply", "rule", str, "")
    d.check()
    return cfg
