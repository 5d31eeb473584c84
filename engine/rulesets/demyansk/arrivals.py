"""Reinforcements (Demyansk 9.1), variable reinforcements, parachute drops (8.2) and withdrawals (9.3 special rule 1)."""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from engine.maps.hexes import Hex
from .results import eliminate, place
from .state import DUE, HELD, ON_MAP, WITHDRAWN, State
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
    if u.status == HELD:
        group = rules.variable_group_of(uid)
        raise IllegalAction(group.rule or (group.release.rule if group.release else ""),
                            f"{uid} is a variable reinforcement ({group.id}) not released yet")
    if u.status != DUE or (spec.arrives or 0) > st.turn:
        raise IllegalAction("Demyansk 9.1", f"{uid} is not a reinforcement due by turn {st.turn}")
    if rules.tables.type_flag(spec.type, "airborne") and st.turn < rules.options.get("para_east_edge_from_turn", 3):
        raise IllegalAction("Demyansk 8.2", "the parachute brigades may enter from the east edge "
                            f"only from turn {rules.options.get('para_east_edge_from_turn', 3)}")
    edge = EDGE_OF[spec.side]
    check_in_play(rules, h)
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
    check_in_play(rules, h)
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


# ---------------------------------------------------------------- the map area in play

def check_in_play(rules, h: Hex) -> None:
    """Refuse a hex outside the scenario's map area in play."""
    if h in rules.outside_play:
        raise IllegalAction(rules.play_area_rule, rules.outside_play_reason(h))


# ---------------------------------------------------------------- variable reinforcements

def held(st: State, group) -> list[str]:
    """The units of a variable reinforcement still held back, in the group's order."""
    return [uid for uid in group.units if st.units[uid].status == HELD]


def release_happened(rules, st: State, group) -> bool:
    """Whether a group's release event has happened in this state (no event: from its turn on)."""
    r = group.release
    if r is None or r.event == "turn":
        return st.turn >= max(group.turn, r.turn if r else 0)
    if r.event == "enters":
        return any(u.status == ON_MAP and rules.specs[uid].side == r.side and u.hex in rules.release_area(r)
                   for uid, u in st.units.items())
    return all(st.units[uid].status not in (DUE, HELD) for uid in r.units)


def check_releases(rules, st: State, events: list) -> None:
    """Record every release event that has just happened; a group without a roll comes out whole."""
    for group in rules.variable:
        if group.id in st.released or not release_happened(rules, st, group):
            continue
        st.released[group.id] = st.turn
        why = group.release.describe() if group.release else f"from turn {group.turn}"
        cite = group.release.rule if group.release and group.release.rule else group.rule
        events.append(Event("release-event", f"{cite + ': ' if cite else ''}{group.id}: {why}",
                            {"group": group.id}))
        if group.roll is None:
            _release(st, group, held(st, group), events, why)


def roll_for_reinforcements(rules, st: State, side: str, events: list) -> None:
    """At the start of a side's reinforcement phase, each released group with a table rolls once."""
    for group in rules.variable:
        if group.side != side or group.roll is None or group.id not in st.released or st.turn < group.turn:
            continue
        waiting = held(st, group)
        if not waiting:
            continue
        table = group.roll
        cite = table.rule or group.rule
        roll = _dice(rules, st, events, table.dice, f"{group.id} reinforcements ({cite})" if cite else group.id)
        mods = [m for m in table.modifiers if (m.from_turn is None or st.turn >= m.from_turn)
                and (not m.option or rules.options.get(m.option))]
        total = roll + sum(m.add for m in mods)
        shown = f"{roll}{''.join(f' {m.add:+d}' for m in mods)} = {total}" if mods else str(roll)
        result = table.result_for(total)
        if result is None:
            events.append(Event("release", f"{cite + ': ' if cite else ''}{group.id}: {shown}, nothing released",
                                {"group": group.id, "roll": total, "units": []}))
            continue
        units = [u for u in result.units if u in waiting] if result.units else waiting[:result.count]
        _release(st, group, units, events, f"{shown}{' (' + result.text + ')' if result.text else ''}", total)


def _dice(rules, st: State, events: list, dice: str, purpose: str) -> int:
    """A roll of the table's dice, each die a chance event in the log (d66: the first die gives the tens)."""
    if dice == "1d6":
        return rules.roll(st, events, purpose)
    first = rules.roll(st, events, f"{purpose}, first die")
    second = rules.roll(st, events, f"{purpose}, second die")
    return first * 10 + second if dice == "d66" else first + second


def _release(st: State, group, units: list[str], events: list, why: str, roll: int | None = None) -> None:
    for uid in units:
        st.units[uid].status = DUE
    cite = group.rule + ": " if group.rule else ""
    text = f"{cite}{group.id}: {', '.join(units)} released ({why})" if units else \
        f"{cite}{group.id}: nothing left to release ({why})"
    events.append(Event("release", text, {"group": group.id, "units": list(units),
                                          **({"roll": roll} if roll is not None else {})}))
