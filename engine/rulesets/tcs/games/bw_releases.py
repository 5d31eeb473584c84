"""Black Wednesday's German Variable Reinforcement Table (BW 3.5, 3.5a, 4.1b): its late row and what a result
releases; hooks of ``black_wednesday_rules``, which the series engine asks."""
from __future__ import annotations

from ....game import Event


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
