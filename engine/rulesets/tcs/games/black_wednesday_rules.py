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

from dataclasses import asdict, dataclass, replace
from fractions import Fraction

from ....errors import BadFile, IllegalAction, Problem
from ....game import Event
from ....maps.hexes import are_adjacent, hex_range
from .bw_prep import scenario_prep_log

VARIANTS = ("4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "own-prep-log",   # BW 4.0 (and 1.10b: own Prep Log)
            "289-63Gd", "289-43", "289-72")                                       # BW 2.3a: the 289's division

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


# BW 1.11a: the AT guns (KG III Flak's 88s are "AT (88mm)" in the manifest), infantry guns, on-map artillery and
# heavy (120mm) mortars of both sides, moved by trucks and wagons in Move mode
TRANSPORTED = ("at gun", "infantry gun", "howitzer", "120mm mortar", "88mm flak")
GUN_MA, GUN_MOBILITY = 8, "foot"                         # BW 1.11a: "8 MPs which are Foot MPs for terrain purposes"


def transported(rules, uid: str) -> bool:
    known = getattr(rules, "bw_transported", None)
    if known is not None:
        return uid in known
    return any(w in rules.specs[uid].type for w in TRANSPORTED)


def movement_allowance(rules, st, uid: str) -> int | None:
    """BW 1.11a: a transported gun moves with 8 MPs (not its counter's movement value); None: the counter's."""
    return GUN_MA if transported(rules, uid) else None


def mobility(rules, uid: str) -> str | None:
    """BW 1.11a: a transported gun's MPs are Foot MPs for terrain purposes; None: the counter's mobility."""
    return GUN_MOBILITY if transported(rules, uid) else None


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


def mission_problem(rules, st, bat, spotter: str) -> tuple[str, str] | None:
    """BW 2.3a: a division's artillery is spotted only by that division's FOs; 2.3d: the regiments' mortar FOs
    spot only for their own 120mm mortar company, never for the artillery, and only FOs spot for the artillery
    (the 289 AT Regiment's division is the player's assignment before play: any division's artillery FO);
    2.2d: an 82mm mortar company spots only for itself.  The Axis may use any unit (3.2d: "a regular spotter")."""
    if bat.side != "soviet":
        return battalion_problem(rules, st, bat)
    gone = WITHDRAWN.get(bat.id)
    if gone and _at_or_after(rules, st, gone):
        return "BW 2.3", f"{bat.id} is no longer in play as of {gone} (the Soviet artillery table)"
    spec = rules.specs[spotter]
    if bat.unit and rules.specs[bat.unit].type == "soviet 82mm mortar company":
        if spotter != bat.unit:                                      # BW 2.2d
            return "BW 2.2d", f"{bat.id} is an 82mm mortar company: it spots for itself, and {spotter} cannot spot for it"
        return None
    if bat.unit and rules.specs[bat.unit].type == "soviet 120mm mortar company":
        regiment = bat.unit.split(":")[0]
        if spotter == bat.unit or (spec.type == "soviet mortar forward observer" and spotter.split(":")[0] == regiment):
            return None                                              # BW 2.3d: its own regiment's mortar FO
        return "BW 2.3d", f"{bat.id} is {regiment}'s 120mm mortar company: only itself or {regiment}'s mortar FO spots for it"
    if spec.type == "soviet mortar forward observer":
        return "BW 2.3d", f"{spotter} is a mortar FO: it spots only for its regiment's 120mm mortars"
    if not spec.fo:
        return "BW 2.3d", f"{bat.id} is Soviet artillery: only an artillery FO spots for it, not {spotter}"
    regiment = bat.id.split("-")[0]
    div = BATTERY_DIVISION.get(regiment) or (rules.bw_at289 if regiment == AT289 else "")
    if div and spec.formation != div:
        what = "divisional artillery" if regiment != AT289 else "assigned the 289 AT Regiment before play"
        return "BW 2.3a", f"{bat.id} is {div}'s {what}: only {div}'s FOs spot for it, not {spotter}"
    return None


BATTERY_DIVISION = {"162": "43", "343": "63Gd", "9": "72"}          # BW 2.3: divisional artillery regiments
# BW 2.3 (the Soviet artillery table): 2-162-43 and 3-162-43 are no longer in play as of 0500 Feb 11
WITHDRAWN = {"162-2": "0500 11 Feb", "162-3": "0500 11 Feb"}
# BW 2.3a: the 289 AT Regiment serves one division, assigned before play: the scenario's ``at289_division`` (its
# writer's default: the 63 Guards, whose assault on Krasni Bor is the main effort, or the only division in play),
# or the variant "289-<division>" chosen in the new game
AT289, AT289_DEFAULT = "289", "63Gd"


def at289_division(rules) -> str:
    """BW 2.3a: the division the 289 AT Regiment serves in this game (a variant chosen before play wins)."""
    chosen = [v[4:] for v in rules.options.get("variants", []) if v.startswith("289-")]
    if len(chosen) > 1:
        raise BadFile([Problem(rules.scenario.path, "options.variants",
                               f"the 289 AT Regiment serves one division (BW 2.3a), not {' and '.join(chosen)}")])
    div = chosen[0] if chosen else rules.options.get("at289_division") or AT289_DEFAULT
    if div not in SOVIET_DIVISIONS:
        raise BadFile([Problem(rules.scenario.path, "options.at289_division",
                               f"{div!r} is not a Soviet division (expected one of {', '.join(SOVIET_DIVISIONS)}, "
                               f"BW 2.3a)")])
    return div
FOS_NEVER_KILLED = True                                           # BW 2.3e: no AFT step loss on an FO


def faux_trp_hexes(board) -> frozenset:
    """BW 3.2d: Building and City hexes, road junctions (roads leaving by three hexsides or more), trench and El
    Bastion hexes, wire hexes and the FW-190 crash hex."""
    from ....maps.hexes import hexside
    out = set()
    roads = board.links.get("road", set()) | board.links.get("highway", set())
    for h in board.hexes():
        fs = board.features_of(h)
        if board.terrain_of(h) in ("city", "building") or {"trench", "wire", "el bastion", "fw-190 crash"} & set(fs):
            out.add(h)
        elif sum(hexside(h, n) in roads for n in board.neighbors(h)) >= 3:
            out.add(h)
    return frozenset(out)


def faux_trps(rules, st, side: str, spotter_hex, target, nearest: int) -> list:
    """BW 3.2d: for an Axis mission, the Faux TRPs nearer the target than the spotter (or a TRP) that the spotter
    sees: the distance on the Adjustment Table is measured from the nearest of them."""
    from ....maps.hexes import hex_distance
    if side != "axis":
        return []
    cands = [h for h in rules.bw_faux if hex_distance(h, target) < nearest]
    if not cands:
        return []
    far = max(hex_distance(spotter_hex, h) for h in cands)
    return sorted(rules.sight.visible_from(st, spotter_hex, cands, far))


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


# ---------------------------------------------------------------- BW 1.10b, 2.4: the Soviet player's own Log

OWN_LOG = "own-prep-log"        # the variant: the Soviet player fills the Log (without 4.3's historical entries)


def own_log(rules) -> bool:
    return OWN_LOG in rules.options.get("variants", []) and rules.bw_prep is not None


def encode_log(rules, log) -> str:
    """A Log as the ``preplog`` action's text: the scenario's turns in order, each its battalions' hexes."""
    bats = [b for b, _c in rules.bw_prep.battalions]
    return "/".join(",".join(log.target(t, b) or "-" for b in bats) for t in rules.bw_prep.turns)


def decode_log(rules, text: str):
    """The Log a ``preplog`` text gives (IllegalAction citing BW 2.4 if it is not one Log of this scenario)."""
    cache = rules.__dict__.setdefault("_own_logs", {})
    if text in cache:
        return cache[text]
    base = rules.bw_prep
    bats, turns = [b for b, _c in base.battalions], list(base.turns)
    rows = text.split("/")
    if len(rows) != len(turns) or any(len(r.split(",")) != len(bats) for r in rows):
        raise IllegalAction("BW 2.4", f"a Prep Log here has {len(turns)} turns of {len(bats)} battalions each "
                                      f"({', '.join(bats)})")
    log = replace(base, turns={})
    for t, row in zip(turns, rows):
        log = replace(log, turns={**log.turns, t: ()})
        for b, hid in zip(bats, row.split(",")):
            if hid != "-":
                log = log.with_target(t, b, hid)
    cache[text] = log
    return log


def prep_log(rules, st):
    """The Log this game fires: the scenario's (historical, 4.3) or the one the Soviet player wrote."""
    if not own_log(rules):
        return rules.bw_prep
    text = st.marks.get("prep log")
    return decode_log(rules, text) if text else None


def before_play(rules, st, action, events) -> bool:
    """BW 1.10b: with the own-Log variant the Soviet player writes the Log before the Axis sets up, so before any
    other action; it cannot be changed afterwards (2.4).  True when ``action`` was the Log."""
    from .. import actions as A
    if not own_log(rules):
        return False
    written = "prep log" in st.marks
    if isinstance(action, A.PrepLog):
        if written:
            raise IllegalAction("BW 2.4", "the Preparatory Barrage Log is written; it cannot be changed")
        bad = decode_log(rules, action.targets).problems(rules.board)
        if bad:
            raise IllegalAction("BW 2.4", bad[0])
        st.marks["prep log"] = action.targets
        events.append(Event("preplog", "the Soviet Preparatory Barrage Log is written (BW 1.10b)",
                            {"log": action.targets}))
        return True
    if not written:
        raise IllegalAction("BW 1.10b", "the Soviet player fills the Preparatory Barrage Log before the Axis sets "
                                        "up and play begins")
    return False


def before_play_offers(rules, st) -> list:
    """BW 1.10b: while the own Log is unwritten it is the only action; offered with the historical targets."""
    from .. import actions as A
    if own_log(rules) and "prep log" not in st.marks:
        return [A.PrepLog(encode_log(rules, rules.bw_prep))]
    return []


def prep_fire(rules, st, ctx) -> None:
    """BW 2.4: fire this turn's Prep Log missions one after another."""
    from ..procs import area_attack, scatter, zone_of
    from ..state import Barrage
    log = prep_log(rules, st)
    label = rules.turns[st.turn].label
    # BW 2.4e: the previous turn's Prep barrage markers come off first
    st.markers = [m for m in st.markers if not m.battery.startswith("prep ")]
    cfg = log.settings
    for bat, hid in log.turns.get(label, ()):
        h = rules.board.parse_hex(hid)
        why = f"{bat}'s Prep mission on {hid}"
        die = ctx.roll(f"Good or Bad Shoot of {why} (BW 2.4d)")
        shoot = log.shoot(die)                                  # BW 2.4d: no spotter, no Adjustment Table
        katyusha = log.calibre(bat) == "katyusha"
        ctx.events.append(Event("prep", f"{why}: {die}, {shoot.title()} Shoot (BW 2.4d)",
                                {"battalion": bat, "hex": hid, "shoot": shoot}))
        if katyusha:
            if shoot == "bad" and cfg.get("katyusha_scatters", True):     # BW 2.4g: Katyushas scatter normally
                h = scatter(rules, st, ctx, h, why)
                if h is None:
                    continue
            zone = [x for x in hex_range(h, int(cfg["katyusha_radius"])) if x in rules.board]
            fp = int(cfg["katyusha_firepower"])                 # BW 2.4g: strength 6 over an 11-hex zone
        else:                                                   # BW 2.4d: always lands on the plotted hex
            zone = zone_of(rules, h, "battalion")
            base = int(ctx.cell("tcs.barrage_values", (log.calibre(bat), "battalion"),
                                purpose=f"{log.calibre(bat)} battalion of the Prep (doubled, BW 2.4a)"))
            fp = base * int(cfg["prep_multiplier"])             # BW 2.4a: double the Barrage Values Chart
        mid = f"M{st.next_id}"
        st.next_id += 1
        st.markers.append(Barrage(mid, "soviet", "he", h, zone, "prep " + bat))
        ctx.events.append(Event("barrage", f"{mid}: {bat} Prep barrage on {rules.hid(h)}, strength {fp} "
                                           f"(BW 2.4a/g; no ammunition spent, 2.4b)", {"hex": rules.hid(h)}))
        for x in zone:
            area_attack(rules, st, ctx, fp, x, f"{bat} (Prep)")
    st.marks["prep " + label] = "fired"


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


def implement_units(rules, st, ctx, s) -> None:
    """BW 2.1e: an implementation roll made in play starts one battalion of a Soviet sheet (the Soviet player's
    choice); the sheet is fully implemented when its last battalion starts."""
    def start(units):
        for u in units:
            st.units[u].sheet = s.id
    if s.side != "soviet":
        s.implemented = True
        start(s.units)
        return
    bns = sorted({rules.specs[u].battalion for u in s.units if rules.specs[u].battalion})
    begun = [b for b in bns if st.marks.get(f"started {s.id} {b}")]
    waiting = [b for b in bns if b not in begun]
    if not begun:                                       # the regimental and divisional units go with the first
        start([u for u in s.units if not rules.specs[u].battalion])
    if len(waiting) <= 1:
        s.implemented = True
        start(s.units)
        st.marks.pop("started " + s.id, None)
        ctx.events.append(Event("implement", f"{s.id} is fully implemented (BW 2.1e)"))
        return
    bn = ctx.choose("battalion", "soviet", waiting, f"{s.id} implements: which battalion starts (BW 2.1e)?")
    st.marks[f"started {s.id} {bn}"] = "yes"
    st.marks["started " + s.id] = "yes"
    start([u for u in s.units if rules.specs[u].battalion == bn])
    ctx.events.append(Event("implement", f"{s.id}: battalion {bn} starts alone ({len(waiting) - 1} to follow, BW 2.1e)"))


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


# ---------------------------------------------------------------- BW 3.1b, 4.1 German cooperation

SOVIET_DIVISIONS = ("63Gd", "43", "72")                  # BW 2.1b: the divisions' sheets
SOVIET_ARMOUR = "armour"                                 # BW 2.1c: 1 Independent Tank Bn, 1 Red Banner Tank Bde
GUARDS, GUARDS_RATING, MIXED_RATING = "63Gd", 5, 7        # BW 2.1d


def formations_mix(rules, uid: str, formation: str) -> bool:
    """BW 2.1b: a Soviet sheet may carry more than one division; 2.1c: the armour may be on any divisional sheet
    (or on its own, which carries armour alone); 3.1b: the 2 SS Brigade's AT guns may be on German or Spanish
    sheets; 4.1a (variant): German and Spanish units may share sheets."""
    own = rules.specs[uid].formation
    if formation in SOVIET_DIVISIONS and own in SOVIET_DIVISIONS + (SOVIET_ARMOUR,):
        return True
    axis = {"spanish", "german"}
    if own not in axis or formation not in axis:
        return False
    return rules.specs[uid].type.startswith("ss ") or "4.1" in rules.options.get("variants", [])


def sheet_formations(rules, s) -> set[str]:
    """BW 2.1b: every division (and 2.1c the armour) with units on a sheet counts that sheet against its limits
    (TCS 6.7b), so a division is never split over two implemented sheets, mixed or not."""
    return {s.formation} | {rules.specs[u].formation for u in s.units if rules.specs[u].formation}


def sheet_rating(rules, s, prep: int) -> int:
    """BW 2.1d: the 63 Guards' own sheet rates 5; a mixed sheet holding the 63 Guards and other units rates 7."""
    forms = sheet_formations(rules, s)
    if s.side == "soviet" and GUARDS in forms and len(forms) > 1:
        return MIXED_RATING
    return prep


def _merge_axis_pools(rules) -> None:
    """BW 4.1d: the German batteries fire from the Spanish pools of their calibre (``105mm de`` -> ``105mm``)."""
    from dataclasses import replace
    sc = rules.scenario
    for bid, b in list(rules.batteries.items()):
        if b.calibre.endswith(" de"):
            rules.batteries[bid] = replace(b, calibre=b.calibre[:-3])
    merged: dict = {}
    for (side, cal, kind), n in sc.ammo.items():
        key = (side, cal[:-3] if cal.endswith(" de") else cal, kind)
        merged[key] = merged.get(key, 0) + n
    sc.ammo.clear()
    sc.ammo.update(merged)
    sc.ammo_arrivals[:] = [(c, side, cal[:-3] if cal.endswith(" de") else cal, k, n)
                           for c, side, cal, k, n in sc.ammo_arrivals]


# ---------------------------------------------------------------- BW 4.7 Dora

DORA_FROM, DORA_FIREPOWER = "0600 10 Feb", 151


def _dora(rules) -> bool:
    return "4.7" in rules.options.get("variants", [])


def _next_hour(rules, st) -> str:
    """The label of the next full-hour turn after this one, or ""."""
    for t in rules.turns[st.turn + 1:]:
        if t.full_hour:
            return t.label
    return ""


def check_plot(rules, st, side: str) -> str:
    """BW 4.7: the Axis plots on a full-hour turn (0600 10 Feb or later) for the next hour turn, once; returns it."""
    from .. clock import parse_clock
    t = rules.turns[st.turn]
    if not _dora(rules) or side != "axis":
        raise IllegalAction("BW 4.7", "only the Axis plots Dora's fire, and only with the 4.7 variant")
    if not t.full_hour or t.when < parse_clock(DORA_FROM, rules.scenario.year):
        raise IllegalAction("BW 4.7", f"Dora's fire is plotted on hour turns from {DORA_FROM} ({t.label} is not one)")
    nxt = _next_hour(rules, st)
    if not nxt:
        raise IllegalAction("BW 4.7", "no hour turn is left for Dora to fire on")
    if st.marks.get("dora " + nxt):
        raise IllegalAction("BW 4.7", f"Dora's fire for {nxt} is plotted already and cannot be changed")
    return nxt


def plot(rules, st, h, side: str, events) -> None:
    nxt = check_plot(rules, st, side)
    st.marks["dora " + nxt] = rules.hid(h)
    events.append(Event("plot", f"Dora plotted on {rules.hid(h)} for {nxt} (BW 4.7)"))


def plot_offers(rules, st, side: str) -> list:
    from .. import actions as A
    try:
        check_plot(rules, st, side)
    except IllegalAction:
        return []
    return [A.Plot(rules.hid(h)) for h in sorted({u.hex for k, u in st.units.items()
                                                   if u.hex is not None and rules.specs[k].side != side})]


def dora_fire(rules, st, ctx) -> None:
    """BW 4.7: no adjustment: the target scatters one die minus one hexes in the diagram's direction; the hex it
    lands on (only that hex) takes one 151-firepower attack, then a regular smoke marker."""
    from ..procs import DIRECTIONS, area_attack
    from ..state import Barrage
    from ....maps.hexes import hex_neighbor
    label = rules.turns[st.turn].label
    h = rules.board.parse_hex(st.marks["dora " + label])
    rd = ctx.roll_dice("1d6", "Dora's scatter direction")
    direction = ctx.cell("tcs.scatter_direction", (rd,), purpose="Dora's scatter (BW 4.7)")
    n = int(ctx.roll("Dora's scatter distance")) - 1
    for _ in range(n):
        h = hex_neighbor(h, DIRECTIONS[direction])
    st.marks["dora fired " + label] = rules.hid(h) if h in rules.board else "off the map"
    if h not in rules.board:
        ctx.events.append(Event("dora", f"Dora's shell scatters {n} {direction} off the map (BW 4.7)"))
        return
    ctx.events.append(Event("dora", f"Dora's shell lands {n} hexes {direction} on {rules.hid(h)} (BW 4.7)"))
    area_attack(rules, st, ctx, DORA_FIREPOWER, h, "Dora (BW 4.7)")
    mid = f"M{st.next_id}"
    st.next_id += 1
    st.markers.append(Barrage(mid, "axis", "smoke", h, [h], "Dora", False, rules.options["smoke_level"]))


# ---------------------------------------------------------------- BW 1.9 / 4.1c: air power

AIR_SIDES = {"German": "axis", "Soviet": "soviet"}      # BW 1.9: the Air Sortie Table's results name the side


def air_result(rules, st, ctx) -> tuple[str, int]:
    """BW 1.9: once each Day turn whose weather is Clear the Soviet player rolls 11..66 on the Air Sortie Table;
    the printed result (a chart prompt: side and count) is read once a turn and kept in the state.  BW 4.1c
    (variant): German sorties doubled, Soviet sorties halved, rounding down (the book leaves the rounding open;
    our choice: half of one sortie is none)."""
    label = rules.turns[st.turn].kind, rules.turns[st.turn].label
    key = "air " + label[1]
    if key not in st.marks:
        if label[0] != "day" or st.weather != "clear":
            st.marks[key] = "none"
            ctx.events.append(Event("sorties", f"no sorties: {label[0]} turn, {st.weather} (BW 1.9)"))
        else:
            from ....charts import Step
            roll = ctx.roll_dice("d66", "the Air Sortie Table (BW 1.9)")
            res = str(ctx.cell("bw.air_sortie", (roll,), (Step(f"roll {roll}"),), "whose sorties and how many"))
            if res != "none":
                who, n = res.split()
                n = int(n)
                if "4.1" in rules.options.get("variants", []):           # BW 4.1c
                    n = n * 2 if who == "German" else n // 2
                res = f"{AIR_SIDES[who]} {n}" if n else "none"
            st.marks[key] = res
            ctx.events.append(Event("sorties", f"Air Sortie Table {roll}: {res} (BW 1.9)", {"roll": roll, "result": res}))
    res = st.marks[key]
    if res == "none":
        return "", 0
    who, n = res.split()
    return who, int(n)


def sortie_roll(rules, st, ctx, side: str) -> None:
    """BW 1.9: the phasing side's sorties are the turn's Air Sortie result if it names that side (and the
    scenario gives that side's sortie counter type in ``[[air]]``); sorties are used at once, never saved."""
    st.sorties = 0
    if not rules.scenario.air:
        return
    who, n = air_result(rules, st, ctx)
    if who == side and any(a.side == side for a in rules.scenario.air):
        st.sorties = n
        ctx.events.append(Event("sorties", f"{side}: {n} sorties available", {"side": side, "sorties": n}))


# ---------------------------------------------------------------- BW 3.5 / 4.1b: the German table's modified row

LATE_CLOCK = "0100 11 Feb"                               # BW 3.5 / 4.1b: the table's own modifier applies from here


def _at_or_after(rules, st, label: str) -> bool:
    return any(t.label == label for t in rules.turns[:st.turn + 1])


def release_row(rules, st, ctx, r, roll: str, steps: tuple) -> tuple[str, tuple]:
    """BW 3.5: the German Variable Reinforcement Table's roll takes the table's printed modifier on or after
    0100 11 Feb (asked once: a chart prompt), and BW 4.1b (variant) adds +2 more; rows above 12 are asked
    from the printed table like any other row.  Other tables are read on the plain roll."""
    if r.table != "bw.german_reinforcements":
        return roll, steps
    from ....charts import Step
    total, steps = int(roll), tuple(steps)
    if _at_or_after(rules, st, LATE_CLOCK):
        m = int(ctx.cell("bw.german_reinforcement_modifier", (LATE_CLOCK,), (), "the table's late modifier"))
        total += m
        steps += (Step(f"{m:+d} on or after {LATE_CLOCK}", "BW 3.5"),)
    if "4.1" in rules.options.get("variants", []):
        total += 2
        steps += (Step("+2 German Cooperation", "BW 4.1b"),)
    return str(max(2, min(20, total))), steps


# ---------------------------------------------------------------- BW 3.5 / 3.5a: what a German result releases

BATTERY_ROUNDS = {"he": 20, "smoke": 4, "illum": 1}      # BW 3.5a: added with each released battery
FIRST_BATTERIES = "I-215"                                # BW 3.5 note: I-215's batteries before 9-III-215 or 850's


def _battery_of(rules, group_id: str):
    return next((b for b in rules.batteries.values() if b.release == group_id), None)


def release_pick(rules, st, ctx, res: str, waiting: list) -> list:
    """BW 3.5: the German table's result is the Axis player's choice: A is one company or one battery, B one
    armour company, KG III Flak, two infantry companies or two batteries; every battery of I-215 comes before
    9-III-215 or any of 850 Bn's (note).  Other tables release their first waiting group."""
    if not waiting or waiting[0].table != "bw.german_reinforcements":
        return [x for x in waiting if x.result == res][:1]
    if res not in ("A", "B"):
        return []
    bats = [x for x in waiting if _battery_of(rules, x.id) is not None]
    if any(_battery_of(rules, x.id).id.startswith(FIRST_BATTERIES) for x in bats):
        bats = [x for x in bats if _battery_of(rules, x.id).id.startswith(FIRST_BATTERIES)]
    companies = [x for x in waiting if x.result == "A" and _battery_of(rules, x.id) is None]
    if res == "A":
        options = {x.id: [x] for x in companies + bats}
    else:
        options = {x.id: [x] for x in waiting if x.result == "B"}
        if len(companies) >= 2:
            options["+".join(x.id for x in companies[:2])] = companies[:2]
        rest = [x for x in waiting if _battery_of(rules, x.id) is not None]
        pair = bats[:2] if len(bats) >= 2 else (bats + [x for x in rest if x not in bats])[:2]
        if len(pair) == 2:
            options["+".join(x.id for x in pair)] = pair
    if not options:
        return []
    pick = ctx.choose("german_reinforcement", "axis", list(options),
                      f"German Variable Reinforcements: result {res} releases (BW 3.5)")
    return options[pick]


def on_release(rules, st, ctx, group) -> None:
    """BW 3.5a: a released battery brings 20 HE, 4 Smoke and 1 Illum of its calibre to the German pool."""
    bat = _battery_of(rules, group.id)
    if bat is None:
        return
    for kind, n in BATTERY_ROUNDS.items():
        key = f"{bat.side}|{bat.calibre}|{kind}"
        st.ammo[key] = st.ammo.get(key, 0) + n
    ctx.events.append(Event("ammo", f"{bat.id} brings 20 HE, 4 Smoke, 1 Illum {bat.calibre} (BW 3.5a)"))


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


# ---------------------------------------------------------------- BW 2.1f / 2.5b: looting

def looting_limit(board) -> dict[tuple[str, str], int]:
    """BW 2.1f: the map's "looting limit" line (5 hexes south of the second trench line) as (sheet, row) ->
    the southernmost first number allowed in that hex row; rows the line does not cross are not limited."""
    area = board.areas.get("looting limit")
    out: dict[tuple[str, str], int] = {}
    for h in (area.hexes if area is not None else ()):
        hid = board.hex_id(h)
        out[(hid[0], hid[4:])] = max(out.get((hid[0], hid[4:]), 0), int(hid[1:3]))
    return out


def beyond_limit(rules, h) -> bool:
    """BW 2.1f: whether a hex lies south of the looting limit in its hex row."""
    hid = rules.hid(h)
    n = rules.bw_limit.get((hid[0], hid[4:]))
    return n is not None and int(hid[1:3]) > n


def still_looting(rules, st, uid: str) -> bool:
    """BW 2.1f: a unit listed as looting stays so until a sheet it had at the start (its follow-on) implements
    for it; the at-start sheets themselves are not restricted."""
    if uid not in rules.bw_looting:
        return False
    cur = st.units[uid].sheet
    return not (cur and cur in st.sheets and st.sheets[cur].implemented
                and any(x.id == cur for x in rules.scenario.op_sheets))


def sheet_problem(rules, st, units, objective, sheet: str = "") -> tuple[str, str] | None:
    """BW 2.1f, 2.5b: a unit under the looting restriction (and its division's company units) takes no Op
    Sheet with a movement or attack objective beyond the looting limit; the non-implemented sheets the
    units have at the start are not restricted."""
    if sheet and any(x.id == sheet for x in rules.scenario.op_sheets):
        return None
    loot = [u for u in units if still_looting(rules, st, u)]
    far = [h for h in objective if beyond_limit(rules, h)]
    if loot and far:
        return "BW 2.1f", (f"{loot[0]} is under the looting restriction: no objective beyond the looting limit "
                           f"({rules.hid(far[0])} is more than 5 hexes south of the second trench line)")
    return None


def _check_looting_at_start(rules) -> None:
    """BW 2.1f: in scenarios 1-3 (option ``looting_at_start``) no Soviet sheet implemented before play has an
    objective beyond the limit; looting units set up inside it (scenarios 4-6)."""
    bad = []
    if rules.options.get("looting_at_start"):
        for i, s in enumerate(rules.scenario.op_sheets):
            far = [x for x in s.objective if beyond_limit(rules, rules.board.parse_hex(x))]
            if s.implemented and far and s.side == "soviet":          # a Soviet rule (2.0)
                bad.append(Problem(rules.scenario.path, f"op_sheets[{i}].objective",
                                   f"{far[0]} is beyond the looting limit: a sheet implemented before play "
                                   f"keeps its objectives within 5 hexes south of the second trench line (BW 2.1f)"))
    for u in rules.scenario.units:
        if u.id in rules.bw_looting and u.hex and u.hex not in rules.board.boxes and not (u.enters or u.release) \
                and beyond_limit(rules, rules.board.parse_hex(u.hex)):
            bad.append(Problem(rules.scenario.path, f"units.{u.id}.hex",
                               f"{u.id} is under the looting restriction and sets up beyond the limit (BW 2.1f)"))
    if bad:
        raise BadFile(bad)


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


# ---------------------------------------------------------------- BW 1.10k: sheets drawn before play

BEFORE_PLAY_WEIGHTED = 15                                 # BW 1.10k


def drawn_before_play(rules, st) -> int:
    """BW 1.10k: a non-implemented sheet drawn before play begins starts with 15 weighted turns.  The engine's
    first chance to draw a sheet is the first turn's Command Phase, before any unit has moved or fired: a
    sheet drawn there counts as drawn before play (our reading); later sheets start at 0."""
    return BEFORE_PLAY_WEIGHTED if st.turn == 0 and rules.current(st)[0] == "command" else 0


# ---------------------------------------------------------------- BW 3.2: Axis batteries fire together as a battalion

AXIS_BATTALIONS = {            # BW 3.2: the Axis artillery battalions and their batteries (III-215 has one only)
    "I-250": ("Bty1", "Bty2", "Bty3"), "III-250": ("Bty7", "Bty8", "Bty9"), "IV-250": ("Bty10", "Bty11", "Bty12"),
    "I-215": ("I-215-1", "I-215-2", "I-215-3"), "850": ("850-1", "850-2", "850-3"),
}


def _fired(st, bid: str) -> bool:
    return bid in st.batteries_used or any(m.battery == bid for m in st.markers if m.continuous)


def battalion_problem(rules, st, bat) -> tuple[str, str] | None:
    """BW 3.2: Axis artillery fires as batteries or as battalions, never both in one turn: a battalion fires
    (as one battalion mission) only with every one of its batteries available and none of them firing this
    turn; a battery does not fire in a turn its battalion does."""
    members = AXIS_BATTALIONS.get(bat.id)
    if members is not None:
        for m in members:
            b = rules.batteries.get(m)
            if b is None or (b.release and b.release not in st.released):
                return "BW 3.2", f"{bat.id} fires as a battalion only with all its batteries: {m} is not available"
            if _fired(st, m):
                return "BW 3.2", f"{m} fires as a battery this turn, so {bat.id} cannot fire as a battalion"
        return None
    for bn, ms in AXIS_BATTALIONS.items():
        if bat.id in ms and _fired(st, bn):
            return "BW 3.2", f"{bn} fires as a battalion this turn, so its battery {bat.id} cannot fire alone"
    return None


# ---------------------------------------------------------------- BW 1.11b: tanks as carriers

@dataclass(frozen=True)
class Mount:
    """BW 1.11b: an Axis unit climbs onto an Axis tank in its hex and rides it: ``mount RIDER TANK``."""

    unit: str
    carrier: str

    def text(self) -> str:
        return f"mount {self.unit} {self.carrier}"

    def words(self, rules, st) -> str:
        return f"{self.unit}: ride on {self.carrier} (BW 1.11b: tanks as carriers)"

    def to_dict(self) -> dict:
        return {"kind": "mount", **asdict(self)}


@dataclass(frozen=True)
class Dismount:
    """BW 1.11b: a unit riding a tank gets off in the tank's hex: ``dismount RIDER``."""

    unit: str

    def text(self) -> str:
        return f"dismount {self.unit}"

    def words(self, rules, st) -> str:
        return f"{self.unit}: get off {carrier_of(rules, st, self.unit) or 'the tank'} here (BW 1.11b)"

    def to_dict(self) -> dict:
        return {"kind": "dismount", **asdict(self)}


CARRY_RULE = "BW 1.11b"


def parse_action(text: str):
    """BW 1.11b's actions (``mount RIDER TANK``, ``dismount RIDER``), or None for the series' own."""
    w = text.split()
    if len(w) == 3 and w[0] == "mount":
        return Mount(w[1], w[2])
    if len(w) == 2 and w[0] == "dismount":
        return Dismount(w[1])
    return None


def carrier_of(rules, st, uid: str) -> str:
    """The tank ``uid`` rides on ("" for none): it rides while both are in one hex in Move mode (a tank that
    changes to Fire mode, or a rider that does, has put its rider off: our reading of the series' carriers)."""
    c = st.marks.get("riding " + uid, "")
    if not c:
        return ""
    u, t = st.units[uid], st.units[c]
    if u.hex is None or t.hex != u.hex or u.mode != "move" or t.mode != "move":
        return ""
    return c


def rider_of(rules, st, carrier: str) -> str:
    """The unit riding on ``carrier`` ("" for none)."""
    for k, v in st.marks.items():
        if v == carrier and k.startswith("riding ") and carrier_of(rules, st, k[7:]) == carrier:
            return k[7:]
    return ""


def check_mount(rules, st, a: Mount, side: str) -> None:
    """BW 1.11b: Axis units only (the Soviets never: TCS 25.1e); one non-vehicle unit that is not a towed gun
    (1.11a), in Move mode, with orders, not paralyzed and not yet moved this phase, climbs onto an Axis tank in
    its hex in Move mode that carries no one (one rider a tank: our choice, the series' capacity is not in our
    documents)."""
    if side == "soviet":
        raise IllegalAction(CARRY_RULE, "the Soviets cannot use tanks as carriers (TCS 25.1e)")
    u, t = rules._own(st, a.unit, side), rules._own(st, a.carrier, side)
    ru, rt = rules.specs[a.unit], rules.specs[a.carrier]
    if ru.vehicle or transported(rules, a.unit) or ru.fo:
        raise IllegalAction(CARRY_RULE, f"{a.unit} is not a unit that rides on a tank (vehicles and towed guns do not)")
    if not rt.vehicle:
        raise IllegalAction(CARRY_RULE, f"{a.carrier} is not a tank")
    if t.hex != u.hex:
        raise IllegalAction(CARRY_RULE, f"{a.unit} climbs onto a tank in its own hex, and {a.carrier} is not there")
    if u.mode != "move" or t.mode != "move":
        raise IllegalAction(CARRY_RULE, f"{a.unit} and {a.carrier} must both be in Move mode")
    if u.morale_state == "paralyzed" or t.morale_state == "paralyzed":
        raise IllegalAction("TCS 13.0", "a paralyzed unit neither rides nor carries")
    if u.moved or u.fired:
        raise IllegalAction(CARRY_RULE, f"{a.unit} has moved or fired this phase: it climbs on before it moves")
    if not rules.has_orders(st, a.unit):
        raise IllegalAction("TCS 6.0", f"{a.unit} has no implemented Op Sheet to carry out")
    if carrier_of(rules, st, a.unit):
        raise IllegalAction(CARRY_RULE, f"{a.unit} already rides on {carrier_of(rules, st, a.unit)}")
    if rider_of(rules, st, a.carrier) or carrier_of(rules, st, a.carrier):
        raise IllegalAction(CARRY_RULE, f"{a.carrier} already carries a unit")


def check_dismount(rules, st, a: Dismount, side: str) -> None:
    rules._own(st, a.unit, side)
    if not carrier_of(rules, st, a.unit):
        raise IllegalAction(CARRY_RULE, f"{a.unit} is not riding on a tank")


def act(rules, st, action, side: str, step: str, events: list) -> bool:
    """BW 1.11b's actions in the side's Action Phase; False for any other action (the series plays it).
    Climbing on spends the rider's movement (it moves only with its tank, for no MPs of its own); getting off
    ends its movement for the phase (our choices: the series' loading costs are not in our documents)."""
    if not isinstance(action, (Mount, Dismount)):
        return False
    if step != "action":
        raise IllegalAction(CARRY_RULE, f"{action.text()!r} is made in the side's own Action Phase")
    u = st.units[action.unit]
    if isinstance(action, Mount):
        check_mount(rules, st, action, side)
        st.marks["riding " + action.unit] = action.carrier
        events.append(Event("carry", f"{action.unit} rides on {action.carrier} (BW 1.11b)",
                            {"unit": action.unit, "carrier": action.carrier}))
    else:
        check_dismount(rules, st, action, side)
        carrier = st.marks.pop("riding " + action.unit)
        events.append(Event("carry", f"{action.unit} gets off {carrier} at {rules.hid(u.hex)} (BW 1.11b)",
                            {"unit": action.unit, "carrier": carrier}))
    u.moved = True
    u.mp_used = max(u.mp_used, rules.ma(st, action.unit))
    return True


def action_offers(rules, st, side: str, own: list) -> list:
    """BW 1.11b in the legal actions: each Axis unit that may climb onto a tank in its hex, and each rider."""
    if side == "soviet":
        return []
    out = []
    for uid in own:
        if carrier_of(rules, st, uid):
            out.append(Dismount(uid))
            continue
        spec, u = rules.specs[uid], st.units[uid]
        if spec.vehicle or u.mode != "move" or u.moved:
            continue
        for k in rules.units_at(st, u.hex):
            if k != uid and rules.specs[k].vehicle and rules.specs[k].side == side:
                a = Mount(uid, k)
                try:
                    check_mount(rules, st, a, side)
                except IllegalAction:
                    continue
                out.append(a)
    return out


def carry_problem(rules, st, uid: str, to) -> tuple[str, str] | None:
    """BW 1.11b: a rider moves only with its tank; a tank carrying a rider enters a hex only with room for both."""
    c = carrier_of(rules, st, uid)
    if c:
        return CARRY_RULE, f"{uid} rides on {c}: it moves with the tank (get off first)"
    r = rider_of(rules, st, uid) if rules.specs[uid].vehicle else ""
    if r:
        there = [k for k in rules.units_at(st, to) if not rules.specs[k].fo and k not in (uid, r)]
        if len(there) + 2 > rules.options["stacking_units"]:
            return "TCS stacking (game data)", (f"{rules.hid(to)} has no room for {uid} and its rider {r} "
                                                f"(stacking limit {rules.options['stacking_units']})")
    return None


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
