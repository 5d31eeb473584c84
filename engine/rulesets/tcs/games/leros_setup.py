"""The ``[leros]`` section of a Leros scenario file: what starts on the Sea and Air Movement Tracks and in the
off-map boxes, the heavy loads and guns, the paratroops, the variants chosen and the victory conditions.

docs/scenario-format.md (TCS, Leros) describes every key; loading checks each and names the key.
"""
from __future__ import annotations

from .leros import AIR_BACK, AIR_OUT, BRITISH, GERMAN, HOLDING, LEVELS, SEA_BOXES

HOLDING_BOXES = ("kos", "samos", "athens")
VICTORY_KINDS = ("features_held", "curtain_rises", "curtain_falls")
VARIANTS = {
    "4.1": "Increased RAF Support",
    "4.2": "British All-Out Effort",
    "4.3": "HMS Eclipse Survives",
    "4.4": "The Italians Fight",
    "4.5": "The Greeks Fight",
    "4.6": "Lt. Col. French Takes Command",
    "4.7": "Rat Patrol",
}
# Victory shifts (+ toward the British): alternate start (scenario 1), the historical British set-up (2.7),
# 4.2, 4.4 and 4.6 one level toward the Germans.
VARIANT_SHIFT = {"4.2": -1, "4.4": -1, "4.6": -1}
KEYS = ("campaign", "campaign_end", "heavy", "guns", "paratroops", "not_platoons", "coastal_guns", "drift",
        "boxes", "boats", "planes", "variants", "variant_units", "alternate_start", "historical_setup",
        "one_map", "victory", "sea_boxes", "no_weather_roll", "independent", "trucked",
        "batteries_lost", "losses_off_counters")


def read_section(r, doc, board, units, sheets) -> dict:
    """The checked section as plain data (problems go to the reader ``r`` with their keys)."""
    if not isinstance(doc, dict):
        r.bad("leros", "expected a table")
        return {}
    for k in doc:
        if k not in KEYS:
            r.bad(f"leros.{k}", f"unknown key (expected one of {', '.join(KEYS)})")
    ids = {u.id: u for u in units}
    sheet_ids = {s.id for s in sheets}
    out: dict = {"campaign": r.get(doc, "campaign", bool, "leros", default=False),
                 "campaign_end": r.get(doc, "campaign_end", str, "leros", default="2340 17 Nov"),
                 "one_map": r.get(doc, "one_map", bool, "leros", default=False),
                 "drift": r.get(doc, "drift", str, "leros", default="N", choices=("N", "NE", "SE", "S", "SW", "NW")),
                 "alternate_start": r.get(doc, "alternate_start", str, "leros", default=""),
                 "historical_setup": r.get(doc, "historical_setup", bool, "leros", default=False),
                 "no_weather_roll": r.strs(doc, "no_weather_roll", "leros")}

    def unit_list(key):
        v = r.strs(doc, key, "leros")
        for u in v:
            if u not in ids:
                r.bad(f"leros.{key}", f"no unit {u!r}")
        return v
    for key in ("heavy", "paratroops", "not_platoons", "coastal_guns"):
        out[key] = unit_list(key)
    guns = doc.get("guns", {})
    if not isinstance(guns, dict) or not all(isinstance(v, str) for v in guns.values()):
        r.bad("leros.guns", "expected a table of unit = calibre (\"105mm\")")
        guns = {}
    for u in guns:
        if u not in ids:
            r.bad("leros.guns", f"no unit {u!r}")
    out["guns"] = dict(guns)
    boxes = doc.get("boxes", {})
    if not isinstance(boxes, dict):
        r.bad("leros.boxes", "expected a table of box = [units]")
        boxes = {}
    placed: dict[str, str] = {}
    for box, us in boxes.items():
        if box not in HOLDING_BOXES + ("dead",):        # dead: destroyed before the start (5.1f)
            r.bad(f"leros.boxes.{box}", f"expected one of the holding boxes {', '.join(HOLDING_BOXES)} or dead")
            continue
        for u in us if isinstance(us, list) else []:
            if u not in ids:
                r.bad(f"leros.boxes.{box}", f"no unit {u!r}")
            elif ids[u].hex != box:
                r.bad(f"leros.boxes.{box}", f"{u} starts in {box}, so its hex is \"{box}\" (not {ids[u].hex!r})")
            placed[u] = box
    out["boxes"] = placed
    boats = []
    for where, t in r.tables(doc, "boats"):
        w = "leros." + where
        b = {"id": r.get(t, "id", str, w, required=True, default=""), "type": r.get(t, "type", str, w, required=True, default=""),
             "side": r.get(t, "side", str, w, default=GERMAN, choices=(GERMAN, BRITISH)),
             "box": r.get(t, "box", str, w, default=""), "lz": r.get(t, "lz", int, w, default=0),
             "load": list(r.strs(t, "load", w)), "sheet": r.get(t, "sheet", str, w, default="")}
        b["box"] = b["box"] or HOLDING[b["side"]]
        if b["box"] not in SEA_BOXES + (HOLDING[b["side"]],):
            r.bad(f"{w}.box", f"expected {', '.join(SEA_BOXES)} or {HOLDING[b['side']]}")
        if b["load"] and not 1 <= b["lz"] <= 16:
            r.bad(f"{w}.lz", "a loaded boat names its Landing Zone (1-16)")
        if b["sheet"] and b["sheet"] not in sheet_ids:
            r.bad(f"{w}.sheet", f"no Op Sheet {b['sheet']!r}")
        for u in b["load"]:
            if u not in ids:
                r.bad(f"{w}.load", f"no unit {u!r}")
            elif ids[u].hex != "kos" and ids[u].hex != "samos":
                r.bad(f"{w}.load", f"{u} is aboard, so its hex is its holding box (\"kos\" or \"samos\")")
            placed[u] = "boat"
        boats.append(b)
    out["boats"] = boats
    planes = []
    for where, t in r.tables(doc, "planes"):
        w = "leros." + where
        p = {"id": r.get(t, "id", str, w, required=True, default=""), "box": r.get(t, "box", str, w, default="athens"),
             "load": list(r.strs(t, "load", w)), "dz": r.get(t, "dz", str, w, default="")}
        if p["box"] not in AIR_OUT + AIR_BACK:
            r.bad(f"{w}.box", f"expected one of {', '.join(AIR_OUT[:-1] + ('athens',))}")
        if len(p["load"]) > 2:
            r.bad(f"{w}.load", "a flight is one or two units (Leros 3.6d)")
        if p["load"] and not p["dz"]:
            r.bad(f"{w}.dz", "a loaded Ju-52 has its drop zone hex (Leros 3.6c)")
        if p["dz"] and board is not None:
            try:
                h = board.parse_hex(p["dz"])
                if board.terrain.get(h) == "sea":
                    r.bad(f"{w}.dz", f"{p['dz']} is a sea hex")
            except Exception as e:  # noqa: BLE001 - BadHexId names the problem
                r.bad(f"{w}.dz", str(e))
        for u in p["load"]:
            if u not in ids:
                r.bad(f"{w}.load", f"no unit {u!r}")
            elif ids[u].hex != "athens":
                r.bad(f"{w}.load", f"{u} is in a Ju-52, so its hex is \"athens\"")
            placed[u] = "plane"
        planes.append(p)
    out["planes"] = planes
    for u in units:
        if board is not None and u.hex in board.boxes and u.id not in placed:
            r.bad("leros.boxes", f"{u.id} starts in {u.hex}: list it under [leros.boxes] or on a boat or Ju-52")
    var = r.strs(doc, "variants", "leros")
    for v in var:
        if v not in VARIANTS:
            r.bad("leros.variants", f"expected variant numbers among {', '.join(VARIANTS)}, not {v!r}")
    out["variants"] = var
    vu = doc.get("variant_units", {})
    out["variant_units"] = {k: list(v) for k, v in vu.items()} if isinstance(vu, dict) else {}
    for k, us in out["variant_units"].items():
        for u in us:
            if u not in ids:
                r.bad(f"leros.variant_units.{k}", f"no unit {u!r}")
    sb = doc.get("sea_boxes", {})
    out["sea_boxes"] = {}
    if isinstance(sb, dict):
        for lz, box in sb.items():
            if not str(lz).isdigit() or box not in SEA_BOXES:
                r.bad(f"leros.sea_boxes.{lz}", f"expected landing zone = box ({', '.join(SEA_BOXES)})")
            else:
                out["sea_boxes"][int(lz)] = box
    out["landing_zones"] = [b["lz"] for b in boats if b["load"]]
    out["drop_zones"] = sorted({p["dz"] for p in planes if p["dz"]})
    vic = doc.get("victory", {})
    if not isinstance(vic, dict):
        r.bad("leros.victory", "expected a table")
        vic = {}
    kind = r.get(vic, "kind", str, "leros.victory", default="features_held", choices=VICTORY_KINDS)
    feats = vic.get("features", [])
    ok_feats = []
    if not isinstance(feats, list):
        r.bad("leros.victory.features", "expected [[leros.victory.features]] tables with name and hexes")
        feats = []
    for i, f in enumerate(feats):
        w = f"leros.victory.features[{i}]"
        name = r.get(f, "name", str, w, required=True, default="")
        hexes = r.strs(f, "hexes", w)
        if board is not None:
            for h in hexes:
                try:
                    board.parse_hex(h)
                except Exception as e:  # noqa: BLE001
                    r.bad(f"{w}.hexes", str(e))
        ok_feats.append({"name": name, "hexes": list(hexes), "battery": r.get(f, "battery", bool, w, default=False),
                         "held_by": r.get(f, "held_by", str, w, default=BRITISH, choices=(GERMAN, BRITISH))})
    levels = r.strs(vic, "levels", "leros.victory")
    for lv in levels:
        if lv not in LEVELS:
            r.bad("leros.victory.levels", f"expected levels among {', '.join(LEVELS)}, not {lv!r}")
    if kind == "features_held" and ok_feats and len(levels) != len(ok_feats) + 1:
        r.bad("leros.victory.levels", f"expected {len(ok_feats) + 1} levels: for 0 to {len(ok_feats)} features held")
    out["victory"] = {"kind": kind, "features": ok_feats, "levels": list(levels),
                      "german_losses": r.get(vic, "german_losses", int, "leros.victory", default=40)}
    out["batteries_lost"] = r.strs(doc, "batteries_lost", "leros")
    for b in out["batteries_lost"]:
        if board is not None and f"Coastal Battery {b}" not in board.areas:
            r.bad("leros.batteries_lost", f"no Coastal Battery {b} on the map")
    out["independent"] = unit_list("independent")
    out["trucked"] = unit_list("trucked")
    off = doc.get("losses_off_counters", {})
    out["losses_off_counters"] = {}
    if not isinstance(off, dict):
        r.bad("leros.losses_off_counters", "expected a table of side = steps")
    else:
        for side, n in off.items():
            if side not in (GERMAN, BRITISH) or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                r.bad(f"leros.losses_off_counters.{side}", "expected german or british = a number of steps (0 or more)")
            else:
                out["losses_off_counters"][side] = n
    return out


def add_reserves(sc) -> None:
    """Leros 3.5 (campaign games): Army Group E's reserve groups the file does not hold join the scenario as
    units held back (``boxed`` "reserve") until released; a group the file holds (any of its units) counts as
    released already, and then requests may be made from the first turn (3.5 play note).  The surrender deadlines
    apply only when no group is released at the start (scenario 1 as a campaign).  Each company is three
    platoons, as the scenario writer makes every company (``leros_scenarios.py``)."""
    from ..scenario import UnitSpec
    from .leros import RESERVE_GROUPS

    lr = sc.leros
    if not lr.get("campaign") or "reserves" in lr:
        return
    have = {u.id for u in sc.units}
    start, held = 0, {}
    for g, orgs in enumerate(RESERVE_GROUPS, 1):
        ids = [f"{o}-{i}" for o in orgs for i in (1, 2, 3)]
        if any(u in have for u in ids):
            start = g
            continue
        held[str(g)] = ids
        for o in orgs:
            bn = "Para-Co" if o == "Para-Co" else o.split("-", 1)[1]
            sc.battalions.setdefault(bn, ("german", 0))           # Leros 5.1c: morale 0
            kind = "parachute" if o == "Para-Co" else "rifle"
            for i in (1, 2, 3):
                sc.units.append(UnitSpec(f"{o}-{i}", "german", f"german {kind} platoon",
                                         "athens" if o == "Para-Co" else "kos", formation="German", battalion=bn))
        if "Para-Co" in orgs:
            lr["paratroops"] = list(lr.get("paratroops", [])) + [f"Para-Co-{i}" for i in (1, 2, 3)]
    lr["reserves"] = held
    lr["reserve_start"] = start
    lr["reserve_deadlines"] = start == 0


def _register() -> None:
    from ..scenario import GAME_SECTIONS

    GAME_SECTIONS["leros"] = read_section


_register()
