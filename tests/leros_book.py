"""A complete chart book for playing Leros in tests: made-up TEST values for every printed cell a game of scenario 1
reads (counters, terrain, visibility, the Leros tables), as ``tests/tcs_fixtures.py`` makes one for the test
scenario.  They are NOT the printed values: they only let a test (or a walk through the window) reach a landing
from the sea and a parachute drop without stopping at a prompt.

``python tests/leros_book.py FOLDER`` writes them as the owner's book ``FOLDER/charts/tcs.toml``.
"""
from __future__ import annotations

import sys
from pathlib import Path

from engine.charts import ChartMemory, book_file, chart_slots_of

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "leros-1-curtain-rises.toml"

#            movement mobility range firepower morale steps point_fire
KINDS = {
    "platoon": (6, "foot", 4, 3, 4, 5, 0),
    "mg": (6, "foot", 8, 4, 4, 2, 0),
    "mortar": (4, "foot", 10, 0, 4, 2, 0),
    "gun": (2, "wheeled", 12, 2, 4, 2, 6),
    "section": (6, "foot", 4, 2, 3, 2, 0),
}
SLOTS = ("movement", "mobility", "range", "firepower", "morale", "steps", "point_fire")
TERRAIN = {  # height, combat, spotting
    "clear": (0, None, None), "woods": (None, "Partly Protective", "non-open"),
    "building": (10, "Protective", "non-open"), "village": (10, "Protective", "non-open"),
    "castle": (10, "Protective", "non-open"), "coast": (0, "Open", "open"), "sea": (0, "Open", "open"),
    "coastal battery": (0, "Protective", "non-open"), "pier": (0, "Open", "open"),
}
MOVE = {"foot": "1", "tracked": "1", "wheeled": "2"}


def _kind(unit_type: str) -> str:
    t = unit_type.lower()
    if "mortar" in t:
        return "mortar"
    if "gun" in t or "howitzer" in t or "25pdr" in t:
        return "gun"
    if "mg" in t or "vickers" in t:
        return "mg"
    if "section" in t:
        return "section"
    return "platoon"


def leros_cells(rules) -> dict[tuple[str, tuple], object]:
    """Every cell as ``(slot, key) -> TEST value``."""
    cells: dict = {}
    for typ in sorted({sp.type for sp in rules.specs.values()}):
        for slot, v in zip(SLOTS, KINDS[_kind(typ)]):
            cells[(f"tcs.counter.{slot}", (typ,))] = v
    for t, (h, combat, spot) in TERRAIN.items():
        if h is not None:
            cells[("tcs.terrain.height", (t,))] = h
        if combat:
            cells[("tcs.terrain.combat", (t,))] = combat
        if spot:
            cells[("tcs.terrain.spotting", (t,))] = spot
        for mob, v in MOVE.items():
            cells[("tcs.terrain.move", (t, mob))] = "P" if t == "sea" else v
    for (c, t), v in {("open", "vehicle"): 10, ("open", "non-vehicle"): 6, ("non-open", "vehicle"): 4,
                      ("non-open", "non-vehicle"): 2}.items():
        cells[("tcs.spotting_range", (c, t))] = v
    for k, v in {"day": 20, "twilight": 8, "night": 2}.items():
        cells[("tcs.turn_visibility", (k,))] = v
    for k, v in {"Normal": 60, "Wind": 30, "Gale": 15, "Storm": 8}.items():
        cells[("tcs.weather_visibility", (k,))] = v
    for i, d in enumerate(("N", "NE", "SE", "S", "SW", "NW"), start=1):
        cells[("tcs.scatter_direction", (str(i),))] = d
    for cur in ("Normal", "Wind", "Gale", "Storm"):
        for r in range(1, 7):
            cells[("leros.weather", (cur, str(r)))] = "Normal"
    for r in range(1, 7):
        cells[("leros.german_sorties", (str(r),))] = 0
    for lz in range(1, 17):
        for b in "ABCDEFGHIJKLM":
            cells[("leros.battery_summary", (str(lz), b))] = 0       # no battery fires: the boats land
    for r in ("0", "1", "2", "3", "4", "5+"):
        cells[("leros.parachute_loss", (r,))] = 0
    for boat in ("Barge", "I-Boat", "M-Sweep", "MFP", "Sub"):
        cells[("leros.boat_loading", (boat,))] = 3
        cells[("leros.boat_heavy", (boat,))] = "yes" if boat == "MFP" else "no"
    for side in ("german", "british"):
        for lz in range(1, 17):
            if (side, str(lz)) not in rules.charts["leros.sea_box"].known:
                cells[("leros.sea_box", (side, str(lz)))] = "B"
    return cells


def leros_memory(rules) -> ChartMemory:
    m = ChartMemory()
    for (slot, key), v in leros_cells(rules).items():
        m.put(slot, key, v)
    return m


def result_tables(slots, have: dict) -> dict:
    """Whole TEST tables for the fire, morale and assault results, as ``tests/bw_book.py`` writes them, so fire and
    assault can hurt (a cell the book lacks would be answered with the chart's first result, no effect): the
    Area Fire column is the firepower (at most 20); a fire's result "-" while column + roll is under 12, a morale
    check under 15, a step lost from 15; a morale check suppresses; an assault is repulsed while the odds' place
    (1:3 is 0 ... 3:1 is 4) + the roll is under 9, both hold under 11, and the defenders are evicted from 11."""
    out: dict = {}
    for fp in range(1, 41):
        out[("tcs.area_fire_column", (str(fp),))] = min(20, fp)
    for col in range(1, 21):
        for roll in range(2, 13):
            t = col + roll
            out[("tcs.area_fire", (str(col), str(roll)))] = "-" if t < 12 else "M" if t < 15 else "1"
    for col in range(1, 14):
        for roll in range(2, 13):
            out[("tcs.morale", (str(col), str(roll)))] = "S"
    for kind in ("assault", "overrun"):
        for i, odds in enumerate(("1:3", "1:2", "1:1", "2:1", "3:1")):
            for roll in range(2, 13):
                t = i + roll
                out[("tcs.assault", (kind, odds, str(roll)))] = "R" if t < 9 else "H" if t < 11 else "E"
    return {k: v for k, v in out.items() if k not in have and k[0] in slots.slots}


def write_book(folder: Path) -> Path:
    """The owner's book under ``folder`` with every value the scenario lists as read (``chart_needs``) and the
    Leros tables above: the cells given here, else a value of the chart's domain (a test value too)."""
    from engine.charts import ChartBook, chart_scope
    from engine.rulesets.tcs import rules_for_path
    from engine.rulesets.tcs.needs import chart_needs

    rules = rules_for_path(SCENARIO)
    slots = chart_slots_of(rules)
    path = book_file(folder, rules.name)
    book = ChartBook(slots, path, game=chart_scope(rules))
    cells = leros_cells(rules)
    for need in chart_needs(rules):
        if (need.slot, need.key) not in cells:
            cells[(need.slot, need.key)] = slots[need.slot].domain.choices()[0]
    cells.update(result_tables(slots, cells))
    for (slot, key), v in cells.items():
        if slot in slots.slots and key not in slots[slot].known:
            book.record(slot, key, v)
    path.parent.mkdir(parents=True, exist_ok=True)
    book.save()
    return path


if __name__ == "__main__":
    print(write_book(Path(sys.argv[1])))
