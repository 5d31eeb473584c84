"""Leros (TCS #8): the game's own rules on the series engine.

What is here, each with its rule number:

- the Sea Movement system (Leros 1.2): boats, loading points and heavy loads,
  the Sea Movement Tracks, embarkation, landing zone arrival, Italian Coastal
  Gunfire (a chart prompt), aborts, returns, and storms (1.4d);
- the Air Movement Track and Parachute Assaults (Leros 3.6): drop zones,
  flights, drift, scatter, landing in the sea or on the enemy, losses, the
  post-landing period, aborts and returns;
- surrender demands (Leros 1.3), weather effects (1.4), naval gunfire plots with
  the solitaire method (2.5), Army Group E reserve requests (3.5), the German
  ammunition that lands with each gun (3.2b), and victory (5.2).

The printed Sea and Air Movement Tracks are on the game's charts, which our text
lacks: the stand-in map has four boxes (A-D) per track, an Approach box, the
Parachute Assault Execution box and three Athens Return Leg boxes.  Which box of
the Sea Movement Track faces which Landing Zone is the chart slot
``leros.sea_box`` (the scenarios fill the cells they fix); the Battery Summary
(fire value of each battery on each Landing Zone) is ``leros.battery_summary``;
boat loading points and the heavy-load symbol are counter values
(``leros.boat_loading``, ``leros.boat_heavy``).

Procedures take ``(rules, st, ctx, ...)`` like the series' (engine/rulesets/tcs/procs.py):
every die comes from ``ctx.roll`` and every printed value from ``ctx.cell``, so a
blank cell stops the procedure with a chart prompt and the procedure runs again
from its start when it is answered.
"""
from __future__ import annotations

from ....errors import IllegalAction
from ....game import Event
from ..proc import Step
from .leros_air import (  # noqa: F401 (the game's rules ask them of this module)
    check_plan, company_of, plan_flight, check_abort_flight, abort_flight, air_movement, start_flight, _step,
    parachute_assault, _nearest_british, is_infantry, still_landing, free_period_end)
from .leros_sea import (  # noqa: F401 (the game's rules ask them of this module)
    check_embark, embark, _box_of_lz, sea_movement, _gunfire, _abort, _lose_step, _destroy, _land, _pick_hex,
    _place, _occupy_battery, _add_gun_ammo)
from .leros_state import (  # noqa: F401 (the game's rules ask them of this module)
    GERMAN, BRITISH, WEATHER, HOLDING, SEA_BOXES, AIR_OUT, AIR_BACK, AIR_OPPOSITE, PREP_BOXES, SURRENDER_FROM,
    weather_effects, Boat, Plane, Tracks, is_all_sea, lz_hexes, piers_of, battery_hexes, night_turn, boxes_per_turn,
    side_of, enemy_units_at, own_units_at, is_platoon, is_heavy)


# ---------------------------------------------------------------- 1.3 surrender

def surrender_allowed(rules, st, side: str) -> str:
    """Why a surrender demand is refused now ("" when allowed): campaign games only, from 0100 Nov 13, two each."""
    if not rules.leros.get("campaign"):
        return "surrender applies only to campaign games (Leros 1.3)"
    t = rules.turns[st.turn]
    if (t.when.month, t.when.day, t.when.hour) < (11, 13, 1):
        return "surrender may be demanded from 0100 Nov 13 (Leros 1.3)"
    if st.leros.demands[side] >= 2:
        return f"{side} has made its two demands (Leros 1.3)"
    if st.leros.surrendered:
        return f"{st.leros.surrendered} has surrendered"
    return ""


def counters_on_leros(rules, st, side: str) -> int:
    guns = rules.leros.get("coastal_guns", ())
    return sum(1 for k, u in st.units.items() if u.hex is not None and side_of(rules, k) == side and k not in guns)


def surrender_check(rules, st, ctx, demanding: str) -> bool:
    """One demand (1.3): the other side rolls a die, +1 per 10 counters it has on Leros (rounded normally);
    below 6 it surrenders."""
    other = BRITISH if demanding == GERMAN else GERMAN
    n = counters_on_leros(rules, st, other)
    mod = (n + 5) // 10                        # round normally: 29 -> +3, 25 -> +3, 24 -> +2
    st.leros.demands[demanding] += 1
    r = ctx.roll(f"{other} surrender check")
    total = r + mod
    gives = total < 6
    ctx.events.append(Event("surrender", f"{demanding} demands surrender: {other} rolls {r} +{mod} ({n} counters) "
                                         f"= {total}: " + ("it surrenders" if gives else "the fight goes on")
                                         + " (Leros 1.3)"))
    return gives


def surrender_tie(ctx) -> str:
    """1.3: both sides surrender on the same turn: 1-3 the British do, 4-6 the Germans."""
    r = ctx.roll("who surrenders first")
    return BRITISH if r <= 3 else GERMAN


# ---------------------------------------------------------------- 2.5 naval gunfire, 3.5 reserves

def naval_solitaire_pick(ctx, candidates: list[str]) -> list[str]:
    """2.5 solitaire play: five hexes noted at 1200, two drawn at random at 2400 (a die per draw, re-rolled
    when it names a hex already drawn or a sixth slip)."""
    if len(candidates) != 5 or len(set(candidates)) != 5:
        raise IllegalAction("Leros 2.5", "the solitaire plot notes five different hexes")
    picked: list[str] = []
    while len(picked) < 2:
        r = ctx.roll("draw a naval gunfire slip (1-5; 6 re-rolls)")
        if r <= 5 and candidates[r - 1] not in picked:
            picked.append(candidates[r - 1])
    return picked


def naval_cancelled(ctx) -> bool:
    """2.5: at 2400 a die: 1 or 2 cancels the bombardment."""
    return ctx.roll("naval gunfire cancellation (1-2 cancels)") <= 2


def naval_plot_refused(rules, st, side: str, hexes: list[str]) -> str:
    """Why a naval gunfire plot is refused now ("" when allowed): 2.5, the British on a 1200 turn, two hexes
    (or five for the solitaire method), on the map, once."""
    if side != BRITISH:
        return "only the British plot the Royal Navy's bombardment (Leros 2.5)"
    if rules.turns[st.turn].hhmm != "1200":
        return "the Royal Navy's hexes are noted on a 1200 turn (Leros 2.5)"
    if st.leros.naval_plot:
        return f"the bombardment is already noted: {', '.join(st.leros.naval_plot)} (Leros 2.5)"
    if len(hexes) not in (2, 5) or len(set(hexes)) != len(hexes):
        return "note two different hexes, or five for the solitaire method (two drawn at 2400) (Leros 2.5)"
    for h in hexes:
        try:
            rules.board.parse_hex(h)
        except Exception:  # noqa: BLE001 - a hex off the map, named in the message
            return f"{h} is not a hex of the map (Leros 2.5)"
    return ""


def naval_fire(rules, st, ctx) -> None:
    """2.5: the 2400 turn after a 1200 plot: the solitaire draw of two of five, a die (1-2 cancels), then each hex
    attacked as a 100 mm battalion mission adjusted on the 4-6 hex row with no spotter, HE only."""
    from ..procs import barrage_attack, scatter, zone_of
    from ..scenario import BatterySpec
    from ..state import Barrage

    tr = st.leros
    plot = list(tr.naval_plot)
    targets = naval_solitaire_pick(ctx, plot) if len(plot) == 5 else plot      # 2.5 solitaire play note
    if len(plot) == 5:
        ctx.events.append(Event("naval", f"the slips drawn: {', '.join(targets)} (Leros 2.5 solitaire play)"))
    if naval_cancelled(ctx):
        tr.naval_plot = []
        ctx.events.append(Event("naval", "the Royal Navy's bombardment is cancelled (Leros 2.5)"))
        return
    navy = BatterySpec("Royal Navy", BRITISH, "100mm", fires_as="battalion")
    line = rules.scenario.sides[BRITISH].nation
    for hid in targets:
        h = rules.board.parse_hex(hid)
        why = f"the Royal Navy's bombardment of {hid}"
        roll = ctx.roll_dice("1d6", f"adjustment of {why}")
        res = ctx.cell("tcs.artillery_adjustment", (line, "4-6", roll),
                       (Step(f"{line} line"), Step("the 4-6 hex row, no spotter", "Leros 2.5"), Step(f"roll {roll}")),
                       why)
        ctx.events.append(Event("adjust", f"{why}: {res} Shoot (Leros 2.5)", {"result": res}))
        if res == "Bad":
            h = scatter(rules, st, ctx, h, why)
            if h is None:
                continue
        zone = zone_of(rules, h, "battalion")
        mid = f"M{st.next_id}"
        st.next_id += 1
        st.markers.append(Barrage(mid, BRITISH, "he", h, zone, "Royal Navy"))
        barrage_attack(rules, st, ctx, navy, zone, mid)
    tr.naval_plot = []


# 3.5: Army Group E's reserve groups in release order (organisations as the book names them)
RESERVE_GROUPS = (("Para-Co", "9-III-Brg"), ("10-III-Brg", "11-III-Brg"), ("5-II-Brg", "6-II-Brg", "7-II-Brg"))
RESERVE_DEADLINE_HOURS = {2: 72, 3: 24}      # 3.5: the British must surrender within these hours (scenario 1)


def reserve_refused(rules, st, side: str) -> str:
    """Why an Army Group E request is refused now ("" when allowed), Leros 3.5."""
    tr = st.leros
    if side != GERMAN:
        return "only the Germans request Army Group E's reserves (Leros 3.5)"
    if not rules.leros.get("campaign"):
        return "Army Group E's reserves come only in campaign games (Leros 3.5)"
    if tr.reserve_groups >= len(RESERVE_GROUPS):
        return "every reserve group has been released (Leros 3.5)"
    if tr.reserve_requested:
        return "the request is made: a die each hour turn until a 6 (Leros 3.5)"
    t = rules.turns[st.turn]
    if not rules.leros.get("reserve_start") and (t.when.month, t.when.day, t.when.hour) < (11, 12, 18):
        return "reserves may be requested from 1800 Nov 12 (Leros 3.5)"
    if st.turn < tr.reserve_lock_until:
        return (f"no request until 24 hours after the last release: {rules.turns[tr.reserve_lock_until].label} "
                "(Leros 3.5)")
    return ""


def reserve_request(rules, st, ctx) -> int:
    """3.5: once requested, a die each hour turn; a 6 releases the next group (of three) into the Kos box (the
    Para Co into Athens); then no request for 24 hours.  In scenario 1's campaign the second group's release
    gives the Germans 72 hours to force a surrender, the third 24.  Returns the group released (1-3) or 0."""
    tr = st.leros
    if tr.reserve_groups >= len(RESERVE_GROUPS):
        return 0
    r = ctx.roll("Army Group E reserve release (6 releases)")
    if r != 6:
        ctx.events.append(Event("reserve", f"Army Group E holds its reserves: {r} (Leros 3.5)"))
        return 0
    tr.reserve_groups += 1
    tr.reserve_requested = False
    tr.reserve_lock_until = st.turn + hours_to_turns(rules, st.turn, 24)
    g = tr.reserve_groups
    for u in rules.leros.get("reserves", {}).get(str(g), []):
        tr.boxed[u] = "athens" if u.startswith("Para-Co") else "kos"
    ctx.events.append(Event("reserve", f"Army Group E releases group {g}: "
                                       f"{', '.join(RESERVE_GROUPS[g - 1])} (Leros 3.5)"))
    hours = RESERVE_DEADLINE_HOURS.get(g)
    if hours and rules.leros.get("reserve_deadlines"):
        end = st.turn + hours_to_turns(rules, st.turn, hours)
        tr.deadline = end if tr.deadline < 0 else min(tr.deadline, end)
        label = rules.turns[tr.deadline].label if tr.deadline < len(rules.turns) else "the end of the game"
        ctx.events.append(Event("reserve", f"the Germans must force a surrender by {label} (Leros 3.5)"))
    return g


def hours_to_turns(rules, turn: int, hours: int) -> int:
    start = rules.turns[turn].when
    for i in range(turn, len(rules.turns)):
        w = rules.turns[i].when
        if (w - start).total_seconds() >= hours * 3600:
            return i - turn
    return len(rules.turns) - turn


# ---------------------------------------------------------------- 5.2 victory

LEVELS = ("German Massive", "German Major", "German Minor", "Draw", "British Minor", "British Major",
          "British Massive")


def shift_level(level: str, shift: int) -> str:
    """Shift a victory level toward the British (+) or the Germans (-), held at the ends of the scale."""
    i = max(0, min(len(LEVELS) - 1, LEVELS.index(level) + shift))
    return LEVELS[i]


def feature_holder(rules, st, hexes: list[str]) -> str:
    """5.2a: a feature is the side's that occupies or last passed through its hex; a multi-hex village only
    when the same side was the last in each of its contiguous hexes."""
    holders = set()
    for hid in hexes:
        h = rules.hex(hid)
        occupants = {side_of(rules, k) for k, u in st.units.items() if u.hex == h}
        if len(occupants) == 1:
            holders.add(next(iter(occupants)))
        else:
            holders.add(st.control.get(h, ""))
    return next(iter(holders)) if len(holders) == 1 else ""


# ---------------------------------------------------------------- what the tracks show

def _box_name(board, box_id: str) -> str:
    box = board.boxes.get(box_id)
    return box.name if box is not None else box_id


def sea_box_id(side: str, box: str) -> str:
    """The map's box for a boat's place on its side's Sea Movement Track (1.2d): "kos", "german-sea-A"..."""
    if box in HOLDING.values():
        return box
    if box == "approach":
        return f"{side}-approach"
    return f"{side}-sea-{box}"


def track_view(rules, st) -> dict:
    """Everything off the map as the tracks print it, for a window to show (nothing here decides a rule).

    ``sea``: per side, its Holding box (with the units waiting there), Sea Movement Boxes A-D and its Approach
    box, in track order, each with its boats (type, load, Landing Zone of the trip, returning).  ``air``: the
    Athens box, the outward boxes, the Execution box and the Return Leg boxes with their Ju-52s (load, drop
    zone; a Return Leg box names the outward box it ``faces``, 3.6j).  ``drop_zones``: each plotted drop zone
    hex (3.6c) with the loaded Ju-52s bound for it and their units.  ``landing_zones``: each Landing Zone a loaded boat is bound for (1.2f), its hexes and boats.
    ``map_landing_zones``: every Landing Zone the map prints (1.2f), its number and hexes."""
    tr, board = st.leros, rules.board
    sides = [s for s in (GERMAN, BRITISH) if any(b.side == s for b in tr.boats.values())
             or any(v == HOLDING[s] for v in tr.boxed.values())]
    sea = []
    for side in sides:
        for box in (HOLDING[side], *SEA_BOXES, "approach"):
            boats = [{"id": k, "type": b.type, "load": list(b.load), "lz": b.lz, "returning": b.returning}
                     for k, b in sorted(tr.boats.items()) if b.side == side and b.box == box]
            units = [u for u in rules.order if tr.boxed.get(u) == box] if box == HOLDING[side] else []
            bid = sea_box_id(side, box)
            sea.append({"side": side, "box": bid, "name": _box_name(board, bid), "boats": boats, "units": units})
    air = []
    if tr.planes or any(v == "athens" for v in tr.boxed.values()):
        for box in ("athens", *AIR_OUT, *AIR_BACK[:-1]):
            planes = [{"id": k, "load": list(p.load), "dz": p.dz, "returning": p.returning, "aborted": p.aborted}
                      for k, p in sorted(tr.planes.items()) if p.box == box]
            units = [u for u in rules.order if tr.boxed.get(u) == "athens"] if box == "athens" else []
            faces = next((o for o, r in AIR_OPPOSITE.items() if r == box), "")      # 3.6j: a return box's
            air.append({"box": box, "name": _box_name(board, box), "planes": planes, "units": units,  # outward box
                        "faces": faces})
    dzs: dict[str, dict] = {}
    for k, p in sorted(tr.planes.items()):
        if p.dz and p.load and not p.returning:
            d = dzs.setdefault(p.dz, {"hex": p.dz, "planes": [], "units": []})
            d["planes"].append(k)
            d["units"] += p.load
    lzs: dict[int, dict] = {}
    for k, b in sorted(tr.boats.items()):
        if b.lz and b.load and not b.returning:
            z = lzs.setdefault(b.lz, {"lz": b.lz, "side": b.side, "boats": [],
                                      "hexes": [rules.hid(h) for h in lz_hexes(board, b.lz)]})
            z["boats"].append(k)
    every = sorted(int(name.rsplit(" ", 1)[1]) for name in board.areas
                   if name.startswith("Landing Zone ") and name.rsplit(" ", 1)[1].isdigit())
    return {"sea": sea, "air": air, "drop_zones": [dzs[k] for k in sorted(dzs)],
            "landing_zones": [lzs[k] for k in sorted(lzs)], "drift": tr.drift,
            "map_landing_zones": [{"lz": n, "hexes": [rules.hid(h) for h in lz_hexes(board, n)]} for n in every]}


def campaign_level(steps_lost: int) -> str:
    """5.2b: the winner's level by its own step losses."""
    if steps_lost > 150:
        return "Pyrrhic"
    if steps_lost > 100:
        return "Minor"
    if steps_lost >= 50:
        return "Major"
    return "Strategic"


__all__ = ["AIR_BACK", "AIR_OPPOSITE", "AIR_OUT", "BRITISH", "Boat", "GERMAN", "LEVELS", "Plane", "Tracks",
           "WEATHER", "abort_flight", "air_movement", "campaign_level", "check_embark", "counters_on_leros", "embark",
           "feature_holder", "free_period_end", "is_infantry", "naval_cancelled", "naval_solitaire_pick", "parachute_assault",
           "plan_flight", "reserve_request", "sea_movement", "shift_level", "start_flight", "still_landing", "surrender_allowed",
           "surrender_check", "surrender_tie", "sea_box_id", "track_view", "weather_effects"]
