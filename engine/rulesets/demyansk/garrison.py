"""Garrison duty (Demyansk 6.2): at the end of the German movement phase every fortification hex is held,
as far as the German units can hold them.

"As far as they can" is a number: the most fortification hexes that the German
units could occupy at the end of the phase, each unit in one hex, where a unit
that may still move counts for every fortification it can reach (or stands in)
and a unit that has moved counts only for the one it stands in.  That number
is a maximum matching of units to fortifications, worked out afresh for each
position.

The refusal (a choice, docs/rules-coverage.md): a move that would lower that
number is refused, naming the fortifications the unit is needed for, so the
phase can always be ended once the units stand in them; ending the phase is
refused while fewer fortifications are held than could be, naming each empty
one and the units that could still reach it.  A unit that has moved counts
where it stands, so a garrison cannot walk out and leave its fortification
empty while no other unit can take its place.
"""
from __future__ import annotations

from engine.maps.hexes import Hex, hex_distance
from ...errors import IllegalAction
from .movement import may_move_now, reach
from .state import ON_MAP, State
from .units import GERMAN
from .zoc import _cache


def duty_now(rules, st: State) -> bool:
    """The duty is checked in the German movement phase, until the scenario ends it (9.3 special rule 3)."""
    if st.phase != "german-movement":
        return False
    return rules.garrison_until is None or st.turn <= rules.garrison_until


def forts_to_hold(rules, st: State) -> list[Hex]:
    """Fortification hexes still to be garrisoned: those no Soviet unit has entered (6.2), in hex order."""
    lost = set(st.forts_lost)
    return [f for f in sorted(rules.map.forts) if f not in lost]


def options(rules, st: State) -> dict[str, tuple[Hex, ...]]:
    """Each German unit on the map -> the fortification hexes it could stand in at the end of the phase
    (in hex order)."""
    c = _cache(st)
    got = c.get("garrison")
    if got is not None:
        return got
    forts = forts_to_hold(rules, st)
    fort_set = set(forts)
    fixed: dict[str, Hex] = {}
    free: list[str] = []
    for uid in rules.order:
        u = st.units[uid]
        if rules.specs[uid].side != GERMAN or u.status != ON_MAP:
            continue
        if may_move_now(rules, st, uid) is None:
            free.append(uid)
        else:
            fixed[uid] = u.hex                                    # moved already (or may not move): stays
    taken = {h for h in fixed.values() if h in fort_set}          # held by a unit that will not move again
    out: dict[str, tuple[Hex, ...]] = {uid: ((h,) if h in fort_set else ()) for uid, h in fixed.items()}
    for uid in free:
        here = st.units[uid].hex
        near = [f for f in forts if f not in taken and hex_distance(here, f) <= max(rules.specs[uid].movement, 1)]
        if not near:
            out[uid] = (here,) if here in fort_set else ()
            continue
        r = reach(rules, st, uid)
        out[uid] = tuple(f for f in near if f == here or f in r.destinations or f in r.held_by_friends)
    c["garrison"] = out
    return out


def matching(opts: dict[str, tuple[Hex, ...]], skip: str | None = None) -> dict[Hex, str]:
    """A largest assignment of units to fortifications (fort -> unit), by augmenting paths, in a fixed order;
    ``skip`` leaves one unit out."""
    owner: dict[Hex, str] = {}

    def place(uid: str, seen: set) -> bool:
        for f in opts[uid]:
            if f in seen:
                continue
            seen.add(f)
            if f not in owner or place(owner[f], seen):
                owner[f] = uid
                return True
        return False

    for uid in sorted(u for u, fs in opts.items() if fs and u != skip):
        place(uid, set())
    return owner


def holdable(rules, st: State) -> dict[Hex, str]:
    """A largest garrison the German units can still put in place this phase (fort -> unit)."""
    c = _cache(st)
    got = c.get("garrison_holdable")
    if got is None:
        got = c["garrison_holdable"] = matching(options(rules, st))
    return got


def ends_allowed(rules, st: State, uid: str) -> tuple[Hex, ...] | None:
    """The fortification hexes a unit needed for the garrison may still end in, or None when it may go anywhere."""
    if not duty_now(rules, st) or rules.specs[uid].side != GERMAN:
        return None
    c = _cache(st)
    key = ("garrison_needed", uid)
    if key in c:
        return c[key]
    opts = options(rules, st)
    mine = opts.get(uid, ())
    out = None
    if mine and uid in holdable(rules, st).values():          # a unit left out of a largest garrison is not needed
        best = len(holdable(rules, st))
        if len(matching(opts, skip=uid)) < best:            # needed: no move may leave one fewer holdable
            others = {u: fs for u, fs in opts.items() if u != uid}
            out = tuple(f for f in mine
                        if 1 + len(matching({u: tuple(x for x in fs if x != f) for u, fs in others.items()})) == best)
    c[key] = out
    return out


def check_move(rules, st: State, uid: str, to: Hex) -> None:
    """Refuse a move that leaves fewer fortification hexes holdable at the end of the phase (6.2)."""
    ok = ends_allowed(rules, st, uid)
    if ok is None or to in ok:
        return
    best = len(holdable(rules, st))
    hid = rules.map.hex_id
    forts = ", ".join(hid(f) for f in options(rules, st)[uid])
    raise IllegalAction("Demyansk 6.2", f"{uid} is needed to garrison the fortifications: after this move only "
                        f"{best - 1} of the {best} fortification hexes the German units can hold this phase could be "
                        f"held at its end ({uid} can hold {forts})")


def allowed_ends(rules, st: State, uid: str, ends) -> list:
    """The hexes of ``ends`` that ``check_move`` allows (the legal-action list filters with it)."""
    ok = ends_allowed(rules, st, uid)
    return list(ends) if ok is None else [h for h in ends if h in ok]


def shortfall(rules, st: State) -> str | None:
    """Why the German movement phase may not end yet (6.2), or None."""
    if not duty_now(rules, st):
        return None
    best = holdable(rules, st)
    german = {st.units[u].hex for u in rules.order
              if rules.specs[u].side == GERMAN and st.units[u].status == ON_MAP}
    held = [f for f in forts_to_hold(rules, st) if f in german]
    if len(held) >= len(best):
        return None
    opts = options(rules, st)
    hid = rules.map.hex_id
    parts = []
    for f in forts_to_hold(rules, st):
        if f in german:
            continue
        could = [u for u in rules.order if f in opts.get(u, ())]
        if could:
            parts.append(f"{hid(f)} is empty and {', '.join(could)} could still hold it")
    return (f"every fortification hex must be held at the end of the German movement phase, as far as the German "
            f"units can: {len(held)} held where {len(best)} can be; " + "; ".join(parts))
