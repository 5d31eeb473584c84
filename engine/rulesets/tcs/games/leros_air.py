"""Leros' Air Movement Track and Parachute Assaults (Leros 3.6): flights planned and aborted, the track's
boxes, drop zones, drift, scatter, landing in the sea or on the enemy, the post-landing period;
procedures of the game's own rules (``leros_rules.py``), named through ``leros.py``."""
from __future__ import annotations

from ....errors import IllegalAction
from ....game import Event
from ....maps.hexes import Hex, hex_distance, hex_neighbor
from ..procs import DIRECTIONS
from ..proc import Step
from .leros_sea import _lose_step, _destroy, _place
from .leros_state import (GERMAN, BRITISH, AIR_OUT, AIR_BACK, AIR_OPPOSITE, PREP_BOXES, weather_effects, Plane,
                          is_all_sea, boxes_per_turn, side_of, enemy_units_at)


# ---------------------------------------------------------------- 3.6 parachute assaults

def check_plan(rules, st, plane_id: str, units: list[str], dz: str) -> Plane:
    """3.6c-d: a Ju-52 in Athens takes a flight of one or two units and its company's drop zone hex."""
    tr = st.leros
    p = tr.planes.get(plane_id)
    if p is None or p.box != "athens" or p.load:
        raise IllegalAction("Leros 3.6c", f"{plane_id} is not an empty Ju-52 in the Athens box")
    if not 1 <= len(units) <= 2:
        raise IllegalAction("Leros 3.6d", "a flight is one or two units")
    h = rules.hex(dz)
    for u in units:
        if u not in rules.specs or side_of(rules, u) != GERMAN or tr.boxed.get(u) != "athens":
            raise IllegalAction("Leros 3.6b", f"{u} is not a German unit in the Athens box")
        if u not in rules.leros.get("paratroops", ()):
            raise IllegalAction("Leros 3.6", f"{u} is not of I-FJ or the Para Co")
    for other in tr.planes.values():       # 3.6c: one drop zone per company
        for u in units:
            same = [v for v in other.load if company_of(v) == company_of(u)]
            if same and other.dz and other.dz != rules.hid(h) and other.box != "athens":
                raise IllegalAction("Leros 3.6c", f"company {company_of(u)} already drops at {other.dz}: no unit "
                                                  "smaller than a company has a drop zone of its own")
    return p


def company_of(uid: str) -> str:
    """A unit's company: its id without the last part ("4-I-FJ-MG1" is of 4-I-FJ, "Para-Co-2" of Para-Co), as
    the Leros scenario files name counters (engine/rulesets/tcs/games/leros_scenarios.py)."""
    return uid.rsplit("-", 1)[0] if "-" in uid else uid


def plan_flight(rules, st, plane_id: str, units: list[str], dz: str, events: list) -> None:
    p = check_plan(rules, st, plane_id, units, dz)
    p.load, p.dz = list(units), rules.hid(rules.hex(dz))
    for u in units:
        st.leros.boxed[u] = "plane"
    events.append(Event("air", f"{plane_id} loads {', '.join(units)} for drop zone {p.dz} (Leros 3.6c)"))


def check_abort_flight(st, plane_id: str) -> Plane:
    p = st.leros.planes.get(plane_id)
    if p is None or not p.load or p.box not in AIR_OUT or p.box == "air-execution" or p.returning:
        raise IllegalAction("Leros 3.6j", f"{plane_id} is not loaded on the outward track before the Execution box")
    return p


def abort_flight(st, plane_id: str, events: list, why: str = "called off") -> None:
    """3.6j: across to the return box facing its position (from a preparation box straight to Athens)."""
    p = check_abort_flight(st, plane_id)
    if p.box in PREP_BOXES:
        p.box = "athens"
        for u in p.load:
            st.leros.boxed[u] = "athens"
        p.load, p.dz = [], ""
        events.append(Event("air", f"{plane_id} is {why} in preparation and is back in Athens (Leros 3.6j)"))
        return
    p.box, p.returning, p.aborted = AIR_OPPOSITE[p.box], True, True
    events.append(Event("air", f"{plane_id} is {why}: it returns by {p.box} (Leros 3.6j)"))


def air_movement(rules, st, ctx) -> list[str]:
    """German Ju-52s at the start of the German Action Phase (3.6b): one box a turn, three at night; weather
    other than Normal aborts flights past the preparation boxes (1.4, 3.6j).  Returns the planes that reached
    the Execution box (they drop at the end of the phase, 3.6e)."""
    tr = st.leros
    arrived = []
    for pid in sorted(tr.planes):
        p = tr.planes[pid]
        if p.box == "athens" or (p.box == "air-execution"):
            continue
        if not p.load and not p.returning:
            continue
        for _ in range(boxes_per_turn(rules, st)):
            if p.returning:
                i = AIR_BACK.index(p.box)
                p.box = AIR_BACK[i + 1]
                if p.box == "athens":
                    for u in p.load:
                        tr.boxed[u] = "athens"
                    p.load, p.dz, p.returning, p.aborted = [], "", False, False
                    break
                continue
            p.box = AIR_OUT[AIR_OUT.index(p.box) + 1]
            if p.box == "air-execution":
                arrived.append(pid)
                break
            if p.box not in PREP_BOXES and not weather_effects(st.weather)["air_movement"]:
                abort_flight(st, pid, ctx.events, why=f"aborted by {st.weather} weather")
                break
        ctx.events.append(Event("air", f"{pid} is in the {p.box} box"))
    return arrived


def start_flight(rules, st, plane_id: str, events: list) -> None:
    """3.6b: a loaded Ju-52 leaves Athens into the first box (then it must go on every turn)."""
    p = st.leros.planes.get(plane_id)
    if p is None or p.box != "athens" or not p.load:
        raise IllegalAction("Leros 3.6b", f"{plane_id} is not a loaded Ju-52 in the Athens box")
    if not weather_effects(st.weather)["air_movement"]:
        raise IllegalAction("Leros 1.4", f"no air movement in {st.weather} weather")
    p.box = AIR_OUT[0]
    events.append(Event("air", f"{plane_id} takes off for {p.dz}: Air Movement Box A (Leros 3.6b)"))


def _step(h: Hex, direction: str, n: int) -> Hex:
    if n < 0:
        direction = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}[direction]
        n = -n
    for _ in range(n):
        h = hex_neighbor(h, DIRECTIONS[direction])
    return h


def parachute_assault(rules, st, ctx, planes: list[str]) -> None:
    """3.6e-i: for each drop zone, scatter its marker (a die for direction, a die halved for distance,
    kept on land); then each flight drifts (a die less 2 along the Direction of Drift) and lands in the
    neighbouring hex a die gives; in the sea or on a British unit it is destroyed; else it lands in Move mode
    and takes the Parachute Loss Table's steps by its range to the nearest British unit within 3."""
    tr = st.leros
    board = rules.board
    by_dz: dict[str, list[str]] = {}
    for pid in planes:
        by_dz.setdefault(tr.planes[pid].dz, []).append(pid)
    for dz in sorted(by_dz):
        h0 = rules.hex(dz)
        rd = ctx.roll_dice("1d6", f"scatter direction of drop zone {dz}")
        direction = ctx.cell("tcs.scatter_direction", (rd,), (Step(f"roll {rd}"),), f"drop zone {dz} scatter")
        n = ctx.roll(f"scatter distance of drop zone {dz} (halved)") // 2     # 3.6e 2): divide by 2, round down
        h = h0
        for _ in range(n):
            nxt = _step(h, direction, 1)
            if is_all_sea(board, nxt):
                break           # 3.6e 2): out to sea: the last land hex along the scatter
            h = nxt
        ctx.events.append(Event("drop", f"drop zone {dz} scatters {n} {direction} to {rules.hid(h)} (Leros 3.6e)",
                                {"what": "scatter", "turn": st.turn, "dz": dz, "to": rules.hid(h)}))
        for pid in by_dz[dz]:
            p = tr.planes[pid]
            d = ctx.roll(f"drift of {pid}") - 2                               # 3.6e A)
            drift_hex = _step(h, tr.drift, d)
            sd = ctx.roll_dice("1d6", f"landing direction of {pid}")
            way = ctx.cell("tcs.scatter_direction", (sd,), (Step(f"roll {sd}"),), f"landing of {pid}")
            spot = _step(drift_hex, way, 1)                                     # 3.6e B)
            path = {"what": "flight", "turn": st.turn, "plane": pid, "dz": dz, "marker": rules.hid(h),
                    "drift_qr": [drift_hex.q, drift_hex.r], "to_qr": [spot.q, spot.r]}   # may lie off the map (3.6h)
            load, p.load, p.box, p.dz = list(p.load), [], AIR_BACK[0], ""
            p.returning = True          # 3.6b: empty Ju-52s start home in the phase of the drop
            if is_all_sea(board, spot):
                for u in load:
                    _destroy(st, u)     # 3.6h: no battalion morale for these
                ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands in the sea and is "
                                                f"lost (Leros 3.6h)", {**path, "fate": "sea"}))
                continue
            british = [k for k in enemy_units_at(rules, st, spot, GERMAN) if k not in rules.leros.get("coastal_guns", ())]
            if british:
                for u in load:
                    _destroy(st, u)
                ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands on {', '.join(british)} "
                                                f"in {rules.hid(spot)} and is destroyed (Leros 3.6f)",
                                        {**path, "fate": "destroyed"}))
                continue
            rng = _nearest_british(rules, st, spot)
            for u in load:
                _place(rules, st, u, spot, "")
                st.units[u].mode = "move"
                tr.landed[u] = st.turn
                tr.free_until[u] = free_period_end(rules, st.turn)
                if rng is not None:                                              # 3.6e C)
                    k = int(ctx.cell("leros.parachute_loss", (str(rng) if rng < 5 else "5+",), (),
                                     f"losses of {u} landing {rng} hexes from the British"))
                    for _ in range(k):
                        if st.units[u].hex is not None:
                            _lose_step(rules, st, ctx, u)
            tr.overstack_check = st.turn + 1
            ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands in {rules.hid(spot)} "
                                            f"(Leros 3.6e)", {**path, "hex": rules.hid(spot), "fate": "landed"}))


def _nearest_british(rules, st, h: Hex) -> int | None:
    """Range to the nearest British unit of any type within 3 hexes (3.6e C: farther ones do not matter)."""
    best = None
    guns = rules.leros.get("coastal_guns", ())
    for k, u in st.units.items():
        if u.hex is None or side_of(rules, k) != BRITISH or k in guns:
            continue
        d = hex_distance(u.hex, h)
        if d <= 3 and (best is None or d < best):
            best = d
    return best


def is_infantry(rules, uid: str) -> bool:
    """Leros 3.6i's infantry: the rifle and parachute platoons (the machine guns, mortars and guns are other
    types), by the counter types the scenario files use (engine/rulesets/tcs/games/leros_scenarios.py)."""
    return rules.specs[uid].type.endswith(("rifle platoon", "parachute platoon"))


def still_landing(st, uid: str) -> bool:
    """3.6i: a unit dropped in the German Action Phase that has just ended, until the next German Action Phase
    begins (then it functions normally)."""
    return uid in st.leros.landed


def free_period_end(rules, turn: int) -> int:
    """3.6i: units dropped by day act without Op Sheets until the first night turn; dropped at night, until
    the first day turn.  The turn index from which they need an Op Sheet."""
    kind = rules.turns[turn].kind
    night = kind == "night"
    for i in range(turn + 1, len(rules.turns)):
        if (rules.turns[i].kind == "night") != night:
            return i
    return len(rules.turns)
