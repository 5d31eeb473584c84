"""Writes the Leros scenario files (scenarios/leros-*.toml) from the rulebook's set-up text.

    python -m engine.rulesets.tcs.games.leros_scenarios      # rewrites scenarios/leros-*.toml

The book names companies, battalions and their set-up areas ("w/i 3 B35.13"), losses in steps, orders and
the boxes of the Sea and Air Movement Tracks; its order of battle and counter sheets are not in our text.
So the counters of each company are the program's choice, documented here and in docs/leros.md: a rifle
company is three platoons; a battalion's own units are a machine-gun platoon and a mortar section (3-inch
for the British); the German weapons companies (4, 8, 12) are two machine-gun platoons, an 81 mm mortar
section and a 120 mm mortar section; the regimental companies 13 and 14 two infantry guns and two 88 mm AT
guns; each artillery battery two 105 mm howitzers; 3-Flak two halftrack AA guns.  The counters' values
(firepower, steps...) come from the owner's counter manifest as everywhere in the TCS.  An owner with the
printed order of battle edits the files (or this table) to match it.

Each unit gets the set-up area the book gives it (``setup``, an area expression, Leros 5.1d): a company's own
area ("w/i 3 B35.13": ``within 3 of B35.13 and not terrain sea``); a British battalion's own units (its MG platoon
and mortar section) any of the battalion's sectors, the Bn Area included ("in any of the above sectors"); "Any"
units any of the side's designated areas in that scenario; "Free" units any land hex of the island (the rest of
5.1d's Free, not next to the enemy with a path clear of the enemy to a unit with a set-up restriction, is not an
area: the set-up phase refuses a British unit next to a German one, Leros 5.1a, and the path is not checked).
The unit's hex is a legal set-up inside that area (land hexes within the radius, nearest first, three to a hex,
British units not next to a German unless in a Building or Village hex, 5.1a): the set-up phase before turn 1
(engine/rulesets/tcs/setupphase.py) lets each side move them anywhere legal in their areas.  Losses are spread over the organisation's units (5.1b allows any spread), the named mortar and MG steps on
those units.
"""
from __future__ import annotations

import sys
from pathlib import Path

from ....fileio import atomic_write_text
from ....maps.hexes import hex_distance, hex_range
from ....maps.mapfile import load_map

ROOT = Path(__file__).resolve().parents[4]
MAP = ROOT / "maps" / "leros.toml"

# ---------------------------------------------------------------- the order of battle (the program's choice)

GERMAN_BNS = {            # battalion -> (rifle companies, weapons company or "")
    "II-16": (("5", "6", "7"), "8"), "II-65": (("5", "6", "7"), "8"), "III-440": (("9", "10", "11"), "12"),
    "II-Luft": (("5", "6", "7"), "8"), "I-FJ": (("1", "2", "3"), "4"), "III-Brg": (("9", "10", "11"), ""),
    "II-Brg": (("5", "6", "7"), ""),
}
BRITISH_BNS = {"Kings": "ABCD", "Irish": "ABCD", "Buffs": "ABCD", "Kents": "ABCD"}

MORTAR_CALIBRES = {"german 81mm mortar section": "81mm", "german 120mm mortar section": "120mm",
                   "british 3-inch mortar section": "3-inch"}


def company(cid: str, side: str, bn: str, kind: str = "rifle") -> list[dict]:
    t = f"{side} {'parachute' if bn in ('I-FJ', 'Para-Co') else kind} platoon"
    return [{"id": f"{cid}-{i}", "type": t, "bn": bn, "co": cid} for i in (1, 2, 3)]


def german_weapons(cid: str, bn: str) -> list[dict]:
    para = bn == "I-FJ"
    pre = "german parachute" if para else "german"
    out = [{"id": f"{cid}-MG1", "type": f"{pre} hmg platoon", "bn": bn, "co": cid, "mg": True},
           {"id": f"{cid}-MG2", "type": f"{pre} hmg platoon", "bn": bn, "co": cid, "mg": True},
           {"id": f"{cid}-Mor", "type": "german 81mm mortar section", "bn": bn, "co": cid, "mortar": True}]
    if not para:
        out.append({"id": f"{cid}-HMor", "type": "german 120mm mortar section", "bn": bn, "co": cid,
                    "heavy": True, "hmortar": True})
    return out


def british_bn_units(bn: str) -> list[dict]:
    return [{"id": f"{bn}-MG", "type": "british vickers mg platoon", "bn": bn, "co": bn, "mg": True},
            {"id": f"{bn}-Mor", "type": "british 3-inch mortar section", "bn": bn, "co": bn, "mortar": True}]


def german_oob() -> dict[str, list[dict]]:
    """Organisation name (as the book writes it) -> its counters."""
    org: dict[str, list[dict]] = {}
    for bn, (cos, w) in GERMAN_BNS.items():
        for c in cos:
            org[f"{c}-{bn}"] = company(f"{c}-{bn}", "german", bn)
        if w:
            org[f"{w}-{bn}"] = german_weapons(f"{w}-{bn}", bn)
    for reg in ("16", "65"):
        org[f"13-{reg}"] = [{"id": f"13-{reg}-{i}", "type": "german infantry gun platoon", "bn": f"Rgt-{reg}",
                             "co": f"13-{reg}", "heavy": False} for i in (1, 2)]
        org[f"14-{reg}"] = [{"id": f"14-{reg}-{i}", "type": "german 88mm at gun", "bn": f"Rgt-{reg}",
                             "co": f"14-{reg}", "heavy": True} for i in (1, 2)]
    org["Para-Co"] = company("Para-Co", "german", "Para-Co")
    org["Kust-Co"] = [dict(u, assault=True) for u in company("Kust-Co", "german", "Kust-Co")]
    org["2-Pio"] = [dict(u, assault=True) for u in company("2-Pio", "german", "2-Pio", "engineer")]
    for b in ("3-Arty", "4-Arty"):
        org[b] = [{"id": f"{b}-{i}", "type": "german 105mm howitzer", "bn": b, "co": b, "heavy": True,
                   "gun": "105mm"} for i in (1, 2)]
    org["3-Flak"] = [{"id": f"3-Flak-{i}", "type": "german halftrack aa gun", "bn": "3-Flak", "co": "3-Flak",
                      "heavy": True, "vehicle": True} for i in (1, 2)]
    return org


def british_oob(aa=6, mg=9, at=4, fa=3) -> dict[str, list[dict]]:
    org: dict[str, list[dict]] = {}
    for bn, cos in BRITISH_BNS.items():
        for c in cos:
            org[f"{c}-{bn}"] = company(f"{c}-{bn}", "british", bn)
        org[f"{bn}-Bn"] = british_bn_units(bn)
    org["SBS"] = [{"id": "SBS", "type": "sbs section", "bn": "Bde", "co": "SBS", "assault": True, "independent": True}]
    org["LRDG"] = [{"id": "LRDG", "type": "lrdg section", "bn": "Bde", "co": "LRDG", "assault": True, "independent": True}]
    org["Lgt-AA"] = [{"id": f"AA-{i}", "type": "british bofors aa gun", "bn": "Bde", "co": "Lgt-AA", "trucked": True}
                     for i in range(1, aa + 1)]
    org["MG-Bn"] = [{"id": f"MG-{i}", "type": "british vickers mg section", "bn": "Bde", "co": "MG-Bn"}
                    for i in range(1, mg + 1)]
    org["AT-Bn"] = [{"id": f"AT-{i}", "type": "british 2pdr at gun", "bn": "Bde", "co": "AT-Bn", "trucked": True}
                    for i in range(1, at + 1)]
    org["9-FA"] = [{"id": f"9FA-{i}", "type": "british 25pdr gun", "bn": "Bde", "co": "9-FA", "trucked": True}
                   for i in range(1, fa + 1)]
    org["Sac-Sqd"] = company("Sac-Sqd", "greek", "Sac-Sqd")
    return org


# ---------------------------------------------------------------- placing and losses

class Placer:
    def __init__(self, board):
        self.board = board
        self.count: dict = {}
        self.german: set = set()

    def land(self, h) -> bool:
        return h in self.board and self.board.terrain.get(h) != "sea"

    def place(self, centre: str, radius: int, side: str) -> str:
        c = self.board.parse_hex(centre)
        cands = sorted((h for h in hex_range(c, radius) if self.land(h)),
                       key=lambda h: (hex_distance(c, h), self.board.hex_id(h)))
        for h in cands:
            if self.count.get(h, 0) >= 3:
                continue
            if side == "british" and self.board.terrain.get(h) not in ("building", "village") and \
                    any(hex_distance(h, g) <= 1 for g in self.german):
                continue             # 5.1a: not adjacent to a German unit unless in a Building or Village hex
            self.count[h] = self.count.get(h, 0) + 1
            if side == "german":
                self.german.add(h)
            return self.board.hex_id(h)
        raise ValueError(f"no room within {radius} of {centre}")


def spread(units: list[dict], steps: int, pick=lambda u: True) -> int:
    """Spread ``steps`` losses over the units ``pick`` selects, one at a time, at most three on a unit; returns
    the steps those units could not take."""
    chosen = [u for u in units if pick(u)]
    i = 0
    while steps > 0 and chosen:
        u = chosen[i % len(chosen)]
        if u.get("lost", 0) < 3:
            u["lost"] = u.get("lost", 0) + 1
            steps -= 1
        elif all(x.get("lost", 0) >= 3 for x in chosen):
            break
        i += 1
    return steps


# ---------------------------------------------------------------- writing TOML

def q(s) -> str:
    return '"' + str(s).replace('"', '\\"') + '"'


def arr(xs) -> str:
    return "[" + ", ".join(q(x) for x in xs) + "]"


FEATURES = {
    "Mt. Meraviglia": ["B43.15"], "Mt. Appetici": ["B55.12"], "Rachi Ridge": ["B36.21"], "Quaranta": ["B39.30"],
    "Castle Leros": ["B51.17"], "Germano": ["B31.27"], "Mt. Vedetta": ["A54.06"], "Point 320 Clidi Ridge": ["A45.05"],
    "S. Quirico": ["A34.03"],
}


class Scn:
    """One scenario being written."""

    def __init__(self, sid, name, text, start, end, first, one_map=False, campaign=False):
        self.sid, self.name, self.text, self.start, self.end, self.first = sid, name, text, start, end, first
        self.one_map, self.campaign = one_map, campaign
        self.board = load_map(MAP)
        self.placer = Placer(self.board)
        self.units: list[dict] = []
        self.sheets: list[dict] = []
        self.boats: list[dict] = []
        self.planes: list[dict] = []
        self.boxes: dict[str, list[str]] = {}
        self.ammo: list[tuple] = []
        self.leros: dict = {}
        self.victory: dict = {}
        self.goe = german_oob()
        self.bri = british_oob()
        self.comment: list[str] = []
        self.unplaced: dict[str, int] = {}        # side -> listed lost steps no counter of ours can take
        self.bn_parts: dict = {}                  # (side, battalion) -> its companies' and Bn Area's (hex, radius)
        self.side_parts: dict = {}                # side -> every designated area (hex, radius) of the scenario

    def org(self, name: str) -> list[dict]:
        src = self.goe if name in self.goe else self.bri
        return [dict(u) for u in src[name]]

    def bn_orgs(self, bn: str) -> list[str]:
        if bn in GERMAN_BNS:
            cos, w = GERMAN_BNS[bn]
            return [f"{c}-{bn}" for c in cos] + ([f"{w}-{bn}"] if w else [])
        if bn in BRITISH_BNS:
            return [f"{c}-{bn}" for c in BRITISH_BNS[bn]] + [f"{bn}-Bn"]
        return [bn]

    def add(self, names, side, where, lose=0, mg=0, mortar=0, exclude=(), count=None, no_hmortar=False, area=None):
        """Units of the named organisations at ``where`` ((hex, radius) list, or a box name).  ``area`` is the
        kind of set-up area (Leros 5.1d): "co" the company's own (``where``), "bn" any sector of the battalion,
        "any" any designated area of the side, "free" the island; by default "bn" for a British battalion's own
        units and "co" for the rest."""
        us = []
        for n in names:
            us += self.org(n)
        us = [u for u in us if u["id"] not in exclude and not (no_hmortar and u.get("hmortar"))]
        if count is not None:
            us = us[:count]
        left = spread(us, mortar, lambda u: u.get("mortar"))
        left += spread(us, mg, lambda u: u.get("mg"))
        left += spread(us, lose, lambda u: not u.get("mg") and not u.get("mortar") and not u.get("heavy"))
        # Leros 5.1b: losses "can be taken from any unit type in the organization": what the named units cannot
        # take (a battalion's own units are an MG platoon and a mortar section, no rifle platoon) falls on the
        # others, so every step the set-up lists is lost and counted (5.2b)
        left = spread(us, left)
        if left:
            self.unplaced[side] = self.unplaced.get(side, 0) + left      # counted in 5.2b all the same
        for i, u in enumerate(us):
            u["side"] = side
            if not isinstance(where, str):
                kind = area or ("bn" if u["co"] == u["bn"] and u["bn"] in BRITISH_BNS else "co")
                u["area"], u["parts"] = kind, list(where)
                if kind in ("co", "bn", "any"):
                    self.bn_parts.setdefault((side, u["bn"]), []).extend(where)
                    self.side_parts.setdefault(side, []).extend(where)
            if isinstance(where, str):
                u["hex"] = where
                self.boxes.setdefault(where, []).append(u["id"])
            else:
                c, r = where[i % len(where)]
                u["hex"] = self.placer.place(c, r, side)
            self.units.append(u)
        return [u["id"] for u in us]

    def setup_area(self, u: dict) -> str:
        """The unit's set-up area as an area expression (Leros 5.1d); "" for one that starts off the map."""
        kind = u.get("area")
        if kind is None:
            return ""
        if kind == "free":
            return "not terrain sea" + (" and sheet B" if self.one_map else "")
        parts = {"co": u["parts"], "bn": self.bn_parts.get((u["side"], u["bn"]), []) + u["parts"],
                 "any": self.side_parts.get(u["side"], []) + u["parts"]}[kind]
        seen: list = []
        for p in parts:
            if p not in seen:
                seen.append(p)
        if len(seen) == 1 and seen[0][1] == 0:
            return seen[0][0]                      # one hex (scenario 3's C-Irish platoon in the castle)
        terms = [f"within {r} of {c}" if r else c for c, r in seen]
        union = terms[0] if len(terms) == 1 else "(" + " or ".join(terms) + ")"
        return f"{union} and not terrain sea" + (" and sheet B" if self.one_map else "")   # "Map Area: Map B only"

    def destroyed(self, orgs, side, ids=None):
        """Leros 5.1f: the companies the set-up leaves out are destroyed; their counters start in the dead pile,
        whole, and count among the side's losses (5.2b).  ``ids`` picks some counters of the organisations."""
        full = {**german_oob(), **british_oob()}
        us = [dict(u, side=side, hex="dead") for o in orgs for u in full[o] if ids is None or u["id"] in ids]
        self.units += us
        self.boxes.setdefault("dead", []).extend(u["id"] for u in us)

    def board_units(self, names, side, box):
        """Units that start aboard a boat or Ju-52: their hex is the holding box they sail from."""
        us = []
        for n in names:
            us += self.org(n)
        for u in us:
            u["side"], u["hex"] = side, box
            self.units.append(u)
        return [u["id"] for u in us]

    def sheet(self, sid, side, typ, units, objective, implemented=True, weighted=0, reserve=False):
        self.sheets.append({"id": sid, "side": side, "type": typ, "units": units, "objective": objective,
                            "implemented": implemented, "weighted": weighted, "reserve": reserve})

    def write(self) -> str:
        text, minutes = LIBRARY.get(self.sid, (None, None))
        text = text or self.text
        L = [f"# Leros scenario: {self.name}.  Written by engine/rulesets/tcs/games/leros_scenarios.py from the",
             "# rulebook's set-up text; the counters of each company are the program's choice (see that module and",
             "# docs/leros.md).  Counter values come from the owner's counter manifest (tcs.counter.* charts).", ""]
        L += [f"# {c}" for c in self.comment] + ([""] if self.comment else [])
        L += ["[scenario]", f"id = {q(self.sid)}", f"name = {q(self.name)}", 'ruleset = "tcs"', 'game = "Leros"',
              f"text = {q(text)}"] + ([f"playing_minutes = [{minutes[0]}, {minutes[1]}]"] if minutes else []) + [
              'map = "../maps/leros.toml"', "year = 1943", f"start = {q(self.start)}",
              f"end = {q(self.end)}", f"first_player = {q(self.first)}", 'weather = "Normal"',
              'weather_table = "leros.weather"', "",
              "[options]", "stacking_units = 3", "illum_always_scatters = true",
              'no_smoke_weather = ["Gale", "Storm"]', 'no_zone_block_weather = ["Gale", "Storm"]', ""]
        lim = {"german": 3 if self.one_map else 8, "british": 2 if self.one_map else 6}
        if "4.6" in self.leros.get("variants", []):
            lim["british"] = 4 if self.one_map else 12
        prep = {"german": 3, "british": 4 if "4.6" in self.leros.get("variants", []) else 5}
        for side, name, nation in (("german", "Germans", "german"), ("british", "British", "british")):
            L += ["[[sides]]", f"id = {q(side)}", f"name = {q(name)}", f"nation = {q(nation)}",
                  f"command_prep = {prep[side]}   # Leros {'3.1c' if side == 'german' else '2.1c'}",
                  f"max_implemented = {lim[side]}   # Leros {'3.1b' if side == 'german' else '2.1b'}"]
            if side == "german":      # the series' printed Staff modifier (the British have none, 2.1d)
                L.append("staff_asked = true   # TCS 6.9f: asked at the first German implementation")
            L.append("")
        L += ['[[formations]]', 'id = "German"', 'side = "german"', 'name = "German invasion force"',
              f"max_implemented = {lim['german']}", f"max_sheets = {lim['german'] + 4}", "",
              '[[formations]]', 'id = "234-Bde"', 'side = "british"', 'name = "234 Brigade"',
              f"max_implemented = {lim['british']}", f"max_sheets = {lim['british'] + 4}", ""]
        bns = sorted({(u["side"], u["bn"]) for u in self.units})
        for side, bn in bns:
            L += ["[[battalions]]", f"id = {q(bn)}", f"side = {q(side)}", "morale = 0   # Leros 5.1c", ""]
        for u in self.units:
            L += ["[[units]]", f"id = {q(u['id'])}", f"side = {q(u['side'])}", f"type = {q(u['type'])}",
                  f"hex = {q(u['hex'])}", f"formation = {q('German' if u['side'] == 'german' else '234-Bde')}",
                  f"battalion = {q(u['bn'])}"]
            where = self.setup_area(u)
            if where:
                L += [f"setup = {q(where)}", f"setup_rule = {q('Leros 5.1d')}"]
            if u.get("vehicle"):
                L.append("vehicle = true")
            if u.get("lost"):
                L.append(f"steps_lost = {u['lost']}")
            if u.get("assault"):
                L.append("assault_trained = true   # Leros 1.7")
            L.append("")
        known = {u["id"] for u in self.units}
        for s in self.sheets:
            us = [u for u in s["units"] if u in known]
            L += ["[[op_sheets]]", f"id = {q(s['id'])}", f"side = {q(s['side'])}",
                  f"formation = {q('German' if s['side'] == 'german' else '234-Bde')}", f"type = {q(s['type'])}",
                  f"units = {arr(us)}", f"objective = {arr(s['objective'])}"]
            if s["implemented"]:
                L.append("implemented = true   # Leros 5.1h")
            if s["weighted"]:
                L.append(f"weighted_turns = {s['weighted']}")
            if s["reserve"]:
                L.append("reserve = true")
            L.append("")
        if any(u["id"].startswith("9FA-") for u in self.units):
            L += ["[[batteries]]", 'id = "9-FA"', 'side = "british"', 'calibre = "25pdr"', 'smoke = true', ""]
        for b in ("3-Arty", "4-Arty"):
            if any(u["id"].startswith(b) for u in self.units):
                L += ["[[batteries]]", f"id = {q(b)}", 'side = "german"', 'calibre = "105mm"   # Leros 3.2a', ""]
        # every mortar section fires as an on-map battery of its own (series indirect fire by the unit itself, any
        # own unit that sees the target spotting); the British 3-inch mortars fire smoke and illum (Leros 2.6).
        # No ammunition pool is given for mortars, so their rounds are not counted.
        for u in self.units:
            cal = MORTAR_CALIBRES.get(u["type"])
            if cal:
                L += ["[[batteries]]", f"id = {q(u['id'])}", f"side = {q(u['side'])}", f"calibre = {q(cal)}",
                      f"unit = {q(u['id'])}"] + (["smoke = true   # Leros 2.6"] if cal == "3-inch" else []) + [""]
        for side, cal, he, smoke, illum in self.ammo:
            L += ["[[ammo]]", f"side = {q(side)}", f"calibre = {q(cal)}", f"he = {he}", f"smoke = {smoke}",
                  f"illum = {illum}", ""]
        raf = "4.1" in self.leros.get("variants", []) or "4.2" in self.leros.get("variants", [])
        L += ["[[air]]", 'side = "german"', f'table = {q("leros.german_sorties_raf" if raf else "leros.german_sorties")}',
              'sortie_type = "german stuka sortie"',
              'weather = ["Normal", "Wind"]   # Leros 3.3b, 1.4', ""]
        if raf:
            L += ["[[air]]", 'side = "british"', 'table = "leros.british_sorties"',
                  'sortie_type = "british beaufighter sortie"', 'weather = ["Normal", "Wind"]   # Leros 2.3', ""]
        L += ["[[fire_shifts]]", 'feature = "castle"', "shift = -2", 'rule = "Leros 1.1c"', ""]
        # the [leros] section
        lr = self.leros
        L += ["[leros]", f"campaign = {str(self.campaign).lower()}", f"one_map = {str(self.one_map).lower()}",
              f"drift = {q(lr.get('drift', 'N'))}"]
        for k in ("alternate_start",):
            if lr.get(k):
                L.append(f"{k} = {q(lr[k])}")
        if lr.get("historical_setup"):
            L.append("historical_setup = true   # Leros 2.7")
        if lr.get("batteries_lost"):
            L.append(f"batteries_lost = {arr(lr['batteries_lost'])}   # coastal batteries already out")
        if lr.get("variants"):
            L.append(f"variants = {arr(lr['variants'])}")
        if lr.get("no_weather_roll"):
            L.append(f"no_weather_roll = {arr(lr['no_weather_roll'])}")
        if self.unplaced:
            L.append("losses_off_counters = { " + ", ".join(f"{k} = {v}" for k, v in sorted(self.unplaced.items()))
                     + " }   # Leros 5.1b, 5.2b: lost steps the set-up lists beyond what our counters can take")
        L.append(f"heavy = {arr([u['id'] for u in self.units if u.get('heavy')])}   # Leros 1.2c")
        L.append(f"paratroops = {arr([u['id'] for u in self.units if u['bn'] in ('I-FJ', 'Para-Co')])}   # Leros 3.6")
        L.append(f"independent = {arr([u['id'] for u in self.units if u.get('independent')])}   # Leros 2.1e")
        L.append(f"trucked = {arr([u['id'] for u in self.units if u.get('trucked') or u.get('heavy') or u.get('gun')])}"
                 "   # Leros 1.6")
        L.append(f"not_platoons = {arr([u['id'] for u in self.units if 'platoon' not in u['type']])}")
        if lr.get("sea_boxes"):
            L.append("sea_boxes = { " + ", ".join(f'"{k}" = {q(v)}' for k, v in sorted(lr["sea_boxes"].items())) + " }")
        guns = {u["id"]: u["gun"] for u in self.units if u.get("gun")}
        if guns:
            L.append("guns = { " + ", ".join(f"{q(k)} = {q(v)}" for k, v in guns.items()) + " }   # Leros 3.2b")
        L.append("")
        if self.boxes:
            L.append("[leros.boxes]")
            for b, us in self.boxes.items():
                L.append(f"{b} = {arr(us)}")
            L.append("")
        for b in self.boats:
            L += ["[[leros.boats]]", f"id = {q(b['id'])}", f"type = {q(b['type'])}", f"side = {q(b['side'])}",
                  f"box = {q(b['box'])}"]
            if b.get("load"):
                L += [f"load = {arr(b['load'])}", f"lz = {b['lz']}"]
            if b.get("sheet"):
                L.append(f"sheet = {q(b['sheet'])}")
            L.append("")
        for p in self.planes:
            L += ["[[leros.planes]]", f"id = {q(p['id'])}", f"box = {q(p['box'])}"]
            if p.get("load"):
                L += [f"load = {arr(p['load'])}", f"dz = {q(p['dz'])}"]
            L.append("")
        v = self.victory
        L += ["[leros.victory]", f"kind = {q(v['kind'])}"]
        if v.get("levels"):
            L.append(f"levels = {arr(v['levels'])}")
        L.append("")
        for f in v.get("features", []):
            L += ["[[leros.victory.features]]", f"name = {q(f['name'])}", f"hexes = {arr(f['hexes'])}"]
            if f.get("battery"):
                L.append("battery = true")
            if f.get("held_by", "british") != "british":
                L.append(f"held_by = {q(f['held_by'])}")
            L.append("")
        return "\n".join(L).rstrip() + "\n"

    # helpers for the scenarios' boats and planes
    def boat(self, bid, typ, box, load=(), lz=0, sheet="", side="german"):
        self.boats.append({"id": bid, "type": typ, "side": side, "box": box, "load": list(load), "lz": lz,
                           "sheet": sheet})

    def load_planes(self, units: list[str], n: int, box: str, dz: str) -> None:
        """Ju-52s #1-n carrying ``units`` two to a flight (3.6d); the rest wait in Athens."""
        flights = [units[i:i + 2] for i in range(0, len(units), 2)]
        for i in range(n):
            load = flights[i] if i < len(flights) else []
            self.planes.append({"id": f"Ju52-{i + 1}", "box": box if load else "athens", "load": load,
                                "dz": dz if load else ""})
        rest = [u for f in flights[n:] for u in f]
        for u in self.units:
            if u["id"] in rest:
                self.boxes.setdefault("athens", []).append(u["id"])


def features(names) -> list[dict]:
    out = [{"name": n, "hexes": FEATURES[n]} for n in names]
    return out


def town(board, name) -> list[str]:
    return sorted(board.hex_id(h) for h in board.areas[name].hexes)


def battery_features(board, letters) -> list[dict]:
    out = []
    for letter in letters:
        h = next(iter(board.areas[f"Coastal Battery {letter}"].hexes))
        out.append({"name": f"Coastal Battery {letter}", "hexes": [board.hex_id(h)], "battery": True})
    return out


# ---------------------------------------------------------------- the scenarios

S1_ORDERS_PD = ["A-Kings", "B-Kings", "D-Kings", "A-Irish", "B-Irish", "D-Irish", "B-Buffs", "D-Buffs", "Lgt-AA",
                "AT-Bn"]
S1_ORDERS_RES = ["C-Kings", "Kings-Bn", "C-Buffs", "Buffs-Bn", "C-Irish", "Irish-Bn", "B-Kents", "9-FA", "MG-Bn"]


def ids_of(s: Scn, orgs) -> list[str]:
    want = set()
    for o in orgs:
        want |= {u["id"] for u in s.org(o)} if (o in s.goe or o in s.bri) else set()
    return [u["id"] for u in s.units if u["id"] in want]


def nearest_feature(board, lz: int) -> str:
    """A hill or named feature at or within 13 hexes of a coastal hex of the Landing Zone (scenario 1's order)."""
    coast = [h for h in board.areas[f"Landing Zone {lz}"].hexes if "coast" in board.features_of(h)]
    best = min(FEATURES.items(), key=lambda kv: (min(hex_distance(board.parse_hex(kv[1][0]), c) for c in coast), kv[0]))
    return best[1][0]


def british_s1(s: Scn) -> None:
    s.add(["A-Kings"], "british", [("C39.30", 6)])
    s.add(["B-Kings"], "british", [("C36.14", 6)])
    s.add(["C-Kings"], "british", [("B40.19", 2)])
    s.add(["D-Kings"], "british", [("B42.06", 4)])
    s.add(["Kings-Bn"], "british", [("B42.06", 4)])
    s.add(["A-Irish"], "british", [("B40.25", 3)])
    s.add(["B-Irish"], "british", [("B35.13", 3)])
    s.add(["C-Irish"], "british", [("B40.13", 3)])
    s.add(["D-Irish"], "british", [("B27.29", 5)])
    s.add(["Irish-Bn"], "british", [("B40.13", 3)])
    s.add(["B-Buffs"], "british", [("A29.14", 5)])
    s.add(["C-Buffs"], "british", [("A34.03", 3)])
    s.add(["D-Buffs"], "british", [("A40.17", 4)])
    s.add(["Buffs-Bn"], "british", [("A28.07", 4)])
    s.add(["B-Kents"], "british", [("B45.17", 3)])
    s.add(["SBS", "LRDG"], "british", [("B45.17", 3)], area="any")
    s.add(["Lgt-AA", "MG-Bn", "AT-Bn", "9-FA"], "british", [("B40.13", 3), ("B42.06", 4), ("B35.13", 3), ("A28.07", 4)],
          area="any")
    s.add(["A-Kents", "C-Kents", "D-Kents", "Kents-Bn"], "british", "samos")
    s.sheet("B-PD", "british", "prepared_defense", ids_of(s, S1_ORDERS_PD), ["B40.25", "B35.13", "B42.06", "C36.14"])
    s.sheet("B-RES", "british", "move", ids_of(s, S1_ORDERS_RES), ["B43.15"], implemented=False, reserve=True)
    for i in (1, 2):
        s.boat(f"M-Sweep-{i}", "M-Sweep", "samos", side="british")
    s.boat("Sub-1", "Sub", "samos", side="british")


def german_s1(s: Scn) -> None:
    b = s.board
    plans = [(3, ["5-II-65", "9-III-440", "10-III-440", "11-III-440", "5-II-Luft", "6-II-Luft", "7-II-Luft"],
              [("MFP", i) for i in (1, 2, 3, 4)] + [("I-Boat", i) for i in (1, 2, 3, 4)]),
             (4, ["6-II-65", "7-II-65", "2-Pio"], [("Barge", i) for i in (1, 2, 3, 4, 5)]),
             (5, ["Kust-Co"], [("MFP", 5)]),
             (13, ["5-II-16", "6-II-16", "7-II-16"], [("Barge", i) for i in (6, 7, 8, 9)])]
    for lz, orgs, boats in plans:
        units = s.board_units(orgs, "german", "kos")
        sid = f"G-LZ{lz}"
        s.sheet(sid, "german", "attack", units, [nearest_feature(b, lz)])
        per = -(-len(units) // len(boats))
        for i, (typ, n) in enumerate(boats):
            s.boat(f"{typ}-{n}", typ, "A", units[i * per:(i + 1) * per], lz, sid)
    s.leros["sea_boxes"] = {3: "A", 4: "A", 5: "A", 13: "A"}
    para = s.board_units(["1-I-FJ", "2-I-FJ", "3-I-FJ"], "german", "athens")
    s.load_planes(para, 6, "air-B", "B34.25")
    s.sheet("G-FJ", "german", "attack", para, ["B36.21"])
    s.add(["4-I-FJ"], "german", "athens")
    s.boat("Barge-10", "Barge", "kos")
    s.add(["3-Arty", "4-Arty", "3-Flak", "8-II-16", "13-16", "14-16", "8-II-65", "13-65", "14-65", "12-III-440",
           "8-II-Luft"], "german", "kos")


def s1_victory(s: Scn) -> None:
    b = s.board
    feats = battery_features(b, "ABCDEFGHIJKLM")
    feats += [{"name": "Mt. Meraviglia", "hexes": ["B43.15"]}, {"name": "Mt. Appetici", "hexes": ["B55.12"]},
              {"name": "Leros", "hexes": town(b, "Leros")}, {"name": "Portolago", "hexes": town(b, "Portolago")}]
    s.victory = {"kind": "curtain_rises", "features": feats}


# the game library's situation (where the scenario's own line does not say it) and playing time, solitaire, in
# minutes (least, most): our estimate from the turns, maps and forces, not the book's (docs/scenario-format.md)
LIBRARY = {
    "leros-1-curtain-rises": (None, (480, 780)),
    "leros-1a-night-landings": ("12 November 1943: the invasion of Leros with the first landings made by night; the British stand still until the Germans land.", (600, 960)),
    "leros-2-drop-zone": (None, (120, 240)),
    "leros-3-night-melee": (None, (60, 120)),
    "leros-4-big-show": (None, (900, 1500)),
    "leros-5-curtain-falls": (None, (900, 1500)),
    "leros-c1-campaign": ("The whole battle, from the first landings on 12 November to the night of 17 November: the Germans must make the British surrender the island.", (4800, 8400)),
    "leros-c4-campaign": ("From the British counter-attack of 14 November to the night of 17 November: the island is taken or held.", (3000, 5400)),
    "leros-c5-campaign": ("From the last German drive of 16 November to the night of 17 November: the island is taken or held.", (1500, 2700)),
}


def scenario_1(alternate=False, campaign=False) -> Scn:
    sid = "leros-c1-campaign" if campaign else "leros-1a-night-landings" if alternate else "leros-1-curtain-rises"
    name = ("Leros campaign C1 (from The Curtain Rises)" if campaign else
            "Leros 1a: The Curtain Rises at Night" if alternate else "Leros 1: The Curtain Rises")
    s = Scn(sid, name, "12 November 1943: the German sea and air invasion of Leros.",
            "0100 12 Nov" if alternate else "0640 12 Nov", "2300 17 Nov" if campaign else "1240 12 Nov", "german",
            campaign=campaign)
    german_s1(s)
    british_s1(s)
    s.ammo.append(("british", "25pdr", 60, 3, 0))
    s.leros["historical_setup"] = True
    if alternate:
        s.leros["alternate_start"] = "0100 12 Nov"
        s.comment.append("Alternate start (scenario 1): the German player picks the start, 0100 Nov 12 the earliest;")
        s.comment.append("the British do nothing until the Germans land; victory shifts one level to the British.")
    if campaign:
        s.comment.append("Campaign game (Leros 5.2b): surrender demands from 0100 Nov 13 (1.3); the British win by")
        s.comment.append("holding out to the end of Nov 17; the level is the winner's steps lost.")
    s1_victory(s)
    return s


def scenario_2() -> Scn:
    s = Scn("leros-2-drop-zone", "Leros 2: Drop-Zone Leros", "12 November 1943, afternoon: I-FJ jumps onto Rachi Ridge.",
            "1400 12 Nov", "1700 12 Nov", "german", one_map=True)
    para = s.board_units(["1-I-FJ", "2-I-FJ", "3-I-FJ"], "german", "athens")
    s.load_planes(para, 6, "air-B", "B34.25")
    kust = s.add(["Kust-Co"], "german", [("B59.12", 2)], lose=3)
    s.sheet("G-FJ", "german", "attack", para, ["B36.21", "B31.27"])
    s.sheet("G-KUST", "german", "attack", kust, ["B55.12"])
    s.add(["D-Kings", "Kings-Bn"], "british", [("B42.06", 4)])
    s.add(["A-Irish"], "british", [("B40.25", 3)])
    s.add(["B-Irish"], "british", [("B35.13", 3)])
    s.add(["C-Irish"], "british", [("B53.13", 4)], lose=2)
    s.add(["D-Irish"], "british", [("B27.29", 5)])
    s.add(["Irish-Bn"], "british", [("B40.13", 3)])
    s.add(["SBS", "LRDG", "B-Kents"], "british", [("B45.17", 2)])
    s.bri = british_oob(aa=4, mg=5, at=3, fa=3)
    s.add(["Lgt-AA", "MG-Bn", "AT-Bn", "9-FA"], "british", [("B40.13", 3), ("B42.06", 4), ("B35.13", 3)], area="any")
    s.sheet("B-PD", "british", "prepared_defense", ids_of(s, S1_ORDERS_PD), ["B40.25", "B35.13", "B42.06"])
    s.sheet("B-RES", "british", "move", ids_of(s, S1_ORDERS_RES), ["B43.15"], implemented=False, reserve=True)
    s.ammo.append(("british", "25pdr", 15, 0, 0))
    s.leros["no_weather_roll"] = ["1400", "1500"]
    feats = features(["Mt. Appetici", "Rachi Ridge", "Mt. Meraviglia", "Quaranta", "Castle Leros"])
    s.victory = {"kind": "features_held", "features": feats,
                 "levels": ["German Massive", "German Major", "German Minor", "British Minor", "British Major",
                            "British Massive"]}
    s.comment.append("Special rules: the drop zones are chosen before the British set up (the Ju-52s' dz); no weather")
    s.comment.append("roll 1400-1500 (Normal); no sea movement.")
    return s


def scenario_3() -> Scn:
    s = Scn("leros-3-night-melee", "Leros 3: Night Melee", "14 November 1943, before dawn: attack and counter-attack on map B.",
            "0200 14 Nov", "0500 14 Nov", "german", one_map=True)
    s.comment.append("First player: by a die roll (the players roll and may edit first_player); no sea or air movement.")
    a = s.add(["6-II-65"], "german", [("B42.30", 5)], lose=7)
    a += s.add(["7-II-65"], "german", [("B42.30", 5)], lose=5)
    a += s.add(["8-II-65"], "german", [("B42.30", 5)], no_hmortar=True)
    h = s.add(["9-III-440"], "german", [("B58.11", 3)], lose=3)
    h += s.add(["12-III-440"], "german", [("B58.11", 3)], mg=1, mortar=1, no_hmortar=True)
    a += s.add(s.bn_orgs("I-FJ"), "german", [("B35.24", 5)], lose=15, mg=1, mortar=1)
    a += s.add(["Para-Co"], "german", [("B35.24", 5)], lose=4)
    k = s.add(["Kust-Co"], "german", [("B35.24", 5)], lose=3)
    a += s.add(["2-Pio"], "german", [("B35.24", 5)], lose=5)
    s.sheet("G-HD", "german", "hasty_defense", h, ["B58.11"])
    s.sheet("G-PD", "german", "prepared_defense", k, ["B35.24"])
    s.sheet("G-ATT", "german", "attack", a, ["B43.15"])
    att = s.add(["A-Kings"], "british", [("B46.11", 3)], lose=2)
    hd = s.add(["C-Kings"], "british", [("B34.10", 3)])
    att += s.add(["D-Kings"], "british", [("B46.11", 3)], lose=2)
    att += s.add(["Kings-Bn"], "british", [("B42.06", 3)])
    hd += s.add(["B-Irish"], "british", [("B35.13", 3)])
    hd += s.add(["C-Irish"], "british", [("B51.17", 0)], lose=1, count=1)
    hd += s.add(["C-Irish"], "british", [("B40.13", 3)], lose=3, exclude=("C-Irish-1",))
    hd += s.add(["Irish-Bn"], "british", [("B40.13", 3)], lose=3, mg=2)
    mv = s.add(["A-Kents", "Kents-Bn"], "british", [("B35.03", 5)])
    hd += s.add(["B-Kents"], "british", [("B45.17", 3)])
    s.bri = british_oob(aa=6, mg=9, at=4, fa=3)
    hd += s.add(["Lgt-AA", "MG-Bn", "AT-Bn", "9-FA"], "british", [("B40.13", 3), ("B42.06", 3), ("B35.13", 3)],
                area="any")
    s.sheet("B-ATT", "british", "attack", att, ["B55.12"])
    s.sheet("B-HD", "british", "hasty_defense", hd, ["B40.13", "B35.13"])
    s.sheet("B-MV", "british", "move", mv, ["B43.15"])
    s.ammo.append(("british", "25pdr", 10, 1, 0))
    feats = features(["Mt. Meraviglia", "Mt. Appetici", "Rachi Ridge"])
    feats.insert(3, {"name": "Leros", "hexes": town(s.board, "Leros")})
    feats.append({"name": "Castle Leros", "hexes": ["B51.17"]})
    for f in feats:
        if f["name"] in ("Mt. Appetici", "Rachi Ridge"):
            f["held_by"] = "german"
    s.victory = {"kind": "features_held", "features": feats,
                 "levels": ["German Massive", "German Major", "German Minor", "Draw", "British Minor", "British Major"]}
    return s


def scenario_4(campaign=False) -> Scn:
    s = Scn("leros-c4-campaign" if campaign else "leros-4-big-show",
            "Leros campaign C4 (from The Big Show)" if campaign else "Leros 4: The Big Show",
            "14 November 1943: the British counter-attack from Clidi to Germano.", "0600 14 Nov",
            "2300 17 Nov" if campaign else "1740 14 Nov", "german", campaign=campaign)
    hd = s.add(s.bn_orgs("II-16"), "german", [("B34.30", 3), ("B31.27", 3)], lose=15, no_hmortar=True)
    att = s.add(s.bn_orgs("II-65"), "german", [("B38.25", 2), ("B41.22", 2)], lose=21, no_hmortar=True)
    hd += s.add(["9-III-440"], "german", [("B59.13", 4)], lose=3)
    hd += s.add(["12-III-440"], "german", [("B59.13", 4)], mg=1, mortar=1, no_hmortar=True)
    mer = s.add(s.bn_orgs("I-FJ"), "german", [("B34.21", 2), ("B36.23", 2), ("B37.20", 2)], lose=21, mg=3, mortar=1)
    mer += s.add(["Para-Co"], "german", [("B34.21", 2), ("B36.23", 2)], lose=6)
    mer += s.add(["2-Pio"], "german", [("B37.20", 2)], lose=7)
    hd += s.add(["Kust-Co"], "german", [("B59.13", 4)], lose=3)
    hd += s.add(s.bn_orgs("II-Luft"), "german", [("A52.06", 4), ("A47.04", 4), ("B42.34", 4)], lose=9, no_hmortar=True)
    s.add(["3-Arty", "4-Arty", "3-Flak", "13-16", "14-16", "13-65", "14-65"], "german", "kos")
    s.add(["10-III-440"], "german", "kos", lose=3)
    s.add(["11-III-440"], "german", "kos", lose=3)
    s.add(["9-III-Brg", "10-III-Brg", "11-III-Brg"], "german", "kos")
    hm = [u for u in s.goe if u.startswith("8-") or u.startswith("12-")]
    for org in hm:
        for u in s.goe[org]:
            if u.get("hmortar"):
                s.units.append(dict(u, side="german", hex="kos"))
                s.boxes.setdefault("kos", []).append(u["id"])
    for i in (1, 2, 3):
        s.boat(f"MFP-{i}", "MFP", "kos")
    for i in (1, 2):
        s.boat(f"I-Boat-{i}", "I-Boat", "kos")
    for i in range(1, 10):
        s.boat(f"Barge-{i}", "Barge", "kos")
    s.load_planes([], 6, "athens", "")
    s.sheet("G-HD", "german", "hasty_defense", hd, ["B59.13", "B31.27"])
    s.sheet("G-ATT", "german", "attack", att, ["B47.16"])
    s.sheet("G-MER", "german", "attack", mer, ["B43.15"])
    s.bri = british_oob(aa=4, mg=8, at=0, fa=2)
    un = s.add(["A-Kings"], "british", [("B50.11", 3)], lose=5)
    un += s.add(["D-Kings"], "british", [("B50.11", 3)], lose=5)
    pd = s.add(["B-Kings"], "british", [("C36.14", 5)])
    un += s.add(["C-Kings"], "british", [("B34.10", 3)], lose=4)
    hd_b = s.add(["Kings-Bn"], "british", [("B42.06", 4)])
    rachi = s.add(["B-Irish"], "british", [("B35.13", 3)], lose=1)
    pd += s.add(["C-Irish"], "british", [("B51.17", 0)], lose=1, count=1)
    rest = s.add(["C-Irish"], "british", [("B40.13", 3)], lose=5, exclude=("C-Irish-1",))
    pd += rest
    rachi += rest
    pd += s.add(["D-Irish"], "british", [("B26.35", 2)], lose=9)
    hd_b += s.add(["Irish-Bn"], "british", [("B40.10", 3)], lose=3, mg=2)
    clidi = s.add(["B-Buffs"], "british", [("A36.13", 3)])
    road = s.add(["C-Buffs"], "british", [("A31.05", 3)], lose=5)
    germ = s.add(["D-Buffs"], "british", [("A40.15", 3)], lose=3)
    hd_b += s.add(["Buffs-Bn"], "british", [("A27.10", 3)], lose=3, mg=2)
    un += s.add(["A-Kents"], "british", [("B42.06", 4)])
    bk = s.add(["B-Kents"], "british", [("B45.17", 3)], lose=3)
    hd_b += bk
    rachi += bk
    hd_b += s.add(["Kents-Bn"], "british", [("B42.06", 4)])
    s.add(["SBS", "LRDG"], "british", [("B45.17", 3)], area="free")
    hd_b += s.add(["Lgt-AA", "MG-Bn", "9-FA"], "british", [("B40.13", 3), ("B42.06", 4), ("B35.13", 3)], area="any")
    s.add(["C-Kents", "D-Kents"], "british", "samos")
    s.destroyed(["A-Irish", "AT-Bn"], "british")          # 5.1f: not in the set-up
    s.destroyed(["Lgt-AA", "MG-Bn", "9-FA"], "british", ids=("AA-5", "AA-6", "MG-9", "9FA-3"))   # 4, 8, 2 in play
    for i in (1, 2):
        s.boat(f"M-Sweep-{i}", "M-Sweep", "samos", side="british")
    s.boat("Sub-1", "Sub", "samos", side="british")
    pd_only = [u for u in pd if u not in rachi]
    s.sheet("B-HD", "british", "hasty_defense", [u for u in hd_b if u not in rachi], ["B42.06"])
    s.sheet("B-PD", "british", "prepared_defense", pd_only, ["C36.14", "B51.17", "B26.35"])
    s.sheet("B-CLIDI", "british", "attack", clidi, ["A45.05"])
    s.sheet("B-ROAD", "british", "attack", road, ["B47.16"])
    s.sheet("B-GERM", "british", "attack", germ, ["B31.27"])
    s.sheet("B-RACHI", "british", "attack", rachi, ["B36.21"], implemented=False, weighted=28)
    s.ammo.append(("british", "25pdr", 20, 2, 0))
    s.comment.append("Unassigned at start: A-, C-, D-Kings and A-Kents (on no Op Sheet).  Coastal batteries G, H and")
    s.comment.append("M are out (all but G, H, M are active).")
    feats = features(["Mt. Vedetta", "Point 320 Clidi Ridge", "S. Quirico", "Rachi Ridge", "Mt. Meraviglia",
                      "Mt. Appetici"])
    for f in feats:
        if f["name"] in ("Mt. Vedetta", "Point 320 Clidi Ridge", "Rachi Ridge", "Mt. Appetici"):
            f["held_by"] = "german"
    s.victory = {"kind": "features_held", "features": feats,
                 "levels": ["German Massive", "German Major", "German Minor", "Draw", "British Minor",
                            "British Major", "British Massive"]}
    s.leros["batteries_lost"] = ["G", "H", "M"]
    return s


def scenario_5(campaign=False) -> Scn:
    s = Scn("leros-c5-campaign" if campaign else "leros-5-curtain-falls",
            "Leros campaign C5 (from The Curtain Falls)" if campaign else "Leros 5: The Curtain Falls",
            "16 November 1943: III-Brg spearheads the last drive on Mt. Meraviglia.", "0400 16 Nov",
            "2300 17 Nov" if campaign else "1740 16 Nov", "german", campaign=campaign)
    att = s.add(s.bn_orgs("II-16"), "german", [("B41.23", 3), ("B34.22", 3)], lose=20, mortar=1, mg=2, no_hmortar=True)
    att += s.add(s.bn_orgs("II-65"), "german", [("B48.18", 3), ("B45.21", 3)], lose=21, mortar=1, mg=2, no_hmortar=True)
    att += s.add(s.bn_orgs("III-440"), "german", [("B54.13", 6)], lose=11, mortar=2, mg=2, no_hmortar=True)
    att += s.add(["Kust-Co"], "german", [("B54.13", 6)], lose=4)
    hd = s.add(s.bn_orgs("I-FJ"), "german", [("B33.26", 3), ("B38.28", 3)], lose=21, mortar=2, mg=3)
    hd += s.add(["Para-Co"], "german", [("B33.26", 3), ("B38.28", 3)], lose=6)
    att += s.add(s.bn_orgs("III-Brg"), "german", [("B54.13", 6)])
    att += s.add(["2-Pio"], "german", [("B54.13", 6)], lose=7)
    hd += s.add(s.bn_orgs("II-Luft"), "german", [("B54.34", 4)], lose=23, no_hmortar=True)
    land = s.board_units(["3-Flak", "13-16", "14-16", "3-Arty"], "german", "kos")
    s.sheet("G-ATT", "german", "attack", att, ["B43.15"])
    s.sheet("G-HD", "german", "hasty_defense", hd, ["B33.26", "B54.34"])
    s.sheet("G-LAND", "german", "move", land, ["B47.16"])
    boats = [("MFP", 1), ("MFP", 2), ("MFP", 3), ("I-Boat", 1), ("I-Boat", 2)]
    per = -(-len(land) // len(boats))
    for i, (typ, n) in enumerate(boats):
        s.boat(f"{typ}-{n}", typ, "C", land[i * per:(i + 1) * per], 6, "G-LAND")
    s.leros["sea_boxes"] = {6: "C"}
    for i in range(1, 10):
        s.boat(f"Barge-{i}", "Barge", "kos")
    s.add(["4-Arty", "13-65", "14-65"], "german", "kos")
    for org in [o for o in s.goe if o.startswith("8-") or o.startswith("12-")]:
        for u in s.goe[org]:
            if u.get("hmortar"):
                s.units.append(dict(u, side="german", hex="kos"))
                s.boxes.setdefault("kos", []).append(u["id"])
    s.load_planes([], 6, "athens", "")
    pd = s.add(["A-Kings"], "british", [("B42.12", 4)], lose=9)
    pd += s.add(["B-Kings"], "british", [("C36.14", 5)])
    pd += s.add(["C-Kings"], "british", [("B45.08", 3)], lose=8)
    pd += s.add(["D-Kings"], "british", [("B42.14", 4)], lose=9)
    pd += s.add(["Kings-Bn"], "british", [("B42.12", 4)], lose=5, mg=4, mortar=3)
    pd += s.add(["B-Irish"], "british", [("B22.34", 3)], lose=1)
    pd += s.add(["D-Irish"], "british", [("B22.34", 3)], lose=9)
    pd += s.add(["C-Irish"], "british", [("B38.12", 3)], lose=11)
    pd += s.add(["Irish-Bn"], "british", [("B42.13", 3)], lose=3, mg=4, mortar=2)
    pd += s.add(["B-Buffs"], "british", [("A49.11", 4)], lose=5)
    pd += s.add(["C-Buffs"], "british", [("A34.07", 4)], lose=8)
    pd += s.add(["D-Buffs"], "british", [("B27.34", 4)], lose=6)
    pd += s.add(["Buffs-Bn"], "british", [("A27.10", 4)], lose=6, mg=4, mortar=2)
    hd_b = s.add(s.bn_orgs("Kents"), "british", [("B39.15", 4)], lose=18, mg=2, mortar=2)
    s.add(["SBS"], "british", [("B42.12", 4)], lose=1, area="any")
    s.add(["LRDG"], "british", [("B42.13", 3)], lose=1, area="any")
    s.destroyed(["A-Irish", "9-FA", "AT-Bn", "Lgt-AA", "MG-Bn"], "british")     # 5.1f: "Dead" in the set-up
    for i in (1, 2):
        s.boat(f"M-Sweep-{i}", "M-Sweep", "samos", side="british")
    s.boat("Sub-1", "Sub", "samos", side="british")
    s.sheet("B-PD", "british", "prepared_defense", pd, ["B43.15", "B36.21", "B31.27"])
    s.sheet("B-HD", "british", "hasty_defense", hd_b, ["B39.15"])
    s.comment.append("Dead at start: A-Irish, 9 FA, AT Bn, Lgt AA, MG Bn.  Coastal batteries G, H and M are out.")
    s.comment.append("The British may surrender (Leros 1.3); the victory levels count the features they hold, or the")
    s.comment.append("hour of their surrender.  Holding none without surrendering is a Draw (the program's reading).")
    feats = features(["Mt. Meraviglia", "Rachi Ridge", "Germano"])
    for f in feats:
        if f["name"] in ("Rachi Ridge", "Germano"):
            f["held_by"] = "german"
    s.victory = {"kind": "curtain_falls", "features": feats,
                 "levels": ["Draw", "British Minor", "British Major", "British Massive"]}
    s.leros["batteries_lost"] = ["G", "H", "M"]
    return s


SCENARIOS = {
    "leros-1-curtain-rises": lambda: scenario_1(),
    "leros-1a-night-landings": lambda: scenario_1(alternate=True),
    "leros-2-drop-zone": scenario_2,
    "leros-3-night-melee": scenario_3,
    "leros-4-big-show": lambda: scenario_4(),
    "leros-5-curtain-falls": lambda: scenario_5(),
    "leros-c1-campaign": lambda: scenario_1(campaign=True),
    "leros-c4-campaign": lambda: scenario_4(campaign=True),
    "leros-c5-campaign": lambda: scenario_5(campaign=True),
}


def main(argv=None) -> int:
    out = ROOT / "scenarios"
    for sid, make in SCENARIOS.items():
        atomic_write_text(out / f"{sid}.toml", make().write())
        print(f"wrote scenarios/{sid}.toml")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
