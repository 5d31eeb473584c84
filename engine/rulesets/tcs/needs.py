"""Every printed value a TCS scenario reads, for the form the owner fills before play (``engine.charts.needs``).

Needed before play (``before_play``): what the first legal-move list cannot do
without (``TcsRules._first_missing`` asks them one at a time otherwise): the counter
values of every unit type the scenario brings on (TCS 5.0, 8.0, 9.0, 10.0, 13.0;
armour for vehicles), the Terrain Effects Chart's height (TCS 11.0), combat and
spotting classes (TCS 8.0, 11.0) of each terrain on the map and its movement cost
for each mobility type the counters have (TCS 5.0), the visibility of each kind of
turn and weather (TCS 11.0, BW 1.8) and the Spotting Range Table (TCS 11.0).

Offered with them but read only when play comes to it: the game's weather table
(BW 1.8, Leros 1.4), its sortie tables (BW 1.9, TCS 25.0), the variable reinforcement
tables (BW 2.7, 3.3, 3.5), the Battalion Morale Reduction table (TCS 17.1d) and the
Reserve Check (TCS 6.14d), all read on a roll; the barrage strength of the scenario's
batteries (TCS 18.0), the terrain classes' fire shifts (TCS 8.0), the AT ratings and a
printed Staff modifier (Leros 4.6).  The series' combat tables (Area Fire, Point Fire,
AT, Morale, Assault, Artillery Adjustment, Scatter) are not listed: hundreds of cells of
which a game reads a few, each where a roll lands; the chart editor takes them whole
and play asks a blank cell when it is read.
"""
from __future__ import annotations

from ...charts.needs import ValueNeed, value_reader

# the counter columns, in the form's order, with the rule that reads them
COUNTERS = (("movement", "movement", "TCS 5.0"), ("mobility", "mobility", "TCS 5.0"),
            ("range", "range", "TCS 8.0"), ("firepower", "firepower", "TCS 8.0"),
            ("morale", "morale", "TCS 13.0"), ("steps", "steps", "TCS 10.0"),
            ("point_fire", "point fire", "TCS 9.0"))
MOBILITIES = ("foot", "tracked", "wheeled")


def chart_needs(rules, st=None, value=None) -> list[ValueNeed]:
    """The values ``rules``' scenario reads, counters first, then terrain, then the tables (see the module)."""
    value = value or value_reader(rules.charts, st)
    sc = rules.scenario
    out: list[ValueNeed] = []

    def need(slot, key, section, row, column, before, why):
        out.append(ValueNeed(slot, tuple(str(k) for k in key), section, row, column, before, why))

    # ---- counters: one row per unit type (TCS 5.0 - 13.0), the sortie types' firepower (TCS 25.0)
    types: dict[str, bool] = {}
    for u in sc.units:
        types[u.type] = types.get(u.type, False) or u.vehicle
    sortie_types = [a.sortie_type for a in sc.air if a.sortie_type not in types]
    for typ, vehicle in types.items():
        for s, col, rule in COUNTERS:
            need(f"tcs.counter.{s}", (typ,), "counters", typ, col, True, f"{rule}: {col} of {typ}")
        if vehicle:
            need("tcs.counter.armor", (typ,), "counters", typ, "armour", True, f"TCS 9.0: armour of {typ}")
        need("tcs.counter.at", (typ,), "counters", typ, "AT", False, f"TCS 9.0: AT rating of {typ}, read when it "
             "point-fires at a vehicle")
    for typ in dict.fromkeys(sortie_types):
        need("tcs.counter.firepower", (typ,), "counters", typ, "firepower", False,
             f"TCS 25.0: a {typ} sortie attacks with its firepower")

    # ---- terrain: one row per terrain of the map (the Terrain Effects Chart)
    mobs = {value("tcs.counter.mobility", (t,)) for t in types} & set(MOBILITIES)
    rows = list(rules.terrains) + [k for k in rules.los_kinds if k not in rules.terrains]
    if rules.has_roads:
        rows.append("road")
    for t in rows:
        if t in rules.los_kinds:
            need("tcs.terrain.height", (t,), "terrain", t, "height (m)", True, f"TCS 11.0: the height of {t}")
        if t in rules.terrains:
            need("tcs.terrain.combat", (t,), "terrain", t, "combat class", True, f"TCS 8.0: the combat class of {t}")
            need("tcs.terrain.spotting", (t,), "terrain", t, "spotting class", True,
                 f"TCS 11.0: the spotting class of {t}")
        if t in rules.terrains or t == "road":
            for m in MOBILITIES:
                need("tcs.terrain.move", (t, m), "terrain", t, f"move: {m}", m in mobs,
                     f"TCS 5.0: {m} units entering {t}" + ("" if m in mobs else
                                                          f" (needed once a unit type has {m} mobility)"))

    # ---- tables: visibility and spotting (before play), then the tables a roll is read on
    title = lambda sid: rules.charts[sid].title           # noqa: E731
    kinds = []
    for t in rules.turns:
        if t.kind not in kinds:
            kinds.append(t.kind)
    for k in kinds:
        need("tcs.turn_visibility", (k,), "tables", title("tcs.turn_visibility"), k, True,
             f"TCS 11.0: visibility on {k} turns")
    states = [sc.weather]
    table = rules.charts[sc.weather_table] if sc.weather_table else None
    if table is not None:
        states += [w for w in table.domain.values if w != sc.weather]
    for w in states:
        need("tcs.weather_visibility", (w,), "tables", title("tcs.weather_visibility"), w, True,
             f"TCS 11.0, BW 1.8: visibility in {w} weather")
    for c in ("open", "non-open"):
        for v in ("vehicle", "non-vehicle"):
            need("tcs.spotting_range", (c, v), "tables", title("tcs.spotting_range"), f"{c} / {v}", True,
                 "TCS 11.0: how far a target is spotted")
    if table is not None:
        for w in states:
            for roll in table.axes[-1].labels:
                need(table.id, (w, roll), "tables", table.title, f"{w} / {roll}", False,
                     f"{table.rule}: the weather roll on full-hour turns")
    for sid in dict.fromkeys(a.table for a in sc.air):
        slot = rules.charts[sid]
        for roll in slot.axes[-1].labels:
            need(sid, (roll,), "tables", slot.title, roll, False, f"{slot.rule}: the sortie roll")
    if sc.battalions:
        slot = rules.charts["tcs.bn_morale_reduction"]
        for m in slot.axes[0].labels:
            for roll in slot.axes[1].labels:
                need(slot.id, (m, roll), "tables", slot.title, f"{m} / {roll}", False,
                     "TCS 17.1d: each battalion's roll on full-hour turns")
    slot = rules.charts["tcs.barrage_values"]
    for key in dict.fromkeys((b.calibre, b.fires_as) for b in sc.batteries):
        need(slot.id, key, "tables", slot.title, " / ".join(key), False,
             f"TCS 18.0: the barrage strength of {key[0]} firing as a {key[1]}")
    for sid in dict.fromkeys(r.table for r in sc.releases if r.table):
        slot = rules.charts[sid]
        rule = next(r.rule for r in sc.releases if r.table == sid)
        for key in slot.cells():
            need(sid, key, "tables", slot.title, " / ".join(key), False, f"{rule}: the variable reinforcement roll")
    own = getattr(rules.game, "chart_needs", None)         # a game's own tables (BW 3.5's late modifier)
    if own is not None:
        out += own(rules, st, value)
    if any(s.reserve for s in sc.op_sheets):
        slot = rules.charts["tcs.reserve_check"]
        for roll in slot.axes[0].labels:
            need(slot.id, (roll,), "tables", slot.title, roll, False, "TCS 6.14d: a reserve Op Sheet's check")
    for side in sc.sides.values():
        if side.staff_asked:
            need("tcs.staff_modifier", (side.id,), "tables", title("tcs.staff_modifier"), side.id, False,
                 f"TCS 6.9f, Leros 4.6: the {side.name} Staff modifier")
    slot = rules.charts["tcs.terrain.fire_shift"]
    for cls in slot.axes[0].labels:
        need(slot.id, (cls,), "tables", slot.title, cls, False, "TCS 8.0: the column shift of a target's terrain")
    return out
