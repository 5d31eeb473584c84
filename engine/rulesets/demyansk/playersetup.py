"""Sides set up by the player: before turn 1 each such side places its waiting units in their set-up areas.

The set-up phases (``german-setup``, then ``soviet-setup``, for the sides that
have units to place) come before the first turn's first phase.  A unit may go
to any free hex (Demyansk 5.3: one unit a hex) of its set-up areas inside the
map area in play; the phase ends once every unit is placed and the whole
set-up passes the scenario's checks (its set-up rules, with their numbers).
"""
from __future__ import annotations

from ...errors import IllegalAction
from ...game import Event
from engine.maps.hexes import Hex
from .state import ON_MAP, State
from .units import SIDES

TO_PLACE = "to-place"            # a unit waiting off the map to be set up by the player
SETUP_PHASES = tuple(f"{side}-setup" for side in SIDES)


def setup_phases(rules, st: State) -> list[str]:
    """The set-up phases this game still has, in order."""
    sides = {rules.specs[uid].side for uid, u in st.units.items() if u.status == TO_PLACE}
    return [p for p in SETUP_PHASES if p.split("-")[0] in sides]


def check_place(rules, st: State, uid: str, h: Hex) -> None:
    """Refuse a placement unless the unit waits to be set up now and the hex is a free hex of its areas."""
    if st.phase not in SETUP_PHASES:
        raise IllegalAction("", f"units are set up before the first turn, not in the {st.phase} phase")
    spec = rules.specs.get(uid)
    if spec is None:
        raise IllegalAction("", f"there is no unit {uid!r}")
    if st.units[uid].status != TO_PLACE:
        raise IllegalAction("", f"{uid} is not waiting to be set up")
    if st.phase != f"{spec.side}-setup":
        raise IllegalAction("", f"{uid} is set up in the {spec.side} set-up phase")
    if h in rules.outside_play:
        raise IllegalAction(rules.play_area_rule, rules.outside_play_reason(h))
    area, rule, expr = rules.player_setup[uid]
    if h not in area:
        raise IllegalAction(rule, f"{rules.map.hex_id(h)} is not in {uid}'s set-up area {expr!r}")
    if any(u.status == ON_MAP and u.hex == h for u in st.units.values()):
        raise IllegalAction("Demyansk 5.3", "only one unit may be in a hex")


def place_unit(rules, st: State, uid: str, h: Hex, events: list) -> None:
    u = st.units[uid]
    u.hex, u.status = h, ON_MAP
    events.append(Event("place", f"{uid} sets up in {rules.map.hex_id(h)}", {"unit": uid}))


def placements(rules, st: State) -> list:
    """Every legal placement now (each waiting unit of the phase's side on each free hex of its areas)."""
    from .actions import Place

    occupied = {u.hex for u in st.units.values() if u.status == ON_MAP}
    side = st.phase.split("-")[0]
    out = []
    for uid in rules.order:
        if st.units[uid].status != TO_PLACE or rules.specs[uid].side != side:
            continue
        area = rules.player_setup[uid][0]
        out.extend(Place(uid, rules.map.hex_id(h)) for h in sorted(area - occupied - rules.outside_play))
    return out


def check_setup_done(rules, st: State) -> None:
    """Refuse to end a set-up phase with a unit still waiting or a set-up rule broken."""
    side = st.phase.split("-")[0]
    waiting = [uid for uid in rules.order if st.units[uid].status == TO_PLACE and rules.specs[uid].side == side]
    if waiting:
        raise IllegalAction("", f"place every unit first: {', '.join(waiting)} still wait(s) to be set up")
    scenario = getattr(rules, "scenario", None)
    if scenario is None:
        return
    from ...scenario.setup import validate_setup

    placed = {uid: u.hex for uid, u in st.units.items() if u.status == ON_MAP and uid in scenario.units
              and uid in scenario.deployment_of()}
    others_waiting = any(u.status == TO_PLACE for u in st.units.values())

    def this_sides(p) -> bool:
        """A problem of this side's set-up (rules for every side wait for the last set-up phase)."""
        if p.key.startswith("units."):
            uid = p.key.split(".")[1]
            return uid in rules.specs and rules.specs[uid].side == side
        if p.key.startswith("setup_rules["):
            chosen = scenario.setup_rules[int(p.key[len("setup_rules["):].split("]")[0])].select.side
            return chosen == side or (not chosen and not others_waiting)
        return not others_waiting

    problems = [p for p in validate_setup(scenario, rules.board, placed) if this_sides(p)]
    if problems:
        p = problems[0]
        rule, _, message = p.message.partition(": ")
        raise IllegalAction(rule if message else "", message or p.message)
