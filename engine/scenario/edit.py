"""Editing a scenario: order of battle, organisation tree, copy/paste and "N x", set-up areas, arrivals, checks.

Every operation takes a :class:`engine.scenario.Scenario` and returns a new
one; nothing here changes a scenario in place, so an editor can keep the old
one for undo.  ``check`` runs the same loader and set-up checks as a file
opened from disk, so what the editor accepts is what the game accepts.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from engine.maps.board import Board
from engine.errors import BadFile, Problem
from engine.scenario import (
    AreaContext, AreaError, AreaSyntaxError, Deployment, Reinforcement, Release, RollModifier, RollResult, RollTable,
    Scenario, Side, Unit, Victory, parse_area, parse_scenario, scenario_to_dict,
)
from engine.scenario.load import DATA_RULESETS
from engine.scenario.variable import DICE
from engine.scenario.setup import validate_setup
from engine.errors import excerpt

ORG_LEVELS = ("division", "regiment", "unit")
INDEPENDENT = "(independent)"


# ---------------------------------------------------------------- a new scenario

def new_scenario(id: str, name: str, ruleset: str, map_path: str, sides: list[Side], first_turn: int = 1,
                 last_turn: int = 10, first_side: str = "") -> Scenario:
    """An empty scenario on a map: sides, turns, no units yet."""
    return Scenario(id=id, name=name, ruleset=ruleset, map=str(map_path), map_path=str(Path(map_path).resolve()),
                    first_turn=first_turn, last_turn=last_turn, first_side=first_side or (sides[0].id if sides else ""),
                    sides={s.id: s for s in sides}, units={})


def set_turns(s: Scenario, first: int, last: int, names: list[str] | None = None) -> Scenario:
    """Turns ``first`` to ``last``, with a name per turn (dates, clock times like ``0600 Feb 10``) if given."""
    if last < first:
        raise ValueError(f"the last turn {last} is before the first {first}")
    names = tuple(names or ())
    if names and len(names) != last - first + 1:
        raise ValueError(f"expected {last - first + 1} turn names, found {len(names)}")
    return dataclasses.replace(s, first_turn=first, last_turn=last, turn_names=names)


# ---------------------------------------------------------------- order of battle

def add_unit(s: Scenario, unit: Unit, deployment: str = "") -> Scenario:
    """Add a unit (to a deployment group when one is named)."""
    if unit.id in s.units:
        raise ValueError(f"there is already a unit {unit.id!r}")
    if unit.side not in s.sides:
        raise ValueError(f"{unit.side!r} is not a side (sides: {', '.join(s.sides)})")
    _check_back(unit)
    s = dataclasses.replace(s, units={**s.units, unit.id: unit})
    return assign_deployment(s, [unit.id], deployment) if deployment else s


def update_unit(s: Scenario, uid: str, **changes) -> Scenario:
    """A unit with some of its fields changed (type, size, strengths, division, regiment …)."""
    units = dict(s.units)
    units[uid] = dataclasses.replace(units[uid], **changes)
    _check_back(units[uid])
    return dataclasses.replace(s, units=units)


def _check_back(u: Unit) -> None:
    """A unit's reduced values are three numbers, and only a unit with steps has them."""
    import re

    if u.reduced and not re.fullmatch(r"\d+-\d+-\d+", u.reduced):
        raise ValueError(f"expected the back's values like '2-2-5', found {u.reduced!r}")
    if u.reduced and u.steps < 2:
        raise ValueError(f"{u.id} has one step: a counter without steps has no back")


def remove_units(s: Scenario, ids: list[str]) -> Scenario:
    """Remove units from the order of battle and from every group that lists them."""
    gone = set(ids)
    return dataclasses.replace(
        s, units={k: u for k, u in s.units.items() if k not in gone},
        deployments=tuple(dataclasses.replace(d, units=tuple(u for u in d.units if u not in gone))
                          for d in s.deployments),
        reinforcements=tuple(dataclasses.replace(r, units=tuple(u for u in r.units if u not in gone))
                             for r in s.reinforcements if set(r.units) - gone))


def unique_id(taken, base: str) -> str:
    """``base`` if free, else ``base-2``, ``base-3`` …"""
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def copy_units(s: Scenario, ids: list[str]) -> list[Unit]:
    """The units to paste later (the clipboard holds plain unit records)."""
    return [s.units[i] for i in ids]


def paste_units(s: Scenario, clipboard: list[Unit], side: str = "", division: str | None = None,
                regiment: str | None = None, deployment: str = "") -> tuple[Scenario, list[str]]:
    """Add copies of clipboard units with fresh ids, into another side/division/regiment if given.

    Copies carry no set-up hex: they are placed by hand or by their area.
    """
    new_ids = []
    units = dict(s.units)
    for u in clipboard:
        uid = unique_id(units, _renamed(u, division, regiment))
        changes = {"id": uid, "hex": ""}
        if side:
            changes["side"] = side
        if division is not None:
            changes["division"] = division
        if regiment is not None:
            changes["regiment"] = regiment
        units[uid] = dataclasses.replace(u, **changes)
        new_ids.append(uid)
    s = dataclasses.replace(s, units=units)
    if deployment:
        s = assign_deployment(s, new_ids, deployment)
    else:
        s = _join_groups_of(s, [u.id for u in clipboard], new_ids)
    return s, new_ids


def _renamed(u: Unit, division: str | None, regiment: str | None) -> str:
    """A copy's id: the original's, with its division and regiment numbers swapped for the new ones."""
    parts = u.id.split("-")
    for old, new in ((u.regiment, regiment), (u.division, division)):
        if new is None or not old or old == new:
            continue
        for i in range(len(parts) - 1, -1, -1):
            if parts[i] == old:
                parts[i] = new
                break
    return "-".join(parts)


def multiply(s: Scenario, uid: str, n: int) -> tuple[Scenario, list[str]]:
    """"N x": the unit and ``n - 1`` copies of it, in the same group (ids numbered on)."""
    if n < 1:
        raise ValueError(f"expected a count of 1 or more, not {n}")
    new_ids: list[str] = []
    for _ in range(n - 1):
        s, ids = paste_units(s, [s.units[uid]])
        new_ids += ids
    return s, new_ids


def _join_groups_of(s: Scenario, originals: list[str], copies: list[str]) -> Scenario:
    """Put each copy into the deployment or reinforcement of its original (if that side matches)."""
    for orig, new in zip(originals, copies):
        if s.units[new].side != s.units.get(orig, s.units[new]).side:
            continue
        s = dataclasses.replace(
            s, deployments=tuple(dataclasses.replace(d, units=d.units + (new,)) if orig in d.units else d
                                 for d in s.deployments),
            reinforcements=tuple(dataclasses.replace(r, units=r.units + (new,)) if orig in r.units else r
                                 for r in s.reinforcements))
    return s


@dataclass
class OrgNode:
    """A node of the organisation tree: a side, division, regiment or unit."""

    level: str
    name: str
    unit: str = ""                       # the unit id, for a unit node
    children: list["OrgNode"] = field(default_factory=list)

    def unit_ids(self) -> list[str]:
        """Every unit under this node, in order."""
        if self.unit:
            return [self.unit]
        return [u for c in self.children for u in c.unit_ids()]


def org_tree(s: Scenario, side: str) -> OrgNode:
    """A side's order of battle as division > regiment > unit (units with neither stand alone)."""
    root = OrgNode("side", side)
    divs: dict[str, OrgNode] = {}
    for u in s.units_of(side):
        div = divs.get(u.division or INDEPENDENT)
        if div is None:
            div = divs[u.division or INDEPENDENT] = OrgNode("division", u.division or INDEPENDENT)
            root.children.append(div)
        parent = div
        if u.regiment and u.division:
            parent = next((c for c in div.children if c.level == "regiment" and c.name == u.regiment), None)
            if parent is None:
                parent = OrgNode("regiment", u.regiment)
                div.children.append(parent)
        parent.children.append(OrgNode("unit", u.name or u.id, u.id))
    return root


# ---------------------------------------------------------------- set-up

def within(n: int, hex_id: str) -> str:
    """The area expression "within N of HEX" (the seeds' "w/i 2 B16.29")."""
    return f"within {int(n)} of {hex_id}"


def union(*exprs: str) -> str:
    """Hexes in any of the areas."""
    parts = [e for e in exprs if e]
    return " or ".join(f"({e})" if " " in e else e for e in parts)


def area_hexes(board: Board, expr: str, context: AreaContext | None = None):
    """The hexes of an area expression on a board; ValueError with the reason when it is wrong."""
    try:
        return (context or AreaContext(board)).hexes(expr)
    except (AreaSyntaxError, AreaError) as e:
        raise ValueError(f"{expr!r}: {e}") from None


def set_deployment(s: Scenario, dep: Deployment) -> Scenario:
    """Add or replace (by id) a deployment group."""
    deps = [d for d in s.deployments if d.id != dep.id]
    at = next((i for i, d in enumerate(s.deployments) if d.id == dep.id), len(deps))
    deps.insert(at, dep)
    return dataclasses.replace(s, deployments=tuple(deps))


def assign_deployment(s: Scenario, ids: list[str], dep_id: str) -> Scenario:
    """Move units into a deployment group (out of any other group or reinforcement)."""
    moving = set(ids)
    deps = tuple(dataclasses.replace(d, units=tuple(u for u in d.units if u not in moving)
                                     + (tuple(i for i in ids) if d.id == dep_id else ()))
                 for d in s.deployments)
    if dep_id not in {d.id for d in deps}:
        raise ValueError(f"no deployment {dep_id!r}")
    reins = tuple(dataclasses.replace(r, units=tuple(u for u in r.units if u not in moving))
                  for r in s.reinforcements)
    return dataclasses.replace(s, deployments=deps, reinforcements=tuple(r for r in reins if r.units))


def place(s: Scenario, uid: str, hex_id: str) -> Scenario:
    """Set a unit's set-up hex (a unit dragged onto the map)."""
    return update_unit(s, uid, hex=hex_id)


def place_anywhere(s: Scenario, uid: str, hex_id: str) -> Scenario:
    """A unit dropped on the map sets up there: one in no set-up group joins its side's first group (a new group
    of its side when it has none); a unit that arrives later is refused."""
    if uid not in s.units:
        raise ValueError(f"no unit {uid!r}")
    arrives = next((r for r in s.reinforcements if uid in r.units), None)
    if arrives is not None:
        when = f"on turn {arrives.turn}" if arrives.turn is not None else "later"
        raise ValueError(f"{uid} arrives {when} with its reinforcements: take it out of them to set it up")
    if uid not in s.deployment_of():
        side = s.units[uid].side
        group = next((d for d in s.deployments if d.side == side), None)
        if group is None:
            group = Deployment(unique_id({d.id for d in s.deployments}, side), side,
                               max((d.order for d in s.deployments), default=0) + 1, "", ())
            s = set_deployment(s, group)
        s = assign_deployment(s, [uid], group.id)
    return place(s, uid, hex_id)


def not_placed(s: Scenario) -> list[str]:
    """Units that start on the map but have no hex yet (not arriving later, not set up by the player)."""
    later = {u for r in s.reinforcements for u in r.units}
    return [u.id for u in s.units.values() if not u.hex and u.id not in later
            and not getattr(s.sides.get(u.side), "player_setup", False)]


def auto_place(s: Scenario, board: Board, side: str = "") -> Scenario:
    """Place every unplaced unit of the set-up (of ``side``, if given) on a free hex of its areas, in order.

    "Set up by the player": the editor offers this as a starting point the player then adjusts.
    """
    ctx = AreaContext(board)
    taken = {u.hex for u in s.units.values() if u.hex}
    limit = s.stacking_limit or 1
    for u in s.initial_units():
        if u.hex or (side and u.side != side):
            continue
        allowed = None
        for expr in s.setup_area(u.id):
            hexes = set(area_hexes(board, expr, ctx))
            allowed = hexes if allowed is None else allowed & hexes
        allowed = set(board.hexes()) if allowed is None else allowed
        if s.play_area:
            allowed &= set(area_hexes(board, s.play_area, ctx))
        free = sorted((board.hex_id(h) for h in allowed), key=str)
        free = [h for h in free if sum(1 for v in s.units.values() if v.hex == h) < limit]
        if free:
            s = place(s, u.id, free[0])
            taken.add(free[0])
    return s


# ---------------------------------------------------------------- the map area in play, player set-up

def set_play_area(s: Scenario, expr: str, rule: str = "") -> Scenario:
    """Limit play to an area expression (a named area, ``columns 1 to 20 and rows 1 to 15`` …); "" is the whole map."""
    expr = expr.strip()
    if expr:
        try:
            parse_area(expr)
        except AreaSyntaxError as e:
            raise ValueError(f"bad area expression {expr!r}: {e}") from None
    return dataclasses.replace(s, play_area=expr, play_area_rule=rule.strip() if expr else "")


def set_player_setup(s: Scenario, side: str, on: bool) -> Scenario:
    """Whether the player sets up ``side``'s units in their areas (they may then have no default hex)."""
    if side not in s.sides:
        raise ValueError(f"{side!r} is not a side (sides: {', '.join(s.sides)})")
    sides = {k: (dataclasses.replace(v, player_setup=on) if k == side else v) for k, v in s.sides.items()}
    return dataclasses.replace(s, sides=sides)


# ---------------------------------------------------------------- the ruleset and its sides

SIDE_KEYS = ("side", "first_side", "otherwise", "winner")     # keys whose values name a side


def installed_rulesets() -> list:
    """The installed rulesets a hex-map scenario may name (their RulesetInfo), sorted by name."""
    from engine.rulesets import installed, ruleset_info

    return [i for i in (ruleset_info(n) for n in installed()) if i is not None and not i.own_format]


def expected_sides(ruleset: str) -> tuple[str, ...] | None:
    """The side ids a ruleset plays (None: any sides, or no such ruleset installed)."""
    from engine.rulesets import ruleset_info

    info = ruleset_info(ruleset)
    return info.sides if info is not None else None


def side_problem(s: Scenario) -> str | None:
    """Why the scenario's sides do not fit its ruleset, in words (None: they fit)."""
    from engine.rulesets import side_mismatch

    return side_mismatch(s.ruleset, list(s.sides)) if s.ruleset else None


def takes_rules_file(ruleset: str) -> bool:
    """Whether ``ruleset`` is configured by data, so that its rules may come from a shared rules file."""
    return ruleset in DATA_RULESETS


def set_rules_file(s: Scenario, file: str | Path | None) -> Scenario:
    """Play the scenario's data-configured ruleset with the rules in ``file`` (None: back to its own [rules]).

    The file is named relative to the scenario's folder when the scenario has a file, else by its full path
    (saving the scenario names it relative to where the scenario is saved).  ValueError says why it cannot be:
    a ruleset that takes no rules file, a file that is not there, or one that is not TOML.
    """
    if file is None:
        return dataclasses.replace(s, rules={})
    if not takes_rules_file(s.ruleset):
        raise ValueError(f"the ruleset {s.ruleset!r} takes no rules file (only {', '.join(DATA_RULESETS)} do)")
    path = Path(file).resolve()
    if not path.is_file():
        raise ValueError(f"the rules file {path} is not there")
    if path.suffix.lower() != ".toml":
        raise ValueError(f"the rules file {path.name} is not a .toml file")
    import os

    name = Path(os.path.relpath(path, Path(s.path).resolve().parent)).as_posix() if s.path else str(path)
    return dataclasses.replace(s, rules=name)


def rules_file(s: Scenario) -> Path | None:
    """The shared rules file the scenario names (None: its rules are its own [rules] table)."""
    name = s.rules if isinstance(s.rules, str) else ""
    if not name:
        return None
    return (Path(s.path).parent / name).resolve() if s.path else Path(name).resolve()


def suggest_side_map(s: Scenario, ruleset: str) -> dict[str, str]:
    """A first guess of which ruleset side each scenario side becomes: same id, else the same place in order."""
    want = expected_sides(ruleset) or ()
    out, free = {}, [w for w in want if w not in s.sides]
    for sid in s.sides:
        out[sid] = sid if sid in want else (free.pop(0) if free else "")
    return out


def with_ruleset(s: Scenario, ruleset: str) -> Scenario:
    """The scenario under another ruleset's name: its own ``[rules]`` table, written for the ruleset it had,
    stays behind (each data-configured ruleset reads its own keys: the free table's ``phases`` are names, the
    classic rules' are tables, so the table of one refuses to load under the other), and the new ruleset
    starts from its defaults; a shared rules file, which the editor shows and offers to change, is kept."""
    if ruleset == s.ruleset:
        return s
    rules = {} if isinstance(s.rules, dict) else s.rules
    return dataclasses.replace(s, ruleset=ruleset, rules=rules)


def set_ruleset(s: Scenario, ruleset: str, side_map: dict[str, str] | None = None) -> Scenario:
    """Play the scenario under ``ruleset``, its sides renamed by ``side_map`` (scenario side -> ruleset side)
    wherever a side is named; ValueError says why when the sides cannot be the ruleset's.  The scenario's own
    rules table stays behind when the ruleset changes (:func:`with_ruleset`)."""
    side_map = {k: v for k, v in (side_map or {}).items() if k != v}
    unknown = [k for k in side_map if k not in s.sides]
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: not a side of this scenario (sides: {', '.join(s.sides)})")
    renamed = [side_map.get(k, k) for k in s.sides]
    if len(set(renamed)) != len(renamed):
        raise ValueError(f"two sides would both become {next(x for x in renamed if renamed.count(x) > 1)!r}")
    from engine.rulesets import side_mismatch

    why = side_mismatch(ruleset, renamed)
    if why:
        raise ValueError(why)
    if not side_map:
        return with_ruleset(s, ruleset)
    return with_ruleset(_rename_sides(s, side_map), ruleset)


def _rename_sides(obj, side_map: dict[str, str]):
    """The same scenario data with side ids renamed under every field that names a side, and in the sides table."""
    if isinstance(obj, Side):
        return dataclasses.replace(obj, id=side_map.get(obj.id, obj.id))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {}
        for f in dataclasses.fields(obj):
            if not f.init:
                continue
            v = getattr(obj, f.name)
            if f.name in SIDE_KEYS and isinstance(v, str):
                new = side_map.get(v, v)
            elif f.name in SIDE_KEYS and isinstance(v, (tuple, list, frozenset)) and all(isinstance(x, str) for x in v):
                new = type(v)(side_map.get(x, x) for x in v)
            else:
                new = _rename_sides(v, side_map)
            if new is not v:
                changes[f.name] = new
        return dataclasses.replace(obj, **changes) if changes else obj
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = side_map.get(k, k) if isinstance(v, Side) else k
            out[key] = _rename_sides(v, side_map)
        return out if any(out[k] is not obj.get(k) for k in out) or out.keys() != obj.keys() else obj
    if isinstance(obj, (tuple, list)):
        out = [_rename_sides(v, side_map) for v in obj]
        return type(obj)(out) if any(a is not b for a, b in zip(out, obj)) else obj
    return obj


# ---------------------------------------------------------------- arrivals and victory

def add_reinforcement(s: Scenario, r: Reinforcement) -> Scenario:
    """Add a reinforcement group; its units leave any set-up group and lose their set-up hex."""
    moving = set(r.units)
    units = {k: (dataclasses.replace(u, hex="") if k in moving else u) for k, u in s.units.items()}
    deps = tuple(dataclasses.replace(d, units=tuple(x for x in d.units if x not in moving)) for d in s.deployments)
    reins = tuple(dataclasses.replace(x, units=tuple(y for y in x.units if y not in moving)) for x in s.reinforcements)
    return dataclasses.replace(s, units=units, deployments=deps,
                               reinforcements=tuple(x for x in reins if x.units) + (r,))


def parse_release(text: str) -> Release | None:
    """A release event written the way the editor takes it: ``turn 3``, ``soviet enters within 4 of 0707``
    (a unit of that side in that area) or ``entered g-r2 g-r3`` (all of them have entered play); "" is none."""
    words = text.split()
    if not words:
        return None
    if words[0] == "turn" and len(words) == 2 and words[1].isdigit():
        return Release("turn", turn=int(words[1]))
    if words[0] == "entered" and len(words) > 1:
        return Release("entered", units=tuple(w.strip(",") for w in words[1:]))
    if len(words) > 2 and words[1] == "enters":
        area = " ".join(words[2:])
        try:
            parse_area(area)
        except AreaSyntaxError as e:
            raise ValueError(f"bad area expression {area!r}: {e}") from None
        return Release("enters", side=words[0], area=area)
    raise ValueError(f"expected 'turn N', 'SIDE enters AREA' or 'entered UNIT …', found {excerpt(text)}")


def parse_roll(dice: str, text: str) -> RollTable | None:
    """A table written a row a line: ``5-6: g-r2 g-r3`` (those units), ``3-4: 1`` (the next unit held),
    ``11+: s-14``, and modifiers like ``+2 from turn 5``; no rows is no roll."""
    rows, mods = [], []
    if dice not in DICE:
        raise ValueError(f"{dice!r} is not one of: {', '.join(DICE)}")
    for n, line in enumerate(x.strip() for x in text.splitlines()):
        if not line:
            continue
        if line[0] in "+-" and "from turn" in line:
            add, _, turn = line.partition("from turn")
            try:
                mods.append(RollModifier(int(add), from_turn=int(turn)))
            except ValueError:
                raise ValueError(f"line {n + 1}: expected a modifier like '+2 from turn 5', found {line!r}") from None
            continue
        faces, sep, what = line.partition(":")
        what = what.split()
        try:
            if faces.strip().endswith("+"):
                lo, hi = int(faces.strip()[:-1]), None
            else:
                a, _, b = faces.partition("-")
                lo = int(a)
                hi = int(b) if b.strip() else lo
        except ValueError:
            raise ValueError(f"line {n + 1}: expected rolls like '5-6:', '11+:' or '4:', found {line!r}") from None
        if not sep or not what:
            raise ValueError(f"line {n + 1}: expected what the roll releases after ':', found {line!r}")
        if len(what) == 1 and what[0].isdigit():
            rows.append(RollResult(lo, hi, count=int(what[0])))
        else:
            rows.append(RollResult(lo, hi, units=tuple(w.strip(",") for w in what)))
    return RollTable(dice, tuple(rows), tuple(mods)) if rows else None


def set_victory(s: Scenario, victory: Victory | None) -> Scenario:
    return dataclasses.replace(s, victory=victory)


# ---------------------------------------------------------------- counter backs from a sheet's reverse

def reverse_grid(grid, sheet_width: int):
    """The counter grid of a sheet's reverse side scanned turned over (left and right swap)."""
    from engine.counters.sheet import CounterGrid

    return CounterGrid((sheet_width - grid.last[0], grid.first[1]), (sheet_width - grid.first[0], grid.last[1]),
                       grid.columns, grid.rows, grid.gutter)


def reverse_index(index: int, columns: int) -> int:
    """Where the back of the counter cut ``index``-th (row by row) lies on the reverse: its column mirrored."""
    row, col = divmod(index, columns)
    return row * columns + (columns - 1 - col)


def backs_on_reverse(s: Scenario, fronts: dict[str, int], columns: int) -> dict[str, int]:
    """For each unit with steps whose front is assigned, the index of its back on the reverse side."""
    return {uid: reverse_index(i, columns) for uid, i in fronts.items()
            if uid in s.units and s.units[uid].steps >= 2}


# ---------------------------------------------------------------- checks

def check(s: Scenario, board: Board | None = None) -> list[Problem]:
    """Every problem of the scenario as the loader and the set-up checks see it (empty: ready to play)."""
    doc = scenario_to_dict(s)
    if s.map_path:
        doc["scenario"]["map"] = s.map_path
    file = s.path or f"{s.id}.toml"
    try:
        parsed = parse_scenario(doc, file)
        problems = validate_setup(parsed, board) if board is not None else []
    except BadFile as e:
        parsed, problems = s, list(e.problems)
    if board is None:
        return problems
    ctx = AreaContext(board)
    parsed = dataclasses.replace(parsed, path=file)
    for d in parsed.deployments:
        if not d.area:
            continue
        try:
            n = len(ctx.hexes(d.area))
        except (AreaSyntaxError, AreaError) as e:
            problems.append(Problem(parsed.path, f"deployments.{d.id}.area", str(e)))
            continue
        room = n * (parsed.stacking_limit or len(d.units) or 1)
        if room < len(d.units):
            problems.append(Problem(parsed.path, f"deployments.{d.id}.area",
                                    f"{len(d.units)} units cannot set up in {n} hexes"))
    for i, r in enumerate(parsed.reinforcements):
        try:
            if not ctx.hexes(r.entry):
                problems.append(Problem(parsed.path, f"reinforcements[{i}].entry", f"{r.entry!r} names no hex"))
        except (AreaSyntaxError, AreaError) as e:
            problems.append(Problem(parsed.path, f"reinforcements[{i}].entry", str(e)))
        if r.release is not None and r.release.area:
            try:
                if not ctx.hexes(r.release.area):
                    problems.append(Problem(parsed.path, f"reinforcements[{i}].release.area",
                                            f"{r.release.area!r} names no hex"))
            except (AreaSyntaxError, AreaError) as e:
                problems.append(Problem(parsed.path, f"reinforcements[{i}].release.area", str(e)))
    if parsed.victory is not None:
        for c in parsed.victory.conditions:
            if c.area:
                try:
                    ctx.hexes(c.area)
                except (AreaSyntaxError, AreaError) as e:
                    problems.append(Problem(parsed.path, f"victory.conditions.{c.id}.area", str(e)))
    if not problems and parsed.ruleset in DATA_RULESETS:
        problems.extend(_rules_problems(parsed, board))
    problems.extend(_valueless_units(parsed))
    return problems


def _valueless_units(s: Scenario) -> list[Problem]:
    """Under the classic rules, units whose attack, defence and movement are all 0 (an imported VASSAL scenario's
    units have no values: the module's counters carry them only in their art): the rules would give them at most the
    minimum move of one hex and fight 0 against 0 at the best odds, so Check names them until their printed values
    are typed in."""
    if s.ruleset != "classic":
        return []
    blank = [u.id for u in s.units.values() if u.attack == 0 and u.defense == 0 and u.movement == 0]
    if not blank:
        return []
    shown = ", ".join(blank[:6]) + (f" and {len(blank) - 6:,} more" if len(blank) > 6 else "")
    return [Problem(s.path or f"{s.id}.toml", "units",
                    f"{len(blank):,} unit{'s have' if len(blank) > 1 else ' has'} attack, defence and movement 0: "
                    f"type each unit's printed values on the Order of battle page (the classic rules move and fight "
                    f"by them): {shown}")]


def _rules_problems(s: Scenario, board: Board) -> list[Problem]:
    """What a ruleset configured by data (free, classic) cannot use in the scenario's [rules]: a CRT row of the
    wrong length, a result not defined, a terrain missing from the chart, ... with the line and allowed values."""
    import importlib

    try:
        importlib.import_module(f"engine.rulesets.{s.ruleset}").rules_for_scenario(s, board)
    except BadFile as e:
        return list(e.problems)
    return []
