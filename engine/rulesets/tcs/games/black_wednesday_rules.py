"""Black Wednesday's own rules on the TCS engine (the series engine asks these hooks; each cites its rule).

- 1.1e The Hospital (B53.12): no vehicle enters it.
- 1.1f The Mill (A25.23): vehicles enter only along the road from A26.23; no direct fire (regular or
  overwatch) into or out of it except in assaults; indirect fire and spotting are not affected.
- 1.2d A railroad embankment hex holds at most 2 vehicles.
- 1.4a Units enter only Fully Breached wire hexes, except an infantry or cavalry unit breaching (1.4b):
  moving into the wire from the hex it began the phase in costs all its MA; once the move's overwatch is
  over (the next thing the side does, or the end of its phase), a unit still there in Move mode makes a
  Partial Breach and goes back where it came from, or turns a Partial Breach Full and stays (1.4b C/D).
  Breaches never close (1.4c); roads do not help (1.4d); artillery never breaches (1.4e).
- 2.3e FOs never take part in an assault.
"""
from __future__ import annotations

from fractions import Fraction

from ....errors import IllegalAction

BREACHERS = ("rifle", "infantry", "cavalry")          # BW 1.4b: only infantry and cavalry units breach


def _has(rules, h, feature: str) -> bool:
    return feature in rules.board.features_of(h)


def breach_state(st, rules, h) -> str:
    return st.marks.get("wire " + rules.hid(h), "")


def move_problem(rules, st, uid: str, to) -> tuple[str, str] | None:
    """(rule, reason) when BW forbids the move, else None."""
    spec, u = rules.specs[uid], st.units[uid]
    if spec.vehicle and _has(rules, to, "hospital"):
        return "BW 1.1e", f"no vehicle enters the Hospital ({rules.hid(to)})"
    if spec.vehicle and _has(rules, to, "mill") and not rules.board.has_link("road", u.hex, to):
        return "BW 1.1f", f"vehicles enter the Mill only along the road from A26.23, not from {rules.hid(u.hex)}"
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        if not any(w in spec.type for w in BREACHERS) or spec.vehicle:
            return "BW 1.4a", f"{rules.hid(to)} is wire: only Fully Breached wire hexes may be entered, and only " \
                              "infantry and cavalry breach (1.4b)"
        if u.moved or u.mp_used:
            return "BW 1.4b", f"{uid} must breach {rules.hid(to)} from the hex it began the phase in, with all its MA"
    if spec.vehicle and _has(rules, to, "rr embankment"):
        veh = [k for k, x in st.units.items() if x.hex == to and rules.specs[k].vehicle and k != uid]
        if len(veh) >= 2:
            return "BW 1.2d", f"{rules.hid(to)} is a railroad embankment hex and holds 2 vehicles at most"
    return None


def move_cost(rules, st, uid: str, to, cost: Fraction) -> Fraction:
    """A breaching move costs the unit's whole (remaining) MA (BW 1.4b B)."""
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        return max(cost, rules.ma(st, uid) - st.units[uid].mp_used)
    return cost


def after_move(rules, st, uid: str, frm, to) -> None:
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        st.marks["breaching " + uid] = rules.hid(frm)


def settle_breaches(rules, st, events) -> None:
    """BW 1.4b C/D: units that moved into wire and are still there in Move mode breach it."""
    from ....game import Event
    for key in sorted(k for k in st.marks if k.startswith("breaching ")):
        uid, frm = key[10:], st.marks.pop(key)
        u = st.units[uid]
        if u.hex is None or not _has(rules, u.hex, "wire") or u.mode != "move":
            continue
        wkey = "wire " + rules.hid(u.hex)
        if st.marks.get(wkey) == "partial":
            st.marks[wkey] = "full"
            events.append(Event("breach", f"{uid} fully breaches the wire at {rules.hid(u.hex)} (BW 1.4b D)"))
        else:
            st.marks[wkey] = "partial"
            events.append(Event("breach", f"{uid} partially breaches the wire at {rules.hid(u.hex)} and goes back "
                                          f"to {frm} (BW 1.4b C)"))
            u.hex = rules.board.parse_hex(frm)


def fire_problem(rules, st, firer_hex, target_hex) -> tuple[str, str] | None:
    """BW 1.1f: no direct fire into or out of the Mill (assault fire is not direct fire in this sense)."""
    if _has(rules, firer_hex, "mill") or _has(rules, target_hex, "mill"):
        return "BW 1.1f", "no direct fire into or out of the Mill (only assaults, mortars, artillery and sorties)"
    return None


def assault_problem(rules, st, uid: str) -> tuple[str, str] | None:
    if rules.specs[uid].fo:
        return "BW 2.3e", f"{uid} is an FO: FOs never attack in an assault"
    return None


def check(problem) -> None:
    if problem:
        raise IllegalAction(*problem)
