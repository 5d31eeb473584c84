"""Checking a set-up against the map and the scenario's set-up rules."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.maps.board import Board
from ..errors import BadHexId, Problem
from engine.maps.hexes import Hex, hex_neighbors
from .areas import AreaContext, AreaError
from typing import TYPE_CHECKING

if TYPE_CHECKING:                 # annotations only: the model asks this module, not the other way round
    from .model import Scenario, SetupRule


def placement_hexes(scenario: Scenario, board: Board, placement: dict[str, str | Hex] | None = None,
                    problems: list[Problem] | None = None) -> dict[str, Hex]:
    """Unit id -> hex of a placement (printed ids parsed); bad ids become problems."""
    placement = scenario.default_placement() if placement is None else placement
    out: dict[str, Hex] = {}
    for uid, where in placement.items():
        if isinstance(where, Hex):
            if where in board:
                out[uid] = where
            elif problems is not None:
                problems.append(Problem(scenario.path, f"units.{uid}.hex", f"{where} is off the map"))
            continue
        try:
            out[uid] = board.parse_hex(where)
        except BadHexId as e:
            if problems is not None:
                problems.append(Problem(scenario.path, f"units.{uid}.hex", str(e)))
    return out


def validate_setup(scenario: Scenario, board: Board, placement: dict[str, str | Hex] | None = None,
                   context: AreaContext | None = None) -> list[Problem]:
    """Every way a set-up breaks the map or the scenario's rules (empty when it is legal).

    ``placement`` maps unit ids to printed hex ids or hexes; by default the
    scenario's own default set-up is checked, where units of a side the
    player sets up may still be off the map (they are checked when placed).
    """
    problems: list[Problem] = []
    ctx = context or AreaContext(board)
    file = scenario.path
    where = placement_hexes(scenario, board, placement, problems)
    for uid in where:
        if uid not in scenario.units:
            problems.append(Problem(file, f"units.{uid}", "no such unit in the scenario"))
    waiting = set(scenario.player_sides()) if placement is None else set()
    missing = [u.id for u in scenario.initial_units() if u.id not in where and u.id not in _bad(problems)
               and u.side not in waiting]
    boxed = scenario.default_boxes() if placement is None else {}
    for uid, box in boxed.items():
        if box not in board.boxes:
            problems.append(Problem(file, f"units.{uid}.hex", f"there is no off-map box {box!r} on the map "
                                                              f"(boxes: {', '.join(board.boxes) or 'none'})"))
    for uid in missing:
        if uid in boxed:
            continue
        problems.append(Problem(file, f"units.{uid}.hex", "not placed (every unit of the set-up needs a hex)"))
    for uid in where:
        if uid in scenario.units and uid not in scenario.deployment_of():
            problems.append(Problem(file, f"units.{uid}.hex",
                                    "placed on the map, but it is not part of the initial set-up"))

    # stacking
    limit = scenario.stacking_limit
    if limit:
        counts = Counter(where.values())
        for h, n in sorted(counts.items()):
            if n > limit:
                ids = sorted(uid for uid, x in where.items() if x == h)
                problems.append(Problem(file, f"units.{ids[0]}.hex",
                                        f"{_cite(scenario.stacking_rule)}{n} units in hex {board.hex_id(h)} "
                                        f"({', '.join(ids)}); at most {limit} allowed"))

    # each unit inside its set-up areas: its deployment's, then its own
    deployment = {uid: d for d in scenario.deployments for uid in d.units}
    for uid, h in where.items():
        if uid not in scenario.units:
            continue
        areas = []
        if uid in deployment and deployment[uid].area:
            areas.append((deployment[uid].area, deployment[uid].rule))
        if scenario.units[uid].setup:
            areas.append((scenario.units[uid].setup, deployment[uid].rule if uid in deployment else ""))
        for expr, rule in areas:
            try:
                ok = ctx.contains(expr, h)
            except AreaError as e:
                problems.append(Problem(file, f"units.{uid}.setup", f"area {expr!r}: {e}"))
                continue
            if not ok:
                problems.append(Problem(file, f"units.{uid}.hex",
                                        f"{_cite(rule)}{board.hex_id(h)} is not in the set-up area {expr!r}"))

    # the map area in play
    if scenario.play_area:
        try:
            in_play = ctx.hexes(scenario.play_area)
        except AreaError as e:
            problems.append(Problem(file, "scenario.play_area", f"area {scenario.play_area!r}: {e}"))
            in_play = None
        for uid, h in where.items():
            if in_play is not None and h not in in_play:
                problems.append(Problem(file, f"units.{uid}.hex",
                                        f"{_cite(scenario.play_area_rule)}{board.hex_id(h)} is outside the map "
                                        f"area in play {scenario.play_area!r}"))

    # the scenario's set-up rules (those about a side still to be placed by the player wait for its placement)
    unplaced = {u.side for u in scenario.initial_units() if u.id not in where}
    for i, rule in enumerate(scenario.setup_rules):
        if waiting & unplaced and (rule.select.side in waiting or not rule.select.side):
            continue
        problems += check_setup_rule(scenario, board, ctx, where, rule, f"setup_rules[{i}]")
    return problems


def _bad(problems: list[Problem]) -> set[str]:
    return {p.key.split(".")[1] for p in problems if p.key.startswith("units.")}


def _cite(rule: str) -> str:
    return f"{rule}: " if rule else ""


def zone_of_control(hexes, board: Board, not_into=frozenset()) -> set[Hex]:
    """The hexes next to units (Demyansk 4: a unit's ZOC is its six neighbours), less hexes whose
    terrain or a feature is in ``not_into`` (Demyansk 6.2: not into fortifications)."""
    barred = set(not_into)
    out = set()
    for h in hexes:
        for n in hex_neighbors(h):
            if n in board and board.terrain_of(n) not in barred and not (board.features_of(n) & barred):
                out.add(n)
    return out


def check_setup_rule(scenario: Scenario, board: Board, ctx: AreaContext, where: dict[str, Hex],
                     rule: SetupRule, key: str) -> list[Problem]:
    """Problems with one set-up rule (an empty list when it holds)."""
    file = scenario.path
    try:
        area = ctx.hexes(rule.area)
    except AreaError as e:
        return [Problem(file, f"{key}.area", str(e))]
    dep = scenario.deployment_of()
    chosen = {uid: h for uid, h in where.items()
              if uid in scenario.units and rule.select.matches(scenario.units[uid], dep)}
    cite = _cite(rule.rule)
    what = rule.text or rule.area
    occupied = set(chosen.values())
    if rule.kind == "occupy_each":
        empty = sorted(area - occupied)
        if empty:
            return [Problem(file, key, f"{cite}{what}: no unit in {', '.join(board.hex_id(h) for h in empty)}")]
        return []
    if rule.kind == "cover":
        zoc = zone_of_control(occupied, board, set(rule.zoc_not_into))
        bare = sorted(area - occupied - zoc)
        if bare:
            return [Problem(file, key, f"{cite}{what}: neither a unit nor a zone of control in "
                                       f"{', '.join(board.hex_id(h) for h in bare)}")]
        return []
    n = sum(1 for h in chosen.values() if h in area)
    if rule.min is not None and n < rule.min:
        return [Problem(file, key, f"{cite}{what}: {n} units, at least {rule.min} needed")]
    if rule.max is not None and n > rule.max:
        return [Problem(file, key, f"{cite}{what}: {n} units, at most {rule.max} allowed")]
    return []


def scenario_board(scenario: Scenario) -> Board:
    """The map of a scenario, with every unit's hex checked to be on it; BadFile names the scenario file.

    This is the one place a scenario meets its map: the rules, the window and
    ``validate`` all come through it, so a missing map file or a unit on a
    hex the map does not have is refused when the scenario is loaded, with
    the scenario's file, the line and the unit (never later, as a crash when
    the game starts).
    """
    from engine.maps.mapfile import load_map
    from ..errors import BadFile

    file = scenario.path
    if not scenario.map_path:
        raise BadFile(_with_lines(file, [Problem(file, "scenario.map", "missing (expected the map file to play on)")]))
    from engine.fileio import is_file

    if not is_file(scenario.map_path):
        raise BadFile(_with_lines(file, [Problem(file, "scenario.map", f"the map file {scenario.map!r} does not exist "
                                                                       f"(looked for {scenario.map_path})")]))
    try:
        board = load_map(scenario.map_path)
    except BadFile as e:
        raise BadFile(_with_lines(file, [Problem(file, "scenario.map", f"the map {scenario.map!r} cannot be read:")])
                      + list(e.problems)) from None
    check_units_on_map(scenario, board)
    return board


def check_units_on_map(scenario: Scenario, board: Board) -> None:
    """Refuse (BadFile with the scenario's file, line and unit) a unit whose hex is not on ``board``."""
    from ..errors import BadFile

    problems = []
    for i, (uid, unit) in enumerate(scenario.units.items()):
        if not unit.hex:
            continue
        if unit.hex.startswith("box:"):
            if unit.hex[4:] not in board.boxes:
                problems.append(Problem(scenario.path, f"units[{i}].hex",
                                        f"unit {uid}: there is no off-map box {unit.hex[4:]!r} on the map "
                                        f"(boxes: {', '.join(board.boxes) or 'none'})"))
            continue
        try:
            board.parse_hex(unit.hex)
        except BadHexId as e:
            problems.append(Problem(scenario.path, f"units[{i}].hex", f"unit {uid}: {e}"))
    if problems:
        raise BadFile(_with_lines(scenario.path, problems))


def _with_lines(file: str, problems: list[Problem]) -> list[Problem]:
    """The problems with the line of their key in ``file`` where it can be found."""
    from engine.keypath import key_lines, line_of

    try:
        found = key_lines(Path(file).read_text("utf-8"))
    except (OSError, ValueError):
        return problems
    return [p if p.line is not None or not p.key else Problem(p.file, p.key, p.message, line_of(found, p.key))
            for p in problems]


def check_scenario_file(path) -> list[Problem]:
    """Every problem of a scenario file: the file itself, its map, and its default set-up on that map."""
    from ..errors import BadFile
    from .load import load_scenario

    try:
        scenario = load_scenario(path)
        board = scenario_board(scenario)
    except BadFile as e:
        return list(e.problems)
    return validate_setup(scenario, board)
