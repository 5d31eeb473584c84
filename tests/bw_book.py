"""A complete chart book for playing Black Wednesday scenario 4 in tests and walks through the window: made-up TEST
values for every printed value the scenario reads (``chart_needs``, the cells met playing to the Soviet Action Phase
of its first turn) and whole tables for the fire, morale and command results, as ``tests/leros_book.py`` makes one for Leros.  They are NOT the printed values:
they only let a test (or a walk through the window) reach the Action Phase and fire without stopping at a prompt.

``python tests/bw_book.py FOLDER`` writes them as the owner's book ``FOLDER/charts/tcs.toml``.
"""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

from engine.charts import ChartBook, ChartMemory, book_file, chart_slots_of

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"
COVER = ("wood", "forest", "town", "village", "build", "city", "hospital", "mill", "house", "factory")
ROUGH = ("swamp", "bog", "marsh", "brush", "orchard")
SHIFTS = {"Open": 0, "Partly Protective": -1, "Protective": -2, "Billiard": 1}
SPOTTING = {("open", "vehicle"): 10, ("open", "non-vehicle"): 6, ("non-open", "vehicle"): 4,
            ("non-open", "non-vehicle"): 2}
RESULTS = {"tcs.morale": "S", "tcs.point_fire": "hit", "tcs.at": "K"}     # whole tables: one TEST result each


def _has(text: str, words) -> bool:
    return any(w in text for w in words)


def counter_value(slot: str, typ: str):
    """A TEST counter value by the unit type's words (vehicles, guns, mortars, observers, machine guns, infantry)."""
    veh = _has(typ, ("stug", "marder", "pz "))
    gun = _has(typ, ("at gun", "howitzer", "flak", "infantry gun"))
    mortar = "mortar" in typ and "observer" not in typ
    fo = "observer" in typ
    return {
        "movement": 12 if veh else 2 if gun or "120mm" in typ else 10 if "cavalry" in typ else 6,
        "mobility": "tracked" if veh else "foot",
        "range": 0 if fo else 12 if veh or gun else 16 if mortar else 8 if "mg" in typ else 2 if "smg" in typ else 4,
        "firepower": 0 if fo or mortar else 4 if _has(typ, ("mg", "smg")) else 2 if veh else 1 if gun else 3,
        "morale": 3 if _has(typ, ("ss", "german", "pz", "stug")) else 4,
        "steps": 1 if fo else 2 if veh or gun or mortar else 3,
        "point_fire": 8 if veh or gun else 0,
        "armor": 8 if "pz vi" in typ else 4 if "stug" in typ else 2,
        "at": 9 if "88" in typ or "pz vi" in typ else 6,
    }[slot]


def cell_value(prompt):
    """The TEST value for a prompt met on the way to the Action Phase."""
    slot, key = prompt.slot, prompt.key
    if slot.startswith("tcs.counter."):
        return counter_value(slot.rsplit(".", 1)[1], key[0])
    t = key[0].lower() if key else ""
    cover, rough = _has(t, COVER), _has(t, ROUGH)
    if slot == "tcs.terrain.height":
        return 10 if cover else 0
    if slot == "tcs.terrain.combat":
        return "Protective" if cover else "Partly Protective" if rough else "Open"
    if slot == "tcs.terrain.spotting":
        return "non-open" if cover or rough else "open"
    if slot == "tcs.terrain.move":
        if t == "road":
            return "1" if key[1] == "foot" else "0.5"
        return "1" if key[1] == "foot" else "2" if cover or rough or key[1] == "wheeled" else "1"
    if slot == "tcs.terrain.fire_shift":
        return SHIFTS.get(key[0], 0)
    if slot == "tcs.spotting_range":
        return SPOTTING[tuple(key)]
    if slot == "tcs.turn_visibility":
        return {"day": 20, "twilight": 8, "night": 2}.get(key[0], 20)
    if slot == "tcs.weather_visibility":
        return 60 if key[0] == "clear" else 10
    if slot == "tcs.area_fire_column":
        return min(20, max(1, int(key[0])))
    if slot == "bw.weather":
        return key[0]                                  # the weather stays as it is
    return prompt.choices[0]


def bw_book(path: Path | None = None, seed: int = 4) -> ChartBook:
    """The TEST book: every cell met playing to the Soviet Action Phase (seed ``seed``), then whole tables."""
    from engine.game import Game
    from engine.rulesets.tcs import rules_for_path

    rules = rules_for_path(SCENARIO)
    slots = chart_slots_of(rules)
    book = ChartBook(slots, path, rules.chart_scope())       # the game's own charts and counters kept under it
    g = Game(rules, seed, str(SCENARIO))
    while True:
        st = g.state
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "chart":
                pr = p["prompt"]
                v = cell_value(pr)
                book.record(pr.slot, pr.key, v)
                g.play(f"chart {pr.slot} " + "".join(f"[{k}]" for k in pr.key) + f" = {v}")
            else:
                g.play(f"choose {p['what']} {p['options'][0]}")
            continue
        if rules.current(st)[1:] == ("action", "soviet"):
            break
        g.play("end")
    from types import SimpleNamespace

    for need in rules.chart_needs(g.state):            # every other value the scenario reads (the form's cells)
        if book.lookup(need.slot, need.key) is None and need.key not in slots[need.slot].known:
            choices = slots[need.slot].domain.choices()
            book.record(need.slot, need.key, cell_value(SimpleNamespace(slot=need.slot, key=need.key, choices=choices)))
    for fp in range(1, 41):
        if book.lookup("tcs.area_fire_column", (str(fp),)) is None:
            book.record("tcs.area_fire_column", (str(fp),), min(20, fp))
    for roll in range(2, 13):
        for w in ("clear", "overcast", "fog", "snow"):
            if book.lookup("bw.weather", (w, str(roll))) is None:
                book.record("bw.weather", (w, str(roll)), w)
    for slot in slots:
        if any(a.open or not a.labels for a in slot.axes):
            continue
        keys = list(itertools.product(*[a.labels for a in slot.axes]))
        for k in keys:
            if k in slot.known or book.lookup(slot.id, k) is not None:
                continue
            if slot.id == "tcs.terrain.fire_shift":
                v = SHIFTS.get(k[0], 0)
            elif slot.id == "tcs.area_fire":
                v = "-" if int(k[0]) + int(k[1]) < 12 else "M" if int(k[0]) + int(k[1]) < 15 else "1"
            else:
                v = RESULTS.get(slot.id, slot.domain.choices()[0])
            book.record(slot.id, k, v)
    return book


def bw_memory() -> ChartMemory:
    book = bw_book()
    m = ChartMemory()
    for slot in book.slots:
        for key, v in book.table(book.scope_of(slot.id), slot.id).items():
            m.put(slot.id, key, v)
    return m


def write_book(folder: Path) -> Path:
    path = book_file(folder, "tcs")
    path.parent.mkdir(parents=True, exist_ok=True)
    bw_book(path).save()
    return path


if __name__ == "__main__":
    print(write_book(Path(sys.argv[1])))
