"""Movement (Demyansk 5, 5.1, 5.2, 5.3, 7.1, 7.2, 8.1, 8.3): legal destinations, their costs, why a neighbour is blocked."""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ...errors import IllegalAction
from engine.maps.hexes import Hex
from .state import State
from .units import GERMAN, SOVIET, enemy_of
from .zoc import _cache, enemy_zoc_for, side_hexes


def half(value: int) -> int:
    """Errata: halved values round up."""
    return (value + 1) // 2


@dataclass
class Reach:
    """Where a unit may end its move this phase, at what cost, and why each blocked neighbour is blocked.

    ``destinations`` is in hex order (``sorted`` order of the hexes).
    """

    unit: str
    start: Hex
    allowance: int
    destinations: dict[Hex, int] = field(default_factory=dict)
    blocked: dict[Hex, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    held_by_friends: dict[Hex, int] = field(default_factory=dict)   # reachable, but a friendly unit is there now


def movement_allowance(rules, st: State, uid: str) -> tuple[int, list[str]]:
    """The unit's MA this phase with the rules that changed it."""
    spec = rules.specs[uid]
    u = st.units[uid]
    ma = spec.movement
    notes = []
    if spec.side == GERMAN and rules.is_pocket_unit(st, uid) and not st.pocket_supplied:
        ma = half(ma)
        notes.append("Demyansk 7.2: out of supply in the pocket, MA halved (rounded up)")
    if spec.side == SOVIET and u.out_of_command and not rules.exempt_from_command(st, uid):
        ma -= 1
        notes.append("Demyansk 8.1: began the phase outside every HQ's command radius, MA -1")
    if u.entry_mp:
        ma -= u.entry_mp
        notes.append(f"Demyansk 9.1 (errata): {u.entry_mp} MP spent entering the map")
    return max(ma, 0), notes


def phase_name(phase: str) -> str:
    """A phase in words, like "German mechanized movement" for ``german-mechanized-movement``."""
    words = phase.replace("-", " ").replace(" hq ", " headquarters ")
    return words[:1].upper() + words[1:]


def movement_phases(rules, uid: str) -> list[str]:
    """The movement phases of the sequence of play (3) in which a unit may move, with their rule numbers."""
    spec = rules.specs[uid]
    if spec.side == GERMAN:
        own = ["the German movement phase (3.4)"]
        if rules.tables.type_flag(spec.type, "mechanized_phase"):
            own.insert(0, "the German mechanized movement phase (3.2, 8.4)")
        return own
    if rules.tables.type_flag(spec.type, "hq"):
        return ["the Soviet headquarters movement phase (3.6)"]
    return ["the Soviet movement phase (3.8)"]


def may_move_now(rules, st: State, uid: str) -> str | None:
    """Why this unit may not move in the current phase, naming the phases in which it may, or None (3, 8.4)."""
    spec = rules.specs[uid]
    u = st.units[uid]
    phase = st.phase
    when = " and ".join(movement_phases(rules, uid))
    now = f"this is the {phase_name(phase)} phase"
    if u.status != "map":
        return f"Demyansk 3: {uid} is not on the map ({u.status})"
    side_of_phase = GERMAN if phase.startswith("german") else SOVIET
    if not phase.endswith("movement"):
        return f"Demyansk 3: {uid} moves only in {when}; {now}"
    if spec.side != side_of_phase:
        return f"Demyansk 3: {now}, in which only {side_of_phase.capitalize()} units move; {uid} moves in {when}"
    if phase == "german-mechanized-movement" and not rules.tables.type_flag(spec.type, "mechanized_phase"):
        return (f"Demyansk 8.4: only the mechanized and assault gun units move in the German mechanized movement "
                f"phase; {uid} moves in {when}")
    is_hq = rules.tables.type_flag(spec.type, "hq")
    if phase == "soviet-hq-movement" and not is_hq:
        return f"Demyansk 3: only headquarters move in the Soviet headquarters movement phase; {uid} moves in {when}"
    if phase == "soviet-movement" and is_hq:
        return f"Demyansk 3: headquarters move only in the Soviet headquarters movement phase; {now}"
    if u.moved:
        return f"Demyansk 5: {uid} has already moved this phase (each unit moves once a phase)"
    if u.landed_on:
        return "Demyansk 8.2: a parachute brigade on a German unit stays to fight it"
    return None


def reach(rules, st: State, uid: str) -> Reach:
    """Legal destinations of one unit (cheapest cost each) and the reason each blocked neighbour is blocked.

    Worked out once per state and unit (the state's cache is dropped whenever a unit moves).
    """
    u = st.units[uid]
    key = (u.hex, u.moved, u.out_of_command, u.entry_mp, st.phase, st.turn, st.pocket_supplied, len(st.forts_lost))
    c = _cache(st)
    got = c.get(("reach", uid))
    if got is None or got[0] != key:
        got = c[("reach", uid)] = (key, _reach(rules, st, uid))
    return got[1]


def _reach(rules, st: State, uid: str) -> Reach:
    spec = rules.specs[uid]
    u = st.units[uid]
    start = u.hex
    ma, notes = movement_allowance(rules, st, uid)
    r = Reach(uid, start, ma, notes=notes)
    m = rules.map
    enemy = side_hexes(rules, st, enemy_of(spec.side))
    friends = side_hexes(rules, st, spec.side)
    ezoc = enemy_zoc_for(rules, st, uid)
    light = rules.tables.type_flag(spec.type, "woods_mp")
    in_zoc = start in ezoc
    if spec.side == SOVIET and in_zoc:
        for n in m.neighbors[start]:
            r.blocked[n] = "Demyansk 5.2: a Soviet unit may never leave a German zone of control"
        return r
    withdrawing = spec.side == GERMAN and in_zoc           # 7.1
    leave_cost = half(ma) if withdrawing else 0             # 7.1: half the allowance (rounded up)
    if withdrawing:
        r.notes.append("Demyansk 7.1: leaving a Soviet zone of control costs half the MA "
                       "and no other Soviet-controlled hex may be entered this phase")
    forbidden = rules.forbidden_destinations(st, uid)
    # The search depends only on the unit, its hex, its allowance and the enemy's hexes and zone of
    # control: friendly units are passed through (5.3) and filtered out below.  Within a movement
    # phase only the moving side moves, so the same search is asked for again and again: it is kept.
    key = (uid, start, ma, _frozen(st, enemy), _frozen(st, ezoc))
    memo = rules.__dict__.setdefault("_reach_memo", {})
    found = memo.get(key)
    if found is None:
        if len(memo) > 4096:
            memo.clear()
        dist, loop_blocked = _search(rules, start, ma, withdrawing, leave_cost, light, enemy, ezoc)
        found = memo[key] = ({h: dist[h] for h in sorted(dist)}, loop_blocked)   # destinations in hex order
    dist, loop_blocked = found
    r.blocked.update(loop_blocked)
    for h, c in dist.items():
        if h == start:
            continue
        if h in forbidden:
            continue
        if h in friends:
            r.held_by_friends[h] = c                  # 5.3: may pass through, not end in
            continue
        r.destinations[h] = c
    for n in m.neighbors[start]:
        if n in r.blocked or n in r.destinations:
            continue
        if n in friends:
            r.blocked[n] = "Demyansk 5.3: only one unit may be in a hex (it may be passed through)"
        elif n in forbidden:
            r.blocked[n] = forbidden[n]
    return r


def _frozen(st: State, hexes) -> frozenset:
    """A frozen copy of one of the state's cached hex sets, made once per state (a key of the search memo)."""
    c = _cache(st)
    key = ("frozen", id(hexes))
    got = c.get(key)
    if got is None or got[0] is not hexes:
        got = c[key] = (hexes, frozenset(hexes))
    return got[1]


def _search(rules, start: Hex, ma: int, withdrawing: bool, leave_cost: int, light: bool, enemy, ezoc):
    """The cheapest cost of every hex a unit can reach (5, 5.1, 5.2, 7.1, TEC), and why each blocked
    neighbour of its own hex is blocked."""
    m = rules.map
    blocked: dict[Hex, str] = {}
    dist: dict[Hex, int] = {start: 0}
    heap = [(0, start)]
    neighbors = m.neighbors
    river = m.river_pairs
    prohibited = m.prohibited
    mp_of = m.mp_light if light else m.mp
    outside = rules.outside_play
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > dist.get(h, 1 << 30):
            continue
        if h != start and h in ezoc:
            continue                                  # 5.2: stop on entering
        for n in neighbors[h]:
            if n in prohibited:
                if h == start:
                    blocked[n] = "prohibited terrain (lake)"
                continue
            if n in outside:
                if h == start:
                    blocked[n] = _cited(rules.play_area_rule, rules.outside_play_reason(n))
                continue
            if n in enemy:
                if h == start:
                    blocked[n] = "Demyansk 5.1: a unit may never enter a hex with an enemy unit"
                continue
            if withdrawing and n in ezoc:
                if h == start:
                    blocked[n] = ("Demyansk 7.1: a German unit that withdraws may not enter "
                                  "another Soviet zone of control in the same phase")
                continue
            step = mp_of[n]
            if (h, n) in river:
                step += 2                             # TEC: +2 MP to cross a river hexside
            if h == start:
                step += leave_cost
            new = cost + step
            if new > ma and h != start:
                continue
            # 5: a unit may always move at least one hex
            if new < dist.get(n, 1 << 30):
                dist[n] = new
                if new <= ma:
                    heapq.heappush(heap, (new, n))
    return dist, blocked


def check_move(rules, st: State, uid: str, to: Hex) -> int:
    """The cost of a legal move, or IllegalAction with the rule that forbids it."""
    if uid not in rules.specs:
        raise IllegalAction("", f"there is no unit {uid!r}")
    why = may_move_now(rules, st, uid)
    if why:
        rule, _, msg = why.partition(": ")
        raise IllegalAction(rule, msg) if msg else IllegalAction("", why)
    r = reach(rules, st, uid)
    if to in r.destinations:
        return r.destinations[to]
    forbidden = rules.forbidden_destinations(st, uid)
    if to in forbidden:
        rule, _, msg = forbidden[to].partition(": ")
        raise IllegalAction(rule, msg)
    if to in r.blocked:
        rule, _, msg = r.blocked[to].partition(": ")
        raise IllegalAction(rule if msg else "", msg or r.blocked[to])
    if to == r.start:
        raise IllegalAction("", f"{uid} is already in {rules.map.hex_id(to)}")
    if to in rules.outside_play:
        raise IllegalAction(rules.play_area_rule, rules.outside_play_reason(to))
    raise IllegalAction("Demyansk 5", f"{uid} cannot reach {rules.map.hex_id(to)} this phase: "
                        f"its movement allowance is {r.allowance} and a unit that enters an enemy "
                        "zone of control must stop (5.2)")


def check_path(rules, st: State, uid: str, path: list[Hex]) -> int:
    """The cost of moving along ``path`` (the unit's hex first, each hex next to the last), or IllegalAction.

    The same steps as ``reach`` (5, 5.1, 5.2, 5.3, 7.1, the TEC), taken along
    one path instead of the cheapest: the destination must also be legal by
    ``check_move``, and the path may not cost more than the allowance unless
    it is a single hex (5).
    """
    to = path[-1]
    check_move(rules, st, uid, to)                  # the destination itself, with its own refusals
    spec = rules.specs[uid]
    start = st.units[uid].hex
    m = rules.map
    hid = m.hex_id
    if path[0] != start:
        raise IllegalAction("", f"a path for {uid} begins in {hid(start)}, not {hid(path[0])}")
    ma, _ = movement_allowance(rules, st, uid)
    enemy = side_hexes(rules, st, enemy_of(spec.side))
    ezoc = enemy_zoc_for(rules, st, uid)
    forbidden = rules.forbidden_destinations(st, uid)
    withdrawing = spec.side == GERMAN and start in ezoc           # 7.1
    mp_of = m.mp_light if rules.tables.type_flag(spec.type, "woods_mp") else m.mp
    cost = 0
    for i, (h, n) in enumerate(zip(path, path[1:])):
        if n not in m.neighbors[h]:
            raise IllegalAction("Demyansk 5", f"a path goes from hex to adjacent hex: {hid(h)} and {hid(n)} "
                                "are not adjacent")
        if n == start or n in path[:i + 1]:
            raise IllegalAction("Demyansk 5", f"the path enters {hid(n)} twice")
        if i > 0 and h in ezoc:
            raise IllegalAction("Demyansk 5.2", f"a unit entering an enemy zone of control stops there: "
                                f"{uid} may not go on from {hid(h)}")
        if n in m.prohibited:
            raise IllegalAction("Demyansk 5", f"{hid(n)} is prohibited terrain (lake)")
        if n in rules.outside_play:
            raise IllegalAction(rules.play_area_rule, rules.outside_play_reason(n))
        if n in enemy:
            raise IllegalAction("Demyansk 5.1", f"a unit may never enter a hex with an enemy unit ({hid(n)})")
        if withdrawing and n in ezoc:
            raise IllegalAction("Demyansk 7.1", f"a German unit that withdraws may not enter another Soviet zone "
                                f"of control in the same phase ({hid(n)})")
        step = mp_of[n] + (2 if (h, n) in m.river_pairs else 0)   # TEC: +2 MP to cross a river hexside
        if i == 0 and withdrawing:
            step += half(ma)                                       # 7.1
        cost += step
        if cost > ma and i > 0:
            raise IllegalAction("Demyansk 5", f"the path costs {cost} MP by {hid(n)}, more than "
                                f"{uid}'s movement allowance of {ma}")
    if to in forbidden:
        rule, _, msg = forbidden[to].partition(": ")
        raise IllegalAction(rule, msg)
    return cost


def _cited(rule: str, message: str) -> str:
    """A reason in the ``rule: message`` form the blocked table uses."""
    return f"{rule}: {message}" if rule else message
