"""Leros' Sea Movement (Leros 1.2): embarkation, the Sea Movement Tracks, Italian Coastal Gunfire (a chart
prompt), aborts and returns, landing at a Landing Zone with the German guns' ammunition (3.2b);
procedures of the game's own rules (``leros_rules.py``), named through ``leros.py``."""
from __future__ import annotations

from ....errors import IllegalAction
from ....game import Event
from ....maps.hexes import Hex
from ..proc import Step
from .leros_state import (GERMAN, HOLDING, SEA_BOXES, Boat, lz_hexes, piers_of, battery_hexes, boxes_per_turn,
                          side_of, enemy_units_at, own_units_at, is_platoon, is_heavy)


# ---------------------------------------------------------------- 1.2 sea movement

def check_embark(rules, st, boat_id: str, units: list[str], lz: int, side: str, ctx=None) -> Boat:
    """Embarkation and trip start (1.2e): a boat in its Holding Box takes a load from that box and a Landing Zone."""
    tr = st.leros
    b = tr.boats.get(boat_id)
    if b is None or b.side != side:
        raise IllegalAction("Leros 1.2e", f"{side} has no boat {boat_id!r}")
    if b.box != HOLDING[side] or b.load:
        raise IllegalAction("Leros 1.2e", f"{boat_id} is not empty in the {HOLDING[side]} Holding Box")
    lz_hexes(rules.board, lz)
    if not units:
        raise IllegalAction("Leros 1.2e", "a trip begins with a load")
    for u in units:
        if u not in rules.specs or side_of(rules, u) != side or tr.boxed.get(u) != HOLDING[side]:
            raise IllegalAction("Leros 1.2e", f"{u} is not a unit of {side} in the {HOLDING[side]} box")
    if len(set(units)) != len(units):
        raise IllegalAction("Leros 1.2b", "a unit is one loading point, loaded once")
    if ctx is not None:
        cap = int(ctx.cell("leros.boat_loading", (b.type,), (), f"loading points of {boat_id}"))
        if len(units) > cap:   # 1.2b: one counter is one loading point; never overloaded
            raise IllegalAction("Leros 1.2b", f"{boat_id} carries {cap} loading points, not {len(units)}")
        heavy = [u for u in units if is_heavy(rules, u)]
        if heavy and ctx.cell("leros.boat_heavy", (b.type,), (), f"heavy loads on {boat_id}") != "yes":
            raise IllegalAction("Leros 1.2c", f"{boat_id} has no heavy loading symbol for {', '.join(heavy)}")
    return b


def embark(rules, st, ctx, boat: str, units: list[str], lz: int, side: str, sheet: str = "") -> None:
    """1.2e: load, note the Landing Zone, and move at once into the first box of the track."""
    b = check_embark(rules, st, boat, units, lz, side, ctx)
    for u in units:
        st.leros.boxed[u] = "boat"
    b.load, b.lz, b.sheet, b.box = list(units), lz, sheet, "A"
    ctx.events.append(Event("sea", f"{boat} embarks {', '.join(units)} for Landing Zone {lz} (Leros 1.2e) "
                                   f"and enters Sea Movement Box A"))


def _box_of_lz(ctx, side: str, lz: int) -> str:
    return str(ctx.cell("leros.sea_box", (side, lz), (), f"the Sea Movement box facing Landing Zone {lz}"))


def sea_movement(rules, st, ctx, side: str) -> None:
    """One side's boats at the start of its Action Phase (1.2d, 1.2f, 1.2h, 1.4d): boats in the Approach
    box start home; boats that waited at their Landing Zone's box land; the others advance."""
    tr = st.leros
    storm = st.weather == "Storm"
    for bid in sorted(tr.boats):
        b = tr.boats[bid]
        if b.side != side or b.box == HOLDING[side]:
            continue                       # 1.2d: only boats in the Holding Box may stay
        if b.box == "approach" and b.load and not b.returning:
            _land(rules, st, ctx, b)       # a boat held with heavy loads by a storm or a pier (1.2c)
            continue
        if b.box == "approach":
            b.box, b.returning = "D", True   # 1.2h: back along the track the turn after
            ctx.events.append(Event("sea", f"{bid} leaves the Approach box for home (Leros 1.2h)"))
            continue
        if b.waited and not b.returning:
            b.waited = False
            b.box = "approach"
            ctx.events.append(Event("sea", f"{bid} enters the Approach box of Landing Zone {b.lz} (Leros 1.2f)"))
            _gunfire(rules, st, ctx, b)
            if bid in tr.boats and b.load and not b.returning:
                _land(rules, st, ctx, b)
            continue
        if not b.load and not b.returning:  # 1.2h: an empty boat on the track (one set up empty) sails home
            b.returning, b.lz = True, 0
            ctx.events.append(Event("sea", f"{bid} is empty and sails home (Leros 1.2h)"))
        if storm:                          # 1.4d: a boat advances only on 5 or 6
            r = ctx.roll(f"storm: does {bid} advance (5-6)?")
            if r < 5:
                ctx.events.append(Event("sea", f"{bid} is held by the storm (rolled {r}, Leros 1.4d)"))
                continue
        for _ in range(boxes_per_turn(rules, st)):
            if b.returning:
                i = SEA_BOXES.index(b.box)
                if i == 0:
                    b.box, b.returning, b.lz, b.sheet = HOLDING[side], False, 0, ""
                    for u in b.load:
                        tr.boxed[u] = HOLDING[side]
                    b.load = []
                    ctx.events.append(Event("sea", f"{bid} is back in the {HOLDING[side]} box (Leros 1.2h)"))
                    break
                b.box = SEA_BOXES[i - 1]
                continue
            target = _box_of_lz(ctx, side, b.lz)
            if b.box == target:
                b.waited = True
                break
            i = SEA_BOXES.index(b.box)
            if i + 1 >= len(SEA_BOXES):
                b.waited = True
                break
            b.box = SEA_BOXES[i + 1]
            if b.box == target:
                b.waited = True
                break
        ctx.events.append(Event("sea", f"{bid} is in Sea Movement Box {b.box}" if b.box in SEA_BOXES else
                                f"{bid} is in the {b.box} box"))


def _gunfire(rules, st, ctx, b: Boat) -> None:
    """Italian Coastal Gunfire on a German boat arriving at its Landing Zone (1.2g)."""
    if b.side != GERMAN:
        return
    total, steps = 0, []
    for letter in sorted(battery_hexes(rules.board)):
        if letter in st.leros.batteries_lost:
            continue
        v = int(ctx.cell("leros.battery_summary", (b.lz, letter), (),
                         f"Battery Summary: fire value of battery {letter} on Landing Zone {b.lz}"))
        if v:
            total += v
            steps.append(Step(f"battery {letter} {v}", rule="Leros 1.2g"))
    if total <= 0:     # 1.2g: a roll only when the total is greater than zero
        ctx.events.append(Event("gunfire", f"no coastal battery fires on Landing Zone {b.lz} (Leros 1.2g)"))
        return
    roll = ctx.roll_dice("2d6", f"coastal gunfire on {b.id}")
    res = ctx.cell("leros.coastal_gunfire", (total, roll), tuple(steps) + (Step(f"roll {roll}"),),
                   f"coastal gunfire on {b.id} at Landing Zone {b.lz}")
    if res == "sunk":
        for u in b.load:
            _destroy(st, u)
        ctx.events.append(Event("gunfire", f"{b.id} is sunk with {', '.join(b.load)} (Leros 1.2g)"))
        del st.leros.boats[b.id]
        return
    if res == "abort":
        _abort(rules, st, ctx, b, losses=True)
        return
    ctx.events.append(Event("gunfire", f"coastal gunfire on {b.id}: {res}, the landing proceeds (Leros 1.2g)"))


def _abort(rules, st, ctx, b: Boat, losses: bool) -> None:
    """An abort (1.2g): each platoon aboard loses a step; the load stays aboard and the boat goes home (1.2h).
    A pier held by the enemy aborts a heavy load without losses (1.2c)."""
    hurt = []
    if losses:
        for u in b.load:
            if is_platoon(rules, u):
                _lose_step(rules, st, ctx, u)
                hurt.append(u)
    b.returning = True
    ctx.events.append(Event("sea", f"{b.id} aborts" + (f": {', '.join(hurt)} lose a step each" if hurt else "")
                            + " and returns to the " + HOLDING[b.side] + " box (Leros 1.2g, 1.2h)"))


def _lose_step(rules, st, ctx, uid: str) -> None:
    u = st.units[uid]
    u.steps_lost += 1
    steps = ctx.cell("tcs.counter.steps", (rules.specs[uid].type,), (), f"steps of {uid}")
    if u.steps_lost >= int(steps):
        _destroy(st, uid)


def _destroy(st, uid: str) -> None:
    st.units[uid].hex = None
    st.leros.boxed[uid] = "dead"


def _land(rules, st, ctx, b: Boat) -> None:
    """Place the load in coastal hexes of its Landing Zone in Move mode with its Op Sheet implemented (1.2f);
    heavy loads only in a friendly-occupied pier hex and never in a storm (1.2c)."""
    side = b.side
    coast = [h for h in lz_hexes(rules.board, b.lz)
             if "coast" in rules.board.features_of(h) and not enemy_units_at(rules, st, h, side)]
    piers = piers_of(rules.board, b.lz)
    friendly_piers = [h for h in piers if own_units_at(rules, st, h, side) and not enemy_units_at(rules, st, h, side)]
    heavy = [u for u in b.load if is_heavy(rules, u)]
    if heavy and piers and all(enemy_units_at(rules, st, h, side) for h in piers):
        _abort(rules, st, ctx, b, losses=False)       # 1.2c: the pier is the enemy's
        return
    light = [u for u in b.load if not is_heavy(rules, u)]
    for u in light:
        if not coast:
            raise IllegalAction("Leros 1.2f", f"Landing Zone {b.lz} has no free coastal hex")
        h = _pick_hex(rules, ctx, side, coast, f"where {u} lands in Landing Zone {b.lz}")
        _place(rules, st, u, h, b.sheet)
        ctx.events.append(Event("land", f"{u} lands in {rules.hid(h)} in Move mode (Leros 1.2f)",
                                {"unit": u, "what": "landing", "turn": st.turn, "lz": b.lz, "boat": b.id,
                                 "hex": rules.hid(h)}))
    kept = []
    for u in heavy:
        if st.weather == "Storm" or not friendly_piers:
            kept.append(u)     # 1.2c: no unloading in a storm or without a friendly pier: stays aboard
            continue
        h = _pick_hex(rules, ctx, side, friendly_piers, f"which pier {u} unloads at")
        _place(rules, st, u, h, b.sheet)
        st.units[u].moved = True     # 1.2c: cannot move in the turn it unloads
        st.units[u].mp_used = rules.ma(st, u) if rules.ma(st, u) else st.units[u].mp_used
        _add_gun_ammo(rules, st, ctx, u)
        ctx.events.append(Event("land", f"{u} unloads at the pier {rules.hid(h)} (Leros 1.2c)",
                                {"unit": u, "what": "landing", "turn": st.turn, "lz": b.lz, "boat": b.id,
                                 "hex": rules.hid(h)}))
    b.load = kept
    if kept:
        ctx.events.append(Event("sea", f"{b.id} keeps {', '.join(kept)} aboard: heavy loads unload only at a "
                                       f"friendly pier and not in a storm (Leros 1.2c)"))


def _pick_hex(rules, ctx, side: str, hexes: list[Hex], text: str) -> Hex:
    names = [rules.hid(h) for h in hexes]
    return rules.hex(ctx.choose("landing", side, names, text))


def _place(rules, st, uid: str, h: Hex, sheet: str) -> None:
    u = st.units[uid]
    u.hex, u.mode = h, "move"
    st.leros.boxed.pop(uid, None)
    if sheet and sheet in st.sheets:
        s = st.sheets[sheet]
        s.implemented = True       # 1.2f: implemented before the landing, no weighted turns needed
        if uid not in s.units:
            s.units.append(uid)
        u.sheet = sheet
    _occupy_battery(rules, st, uid, h)


def _occupy_battery(rules, st, uid: str, h: Hex) -> None:
    """1.2g: a battery whose hex the Germans occupy is destroyed for good."""
    if side_of(rules, uid) != GERMAN:
        return
    for letter, bh in battery_hexes(rules.board).items():
        if bh == h and letter not in st.leros.batteries_lost:
            st.leros.batteries_lost.append(letter)


def _add_gun_ammo(rules, st, ctx, uid: str) -> None:
    """3.2b: each German gun landing on Leros adds 8 HE, 2 Smoke and 1 Illum to the pool."""
    cal = rules.leros.get("guns", {}).get(uid)
    if not cal:
        return
    for kind, n in (("he", 8), ("smoke", 2), ("illum", 1)):
        key = f"{GERMAN}|{cal}|{kind}"
        st.ammo[key] = st.ammo.get(key, 0) + n
    ctx.events.append(Event("ammo", f"{uid} lands: +8 HE, +2 Smoke, +1 Illum {cal} (Leros 3.2b)"))
