"""Bind the Demyansk ruleset to a loaded scenario (``engine.scenario.Scenario``) and its map."""
from __future__ import annotations

from ...errors import BadFile, Problem
from .rules import DemyanskRules
from .units import UnitSpec

VICTORY_KINDS = {"open_path": "open-line", "points": "points", "conditions": "conditions"}


def _is_pocket(scenario, uid: str) -> bool:
    """A unit begins in the pocket (7.2) when its deployment's area or id names the pocket, or it is flagged so."""
    unit = scenario.units[uid]
    if unit.side != "german":
        return False
    if unit.has_flag("pocket"):
        return True
    for d in scenario.deployments:
        if uid in d.units and ("pocket" in d.area.split() or "pocket" in d.id):
            return True
    return False


def _special(scenario, *names, default=None):
    for n in names:
        if n in scenario.special_rules:
            return scenario.special_rules[n]
    return default


def unit_specs(scenario) -> list[UnitSpec]:
    """The counters of a scenario as the rules see them."""
    player = set(scenario.player_sides())        # their units start off the map: the player sets them up
    placement = {uid: h for uid, h in scenario.default_placement().items() if scenario.units[uid].side not in player}
    arrives = {uid: r.turn for r in scenario.reinforcements for uid in r.units}
    withdraw = {uid: w.by_turn for w in scenario.withdrawals for uid in w.units}
    out = []
    for uid, u in scenario.units.items():
        out.append(UnitSpec(
            id=uid, side=u.side, type=u.type, attack=u.attack, defense=u.defense, movement=u.movement,
            name=u.name, army=u.branch, division=u.division or None, setup=placement.get(uid) or None,
            arrives=arrives.get(uid), pocket=_is_pocket(scenario, uid), command_radius=u.command_radius,
            withdraw_turn=withdraw.get(uid)))
    return out


def _player_setup(scenario, board) -> dict:
    """Every unit of the sides the player sets up (a default hex is only the editor's suggestion): the hexes of
    its set-up areas, their rule and the areas as written."""
    from ...scenario import AreaContext, AreaError

    sides = set(scenario.player_sides())
    if not sides:
        return {}
    ctx = AreaContext(board)
    dep = {uid: d for d in scenario.deployments for uid in d.units}
    out = {}
    for u in scenario.initial_units():
        if u.side not in sides:
            continue
        exprs = scenario.setup_area(u.id)
        hexes = frozenset(board.hexes())
        for expr in exprs:
            try:
                hexes &= ctx.hexes(expr)
            except AreaError as e:
                raise BadFile([Problem(scenario.path, f"units.{u.id}.setup", f"area {expr!r}: {e}")]) from None
        out[u.id] = (hexes, dep[u.id].rule if u.id in dep else "", " and ".join(exprs) or "all")
    return out


def rules_for_scenario(scenario, board=None) -> DemyanskRules:
    """The Demyansk rules for a scenario; the map is read from the scenario's map file unless given."""
    from ...scenario.setup import check_units_on_map, scenario_board

    if board is None:
        board = scenario_board(scenario)     # the map, every unit's hex checked to be on it
    else:
        check_units_on_map(scenario, board)
    play_area = None
    if scenario.play_area:
        from ...scenario import AreaContext, AreaError

        try:
            play_area = AreaContext(board).hexes(scenario.play_area)
        except AreaError as e:
            raise BadFile([Problem(scenario.path, "scenario.play_area", f"area {scenario.play_area!r}: {e}")]) from None
    victory = scenario.victory.kind if scenario.victory else "open_path"
    if victory not in VICTORY_KINDS:
        raise BadFile([Problem(scenario.path, "victory.kind",
                               f"the Demyansk rules know {', '.join(VICTORY_KINDS)}, not {victory!r}")])
    rules = DemyanskRules(
        board, unit_specs(scenario), turns=scenario.last_turn, first_turn=scenario.first_turn, victory=VICTORY_KINDS[victory],
        options=dict(scenario.options), withdrawals=bool(scenario.withdrawals),
        pocket_stays_until=_special(scenario, "pocket_units_stay_east_until_turn", "pocket_stays_until"),
        garrison_until=_special(scenario, "garrison_duty_last_turn", "garrison_until"),
        variable=[r for r in scenario.reinforcements if r.variable], play_area=play_area,
        play_area_rule=scenario.play_area_rule, play_area_text=scenario.play_area,
        player_setup=_player_setup(scenario, board),
    )
    rules.scenario = scenario
    if victory == "conditions":
        from ...scenario import AreaContext
        from engine.scenario.victory import Judge

        last = [c.id for c in scenario.victory.conditions if c.mode == "last"]
        if last:
            raise BadFile([Problem(scenario.path, "victory.conditions",
                                   f"the Demyansk rules judge who holds a hex at the end only: "
                                   f"use mode = \"end\" in {', '.join(last)}")])
        rules.judge = Judge(scenario.victory, scenario, AreaContext(board))
    return rules
