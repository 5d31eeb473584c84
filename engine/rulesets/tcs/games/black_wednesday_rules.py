"""Black Wednesday's own rules on the TCS engine (the series engine asks these hooks; each cites its rule).

- 1.1e The Hospital (B53.12): no vehicle enters it.
- 1.1f The Mill (A25.23): vehicles enter only along the road from A26.23; no direct fire (regular or
  overwatch) into or out of it except in assaults; indirect fire and spotting are not affected.
- 1.2c A tank entering or leaving an embankment hex off the railroad's line spends its entire MA (trucks may not).
- 1.2d A railroad embankment hex holds at most 2 vehicles.
- 1.4a Units enter only Fully Breached wire hexes, except an infantry or cavalry unit breaching (1.4b):
  moving into the wire from the hex it began the phase in costs all its MA; once the move's overwatch is
  over (the next thing the side does, or the end of its phase), a unit still there in Move mode makes a
  Partial Breach and goes back where it came from, or turns a Partial Breach Full and stays (1.4b C/D).
  Breaches never close (1.4c); roads do not help (1.4d); artillery never breaches (1.4e).
- 1.3c A non-vehicle unit moving from a trench hex to a trench hex draws overwatch only from enemy units
  it moves adjacent to; 1.3d a unit in a trench hex may take Paralyzed instead of an SYR result.
- 2.2a Commissars: one step loss on a Soviet unit in the hex cancels a roll's Suppression against the hex, for
  every unit of the hex it suppressed; each unit benefits once a phase.
- 2.1e A Soviet Op Sheet implemented in play starts one battalion (the player's choice) each time it
  implements, the regimental and divisional units with the first; it goes on accruing and rolling until
  every battalion has started.
- 2.6 Mounted (Move-mode) cavalry draws +1 column of Area Fire and assaults only by overrun.
- 2.3e FOs never take part in an assault.
- 2.2c At Clean-up the Soviet player may consolidate two identical platoons of a battalion (same type, same
  steps lost, in good order) stacked or adjacent: one takes the steps of both, the other is lost.
- 3.4 At 2200 10 Feb the Spanish player restores up to 15 infantry steps to units on the map that lost them.
- 3.1b The SS AT guns may be on Spanish or German sheets; 4.1 (variant) German cooperation: German and Spanish
  units share sheets (4.1a) and one ammunition pool (4.1d).
- 4.7 (variant) Dora: on each full-hour turn from 0600 10 Feb the Axis may plot a hex for the next hour; it
  fires there after an automatic scatter (one die minus one hexes), 151 firepower, then a smoke marker.
- 4.6 (variant) Grandes in Command: the Spanish Command Prep rating is 2.
- 1.11a Towed guns move with 8 Foot MPs; 1.11b Axis units ride on Axis tanks (``mount``, ``dismount``), the
  Soviets never do.
- 2.4 The Prep Log fires as the first thing in each Soviet Action Phase of its turns (2.4e): no spotter, no
  ammunition (2.4b), a die for Good or Bad Shoot (2.4d), double the battalion barrage value (2.4a); the
  Katyushas attack a radius-5 zone at strength 6 and scatter on a Bad Shoot (2.4g).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ....errors import BadFile, IllegalAction, Problem
from ....game import Event
from ....maps.hexes import are_adjacent
from .bw_artillery import (  # noqa: F401 (hooks the series engine asks of this module)
    mission_problem, BATTERY_DIVISION, WITHDRAWN, AT289, AT289_DEFAULT, at289_division, FOS_NEVER_KILLED,
    faux_trp_hexes, faux_trps, DORA_FROM, DORA_FIREPOWER, _dora, _next_hour, check_plot, plot, plot_offers,
    dora_fire, AIR_SIDES, air_result, sortie_roll, AXIS_BATTALIONS, _fired, battalion_problem)
from .bw_carriers import (  # noqa: F401 (hooks the series engine asks of this module)
    TRANSPORTED, GUN_MA, GUN_MOBILITY, transported, movement_allowance, mobility, Mount, Dismount, CARRY_RULE,
    parse_action, carrier_of, rider_of, check_mount, check_dismount, act, action_offers, carry_problem)
from .bw_prep import scenario_prep_log
from .bw_prep_fire import (  # noqa: F401 (hooks the series engine asks of this module)
    OWN_LOG, own_log, encode_log, decode_log, prep_log, before_play, before_play_offers, prep_fire)
from .bw_releases import (  # noqa: F401 (hooks the series engine asks of this module)
    LATE_CLOCK, _at_or_after, release_row, BATTERY_ROUNDS, FIRST_BATTERIES, _battery_of, release_pick, on_release)
from .bw_sheets import (  # noqa: F401 (hooks the series engine asks of this module)
    implement_units, SOVIET_DIVISIONS, SOVIET_ARMOUR, GUARDS, GUARDS_RATING, MIXED_RATING, formations_mix,
    sheet_formations, sheet_rating, _merge_axis_pools, looting_limit, beyond_limit, still_looting, sheet_problem,
    _check_looting_at_start, BEFORE_PLAY_WEIGHTED, drawn_before_play)

VARIANTS = ("4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "own-prep-log",   # BW 4.0 (and 1.10b: own Prep Log)
            "289-63Gd", "289-43", "289-72")                                       # BW 2.3a: the 289's division

SETUP_ORDER = ("soviet", "axis")      # BW 1.10b: the Soviet player sets up first (engine/rulesets/tcs/setupphase.py)

BREACHERS = ("rifle", "infantry", "cavalry")          # BW 1.4b: only infantry and cavalry units breach


def _has(rules, h, feature: str) -> bool:
    return feature in rules.board.features_of(h)


def breach_state(st, rules, h) -> str:
    return st.marks.get("wire " + rules.hid(h), "")


def move_problem(rules, st, uid: str, to) -> tuple[str, str] | None:
    """(rule, reason) when BW forbids the move, else None."""
    spec, u = rules.specs[uid], st.units[uid]
    carried = carry_problem(rules, st, uid, to)                        # BW 1.11b
    if carried:
        return carried
    if spec.vehicle and _has(rules, to, "hospital"):
        return "BW 1.1e", f"no vehicle enters the Hospital ({rules.hid(to)})"
    if transported(rules, uid) and u.mode == "move" and _has(rules, to, "hospital"):
        return "BW 1.1e", f"{uid} rides trucks in Move mode (1.11a): it is man-handled into the Hospital in Fire mode"
    if spec.vehicle and _has(rules, to, "mill") and not rules.board.has_link("road", u.hex, to):
        return "BW 1.1f", f"vehicles enter the Mill only along the road from A26.23, not from {rules.hid(u.hex)}"
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        if not any(w in spec.type for w in BREACHERS) or spec.vehicle:
            return "BW 1.4a", f"{rules.hid(to)} is wire: only Fully Breached wire hexes may be entered, and only " \
                              "infantry and cavalry breach (1.4b)"
        if spec.side != "soviet":       # BW 1.4b A-C: breaching is done in the Soviet Action Phase by the Soviet player
            return "BW 1.4b", f"{rules.hid(to)} is wire that is not Fully Breached: only the Soviet player breaches wire " \
                              "(in the Soviet Action Phase)"
        if u.moved:                     # BW 1.4b A/B: from where it began the phase (a mode change first is allowed)
            return "BW 1.4b", f"{uid} must breach {rules.hid(to)} from the hex it began the phase in, with all its MA"
    if "truck" in spec.type and off_the_line(rules, st, uid, to):
        return "BW 1.2c", f"trucks enter and leave the embankment only along the railroad, not into {rules.hid(to)}"
    if spec.vehicle and _has(rules, to, "rr embankment"):
        veh = [k for k, x in st.units.items() if x.hex == to and rules.specs[k].vehicle and k != uid]
        if len(veh) >= 2:
            return "BW 1.2d", f"{rules.hid(to)} is a railroad embankment hex and holds 2 vehicles at most"
    return None


def move_words(rules, st, uid: str, to) -> str:
    """A move into a wire hex not fully breached is a breach (BW 1.4b): its words in a unit's menu, else ""."""
    if to in rules.board and _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        return f"Breach the wire in {rules.hid(to)} (BW 1.4b: all its remaining MPs, from where it began the phase)"
    return ""


def move_cost(rules, st, uid: str, to, cost: Fraction) -> Fraction:
    """A breaching move costs the unit's whole (remaining) MA (BW 1.4b B); a tank climbing onto or down from the
    embankment other than along the railroad costs its entire MA (BW 1.2c)."""
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        return max(cost, rules.ma(st, uid) - st.units[uid].mp_used)
    if off_the_line(rules, st, uid, to):
        return max(cost, rules.ma(st, uid))
    return cost


def off_the_line(rules, st, uid: str, to) -> bool:
    """BW 1.2c: a vehicle entering or leaving an embankment hex by a hexside the railroad does not cross."""
    frm = st.units[uid].hex
    return rules.specs[uid].vehicle and (_has(rules, to, "rr embankment") or _has(rules, frm, "rr embankment")) \
        and not rules.board.has_link("railroad", frm, to)


def after_move(rules, st, uid: str, frm, to) -> None:
    if rules.specs[uid].vehicle:                 # BW 1.11b: the rider moves with its tank (before the tank's move
        rider = next((k[7:] for k, v in st.marks.items() if v == uid and k.startswith("riding ")
                      and st.units[k[7:]].hex == frm and st.units[k[7:]].mode == "move"), "")   # draws overwatch)
        if rider:
            st.units[rider].hex = to
    if st.units[uid].mode == "fire" and transported(rules, uid):    # BW 1.1e: man-handled (no overwatch, no SFA)
        st.marks["manhandled " + uid] = _phase(st)
    key = "trench move " + uid
    if not rules.specs[uid].vehicle and _has(rules, frm, "trench") and _has(rules, to, "trench"):
        st.marks[key] = rules.hid(to)          # BW 1.3c: remembered for the overwatch this move draws
    else:
        st.marks.pop(key, None)
    if _has(rules, to, "wire") and breach_state(st, rules, to) != "full":
        st.marks["breaching " + uid] = rules.hid(frm)
        if "4.5" in rules.options.get("variants", []) and rules.specs[uid].side == "soviet":
            st.marks["mines " + uid] = rules.hid(to)         # BW 4.5: the breach is also a minefield breach


def breaches(rules, st) -> list[tuple]:
    """The wire markers on the map (BW 1.4): (hex, "Partial breach" | "Full breach" | "Breaching <unit>")."""
    out = [(rules.board.parse_hex(k[5:]), f"{v.title()} breach") for k, v in sorted(st.marks.items())
           if k.startswith("wire ")]
    out += [(st.units[k[10:]].hex, f"Breaching {k[10:]}") for k in sorted(st.marks)
            if k.startswith("breaching ") and st.units[k[10:]].hex is not None]
    return out


def settle_breaches(rules, st, events) -> None:
    """BW 1.4b C/D: units that moved into wire and are still there in Move mode breach it."""
    from ....game import Event
    for key in sorted(k for k in st.marks if k.startswith("breaching ")):
        uid, frm = key[10:], st.marks.pop(key)
        u = st.units[uid]
        if u.hex is None or not _has(rules, u.hex, "wire") or u.mode != "move":
            continue
        hid = rules.hid(u.hex)
        wkey, tkey = "wire " + hid, "partial breach turn " + hid
        # BW 1.4b D: "in the next turn or later": a Partial Breach made this turn is not made Full until the next
        # turn; a unit that repeats A-C on it in the same turn goes back out again (C) and the breach stays Partial
        if st.marks.get(wkey) == "partial" and st.marks.get(tkey) != str(st.turn):
            st.marks[wkey] = "full"
            events.append(Event("breach", f"{uid} fully breaches the wire at {hid} (BW 1.4b D)"))
        else:
            again = st.marks.get(wkey) == "partial"
            st.marks[wkey] = "partial"
            st.marks[tkey] = str(st.turn)
            events.append(Event("breach", f"{uid} {'again ' if again else ''}partially breaches the wire at {hid} and "
                                          f"goes back to {frm} (BW 1.4b C"
                                          + ("; it turns Full only from the next turn, 1.4b D)" if again else ")")))
            u.hex = rules.board.parse_hex(frm)


def fire_problem(rules, st, firer_hex, target_hex, uid: str = "", kind: str = "") -> tuple[str, str] | None:
    """BW 1.1f: no direct fire into or out of the Mill (assault fire is not direct fire in this sense);
    BW 1.1e: a unit man-handled this phase fires no SFA."""
    if _has(rules, firer_hex, "mill") or _has(rules, target_hex, "mill"):
        return "BW 1.1f", "no direct fire into or out of the Mill (only assaults, mortars, artillery and sorties)"
    if kind == "sfa" and uid and st.marks.get("manhandled " + uid) == _phase(st):
        return "BW 1.1e", f"{uid} was man-handled this phase and cannot fire an SFA"
    return None


def _phase(st) -> str:
    return f"{st.turn}.{st.step}"


def fire_mode_move(rules, st, uid: str, to):
    """BW 1.1e: a gun in Fire mode that has not moved or fired this phase is man-handled into the Hospital from
    a hex beside it (or out of it): no MPs, no overwatch, no SFA this phase.  Any other Fire-mode move is
    refused as the series refuses it."""
    from fractions import Fraction
    unit = st.units[uid]
    if not transported(rules, uid) or not (_has(rules, to, "hospital") or _has(rules, unit.hex, "hospital")):
        raise IllegalAction("TCS 5.0", f"{uid} is in Fire mode; only units in Move mode move")
    if unit.moved or unit.fired or unit.morale_state:
        raise IllegalAction("BW 1.1e", f"{uid} must begin the phase in Fire mode beside the Hospital, in good order, "
                                       "to be man-handled")
    if not rules.has_orders(st, uid):
        raise IllegalAction("TCS 6.0", f"{uid} has no implemented Op Sheet to carry out")
    if any(v.hex == to and rules.specs[k].side != rules.specs[uid].side for k, v in st.units.items()):
        raise IllegalAction("TCS 5.0", f"{rules.hid(to)} holds enemy units")
    why = rules.stack_problem(st, uid, to)
    if why:
        raise IllegalAction("TCS stacking (game data)", why)
    return Fraction(0)


def before_overrun(rules, st, ctx, h, units=()) -> None:
    """BW 4.2 (variant) Spanish Panic: before an overrun "by armor" (a vehicle's, not 2.6's mounted cavalry's), a
    die for each Spanish unit in the hex; at most its printed morale, it loses a step and is Paralyzed."""
    from ..procs import lose_steps
    from ..state import PARALYZED
    if "4.2" not in rules.options.get("variants", []):
        return
    if not any(rules.specs[u].vehicle for u in units):          # BW 4.2a: overrun by armor only
        return
    for k in [k for k in rules.order if st.units[k].hex == h and rules.specs[k].formation == "spanish"]:
        m = int(ctx.cell("tcs.counter.morale", (rules.specs[k].type,), purpose=f"{k}'s printed morale"))
        die = ctx.roll(f"Spanish Panic of {k} (BW 4.2)")
        if m >= die:
            ctx.events.append(Event("panic", f"{k} panics: die {die}, morale {m}: a step lost, Paralyzed (BW 4.2)"))
            st.units[k].morale_state = PARALYZED
            lose_steps(rules, st, ctx, k, 1)
        else:
            ctx.events.append(Event("panic", f"{k} holds: die {die}, morale {m} (BW 4.2)"))


def assault_problem(rules, st, uid: str, overrun: bool = False) -> tuple[str, str] | None:
    if rules.specs[uid].fo:
        return "BW 2.3e", f"{uid} is an FO: FOs never attack in an assault"
    if mounted(rules, st, uid) and not overrun:
        return "BW 2.6", f"{uid} is mounted (Move mode): mounted cavalry assaults only by overrun"
    if carrier_of(rules, st, uid):
        return CARRY_RULE, f"{uid} rides on {carrier_of(rules, st, uid)}: it gets off before it assaults"
    if overrun and rider_of(rules, st, uid):
        return CARRY_RULE, f"{uid} carries {rider_of(rules, st, uid)}: it overruns only without a rider (our choice)"
    return None


def overruns(rules, st, uid: str) -> bool:
    """BW 2.6: a unit using Mounted Movement assaults by overrun (the series' overrun, on its terms: one unit, an
    Open hex, the overrun's MPs; our reading, the book adds no terms of its own)."""
    return mounted(rules, st, uid)


def mounted(rules, st, uid: str) -> bool:
    """BW 2.6: a cavalry unit in Move mode uses Mounted Movement."""
    return "cavalry" in rules.specs[uid].type and st.units[uid].mode == "move"


def target_shifts(rules, st, h) -> list:
    """BW 2.6: enemy Area Fire at a hex holding mounted cavalry shifts one column right."""
    from ....charts import Step
    if any(u.hex == h and mounted(rules, st, k) for k, u in st.units.items()):
        return [(1, Step("+1 mounted cavalry in the hex", "BW 2.6"))]
    return []


def check(problem) -> None:
    if problem:
        raise IllegalAction(*problem)


# ---------------------------------------------------------------- the series engine's hooks (rules.py, procs.py)

def bind(rules) -> None:
    """Called once by the TCS rules: BW's own procedures, its Prep Log (BW 2.4) and its variants (BW 4.0)."""
    from dataclasses import replace
    rules.procs = {**rules.procs, "bw_prep": prep_fire, "bw_return": return_battalion,
                   "bw_consolidate": consolidate, "bw_dora": dora_fire, "bw_mines": mine_attack}
    rules.bw_prep = scenario_prep_log(rules)
    rules.bw_faux = faux_trp_hexes(rules.board)              # BW 3.2d
    rules.bw_entries = {x: _area(rules, "entry_area_" + x) for x in "abcdefgh"}      # BW 1.10h
    rules.bw_limit = looting_limit(rules.board)                                      # BW 2.1f
    rules.bw_looting = frozenset(rules.options.get("looting", []))
    rules.bw_at289 = at289_division(rules)                                          # BW 2.3a
    rules.bw_transported = frozenset(k for k in rules.specs if transported(rules, k))  # BW 1.11a
    _check_looting_at_start(rules)
    variants = rules.options.get("variants", [])
    bad = [v for v in variants if v not in VARIANTS]
    if bad:
        raise BadFile([Problem(rules.scenario.path, "options.variants",
                               f"unknown variant {bad[0]!r} (expected some of {', '.join(VARIANTS)})")])
    if "4.1" in variants:                                  # BW 4.1d: one Axis ammunition pool
        _merge_axis_pools(rules)
    f = rules.scenario.formations.get("spanish")
    if "4.6" in variants and f is not None:                # BW 4.6: Grandes in Command, Spanish Command Prep 2
        rules.scenario.formations["spanish"] = replace(f, command_prep=2)


RETURN_CLOCK, RETURN_STEPS = "2200 10 Feb", 15          # BW 3.4


def spanish_infantry(rules, uid: str) -> bool:
    """BW 3.4: Spanish infantry (not MG, mortar or gun units)."""
    spec = rules.specs[uid]
    return spec.formation == "spanish" and "infantry platoon" in spec.type


def due(rules, st):
    """A BW step that comes first in a phase: 3.4's Return Battalion at the start of the 2200 10 Feb Command
    Phase (Axis review), 2.4e's Prep Log missions at the start of the Soviet Action Phase (once each)."""
    phase, step, who = rules.current(st)
    label = rules.turns[st.turn].label
    if label == RETURN_CLOCK and step == "review" and who == "axis" and not st.marks.get("return battalion") \
            and any(spanish_infantry(rules, k) and u.hex is not None and u.steps_lost for k, u in st.units.items()):
        return "bw_return", {}
    if step == "execute" and who == "axis" and st.marks.get("dora " + label) and not st.marks.get("dora fired " + label):
        return "bw_dora", {}                             # BW 4.7
    if any(k.startswith("mines ") for k in st.marks):
        return "bw_mines", {}                            # BW 4.5: the mined wire attacks the breaching unit
    if step == "cleanup" and not st.marks.get("consolidated " + label) and consolidation_pairs(rules, st):
        return "bw_consolidate", {}                      # BW 2.2c
    log = prep_log(rules, st)
    if log is None:
        return None
    if step != "action" or who != "soviet" or not log.turns.get(label) or st.marks.get("prep " + label):
        return None
    return "bw_prep", {}


def overwatch_candidates(rules, st, mover: str, h, cands: list[str]) -> list[str]:
    """BW 1.3c: trench-to-trench movement by non-vehicles is spotted (for overwatch) only from adjacent hexes;
    BW 1.1e: man-handling draws no overwatch."""
    if st.marks.get("manhandled " + mover) == _phase(st) and st.units[mover].mode == "fire":
        return []
    if st.marks.get("trench move " + mover) == rules.hid(h):
        return [k for k in cands if are_adjacent(st.units[k].hex, h)]
    return cands


def morale_result(rules, st, ctx, uid: str, res: str) -> str:
    """The owner's options on a morale result: 1.3d SYR -> Paralyzed in a trench, 2.2a commissars."""
    from ..procs import lose_steps
    u, spec = st.units[uid], rules.specs[uid]
    if res == "SYR" and _has(rules, u.hex, "trench"):           # BW 1.3d
        pick = ctx.choose("trench", spec.side, ["SYR", "P"],
                          f"{uid} is in a trench hex: take the SYR, or Paralyzed instead (BW 1.3d)?")
        if pick == "P":
            ctx.events.append(Event("morale", f"{uid} takes Paralyzed instead of SYR (BW 1.3d)"))
            return "P"
    phase = f"{st.turn}.{st.step}"
    if res == "S" and spec.side == "soviet" and st.marks.get("commissar " + uid) != phase:      # BW 2.2a
        # BW 2.2a: the Suppression is "against a hex": one extra step loss cancels it for every unit of the hex
        # that this roll suppressed (each benefiting once a phase), so the choice is made once per roll and hex.
        # The roll is the latest Area Fire (or 4.5 mine) event of this procedure (its choices live in its Ctx, so
        # a procedure resumed after a question replays them exactly)
        roll = max((i for i, e in enumerate(ctx.events) if e.kind in ("fire", "mines")), default=-1)
        made = ctx.__dict__.setdefault("bw_commissar", {})
        key = (rules.hid(u.hex), roll)
        if key not in made:
            mates = [k for k in rules.order if st.units[k].hex == u.hex and rules.specs[k].side == "soviet"]
            pick = made[key] = ctx.choose(
                "commissar", "soviet", ["accept"] + mates,
                f"{uid} is Suppressed: accept, or a step loss on a unit in {rules.hid(u.hex)} to cancel the "
                f"Suppression against the hex (BW 2.2a)?")
            if pick != "accept":
                ctx.events.append(Event("commissar", f"{pick} loses a step so that the Suppression against "
                                                     f"{rules.hid(u.hex)} is ignored (BW 2.2a)"))
                lose_steps(rules, st, ctx, pick, 1)
        if made[key] != "accept":
            st.marks["commissar " + uid] = phase
            ctx.events.append(Event("commissar", f"{uid} ignores its Suppression (BW 2.2a)"))
            return "-"
    return res


def return_battalion(rules, st, ctx) -> None:
    """BW 3.4: the Spanish player restores steps to infantry that lost them, one at a time, up to 15 (the rest
    is wasted); only units on the map (the program's reading: the dead pile stays dead)."""
    left, given = RETURN_STEPS, []
    while left:
        cands = [k for k in rules.order if spanish_infantry(rules, k) and st.units[k].hex is not None
                 and st.units[k].steps_lost]
        if not cands:
            break
        pick = ctx.choose("return", "axis", ["done"] + cands,
                          f"The Return Battalion (BW 3.4): {left} infantry steps left to restore: which unit?")
        if pick == "done":
            break
        st.units[pick].steps_lost -= 1
        given.append(pick)
        left -= 1
    st.marks["return battalion"] = str(len(given))
    ctx.events.append(Event("return", f"the Return Battalion restores {len(given)} steps (BW 3.4)"
                                      + (f": {', '.join(given)}" if given else "")))


# ---------------------------------------------------------------- BW 5.0 exiting, 5.1 intact formations

def group_of(rules, uid: str, level: str) -> str:
    """The formation of ``level`` a unit belongs to, read from the order of battle's ids ("" for none):
    ``1-269-63Gd:2Co-P3`` is in company ``1-269-63Gd:2Co``, battalion ``1-269-63Gd``, regiment ``269-63Gd``;
    the Red Banner Tank Brigade's battalions ``1-RB`` and ``2-RB`` make brigade ``RB`` (5.1 "Regiment or
    Brigade")."""
    spec = rules.specs[uid]
    head, _, tail = uid.partition(":")
    if level == "platoon":
        return uid
    if level == "company":
        if "Co-" in tail:
            return f"{head}:{tail.rsplit('-', 1)[0]}"
        return head if spec.side == "axis" and tail.startswith("P") else ""
    if level == "battalion":
        return spec.battalion
    bn = spec.battalion
    if bn in ("1-RB", "2-RB"):
        return "RB"
    if bn.count("-") >= 2:                               # 1-269-63Gd -> 269-63Gd
        return bn.split("-", 1)[1]
    if not bn and spec.side == "soviet" and tail and not head.endswith("-div") and "-" in head:
        return head                                      # regimental troops (269-63Gd:SMG1)
    return ""


def exited_groups(rules, st, side: str, hexes, level: str) -> list[str]:
    """BW 5.0/5.1: the groups of ``level`` whose units that left the map through ``hexes`` hold 80% or more of
    the group's original steps ("intact")."""
    from ..proc import chart_value
    members: dict[str, list[str]] = {}
    for k in rules.order:
        if rules.specs[k].side == side:
            g = group_of(rules, k, level)
            if g:
                members.setdefault(g, []).append(k)
    out = []
    for g, us in sorted(members.items()):
        out_hexes = [st.marks.get("exited " + k) for k in us]
        if not any(h and rules.board.parse_hex(h) in hexes for h in out_hexes):
            continue
        steps = [chart_value(rules, st, "tcs.counter.steps", (rules.specs[k].type,)) for k in us]
        if any(s is None for s in steps):
            continue
        total = sum(int(s) for s in steps)
        left = sum(int(s) - st.units[k].steps_lost for k, s, h in zip(us, steps, out_hexes)
                   if h and rules.board.parse_hex(h) in hexes)
        if total and left * 5 >= total * 4:
            out.append(g)
    return out


# ---------------------------------------------------------------- BW 2.2c consolidation

def consolidation_pairs(rules, st) -> list[tuple[str, str]]:
    """BW 2.2c: Soviet platoons that may consolidate: the same type, the same steps lost (some), in good order,
    the same battalion, stacked or adjacent."""
    from ..state import OK
    cands = [k for k in rules.order if rules.specs[k].side == "soviet" and rules.specs[k].battalion
             and st.units[k].hex is not None and st.units[k].steps_lost and st.units[k].morale_state == OK]
    out = []
    for i, a in enumerate(cands):
        ua, sa = st.units[a], rules.specs[a]
        for b in cands[i + 1:]:
            ub, sb = st.units[b], rules.specs[b]
            if sa.type == sb.type and sa.battalion == sb.battalion and ua.steps_lost == ub.steps_lost \
                    and (ua.hex == ub.hex or are_adjacent(ua.hex, ub.hex)):
                out.append((a, b))
    return out


def consolidate(rules, st, ctx) -> None:
    """BW 2.2c: the Soviet player picks pairs to consolidate (or none), one after another; the first of a pair
    keeps the steps of both (at most its full strength), the second goes to the dead pile (a lost unit, 5.0)."""
    from ..procs import eliminate
    label = rules.turns[st.turn].label
    while True:
        pairs = consolidation_pairs(rules, st)
        if not pairs:
            break
        pick = ctx.choose("consolidate", "soviet", ["none"] + [f"{a}+{b}" for a, b in pairs],
                          "Clean-up: consolidate two identical platoons (BW 2.2c)?")
        if pick == "none":
            break
        a, b = pick.split("+")
        steps = int(ctx.cell("tcs.counter.steps", (rules.specs[a].type,), purpose=f"{a}'s steps"))
        left = min(steps, 2 * steps - st.units[a].steps_lost - st.units[b].steps_lost)
        st.units[a].steps_lost = steps - left
        eliminate(rules, st, b, ctx.events, f"consolidated into {a} (BW 2.2c)")
    st.marks["consolidated " + label] = "yes"


# ---------------------------------------------------------------- BW 1.10h entry areas closed by Soviet exits

def _area(rules, name: str) -> frozenset:
    from ....scenario.areas import AreaContext, AreaError
    try:
        return frozenset(AreaContext(rules.board).hexes(name))
    except AreaError:          # a map without the game's entry areas has none to close
        return frozenset()


def after_exit(rules, st, events) -> None:
    """BW 1.10h: an Axis entry area (A-H) through which an intact Soviet battalion has left the map is closed."""
    for x, hexes in sorted(rules.bw_entries.items()):
        key = "closed entry_area_" + x
        if not st.marks.get(key) and exited_groups(rules, st, "soviet", hexes, "battalion"):
            st.marks[key] = "yes"
            events.append(Event("exit", f"entry area {x.upper()} is closed to Axis reinforcements (BW 1.10h)"))


def entry_closed(rules, st, h) -> bool:
    """BW 1.10h: whether a reinforcement hex lies in a closed entry area."""
    return any(h in hexes for x, hexes in rules.bw_entries.items() if st.marks.get("closed entry_area_" + x))


# ---------------------------------------------------------------- BW 4.5: Improved Spanish Defenses (mined wire)

def mine_attack(rules, st, ctx) -> None:
    """BW 4.5 (variant): the wire hexes are mined; a Soviet unit attempting to breach one also breaches the
    mines, which attack it as the series' minefield attack: the printed result is asked through the
    ``bw.minefield_attack`` chart slot (a roll, read like the Area Fire Table: '-', a morale check, or steps
    lost and a morale check).  The mines are cleared with the wire: a Fully Breached hex attacks no one (our
    reading: a Partial Breach leaves the mines live, as it leaves the wire)."""
    from ....charts import Step
    from ..procs import lose_steps, morale_check
    for key in sorted(k for k in st.marks if k.startswith("mines ")):
        uid, hid = key[6:], st.marks.pop(key)
        if st.units[uid].hex is None:
            continue
        roll = ctx.roll_dice("2d6", f"minefield attack on {uid} at {hid} (BW 4.5)")
        res = str(ctx.cell("bw.minefield_attack", (roll,), (Step(f"roll {roll}", "BW 4.5"),),
                           f"the mined wire at {hid} attacks {uid}"))
        ctx.events.append(Event("mines", f"the mined wire at {hid} attacks {uid}: roll {roll}: {res} (BW 4.5)",
                                {"unit": uid, "hex": hid, "result": res}))
        if res == "-":
            continue
        if res != "M":
            lose_steps(rules, st, ctx, uid, int(res))
        if st.units[uid].hex is not None:
            morale_check(rules, st, ctx, uid)


# ---------------------------------------------------------------- BW scenarios 2 and 3: the reserve credit

def hex_credit(rules, st, c) -> tuple[int, str]:
    """BW scenarios 2 and 3 (note): each Axis reserve company released during play credits the Soviet player
    with one more hex of Krasni Bor.  The reserves are the units on the scenario's at-start reserve sheets;
    a sheet the reserve check has released counts each company on it once (the Engineer and Recon
    battalions listed as reserves count their three companies each)."""
    if c.credit != "released_reserves":
        return 0, ""
    start = {s.id for s in rules.scenario.op_sheets if s.reserve and s.side != c.side}
    companies = set()
    for sid in sorted(start):
        s = st.sheets.get(sid)
        if s is None or s.reserve:
            continue
        for k in s.units:
            companies.add(k.partition(":")[0])       # the order of battle's company ("13-262:IG75-1": 13-262)
    return len(companies), f"{len(companies)} Axis reserve companies released"


# ---------------------------------------------------------------- BW 1.3a/b: who the trench protects

def area_groups(rules, st, h, targets: list, features: bool) -> list:
    """BW 1.3b: vehicles in a trench hex are in Open terrain for regular fire and take none of the trench's
    shift, so Area Fire at a trench hex holding vehicles and other units reads the vehicles on their own roll
    (our choice: the book gives one hex two classes, the series resolves one class a roll)."""
    if not _has(rules, h, "trench"):
        return [(targets, "", features)]
    veh = [k for k in targets if rules.specs[k].vehicle]
    rest = [k for k in targets if not rules.specs[k].vehicle]
    out = [(rest, "", features)] if rest else []
    if veh:
        out.append((veh, "Open", False))
    return out


def target_class(rules, st, uid: str, cls: str, ctx=None) -> str:
    """BW 1.3a/b: on the Point Fire Table a non-vehicle unit in a trench hex is in Protective terrain and a
    vehicle there in Open terrain.  BW 1.2b: a vehicle on the railroad embankment always uses road movement,
    read on the series' road-movement column (chart slot ``tcs.road_target``, asked if blank)."""
    h = st.units[uid].hex
    if h is None:
        return cls
    vehicle = rules.specs[uid].vehicle
    if _has(rules, h, "trench"):
        cls = "Open" if vehicle else "Protective"
    if vehicle and ctx is not None and _has(rules, h, "rr embankment"):            # BW 1.2b
        from ....charts import Step
        cls = ctx.cell("tcs.road_target", (cls,), (Step(f"{uid} on the embankment uses road movement", "BW 1.2b"),),
                       f"{uid} on the railroad embankment is a road-movement target")
    return cls


def chart_needs(rules, st, value) -> list:
    """The game's own printed values the series' list (engine/rulesets/tcs/needs.py) leaves out: BW 3.5's late
    modifier of the German Variable Reinforcement Table, when the scenario reaches 0100 11 Feb with the table."""
    from ....charts import ValueNeed

    if any(r.table == "bw.german_reinforcements" for r in rules.scenario.releases) \
            and any(t.label == LATE_CLOCK for t in rules.turns):
        slot = rules.charts["bw.german_reinforcement_modifier"]
        return [ValueNeed(slot.id, (LATE_CLOCK,), "tables", slot.title, LATE_CLOCK, False,
                          "BW 3.5: added to the table's roll from 0100 11 Feb")]
    return []
