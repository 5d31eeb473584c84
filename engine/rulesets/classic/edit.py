"""Editing a scenario's classic rules as tables (the scenario editor's Rules page): the terrain effects chart,
the CRT and the zones of control, read from and written back to the scenario's inline ``[rules]``.

Every function returns a new rules dict; the scenario editor's Check then builds the rules and explains what
they cannot use (``engine.scenario.edit.check``).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from ...fileio import read_toml
from .config import DEFAULTS, LEAVE


@dataclass(frozen=True)
class TecRow:
    """One row of the terrain effects chart as a grid shows it: MP by class (None: prohibited), defence, shift."""

    terrain: str
    mp: dict[str, float | None]
    defense: float = 1.0
    shift: int = 0


def classes(rules: dict) -> list[str]:
    return list(rules.get("movement", {}).get("classes", ["foot"]))


def tec_rows(rules: dict, board) -> list[TecRow]:
    """Every terrain of the map (and any other row the rules give), as the chart stands."""
    names = sorted(set(board.terrain.values()) | {"clear"}) + sorted(
        k for k in rules.get("terrain", {}) if k not in set(board.terrain.values()) | {"clear"})
    cls = classes(rules)
    out = []
    for name in names:
        t = rules.get("terrain", {}).get(name, {"mp": 1})
        banned = t.get("prohibited", False)
        banned = set(cls) if banned is True else set(banned or ())
        raw = t.get("mp", 1)
        mp = {c: (None if c in banned else float(raw.get(c, 1) if isinstance(raw, dict) else raw)) for c in cls}
        out.append(TecRow(name, mp, float(t.get("defense", 1)), int(t.get("shift", 0))))
    return out


def set_tec(rules: dict, rows: list[TecRow]) -> dict:
    """The rules with the chart's rows replaced by these (other keys of each row kept)."""
    new = copy.deepcopy(rules)
    chart = new.setdefault("terrain", {})
    for r in rows:
        t = dict(chart.get(r.terrain, {}))
        banned = [c for c, v in r.mp.items() if v is None]
        costs = {c: _num(v) for c, v in r.mp.items() if v is not None}
        t["mp"] = next(iter(costs.values())) if costs and len(set(costs.values())) == 1 and not banned else costs
        if banned:
            t["prohibited"] = True if len(banned) == len(r.mp) else banned
            if not costs:
                t.pop("mp", None)
        else:
            t.pop("prohibited", None)
        for key, value, neutral in (("defense", _num(r.defense), 1), ("shift", r.shift, 0)):
            if value != neutral:
                t[key] = value
            else:
                t.pop(key, None)
        chart[r.terrain] = t
    return new


def crt_grid(rules: dict) -> tuple[list[str], list[list[str]], int]:
    """The CRT's columns, its rows (one per roll) and the first roll; the defaults' when the rules give none."""
    src = rules if any(k in rules for k in ("combat", "crt", "results")) else read_toml(DEFAULTS)
    crt = src.get("crt", {})
    return (list(src.get("combat", {}).get("columns", [])), [list(r) for r in crt.get("rows", [])],
            int(crt.get("dice", 1)))


def set_crt(rules: dict, columns: list[str], rows: list[list[str]]) -> dict:
    """The rules with this CRT (columns and rows as typed: Check refuses a row of the wrong length or a result
    not defined); combat, CRT and results are copied from the defaults first if the rules had none."""
    new = copy.deepcopy(rules)
    if not any(k in new for k in ("combat", "crt", "results")):
        new.update(read_toml(DEFAULTS))
    new.setdefault("combat", {})["columns"] = list(columns)
    new.setdefault("crt", {})["rows"] = [list(r) for r in rows]
    return new


ZOC_KEYS = ("stop", "leave", "leave_cost", "enter_another", "zoc_to_zoc", "rule")
ZOC_DEFAULTS = {"stop": True, "leave": "free", "leave_cost": 0, "enter_another": True, "zoc_to_zoc": False, "rule": ""}


def zoc_form(rules: dict) -> dict:
    """The zone of control rules for every side, as a form shows them."""
    return {k: rules.get("zoc", {}).get(k, v) for k, v in ZOC_DEFAULTS.items()}


def set_zoc(rules: dict, values: dict) -> dict:
    if values.get("leave", "free") not in LEAVE:
        raise ValueError(f"leave is one of: {', '.join(LEAVE)}")
    new = copy.deepcopy(rules)
    z = new.setdefault("zoc", {})
    for k in ZOC_KEYS:
        if k in values:
            if values[k] == ZOC_DEFAULTS[k]:
                z.pop(k, None)
            else:
                z[k] = values[k]
    return new


def _num(v: float):
    return int(v) if float(v).is_integer() else float(v)
