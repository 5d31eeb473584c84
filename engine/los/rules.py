"""A ruleset's line-of-sight table: obstacle heights per kind, the edge rule and the special hexes.

A ruleset fills :class:`LosRules` from the ``[los]`` table of its TOML
(:func:`los_rules_from_dict`); :data:`DEFAULT_LOS_RULES` is what a map is
judged by when no ruleset says otherwise.  Heights are metres above the
ground; elevations are metres.  ``docs/los.md`` describes every key.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from engine.errors import BadFile, Problem
from engine.fileio import read_toml
from engine.keypath import format_path, key_lines, line_of

EDGE_RULES = ("both", "either")


@dataclass(frozen=True)
class KindRule:
    """How one kind of terrain, feature, traced obstacle or marker acts on a sight line."""

    height: float = 0.0          # metres above the ground
    protective: bool = False     # protective terrain that is never an LOS obstacle (Black Wednesday 1.1g)
    always: bool = False         # blocks whatever the heights (smoke)
    rule: str = ""

    @property
    def blocks(self) -> bool:
        return not self.protective and (self.always or self.height > 0.0)

    @property
    def top_above_ground(self) -> float:
        return math.inf if self.always else self.height


@dataclass(frozen=True)
class FeatureElevation:
    """A hex feature that puts the hex (or the units in it) at a fixed elevation."""

    feature: str
    elevation: float
    rule: str = ""


@dataclass(frozen=True)
class SeaCentre:
    """Coast hexes whose centre lies in a traced sea polygon are at this elevation (Leros 1.1e)."""

    feature: str = "coast"
    sea_kind: str = "sea"
    elevation: float = 0.0
    rule: str = ""


@dataclass(frozen=True)
class LosRules:
    """Everything a ruleset says about line of sight; loaded once, never changed."""

    kinds: dict[str, KindRule] = field(default_factory=dict)
    height_override: dict[str, KindRule] = field(default_factory=dict)
    edge_rule: str = "both"
    observer_height: float = 0.0
    target_height: float = 0.0
    unit_heights: dict[str, float] = field(default_factory=dict)
    fixed_elevation: tuple[FeatureElevation, ...] = ()
    unit_elevation: tuple[FeatureElevation, ...] = ()
    no_direct_fire: dict[str, str] = field(default_factory=dict)   # feature -> rule reference
    sea_centre: SeaCentre | None = None
    visibility_limit: int | None = None

    def __post_init__(self):
        if self.edge_rule not in EDGE_RULES:
            raise ValueError(f"edge_rule must be one of {EDGE_RULES}, not {self.edge_rule!r}")

    def kind(self, name: str) -> KindRule:
        """The rule for a kind (the override first, then the table); unknown kinds are open."""
        if name in self.height_override:
            return self.height_override[name]
        return self.kinds.get(name, KindRule())

    def traced_kind(self, name: str, printed_height: float) -> KindRule:
        """A traced obstacle's rule: the override, else the height printed on the map, else the table."""
        if name in self.height_override:
            return self.height_override[name]
        base = self.kinds.get(name, KindRule())
        if base.protective or base.always:
            return base
        if printed_height > 0.0:
            return replace(base, height=float(printed_height))
        return base

    def unit_height(self, unit_type: str | None, default: float) -> float:
        """Height above the ground of a unit type's eyes or silhouette."""
        if unit_type is None:
            return default
        return self.unit_heights.get(unit_type, default)

    def with_options(self, **changes) -> "LosRules":
        return replace(self, **changes)


DEFAULT_LOS_RULES = LosRules(
    kinds={
        "woods": KindRule(20.0),
        "forest": KindRule(20.0),
        "town": KindRule(20.0),
        "city": KindRule(20.0),
        "building": KindRule(20.0),
        "village": KindRule(20.0),
        "bog": KindRule(protective=True),
        "peat bog": KindRule(protective=True, rule="Black Wednesday 1.1g"),
        "smoke": KindRule(always=True),
    },
    no_direct_fire={"mill": "Black Wednesday 1.1f"},
)


# ---------------------------------------------------------------- loading from TOML

_TOP_KEYS = ("edge_rule", "observer_height", "target_height", "visibility_limit", "kinds",
             "height_override", "unit_heights", "fixed_elevation", "unit_elevation", "no_direct_fire",
             "sea_centre")
_KIND_KEYS = ("height", "protective", "always", "rule")


class _Reader:
    """Collects every problem of a ``[los]`` table instead of stopping at the first."""

    def __init__(self, file: str, prefix: tuple):
        self.file = file
        self.prefix = prefix
        self.problems: list[Problem] = []

    def problem(self, path: tuple, message: str) -> None:
        self.problems.append(Problem(self.file, format_path(self.prefix + path), message))

    def table(self, value: Any, path: tuple, allowed: tuple | None = None) -> dict | None:
        if not isinstance(value, dict):
            self.problem(path, f"expected a table, found {type(value).__name__}")
            return None
        if allowed is not None:
            for k in value:
                if k not in allowed:
                    self.problem(path + (k,), f"unknown key (expected one of {', '.join(allowed)})")
        return value

    def number(self, value: Any, path: tuple, minimum: float | None = None) -> float | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.problem(path, f"expected a finite number, found {value!r}")
            return None
        if minimum is not None and value < minimum:
            self.problem(path, f"expected a number of at least {minimum}, found {value!r}")
            return None
        return float(value)

    def string(self, value: Any, path: tuple) -> str | None:
        if not isinstance(value, str) or not value:
            self.problem(path, f"expected a non-empty string, found {value!r}")
            return None
        return value

    def boolean(self, value: Any, path: tuple) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, f"expected true or false, found {value!r}")
            return None
        return value

    def kind_rule(self, value: Any, path: tuple) -> KindRule | None:
        t = self.table(value, path, _KIND_KEYS)
        if t is None:
            return None
        height = self.number(t.get("height", 0.0), path + ("height",), minimum=0.0)
        protective = self.boolean(t.get("protective", False), path + ("protective",))
        always = self.boolean(t.get("always", False), path + ("always",))
        rule = self.string(t["rule"], path + ("rule",)) if "rule" in t else ""
        if None in (height, protective, always, rule):
            return None
        if protective and (always or height):
            self.problem(path, "a protective kind never blocks: give it no height and no 'always'")
            return None
        return KindRule(height, protective, always, rule)

    def feature_list(self, value: Any, path: tuple, value_key: str) -> list[tuple[str, float | None, str]]:
        out = []
        if not isinstance(value, list):
            self.problem(path, "expected an array of tables ([[...]])")
            return out
        allowed = ("feature", value_key, "rule") if value_key else ("feature", "rule")
        for i, item in enumerate(value):
            t = self.table(item, path + (i,), allowed)
            if t is None:
                continue
            if "feature" not in t:
                self.problem(path + (i,), "missing key 'feature'")
                continue
            feature = self.string(t["feature"], path + (i, "feature"))
            number = None
            if value_key:
                if value_key not in t:
                    self.problem(path + (i,), f"missing key {value_key!r}")
                    continue
                number = self.number(t[value_key], path + (i, value_key))
                if number is None:
                    continue
            rule = self.string(t["rule"], path + (i, "rule")) if "rule" in t else ""
            if feature is None or rule is None:
                continue
            out.append((feature, number, rule))
        return out


def los_rules_from_dict(data: Any, file: str = "<los rules>", base: LosRules = DEFAULT_LOS_RULES,
                        prefix: tuple = ("los",)) -> LosRules:
    """Rules from a parsed ``[los]`` table, starting from ``base``; raises BadFile listing every problem."""
    rd = _Reader(file, prefix)
    t = rd.table(data, (), _TOP_KEYS)
    if t is None:
        raise BadFile(rd.problems)
    changes: dict[str, Any] = {}
    if "edge_rule" in t:
        v = t["edge_rule"]
        if v not in EDGE_RULES:
            rd.problem(("edge_rule",), f"{v!r} is not one of {', '.join(repr(e) for e in EDGE_RULES)}")
        else:
            changes["edge_rule"] = v
    for key in ("observer_height", "target_height"):
        if key in t:
            v = rd.number(t[key], (key,), minimum=0.0)
            if v is not None:
                changes[key] = v
    if "visibility_limit" in t:
        v = t["visibility_limit"]
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            rd.problem(("visibility_limit",), f"expected a whole number of hexes, at least 1, found {v!r}")
        else:
            changes["visibility_limit"] = v
    for key in ("kinds", "height_override"):
        if key in t:
            kt = rd.table(t[key], (key,))
            if kt is not None:
                merged = dict(getattr(base, key))
                for name, value in kt.items():
                    kr = rd.kind_rule(value, (key, name))
                    if kr is not None:
                        merged[name] = kr
                changes[key] = merged
    if "unit_heights" in t:
        ut = rd.table(t["unit_heights"], ("unit_heights",))
        if ut is not None:
            merged_h = dict(base.unit_heights)
            for name, value in ut.items():
                v = rd.number(value, ("unit_heights", name), minimum=0.0)
                if v is not None:
                    merged_h[name] = v
            changes["unit_heights"] = merged_h
    for key in ("fixed_elevation", "unit_elevation"):
        if key in t:
            items = rd.feature_list(t[key], (key,), "elevation")
            changes[key] = tuple(FeatureElevation(f, e, r) for f, e, r in items)
    if "no_direct_fire" in t:
        items = rd.feature_list(t["no_direct_fire"], ("no_direct_fire",), "")
        changes["no_direct_fire"] = {f: r for f, _, r in items}
    if "sea_centre" in t:
        st = rd.table(t["sea_centre"], ("sea_centre",), ("feature", "sea_kind", "elevation", "rule"))
        if st is not None:
            sc = SeaCentre()
            feature = rd.string(st.get("feature", sc.feature), ("sea_centre", "feature"))
            sea_kind = rd.string(st.get("sea_kind", sc.sea_kind), ("sea_centre", "sea_kind"))
            elevation = rd.number(st.get("elevation", sc.elevation), ("sea_centre", "elevation"))
            rule = rd.string(st["rule"], ("sea_centre", "rule")) if "rule" in st else ""
            if None not in (feature, sea_kind, elevation, rule):
                changes["sea_centre"] = SeaCentre(feature, sea_kind, elevation, rule)
    if rd.problems:
        raise BadFile(rd.problems)
    return replace(base, **changes)


def load_los_rules(path: str | os.PathLike, base: LosRules = DEFAULT_LOS_RULES) -> LosRules:
    """The ``[los]`` table of a TOML file as rules; problems name the file, key path and line."""
    p = Path(path)
    doc = read_toml(p)
    try:
        if "los" not in doc:
            raise BadFile([Problem(str(p), "los", "missing table [los]")])
        return los_rules_from_dict(doc["los"], str(p), base)
    except BadFile as e:
        found = key_lines(p.read_text(encoding="utf-8"))
        fixed = [pr if pr.line is not None else Problem(pr.file, pr.key, pr.message, line_of(found, pr.key))
                 for pr in e.problems]
        raise BadFile(fixed) from None
