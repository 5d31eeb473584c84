"""Reading a scenario file: every key checked, every problem named with file and key path."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..errors import BadFile, Problem
from ..fileio import read_toml
from .model import (
    ENTRY_METHODS, SETUP_RULE_KINDS, UNIT_SIZES, UNIT_TYPES, Branch, Deployment, EntryOption,
    Reinforcement, Scenario, SetupRule, Side, Unit, Variant, Victory, VictoryAward,
    Withdrawal,
)
from .reader import SELECT_KEYS, _Reader, _join, _kind, _selector  # noqa: F401  (SELECT_KEYS: the file's keys)

VICTORY_KINDS = ("open_path", "points", "conditions")
VICTORY_WHEN = ("end_of_game", "any_time")      # when an open_path victory is judged
VICTORY_TIE = ("draw",)
DATA_RULESETS = ("free", "classic")   # rulesets whose unit types and tables the scenario's [rules] define


# ---------------------------------------------------------------- sections

TOP = ("scenario", "sides", "units", "deployments", "setup_rules", "reinforcements", "withdrawals",
       "options", "special_rules", "variants", "victory", "rules")
SCENARIO_KEYS = ("id", "name", "ruleset", "map", "first_turn", "last_turn", "turn_names", "first_side",
                 "rule", "text", "game", "stacking", "play_area", "play_area_rule", "playing_minutes")
SIDE_KEYS = ("id", "name", "colour", "branches", "player_setup")
BRANCH_KEYS = ("name", "fill", "text")
UNIT_KEYS = ("id", "side", "name", "type", "size", "branch", "division", "regiment", "attack", "defense",
             "movement", "command_radius", "flags", "setup", "hex", "steps", "losses", "morale", "reduced")
DEPLOYMENT_KEYS = ("id", "side", "order", "area", "units", "rule", "text")
SETUP_RULE_KEYS = ("kind", "area", "select", "rule", "text", "min", "max", "zoc_not_into")
REINFORCEMENT_KEYS = ("id", "turn", "side", "units", "entry", "method", "may_delay", "rule", "text", "alternatives",
                      "release", "roll")
ALTERNATIVE_KEYS = ("from_turn", "entry", "method", "rule")
WITHDRAWAL_KEYS = ("by_turn", "side", "units", "no_attack_from_turn", "rule", "text")
VARIANT_KEYS = ("id", "name", "text", "options", "special_rules", "victory_shift")
VICTORY_KEYS = ("kind", "rule", "text", "side", "otherwise", "source", "target", "free_of", "when", "tie",
                "awards", "conditions", "otherwise_level")
AWARD_KEYS = ("side", "points", "event", "select", "per", "rule", "text")


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Read and check a scenario file; raises BadFile listing every problem found."""
    p = Path(path)
    doc = read_toml(p)
    return parse_scenario(doc, str(p))


def parse_scenario(doc: dict, file: str) -> Scenario:
    """Build a Scenario from a parsed TOML document; raises BadFile listing every problem."""
    rd = _Reader(file)
    rd.table(doc, "", TOP, ("scenario", "sides", "units"))
    head = rd.table(doc.get("scenario", {}), "scenario", SCENARIO_KEYS,
                    ("id", "name", "ruleset", "map", "first_turn", "last_turn", "first_side"))
    sid = rd.get(head, "scenario", "id", str, "")
    name = rd.get(head, "scenario", "name", str, "")
    ruleset = rd.get(head, "scenario", "ruleset", str, "")
    map_rel = rd.get(head, "scenario", "map", str, "")
    first_turn = rd.get(head, "scenario", "first_turn", int, 1)
    last_turn = rd.get(head, "scenario", "last_turn", int, 1)
    if first_turn is not None and last_turn is not None and last_turn < first_turn:
        rd.bad("scenario.last_turn", f"turn {last_turn} is before first_turn {first_turn}")
    turn_names = rd.strings(head, "scenario", "turn_names")
    if turn_names and len(turn_names) != last_turn - first_turn + 1:
        rd.bad("scenario.turn_names", f"expected {last_turn - first_turn + 1} names (one per turn), "
                                      f"found {len(turn_names)}")

    playing_minutes: tuple[int, ...] = ()
    if "playing_minutes" in head:            # the game library's playing time (catalog.py)
        from .catalog import check_playing_minutes

        wrong = check_playing_minutes(head["playing_minutes"])
        if wrong:
            rd.bad("scenario.playing_minutes", wrong)
        else:
            pm = head["playing_minutes"]
            playing_minutes = tuple(pm) if isinstance(pm, list) else (pm,)

    stacking = rd.table(head.get("stacking", {}), "scenario.stacking", ("limit", "rule"))
    stacking_limit = rd.get(stacking, "scenario.stacking", "limit", int, 0) or 0
    sides = _sides(rd, doc)
    if ruleset and sides:
        from ..rulesets import side_mismatch

        why = side_mismatch(ruleset, list(sides))
        if why:
            rd.bad("sides", why)
    first_side = rd.get(head, "scenario", "first_side", str, "")
    if first_side and sides and first_side not in sides:
        rd.bad("scenario.first_side", f"{first_side!r} is not a side (sides: {', '.join(sides)})")

    # rulesets configured by data name their own unit types (their [rules] say what each type does)
    units = _units(rd, doc, sides, open_types=ruleset in DATA_RULESETS)
    deployments = _deployments(rd, doc, sides, units)
    setup_rules = tuple(_setup_rule(rd, f"setup_rules[{i}]", t, sides, deployments)
                        for i, t in enumerate(rd.array(doc, "setup_rules")))
    turns = (first_turn, last_turn)
    reinforcements = _reinforcements(rd, doc, sides, units, turns)
    withdrawals = _withdrawals(rd, doc, sides, units, turns)
    _check_placed_once(rd, units, deployments, reinforcements, {s for s in sides if sides[s].player_setup})
    if ruleset != "free":
        boxed = [(i, uid) for i, (uid, u) in enumerate(units.items()) if u.hex.startswith("box:")]
        if len(boxed) > 3:      # an imported VASSAL set-up switched to other rules: one line, not one per piece
            shown = ", ".join(uid for _, uid in boxed[:6]) + (f" and {len(boxed) - 6:,} more" if len(boxed) > 6 else "")
            rd.bad("units", f"{len(boxed):,} units start in an off-map box ({shown}): only free-play scenarios "
                            f"(ruleset \"free\") do; place them on the map or take them out of the scenario")
        else:
            for i, uid in boxed:
                rd.bad(f"units[{i}] ({uid}).hex", "only free-play scenarios (ruleset \"free\") start units in an "
                                                  "off-map box")

    options = _plain_table(rd, doc, "options")
    special = _plain_table(rd, doc, "special_rules")
    variants = _variants(rd, doc)
    victory = _victory(rd, doc.get("victory"), sides, deployments) if "victory" in doc else None
    play_area = rd.area(head, "scenario", "play_area", True)
    rules_data = doc.get("rules", {})
    if not isinstance(rules_data, (dict, str)):
        rd.bad("rules", f"expected a table of rules, or the name of a rules file, found {_kind(rules_data)}")
        rules_data = {}

    if rd.problems:
        raise BadFile(rd.problems)
    map_path = str((Path(file).parent / map_rel).resolve()) if map_rel else ""
    return Scenario(
        id=sid, name=name, ruleset=ruleset, map=map_rel, first_turn=first_turn, last_turn=last_turn,
        first_side=first_side, sides=sides, units=units, path=file, map_path=map_path,
        rule=rd.get(head, "scenario", "rule", str, "") or "", text=rd.get(head, "scenario", "text", str, "") or "",
        game=rd.get(head, "scenario", "game", str, "") or "", turn_names=turn_names,
        deployments=deployments, setup_rules=setup_rules, reinforcements=reinforcements,
        withdrawals=withdrawals, options=options, special_rules=special, variants=variants,
        victory=victory, stacking_limit=stacking_limit,
        stacking_rule=rd.get(stacking, "scenario.stacking", "rule", str, "") or "",
        play_area=play_area, play_area_rule=rd.get(head, "scenario", "play_area_rule", str, "") or "",
        playing_minutes=playing_minutes, rules=rules_data,
    )


def _sides(rd: _Reader, doc: dict) -> dict[str, Side]:
    out: dict[str, Side] = {}
    for i, t in enumerate(rd.array(doc, "sides")):
        key = f"sides[{i}]"
        t = rd.table(t, key, SIDE_KEYS, ("id", "name"))
        sid = rd.get(t, key, "id", str, "")
        if sid in out:
            rd.bad(f"{key}.id", f"side {sid!r} is defined twice")
        branches = {}
        for bid, b in rd.get(t, key, "branches", dict, {}).items():
            bkey = f"{key}.branches.{bid}"
            b = rd.table(b, bkey, BRANCH_KEYS, ("fill", "text"))
            fill = rd.get(b, bkey, "fill", str, "#808080")
            text = rd.get(b, bkey, "text", str, "#000000")
            for k, c in (("fill", fill), ("text", text)):
                if not _is_colour(c):
                    rd.bad(f"{bkey}.{k}", f"expected a colour like '#8a6a4a', found {c!r}")
            branches[bid] = Branch(bid, rd.get(b, bkey, "name", str, bid), fill, text)
        colour = rd.get(t, key, "colour", str, "")           # none: the ruleset's colours for its units
        if colour and not _is_colour(colour):
            rd.bad(f"{key}.colour", f"expected a colour like '#8a6a4a', found {colour!r}")
        if sid:
            out[sid] = Side(sid, rd.get(t, key, "name", str, sid), colour, branches,
                            bool(rd.get(t, key, "player_setup", bool, False)))
    if "sides" in doc and not out:
        rd.bad("sides", "expected at least one [[sides]] table")
    return out


def _is_colour(c: str) -> bool:
    return (isinstance(c, str) and len(c) == 7 and c[0] == "#"
            and all(ch in "0123456789abcdefABCDEF" for ch in c[1:]))


def _units(rd: _Reader, doc: dict, sides: dict[str, Side], open_types: bool = False) -> dict[str, Unit]:
    out: dict[str, Unit] = {}
    for i, t in enumerate(rd.array(doc, "units")):
        key = f"units[{i}]"
        uid = rd.get(t, key, "id", str, "") if isinstance(t, dict) else ""
        if uid:
            key = f"units[{i}] ({uid})"
        t = rd.table(t, key, UNIT_KEYS, ("id", "side", "type", "size", "attack", "defense", "movement"))
        if uid in out:
            rd.bad(f"{key}.id", f"unit {uid!r} is defined twice")
        side = rd.get(t, key, "side", str, "")
        if side and sides and side not in sides:
            rd.bad(f"{key}.side", f"{side!r} is not a side (sides: {', '.join(sides)})")
        branch = rd.get(t, key, "branch", str, "army")
        if side in sides and sides[side].branches and branch not in sides[side].branches:
            rd.bad(f"{key}.branch", f"{branch!r} is not a branch of side {side!r} "
                                    f"(branches: {', '.join(sides[side].branches)})")
        vals = {}
        for k in ("attack", "defense", "movement"):
            v = rd.get(t, key, k, int, 0)
            if v is not None and v < 0:
                rd.bad(f"{key}.{k}", f"expected a number 0 or more, found {v}")
            vals[k] = v or 0
        radius = rd.get(t, key, "command_radius", int, None)
        utype = rd.get(t, key, "type", str, "infantry", None if open_types else UNIT_TYPES)
        if radius is not None and radius < 0:
            rd.bad(f"{key}.command_radius", f"expected a number 0 or more, found {radius}")
        hex_id = rd.get(t, key, "hex", str, "")
        steps = rd.get(t, key, "steps", int, 1)
        losses = rd.get(t, key, "losses", int, 0)
        if steps is not None and steps < 1:
            rd.bad(f"{key}.steps", f"expected 1 or more steps, found {steps}")
        elif losses is not None and steps is not None and not 0 <= losses < steps:
            rd.bad(f"{key}.losses", f"expected 0 to {steps - 1} steps lost at the start, found {losses}")
        reduced = rd.get(t, key, "reduced", str, "") or ""
        if reduced and not re.fullmatch(r"\d+-\d+-\d+", reduced):
            rd.bad(f"{key}.reduced", f"expected the back's values like '2-2-5' (attack-defense-movement), "
                                     f"found {reduced!r}")
        elif reduced and (steps or 1) < 2:
            rd.bad(f"{key}.reduced", "a unit with one step has no back: give it steps = 2 or more")
        unit = Unit(
            id=uid, side=side or "", type=utype or "infantry", reduced=reduced,
            size=rd.get(t, key, "size", str, "regiment", UNIT_SIZES) or "regiment",
            name=rd.get(t, key, "name", str, ""), branch=branch or "army",
            division=rd.get(t, key, "division", str, ""), regiment=rd.get(t, key, "regiment", str, ""),
            command_radius=radius, flags=frozenset(rd.strings(t, key, "flags")),
            setup=rd.area(t, key, "setup"), hex=hex_id or "", steps=steps or 1, losses=losses or 0,
            morale=rd.get(t, key, "morale", int, None), **vals,
        )
        if uid:
            out[uid] = unit
    return out


def _unit_refs(rd: _Reader, t: dict, key: str, units: dict[str, Unit], side: str | None) -> tuple[str, ...]:
    ids = rd.strings(t, key, "units")
    for j, uid in enumerate(ids):
        if uid not in units:
            rd.bad(f"{key}.units[{j}]", f"no unit {uid!r} in [[units]]")
        elif side and units[uid].side != side:
            rd.bad(f"{key}.units[{j}]", f"unit {uid!r} belongs to {units[uid].side!r}, not {side!r}")
    if len(set(ids)) != len(ids):
        dup = sorted({u for u in ids if ids.count(u) > 1})
        rd.bad(f"{key}.units", f"listed more than once: {', '.join(dup)}")
    return ids


def _side_ref(rd: _Reader, t: dict, key: str, sides: dict[str, Side]) -> str:
    side = rd.get(t, key, "side", str, "")
    if side and side not in sides:
        rd.bad(f"{key}.side", f"{side!r} is not a side (sides: {', '.join(sides)})")
    return side or ""


def _deployments(rd: _Reader, doc: dict, sides, units) -> tuple[Deployment, ...]:
    out = []
    seen = set()
    for i, t in enumerate(rd.array(doc, "deployments")):
        key = f"deployments[{i}]"
        t = rd.table(t, key, DEPLOYMENT_KEYS, ("id", "side", "units"))
        did = rd.get(t, key, "id", str, "")
        if did in seen:
            rd.bad(f"{key}.id", f"deployment {did!r} is defined twice")
        seen.add(did)
        side = _side_ref(rd, t, key, sides)
        out.append(Deployment(did, side, rd.get(t, key, "order", int, 1), rd.area(t, key, "area"),
                              _unit_refs(rd, t, key, units, side), rd.get(t, key, "rule", str, ""),
                              rd.get(t, key, "text", str, "")))
    return tuple(out)


def _setup_rule(rd: _Reader, key: str, t: Any, sides, deployments) -> SetupRule:
    t = rd.table(t, key, SETUP_RULE_KEYS, ("kind", "area", "select"))
    kind = rd.get(t, key, "kind", str, "count", SETUP_RULE_KINDS) or "count"
    lo = rd.get(t, key, "min", int, None)
    hi = rd.get(t, key, "max", int, None)
    if kind == "count" and lo is None and hi is None:
        rd.bad(key, "a count rule needs min, max or both")
    if lo is not None and hi is not None and hi < lo:
        rd.bad(f"{key}.max", f"max {hi} is below min {lo}")
    return SetupRule(kind, rd.area(t, key, "area", required=True),
                     _selector(rd, t.get("select", {}), f"{key}.select", sides, deployments),
                     rd.get(t, key, "rule", str, ""), rd.get(t, key, "text", str, ""), lo, hi,
                     rd.strings(t, key, "zoc_not_into"))


def _turn(rd: _Reader, t: dict, key: str, name: str, turns) -> int | None:
    v = rd.get(t, key, name, int, None)
    if v is not None and not (turns[0] <= v <= turns[1]):
        rd.bad(f"{key}.{name}", f"turn {v} is outside the game (turns {turns[0]}-{turns[1]})")
    return v


def _reinforcements(rd: _Reader, doc: dict, sides, units, turns) -> tuple[Reinforcement, ...]:
    from .variable import parse_release, parse_roll

    out = []
    ids_seen: set[str] = set()
    for i, t in enumerate(rd.array(doc, "reinforcements")):
        key = f"reinforcements[{i}]"
        variable = isinstance(t, dict) and ("release" in t or "roll" in t)
        t = rd.table(t, key, REINFORCEMENT_KEYS, ("side", "units", "entry") if variable
                     else ("turn", "side", "units", "entry"))
        side = _side_ref(rd, t, key, sides)
        rid = rd.get(t, key, "id", str, "") or ""
        if variable and not rid:
            rd.bad(f"{key}.id", "missing (a variable reinforcement needs an id for the log)")
        elif rid and rid in ids_seen:
            rd.bad(f"{key}.id", f"reinforcement {rid!r} is defined twice")
        ids_seen.add(rid)
        alts = []
        for j, a in enumerate(rd.get(t, key, "alternatives", list, [])):
            akey = f"{key}.alternatives[{j}]"
            a = rd.table(a, akey, ALTERNATIVE_KEYS, ("from_turn", "entry"))
            alts.append(EntryOption(_turn(rd, a, akey, "from_turn", turns) or 0, rd.area(a, akey, "entry", True),
                                    rd.get(a, akey, "method", str, "march", ENTRY_METHODS) or "march",
                                    rd.get(a, akey, "rule", str, "")))
        pool = _unit_refs(rd, t, key, units, side)
        release = parse_release(rd, t["release"], f"{key}.release", sides, units, turns) if "release" in t else None
        roll = parse_roll(rd, t["roll"], f"{key}.roll", pool) if "roll" in t else None
        out.append(Reinforcement(
            turn=_turn(rd, t, key, "turn", turns) or (turns[0] if variable else 0), side=side,
            units=pool, entry=rd.area(t, key, "entry", True), id=rid, release=release, roll=roll,
            method=rd.get(t, key, "method", str, "march", ENTRY_METHODS) or "march",
            may_delay=bool(rd.get(t, key, "may_delay", bool, False)), rule=rd.get(t, key, "rule", str, ""),
            text=rd.get(t, key, "text", str, ""), alternatives=tuple(alts)))
    return tuple(out)


def _withdrawals(rd: _Reader, doc: dict, sides, units, turns) -> tuple[Withdrawal, ...]:
    out = []
    for i, t in enumerate(rd.array(doc, "withdrawals")):
        key = f"withdrawals[{i}]"
        t = rd.table(t, key, WITHDRAWAL_KEYS, ("by_turn", "side", "units"))
        side = _side_ref(rd, t, key, sides)
        out.append(Withdrawal(_turn(rd, t, key, "by_turn", turns) or 0, side,
                              _unit_refs(rd, t, key, units, side),
                              _turn(rd, t, key, "no_attack_from_turn", turns),
                              rd.get(t, key, "rule", str, ""), rd.get(t, key, "text", str, "")))
    return tuple(out)


def _check_placed_once(rd: _Reader, units, deployments, reinforcements, player_sides=frozenset()) -> None:
    """Every unit starts on the map (one deployment) or arrives (one reinforcement), not both.

    Units of a side the player sets up need no default hex.
    """
    where: dict[str, list[str]] = {}
    for i, d in enumerate(deployments):
        for uid in d.units:
            where.setdefault(uid, []).append(f"deployments[{i}] ({d.id})")
    for i, r in enumerate(reinforcements):
        for uid in r.units:
            where.setdefault(uid, []).append(f"reinforcements[{i}] (turn {r.turn})")
    for i, (uid, u) in enumerate(units.items()):
        places = where.get(uid, [])
        key = f"units[{i}] ({uid})"
        if not places:
            rd.bad(key, "is neither in a [[deployments]] group nor in [[reinforcements]]")
        elif len(places) > 1:
            rd.bad(key, f"is listed more than once: {', '.join(places)}")
        elif places[0].startswith("deployments") and not u.hex and u.side not in player_sides:
            rd.bad(f"{key}.hex", "missing: a unit that starts on the map needs a default hex")
        elif places[0].startswith("reinforcements") and u.hex:
            rd.bad(f"{key}.hex", "a reinforcement has no set-up hex (it enters by its [[reinforcements]] entry)")


def _plain_table(rd: _Reader, doc: dict, name: str) -> dict[str, Any]:
    """A table of options: strings, numbers, booleans or arrays of them (never code)."""
    t = doc.get(name, {})
    if not isinstance(t, dict):
        rd.bad(name, f"expected a table, found {_kind(t)}")
        return {}
    for k, v in t.items():
        vals = v if isinstance(v, list) else [v]
        if not all(isinstance(x, (str, int, float, bool)) for x in vals):
            rd.bad(f"{name}.{k}", "expected a string, number, boolean or an array of them")
    return dict(t)


def _variants(rd: _Reader, doc: dict) -> tuple[Variant, ...]:
    out = []
    for i, t in enumerate(rd.array(doc, "variants")):
        key = f"variants[{i}]"
        t = rd.table(t, key, VARIANT_KEYS, ("id", "name"))
        sub = _Reader(rd.file)
        opts = _plain_table(sub, t, "options")
        spec = _plain_table(sub, t, "special_rules")
        rd.problems += [Problem(p.file, f"{key}.{p.key}", p.message) for p in sub.problems]
        shift = rd.table(t.get("victory_shift", {}), f"{key}.victory_shift", ("side", "levels"))
        shift_side = rd.get(shift, f"{key}.victory_shift", "side", str, "") or ""
        if shift_side and shift_side not in doc_sides(doc):
            rd.bad(f"{key}.victory_shift.side", f"{shift_side!r} is not a side")
        out.append(Variant(rd.get(t, key, "id", str, ""), rd.get(t, key, "name", str, ""),
                           rd.get(t, key, "text", str, ""), opts, spec, shift_side,
                           rd.get(shift, f"{key}.victory_shift", "levels", int, 0) or 0))
    return tuple(out)


def doc_sides(doc: dict) -> set[str]:
    """The side ids a document names (for checks made before the sides are built)."""
    return {t.get("id") for t in doc.get("sides", []) if isinstance(t, dict)}


def _victory(rd: _Reader, t: Any, sides, deployments) -> Victory | None:
    key = "victory"
    t = rd.table(t, key, VICTORY_KEYS, ("kind",))
    kind = rd.get(t, key, "kind", str, "points", VICTORY_KINDS) or "points"
    side = _side_ref(rd, t, key, sides)
    otherwise = rd.get(t, key, "otherwise", str, "")
    if otherwise and otherwise not in sides:
        rd.bad(f"{key}.otherwise", f"{otherwise!r} is not a side (sides: {', '.join(sides)})")
    source = _selector(rd, t["source"], f"{key}.source", sides, deployments) if "source" in t else None
    awards = []
    for i, a in enumerate(rd.get(t, key, "awards", list, [])):
        akey = f"{key}.awards[{i}]"
        a = rd.table(a, akey, AWARD_KEYS, ("side", "points", "event"))
        aside = _side_ref(rd, a, akey, sides)
        sel = _selector(rd, a["select"], f"{akey}.select", sides, deployments) if "select" in a else None
        awards.append(VictoryAward(aside, rd.get(a, akey, "points", int, 0) or 0,
                                   rd.get(a, akey, "event", str, ""), sel, rd.get(a, akey, "per", str, ""),
                                   rd.get(a, akey, "rule", str, ""), rd.get(a, akey, "text", str, "")))
    if kind == "open_path":
        for k in ("side", "source", "target"):
            if k not in t:
                rd.bad(f"{key}.{k}", "missing (an open_path victory needs side, source and target)")
    if kind == "points" and not awards:
        rd.bad(f"{key}.awards", "missing (a points victory needs [[victory.awards]])")
    conditions = ()
    if kind == "conditions":
        from engine.scenario.victory import LEVELS, parse_conditions

        conditions = parse_conditions(rd, t.get("conditions"), sides, deployments)
    return Victory(kind, rd.get(t, key, "rule", str, ""), rd.get(t, key, "text", str, ""), side,
                   otherwise or "", source, rd.area(t, key, "target"), rd.strings(t, key, "free_of"),
                   rd.get(t, key, "when", str, "end_of_game", VICTORY_WHEN) or "end_of_game",
                   rd.get(t, key, "tie", str, "draw", VICTORY_TIE) or "draw",
                   tuple(awards), conditions,
                   rd.get(t, key, "otherwise_level", str, "", LEVELS) or "" if kind == "conditions" else "")
