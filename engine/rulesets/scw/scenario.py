"""A skirmish scenario file: the table, the attacking force, the defenders' troops and the card positions."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import BadFile, Problem
from ...fileio import read_toml
from engine.maps.table import Table, load_table
from .data import load_tables

TOP = ("scenario", "attacker", "defender", "options", "variants")
FORCES = ("platoon", "company")
PLACEMENT = ("auto", "player")


@dataclass
class ScwScenario:
    """What a skirmish game starts from."""

    path: str
    id: str
    name: str
    table: Table
    attacker_troops: str = "internationals"
    force: str = "platoon"
    baseline: str = "baseline"
    defender_troops: str = "regulars"
    placement: str = "auto"
    position_kind: str = "defensive"
    last_turn: int = 20
    broken_below: float = 0.5
    variants: dict = field(default_factory=dict)
    ruleset: str = "scw"


def _get(doc: dict, key: str, typ, default, file: str, path: str, problems: list, choices=None):
    if key not in doc:
        return default
    v = doc[key]
    if not isinstance(v, typ) or isinstance(v, bool) and typ is not bool:
        problems.append(Problem(file, f"{path}.{key}", f"expected {getattr(typ, '__name__', typ)}, got {v!r}"))
        return default
    if choices is not None and v not in choices:
        problems.append(Problem(file, f"{path}.{key}", f"expected one of {', '.join(map(str, choices))}, got {v!r}"))
        return default
    return v


def load_scw_scenario(path: str | Path, variant: str | tuple[str, ...] | None = None) -> ScwScenario:
    """Read and check a skirmish scenario; ``variant`` picks one of its ``[variants.*]`` (or several, applied in order)."""
    file = str(path)
    doc = read_toml(path)
    problems: list[Problem] = []
    for k in doc:
        if k not in TOP:
            problems.append(Problem(file, k, f"unknown section (expected one of {', '.join(TOP)})"))
    known = {"scenario": ("id", "name", "ruleset", "table", "last_turn", "rule", "text", "game", "playing_minutes"),
             "attacker": ("troops", "force", "baseline"), "defender": ("troops", "cards", "positions"),
             "options": ("broken_below",)}
    for section, keys in known.items():
        table = doc.get(section, {})
        if not isinstance(table, dict):
            problems.append(Problem(file, section, "expected a table"))
            continue
        problems.extend(Problem(file, f"{section}.{k}", f"unknown key (expected one of: {', '.join(keys)})")
                        for k in table if k not in keys)
    if not isinstance(doc.get("variants", {}), dict):
        problems.append(Problem(file, "variants", "expected tables [variants.NAME]"))
        raise BadFile(problems)
    for name, v in (doc.get("variants") or {}).items():
        if not isinstance(v, dict):
            problems.append(Problem(file, f"variants.{name}", "expected a table"))
            continue
        for section, sub in v.items():
            if section == "name":
                continue
            if section not in known or section == "scenario" or not isinstance(sub, dict):
                problems.append(Problem(file, f"variants.{name}.{section}",
                                        "expected name, attacker, defender or options"))
                continue
            problems.extend(Problem(file, f"variants.{name}.{section}.{k}",
                                    f"unknown key (expected one of: {', '.join(known[section])})")
                            for k in sub if k not in known[section])
    if isinstance(doc.get("scenario"), dict) and "playing_minutes" in doc["scenario"]:
        from engine.scenario.catalog import check_playing_minutes

        wrong = check_playing_minutes(doc["scenario"]["playing_minutes"])
        if wrong:                            # the game library's playing time
            problems.append(Problem(file, "scenario.playing_minutes", wrong))
    if problems:
        raise BadFile(problems)
    head = doc.get("scenario", {})
    if head.get("ruleset") != "scw":
        problems.append(Problem(file, "scenario.ruleset", "expected \"scw\""))
    table_rel = head.get("table")
    if not isinstance(table_rel, str):
        problems.append(Problem(file, "scenario.table", "expected the table file, like \"../maps/scw-table.toml\""))
        raise BadFile(problems)
    variants = doc.get("variants", {})
    att = dict(doc.get("attacker", {}))
    dfn = dict(doc.get("defender", {}))
    opts = dict(doc.get("options", {}))
    chosen = [variant] if isinstance(variant, str) else list(variant or ())   # one name, or several in order
    for name in chosen:
        if name not in variants:
            problems.append(Problem(file, "variants", f"there is no variant {name!r} "
                                                      f"(variants: {', '.join(variants) or 'none'})"))
        else:
            v = variants[name]
            att.update(v.get("attacker", {}))
            dfn.update(v.get("defender", {}))
            opts.update(v.get("options", {}))
    troops = load_tables().troops
    table_path = Path(file).parent / table_rel
    try:
        table = load_table(table_path)
    except BadFile as e:
        problems.append(Problem(file, "scenario.table", f"the table {table_rel!r} cannot be read:"))
        problems.extend(e.problems)
        raise BadFile(problems) from None
    sc = ScwScenario(file, str(head.get("id", Path(file).stem)), str(head.get("name", "")), table)
    sc.attacker_troops = _get(att, "troops", str, sc.attacker_troops, file, "attacker", problems, tuple(troops))
    sc.force = _get(att, "force", str, sc.force, file, "attacker", problems, FORCES)
    sc.baseline = _get(att, "baseline", str, sc.baseline, file, "attacker", problems)
    if sc.baseline not in table.lines:
        problems.append(Problem(file, "attacker.baseline",
                                f"the table {table_rel} has no line {sc.baseline!r} "
                                f"(lines: {', '.join(table.lines) or 'none'})"))
    sc.defender_troops = _get(dfn, "troops", str, sc.defender_troops, file, "defender", problems, tuple(troops))
    sc.placement = _get(dfn, "cards", str, sc.placement, file, "defender", problems, PLACEMENT)
    sc.position_kind = _get(dfn, "positions", str, sc.position_kind, file, "defender", problems)
    need = load_tables()["cards"]["drawn"] + 1
    have = len(table.locations_of_kind(sc.position_kind))
    if have < need:
        problems.append(Problem(file, "defender.positions",
                                f"the table has {have} points of kind {sc.position_kind!r}; the cards need {need}"))
    sc.last_turn = _get(head, "last_turn", int, sc.last_turn, file, "scenario", problems)
    bb = _get(opts, "broken_below", (int, float), sc.broken_below, file, "options", problems)
    if not 0 < bb <= 1:
        problems.append(Problem(file, "options.broken_below", f"expected a fraction between 0 and 1, got {bb!r}"))
    sc.broken_below = float(bb)
    sc.variants = variants
    if problems:
        raise BadFile(problems)
    return sc
