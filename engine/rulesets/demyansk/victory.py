"""Victory (Demyansk 9.2 open line to the west; 9.3 victory points), each with its breakdown."""
from __future__ import annotations

from collections import deque

from ...game import Outcome
from ..free.standing import Standing, judge_standing
from engine.maps.hexes import Hex
from .state import DUE, HELD, ELIMINATED, OFF_MAP, ON_MAP, WITHDRAWN, State
from .supply import linked_to_west, west_region
from .units import GERMAN, SOVIET


def open_line(rules, st: State) -> Outcome:
    """9.2: the German wins with a free line of hexes from a pocket unit to the west map edge."""
    pocket = [uid for uid in rules.pocket_units if st.units[uid].status == ON_MAP]
    linked = [uid for uid in pocket if linked_to_west(rules, st, st.units[uid].hex)]
    breakdown = {"pocket units on the map": len(pocket), "pocket units with a free line to the west": len(linked)}
    if linked:
        return Outcome(GERMAN, "Demyansk 9.2: a line free of Soviet units and zones of control joins the pocket "
                       "to the west map edge", breakdown)
    return Outcome(SOVIET, "Demyansk 9.2: the pocket is not relieved", breakdown)


def victory_points(rules, st: State) -> Outcome:
    """9.3: the victory point schedule, both sides' totals and every line of it."""
    t = rules.tables
    soviet = {"non-infantry destroyed (3 each)": 0, "infantry destroyed (1 each)": 0,
              "east of the front at the end (as destroyed)": 0,
              "turns without a continuous front (1 each)": len(st.front_failures),
              "withdrawing units left on the map (1 per unit-turn)": st.withdrawal_vp}
    german = {"units in or west of the front (2 each)": 0}
    for uid, u in sorted(st.units.items()):
        spec = rules.specs[uid]
        if spec.side != GERMAN:
            continue
        value = 1 if t.type_flag(spec.type, "infantry") else 3
        if u.status == ELIMINATED and u.destroyed_in_combat:
            key = "infantry destroyed (1 each)" if value == 1 else "non-infantry destroyed (3 each)"
            soviet[key] += value
        elif u.status == ON_MAP:
            if linked_to_west(rules, st, u.hex):
                german["units in or west of the front (2 each)"] += 2
            else:
                soviet["east of the front at the end (as destroyed)"] += value
    sv, gv = sum(soviet.values()), sum(german.values())
    breakdown = {"soviet": soviet, "german": german, "soviet total": sv, "german total": gv}
    winner = GERMAN if gv > sv else SOVIET if sv > gv else None
    return Outcome(winner, f"Demyansk 9.3: victory points, German {gv}, Soviet {sv}", breakdown)


def conditions(rules, st: State) -> Outcome:
    """A scenario's general victory conditions (``engine.scenario.victory``), judged on this state."""
    return rules.judge.outcome(condition_facts(rules, st))


def condition_facts(rules, st: State):
    """What the general victory conditions are judged on (``engine.scenario.victory.Facts``) in this state."""
    from engine.scenario.victory import DUE as V_DUE, ELIMINATED as V_ELIM, EXITED, GONE, ON_MAP as V_MAP, Facts

    status = {ON_MAP: V_MAP, DUE: V_DUE, HELD: V_DUE, ELIMINATED: V_ELIM, OFF_MAP: GONE, WITHDRAWN: EXITED}
    return Facts(
        sides=(GERMAN, SOVIET),
        unit_side={uid: spec.side for uid, spec in rules.specs.items()},
        where={uid: u.hex if u.status == ON_MAP else None for uid, u in st.units.items()},
        status={uid: status.get(u.status, GONE) for uid, u in st.units.items()},
        steps={uid: 0 if u.status in (ELIMINATED, OFF_MAP) else 1 for uid, u in st.units.items()},
        original_steps={uid: 1 for uid in st.units})     # 2.1: every Demyansk counter is a single step


# ---------------------------------------------------------------- the standing during play

def open_line_path(rules, st: State) -> tuple[str, list[Hex]] | None:
    """9.2: the shortest free line from a pocket unit on the map to the west edge, as (unit, hexes), or None.

    The unit's own hex may be in a Soviet zone of control (as for 7.2); every
    other hex of the line is free of Soviet units and zones of control.
    """
    region = west_region(rules, st)
    west = rules.map.edges["west"]
    nb = rules.map.neighbors
    # one search from the west edge through the free hexes: each hex's next step toward the edge
    toward: dict[Hex, Hex | None] = {h: None for h in sorted(west & region, key=lambda h: (h.q, h.r))}
    dist = dict.fromkeys(toward, 0)
    todo = deque(toward)
    while todo:
        h = todo.popleft()
        for n in nb[h]:
            if n not in toward and n in region:
                toward[n], dist[n] = h, dist[h] + 1
                todo.append(n)
    best = None
    for uid in rules.pocket_units:
        u = st.units[uid]
        if u.status != ON_MAP:
            continue
        if u.hex in toward:
            line = [u.hex]
        elif u.hex in west:
            line = [u.hex]                  # on the edge itself, in a Soviet zone of control
        else:
            steps = [n for n in nb[u.hex] if n in toward]
            if not steps:
                continue
            line = [u.hex, min(steps, key=lambda n: dist[n])]
        while toward.get(line[-1]) is not None:
            line.append(toward[line[-1]])
        if best is None or len(line) < len(best[1]):
            best = (uid, line)
    return best


def _judged(rules, st: State) -> str:
    """When the condition is judged, as the victory dock shows it."""
    return "now: the game is over" if st.over else f"at the end of turn {rules.turns} (now turn {st.turn})"


def standing(rules, st: State) -> list[Standing]:
    """The current standing of each of the scenario's victory conditions (the game need not be over)."""
    if rules.victory == "conditions":
        return conditions_standing(rules, st)
    if rules.victory == "points":
        return [points_standing(rules, st)]
    return [open_line_standing(rules, st)]


def open_line_standing(rules, st: State) -> Standing:
    """9.2 now: is there a free line from the pocket to the west edge, and through which hexes."""
    out = open_line(rules, st)
    found = open_line_path(rules, st)
    figures = [(k, str(v)) for k, v in out.breakdown.items()]
    figures.append(("judged", _judged(rules, st)))
    if found is None:
        return Standing("Open line to the west", "Demyansk 9.2", SOVIET,
                        "no free line joins the pocket to the west edge now", tuple(figures))
    uid, line = found
    ids = tuple(rules.map.hex_id(h) for h in line)
    figures.append(("line", f"{len(ids)} hexes from {uid}: {'-'.join(ids)}"))
    return Standing("Open line to the west", "Demyansk 9.2", GERMAN,
                    f"a free line of {len(ids)} hexes runs from {uid} in {ids[0]} to {ids[-1]} on the west edge",
                    tuple(figures), ids)


def points_standing(rules, st: State) -> Standing:
    """9.3 now: each line of the victory point schedule so far, as if the game ended here."""
    out = victory_points(rules, st)
    b = out.breakdown
    figures = [(f"Soviet: {k}", str(v)) for k, v in b["soviet"].items()]
    figures += [(f"German: {k}", str(v)) for k, v in b["german"].items()]
    figures.append(("judged", _judged(rules, st)))
    sv, gv = b["soviet total"], b["german total"]
    lead = "level" if out.winner is None else f"{out.winner.capitalize()} leads by {abs(gv - sv)}"
    return Standing("Victory points", "Demyansk 9.3", out.winner,
                    f"German {gv}, Soviet {sv}: {lead} (if the game ended now)", tuple(figures))


def conditions_standing(rules, st: State) -> list[Standing]:
    """The scenario's general victory conditions (``engine.scenario.victory``) each judged on this state, and the verdict."""
    return judge_standing(rules.judge, condition_facts(rules, st), st.over, st.turn, rules.turns)
