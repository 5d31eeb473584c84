"""Victory by conditions and levels (BW 5.0, 5.1): each condition evaluated on the position, with its breakdown.

A condition is one of:

- ``occupy_all``: ``side`` occupies every hex of ``area`` (BW 5.0: the last side to occupy or pass through it);
- ``occupy_at_least``: ``side`` occupies at least ``count`` hexes of ``area``;
- ``hold_fewer``: ``side`` occupies fewer than ``count`` hexes of ``area`` (scenario 4's "fewer than 50");
- ``occupy_any``: ``side`` occupies all of one of the areas ``area`` lists, separated by ";" (with ``count``: all
  of at least that many of them, BW 5.1 "two of the following villages");
- ``no_units``: no unit of ``side`` stands in ``area``;
- ``exit``: an intact ``group`` (platoon, company, battalion, regiment) of ``side`` left the map through
  ``area`` (BW 5.0: exited units holding 80% or more of the group's original steps); ``no_exit``: none did.
  Which units make a group is the game's (``games/black_wednesday_rules.exited_groups``).

Levels are tried in order; the first whose conditions hold (``at_least`` of them, or all) is the result.
A level with no conditions is the "otherwise" level.  Shifts (BW 5.1) move the result along the levels'
``rank`` scale by the units each side has lost.
"""
from __future__ import annotations


def condition_met(rules, st, c) -> tuple[bool, str]:
    """Whether a condition holds now, and the figures that say so."""
    hexes = rules.condition_hexes.get(c.id, frozenset())
    held = sum(1 for h in hexes if st.control.get(h) == c.side)
    if c.kind == "occupy_all":
        return held == len(hexes) and bool(hexes), f"{c.side} occupies {held} of {len(hexes)} hexes"
    if c.kind == "occupy_at_least":
        if c.credit and rules.game is not None and hasattr(rules.game, "hex_credit"):    # BW scenarios 2, 3
            n, why = rules.game.hex_credit(rules, st, c)
            return held + n >= c.count, f"{c.side} occupies {held} hexes + {n} credited ({why}) (needs {c.count})"
        return held >= c.count, f"{c.side} occupies {held} hexes (needs {c.count})"
    if c.kind == "hold_fewer":
        return held < c.count, f"{c.side} occupies {held} hexes (the condition needs fewer than {c.count})"
    if c.kind == "occupy_any":
        parts = rules.condition_parts[c.id]
        full = [i for i, p in enumerate(parts) if p and all(st.control.get(h) == c.side for h in p)]
        names = [x.strip() for x in c.area.split(";")]
        need = max(c.count, 1)
        return len(full) >= need, (f"{c.side} occupies all of {', '.join(names[i] for i in full) or 'none of them'}"
                                   + (f" (needs {need})" if need > 1 else ""))
    if c.kind == "no_units":
        n = sum(1 for k, u in st.units.items() if u.hex in hexes and rules.specs[k].side == c.side)
        return n == 0, f"{n} {c.side} units there"
    if c.kind in ("exit", "no_exit") and rules.game is not None and hasattr(rules.game, "exited_groups"):
        groups = rules.game.exited_groups(rules, st, c.side, hexes, c.group)
        why = f"intact {c.group}s exited: {', '.join(groups) or 'none'}"
        return (bool(groups) if c.kind == "exit" else not groups), why
    return False, "this game does not say which units make a formation: never met"


def units_lost(rules, st, side: str) -> int:
    """Units in the dead pile (BW 5.0 'Lost Units'): on no hex and not waiting to enter."""
    return sum(1 for k, u in st.units.items()
               if rules.specs[k].side == side and u.hex is None and k not in st.waiting
               and not st.marks.get("exited " + k))


def evaluate(rules, st) -> tuple[str, str, dict]:
    """(winner or "", level name, breakdown) for a scenario with victory levels."""
    sc = rules.scenario
    met, breakdown = {}, {}
    for c in sc.conditions:
        ok, why = condition_met(rules, st, c)
        met[c.id] = ok
        breakdown[c.id] = f"{'met' if ok else 'not met'}: {c.text or c.kind} ({why})"
    chosen = sc.levels[-1]
    for lv in sc.levels:
        if not lv.conditions:
            chosen = lv
            break
        n = sum(met[c] for c in lv.conditions)
        if n >= (lv.at_least or len(lv.conditions)):
            chosen = lv
            break
    if sc.shifts:
        scale = sorted(sc.levels, key=lambda lv: lv.rank)
        pos = scale.index(chosen)
        for side, per, toward in sc.shifts:
            lost = units_lost(rules, st, side)
            n = lost // per
            breakdown[f"shift ({side} units lost)"] = f"{lost} lost: {n} level(s) toward {toward}"
            step = 1 if scale[-1].winner == toward else -1
            pos = max(0, min(len(scale) - 1, pos + step * n))
        if scale[pos] is not chosen:
            breakdown["before shifts"] = chosen.name
        chosen = scale[pos]
    breakdown["level"] = chosen.name
    return chosen.winner, chosen.name, breakdown
