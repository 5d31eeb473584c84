"""Reinforcements (Demyansk 9.1), parachute drops (8.2) and withdrawals (9.3 special rule 1)."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from ...hexes import Hex
from .results import eliminate, place
from .state import DUE, ON_MAP, WITHDRAWN, State
from .supply import linked_to_west
from .units import GERMAN, SOVIET, enemy_of
from .zoc import forget, side_hexes, zoc

EDGE_OF = {GERMAN: "west", SOVIET: "east"}


def check_enter(rules, st: State, uid: str, h: Hex) -> None:
    """Refuse a reinforcement's entry hex unless 9.1 allows it."""
    spec = rules.specs.get(uid)
    if spec is None:
        raise IllegalAction("", f"there is no unit {uid!r}")
    if st.phase != f"{spec.side}-reinforcement":
        raise IllegalAction("Demyansk 9.1", f"reinforcements enter in their side's reinforcement phase, "
                            f"not in the {st.phase} phase")
    u = st.units[uid]
    if u.status != DUE or (spec.arrives or 0) > st.turn:
        raise IllegalAction("Demyansk 9.1", f"{uid} is not a reinforcement due by turn {st.turn}")
    if rules.tables.type_flag(spec.type, "airborne") and st.turn < rules.options.get("para_east_edge_from_turn", 3):
        raise IllegalAction("Demyansk 8.2", "the parachute brigades may enter from the east edge "
                            f"only from turn {rules.options.get('para_east_edge_from_turn', 3)}")
    edge = EDGE_OF[spec.side]
    if h not in rules.map.edges[edge]:
        raise IllegalAction("Demyansk 9.1", f"{spec.side} reinforcements enter on the {edge} map edge")
    if h in rules.map.prohibited:
        raise IllegalAction("Demyansk 9.1", "no unit may enter a lake hex")
    if h in side_hexes(rules, st, enemy_of(spec.side)):
        raise IllegalAction("Demyansk 9.1", "reinforcements may not enter in a hex with an enemy unit")
    if h in zoc(rules, st, enemy_of(spec.side)):
        raise IllegalAction("Demyansk 9.1", "reinforcements may not enter in an enemy zone of control")
    if h in side_hexes(rules, st, spec.side):
        raise IllegalAction("Demyansk 5.3", "only one unit may be in a hex")


def enter(rules, st: State, uid: str, h: Hex, events: list) -> None:
    place(rules, st, uid, h)
    st.units[uid].entry_mp = rules.map.terrain_mp(h)     # errata: pays the entry hex's terrain cost
    events.append(Event("enter", f"{uid} enters at {rules.map.hex_id(h)}", {"unit": uid}))


def check_drop(rules, st: State, uid: str, h: Hex) -> None:
    """Refuse an air drop unless 8.2 allows it."""
    spec = rules.specs.get(uid)
    if spec is None or not rules.tables.type_flag(spec.type, "airborne"):
        raise IllegalAction("Demyansk 8.2", f"{uid} is not a parachute brigade")
    u = st.units[uid]
    if st.phase != "soviet-reinforcement":
        raise IllegalAction("Demyansk 8.2", "parachute brigades drop in the Soviet reinforcement phase")
    if st.turn < rules.options.get("para_drop_from_turn", 2):
        raise IllegalAction("Demyansk 8.2", f"the parachute brigades may drop from turn "
                            f"{rules.options.get('para_drop_from_turn', 2)}")
    if u.status != DUE or u.dropped:
        raise IllegalAction("Demyansk 8.2", f"{uid} is not waiting off the map for its one air drop")
    m = rules.map
    if h not in m.pocket:
        raise IllegalAction("Demyansk 8.2", "parachute brigades must land within the pocket perimeter")
    germans = side_hexes(rules, st, GERMAN)
    if h in side_hexes(rules, st, SOVIET):
        raise IllegalAction("Demyansk 5.3", "only one unit may be in a hex")
    if h in germans:
        helpers = [o for o in st.units if st.units[o].status == ON_MAP and rules.specs[o].side == SOVIET
                   and not rules.tables.type_flag(rules.specs[o].type, "airborne")
                   and st.units[o].hex in m.neighbors[h]]
        if not helpers:
            raise IllegalAction("Demyansk 8.2", "a brigade may land on a German unit only if another "
                                "Soviet unit, not a parachute brigade, is adjacent to it")
    elif not m.kinds[h] <= {"clear", "airfield"}:
        raise IllegalAction("Demyansk 8.2", "a brigade must land in a clear hex (the airfield counts as clear) "
                            "or on a German unit")


def drop(rules, st: State, uid: str, h: Hex, events: list) -> None:
    """Land a brigade: the antiaircraft battalion, then the survival roll on a German unit (8.2)."""
    u = st.units[uid]
    u.dropped = True
    u.drop_turn = st.turn
    place(rules, st, uid, h)
    events.append(Event("drop", f"{uid} drops on {rules.map.hex_id(h)}", {"unit": uid}))
    m = rules.map
    near = {h, *m.neighbors[h]}
    for o, ou in st.units.items():
        if ou.status == ON_MAP and ou.hex in near and rules.tables.type_flag(rules.specs[o].type, "antiaircraft") \
                and rules.specs[o].side == GERMAN:
            eliminate(rules, st, uid, events, f"Demyansk 8.2: dropped in or next to the antiaircraft battalion {o}",
                      in_combat=False)
            return
    target = next((o for o, ou in st.units.items() if ou.status == ON_MAP and ou.hex == h
                   and rules.specs[o].side == GERMAN), None)
    if target is None:
        return
    die = rules.roll(st, events, f"survival of {uid} landing on {target}")
    if die in rules.options.get("para_survival_faces", [5, 6]):
        u.landed_on = target
        events.append(Event("drop", f"Demyansk 8.2: {uid} survives ({die}) and must attack {target}"))
    else:
        eliminate(rules, st, uid, events, f"Demyansk 8.2: landing on {target}, rolled {die}", in_combat=False)


def check_withdraw(rules, st: State, uid: str) -> None:
    """Refuse a withdrawal unless 9.3 special rule 1 allows it."""
    spec = rules.specs.get(uid)
    if spec is None or spec.withdraw_turn is None or not rules.withdrawals:
        raise IllegalAction("Demyansk 9.3", f"{uid} is not a unit of a division to be withdrawn")
    if st.phase not in ("german-movement", "german-mechanized-movement"):
        raise IllegalAction("Demyansk 9.3", "units withdraw in a German movement phase")
    u = st.units[uid]
    if u.status != ON_MAP:
        raise IllegalAction("Demyansk 9.3", f"{uid} is not on the map")
    if not linked_to_west(rules, st, u.hex):
        raise IllegalAction("Demyansk 9.3", f"{uid} is cut off from the west and cannot be withdrawn")


def withdraw(rules, st: State, uid: str, events: list) -> None:
    st.units[uid].status = WITHDRAWN
    forget(st)
    events.append(Event("withdraw", f"{uid} withdrawn (Demyansk 9.3)", {"unit": uid}))
