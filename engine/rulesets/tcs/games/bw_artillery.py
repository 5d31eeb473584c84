"""Black Wednesday's artillery and air rules: who spots for which battery (BW 2.3), faux TRPs (3.2d), Axis
batteries firing as battalions (3.2), Dora (4.7) and the Air Sortie Table (1.9, 4.1c); hooks of
``black_wednesday_rules``, which the series engine asks."""
from __future__ import annotations

from ....errors import BadFile, IllegalAction, Problem
from ....game import Event
from .bw_releases import _at_or_after
from .bw_sheets import SOVIET_DIVISIONS


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
