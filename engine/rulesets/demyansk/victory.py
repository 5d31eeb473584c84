"""Victory (Demyansk 9.2 open line to the west; 9.3 victory points), each with its breakdown."""
from __future__ import annotations

from ...game import Outcome
from .state import DUE, HELD, ELIMINATED, OFF_MAP, ON_MAP, WITHDRAWN, State
from .supply import linked_to_west
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
    """A scenario's general victory conditions (``engine.victory``), judged on this state."""
    from ...victory import DUE as V_DUE, ELIMINATED as V_ELIM, EXITED, GONE, ON_MAP as V_MAP, Facts

    status = {ON_MAP: V_MAP, DUE: V_DUE, HELD: V_DUE, ELIMINATED: V_ELIM, OFF_MAP: GONE, WITHDRAWN: EXITED}
    facts = Facts(
        sides=(GERMAN, SOVIET),
        unit_side={uid: spec.side for uid, spec in rules.specs.items()},
        where={uid: u.hex if u.status == ON_MAP else None for uid, u in st.units.items()},
        status={uid: status.get(u.status, GONE) for uid, u in st.units.items()},
        steps={uid: 0 if u.status in (ELIMINATED, OFF_MAP) else 1 for uid, u in st.units.items()},
        original_steps={uid: 1 for uid in st.units})     # 2.1: every Demyansk counter is a single step
    return rules.judge.outcome(facts)
