"""The TCS procedures that roll dice or read charts: command, artillery, fire, morale, assault, clean-up.

Each is ``proc(rules, st, ctx, **args)`` and may stop for a chart result or a
decision (engine/rulesets/tcs/proc.py); rules cite their series number (TCS
v4.01 numbers from the chart booklet, or the sequence-of-play step).
"""
from __future__ import annotations

from ...charts import Step
from ...game import Event
from ...maps.hexes import Hex, hex_distance, hex_neighbor, hex_range
from .sight import counter, terrain_key
from .state import OK, PARALYZED, SUPPRESSED, Barrage

DIRECTIONS = {"N": 2, "NE": 1, "SE": 0, "S": 5, "SW": 4, "NW": 3}   # flat-top lattice directions


def _clip(v: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, v))


# ---------------------------------------------------------------- command (TCS 6)

def accrue(rules, st, ctx) -> None:
    """Command Phase step 2 (TCS 6.9d/e): 3 a turn if unassigned, 2 if assigned or at night, 1 if fired or
    fired upon; vehicle sheets count x3."""
    night = rules.turns[st.turn].kind == "night"
    for s in st.sheets.values():
        if s.implemented or s.reserve:
            continue
        held = rules.no_accrual(st, s)           # a game's exception (Leros 3.6i)
        if held:
            ctx.events.append(Event("weighted", f"{s.id}: no weighted turns ({held})", {"sheet": s.id, "added": 0}))
            continue
        units = [st.units[u] for u in s.units if st.units[u].hex is not None]
        if any(u.fired_turn for u in units):
            w, why = 1, "fired or fired upon"
        elif night or any(u.sheet and u.sheet != s.id and st.sheets.get(u.sheet) and st.sheets[u.sheet].implemented
                          for u in units):
            w, why = 2, "night" if night else "assigned"
        else:
            w, why = 3, "unassigned"
        if s.units and all(rules.specs[u].vehicle for u in s.units):
            w, why = w * 3, why + ", vehicle sheet x3 (TCS 6.9e)"
        s.weighted_turns += w
        ctx.events.append(Event("weighted", f"{s.id}: +{w} weighted turns ({why}), now {s.weighted_turns}",
                                {"sheet": s.id, "added": w}))
    for u in st.units.values():
        u.fired_turn = False


def implement(rules, st, ctx, sheet: str) -> None:
    """TCS 6.9f: column from the weighted turns, row = Command Prep + Op Sheet Size (+ staff), an 11-66 roll at
    least the entry implements."""
    s = st.sheets[sheet]
    side = rules.scenario.sides[s.side]
    col = 0
    for c in range(1, 12):
        if s.weighted_turns >= int(ctx.cell("tcs.command_prep_thresholds", (s.type, c))):
            col = c
    f = rules.scenario.formations.get(s.formation)
    prep, size, staff = side.command_prep, s.size, side.staff
    if side.staff_asked:                        # Leros 4.6: the printed Staff modifier, asked when first needed
        staff = int(ctx.cell("tcs.staff_modifier", (side.id,), purpose=f"the {side.name} Staff modifier"))
    if f is not None and f.command_prep:        # BW 2.1d, 3.1c: the formation's own rating
        prep = f.command_prep
        if f.uncoordinated:                     # BW 2.1d: no Size or Staff modifiers for Soviet sheets
            size = staff = 0
    if rules.game is not None and hasattr(rules.game, "sheet_rating"):
        prep = rules.game.sheet_rating(rules, s, prep)     # BW 2.1d: a mixed sheet with the 63 Guards rates 7
    row_raw = prep + size + staff
    row = _clip(row_raw, 1, 9)
    roll = ctx.roll_dice("d66", f"implementation of {sheet}")
    steps = (Step(f"column {col} ({s.weighted_turns} weighted turns, {s.type.replace('_', ' ')})", "TCS 6.9f"),
             Step(f"row {row} (Command Prep {prep} + size {size}" +
                  (f" + staff {staff}" if staff else "") + ")", "TCS 6.9f"),
             Step(f"roll {roll}"))
    need = ctx.cell("tcs.command_prep", (row, col), steps, f"implementing {sheet}")
    s.rolled = True
    ok = need != "-" and int(roll) >= int(need)
    if ok and rules.game is not None and hasattr(rules.game, "implement_units"):
        rules.game.implement_units(rules, st, ctx, s)      # BW 2.1e: one battalion at a time
    elif ok:
        s.implemented = True
        for u in s.units:
            st.units[u].sheet = sheet
    ctx.events.append(Event("implement", f"{sheet}: rolled {roll} against {need} on row {row} column {col}: "
                                         + ("implemented" if ok else "not implemented"),
                            {"sheet": sheet, "roll": roll, "need": need, "implemented": ok}))


def reserve_check(rules, st, ctx, sheet: str) -> None:
    """TCS 6.14d: a reserve sheet's release roll."""
    s = st.sheets[sheet]
    roll = ctx.roll_dice("1d6", f"reserve check of {sheet}")
    r = ctx.cell("tcs.reserve_check", (roll,), (Step(f"roll {roll}"),), f"the reserve check of {sheet}")
    s.rolled = True
    if r == "released":
        s.reserve, s.implemented = False, True
        for u in s.units:
            st.units[u].sheet = sheet
    ctx.events.append(Event("reserve", f"{sheet}: reserve check {roll}: {r}", {"sheet": sheet, "result": r}))


def bn_morale(rules, st, ctx) -> None:
    """Command Phase step 7 (TCS 17.1d): on full-hour turns each battalion above 0 rolls to reduce its morale."""
    for bn in sorted(st.battalions):
        m = st.battalions[bn]
        if m <= 0:
            continue
        roll = ctx.roll_dice("1d6", f"battalion morale of {bn}")
        cut = int(ctx.cell("tcs.bn_morale_reduction", (min(m, 6), roll), (Step(f"morale {m}"), Step(f"roll {roll}")),
                           f"battalion {bn}"))
        st.battalions[bn] = max(0, m - cut)
        ctx.events.append(Event("bn-morale", f"battalion {bn}: morale {m} -> {st.battalions[bn]}", {"bn": bn}))


def weather(rules, st, ctx) -> None:
    """Command Phase step 8 (TCS 7.0a; BW 1.8): the hourly weather roll on the game's table."""
    slot = rules.charts[rules.scenario.weather_table]
    dice = slot.axes[-1].dice
    roll = ctx.roll_dice(dice, "weather")
    w = ctx.cell(slot.id, (st.weather, roll), (Step(f"current {st.weather}"), Step(f"roll {roll}")), "the weather")
    if w != st.weather:
        ctx.events.append(Event("weather", f"the weather becomes {w}", {"weather": w}))
    st.weather = w


def initiative(rules, st, ctx, phase: str) -> None:
    """Who goes first (TCS sequence of play: a roll; the winner chooses first or second for the phase)."""
    a, b = rules.side_ids
    while True:
        ra, rb = ctx.roll(f"{phase} initiative ({a})"), ctx.roll(f"{phase} initiative ({b})")
        if ra != rb:
            break
    winner = a if ra > rb else b
    first = ctx.choose("initiative", winner, [a, b], f"{winner} won the {phase} initiative: who goes first?")
    st.order = [first, b if first == a else a]
    ctx.events.append(Event("initiative", f"{phase}: {first} goes first", {"first": first}))


# ---------------------------------------------------------------- fire and morale (TCS 8, 9, 13)

def fire_shifts(rules, st, ctx, h: Hex, extra: list[tuple[int, Step]], features: bool = True,
                cls: str = "") -> tuple[int, list[Step]]:
    """Column shifts against a target hex: its combat class and the game's features (BW 1.3a trench, ...); an
    assault's attackers never get the features' shifts (BW 1.3a, 1.6: only the defender).  ``cls`` overrides
    the terrain's combat class (BW 1.3b: vehicles in a trench hex are in Open terrain)."""
    cls = cls or ctx.cell("tcs.terrain.combat", (terrain_key(rules.board, h),), purpose=f"the terrain of {rules.hid(h)}")
    sh = int(ctx.cell("tcs.terrain.fire_shift", (cls,), purpose=f"{cls} targets"))
    steps = [Step(f"{sh:+d} {cls} target", "TCS 8.0")] if sh else []
    total = sh
    feats = rules.board.features_of(h) if features else ()
    for f in rules.scenario.fire_shifts:
        if f.feature in feats:
            total += f.shift
            steps.append(Step(f"{f.shift:+d} {f.feature}", f.rule))
    if rules.game is not None and hasattr(rules.game, "target_shifts"):      # BW 2.6: mounted cavalry
        extra = list(extra) + rules.game.target_shifts(rules, st, h)
    for shift, step in extra:
        total += shift
        steps.append(step)
    return total, steps


def area_attack(rules, st, ctx, firepower: int, h: Hex, who: str, extra: list[tuple[int, Step]] = (), sfa: bool = False,
                assault: bool = False, features: bool = True) -> None:
    """One roll on the Area Fire Table against every unit in a hex (TCS 8.0); a game may split the hex's units
    into groups read on different terms, each with its own roll (BW 1.3b: vehicles in a trench hex)."""
    targets = [k for k, u in st.units.items() if u.hex == h]
    if not targets or firepower <= 0:
        return
    if rules.game is not None and hasattr(rules.game, "area_groups"):
        groups = rules.game.area_groups(rules, st, h, targets, features)
    else:
        groups = [(targets, "", features)]
    for group, cls, feats in groups:
        _area_roll(rules, st, ctx, firepower, h, who, group, cls, feats, extra, sfa, assault)


def _area_roll(rules, st, ctx, firepower: int, h: Hex, who: str, targets: list, cls: str, features: bool,
               extra, sfa: bool, assault: bool) -> None:
    base = int(ctx.cell("tcs.area_fire_column", (firepower,), purpose=f"{who}: firepower {firepower}"))
    shift, steps = fire_shifts(rules, st, ctx, h, list(extra), features, cls)
    col = _clip(base + shift, 1, 20)
    roll = ctx.roll_dice("2d6", f"area fire by {who} at {rules.hid(h)}")
    work = (Step(f"column {base} (firepower {firepower})", "TCS 8.0"), *steps, Step(f"roll {roll}"))
    res = ctx.cell("tcs.area_fire", (col, roll), work, f"{'SFA' if sfa else 'fire'} by {who} at {rules.hid(h)}")
    ctx.events.append(Event("fire", f"{who} at {rules.hid(h)}: column {col}, roll {roll}: {res}",
                            {"hex": rules.hid(h), "column": col, "roll": roll, "result": res}))
    for k in targets:
        st.units[k].fired_turn = True
    if res == "-":
        return
    for k in targets:
        if st.units[k].hex is None:
            continue
        if res not in ("M",) and not sfa:
            if rules.specs[k].fo and rules.game is not None and getattr(rules.game, "FOS_NEVER_KILLED", False):
                ctx.events.append(Event("step", f"{k} is an FO: no step loss from the Area Fire Table (BW 2.3e)"))
            else:
                lose_steps(rules, st, ctx, k, int(res))
        if st.units[k].hex is not None:
            morale_check(rules, st, ctx, k, sfa=sfa, assault=assault, fire_from=None)


def lose_steps(rules, st, ctx, uid: str, n: int) -> None:
    """Step losses (TCS 10.0): a unit with no steps left is eliminated; its battalion's losses drive Bn morale."""
    u = st.units[uid]
    steps = int(ctx.cell("tcs.counter.steps", (rules.specs[uid].type,), purpose=f"{uid}'s steps"))
    u.steps_lost = min(steps, u.steps_lost + n)
    ctx.events.append(Event("step", f"{uid} loses {n} step{'s' if n > 1 else ''} ({u.steps_lost} of {steps} lost)",
                            {"unit": uid, "steps": n}))
    bn = rules.specs[uid].battalion
    if bn:
        per = rules.options["bn_morale_step_losses"]
        before = st.bn_losses.get(bn, 0)
        st.bn_losses[bn] = before + n
        rise = (before + n) // per - before // per
        if rise:
            st.battalions[bn] = min(rules.options["bn_morale_max"], st.battalions.get(bn, 0) + rise)
            ctx.events.append(Event("bn-morale", f"battalion {bn} morale rises to {st.battalions[bn]} "
                                                 f"({st.bn_losses[bn]} steps lost)", {"bn": bn}))
    if u.steps_lost >= steps:
        eliminate(rules, st, uid, ctx.events, "its last step is lost")


def eliminate(rules, st, uid: str, events: list, why: str) -> None:
    u = st.units[uid]
    u.hex = None
    events.append(Event("eliminated", f"{uid} is eliminated: {why}", {"unit": uid}))


def morale_check(rules, st, ctx, uid: str, sfa: bool = False, assault: bool = False, fire_from=None) -> str:
    """TCS 13.0: column = morale + steps lost + battalion morale (3.1), doubled in assault unless assault-trained
    (BW 1.12, Leros 1.7); SFA shifts it right (option); results S, P, SYR (retreat), X (surrender)."""
    spec = rules.specs[uid]
    u = st.units[uid]
    m = int(ctx.cell("tcs.counter.morale", (spec.type,), purpose=f"{uid}'s morale"))
    steps = [Step(f"morale {m}", "TCS 13.0")]
    if assault and not spec.assault_trained:
        m *= 2
        steps = [Step(f"morale doubled to {m} in assault", "BW 1.12")]
    bn = st.battalions.get(spec.battalion, 0) if spec.battalion else 0
    col = m + u.steps_lost + bn
    if u.steps_lost:
        steps.append(Step(f"+{u.steps_lost} steps lost", "TCS 13.0"))
    if bn:
        steps.append(Step(f"+{bn} battalion morale", "TCS 17.1"))
    if sfa and rules.options["sfa_morale_shift"]:
        col += rules.options["sfa_morale_shift"]
        steps.append(Step(f"+{rules.options['sfa_morale_shift']} suppressive fire", "TCS 8.0 SFA"))
    col = _clip(col, 1, 13)
    roll = ctx.roll_dice("2d6", f"morale of {uid}")
    steps.append(Step(f"roll {roll}"))
    res = ctx.cell("tcs.morale", (col, roll), tuple(steps), f"{uid}'s morale check")
    if rules.game is not None and hasattr(rules.game, "morale_result"):     # BW 1.3d, 2.2a: the owner's options
        res = rules.game.morale_result(rules, st, ctx, uid, res)
    ctx.events.append(Event("morale", f"{uid} morale check: column {col}, roll {roll}: {res}",
                            {"unit": uid, "result": res}))
    if res == "S" and u.morale_state != PARALYZED:
        u.morale_state = SUPPRESSED
    elif res == "P":
        u.morale_state = PARALYZED
    elif res == "X":
        eliminate(rules, st, uid, ctx.events, "it surrenders (TCS 13.0)")
    elif res == "SYR":
        n = int(ctx.cell("tcs.syr_retreat", (col,), (Step(f"morale column {col}", "TCS 13.0"),), f"{uid}'s retreat"))
        retreat(rules, st, ctx, uid, n)
    return res


def retreat_options(rules, st, uid: str, n: int) -> list[Hex]:
    """Hexes ``n`` away that the unit can reach moving away from the enemy, never through enemy units (TCS 13.0)."""
    u = st.units[uid]
    side = rules.specs[uid].side
    enemy = [v.hex for k, v in st.units.items() if v.hex is not None and rules.specs[k].side != side]
    if n <= 0:
        return [u.hex]

    def gap(h):
        return min((hex_distance(h, e) for e in enemy), default=99)
    from .sight import movement_cost
    frontier = {u.hex}
    for _ in range(n):
        nxt = set()
        for h in frontier:
            for x in rules.board.neighbors(h):
                if x in enemy or gap(x) < gap(h):
                    continue
                cost, _why = movement_cost(rules, st, uid, h, x)
                if cost is not None:
                    nxt.add(x)
        frontier = nxt
    return sorted(h for h in frontier if hex_distance(h, u.hex) == n)


def retreat(rules, st, ctx, uid: str, n: int) -> None:
    u = st.units[uid]
    opts = retreat_options(rules, st, uid, n)
    night = rules.turns[st.turn].kind == "night"
    if not opts:
        if night:       # 3.1: an SYR adjacent to the enemy is not fatal at night
            u.morale_state = SUPPRESSED
            ctx.events.append(Event("syr", f"{uid} cannot retreat {n} hexes; at night it stays, suppressed"))
            return
        eliminate(rules, st, uid, ctx.events, f"it cannot retreat {n} hexes and surrenders (TCS 13.0)")
        return
    ids = [rules.hid(h) for h in opts]
    to = ctx.choose("retreat", rules.specs[uid].side, ids, f"{uid} retreats {n} hexes (SYR): where to?")
    u.hex = rules.board.parse_hex(to)
    u.morale_state = SUPPRESSED
    ctx.events.append(Event("retreat", f"{uid} retreats to {to}, suppressed", {"unit": uid, "to": to}))


def firepower_of(rules, st, ctx, units) -> int:
    return sum(int(ctx.cell("tcs.counter.firepower", (rules.specs[u].type,), purpose=f"{u}'s firepower"))
               for u in units)


def area_fire(rules, st, ctx, units: list[str], hex: str, sfa: bool = False) -> None:
    h = rules.board.parse_hex(hex)
    for u in units:
        st.units[u].fired = st.units[u].fired_turn = True
    area_attack(rules, st, ctx, firepower_of(rules, st, ctx, units), h, "+".join(units), sfa=sfa)


def range_band(d: int) -> str:
    return "1" if d <= 1 else "2-3" if d <= 3 else "4-6" if d <= 6 else "7-10" if d <= 10 else "11+"


def point_fire(rules, st, ctx, unit: str, target: str) -> None:
    """TCS 9.0: point fire at one unit; a hit on a vehicle goes on to an AT roll."""
    f, t = st.units[unit], st.units[target]
    f.fired = f.fired_turn = t.fired_turn = True
    rating = int(ctx.cell("tcs.counter.point_fire", (rules.specs[unit].type,), purpose=f"{unit}'s point fire"))
    cls = ctx.cell("tcs.terrain.combat", (terrain_key(rules.board, t.hex),), purpose="the target's terrain")
    if rules.game is not None and hasattr(rules.game, "target_class"):       # BW 1.3a/b: trench hexes
        cls = rules.game.target_class(rules, st, target, cls, ctx)
    col = _clip(rating, 1, 12)
    roll = ctx.roll_dice("2d6", f"point fire by {unit} at {target}")
    res = ctx.cell("tcs.point_fire", (col, cls, roll), (Step(f"column {col}", "TCS 9.0"), Step(f"{cls} target"),
                                                         Step(f"roll {roll}")), f"point fire by {unit} at {target}")
    ctx.events.append(Event("pointfire", f"{unit} at {target}: {res}", {"result": res}))
    if res != "hit":
        return
    if not rules.specs[target].vehicle:
        lose_steps(rules, st, ctx, target, 1)
        if t.hex is not None:
            morale_check(rules, st, ctx, target)
        return
    at = int(ctx.cell("tcs.counter.at", (rules.specs[unit].type,), purpose=f"{unit}'s AT rating"))
    armor = int(ctx.cell("tcs.counter.armor", (rules.specs[target].type,), purpose=f"{target}'s armour"))
    diff = _clip(at - armor, -6, 6)
    band = range_band(hex_distance(f.hex, t.hex))
    roll = ctx.roll_dice("2d6", f"AT roll by {unit} at {target}")
    r = ctx.cell("tcs.at", (diff, band, roll), (Step(f"AT {at} - armour {armor} = {diff:+d}", "TCS 9.0"),
                                                 Step(f"range {band}"), Step(f"roll {roll}")), f"AT roll at {target}")
    ctx.events.append(Event("at", f"AT roll at {target}: {r}", {"result": r}))
    if r == "S" and t.morale_state == OK:
        t.morale_state = SUPPRESSED
    elif r == "K":
        lose_steps(rules, st, ctx, target, 1)


def overwatch(rules, st, ctx, mover: str, hex: str):
    """Overwatch (TCS 12.0): enemy units in Fire mode that spot a unit entering a hex may fire at it, one by one
    (each fire is complete before the next unit is offered)."""
    h = rules.board.parse_hex(hex)
    if st.units[mover].hex != h:
        return None
    able = rules.overwatchers(st, mover, h)
    if not able:
        return None
    pick = ctx.choose("overwatch", rules.specs[able[0]].side, able + ["pass"],
                      f"{mover} entered {hex}: overwatch fire by which unit?")
    if pick == "pass":
        return None
    if rules.specs[mover].vehicle and (counter(rules, st, "point_fire", pick) or 0) > 0:
        point_fire(rules, st, ctx, pick, mover)
    else:
        area_fire(rules, st, ctx, [pick], hex)
    return ("overwatch", {"mover": mover, "hex": hex})


# the Assault Table's results in words (TCS 15.0; the chart's notes)
ASSAULT_WORDS = {"R": "repulsed: the assaulting units stay where they were, suppressed",
                 "H": "both sides hold", "E": "the defenders are evicted"}


def assault(rules, st, ctx, units: list[str], hex: str, overrun: bool = False) -> None:
    """TCS 15.0: assault (or a vehicle's overrun): fire both ways with assault shifts, a doubled morale check for
    each side's best unit, then the Assault Table."""
    h = rules.board.parse_hex(hex)
    side = rules.specs[units[0]].side
    defenders = [k for k, u in st.units.items() if u.hex == h]
    kind = "overrun" if overrun else "assault"
    if overrun and rules.game is not None and hasattr(rules.game, "before_overrun"):
        rules.game.before_overrun(rules, st, ctx, h, units)       # BW 4.2 Spanish Panic
        defenders = [k for k, u in st.units.items() if u.hex == h]
    for u in units:
        st.units[u].fired = st.units[u].fired_turn = True
    trained = [(1, Step("+1 assault-trained", "BW 1.12"))] if all(rules.specs[u].assault_trained for u in units) else []
    area_attack(rules, st, ctx, firepower_of(rules, st, ctx, units), h, "+".join(units), trained, assault=True)
    live_d = [d for d in defenders if st.units[d].hex == h]
    if live_d:
        back = [(1, Step("+1 assault-trained", "BW 1.12"))] if all(rules.specs[d].assault_trained for d in live_d) else []
        area_attack(rules, st, ctx, rules.assault_defence_firepower(st, ctx, live_d), st.units[units[0]].hex,
                    "+".join(live_d), back, assault=True, features=False)      # BW 1.3a, 1.6: defender only
    live_a = [u for u in units if st.units[u].hex is not None]
    live_d = [d for d in defenders if st.units[d].hex == h]
    if not live_a:
        return
    if live_d:
        def steps_left(us):
            return sum(int(ctx.cell("tcs.counter.steps", (rules.specs[u].type,))) - st.units[u].steps_lost for u in us)
        a, d = steps_left(live_a), steps_left(live_d)
        ratio = a / max(1, d)
        odds = "3:1" if ratio >= 3 else "2:1" if ratio >= 2 else "1:1" if ratio >= 1 else "1:2" if ratio >= 0.5 else "1:3"
        roll = ctx.roll_dice("2d6", f"{kind} on {hex}")
        res = ctx.cell("tcs.assault", (kind, odds, roll), (Step(f"{a} steps against {d}: {odds}", "TCS 15.0"),
                                                           Step(f"roll {roll}")), f"the {kind} on {hex}")
        words = ASSAULT_WORDS.get(res, "")
        ctx.events.append(Event("assault", f"{kind} on {hex}: {odds}, roll {roll}: {res}" + (f" ({words})" if words else ""),
                                {"result": res}))
        if res == "R":
            for u in live_a:
                if st.units[u].morale_state == OK:
                    st.units[u].morale_state = SUPPRESSED
            return
        if res == "H":
            return
        for d in live_d:
            eliminate(rules, st, d, ctx.events, f"evicted by the {kind} (TCS 15.0)")
    for u in live_a:
        st.units[u].hex = h
    st.control[h] = side
    ctx.events.append(Event("assault", f"{'+'.join(live_a)} take {hex}", {"hex": hex}))


# ---------------------------------------------------------------- aircraft and artillery (TCS 18, 25)

def sortie_roll(rules, st, ctx, side: str) -> None:
    """Aircraft step (TCS 25.0; BW 1.9, Leros 3.3b): sorties come on day turns in the allowed weather."""
    if rules.game is not None and hasattr(rules.game, "sortie_roll"):     # BW 1.9: one roll says whose sorties
        rules.game.sortie_roll(rules, st, ctx, side)
        return
    st.sorties = 0
    for a in rules.scenario.air:
        if a.side != side:
            continue
        if rules.turns[st.turn].kind != "day" or (a.weather and st.weather not in a.weather):
            ctx.events.append(Event("sorties", f"no sorties for {side}: {rules.turns[st.turn].kind} turn, {st.weather}"))
            continue
        slot = rules.charts[a.table]
        roll = ctx.roll_dice(slot.axes[-1].dice, f"{side} sortie availability")
        n = int(ctx.cell(a.table, (roll,), (Step(f"roll {roll}"),), f"{side} sorties"))
        st.sorties += n
        ctx.events.append(Event("sorties", f"{side}: {n} sorties available", {"side": side, "sorties": n}))


def airstrike(rules, st, ctx, side: str, hex: str) -> None:
    a = next(x for x in rules.scenario.air if x.side == side)
    fp = int(ctx.cell("tcs.counter.firepower", (a.sortie_type,), purpose=f"a {a.sortie_type} sortie"))
    st.sorties -= 1
    area_attack(rules, st, ctx, fp, rules.board.parse_hex(hex), f"{a.sortie_type} sortie")


def zone_of(rules, h: Hex, fires_as: str) -> list[Hex]:
    """A barrage's Attack Zone: the hex (battery) or the hex and its neighbours (battalion): a choice."""
    return [h] if fires_as == "battery" else [x for x in hex_range(h, 1) if x in rules.board]


def distance_row(d: int) -> str:
    return "0-3" if d <= 3 else "4-6" if d <= 6 else "7-10" if d <= 10 else "11+"


def scatter(rules, st, ctx, h: Hex, why: str) -> Hex | None:
    """Scatter on the game's diagram: a die for the direction, a die for the distance; off the map: no effect."""
    rd = ctx.roll_dice("1d6", f"scatter direction of {why}")
    direction = ctx.cell("tcs.scatter_direction", (rd,), (Step(f"roll {rd}"),), f"scatter of {why}")
    rn = ctx.roll_dice("1d6", f"scatter distance of {why}")
    n = int(ctx.cell("tcs.scatter_distance", (rn,), (Step(f"roll {rn}"),), f"scatter of {why}"))
    for _ in range(n):
        h = hex_neighbor(h, DIRECTIONS[direction])
    if h not in rules.board:
        ctx.events.append(Event("scatter", f"{why} scatters {n} {direction} off the map: no effect (TCS 1.1c)"))
        return None
    ctx.events.append(Event("scatter", f"{why} scatters {n} hexes {direction} to {rules.hid(h)}"))
    return h


def fire_mission(rules, st, ctx, battery: str, hex: str, spotter: str, ammo: str, continuous: bool,
                 adjust: bool = True) -> None:
    """Adjust (Artillery Adjustment Table) and execute one mission: barrage, smoke or illum (TCS 18.0)."""
    bat = rules.batteries[battery]
    side = bat.side
    h = rules.board.parse_hex(hex)
    why = f"{battery}'s mission on {hex}"
    gone = [u for u in ((spotter,) if adjust else ()) + ((bat.unit,) if bat.unit else ()) if st.units[u].hex is None]
    if gone:       # the spotter or the firing mortar was eliminated after the mission was placed: it does not fire
        ctx.events.append(Event("mission", f"{why} does not fire: {gone[0]} was eliminated (its round is spent)"))
        return
    if adjust:
        frm = [st.units[spotter].hex] + [rules.board.parse_hex(t) for t in rules.scenario.trps.get(side, ())]
        if rules.game is not None and hasattr(rules.game, "faux_trps"):     # BW 3.2d: Faux TRPs
            frm += rules.game.faux_trps(rules, st, side, st.units[spotter].hex, h, min(hex_distance(x, h) for x in frm))
        d = min(hex_distance(x, h) for x in frm)
        line = rules.scenario.sides[side].nation
        roll = ctx.roll_dice("1d6", f"adjustment of {why}")
        res = ctx.cell("tcs.artillery_adjustment", (line, distance_row(d), roll),
                       (Step(f"{line} line"), Step(f"{d} hexes from the spotter or TRP", "TCS 18.0"),
                        Step(f"roll {roll}")), why)
        ctx.events.append(Event("adjust", f"{why}: {res} Shoot", {"result": res}))
        if res == "Bad" or (ammo == "illum" and rules.options["illum_always_scatters"]):
            h = scatter(rules, st, ctx, h, why)
            if h is None:
                return
    zone = zone_of(rules, h, bat.fires_as)
    mid = f"M{st.next_id}"
    st.next_id += 1
    if ammo == "smoke":
        st.markers.append(Barrage(mid, side, "smoke", h, zone, battery, continuous, rules.options["smoke_level"]))
        ctx.events.append(Event("smoke", f"{mid}: smoke on {rules.hid(h)}"))
        return
    if ammo == "illum":
        st.markers.append(Barrage(mid, side, "illum", h, [h], battery))
        ctx.events.append(Event("illum", f"{mid}: illumination over {rules.hid(h)}"))
        return
    st.markers.append(Barrage(mid, side, "he", h, zone, battery, continuous))
    barrage_attack(rules, st, ctx, bat, zone, mid)


def barrage_attack(rules, st, ctx, bat, zone, mid) -> None:
    fp = int(ctx.cell("tcs.barrage_values", (bat.calibre, bat.fires_as),
                      purpose=f"{bat.calibre} firing as a {bat.fires_as}"))
    ctx.events.append(Event("barrage", f"{mid}: {bat.id} ({bat.calibre}) barrage, strength {fp}"))
    for x in zone:
        area_attack(rules, st, ctx, fp, x, f"{bat.id}'s barrage")


def execute(rules, st, ctx, side: str) -> None:
    """Artillery step 5: continuous fire goes on, then every new mission is adjusted and executed."""
    for m in list(st.markers):
        if m.side == side and m.continuous and m.kind == "he" and m.id in {x.id for x in st.markers}:
            bat = rules.batteries[m.battery]
            if bat.unit and st.units[bat.unit].hex is None:
                st.markers.remove(m)
                ctx.events.append(Event("lift", f"{m.id}: {bat.unit} was eliminated, lifted"))
                continue
            key = rules.pool_key(bat, "he")
            if key is not None:
                if st.ammo.get(key, 0) <= 0:
                    st.markers.remove(m)
                    ctx.events.append(Event("lift", f"{m.id}: out of ammunition, lifted"))
                    continue
                st.ammo[key] -= 1
            barrage_attack(rules, st, ctx, bat, m.zone, m.id)
    for m in [x for x in st.missions if rules.batteries[x.battery].side == side]:
        fire_mission(rules, st, ctx, m.battery, rules.hid(m.hex), m.spotter, m.ammo, m.continuous)
    st.missions = [x for x in st.missions if rules.batteries[x.battery].side != side]


def preplot(rules, st, ctx, side: str) -> None:
    """Pre-plotted barrages due now fire without spotter or adjustment (game-specific; BW prep log)."""
    label = rules.turns[st.turn].label
    for p in rules.scenario.preplotted:
        if p.clock == label and rules.batteries[p.battery].side == side:
            bat = rules.batteries[p.battery]
            key = f"{side}|{bat.calibre}|he"
            if st.ammo.get(key, 0) <= 0:
                ctx.events.append(Event("preplot", f"{p.battery} has no HE left for its plotted barrage"))
                continue
            st.ammo[key] -= 1
            fire_mission(rules, st, ctx, p.battery, p.hex, "", "he", False, adjust=False)


def lift(rules, st, ctx, side: str) -> None:
    """Artillery step 6: barrage markers that are not Continuous Fire come off."""
    st.markers = [m for m in st.markers if not (m.side == side and m.kind == "he" and not m.continuous)]


def cleanup(rules, st, ctx) -> None:
    """Clean-up and recovery: Suppressed recovers, Paralyzed becomes Suppressed, SFA and illum markers go,
    smoke thins by a level (the program's reading of the series' recovery)."""
    for k, u in st.units.items():
        if u.morale_state == SUPPRESSED:
            u.morale_state = OK
        elif u.morale_state == PARALYZED:
            u.morale_state = SUPPRESSED
        u.mp_used, u.moved, u.fired = type(u.mp_used)(0), False, False
    st.sfa_hexes = []
    kept = []
    for m in st.markers:
        if m.kind == "illum":
            continue
        if m.kind == "smoke" and not m.continuous:
            m.level -= 1
            if m.level <= 0:
                continue
        kept.append(m)
    st.markers = kept
    ctx.events.append(Event("cleanup", "clean-up: recovery, markers removed"))


def release(rules, st, ctx) -> None:
    """Variable reinforcements (BW 2.7, 3.3a, 3.5): once a group's trigger holds, roll for it each Command Phase.

    Groups read on the same printed table share one roll a phase; the result releases the first group still
    waiting whose ``result`` it is, or what the game's ``release_pick`` lets the player choose (BW 3.5).  A group
    with ``at_least`` is released on two dice at least that (BW 2.7: 11 or 12).
    Released units enter at once through their entry areas (BW 1.10h)."""
    done: set[str] = set()
    waiting = []
    for r in rules.scenario.releases:
        if r.id in st.released:
            continue
        enemy = next(s for s in rules.side_ids if s != r.side)
        if r.trigger == "trench" and f"trench:{enemy}" not in st.flags:
            continue
        if r.trigger.startswith("at:"):               # a fixed schedule (BW 4.3): released at its clock, no roll
            from .clock import parse_clock
            if parse_clock(r.trigger[3:], rules.scenario.year) > rules.turns[st.turn].when:
                continue
        if r.trigger.startswith("entered:"):
            g = r.trigger[8:]
            if g not in st.released or any(u in st.waiting for u in rules.release_units.get(g, [])):
                continue
        waiting.append(r)
    for r in waiting:
        if r.trigger.startswith("at:"):
            picked = [r]
        elif r.table:
            if r.table in done:
                continue
            done.add(r.table)
            roll = ctx.roll_dice("2d6", f"{r.rule} variable reinforcements")
            steps = (Step(f"roll {roll}", r.rule),)
            if rules.game is not None and hasattr(rules.game, "release_row"):     # BW 3.5, 4.1b modifiers
                roll, steps = rules.game.release_row(rules, st, ctx, r, roll, steps)
            res = str(ctx.cell(r.table, (roll,), steps, f"{r.rule} variable reinforcements"))
            same = [x for x in waiting if x.table == r.table]
            if rules.game is not None and hasattr(rules.game, "release_pick"):    # BW 3.5: the player's pick
                picked = rules.game.release_pick(rules, st, ctx, res, same)
            else:
                picked = [x for x in same if x.result == res][:1]
        else:
            roll = int(ctx.roll_dice("2d6", f"{r.rule} release of {r.id}"))
            if roll < r.at_least:
                ctx.events.append(Event("release", f"{r.id}: rolled {roll}, needs {r.at_least} ({r.rule})"))
                continue
            picked = [r]
        for x in picked:
            st.released.append(x.id)
            ctx.events.append(Event("release", f"{x.id} is released ({x.rule})", {"group": x.id}))
            if rules.game is not None and hasattr(rules.game, "on_release"):      # BW 3.5a: a battery's rounds
                rules.game.on_release(rules, st, ctx, x)
    rules.arrive(st, ctx.events)


PROCS = {"release": release, "accrue": accrue, "implement": implement, "reserve_check": reserve_check, "bn_morale": bn_morale,
         "weather": weather, "initiative": initiative, "area_fire": area_fire, "point_fire": point_fire,
         "overwatch": overwatch, "assault": assault, "sortie_roll": sortie_roll, "airstrike": airstrike,
         "execute": execute, "preplot": preplot, "lift": lift, "cleanup": cleanup}
