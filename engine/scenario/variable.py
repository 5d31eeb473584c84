"""Variable reinforcements: released by an event, decided by a die roll on a table (Black Wednesday 2.7, 3.3, 3.5)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RELEASE_EVENTS = ("turn", "enters", "entered")
DICE = ("1d6", "2d6", "d66")
DICE_RANGE = {"1d6": (1, 6), "2d6": (2, 12), "d66": (11, 66)}


@dataclass(frozen=True)
class Release:
    """The event that releases a group (or starts its rolls).

    ``turn``: from turn ``turn`` on; ``enters``: a unit of ``side`` is in the
    area ``area`` (Black Wednesday 3.3a: the first Soviet unit in a trench
    hex); ``entered``: every one of ``units`` has entered play (2.7: after
    the whole I-263 battalion has entered).
    """

    event: str
    turn: int = 0
    side: str = ""
    area: str = ""
    units: tuple[str, ...] = ()
    rule: str = ""
    text: str = ""

    def describe(self) -> str:
        if self.text:
            return self.text
        if self.event == "turn":
            return f"from turn {self.turn}"
        if self.event == "enters":
            return f"a {self.side} unit in {self.area}"
        return f"{', '.join(self.units)} entered play"


@dataclass(frozen=True)
class RollModifier:
    """A number added to the roll, from a turn on or while an option is set (Black Wednesday 4.1b)."""

    add: int
    from_turn: int | None = None
    option: str = ""
    rule: str = ""
    text: str = ""


@dataclass(frozen=True)
class RollResult:
    """A row of the table: rolls from ``min`` to ``max`` release ``units``, or the next ``count`` units held."""

    min: int
    max: int | None = None
    units: tuple[str, ...] = ()
    count: int = 0
    text: str = ""

    def covers(self, roll: int) -> bool:
        return roll >= self.min and (self.max is None or roll <= self.max)


@dataclass(frozen=True)
class RollTable:
    """The die roll a released group makes each reinforcement phase until all its units are out."""

    dice: str
    results: tuple[RollResult, ...]
    modifiers: tuple[RollModifier, ...] = ()
    rule: str = ""
    text: str = ""

    def result_for(self, roll: int) -> RollResult | None:
        return next((r for r in self.results if r.covers(roll)), None)


# ---------------------------------------------------------------- reading

RELEASE_KEYS = ("event", "turn", "side", "area", "units", "rule", "text")
ROLL_KEYS = ("dice", "results", "modifiers", "rule", "text")
RESULT_KEYS = ("min", "max", "units", "count", "text")
MODIFIER_KEYS = ("add", "from_turn", "option", "rule", "text")


def parse_release(rd, t: Any, key: str, sides, units, turns) -> Release:
    """A ``release`` table, every problem named with its key path."""
    t = rd.table(t, key, RELEASE_KEYS, ("event",))
    event = rd.get(t, key, "event", str, "turn", RELEASE_EVENTS) or "turn"
    turn = rd.get(t, key, "turn", int, 0) or 0
    side = rd.get(t, key, "side", str, "") or ""
    area = rd.area(t, key, "area")
    ids = rd.strings(t, key, "units")
    if event == "turn" and not turn:
        rd.bad(f"{key}.turn", "missing (a release by turn needs the turn)")
    if turn and not turns[0] <= turn <= turns[1]:
        rd.bad(f"{key}.turn", f"turn {turn} is outside the game (turns {turns[0]}-{turns[1]})")
    if event == "enters":
        if side not in sides:
            rd.bad(f"{key}.side", f"expected the side whose unit enters the area (sides: {', '.join(sides)})")
        if not area:
            rd.bad(f"{key}.area", "missing (a release by a unit entering an area needs the area)")
    if event == "entered" and not ids:
        rd.bad(f"{key}.units", "missing (a release by units entering play needs their ids)")
    for j, uid in enumerate(ids):
        if uid not in units:
            rd.bad(f"{key}.units[{j}]", f"no unit {uid!r} in [[units]]")
    return Release(event, turn, side, area, ids, rd.get(t, key, "rule", str, "") or "",
                   rd.get(t, key, "text", str, "") or "")


def parse_roll(rd, t: Any, key: str, pool: tuple[str, ...]) -> RollTable:
    """A ``roll`` table: its dice, modifiers and results; result units must belong to the group."""
    t = rd.table(t, key, ROLL_KEYS, ("dice", "results"))
    dice = rd.get(t, key, "dice", str, "1d6", DICE) or "1d6"
    results = []
    for i, r in enumerate(rd.get(t, key, "results", list, [])):
        rkey = f"{key}.results[{i}]"
        r = rd.table(r, rkey, RESULT_KEYS, ("min",))
        lo = rd.get(r, rkey, "min", int, 0) or 0
        hi = rd.get(r, rkey, "max", int, None)
        ids = rd.strings(r, rkey, "units")
        count = rd.get(r, rkey, "count", int, 0) or 0
        if hi is not None and hi < lo:
            rd.bad(f"{rkey}.max", f"max {hi} is below min {lo}")
        if bool(ids) == bool(count):
            rd.bad(rkey, "expected either units (the units released) or count (the next units held)")
        if count < 0:
            rd.bad(f"{rkey}.count", f"expected 1 or more, found {count}")
        for j, uid in enumerate(ids):
            if uid not in pool:
                rd.bad(f"{rkey}.units[{j}]", f"{uid!r} is not one of this reinforcement's units")
        results.append(RollResult(lo, hi, ids, count, rd.get(r, rkey, "text", str, "") or ""))
    if not results:
        rd.bad(f"{key}.results", "missing (a roll needs at least one result)")
    mods = []
    for i, m in enumerate(rd.get(t, key, "modifiers", list, [])):
        mkey = f"{key}.modifiers[{i}]"
        m = rd.table(m, mkey, MODIFIER_KEYS, ("add",))
        mods.append(RollModifier(rd.get(m, mkey, "add", int, 0) or 0, rd.get(m, mkey, "from_turn", int, None),
                                 rd.get(m, mkey, "option", str, "") or "", rd.get(m, mkey, "rule", str, "") or "",
                                 rd.get(m, mkey, "text", str, "") or ""))
    return RollTable(dice, tuple(results), tuple(mods), rd.get(t, key, "rule", str, "") or "",
                     rd.get(t, key, "text", str, "") or "")


# ---------------------------------------------------------------- writing

def release_to_dict(r: Release, drop) -> dict:
    return drop({"event": r.event, "turn": r.turn or None, "side": r.side, "area": r.area, "units": list(r.units),
                 "rule": r.rule, "text": r.text})


def roll_to_dict(t: RollTable, drop) -> dict:
    return drop({
        "dice": t.dice, "rule": t.rule, "text": t.text,
        "modifiers": [drop({"add": m.add, "from_turn": m.from_turn, "option": m.option, "rule": m.rule,
                            "text": m.text}, keep=("add",)) for m in t.modifiers],
        "results": [drop({"min": r.min, "max": r.max, "units": list(r.units), "count": r.count or None,
                          "text": r.text}, keep=("min",)) for r in t.results]})
