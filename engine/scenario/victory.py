"""Victory conditions as data, evaluated for any ruleset from the facts it reports at the end of a game.

A scenario's ``[victory]`` with ``kind = "conditions"`` lists
``[[victory.conditions]]``.  Each condition is something a side achieves:

- ``occupy``: the side holds ``count`` hexes of ``area`` (every hex if no
  count) at the end (``mode = "end"``), or was the last side to occupy or pass
  through them (``mode = "last"``, for rulesets that record who holds a hex);
- ``exit``: at least ``at_least`` of the side's units chosen by ``select`` left
  the map through ``area``, each still holding ``share`` of its original steps
  ("intact");
- ``losses``: the side ``of`` lost at least ``at_least`` steps or units;
- ``points``: the side's victory points (the condition's ``awards``) exceed the
  other side's by at least ``margin``;
- ``count``: at least ``at_least`` of the conditions named in ``of`` are met
  ("three or more of these").

A met condition with a ``level`` (``minor``, ``major``, ``massive``) gives its
side a victory of that level; one with ``shift`` moves the result that many
levels toward its side.  The result is worked out on one scale running from
the second side's massive victory to the first side's: each side's best level,
the difference, then the shifts.  Zero is a draw, unless ``otherwise`` names a
side, which then wins at ``otherwise_level``.  A condition with neither level
nor shift only counts inside a ``count`` condition.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.outcome import Outcome
from engine.maps.hexes import Hex
from engine.scenario.model import Award, Condition  # noqa: F401  (the records, kept with the scenario's model)

LEVELS = ("minor", "major", "massive")
CONDITION_KINDS = ("occupy", "exit", "losses", "points", "count")
OCCUPY_MODES = ("end", "last")
MEASURES = ("steps", "units")
AWARD_EVENTS = ("eliminated", "step_lost", "exited", "hex_held")

# Rulesets report where every unit is with these statuses.
ON_MAP, DUE, ELIMINATED, EXITED, GONE = "map", "due", "eliminated", "exited", "gone"


@dataclass
class Facts:
    """What a ruleset reports about a finished (or running) game for victory to be judged.

    ``where``: unit id -> hex (on the map) or None; ``status``: unit id -> one
    of ``map``, ``due``, ``eliminated``, ``exited``, ``gone``; ``steps`` and
    ``original_steps``: unit id -> steps now (for an exited unit, when it
    left) and at the start; ``exit_hex``: the hex an exited unit left from;
    ``control``: hex -> the last side to occupy or pass through it, or None
    when the ruleset does not record it.
    """

    sides: tuple[str, ...]
    unit_side: dict[str, str]
    where: dict[str, Hex | None]
    status: dict[str, str]
    steps: dict[str, int]
    original_steps: dict[str, int]
    exit_hex: dict[str, Hex] = field(default_factory=dict)
    control: dict[Hex, str] | None = None


def update_control(control: dict[Hex, str], side: str, path) -> None:
    """Record ``side`` as the last to occupy or pass through every hex of ``path`` (a move's hexes)."""
    for h in path:
        control[h] = side


def other_side(sides: tuple[str, ...], side: str) -> str:
    return next((s for s in sides if s != side), "")


class Judge:
    """Evaluates a scenario's victory conditions against a ruleset's facts."""

    def __init__(self, victory, scenario, areas):
        self.victory = victory
        self.scenario = scenario
        self.areas = areas               # an engine.scenario.AreaContext on the game's board
        self.by_id = {c.id: c for c in victory.conditions}

    # ------------------------------------------------------------ the result
    def outcome(self, facts: Facts) -> Outcome:
        """The winner, the level and every condition's state, with the rule of each."""
        results = {c.id: self.check(c, facts) for c in self.victory.conditions}
        sides = facts.sides
        first, second = sides[0], other_side(sides, sides[0])
        best = {first: 0, second: 0}
        shift = 0
        decisive = []
        for c in self.victory.conditions:
            met, _ = results[c.id]
            if not met:
                continue
            if c.level:
                lv = LEVELS.index(c.level) + 1
                if lv > best.get(c.side, 0):
                    best[c.side] = lv
                decisive.append(c)
            if c.shift:
                shift += c.shift if c.side == first else -c.shift
                decisive.append(c)
        score = max(-3, min(3, best[first] - best[second] + shift))
        breakdown = {"conditions": {c.id: {"side": c.side, "met": results[c.id][0], "detail": results[c.id][1],
                                           **({"rule": c.rule} if c.rule else {})}
                                    for c in self.victory.conditions},
                     "score": score}
        if score == 0:
            if self.victory.otherwise:
                level = self.victory.otherwise_level or "minor"
                breakdown["level"] = level
                return Outcome(self.victory.otherwise, f"{level} victory: no side achieved its conditions"
                               + (f" ({self.victory.rule})" if self.victory.rule else ""), breakdown)
            breakdown["level"] = "draw"
            return Outcome(None, "a draw: the conditions met cancel out" if decisive
                           else "a draw: no side achieved its conditions", breakdown)
        winner = first if score > 0 else second
        level = LEVELS[abs(score) - 1]
        breakdown["level"] = level
        why = [c for c in decisive if c.side == winner] or decisive
        names = "; ".join(_name(c) for c in why)
        return Outcome(winner, f"{level} victory by {names}", breakdown)

    # ------------------------------------------------------------ one condition
    def check(self, c: Condition, facts: Facts, _depth: int = 0) -> tuple[bool, str]:
        """Whether a condition is met now, and a line saying why."""
        if c.kind == "occupy":
            return self._occupy(c, facts)
        if c.kind == "exit":
            return self._exit(c, facts)
        if c.kind == "losses":
            return self._losses(c, facts)
        if c.kind == "points":
            pts = self.points(c.awards, facts)
            mine, theirs = pts.get(c.side, 0), pts.get(other_side(facts.sides, c.side), 0)
            return mine - theirs >= c.margin, f"{mine} points against {theirs} (needs a lead of {c.margin})"
        if c.kind == "count":
            if _depth > len(self.by_id):
                return False, "counts itself"
            met = [i for i in c.conditions if self.check(self.by_id[i], facts, _depth + 1)[0]]
            return len(met) >= c.at_least, f"{len(met)} of {len(c.conditions)} met ({', '.join(met) or 'none'}); " \
                                           f"needs {c.at_least}"
        return False, f"unknown kind {c.kind!r}"

    def _held_by(self, facts: Facts, side: str, mode: str) -> set[Hex]:
        if mode == "last" and facts.control is not None:
            return {h for h, s in facts.control.items() if s == side}
        return {h for uid, h in facts.where.items()
                if h is not None and facts.status.get(uid) == ON_MAP and facts.unit_side.get(uid) == side}

    def occupied(self, c: Condition, facts: Facts) -> tuple[frozenset, set, int]:
        """An occupy condition's area, the hexes of it its side holds, and how many it needs."""
        area = self.areas.hexes(c.area)
        return area, area & self._held_by(facts, c.side, c.mode), c.count or len(area)

    def _occupy(self, c: Condition, facts: Facts) -> tuple[bool, str]:
        area, held, need = self.occupied(c, facts)
        ids = ", ".join(sorted(self.areas.board.hex_id(h) for h in held)) or "none"
        verb = "last occupied" if c.mode == "last" else "held"
        return len(held) >= need, f"{len(held)} of {len(area)} hexes {verb} ({ids}); needs {need}"

    def _chosen(self, c: Condition, facts: Facts, side: str) -> list[str]:
        units = [uid for uid, s in facts.unit_side.items() if s == side]
        if c.select is None:
            return units
        dep = self.scenario.deployment_of()
        return [uid for uid in units if uid in self.scenario.units
                and c.select.matches(self.scenario.units[uid], dep)]

    def _exit(self, c: Condition, facts: Facts) -> tuple[bool, str]:
        n = self._exited(c, facts)
        return n >= c.at_least, f"{n} {c.measure} exited intact; needs {c.at_least}"

    def _exited(self, c: Condition, facts: Facts) -> int:
        """The steps or units an exit condition counts so far."""
        area = self.areas.hexes(c.area) if c.area else None
        out = []
        for uid in self._chosen(c, facts, c.side):
            if facts.status.get(uid) != EXITED:
                continue
            if area is not None and facts.exit_hex.get(uid) not in area:
                continue
            if facts.steps.get(uid, 0) < c.share * facts.original_steps.get(uid, 1):
                continue
            out.append(uid)
        return sum(facts.steps.get(u, 0) for u in out) if c.measure == "steps" else len(out)

    def _losses(self, c: Condition, facts: Facts) -> tuple[bool, str]:
        loser, n = self._lost(c, facts)
        return n >= c.at_least, f"{loser} lost {n} {c.measure}; needs {c.at_least}"

    def _lost(self, c: Condition, facts: Facts) -> tuple[str, int]:
        """Whose losses a losses condition counts, and how many so far."""
        loser = c.of or other_side(facts.sides, c.side)
        n = 0
        for uid in self._chosen(c, facts, loser):
            if c.measure == "units":
                n += facts.status.get(uid) == ELIMINATED
            elif facts.status.get(uid) != DUE:
                n += facts.original_steps.get(uid, 0) - facts.steps.get(uid, 0)
        return loser, n

    # ------------------------------------------------------------ how far along
    def progress(self, c: Condition, facts: Facts, _depth: int = 0) -> float:
        """How far a condition's side has come toward it, 0 to 1 (1: met): the share of the hexes it needs held,
        of the exits or losses it needs, of the conditions a count needs; for points, the lead over the margin,
        -1 to 1 (behind: below 0)."""
        if c.kind == "occupy":
            _, held, need = self.occupied(c, facts)
            return min(1.0, len(held) / need) if need else 1.0
        if c.kind == "exit":
            return min(1.0, self._exited(c, facts) / c.at_least) if c.at_least > 0 else 1.0
        if c.kind == "losses":
            return min(1.0, self._lost(c, facts)[1] / c.at_least) if c.at_least > 0 else 1.0
        if c.kind == "points":
            pts = self.points(c.awards, facts)
            lead = pts.get(c.side, 0) - pts.get(other_side(facts.sides, c.side), 0)
            return max(-1.0, min(1.0, lead / max(1, c.margin)))
        if c.kind == "count":
            if _depth > len(self.by_id) or c.at_least <= 0:
                return 1.0 if c.at_least <= 0 else 0.0
            met = sum(self.check(self.by_id[i], facts, _depth + 1)[0] for i in c.conditions)
            return min(1.0, met / c.at_least)
        return 0.0

    # ------------------------------------------------------------ victory points
    def points(self, awards, facts: Facts) -> dict[str, int]:
        """Each side's victory points from a schedule of awards."""
        pts = {s: 0 for s in facts.sides}
        for a in awards:
            if a.event == "hex_held":
                area = self.areas.hexes(a.area)
                n = len(area & self._held_by(facts, a.side, "end"))
            else:
                victim = other_side(facts.sides, a.side) if a.event != "exited" else a.side
                units = [uid for uid, s in facts.unit_side.items() if s == victim]
                if a.select is not None:
                    dep = self.scenario.deployment_of()
                    units = [u for u in units if u in self.scenario.units
                             and a.select.matches(self.scenario.units[u], dep)]
                if a.event == "eliminated":
                    n = sum(facts.status.get(u) == ELIMINATED for u in units)
                elif a.event == "exited":
                    n = sum(facts.status.get(u) == EXITED for u in units)
                else:
                    n = sum(facts.original_steps.get(u, 0) - facts.steps.get(u, 0) for u in units
                            if facts.status.get(u) != DUE)
            pts[a.side] = pts.get(a.side, 0) + n * a.points
        return pts


def _name(c: Condition) -> str:
    label = c.text or c.id
    return f"{label} ({c.rule})" if c.rule else label



# ---------------------------------------------------------------- reading and writing the data

CONDITION_KEYS = ("id", "kind", "side", "level", "shift", "rule", "text", "area", "count", "mode", "select",
                  "share", "at_least", "of", "measure", "margin", "conditions", "awards")
AWARD_KEYS = ("side", "points", "event", "select", "area", "rule", "text")


def parse_conditions(rd, items, sides, deployments, key: str = "victory.conditions") -> tuple[Condition, ...]:
    """Conditions from ``[[victory.conditions]]``; problems go to the scenario reader ``rd``."""
    from engine.scenario.reader import _selector

    if not isinstance(items, list) or not items:
        rd.bad(key, "expected at least one [[victory.conditions]] table")
        return ()
    out: list[Condition] = []
    for i, t in enumerate(items):
        k = f"{key}[{i}]"
        t = rd.table(t, k, CONDITION_KEYS, ("id", "kind", "side"))
        cid = rd.get(t, k, "id", str, "") or f"condition-{i + 1}"
        kind = rd.get(t, k, "kind", str, "occupy", CONDITION_KINDS) or "occupy"
        side = rd.get(t, k, "side", str, "")
        if side and side not in sides:
            rd.bad(f"{k}.side", f"{side!r} is not a side (sides: {', '.join(sides)})")
        of = rd.get(t, k, "of", str, "")
        if of and of not in sides:
            rd.bad(f"{k}.of", f"{of!r} is not a side (sides: {', '.join(sides)})")
        share = rd.get(t, k, "share", (int, float), 0.0)
        if share is not None and not 0 <= share <= 1:
            rd.bad(f"{k}.share", f"expected a share between 0 and 1, found {share}")
        if kind == "occupy" and "area" not in t:
            rd.bad(f"{k}.area", "missing (an occupy condition needs an area expression)")
        if kind == "count" and "conditions" not in t:
            rd.bad(f"{k}.conditions", "missing (a count condition names the conditions it counts)")
        if kind == "points" and "awards" not in t:
            rd.bad(f"{k}.awards", "missing (a points condition needs its schedule of awards)")
        awards = []
        for j, a in enumerate(rd.get(t, k, "awards", list, [])):
            ak = f"{k}.awards[{j}]"
            a = rd.table(a, ak, AWARD_KEYS, ("side", "points", "event"))
            aside = rd.get(a, ak, "side", str, "")
            if aside and aside not in sides:
                rd.bad(f"{ak}.side", f"{aside!r} is not a side (sides: {', '.join(sides)})")
            event = rd.get(a, ak, "event", str, "eliminated", AWARD_EVENTS) or "eliminated"
            if event == "hex_held" and "area" not in a:
                rd.bad(f"{ak}.area", "missing (hex_held counts the hexes of an area)")
            awards.append(Award(aside or "", rd.get(a, ak, "points", int, 0) or 0, event,
                                _selector(rd, a["select"], f"{ak}.select", sides, deployments) if "select" in a
                                else None, rd.area(a, ak, "area"), rd.get(a, ak, "rule", str, "") or "",
                                rd.get(a, ak, "text", str, "") or ""))
        out.append(Condition(
            id=cid, kind=kind, side=side or "", level=rd.get(t, k, "level", str, "", LEVELS) or "",
            shift=rd.get(t, k, "shift", int, 0) or 0, rule=rd.get(t, k, "rule", str, "") or "",
            text=rd.get(t, k, "text", str, "") or "", area=rd.area(t, k, "area"),
            count=rd.get(t, k, "count", int, 0) or 0, mode=rd.get(t, k, "mode", str, "end", OCCUPY_MODES) or "end",
            select=_selector(rd, t["select"], f"{k}.select", sides, deployments) if "select" in t else None,
            share=float(share or 0.0), at_least=rd.get(t, k, "at_least", int, 1) or 0, of=of or "",
            measure=rd.get(t, k, "measure", str, "steps", MEASURES) or "steps",
            margin=rd.get(t, k, "margin", int, 1) or 0, conditions=rd.strings(t, k, "conditions"),
            awards=tuple(awards)))
    ids = [c.id for c in out]
    for i, c in enumerate(out):
        if ids.count(c.id) > 1:
            rd.bad(f"{key}[{i}].id", f"condition {c.id!r} is defined twice")
        for j, ref in enumerate(c.conditions):
            if ref not in ids:
                rd.bad(f"{key}[{i}].conditions[{j}]", f"no condition {ref!r} (conditions: {', '.join(ids)})")
            elif ref == c.id:
                rd.bad(f"{key}[{i}].conditions[{j}]", "a condition cannot count itself")
    return tuple(out)


def conditions_to_list(conditions, selector_to_dict) -> list[dict]:
    """The TOML tables of a list of conditions (empty values left out: they are the defaults)."""
    out = []
    for c in conditions:
        d = {"id": c.id, "kind": c.kind, "side": c.side, "level": c.level, "shift": c.shift, "rule": c.rule,
             "text": c.text, "area": c.area, "count": c.count, "mode": c.mode if c.mode != "end" else "",
             "select": selector_to_dict(c.select) if c.select is not None else None,
             "share": c.share or None, "at_least": c.at_least if c.at_least != 1 else None, "of": c.of,
             "measure": c.measure if c.measure != "steps" else "", "margin": c.margin if c.margin != 1 else None,
             "conditions": list(c.conditions),
             "awards": [_drop({"side": a.side, "points": a.points, "event": a.event,
                               "select": selector_to_dict(a.select) if a.select is not None else None,
                               "area": a.area, "rule": a.rule, "text": a.text}, ("points",)) for a in c.awards]}
        out.append(_drop(d, tuple(k for k in ("at_least", "margin") if d[k] is not None)))
    return out


def _drop(d: dict, keep: tuple[str, ...]) -> dict:
    return {k: v for k, v in d.items() if k in keep or v not in (None, "", [], {}, (), 0)}
