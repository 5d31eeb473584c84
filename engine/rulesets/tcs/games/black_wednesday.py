"""Black Wednesday's eight scenarios and its campaign as TCS scenario files, written from the book's set-ups.

``python -m engine.rulesets.tcs.games.black_wednesday`` writes ``scenarios/black-wednesday-*.toml`` (always the
same files from the same data).  Each unit carries its set-up area as an area expression (BW 1.10e/f), and
its ``hex`` is the first hex of that area, in hex order, with room under the stacking limit, so every file is
"set up from its set-up rules alone"; the player moves counters anywhere else inside their areas
(``engine.rulesets.tcs.setup``).  Choices the book leaves open are said where they are made:

- losses (BW 1.10c) are spread one step at a time over the group's units in counter order; the player may
  move them (the book lets him choose freely);
- Spanish/German companies and Soviet battalions are formed from the manifest as ``bw_oob`` says;
- play areas ("Map B east of the railroad") limit set-up and victory areas, not movement.
"""
from __future__ import annotations

import json
from pathlib import Path

from .bw_oob import ALL, U, axis_all, soviet_all

ROOT = Path(__file__).resolve().parents[4]
SOVIET_ENTRY = "soviet_entry"                                                   # BW 1.10g
SPANISH_ENTRY = "entry_area_a or entry_area_b or entry_area_c or entry_area_d"  # BW 1.10h
GERMAN_ENTRY = "entry_area_e or entry_area_f or entry_area_g or entry_area_h"
DIV = {"63": "63Gd", "72": "72", "43": "43"}


def w(n, *hexes) -> str:
    return " or ".join(f"within {n} of {h}" for h in hexes)


def units_of(group: str, take: dict | None = None, minus: dict | None = None) -> list[U]:
    """A set-up group's counters: a company, battalion, regiment (with its battalions: "269-63Gd*"), division."""
    if group.endswith("*"):
        g = group[:-1]
        us = [u for u in ALL.values() if u.group == g or u.group.endswith("-" + g)]
    else:
        us = [u for u in ALL.values() if u.group == group]
    if take:
        out = []
        for typ, n in take.items():
            out += [u for u in us if u.type == typ][:n]
        us = out
    for typ, n in (minus or {}).items():
        drop = [u for u in us if u.type == typ][:n]
        us = [u for u in us if u not in drop]
    return us


class Builder:
    def __init__(self):
        self.units: dict[str, dict] = {}
        self.morale: dict[str, int] = {}

    def place(self, us, area, rule, losses=0, morale=None, battalion=None):
        for u in us:
            if u.id in self.units:
                self.units[u.id]["setup"] = f"({self.units[u.id]['setup']}) or ({area})"
                continue
            self.units[u.id] = {"u": u, "setup": area, "rule": rule, "lost": 0}
            if u.battalion and u.battalion not in self.morale:
                self.morale[u.battalion] = 0
        self.lose(us, losses)
        if morale is not None:
            for b in {u.battalion for u in us if u.battalion} | ({battalion} if battalion else set()):
                self.morale[b] = morale

    def dead(self, us, rule):
        """BW 5.0 "Pre-game losses ... do count": counters a set-up gives as lost ("Less 6x KV-I", "has lost 8x
        T-34") start in the dead pile, lost units for victory (5.1's shifts), not left out of the order of battle."""
        for u in us:
            if u.id not in self.units:
                self.units[u.id] = {"u": u, "dead": True, "rule": rule, "lost": 0}

    def live(self, uid: str) -> bool:
        return uid in self.units and not self.units[uid].get("dead")

    def lose(self, us, losses):
        """BW 1.10c: the group's losses one step at a time over its units (the player may re-allocate)."""
        live = [u for u in us if self.live(u.id) and not self.units[u.id].get("enters")]
        i = 0
        while losses > 0 and live:
            self.units[live[i % len(live)].id]["lost"] += 1
            losses -= 1
            i += 1

    def enter(self, us, clock, entry, rule, release=""):
        for u in us:
            self.units[u.id] = {"u": u, "enters": clock, "entry": entry, "rule": rule, "release": release, "lost": 0}
            if u.battalion and u.battalion not in self.morale:
                self.morale[u.battalion] = 0


# ------------------------------------------------------------------ Axis set-ups (BW 1.10f)
def axis_setup(b: Builder, companies: dict, battalions: dict, reserves: list, others: str = "", extra_any=""):
    """Companies in their company area or their battalion's; battalion weapons units in the battalion area or any
    of its companies' areas; reserves anywhere listed (BW 1.10f)."""
    every = " or ".join(f"({a})" for a in [*(c[0] for c in companies.values()), *battalions.values(), others, extra_any]
                        if a)
    for group, spec in companies.items():
        area, losses = spec[0], spec[1] if len(spec) > 1 else 0
        take = spec[2] if len(spec) > 2 else None
        co, _, bn = group.partition("-")
        us = units_of(group, take=take) if not group.startswith("Bty") else units_of(group)
        a = area if bn not in battalions else f"({area}) or ({battalions[bn]})"
        morale = spec[3] if len(spec) > 3 else None
        b.place(us, a, "BW 1.10f", losses, morale)
    for entry in reserves:
        e = entry if isinstance(entry, tuple) else (entry,)
        group, take, minus, losses = e + (None, None, 0)[len(e) - 1:]
        kept = units_of(group, take, minus)
        b.place(kept, every, "BW 1.10f (reserves)", losses)
        b.dead([u for u in units_of(group, take) if u not in kept], "BW 5.0 (lost before play)")
    return every


def soviet_setup(b: Builder, battalions: dict, regiments: dict, divisions: dict):
    """Battalions in their areas; mortars and regimental guns in the regimental area or any of its battalions';
    divisional units in any area of the division (BW 1.10e)."""
    by_reg: dict[str, list[str]] = {}
    by_div: dict[str, list[str]] = {}
    for bn, spec in battalions.items():
        area, losses = spec[0], spec[1]
        morale = spec[2] if len(spec) > 2 else None
        us = units_of(bn)
        reg = bn.split("-", 1)[1]
        by_reg.setdefault(reg, []).append(area)
        by_div.setdefault(reg.split("-")[1], []).append(area)
        plain = [u for u in us if not u.weapon]
        b.place(plain, area, "BW 1.10e", losses, morale)
    for reg, spec in regiments.items():
        area, losses, minus = spec[0], spec[1], spec[2] if len(spec) > 2 else None
        by_div.setdefault(reg.split("-")[1], []).append(area)
        anyreg = " or ".join(f"({a})" for a in [area, *by_reg.get(reg, [])])
        rus = units_of(reg, minus=minus)
        b.place([u for u in rus if not u.weapon], area, "BW 1.10e", losses)
        b.place([u for u in rus if u.weapon], anyreg, "BW 1.10e (regimental guns and mortars)")
        b.dead([u for u in units_of(reg) if u not in rus], "BW 5.0 (lost before play)")
        for bn in ("1", "2", "3"):
            mor = [u for u in units_of(f"{bn}-{reg}") if u.weapon]
            if f"{bn}-{reg}" in battalions:
                b.place(mor, anyreg, "BW 1.10e (mortars)")
    for div, spec in divisions.items():
        losses, minus = spec[0], spec[1] if len(spec) > 1 else None
        anyd = " or ".join(f"({a})" for a in by_div.get(div, []))
        dus = units_of(f"{div}-div", minus=minus)
        b.place(dus, anyd, "BW 1.10e (divisional units)", losses)
        b.dead([u for u in units_of(f"{div}-div") if u not in dus], "BW 5.0 (lost before play)")


# ------------------------------------------------------------------ victory
def cond(i, text, kind, side, area="", count=0, group="", credit=""):
    c = {"id": i, "text": text, "kind": kind, "side": side, "area": area, "count": count}
    if credit:                # BW scenarios 2 and 3: hexes credited for released Axis reserve companies
        c["credit"] = credit
    if group:                 # BW 5.1: the intact formation an exit condition counts
        c["group"] = group
    return c


def levels_count(ids, soviet_at, draw_at, axis_name="Axis victory"):
    out = [{"name": "Soviet victory", "winner": "soviet", "conditions": ids, "at_least": soviet_at}]
    if draw_at:
        out.append({"name": "Draw", "winner": "", "conditions": ids, "at_least": draw_at})
    out.append({"name": axis_name, "winner": "axis", "conditions": []})
    return out


# ------------------------------------------------------------------ TOML
def _v(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (int, float)):
        return str(x)
    if isinstance(x, list):
        return "[" + ", ".join(_v(i) for i in x) + "]"
    return json.dumps(x, ensure_ascii=False)


def write(path: Path, head: dict, sides, formations, b: Builder, board, sheets=(), batteries=(), ammo=(),
          releases=(), victory=None, comment="", options=None, breaches=0):
    from ....scenario.areas import AreaContext
    ctx = AreaContext(board)
    occupied: dict = {}
    limit = (options or {}).get("stacking_units", 4)
    lines = [f"# {ln}" if ln else "#" for ln in comment.strip().splitlines()]
    lines += ["# Written by engine/rulesets/tcs/games/black_wednesday.py; docs/scenario-format.md (TCS) describes the keys.",
              "", "[scenario]"] + [f"{k} = {_v(v)}" for k, v in head.items()]
    options = {"game_rules": "black_wednesday", **(options or {})}
    if "looting" in options:                    # BW 2.1f: the looting units in play (not those lost before it)
        options["looting"] = [u for u in options["looting"] if b.live(u)]
    if any(t["id"].startswith("289-") for t in batteries):     # BW 2.3a: the 289's division, assigned before play
        has = {x["u"].formation for x in b.units.values() if x["u"].fo}
        options.setdefault("at289_division", "63Gd" if "63Gd" in has else sorted(has)[-1])
    wire = sorted(h for h, fs in board.features.items() if "wire" in fs)
    if breaches:      # "Deploy N full Wire Breaches in any Soviet Set Up Area": the first N wire hexes in them
        sov = frozenset().union(*(ctx.hexes(x["setup"]) for x in b.units.values()
                                  if x["u"].side == "soviet" and x.get("setup")))
        options["full_breaches"] = [board.hex_id(h) for h in wire if h in sov][:breaches]
    if options:
        lines += ["", "[options]"] + [f"{k} = {_v(v)}" for k, v in options.items()]
    for s in sides:
        lines += ["", "[[sides]]"] + [f"{k} = {_v(v)}" for k, v in s.items()]
    for f in formations:
        lines += ["", "[[formations]]"] + [f"{k} = {_v(v)}" for k, v in f.items()]
    for bn, m in sorted(b.morale.items()):
        side = ALL[next(k for k, x in b.units.items() if x["u"].battalion == bn)].side
        lines += ["", "[[battalions]]", f"id = {_v(bn)}", f"side = {_v(side)}", f"morale = {m}"]
    for uid, x in b.units.items():
        u: U = x["u"]
        if x.get("dead"):                       # BW 5.0: lost before play, in the dead pile from the start
            lines += ["", "[[units]]", f"id = {_v(uid)}", f"side = {_v(u.side)}", f"type = {_v(u.type)}",
                      'hex = "dead"', f"formation = {_v(u.formation)}"]
            if u.battalion:
                lines.append(f"battalion = {_v(u.battalion)}")
            if u.vehicle:
                lines.append("vehicle = true")
            lines.append("# lost before play: a lost unit for victory (BW 5.0)")
            continue
        if x.get("enters") or x.get("release"):
            area = sorted(ctx.hexes(x["entry"]))
            hx = area[0]
        else:
            area = sorted(ctx.hexes(x["setup"]))
            hx = next((h for h in area if occupied.get(h, 0) < limit or u.fo), area[0])
            if not u.fo:
                occupied[hx] = occupied.get(hx, 0) + 1
        lines += ["", "[[units]]", f"id = {_v(uid)}", f"side = {_v(u.side)}", f"type = {_v(u.type)}",
                  f"hex = {_v(board.hex_id(hx))}", f"formation = {_v(u.formation)}"]
        if u.battalion:
            lines.append(f"battalion = {_v(u.battalion)}")
        if u.vehicle:
            lines.append("vehicle = true")
        if u.fo:
            lines.append("fo = true")
        if u.group.split("-")[-1] in ("MR", "Engineer", "Ski") or any(
                w in u.type for w in ("engineer", "smg", "cavalry")):
            lines.append("assault_trained = true")          # BW 1.12
        if x["lost"]:
            lines.append(f"steps_lost = {x['lost']}")
        if x.get("enters") or x.get("release"):
            if x.get("enters"):
                lines.append(f"enters = {_v(x['enters'])}")
            if x.get("release"):
                lines.append(f"release = {_v(x['release'])}")
            lines.append(f"entry = {_v(x['entry'])}")
        else:
            lines += [f"setup = {_v(x['setup'])}", f"setup_rule = {_v(x['rule'])}"]
    for s in sheets:
        s = {**s, "units": [u for u in s["units"] if b.live(u)]}     # only the counters this set-up has in play
        lines += ["", "[[op_sheets]]"] + [f"{k} = {_v(v)}" for k, v in s.items()]
    for t in batteries:
        lines += ["", "[[batteries]]"] + [f"{k} = {_v(v)}" for k, v in t.items()]
    # BW 2.2d, 2.3d, 2.8: each Soviet mortar company fires as an on-map battery with its own unit (82 mm ones
    # spot only for themselves, 120 mm ones for themselves or their regiment's mortar FO), never smoke.  The
    # book gives them no ammunition pool, so no [[ammo]] row counts their rounds (a designer who wants them
    # counted adds "82mm"/"120mm" rows); their barrage values are the series chart's rows, asked in play.
    # The Axis 81mm mortar sections are on-map batteries too (any Axis unit that sees the target spots, 3.2d's
    # "regular spotter"; smoke by the series' 80 mm rule), their rounds likewise uncounted.
    for uid, x in b.units.items():
        if x.get("dead"):
            continue
        cal = {"soviet 82mm mortar company": "82mm", "soviet 120mm mortar company": "120mm"}.get(x["u"].type)
        if cal:
            lines += ["", "[[batteries]]", f"id = {_v(uid)}", 'side = "soviet"', f"calibre = {_v(cal)}",
                      'fires_as = "battery"', f"unit = {_v(uid)}", "smoke = false", 'smoke_rule = "BW 2.8"']
        elif x["u"].type in ("spanish 81mm mortar section", "german 81mm mortar section"):
            lines += ["", "[[batteries]]", f"id = {_v(uid)}", 'side = "axis"', 'calibre = "81mm"',
                      'fires_as = "battery"', f"unit = {_v(uid)}"]
    rel_ids = {t["id"] for t in releases}
    have = {t["id"]: t["calibre"] for t in batteries if t["side"] == "axis"}
    for bid, cal in GERMAN_BATTERIES:          # BW 3.5: a German battery the table releases (3.5a: with its rounds)
        if "de-" + bid in rel_ids:
            have[bid] = cal
            lines += ["", "[[batteries]]", f"id = {_v(bid)}", 'side = "axis"', f"calibre = {_v(cal)}",
                      'fires_as = "battery"', f"release = {_v('de-' + bid)}"]
    from .bw_artillery import AXIS_BATTALIONS
    for bn, members in AXIS_BATTALIONS.items():    # BW 3.2: the batteries of a battalion may fire together
        if all(m in have for m in members):
            lines += ["", "[[batteries]]", f"id = {_v(bn)}", 'side = "axis"', f"calibre = {_v(have[members[0]])}",
                      'fires_as = "battalion"']
    for t in ammo:
        lines += ["", "[[ammo]]"] + [f"{k} = {_v(v)}" for k, v in t.items()]
    if head["start"].endswith("10 Feb") and head["end"].endswith("11 Feb") and head["end"][:4] >= "0500":
        for side, cal, he, smoke in (("soviet", "76mm", 50, 20), ("soviet", "122mm", 20, 5),      # BW 2.3c
                                     ("axis", "105mm", 20, 20), ("axis", "150mm", 50, 20),        # BW 3.2c Spanish
                                     ("axis", "105mm de", 100, 20), ("axis", "150mm de", 120, 15)):  # German
            lines += ["", "[[ammo_arrivals]]", 'clock = "0500 11 Feb"', f"side = {_v(side)}", f"calibre = {_v(cal)}",
                      f"he = {he}", f"smoke = {smoke}"]
    # BW 1.9: every scenario rolls the Air Sortie Table on its Clear day turns; its results are German (Stuka,
    # 4.1c) or Soviet sorties, attacking with their counter type's firepower (the manifest's, asked in play)
    for side, typ in (("axis", "german stuka sortie"), ("soviet", "soviet air sortie")):
        lines += ["", "[[air]]", f"side = {_v(side)}", 'table = "bw.air_sortie"', f"sortie_type = {_v(typ)}",
                  'weather = ["clear"]']
    for t in releases:
        lines += ["", "[[releases]]"] + [f"{k} = {_v(v)}" for k, v in t.items()]
    lines += ["", "[[fire_shifts]]", 'feature = "trench"', "shift = -2", 'rule = "BW 1.3a"',
              "", "[[fire_shifts]]", 'feature = "el bastion"', "shift = -2", 'rule = "BW 1.6 (with the trench\'s -2: -4)"']
    if victory:
        lines += ["", "[victory]", f"holder = {_v(victory.get('holder', 'axis'))}"]
        for c in victory["conditions"]:
            lines += ["", "[[victory.conditions]]"] + [f"{k} = {_v(v)}" for k, v in c.items()]
        for lv in victory["levels"]:
            lines += ["", "[[victory.levels]]"] + [f"{k} = {_v(v)}" for k, v in lv.items()]
        for sh in victory.get("shifts", ()):
            lines += ["", "[[victory.shifts]]"] + [f"{k} = {_v(v)}" for k, v in sh.items()]
    path.write_text(_set_up("\n".join(lines) + "\n", path), encoding="utf-8")


def _set_up(text: str, path: Path) -> str:
    """The file's set-up hexes as the engine's own set-up from the rules places them (BW 1.10e/f: first hex
    in hex order with room, the Axis never north of the wire and the trench hexes by the wire covered)."""
    import re
    import tempfile

    from ..scenario import load_tcs_scenario
    from ..setup import SetUp

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / path.name
        probe.write_text(text.replace('"../maps/', f'"{(path.parent.parent / "maps").as_posix()}/'),
                         encoding="utf-8")
        sc = load_tcs_scenario(probe)
    s = SetUp(sc)
    s.auto()
    blocks = text.split("\n[[units]]\n")
    for i, blk in enumerate(blocks[1:], 1):
        uid = re.match(r'id = "([^"]+)"', blk).group(1)
        if uid in s.hexes:
            blocks[i] = re.sub(r'^hex = "[^"]*"$', f'hex = "{sc.board.hex_id(s.hexes[uid])}"', blk, count=1,
                               flags=re.M)
    return "\n[[units]]\n".join(blocks)


# ------------------------------------------------------------------ the scenarios
SOV = {"id": "soviet", "name": "Soviet", "nation": "soviet", "command_prep": 7, "max_implemented": 4}   # BW 2.1b/c
AXIS = {"id": "axis", "name": "Axis", "nation": "german", "command_prep": 3,                            # BW 3.2a
        "staff_asked": True}              # BW 3.1c: the series' printed Staff modifier, asked when first needed
FORMATIONS = [  # BW 2.1b: a division on one implemented sheet and one more; 2.1c armour's own pair; 2.1d ratings
    {"id": "63Gd", "side": "soviet", "name": "63 Guard Rifle Division", "command_prep": 5, "uncoordinated": True},
    {"id": "43", "side": "soviet", "name": "43 Rifle Division", "command_prep": 7, "uncoordinated": True},
    {"id": "72", "side": "soviet", "name": "72 Rifle Division", "command_prep": 7, "uncoordinated": True},
    {"id": "armour", "side": "soviet", "name": "Soviet armour (1 Ind Tank Bn, 1 Red Banner Tank Bde)",
     "command_prep": 7, "uncoordinated": True},              # BW 2.1d: 7 for all others, no Size or Staff
    # BW 3.1b/c: Spanish and German units never share a sheet; ratings 3 and 2, Size and Staff apply
    {"id": "spanish", "side": "axis", "name": "250 (Blue) Infantry Division", "command_prep": 3,
     "max_implemented": 99, "max_sheets": 99},
    {"id": "german", "side": "axis", "name": "Kampfgruppe Heckel", "command_prep": 2, "max_implemented": 99,
     "max_sheets": 99},
]
TWILIGHT = ["0600", "0620", "1720", "1740"]
S1_AXIS = dict(companies={"1-I-262": (w(2, "B16.29"),), "2-I-262": (w(2, "B16.33"),)},
               battalions={"I-262": w(4, "B21.32")},
               reserves=["4-I-262", ("13-262", {"spanish 75mm infantry gun": 2}),
                         ("14-262", {"spanish 75mm at gun": 2, "spanish 37mm at gun": 4}), "Ski-Ski"])
S2_AXIS = dict(companies={"3-I-262": (w(2, "B19.26", "B24.25"),), "5-II-262": (w(2, "B29.25", "B33.23"),),
                          "6-II-262": (w(2, "B34.15", "B34.19"),), "7-II-262": (w(2, "B33.12", "B31.09"),),
                          "Bty3": (w(5, "B41.21"),)},
               battalions={"II-262": w(4, "B38.16")}, others=w(6, "B53.12") + " or " + w(5, "B37.06"),
               reserves=[("13-262", {"spanish 75mm infantry gun": 2, "spanish 150mm infantry gun": 2}), "1-AT*",
                         "AT-2SS", "Engineer*", "Recon*", "8-II-262"])
S3_AXIS = dict(companies={"3-MR": (w(2, "B29.03", "B30.05"),), "2-MR": (w(2, "A30.33", "A27.30"),),
                          "1-MR": (w(2, "A25.23"),), "9-III-262": (w(2, "A21.31", "A22.30"),),
                          "10-III-262": (w(2, "A15.32", "A17.33"),), "11-III-262": (w(2, "A12.29", "A10.27"),),
                          "Bty1": (w(5, "B49.19"),), "Bty2": (w(5, "B45.18"),), "Bty7": (w(5, "A27.14"),),
                          "Bty8": (w(5, "A27.14"),)},
               battalions={"MR": w(5, "A25.24"), "III-262": w(5, "A17.25")},
               reserves=["4-MR", "12-III-262", ("13-262", {"spanish 75mm infantry gun": 2}),
                         ("14-262", {"spanish 37mm at gun": 6})])


def _axis(b, *parts):
    companies, battalions, reserves, others = {}, {}, [], []
    for p in parts:
        companies.update(p["companies"])
        battalions.update(p["battalions"])
        reserves += p["reserves"]
        if p.get("others"):
            others.append(p["others"])
    # reserves listed as whole formations ("1-AT*", "Engineer*") are the formation's groups
    res = []
    for r in reserves:
        if isinstance(r, str) and r.endswith("*"):
            res += sorted({u.group for u in ALL.values() if u.group == r[:-1] or u.group.endswith("-" + r[:-1])})
        else:
            res.append(r)
    return axis_setup(b, companies, battalions, res, " or ".join(others))


def _soviet_enter(b, groups, clock="0600 10 Feb"):
    for g in groups:
        b.enter(units_of(g), clock, SOVIET_ENTRY, "BW 1.10g")


SPANISH_RESERVE = ["1-I-263", "2-I-263", "3-I-263", "4-I-263", "5-II-269", "8-II-269"]      # BW 3.3a
GERMAN_GROUPS = [  # BW 3.5: A = a company or a battery, B = an armour company, KG III Flak or two companies
    ("de-1-635Ost", ["1-635Ost"], "A"), ("de-2-635Ost", ["2-635Ost"], "A"),
    ("de-1-390", ["1-I-390"], "A"), ("de-2-390", ["2-I-390"], "A"), ("de-3-390", ["3-I-390"], "A"),
    ("de-4-390", ["4-I-390"], "A"), ("de-5-390", ["5-II-390"], "A"), ("de-6-390", ["6-II-390"], "A"),
    ("de-7-390", ["7-II-390"], "A"), ("de-8-390", ["8-II-390"], "A"),
    ("de-226", ["1-226"], "B"), ("de-563", ["1-563"], "B"), ("de-102", ["102"], "B"), ("de-flak", ["KG-Flak"], "B"),
]
GERMAN_BATTERIES = [  # BW 3.2 / 3.5: the German batteries not set up come by the table (A: one, B: two), I-215 first
    ("I-215-1", "105mm de"), ("I-215-2", "105mm de"), ("I-215-3", "105mm de"),
    ("III-215-9", "150mm de"), ("850-1", "150mm de"), ("850-2", "150mm de"), ("850-3", "150mm de"),
]


def _variable(b, spanish=True, german=True, soviet14=False, trigger="trench"):
    """The variable reinforcements (BW 2.7, 3.3, 3.5): groups already set up are not reinforcements; ``trigger``
    "" rolls from the first Command Phase (scenarios 4-8 start after the Soviets entered the trenches at 0600-0900:
    3.3a and 3.5's "after the first Soviet unit enters a Trench hex" has already happened)."""
    rel = []
    if spanish:
        rel.append({"id": "spanish-reserve", "side": "axis", "rule": "BW 3.3a", "table": "bw.spanish_reinforcements",
                    "trigger": trigger, "result": "released"})
        for g in SPANISH_RESERVE:
            if not any(u.id in b.units for u in units_of(g)):      # scenario 5: "1 and 2-I-263 are already committed"
                b.enter(units_of(g), "", SPANISH_ENTRY, "BW 3.3a", release="spanish-reserve")
    if german:
        for gid, groups, size in GERMAN_GROUPS:
            if any(u.id in b.units for g in groups for u in units_of(g)):
                continue                                    # set up at the start (scenario 7's 635 Ost)
            rel.append({"id": gid, "side": "axis", "rule": "BW 3.5", "table": "bw.german_reinforcements",
                        "trigger": trigger, "result": size})
            for g in groups:
                b.enter(units_of(g), "", GERMAN_ENTRY, "BW 3.5", release=gid)
        for bid, _cal in GERMAN_BATTERIES:
            rel.append({"id": "de-" + bid, "side": "axis", "rule": "BW 3.5", "table": "bw.german_reinforcements",
                        "trigger": trigger, "result": "A"})
    if soviet14:
        rel.append({"id": "14-72", "side": "soviet", "rule": "BW 2.7", "at_least": 11,
                    "trigger": "entered:spanish-reserve"})
        b.enter(units_of("14-72*"), "", SOVIET_ENTRY, "BW 2.7", release="14-72")
    return rel


def _bats(side, ids, calibre, fires_as="battalion"):
    return [{"id": i, "side": side, "calibre": calibre, "fires_as": fires_as} for i in ids]


# BW 2.3: the Soviet artillery battalions and their gun sizes, row by row as the table gives them (2-162-43 and
# 3-162-43 leave play at 0500 Feb 11: bw_artillery.WITHDRAWN)
SOV_BATS = {
    "289": _bats("soviet", ["289-1", "289-2", "289-3"], "76mm"),
    "162": _bats("soviet", ["162-1", "162-2"], "76mm") + _bats("soviet", ["162-3"], "122mm"),
    "343": _bats("soviet", ["343-1", "343-2"], "76mm") + _bats("soviet", ["343-3"], "122mm"),
    "9": _bats("soviet", ["9-1", "9-2"], "76mm") + _bats("soviet", ["9-3"], "122mm"),
}


def _ammo(side, calibre, he=0, smoke=0, illum=0):
    return {"side": side, "calibre": calibre, "he": he, "smoke": smoke, "illum": illum}


# the game library's playing time of each scenario, solitaire, in minutes (least, most): our estimate from its turns,
# maps and forces, not the book's (docs/scenario-format.md, playing_minutes)
PLAYING_MINUTES = {1: [180, 300], 2: [180, 300], 3: [360, 600], "3c": [2400, 4200], 4: [300, 480], 5: [300, 480],
                   6: [540, 900], "6c": [2100, 3600], 7: [300, 540], "7c": [1500, 2700], 8: [720, 1200]}


def _head(n, slug, name, start, end, first, text, play_area=""):
    h = {"id": f"black-wednesday-{n}", "name": f"Black Wednesday {n}: {name}", "ruleset": "tcs",
         "game": "Black Wednesday", "text": text, "playing_minutes": PLAYING_MINUTES[n],
         "map": "../maps/black-wednesday.toml", "year": 1943,
         "start": start, "end": end, "twilight": TWILIGHT, "first_player": first, "weather": "clear",
         "weather_table": "bw.weather"}
    if play_area:
        h["play_area"] = play_area
    return h


def _trench_east(board):
    """Trench hexes east of the October Railroad (sheet B, rows at or above the railroad's row in that column)."""
    rr = {}
    for h in board.areas["October Railroad"].hexes:
        hid = board.hex_id(h)
        rr[hid[:3]] = min(rr.get(hid[:3], 99), int(hid[4:]))
    east, west = [], []
    for h, fs in board.features.items():
        if "trench" not in fs:
            continue
        hid = board.hex_id(h)
        (east if hid[0] == "B" and hid[:3] in rr and int(hid[4:]) >= rr[hid[:3]] else west).append(hid)
    return " or ".join(sorted(east)), " or ".join(sorted(west))


def _hexes_expr(hexes) -> str:
    return " or ".join(sorted(hexes))


def _south_of_trench(board, hexes) -> list[str]:
    """BW 5.1 "south of the trench line": a hex whose first number is at least the first trench line's
    northernmost hex in its own hex line (same sheet, same second number; the sheets' first number runs north
    to south, docs/tcs-maps.md); hex lines the trench does not cross (the west of sheet A) lie behind it."""
    from .bw_setup import south_of_trench
    return [board.hex_id(h) for h in hexes if south_of_trench(board, h)]


def campaign_victory(board):
    """BW 5.1 with its shifts: one level toward the Soviets per 40 Axis units lost, toward the Axis per 80 Soviet."""
    cb = [h for h in board.hexes() if board.terrain_of(h) in ("city", "building")] if hasattr(board, "terrain_of") \
        else []
    west_cb = _hexes_expr(board.hex_id(h) for h in cb if board.hex_id(h).startswith("A"))
    c = [cond("kb", "Soviets occupy all of Krasni Bor", "occupy_all", "soviet", "krasni_bor"),
         cond("sm", "Soviets occupy Staraia Myza", "occupy_all", "soviet", "staraia_myza"),
         cond("po", "Soviets occupy Potrolovo", "occupy_all", "soviet", "potrolovo"),
         cond("mo", "Soviets occupy Mondolovo", "occupy_all", "soviet", "mondolovo"),
         cond("sa", "Soviets occupy Samsonovka", "occupy_all", "soviet", "samsonovka"),
         cond("hw", "no Axis unit at or within 5 of the highway", "no_units", "axis",
              "within 5 of leningrad_moscow_highway"),
         cond("exit-rgt", "an intact Soviet regiment or brigade exits through E-H", "exit", "soviet", GERMAN_ENTRY,
              group="regiment"),
         cond("exit-bn", "an intact Soviet battalion exits through E-H", "exit", "soviet", GERMAN_ENTRY,
              group="battalion"),
         cond("no-exit-bn", "no more than an intact Soviet company exits through E-H", "no_exit", "soviet",
              GERMAN_ENTRY, group="battalion"),
         cond("kb20", "Axis occupy at least 20 hexes of Krasni Bor", "occupy_at_least", "axis", "krasni_bor", 20),
         cond("kb40", "Axis occupy at least 40 hexes of Krasni Bor", "occupy_at_least", "axis", "krasni_bor", 40),
         cond("west", "Axis occupy every City and Building hex on the west map (A)", "occupy_all", "axis", west_cb),
         cond("two", "Soviets occupy two of Potrolovo, Mondolovo, Samsonovka and Staraia Myza", "occupy_any",
              "soviet", "potrolovo; mondolovo; samsonovka; staraia_myza", 2),
         cond("south-cb", "Axis occupy every City and Building hex south of the trench line", "occupy_all", "axis",
              _hexes_expr(_south_of_trench(board, cb))),
         cond("no-exit-plt", "no intact Soviet formation (platoon or higher) exits through E-H", "no_exit",
              "soviet", GERMAN_ENTRY, group="platoon")]
    levels = [
        {"name": "Soviet Massive Victory", "winner": "soviet", "conditions": ["kb", "sm", "po", "mo", "sa", "hw",
                                                                               "exit-rgt"], "rank": 6},
        {"name": "Soviet Major Victory", "winner": "soviet", "conditions": ["kb", "two", "exit-bn"], "rank": 5},
        {"name": "Soviet Minor Victory", "winner": "soviet", "conditions": ["kb"], "rank": 4},
        {"name": "Axis Massive Victory", "winner": "axis", "conditions": ["south-cb", "no-exit-plt"], "rank": 0},
        {"name": "Axis Major Victory", "winner": "axis", "conditions": ["kb40", "west", "no-exit-bn"], "rank": 1},
        {"name": "Axis Minor Victory", "winner": "axis", "conditions": ["kb20"], "rank": 2},
        {"name": "Draw", "winner": "", "conditions": [], "rank": 3},
    ]
    return {"conditions": c, "levels": levels, "holder": "axis",
            "shifts": [{"side": "axis", "per": 40, "toward": "soviet"}, {"side": "soviet", "per": 80, "toward": "axis"}]}


def _early_sheets(b: Builder, soviet: list, axis_objectives: list, reserve_objective: str) -> list[dict]:
    """Scenarios 1-3 (BW 1.10j): the set-ups' historical orders as at-start sheets.  The Soviet divisions and
    the armour each attack on an implemented sheet whose objective lies inside the looting limit (2.1f);
    the Spanish front holds on an implemented Prepared Defense ("allowed at start"), the listed reserves
    wait on a reserve sheet (TCS 6.14) that the reserve check releases (the scenarios' reserve credit)."""
    out = [{"id": f"{f}-attack", "side": "soviet", "formation": f, "type": "attack", "units": _ids(*groups),
            "objective": objs, "implemented": True} for f, groups, objs in soviet]
    front = [k for k, x in b.units.items() if x["u"].side == "axis" and x.get("rule") == "BW 1.10f"]
    reserve = [k for k, x in b.units.items() if x["u"].side == "axis" and x.get("rule") == "BW 1.10f (reserves)"]
    out.append({"id": "Sp-prepared", "side": "axis", "formation": "spanish", "type": "prepared_defense",
                "units": front, "objective": axis_objectives, "implemented": True})
    out.append({"id": "Sp-reserve", "side": "axis", "formation": "spanish", "type": "hasty_defense",
                "units": reserve, "objective": [reserve_objective], "reserve": True})
    return out


S1_ORDERS = [("43", ["708-43*"], ["B16.31"]), ("armour", ["IndTk"], ["B16.31"])]      # trenches east of the railroad
S2_ORDERS = [("63Gd", ["63Gd-div", "269-63Gd*", "270-63Gd*", "342-63Gd*"], ["B40.16"])]  # Krasni Bor from the north
S3_ORDERS = [S1_ORDERS[0], S2_ORDERS[0], ("72", ["72-div", "133-72*", "187-72*"], ["A30.33"]),  # toward Staraia Myza
             ("armour", ["IndTk", "1-RB", "2-RB"], ["B16.31", "A30.33"])]


def build_all(root: Path = ROOT) -> list[Path]:
    from ....maps.mapfile import load_map
    board = load_map(root / "maps" / "black-wednesday.toml")
    east, west = _trench_east(board)
    out = []
    sov_bats_43, sov_bats_63, sov_bats_72, at289 = SOV_BATS["162"], SOV_BATS["343"], SOV_BATS["9"], SOV_BATS["289"]

    # BW 2.4: scenarios 1 and 2 use the Log's columns aimed at their sectors (the program's reading of "a subset
    # of positions": the battalions whose historical targets all lie in that division's sector), 3 all of it
    prep1 = {"prep_log": "historical", "prep_battalions": ["122mm 1", "122mm 2", "152mm 7"], "looting_at_start": True}
    prep2 = {"prep_log": "historical", "looting_at_start": True,              # BW 2.1f: the at-start sheets
             "prep_battalions": ["Katyusha 1", "Katyusha 2", "122mm 3", "122mm 4", "152mm 8"]}
    prep3 = {"prep_log": "historical", "looting_at_start": True}
    loot4 = S4_SHEETS[0]["units"]                        # BW 2.1f: units that completed their initial sheets
    loot5 = S5_SHEETS[0]["units"]

    def emit(n, slug, head, b, **kw):
        p = root / "scenarios" / f"black-wednesday-{n}-{slug}.toml"
        write(p, head, [SOV, AXIS], FORMATIONS, b, board, **kw)
        out.append(p)

    # Scenario 1: Turning the Left
    b = Builder()
    _axis(b, S1_AXIS)
    _soviet_enter(b, ["708-43*", "IndTk"])
    b.enter(units_of("3-Recon"), "0900 10 Feb", "train_station", "BW Scenario 1")
    emit(1, "turning-the-left", _head(1, "", "Turning the Left", "0600 10 Feb", "0940 10 Feb", "soviet",
                                      "The 43 Rifle Division and 1 Independent Tank Battalion against I-262."), b,
         sheets=_early_sheets(b, S1_ORDERS, ["B16.29", "B16.33"], "B21.32"),
         batteries=sov_bats_43 + _bats("axis", ["Bty1", "Bty2"], "105mm", "battery"),
         ammo=[_ammo("soviet", "76mm", 48, 8), _ammo("soviet", "122mm", 12), _ammo("axis", "105mm", 70, 20, 2)],
         victory={"conditions": [cond("trenches", "Soviets clear all the trench hexes in the play area", "occupy_all",
                                      "soviet", east)],
                  "levels": [{"name": "Soviet Minor Victory", "winner": "soviet", "conditions": ["trenches"]},
                             {"name": "Axis Minor Victory", "winner": "axis", "conditions": []}]},
         comment="Black Wednesday scenario 1, Turning the Left: map B east of the railroad, 0600-0940 10 Feb.",
         options=prep1)
    # Scenario 2: Assault of the Guards
    b = Builder()
    _axis(b, S2_AXIS)
    _soviet_enter(b, ["63Gd-div", "269-63Gd*", "270-63Gd*", "342-63Gd*"])
    rel = _variable(b, spanish=False)
    emit(2, "assault-of-the-guards", _head(2, "", "Assault of the Guards", "0600 10 Feb", "0940 10 Feb", "soviet",
                                           "The 63 Guards against II-262's trenches and Krasni Bor."), b,
         sheets=_early_sheets(b, S2_ORDERS, ["B19.26", "B29.25", "B34.15", "B33.12"], "B38.16"),
         batteries=sov_bats_63 + _bats("axis", ["Bty3", "Bty9"], "105mm", "battery") + _bats("axis", ["Bty12"], "150mm", "battery"),
         ammo=[_ammo("soviet", "76mm", 48, 8), _ammo("soviet", "122mm", 12), _ammo("axis", "105mm", 70, 20, 2),
               _ammo("axis", "150mm", 25, 6)], releases=rel,
         victory={"conditions": [cond("kb5", "Soviets occupy 5 or more hexes of Krasni Bor", "occupy_at_least",
                                      "soviet", "krasni_bor", 5, credit="released_reserves"),
                                 cond("bastion", "Soviets capture El Bastion", "occupy_all", "soviet", "el_bastion")],
                  "levels": levels_count(["kb5", "bastion"], 1, 0, "Axis Minor Victory")},
         comment="Black Wednesday scenario 2, Assault of the Guards: map B west of the railroad, 0600-0940 10 Feb.",
         options=prep2)
    # Scenario 3 and the campaign from it
    for camp in (False, True):
        b = Builder()
        _axis(b, S1_AXIS, S2_AXIS, S3_AXIS)
        _soviet_enter(b, ["708-43*", "IndTk", "63Gd-div", "269-63Gd*", "270-63Gd*", "342-63Gd*", "133-72*", "187-72*",
                          "1-RB", "2-RB"])
        rel = _variable(b, soviet14=True)
        kw = dict(sheets=_early_sheets(b, S3_ORDERS, ["B16.29", "B16.33", "B19.26", "B29.25", "B34.15", "B33.12",
                                                      "B29.03", "A30.33", "A25.23", "A21.31", "A15.32", "A12.29"],
                                       "B38.16"),
                  batteries=sov_bats_43 + sov_bats_63 + sov_bats_72 + at289
                  + _bats("axis", ["Bty1", "Bty2", "Bty3", "Bty7", "Bty8", "Bty9"], "105mm", "battery")
                  + _bats("axis", ["Bty10", "Bty11", "Bty12"], "150mm", "battery"),
                  ammo=[_ammo("soviet", "76mm", 168, 28), _ammo("soviet", "122mm", 36),
                        _ammo("axis", "105mm", 210, 60, 6), _ammo("axis", "150mm", 75, 18)], releases=rel, options=prep3)
        if camp:
            emit("3c", "campaign", _head("3c", "", "The Campaign (from Assault the Line)", "0600 10 Feb",
                                          "1700 11 Feb", "soviet", "The whole battle, 82 turns, judged by 5.1."), b,
                 victory=campaign_victory(board), comment="Black Wednesday campaign from scenario 3 (BW 5.1).", **kw)
        else:
            v = {"conditions": [cond("east", "Soviets occupy all trench hexes east of the October Railroad",
                                     "occupy_all", "soviet", east),
                                cond("bastion", "Soviets occupy El Bastion", "occupy_all", "soviet", "el_bastion"),
                                cond("kb5", "Soviets occupy 5 or more hexes of Krasni Bor", "occupy_at_least",
                                     "soviet", "krasni_bor", 5, credit="released_reserves"),
                                cond("west", "Soviets occupy 25 or more trench hexes west of the railroad",
                                     "occupy_at_least", "soviet", west, 25)],
                 "levels": levels_count(["east", "bastion", "kb5", "west"], 3, 2)}
            emit(3, "assault-the-line", _head(3, "", "Assault the Line", "0600 10 Feb", "0940 10 Feb", "soviet",
                                              "Scenarios 1 and 2 with the 72 Rifle Division's attack."), b,
                 victory=v, comment="Black Wednesday scenario 3, Assault the Line: both maps, 0600-0940 10 Feb.", **kw)
    # Scenario 4: Melee in Krasni Bor
    b4 = _s4(Builder())
    emit(4, "melee-in-krasni-bor", _head(4, "", "Melee in Krasni Bor", "1000 10 Feb", "1540 10 Feb", "soviet",
                                         "The Guards push into Krasni Bor; Spanish batteries and counter-attacks."), b4,
         sheets=S4_SHEETS, batteries=sov_bats_63 + _bats("axis", ["Bty1", "Bty2", "Bty3", "Bty9"], "105mm", "battery")
         + _bats("axis", ["Bty12"], "150mm", "battery"),
         ammo=[_ammo("soviet", "76mm", 32), _ammo("soviet", "122mm", 16), _ammo("axis", "105mm", 50, 12, 2),
               _ammo("axis", "150mm", 18, 6)], releases=_variable(b4, spanish=False, trigger=""),
         victory={"conditions": [cond("kb50", "Axis units occupy fewer than 50 hexes of Krasni Bor", "hold_fewer",
                                      "axis", "krasni_bor", 50),
                                 cond("bastion", "no Spanish unit in El Bastion", "no_units", "axis", "el_bastion")],
                  "levels": levels_count(["kb50", "bastion"], 2, 1)},
         comment="Black Wednesday scenario 4, Melee in Krasni Bor: map B, 1000-1540 10 Feb.", breaches=8,
         options={"looting": loot4})
    # Scenario 5: Assaulting the Mill
    b5 = _s5(Builder())
    v5 = [cond("mill", "Soviets occupy the Mill", "occupy_all", "soviet", "the_mill"),
          cond("bastion", "Soviets occupy El Bastion", "occupy_all", "soviet", "el_bastion"),
          cond("sm", "Soviets occupy Staraia Myza", "occupy_all", "soviet", "staraia_myza")]
    emit(5, "assaulting-the-mill", _head(5, "", "Assaulting the Mill", "1000 10 Feb", "1540 10 Feb", "soviet",
                                         "The 72 Rifle and the Red Banner brigade against El Bastion and the Mill."), b5,
         sheets=S5_SHEETS, batteries=sov_bats_72 + at289 + _bats("axis", ["Bty7", "Bty8"], "105mm", "battery")
         + _bats("axis", ["Bty10", "Bty11"], "150mm", "battery"),
         ammo=[_ammo("soviet", "76mm", 48), _ammo("soviet", "122mm", 16), _ammo("axis", "105mm", 36, 12, 2),
               _ammo("axis", "150mm", 20, 5)],
         releases=_variable(b5, german=False, soviet14=True, trigger=""),
         victory={"conditions": v5, "levels": levels_count(["mill", "bastion", "sm"], 2, 1)},
         comment="Black Wednesday scenario 5, Assaulting the Mill: both maps west of Bxx.07, 1000-1540 10 Feb.",
         breaches=4, options={"looting": loot5})
    # Scenario 6: The Assault Continues, and the campaign from it (BW 5.1: 70 turns to 1700 Feb 11; the book's
    # "1700 Feb 10" is a misprint its turn count corrects)
    from ....scenario.areas import AreaContext
    exit_h = board.hex_id(sorted(AreaContext(board).hexes("entry_area_h"))[0])
    s6_sheets = S4_SHEETS + S5_SHEETS + [  # 43 Rifle: its initial sheet done, awaiting its follow-on (27 Wgt Turns)
        {"id": "43-follow-on", "side": "soviet", "formation": "43", "type": "attack", "units": _ids("708-43*"),
         "objective": [exit_h], "route": ["B15.32", exit_h], "weighted_turns": 27}]
    for camp in (False, True):
        b6 = _s5(_s4(Builder()))
        soviet_setup(b6, {"1-708-43": (w(2, "B15.32"), 6), "2-708-43": (w(2, "B15.31"), 6),
                          "3-708-43": (w(2, "B15.33"), 6)},
                     {"708-43": (w(4, "B12.32"), 3, {"soviet 76mm infantry gun": 4})}, {})
        b6.place(units_of("IndTk"), w(4, "B12.32") + " and columns 1 to 12", "BW Scenario 6 (north of the AT ditch)")
        kw = dict(sheets=s6_sheets, batteries=sov_bats_43 + sov_bats_63 + sov_bats_72 + at289
                  + _bats("axis", ["Bty1", "Bty2", "Bty3", "Bty7", "Bty8", "Bty9"], "105mm", "battery")
                  + _bats("axis", ["Bty10", "Bty11", "Bty12"], "150mm", "battery"),
                  ammo=[_ammo("soviet", "76mm", 112), _ammo("soviet", "122mm", 48), _ammo("axis", "105mm", 86, 24, 4),
                        _ammo("axis", "150mm", 38, 11)], releases=_variable(b6, soviet14=True, trigger=""), breaches=15,
                  options={"looting": loot4 + loot5 + _ids("708-43*")})
        if camp:
            emit("6c", "campaign", _head("6c", "", "The Campaign (from The Assault Continues)", "1000 10 Feb",
                                          "1700 11 Feb", "soviet", "The battle from 1000 Feb 10, 70 turns, judged by "
                                                                   "5.1."), b6,
                 victory=campaign_victory(board),
                 comment="Black Wednesday campaign from scenario 6 (BW 5.1): both maps, 1000 10 Feb - 1700 11 Feb.",
                 **kw)
        else:
            emit(6, "the-assault-continues", _head(6, "", "The Assault Continues", "1000 10 Feb", "1540 10 Feb",
                                                   "soviet", "Scenarios 4 and 5 with the 43 Rifle's drive to exit "
                                                             "the map."), b6,
                 victory={"conditions": v5 + [cond("kb50", "Axis units occupy fewer than 50 hexes of Krasni Bor",
                                                   "hold_fewer", "axis", "krasni_bor", 50)],
                          "levels": levels_count(["mill", "bastion", "sm", "kb50"], 3, 2)},
                 comment="Black Wednesday scenario 6, The Assault Continues: both maps, 1000-1540 10 Feb.", **kw)
    return out


def _s4(b: Builder) -> Builder:
    soviet_setup(b, {"1-269-63Gd": (w(3, "B34.16"), 18, 1), "2-269-63Gd": (w(3, "B33.13"), 17, 1),
                     "3-269-63Gd": (w(3, "B31.10"), 18, 2), "1-270-63Gd": (w(3, "B34.16"), 7),
                     "2-270-63Gd": (w(3, "B32.22"), 6), "3-270-63Gd": (w(3, "B29.23"), 5),
                     "1-342-63Gd": (w(3, "B15.23"), 13, 1), "2-342-63Gd": (w(3, "B21.20"), 7, 1),
                     "3-342-63Gd": (w(3, "B26.22"), 5)},
                 {"269-63Gd": (w(4, "B29.15"), 11, {"soviet 76mm infantry gun": 3}),
                  "270-63Gd": (w(4, "B29.19"), 4, {"soviet 76mm infantry gun": 4}),
                  "342-63Gd": (w(4, "B07.17"), 5, {"soviet 76mm infantry gun": 4})},
                 {"63Gd": (6, {"soviet 45mm at gun": 6})})
    _axis(b, dict(companies={"3-I-262": (w(1, "B21.26"), 10, None, 1), "4-I-262": (w(4, "B44.26"), 8),
                             "5-II-262": (w(2, "B41.21"), 9), "7-II-262": (w(2, "B33.07"), 12),
                             "1-Recon": (w(2, "B45.18"),), "2-Recon": (w(2, "B45.18"),), "3-Recon": (w(2, "B44.26"),),
                             "1-Engineer": (w(2, "B48.14"),), "2-Engineer": (w(2, "B43.14"),),
                             "3-Engineer": (w(2, "B40.10"),), "Bty1": (w(5, "B49.19"),), "Bty2": (w(5, "B45.18"),),
                             "Bty3": (w(5, "B41.21"),)},
                  battalions={"II-262": w(4, "B38.11")}, others=w(5, "B37.05") + " or " + w(4, "B53.12"),
                  reserves=["AT-2SS", ("1-AT", None, {"spanish 37mm at gun": 6}), ("8-II-262", None, None, 2)]))
    return b


def _s5(b: Builder) -> Builder:
    soviet_setup(b, {"1-133-72": (w(2, "B25.02"), 13, 1), "2-133-72": (w(2, "A25.34"), 12, 1),
                     "3-133-72": (w(2, "A22.35"), 9, 1), "1-187-72": (w(2, "B29.01"), 5),
                     "2-187-72": (w(2, "A29.33"), 5), "3-187-72": (w(2, "A27.31"), 5)},
                 {"133-72": (w(4, "B14.09"), 5, {"soviet 76mm infantry gun": 0}),
                  "187-72": (w(4, "B20.04"), 3)},
                 {"72": (4, {"soviet 45mm at gun": 2})})
    b.place(units_of("1-RB", {"kv-i": 20}), w(4, "B20.04"), "BW Scenario 5")
    b.place(units_of("2-RB", {"t-26": 18}), w(4, "B20.04"), "BW Scenario 5")
    b.dead(units_of("1-RB")[20:] + units_of("2-RB")[18:], "BW 5.0 (lost before play: 20x KV-I, 18x T-26 left)")
    _axis(b, dict(companies={"1-MR": (w(2, "A25.23"),), "3-MR": (w(3, "B30.05"), 7),
                             "9-III-262": (w(2, "A21.31", "A22.30"), 4), "10-III-262": (w(2, "A15.32", "A17.33"),),
                             "11-III-262": (w(2, "A12.29", "A10.27"),), "Bty7": (w(5, "A27.14"),),
                             "Bty8": (w(5, "A27.14"),), "1-I-263": (w(2, "A53.14"),), "2-I-263": (w(2, "A53.14"),)},
                  battalions={"MR": w(4, "A25.24"), "III-262": w(4, "A17.25")},
                  reserves=["4-MR", "12-III-262", ("14-262", {"spanish 37mm at gun": 4})]))
    return b


def _ids(*groups, skip=()):
    return [u.id for g in groups for u in units_of(g) if u.group not in skip]


S4_SHEETS = [
    {"id": "63Gd-follow-on", "side": "soviet", "formation": "63Gd", "type": "attack",
     "units": _ids("63Gd-div", "269-63Gd*", "270-63Gd*", "342-63Gd*", skip=("1-270-63Gd", "2-270-63Gd")),
     "objective": ["B45.18"], "route": ["B34.16", "B40.16", "B45.18"], "weighted_turns": 27},
    {"id": "63Gd-released", "side": "soviet", "formation": "63Gd", "type": "attack",
     "units": _ids("1-270-63Gd", "2-270-63Gd"), "objective": ["B45.18"], "route": ["B33.20", "B45.18"],
     "implemented": True},
    {"id": "Sp-counterattack", "side": "axis", "formation": "spanish", "type": "attack",
     "units": _ids("1-Recon", "2-Recon", "1-Engineer", "2-Engineer", "3-Engineer"), "objective": ["B41.16"],
     "implemented": True},
    {"id": "Sp-relief", "side": "axis", "formation": "spanish", "type": "attack", "units": _ids("3-Recon"),
     "objective": ["B21.26"], "implemented": True},
    {"id": "Sp-hasty", "side": "axis", "formation": "spanish", "type": "hasty_defense",
     "units": _ids("7-II-262", "4-I-262"), "objective": ["B33.07", "B44.26"], "implemented": True},
    {"id": "Sp-prepared", "side": "axis", "formation": "spanish", "type": "prepared_defense",
     "units": _ids("3-I-262", "5-II-262", "Bty1", "Bty2", "Bty3", "AT-2SS", "1-AT", "8-II-262"),
     "objective": ["B41.21", "B21.26"], "implemented": True},
]
S5_SHEETS = [
    {"id": "72-follow-on", "side": "soviet", "formation": "72", "type": "attack",
     "units": _ids("72-div", "133-72*", "187-72*"), "objective": ["A36.31"], "route": ["A27.31", "A36.31"],
     "weighted_turns": 27},
    {"id": "RB-attack", "side": "soviet", "formation": "armour", "type": "attack", "units": _ids("1-RB", "2-RB"),
     "objective": ["A25.23"], "implemented": True},
    {"id": "Sp-west-prepared", "side": "axis", "formation": "spanish", "type": "prepared_defense",
     "units": _ids("1-MR", "3-MR", "4-MR", "9-III-262", "10-III-262", "11-III-262", "12-III-262", "Bty7", "Bty8",
                   "14-262"), "objective": ["A25.23", "B30.05"], "implemented": True},
    {"id": "Sp-I-263", "side": "axis", "formation": "spanish", "type": "hasty_defense",
     "units": _ids("1-I-263", "2-I-263"), "objective": ["A53.14"], "implemented": True},
]


def _north_east(board) -> str:
    """Scenarios 7 and 8: "north of xx.37 and east of the railroad", read as sheet B hexes with a first number
    below 37 east of the October Railroad (docs/tcs-maps.md: the typo)."""
    rr = {}
    for h in board.areas["October Railroad"].hexes:
        hid = board.hex_id(h)
        rr[hid[:3]] = min(rr.get(hid[:3], 99), int(hid[4:]))
    out = [board.hex_id(h) for h in board.hexes()]
    out = [x for x in out if x[0] == "B" and int(x[1:3]) < 37 and x[:3] in rr and int(x[4:]) > rr[x[:3]]]
    return _hexes_expr(out)


def _s7(b: Builder, board) -> Builder:
    ne = _north_east(board)
    for bn in ("1-708-43", "2-708-43", "3-708-43"):
        b.place([u for u in units_of(bn)], ne, "BW Scenario 7", 13, 2)
    b.place(units_of("708-43", minus={"soviet 76mm infantry gun": 4}), ne, "BW Scenario 7", 6)
    b.dead(units_of("708-43", take={"soviet 76mm infantry gun": 4}), "BW 5.0 (lost before play)")
    b.place(units_of("IndTk")[8:], ne, "BW Scenario 7")
    b.dead(units_of("IndTk")[:8], "BW 5.0 (lost before play: the Ind Tank Bn has lost 8x T-34)")
    soviet_setup(b, {"1-269-63Gd": (w(4, "B33.21"), 25, 1), "2-269-63Gd": (w(4, "B38.14"), 29, 1),
                     "3-269-63Gd": (w(4, "B29.12"), 33, 1), "1-270-63Gd": (w(2, "B50.06"), 31, 2),
                     "2-270-63Gd": (w(2, "B47.10"), 26, 2), "3-270-63Gd": (w(2, "B52.10"), 27, 2),
                     "1-342-63Gd": (w(2, "B45.17"), 26, 1), "2-342-63Gd": (w(2, "B43.12"), 23, 1),
                     "3-342-63Gd": (w(2, "B49.14"), 17, 1), "1-14-72": (w(2, "B15.06"), 4),
                     "2-14-72": (w(2, "B10.06"), 2), "3-14-72": (w(2, "B05.07"), 0),
                     "1-133-72": (w(3, "A28.27"), 19), "2-133-72": (w(3, "A35.23"), 20),
                     "3-133-72": (w(3, "A39.24"), 19), "1-187-72": (w(3, "B22.01"), 27),
                     "2-187-72": (w(3, "B29.01"), 26), "3-187-72": (w(2, "A27.31"), 28)},
                 {"269-63Gd": (w(4, "B29.15"), 17, {"soviet 76mm infantry gun": 2}),
                  "270-63Gd": (w(4, "B29.19"), 18, {"soviet 76mm infantry gun": 2}),
                  "342-63Gd": (w(4, "B29.25"), 19, {"soviet 76mm infantry gun": 2}),
                  "133-72": (w(4, "A26.35"), 10, {"soviet 76mm infantry gun": 2}),
                  "187-72": (w(4, "B20.04"), 12, {"soviet 76mm infantry gun": 2})},
                 {"63Gd": (15, {"soviet 45mm at gun": 5}), "72": (12, {"soviet 45mm at gun": 4})})
    # 14-72: "set up only 4x Inf Gun (76mm)" of its regimental troops
    b.place(units_of("14-72", take={"soviet 76mm infantry gun": 4}), w(4, "B02.13"), "BW 1.10e")
    b.place(units_of("1-RB")[6:], w(4, "A36.31"), "BW Scenario 7")
    b.place(units_of("2-RB")[11:], w(4, "A36.31"), "BW Scenario 7")
    b.dead(units_of("1-RB")[:6] + units_of("2-RB")[:11], "BW 5.0 (lost before play: less 6x KV-I, 11x T-26)")
    _axis(b, dict(companies={
        "4-I-262": (w(4, "B44.26"), 8), "5-II-262": (w(2, "B41.21"), 13), "7-II-262": ("B32.06 or B33.07", 12),
        "9-III-262": (w(2, "A21.31", "A22.30"), 4), "10-III-262": (w(2, "A15.32", "A17.33"),),
        "11-III-262": (w(2, "A12.30", "A10.28"),), "1-MR": (w(2, "A25.23"), 8), "3-MR": (w(2, "B30.05"), 13),
        "1-I-263": (w(3, "A38.17"), 4), "2-I-263": (w(3, "A38.17"), 4), "3-I-263": (w(3, "A38.17"), 4),
        "5-II-269": (w(2, "A48.15"),), "8-II-269": (w(3, "A54.14"),), "1-Engineer": (w(2, "B49.19"), 5),
        "2-Engineer": (w(3, "B57.02"), 5), "3-Engineer": (w(2, "B44.05"), 5), "1-Recon": (w(3, "B59.08"), 5),
        "2-Recon": (w(3, "B59.12"), 5), "3-Recon": (w(2, "B44.26"), 5), "1-635Ost": (w(3, "B60.16"),),
        "2-635Ost": (w(3, "B60.16"),), "Bty1": (w(3, "B49.19"),), "Bty3": (w(3, "B41.21"),),
        "Bty7": (w(4, "A27.14"),), "Bty8": (w(4, "A27.14"),)},
        battalions={"II-262": w(4, "A51.31"), "III-262": w(4, "A17.25"), "MR": w(2, "A25.23")}, reserves=[]))
    b.lose(units_of("II-262*"), 8)
    b.lose(units_of("MR*"), 6)
    b.morale["MR"] = 1
    return b


def _s8(b: Builder, board) -> Builder:
    ne = _north_east(board)
    for bn in ("1-708-43", "2-708-43", "3-708-43"):
        b.place(units_of(bn), ne, "BW Scenario 8", 13)
    b.place(units_of("708-43"), ne, "BW Scenario 8")
    b.place(units_of("IndTk")[12:], ne, "BW Scenario 8")
    b.dead(units_of("IndTk")[:12], "BW 5.0 (lost before play: the Ind Tank Bn has lost 12x T-34)")
    bns = {"1-133-72": ("A29.27", 19), "2-133-72": ("A33.25", 20), "3-133-72": ("A37.24", 19),
           "1-187-72": ("A28.34", 30), "2-187-72": ("B29.05", 19), "3-187-72": ("A28.31", 35),
           "1-14-72": ("B22.01", 8), "2-14-72": ("B17.07", 6), "3-14-72": ("B12.07", 4),
           "1-269-63Gd": ("B43.12", 25), "2-269-63Gd": ("B36.13", 29), "3-269-63Gd": ("B30.09", 33),
           "1-270-63Gd": ("B52.07", 37), "2-270-63Gd": ("B46.07", 29), "3-270-63Gd": ("B50.11", 37),
           "1-342-63Gd": ("B41.19", 26), "2-342-63Gd": ("B37.24", 26), "3-342-63Gd": ("B48.18", 22)}
    soviet_setup(b, {k: (w(3, h), n) for k, (h, n) in bns.items()}, {}, {})
    # Scenario 8 gives no regimental or divisional areas: those units use any area of their regiment or
    # division (the nearest reading of 1.10e; a choice)
    for reg in ("133-72", "187-72", "14-72", "269-63Gd", "270-63Gd", "342-63Gd"):
        areas = " or ".join(w(3, h) for k, (h, _n) in bns.items() if k.endswith("-" + reg))
        b.place(units_of(reg), areas, "BW 1.10e (regimental units in their battalions' areas)")
    for div in ("63Gd", "72"):
        areas = " or ".join(w(3, h) for k, (h, _n) in bns.items() if k.endswith("-" + div))
        b.place(units_of(f"{div}-div"), areas, "BW 1.10e (divisional units)")
    b.place(units_of("1-RB")[7:], w(4, "B07.17"), "BW Scenario 8")
    b.place(units_of("2-RB")[13:], w(4, "B07.17"), "BW Scenario 8")
    b.dead(units_of("1-RB")[:7] + units_of("2-RB")[:13], "BW 5.0 (lost before play: less 7x KV-I, 13x T-26)")
    heckel = ["1-226", "1-563", "102", *sorted({u.group for u in ALL.values() if u.group.endswith(("I-390", "II-390"))})]
    _axis(b, dict(companies={
        "9-III-262": (w(2, "A21.31", "A22.30"), 4), "10-III-262": (w(2, "A15.32", "A17.33"),),
        "11-III-262": (w(2, "A12.30", "A10.28"),), "1-MR": (w(2, "A25.23"), 9), "1-I-263": (w(3, "A38.17"), 5),
        "2-I-263": (w(3, "A38.17"), 5), "3-I-263": (w(3, "A38.17"), 5), "5-II-269": (w(3, "A49.13"), 11),
        "2-MR": (w(3, "A54.19"), 2), "3-MR": (w(3, "A51.24"), 14), "7-II-262": (w(3, "A47.35"), 12),
        "1-Engineer": (w(3, "B61.21"), 6), "2-Engineer": (w(3, "B58.02"), 6), "3-Engineer": (w(3, "B51.02"), 6),
        "1-Recon": (w(3, "B59.09"), 6), "2-Recon": (w(3, "B59.09"), 6), "3-Recon": (w(3, "B62.30"), 6),
        "5-II-262": (w(3, "B62.26"), 13), "1-635Ost": (w(3, "B59.13"),), "2-635Ost": (w(3, "B60.17"),),
        "Bty7": (w(4, "A27.24"),), "Bty8": (w(4, "A27.24"),)},
        battalions={"II-262": w(4, "A51.31"), "III-262": w(4, "A17.25"), "I-263": w(4, "A30.17"),
                    "II-269": w(4, "A54.14"), "MR": w(2, "A25.23")}, reserves=[]))
    for g in heckel:
        b.place(units_of(g), w(4, "A62.30"), "BW Scenario 8 (KG Heckel)")
    for bn, n in (("II-262", 8), ("I-263", 3), ("MR", 6)):
        b.lose(units_of(bn + "*") if bn != "II-262" else [u for u in units_of("II-262*") if u.id in b.units], n)
    return b


def _sov_sheets(groups: dict, implemented_type: str, skip=(), attack=(), objective="B45.18"):
    out = []
    for f, gs in groups.items():
        hasty = [g for g in gs if g not in attack and g not in skip]
        att = [g for g in gs if g in attack]
        if hasty:
            out.append({"id": f"{f}-hasty", "side": "soviet", "formation": f, "type": implemented_type,
                        "units": _ids(*hasty), "objective": [objective], "implemented": True})
        if att:
            out.append({"id": f"{f}-attack", "side": "soviet", "formation": f, "type": "attack",
                        "units": _ids(*att), "objective": [objective], "implemented": True})
    return out


def build_late(root: Path = ROOT) -> list[Path]:
    from ....maps.mapfile import load_map
    board = load_map(root / "maps" / "black-wednesday.toml")
    out = []
    sov_bats = SOV_BATS["162"][:1] + SOV_BATS["343"] + SOV_BATS["9"] + SOV_BATS["289"]
    # Scenario 7: Breakout, and the campaign from it (BW 5.1: 52 turns to 1700 Feb 11)
    v7 = [cond("kb", "no Axis units in Krasni Bor", "no_units", "axis", "krasni_bor"),
          cond("bastion", "Soviets occupy El Bastion", "occupy_all", "soviet", "el_bastion"),
          cond("mill", "Soviets occupy the Mill", "occupy_all", "soviet", "the_mill"),
          cond("village", "Soviets occupy Samsonovka, Mondolovo or Raikolovo", "occupy_any", "soviet",
               "samsonovka ; mondolovo ; raikolovo")]
    for camp in (False, True):
        b = _s7(Builder(), board)
        # the campaign goes on past the scenario's "Reinforcements: None": the German units not set up come by the
        # 3.5 table ("All German units not set up at the beginning of the scenario enter via the results of this
        # table"; scenario 1's note: the campaign rolls for Variable Reinforcements), from the first Command Phase
        releases = _variable(b, spanish=False, german=True, trigger="") if camp else ()
        sheets = _sov_sheets({"43": ["708-43*"], "63Gd": ["269-63Gd*", "63Gd-div", "270-63Gd*", "342-63Gd*"],
                              "72": ["187-72*", "72-div", "14-72*"]}, "hasty_defense",
                             attack=("270-63Gd*", "342-63Gd*", "14-72*"))
        sheets.append({"id": "Axis-hasty", "side": "axis", "formation": "spanish", "type": "hasty_defense",
                       "units": [u for u, x in b.units.items() if x["u"].side == "axis"
                                 and x["u"].formation == "spanish" and b.live(u)],
                       "objective": ["A25.23", "B32.06"], "implemented": True})
        sheets.append({"id": "Ost-hasty", "side": "axis", "formation": "german", "type": "hasty_defense",
                       "units": _ids("1-635Ost", "2-635Ost"), "objective": ["B60.16"], "implemented": True})
        kw = dict(sheets=sheets, batteries=sov_bats + _bats("axis", ["Bty1", "Bty3", "Bty7", "Bty8"], "105mm", "battery"),
                  ammo=[_ammo("soviet", "76mm", 20), _ammo("soviet", "122mm", 4)], breaches=15, releases=releases)
        misprint = ("The book's Axis artillery for this scenario repeats the Soviet list (a misprint): the Axis has\n"
                    "its on-map batteries 1, 3, 7 and 8 and no ammunition given; the players decide any other.")
        if camp:
            p = root / "scenarios" / "black-wednesday-7c-campaign.toml"
            write(p, _head("7c", "", "The Campaign (from Breakout)", "1600 10 Feb", "1700 11 Feb", "axis",
                           "The battle from 1600 Feb 10, 52 turns, judged by 5.1."), [SOV, AXIS], FORMATIONS, b,
                  board, victory=campaign_victory(board),
                  comment="Black Wednesday campaign from scenario 7 (BW 5.1): both maps, 1600 10 Feb - 1700 11 Feb.\n"
                          + misprint + "\nThe German units not set up come by the 3.5 table.", **kw)
        else:
            p = root / "scenarios" / "black-wednesday-7-breakout.toml"
            write(p, _head(7, "", "Breakout", "1600 10 Feb", "0200 11 Feb", "axis",
                           "The isolated Spanish pockets slip out through the Soviet lines."), [SOV, AXIS], FORMATIONS,
                  b, board, victory={"conditions": v7, "levels": levels_count(["kb", "bastion", "mill", "village"], 3,
                                                                             2, "Axis Minor Victory")},
                  comment="Black Wednesday scenario 7, Breakout: both maps, 1600 10 Feb - 0200 11 Feb.\n" + misprint,
                  **kw)
        out.append(p)
    # Scenario 8: Counter-attack at Krasni Bor
    b = _s8(Builder(), board)
    sheets = _sov_sheets({"43": ["708-43*"], "63Gd": ["269-63Gd*", "270-63Gd*", "342-63Gd*", "63Gd-div"],
                          "72": ["187-72*", "14-72*", "72-div", "133-72*"]}, "hasty_defense", attack=("133-72*",))
    sheets = [s for s in sheets if s["id"] != "72-attack"] + [
        {"id": "133-attack", "side": "soviet", "formation": "72", "type": "attack", "units": _ids("133-72*"),
         "objective": ["A38.17"], "implemented": True}]
    for f in ("43", "63Gd"):
        sheets.append({"id": f"{f}-prepared", "side": "soviet", "formation": f, "type": "prepared_defense",
                       "units": [], "objective": ["B45.18"], "weighted_turns": 18})
    sheets += [{"id": "Sp-prepared", "side": "axis", "formation": "spanish", "type": "prepared_defense",
                "units": [u for u, x in b.units.items() if x["u"].side == "axis" and x["u"].formation == "spanish"
                             and b.live(u)],
                "objective": ["A25.23", "A38.17"], "implemented": True},
               {"id": "Ost-prepared", "side": "axis", "formation": "german", "type": "prepared_defense",
                "units": _ids("1-635Ost", "2-635Ost"), "objective": ["B59.13"], "implemented": True},
               {"id": "Heckel-attack", "side": "axis", "formation": "german", "type": "attack",
                "units": [u for u, x in b.units.items() if x["u"].formation == "german" and "635Ost" not in u
                          and b.live(u)],
                "objective": ["B45.18"], "route": ["A62.30", "B50.20", "B45.18"], "implemented": True}]
    p = root / "scenarios" / "black-wednesday-8-counter-attack-at-krasni-bor.toml"
    write(p, _head(8, "", "Counter-attack at Krasni Bor", "0600 11 Feb", "1700 11 Feb", "axis",
                   "A stronger German counter-attack on 11 February."), [SOV, AXIS], FORMATIONS, b, board,
          sheets=sheets, batteries=sov_bats + _bats("axis", ["Bty7", "Bty8", "Bty9"], "105mm", "battery")
          + _bats("axis", ["Bty10", "Bty11", "Bty12"], "150mm", "battery")
          + _bats("axis", ["I-215-1", "I-215-2", "I-215-3"], "105mm de", "battery")
          + _bats("axis", ["III-215-9", "850-1", "850-2", "850-3"], "150mm de", "battery"),
          ammo=[_ammo("soviet", "76mm", 200, 20), _ammo("soviet", "122mm", 50), _ammo("axis", "105mm", 40, 5),
                _ammo("axis", "150mm", 20, 5), _ammo("axis", "105mm de", 110, 20), _ammo("axis", "150mm de", 100, 30)],
          victory=campaign_victory(board),
          comment="Black Wednesday scenario 8, Counter-attack at Krasni Bor: both maps, 0600-1700 11 Feb (BW 5.1).\n"
                  "German ammunition is its own pool (BW 3.2b): calibres \"105mm de\" and \"150mm de\".",
          breaches=15)
    out.append(p)
    return out


def main() -> None:
    for p in build_all() + build_late():
        print(p.relative_to(ROOT))


if __name__ == "__main__":
    main()
