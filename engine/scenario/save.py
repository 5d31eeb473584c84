"""Writing a scenario back to TOML (after a set-up made by hand), atomically."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from ..fileio import write_toml
from .model import Scenario, Selector, Unit


def with_placement(scenario: Scenario, placement: dict[str, str]) -> Scenario:
    """A copy whose default set-up is ``placement`` (unit id -> printed hex id) where it gives one."""
    units = {uid: dataclasses.replace(u, hex=placement.get(uid, u.hex)) for uid, u in scenario.units.items()}
    return dataclasses.replace(scenario, units=units)


def save_scenario(scenario: Scenario, path: str | os.PathLike) -> None:
    """Write a scenario file (the old file or the whole new one, never half); ``map`` is made relative to it."""
    doc = scenario_to_dict(scenario)
    if scenario.map_path:
        doc["scenario"]["map"] = Path(os.path.relpath(scenario.map_path, Path(path).resolve().parent)).as_posix()
    if isinstance(scenario.rules, str) and scenario.rules:
        # a shared rules file is named relative to the scenario, wherever the scenario is saved
        old = Path(scenario.path).parent / scenario.rules if scenario.path else Path(scenario.rules)
        doc["rules"] = Path(os.path.relpath(old.resolve(), Path(path).resolve().parent)).as_posix()
    write_toml(path, doc)


def scenario_to_dict(s: Scenario) -> dict[str, Any]:
    """The TOML document of a scenario, keys in the order the format describes."""
    head = _drop({"id": s.id, "name": s.name, "game": s.game, "rule": s.rule, "text": s.text, "ruleset": s.ruleset,
                  "map": s.map, "first_turn": s.first_turn, "last_turn": s.last_turn,
                  "turn_names": list(s.turn_names), "first_side": s.first_side, "play_area": s.play_area,
                  "play_area_rule": s.play_area_rule, "playing_minutes": list(s.playing_minutes)})
    if s.stacking_limit:
        head["stacking"] = _drop({"limit": s.stacking_limit, "rule": s.stacking_rule})
    doc: dict[str, Any] = {"scenario": head}
    doc["sides"] = [_drop({"id": side.id, "name": side.name, "colour": side.colour,
                           "branches": {b.id: {"name": b.name, "fill": b.fill, "text": b.text}
                                        for b in side.branches.values()},
                           "player_setup": side.player_setup or None})
                    for side in s.sides.values()]
    if s.deployments:
        doc["deployments"] = [_drop({"id": d.id, "side": d.side, "order": d.order, "area": d.area,
                                     "rule": d.rule, "text": d.text, "units": list(d.units)}) for d in s.deployments]
    if s.setup_rules:
        doc["setup_rules"] = [_drop({"kind": r.kind, "area": r.area, "select": _selector(r.select), "min": r.min,
                                     "max": r.max, "zoc_not_into": list(r.zoc_not_into), "rule": r.rule,
                                     "text": r.text}, keep=("select",)) for r in s.setup_rules]
    if s.reinforcements:
        from .variable import release_to_dict, roll_to_dict

        doc["reinforcements"] = [_drop({
            "id": r.id, "turn": r.turn, "side": r.side, "units": list(r.units), "entry": r.entry,
            "method": r.method if r.method != "march" else None, "may_delay": r.may_delay or None,
            "rule": r.rule, "text": r.text,
            "alternatives": [_drop({"from_turn": a.from_turn, "entry": a.entry, "method": a.method, "rule": a.rule})
                             for a in r.alternatives],
            "release": release_to_dict(r.release, _drop) if r.release else None,
            "roll": roll_to_dict(r.roll, _drop) if r.roll else None}) for r in s.reinforcements]
    if s.withdrawals:
        doc["withdrawals"] = [_drop({"by_turn": w.by_turn, "side": w.side, "units": list(w.units),
                                     "no_attack_from_turn": w.no_attack_from_turn, "rule": w.rule, "text": w.text})
                              for w in s.withdrawals]
    if s.options:
        doc["options"] = dict(s.options)
    if s.special_rules:
        doc["special_rules"] = dict(s.special_rules)
    if s.rules:
        doc["rules"] = s.rules if isinstance(s.rules, str) else dict(s.rules)
    if s.variants:
        doc["variants"] = [_drop({"id": v.id, "name": v.name, "text": v.text, "options": dict(v.options),
                                  "special_rules": dict(v.special_rules),
                                  "victory_shift": {"side": v.shift_side, "levels": v.shift} if v.shift else None})
                           for v in s.variants]
    if s.victory is not None:
        v = s.victory
        doc["victory"] = _drop({
            "kind": v.kind, "rule": v.rule, "text": v.text, "side": v.side, "otherwise": v.otherwise,
            "source": _selector(v.source) if v.source else None, "target": v.target, "free_of": list(v.free_of),
            "when": v.when, "tie": v.tie,
            "awards": [_drop({"side": a.side, "points": a.points, "event": a.event,
                              "select": _selector(a.select) if a.select else None, "per": a.per, "rule": a.rule,
                              "text": a.text}) for a in v.awards]})
        if v.conditions:
            from engine.scenario.victory import conditions_to_list

            doc["victory"]["conditions"] = conditions_to_list(v.conditions, _selector)
        if v.otherwise_level:
            doc["victory"]["otherwise_level"] = v.otherwise_level
    doc["units"] = [_unit(u) for u in s.units.values()]
    return doc


def _unit(u: Unit) -> dict[str, Any]:
    return _drop({"id": u.id, "side": u.side, "name": u.name, "type": u.type, "size": u.size, "branch": u.branch,
                  "division": u.division, "regiment": u.regiment, "attack": u.attack, "defense": u.defense,
                  "movement": u.movement, "command_radius": u.command_radius, "flags": sorted(u.flags),
                  "setup": u.setup, "hex": u.hex, "steps": u.steps if u.steps != 1 else None,
                  "losses": u.losses or None, "morale": u.morale, "reduced": u.reduced}, keep=("attack", "defense", "movement"))


def _selector(sel: Selector) -> dict[str, Any]:
    return _drop({"side": sel.side, "deployment": sel.deployment, "type": list(sel.types),
                  "not_type": list(sel.not_types), "size": list(sel.sizes), "branch": list(sel.branches),
                  "division": list(sel.divisions), "strength": list(sel.strengths), "flags": list(sel.flags),
                  "units": list(sel.units)})


def _drop(d: dict[str, Any], keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """Leave out empty values (they are the loader's defaults)."""
    return {k: v for k, v in d.items() if k in keep or v not in (None, "", [], {}, ())}
