"""Black Wednesday's Op Sheet rules: divisions and armour sharing sheets (BW 2.1b-d), battalions starting one
at a time (2.1e), looting (2.1f, 2.5b), German cooperation (3.1b, 4.1), sheets drawn before play (1.10k);
hooks of ``black_wednesday_rules``, which the series engine asks."""
from __future__ import annotations

from dataclasses import replace

from ....errors import BadFile, Problem
from ....game import Event


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


# ---------------------------------------------------------------- BW 1.10k: sheets drawn before play

BEFORE_PLAY_WEIGHTED = 15                                 # BW 1.10k


def drawn_before_play(rules, st) -> int:
    """BW 1.10k: a non-implemented sheet drawn before play begins starts with 15 weighted turns.  The engine's
    first chance to draw a sheet is the first turn's Command Phase, before any unit has moved or fired: a
    sheet drawn there counts as drawn before play (our reading); later sheets start at 0."""
    return BEFORE_PLAY_WEIGHTED if st.turn == 0 and rules.current(st)[0] == "command" else 0
