"""Leros (TCS #8): the game's own rules on the series engine.

What is here, each with its rule number:

- the Sea Movement system (Leros 1.2): boats, loading points and heavy loads,
  the Sea Movement Tracks, embarkation, landing zone arrival, Italian Coastal
  Gunfire (a chart prompt), aborts, returns, and storms (1.4d);
- the Air Movement Track and Parachute Assaults (Leros 3.6): drop zones,
  flights, drift, scatter, landing in the sea or on the enemy, losses, the
  post-landing period, aborts and returns;
- surrender demands (Leros 1.3), weather effects (1.4), naval gunfire plots with
  the solitaire method (2.5), Army Group E reserve requests (3.5), the German
  ammunition that lands with each gun (3.2b), and victory (5.2).

The printed Sea and Air Movement Tracks are on the game's charts, which our text
lacks: the stand-in map has four boxes (A-D) per track, an Approach box, the
Parachute Assault Execution box and three Athens Return Leg boxes.  Which box of
the Sea Movement Track faces which Landing Zone is the chart slot
``leros.sea_box`` (the scenarios fill the cells they fix); the Battery Summary
(fire value of each battery on each Landing Zone) is ``leros.battery_summary``;
boat loading points and the heavy-load symbol are counter values
(``leros.boat_loading``, ``leros.boat_heavy``).

Procedures take ``(rules, st, ctx, ...)`` like the series' (engine/rulesets/tcs/procs.py):
every die comes from ``ctx.roll`` and every printed value from ``ctx.cell``, so a
blank cell stops the procedure with a chart prompt and the procedure runs again
from its start when it is answered.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ....errors import IllegalAction
from ....game import Event
from ....maps.hexes import Hex, hex_distance, hex_neighbor
from ..procs import DIRECTIONS
from ..proc import Step
from ..sight import terrain_key

GERMAN, BRITISH = "german", "british"
WEATHER = ("Normal", "Wind", "Gale", "Storm")
HOLDING = {GERMAN: "kos", BRITISH: "samos"}
SEA_BOXES = ("A", "B", "C", "D")
# The stand-in Air Movement Track (the printed one is on the charts): Athens, six outward boxes, the Execution
# box; three return boxes back to Athens.  Leros 3.6j: "those first three boxes" (A, B, C) are on-the-ground
# preparation: weather never aborts a flight there and a self-abort goes straight back to Athens; D, E and F,
# the outward boxes opposite a returning box, face return boxes 3, 2 and 1.
AIR_OUT = ("air-A", "air-B", "air-C", "air-D", "air-E", "air-F", "air-execution")
AIR_BACK = ("air-return-1", "air-return-2", "air-return-3", "athens")
AIR_OPPOSITE = {"air-D": "air-return-3", "air-E": "air-return-2", "air-F": "air-return-1"}
PREP_BOXES = ("air-A", "air-B", "air-C")
SURRENDER_FROM = (13, 11, 1, 0)        # 0100 Nov 13 (day, month, hour, minute), Leros 1.3


def weather_effects(weather: str) -> dict:
    """What each weather allows (Leros 1.4a-d): sorties, air movement, smoke and illum, attack zones blocking
    LOS, and whether boats must roll to advance."""
    if weather not in WEATHER:
        raise IllegalAction("Leros 1.4", f"weather is one of {', '.join(WEATHER)}, not {weather!r}")
    bad = weather in ("Gale", "Storm")
    return {"sorties": not bad,                      # 1.4c, 1.4d
            "air_movement": weather == "Normal",     # 1.4: air movement only in Normal weather
            "smoke_illum": not bad,                  # 1.4c, 1.4d
            "zones_block_los": not bad,              # 1.4c, 1.4d
            "weather_limits_visibility": bad,        # the Weather Track (tcs.weather_visibility)
            "boats_roll": weather == "Storm"}        # 1.4d


# ---------------------------------------------------------------- the off-map state

@dataclass
class Boat:
    id: str
    type: str                           # counter type: "MFP", "I-Boat", "Barge", "M-Sweep", "Sub"
    side: str
    box: str                            # "kos"/"samos", "A".."D", "approach"
    load: list[str] = field(default_factory=list)
    lz: int = 0                         # the trip's Landing Zone (0: no trip)
    returning: bool = False
    sheet: str = ""                     # the load's Op Sheet (1.2f: units land with an implemented sheet)
    waited: bool = False                # reached its Landing Zone box this turn (lands next Action Phase)

    def copy(self) -> "Boat":
        return replace(self, load=list(self.load))


@dataclass
class Plane:
    """A Ju-52 and its flight (one or two units, Leros 3.6d) with the drop zone of its company."""

    id: str
    box: str                            # "athens", an AIR_OUT box or an AIR_BACK box
    load: list[str] = field(default_factory=list)
    dz: str = ""                        # the plotted drop zone hex id
    returning: bool = False
    aborted: bool = False

    def copy(self) -> "Plane":
        return replace(self, load=list(self.load))


@dataclass
class Tracks:
    """Everything Leros keeps off the map: boats, Ju-52s, units in boxes, surrender demands, plots."""

    boats: dict[str, Boat] = field(default_factory=dict)
    planes: dict[str, Plane] = field(default_factory=dict)
    boxed: dict[str, str] = field(default_factory=dict)        # unit -> "kos", "samos", "athens", "boat", "plane"
    drift: str = "N"                                            # 3.6a Direction of Drift
    demands: dict[str, int] = field(default_factory=lambda: {GERMAN: 0, BRITISH: 0})
    surrendered: str = ""
    surrender_turn: str = ""
    batteries_lost: list[str] = field(default_factory=list)     # 1.2g: occupied by the enemy
    landed: dict[str, int] = field(default_factory=dict)        # unit -> turn of its drop, until the next German
                                                                # Action Phase begins (3.6i: still landing)
    free_until: dict[str, int] = field(default_factory=dict)    # unit -> first turn it needs an Op Sheet (3.6i)
    naval_plot: list[str] = field(default_factory=list)         # 2.5 hexes noted at 1200
    reserve_requested: bool = False                             # 3.5
    reserve_groups: int = 0
    reserve_lock_until: int = -1                                # turn index of the next allowed request
    overstack_check: int = -1                                   # 3.6g: turn whose German action phase ends it
    german_sorties: tuple = (-1, 0)                             # 2.3b: (turn, sorties) of the German roll
    deadline: int = -1                                          # 3.5: turn by whose end the British must surrender

    def copy(self) -> "Tracks":
        return replace(self, boats={k: b.copy() for k, b in self.boats.items()},
                       planes={k: p.copy() for k, p in self.planes.items()}, boxed=dict(self.boxed),
                       demands=dict(self.demands), batteries_lost=list(self.batteries_lost),
                       landed=dict(self.landed), free_until=dict(self.free_until), naval_plot=list(self.naval_plot))

    def to_dict(self) -> dict:
        return {"boats": {k: {"type": b.type, "side": b.side, "box": b.box, "load": list(b.load), "lz": b.lz,
                              "returning": b.returning, "sheet": b.sheet, "waited": b.waited}
                          for k, b in sorted(self.boats.items())},
                "planes": {k: {"box": p.box, "load": list(p.load), "dz": p.dz, "returning": p.returning,
                               "aborted": p.aborted} for k, p in sorted(self.planes.items())},
                "boxed": dict(sorted(self.boxed.items())), "drift": self.drift, "demands": dict(self.demands),
                "surrendered": self.surrendered, "surrender_turn": self.surrender_turn,
                "batteries_lost": list(self.batteries_lost), "landed": dict(sorted(self.landed.items())),
                "free_until": dict(sorted(self.free_until.items())), "naval_plot": list(self.naval_plot),
                "reserve": [self.reserve_requested, self.reserve_groups, self.reserve_lock_until],
                "overstack_check": self.overstack_check, "german_sorties": list(self.german_sorties),
                "deadline": self.deadline}


# ---------------------------------------------------------------- the map's Leros facts

def is_all_sea(board, h: Hex) -> bool:
    """An all-sea hex (3.6h): off the map, or sea terrain without coast."""
    return h not in board or terrain_key(board, h) == "sea"


def lz_hexes(board, lz: int) -> list[Hex]:
    """The coastal hexes of a Landing Zone (1.2f: units land in any of them)."""
    area = board.areas.get(f"Landing Zone {lz}")
    if area is None:
        raise IllegalAction("Leros 1.2e", f"there is no Landing Zone {lz} on this map (1-16)")
    return sorted(area.hexes)


def piers_of(board, lz: int) -> list[Hex]:
    return [h for h in lz_hexes(board, lz) if "pier" in board.features_of(h)]


def battery_hexes(board) -> dict[str, Hex]:
    """Coastal batteries by letter ("Coastal Battery G" -> G)."""
    out = {}
    for name, area in board.areas.items():
        if name.startswith("Coastal Battery "):
            out[name.split()[-1]] = next(iter(area.hexes))
    return out


def night_turn(rules, st) -> bool:
    return rules.turns[st.turn].kind == "night"


def boxes_per_turn(rules, st) -> int:
    """Boats and Ju-52s move one box per turn, three at night (Leros 1.2a, 3.6b)."""
    return 3 if night_turn(rules, st) else 1


def side_of(rules, uid: str) -> str:
    return rules.specs[uid].side


def enemy_units_at(rules, st, h: Hex, side: str) -> list[str]:
    return [k for k, u in st.units.items() if u.hex == h and side_of(rules, k) != side]


def own_units_at(rules, st, h: Hex, side: str) -> list[str]:
    return [k for k, u in st.units.items() if u.hex == h and side_of(rules, k) == side]


def is_platoon(rules, uid: str) -> bool:
    """Platoon-sized units lose a step when their boat aborts (1.2g); the scenario names the others."""
    return uid not in rules.leros.get("not_platoons", ())


def is_heavy(rules, uid: str) -> bool:
    """Heavy Loading Point counters (1.2c): 120mm mortars, 88mm AT guns, halftrack AA, howitzers."""
    return uid in rules.leros.get("heavy", ())


# ---------------------------------------------------------------- 1.2 sea movement

def check_embark(rules, st, boat_id: str, units: list[str], lz: int, side: str, ctx=None) -> Boat:
    """Embarkation and trip start (1.2e): a boat in its Holding Box takes a load from that box and a Landing Zone."""
    tr = st.leros
    b = tr.boats.get(boat_id)
    if b is None or b.side != side:
        raise IllegalAction("Leros 1.2e", f"{side} has no boat {boat_id!r}")
    if b.box != HOLDING[side] or b.load:
        raise IllegalAction("Leros 1.2e", f"{boat_id} is not empty in the {HOLDING[side]} Holding Box")
    lz_hexes(rules.board, lz)
    if not units:
        raise IllegalAction("Leros 1.2e", "a trip begins with a load")
    for u in units:
        if u not in rules.specs or side_of(rules, u) != side or tr.boxed.get(u) != HOLDING[side]:
            raise IllegalAction("Leros 1.2e", f"{u} is not a unit of {side} in the {HOLDING[side]} box")
    if len(set(units)) != len(units):
        raise IllegalAction("Leros 1.2b", "a unit is one loading point, loaded once")
    if ctx is not None:
        cap = int(ctx.cell("leros.boat_loading", (b.type,), (), f"loading points of {boat_id}"))
        if len(units) > cap:   # 1.2b: one counter is one loading point; never overloaded
            raise IllegalAction("Leros 1.2b", f"{boat_id} carries {cap} loading points, not {len(units)}")
        heavy = [u for u in units if is_heavy(rules, u)]
        if heavy and ctx.cell("leros.boat_heavy", (b.type,), (), f"heavy loads on {boat_id}") != "yes":
            raise IllegalAction("Leros 1.2c", f"{boat_id} has no heavy loading symbol for {', '.join(heavy)}")
    return b


def embark(rules, st, ctx, boat: str, units: list[str], lz: int, side: str, sheet: str = "") -> None:
    """1.2e: load, note the Landing Zone, and move at once into the first box of the track."""
    b = check_embark(rules, st, boat, units, lz, side, ctx)
    for u in units:
        st.leros.boxed[u] = "boat"
    b.load, b.lz, b.sheet, b.box = list(units), lz, sheet, "A"
    ctx.events.append(Event("sea", f"{boat} embarks {', '.join(units)} for Landing Zone {lz} (Leros 1.2e) "
                                   f"and enters Sea Movement Box A"))


def _box_of_lz(ctx, side: str, lz: int) -> str:
    return str(ctx.cell("leros.sea_box", (side, lz), (), f"the Sea Movement box facing Landing Zone {lz}"))


def sea_movement(rules, st, ctx, side: str) -> None:
    """One side's boats at the start of its Action Phase (1.2d, 1.2f, 1.2h, 1.4d): boats in the Approach
    box start home; boats that waited at their Landing Zone's box land; the others advance."""
    tr = st.leros
    storm = st.weather == "Storm"
    for bid in sorted(tr.boats):
        b = tr.boats[bid]
        if b.side != side or b.box == HOLDING[side]:
            continue                       # 1.2d: only boats in the Holding Box may stay
        if b.box == "approach" and b.load and not b.returning:
            _land(rules, st, ctx, b)       # a boat held with heavy loads by a storm or a pier (1.2c)
            continue
        if b.box == "approach":
            b.box, b.returning = "D", True   # 1.2h: back along the track the turn after
            ctx.events.append(Event("sea", f"{bid} leaves the Approach box for home (Leros 1.2h)"))
            continue
        if b.waited and not b.returning:
            b.waited = False
            b.box = "approach"
            ctx.events.append(Event("sea", f"{bid} enters the Approach box of Landing Zone {b.lz} (Leros 1.2f)"))
            _gunfire(rules, st, ctx, b)
            if bid in tr.boats and b.load and not b.returning:
                _land(rules, st, ctx, b)
            continue
        if not b.load and not b.returning:  # 1.2h: an empty boat on the track (one set up empty) sails home
            b.returning, b.lz = True, 0
            ctx.events.append(Event("sea", f"{bid} is empty and sails home (Leros 1.2h)"))
        if storm:                          # 1.4d: a boat advances only on 5 or 6
            r = ctx.roll(f"storm: does {bid} advance (5-6)?")
            if r < 5:
                ctx.events.append(Event("sea", f"{bid} is held by the storm (rolled {r}, Leros 1.4d)"))
                continue
        for _ in range(boxes_per_turn(rules, st)):
            if b.returning:
                i = SEA_BOXES.index(b.box)
                if i == 0:
                    b.box, b.returning, b.lz, b.sheet = HOLDING[side], False, 0, ""
                    for u in b.load:
                        tr.boxed[u] = HOLDING[side]
                    b.load = []
                    ctx.events.append(Event("sea", f"{bid} is back in the {HOLDING[side]} box (Leros 1.2h)"))
                    break
                b.box = SEA_BOXES[i - 1]
                continue
            target = _box_of_lz(ctx, side, b.lz)
            if b.box == target:
                b.waited = True
                break
            i = SEA_BOXES.index(b.box)
            if i + 1 >= len(SEA_BOXES):
                b.waited = True
                break
            b.box = SEA_BOXES[i + 1]
            if b.box == target:
                b.waited = True
                break
        ctx.events.append(Event("sea", f"{bid} is in Sea Movement Box {b.box}" if b.box in SEA_BOXES else
                                f"{bid} is in the {b.box} box"))


def _gunfire(rules, st, ctx, b: Boat) -> None:
    """Italian Coastal Gunfire on a German boat arriving at its Landing Zone (1.2g)."""
    if b.side != GERMAN:
        return
    total, steps = 0, []
    for letter in sorted(battery_hexes(rules.board)):
        if letter in st.leros.batteries_lost:
            continue
        v = int(ctx.cell("leros.battery_summary", (b.lz, letter), (),
                         f"Battery Summary: fire value of battery {letter} on Landing Zone {b.lz}"))
        if v:
            total += v
            steps.append(Step(f"battery {letter} {v}", rule="Leros 1.2g"))
    if total <= 0:     # 1.2g: a roll only when the total is greater than zero
        ctx.events.append(Event("gunfire", f"no coastal battery fires on Landing Zone {b.lz} (Leros 1.2g)"))
        return
    roll = ctx.roll_dice("2d6", f"coastal gunfire on {b.id}")
    res = ctx.cell("leros.coastal_gunfire", (total, roll), tuple(steps) + (Step(f"roll {roll}"),),
                   f"coastal gunfire on {b.id} at Landing Zone {b.lz}")
    if res == "sunk":
        for u in b.load:
            _destroy(st, u)
        ctx.events.append(Event("gunfire", f"{b.id} is sunk with {', '.join(b.load)} (Leros 1.2g)"))
        del st.leros.boats[b.id]
        return
    if res == "abort":
        _abort(rules, st, ctx, b, losses=True)
        return
    ctx.events.append(Event("gunfire", f"coastal gunfire on {b.id}: {res}, the landing proceeds (Leros 1.2g)"))


def _abort(rules, st, ctx, b: Boat, losses: bool) -> None:
    """An abort (1.2g): each platoon aboard loses a step; the load stays aboard and the boat goes home (1.2h).
    A pier held by the enemy aborts a heavy load without losses (1.2c)."""
    hurt = []
    if losses:
        for u in b.load:
            if is_platoon(rules, u):
                _lose_step(rules, st, ctx, u)
                hurt.append(u)
    b.returning = True
    ctx.events.append(Event("sea", f"{b.id} aborts" + (f": {', '.join(hurt)} lose a step each" if hurt else "")
                            + " and returns to the " + HOLDING[b.side] + " box (Leros 1.2g, 1.2h)"))


def _lose_step(rules, st, ctx, uid: str) -> None:
    u = st.units[uid]
    u.steps_lost += 1
    steps = ctx.cell("tcs.counter.steps", (rules.specs[uid].type,), (), f"steps of {uid}")
    if u.steps_lost >= int(steps):
        _destroy(st, uid)


def _destroy(st, uid: str) -> None:
    st.units[uid].hex = None
    st.leros.boxed[uid] = "dead"


def _land(rules, st, ctx, b: Boat) -> None:
    """Place the load in coastal hexes of its Landing Zone in Move mode with its Op Sheet implemented (1.2f);
    heavy loads only in a friendly-occupied pier hex and never in a storm (1.2c)."""
    side = b.side
    coast = [h for h in lz_hexes(rules.board, b.lz)
             if "coast" in rules.board.features_of(h) and not enemy_units_at(rules, st, h, side)]
    piers = piers_of(rules.board, b.lz)
    friendly_piers = [h for h in piers if own_units_at(rules, st, h, side) and not enemy_units_at(rules, st, h, side)]
    heavy = [u for u in b.load if is_heavy(rules, u)]
    if heavy and piers and all(enemy_units_at(rules, st, h, side) for h in piers):
        _abort(rules, st, ctx, b, losses=False)       # 1.2c: the pier is the enemy's
        return
    light = [u for u in b.load if not is_heavy(rules, u)]
    for u in light:
        if not coast:
            raise IllegalAction("Leros 1.2f", f"Landing Zone {b.lz} has no free coastal hex")
        h = _pick_hex(rules, ctx, side, coast, f"where {u} lands in Landing Zone {b.lz}")
        _place(rules, st, u, h, b.sheet)
        ctx.events.append(Event("land", f"{u} lands in {rules.hid(h)} in Move mode (Leros 1.2f)",
                                {"unit": u, "what": "landing", "turn": st.turn, "lz": b.lz, "boat": b.id,
                                 "hex": rules.hid(h)}))
    kept = []
    for u in heavy:
        if st.weather == "Storm" or not friendly_piers:
            kept.append(u)     # 1.2c: no unloading in a storm or without a friendly pier: stays aboard
            continue
        h = _pick_hex(rules, ctx, side, friendly_piers, f"which pier {u} unloads at")
        _place(rules, st, u, h, b.sheet)
        st.units[u].moved = True     # 1.2c: cannot move in the turn it unloads
        st.units[u].mp_used = rules.ma(st, u) if rules.ma(st, u) else st.units[u].mp_used
        _add_gun_ammo(rules, st, ctx, u)
        ctx.events.append(Event("land", f"{u} unloads at the pier {rules.hid(h)} (Leros 1.2c)",
                                {"unit": u, "what": "landing", "turn": st.turn, "lz": b.lz, "boat": b.id,
                                 "hex": rules.hid(h)}))
    b.load = kept
    if kept:
        ctx.events.append(Event("sea", f"{b.id} keeps {', '.join(kept)} aboard: heavy loads unload only at a "
                                       f"friendly pier and not in a storm (Leros 1.2c)"))


def _pick_hex(rules, ctx, side: str, hexes: list[Hex], text: str) -> Hex:
    names = [rules.hid(h) for h in hexes]
    return rules.hex(ctx.choose("landing", side, names, text))


def _place(rules, st, uid: str, h: Hex, sheet: str) -> None:
    u = st.units[uid]
    u.hex, u.mode = h, "move"
    st.leros.boxed.pop(uid, None)
    if sheet and sheet in st.sheets:
        s = st.sheets[sheet]
        s.implemented = True       # 1.2f: implemented before the landing, no weighted turns needed
        if uid not in s.units:
            s.units.append(uid)
        u.sheet = sheet
    _occupy_battery(rules, st, uid, h)


def _occupy_battery(rules, st, uid: str, h: Hex) -> None:
    """1.2g: a battery whose hex the Germans occupy is destroyed for good."""
    if side_of(rules, uid) != GERMAN:
        return
    for letter, bh in battery_hexes(rules.board).items():
        if bh == h and letter not in st.leros.batteries_lost:
            st.leros.batteries_lost.append(letter)


def _add_gun_ammo(rules, st, ctx, uid: str) -> None:
    """3.2b: each German gun landing on Leros adds 8 HE, 2 Smoke and 1 Illum to the pool."""
    cal = rules.leros.get("guns", {}).get(uid)
    if not cal:
        return
    for kind, n in (("he", 8), ("smoke", 2), ("illum", 1)):
        key = f"{GERMAN}|{cal}|{kind}"
        st.ammo[key] = st.ammo.get(key, 0) + n
    ctx.events.append(Event("ammo", f"{uid} lands: +8 HE, +2 Smoke, +1 Illum {cal} (Leros 3.2b)"))


# ---------------------------------------------------------------- 3.6 parachute assaults

def check_plan(rules, st, plane_id: str, units: list[str], dz: str) -> Plane:
    """3.6c-d: a Ju-52 in Athens takes a flight of one or two units and its company's drop zone hex."""
    tr = st.leros
    p = tr.planes.get(plane_id)
    if p is None or p.box != "athens" or p.load:
        raise IllegalAction("Leros 3.6c", f"{plane_id} is not an empty Ju-52 in the Athens box")
    if not 1 <= len(units) <= 2:
        raise IllegalAction("Leros 3.6d", "a flight is one or two units")
    h = rules.hex(dz)
    for u in units:
        if u not in rules.specs or side_of(rules, u) != GERMAN or tr.boxed.get(u) != "athens":
            raise IllegalAction("Leros 3.6b", f"{u} is not a German unit in the Athens box")
        if u not in rules.leros.get("paratroops", ()):
            raise IllegalAction("Leros 3.6", f"{u} is not of I-FJ or the Para Co")
    for other in tr.planes.values():       # 3.6c: one drop zone per company
        for u in units:
            same = [v for v in other.load if company_of(v) == company_of(u)]
            if same and other.dz and other.dz != rules.hid(h) and other.box != "athens":
                raise IllegalAction("Leros 3.6c", f"company {company_of(u)} already drops at {other.dz}: no unit "
                                                  "smaller than a company has a drop zone of its own")
    return p


def company_of(uid: str) -> str:
    """A unit's company: its id without the last part ("4-I-FJ-MG1" is of 4-I-FJ, "Para-Co-2" of Para-Co), as
    the Leros scenario files name counters (engine/rulesets/tcs/games/leros_scenarios.py)."""
    return uid.rsplit("-", 1)[0] if "-" in uid else uid


def plan_flight(rules, st, plane_id: str, units: list[str], dz: str, events: list) -> None:
    p = check_plan(rules, st, plane_id, units, dz)
    p.load, p.dz = list(units), rules.hid(rules.hex(dz))
    for u in units:
        st.leros.boxed[u] = "plane"
    events.append(Event("air", f"{plane_id} loads {', '.join(units)} for drop zone {p.dz} (Leros 3.6c)"))


def check_abort_flight(st, plane_id: str) -> Plane:
    p = st.leros.planes.get(plane_id)
    if p is None or not p.load or p.box not in AIR_OUT or p.box == "air-execution" or p.returning:
        raise IllegalAction("Leros 3.6j", f"{plane_id} is not loaded on the outward track before the Execution box")
    return p


def abort_flight(st, plane_id: str, events: list, why: str = "called off") -> None:
    """3.6j: across to the return box facing its position (from a preparation box straight to Athens)."""
    p = check_abort_flight(st, plane_id)
    if p.box in PREP_BOXES:
        p.box = "athens"
        for u in p.load:
            st.leros.boxed[u] = "athens"
        p.load, p.dz = [], ""
        events.append(Event("air", f"{plane_id} is {why} in preparation and is back in Athens (Leros 3.6j)"))
        return
    p.box, p.returning, p.aborted = AIR_OPPOSITE[p.box], True, True
    events.append(Event("air", f"{plane_id} is {why}: it returns by {p.box} (Leros 3.6j)"))


def air_movement(rules, st, ctx) -> list[str]:
    """German Ju-52s at the start of the German Action Phase (3.6b): one box a turn, three at night; weather
    other than Normal aborts flights past the preparation boxes (1.4, 3.6j).  Returns the planes that reached
    the Execution box (they drop at the end of the phase, 3.6e)."""
    tr = st.leros
    arrived = []
    for pid in sorted(tr.planes):
        p = tr.planes[pid]
        if p.box == "athens" or (p.box == "air-execution"):
            continue
        if not p.load and not p.returning:
            continue
        for _ in range(boxes_per_turn(rules, st)):
            if p.returning:
                i = AIR_BACK.index(p.box)
                p.box = AIR_BACK[i + 1]
                if p.box == "athens":
                    for u in p.load:
                        tr.boxed[u] = "athens"
                    p.load, p.dz, p.returning, p.aborted = [], "", False, False
                    break
                continue
            p.box = AIR_OUT[AIR_OUT.index(p.box) + 1]
            if p.box == "air-execution":
                arrived.append(pid)
                break
            if p.box not in PREP_BOXES and not weather_effects(st.weather)["air_movement"]:
                abort_flight(st, pid, ctx.events, why=f"aborted by {st.weather} weather")
                break
        ctx.events.append(Event("air", f"{pid} is in the {p.box} box"))
    return arrived


def start_flight(rules, st, plane_id: str, events: list) -> None:
    """3.6b: a loaded Ju-52 leaves Athens into the first box (then it must go on every turn)."""
    p = st.leros.planes.get(plane_id)
    if p is None or p.box != "athens" or not p.load:
        raise IllegalAction("Leros 3.6b", f"{plane_id} is not a loaded Ju-52 in the Athens box")
    if not weather_effects(st.weather)["air_movement"]:
        raise IllegalAction("Leros 1.4", f"no air movement in {st.weather} weather")
    p.box = AIR_OUT[0]
    events.append(Event("air", f"{plane_id} takes off for {p.dz}: Air Movement Box A (Leros 3.6b)"))


def _step(h: Hex, direction: str, n: int) -> Hex:
    if n < 0:
        direction = {"N": "S", "S": "N", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}[direction]
        n = -n
    for _ in range(n):
        h = hex_neighbor(h, DIRECTIONS[direction])
    return h


def parachute_assault(rules, st, ctx, planes: list[str]) -> None:
    """3.6e-i: for each drop zone, scatter its marker (a die for direction, a die halved for distance,
    kept on land); then each flight drifts (a die less 2 along the Direction of Drift) and lands in the
    neighbouring hex a die gives; in the sea or on a British unit it is destroyed; else it lands in Move mode
    and takes the Parachute Loss Table's steps by its range to the nearest British unit within 3."""
    tr = st.leros
    board = rules.board
    by_dz: dict[str, list[str]] = {}
    for pid in planes:
        by_dz.setdefault(tr.planes[pid].dz, []).append(pid)
    for dz in sorted(by_dz):
        h0 = rules.hex(dz)
        rd = ctx.roll_dice("1d6", f"scatter direction of drop zone {dz}")
        direction = ctx.cell("tcs.scatter_direction", (rd,), (Step(f"roll {rd}"),), f"drop zone {dz} scatter")
        n = ctx.roll(f"scatter distance of drop zone {dz} (halved)") // 2     # 3.6e 2): divide by 2, round down
        h = h0
        for _ in range(n):
            nxt = _step(h, direction, 1)
            if is_all_sea(board, nxt):
                break           # 3.6e 2): out to sea: the last land hex along the scatter
            h = nxt
        ctx.events.append(Event("drop", f"drop zone {dz} scatters {n} {direction} to {rules.hid(h)} (Leros 3.6e)",
                                {"what": "scatter", "turn": st.turn, "dz": dz, "to": rules.hid(h)}))
        for pid in by_dz[dz]:
            p = tr.planes[pid]
            d = ctx.roll(f"drift of {pid}") - 2                               # 3.6e A)
            drift_hex = _step(h, tr.drift, d)
            sd = ctx.roll_dice("1d6", f"landing direction of {pid}")
            way = ctx.cell("tcs.scatter_direction", (sd,), (Step(f"roll {sd}"),), f"landing of {pid}")
            spot = _step(drift_hex, way, 1)                                     # 3.6e B)
            path = {"what": "flight", "turn": st.turn, "plane": pid, "dz": dz, "marker": rules.hid(h),
                    "drift_qr": [drift_hex.q, drift_hex.r], "to_qr": [spot.q, spot.r]}   # may lie off the map (3.6h)
            load, p.load, p.box, p.dz = list(p.load), [], AIR_BACK[0], ""
            p.returning = True          # 3.6b: empty Ju-52s start home in the phase of the drop
            if is_all_sea(board, spot):
                for u in load:
                    _destroy(st, u)     # 3.6h: no battalion morale for these
                ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands in the sea and is "
                                                f"lost (Leros 3.6h)", {**path, "fate": "sea"}))
                continue
            british = [k for k in enemy_units_at(rules, st, spot, GERMAN) if k not in rules.leros.get("coastal_guns", ())]
            if british:
                for u in load:
                    _destroy(st, u)
                ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands on {', '.join(british)} "
                                                f"in {rules.hid(spot)} and is destroyed (Leros 3.6f)",
                                        {**path, "fate": "destroyed"}))
                continue
            rng = _nearest_british(rules, st, spot)
            for u in load:
                _place(rules, st, u, spot, "")
                st.units[u].mode = "move"
                tr.landed[u] = st.turn
                tr.free_until[u] = free_period_end(rules, st.turn)
                if rng is not None:                                              # 3.6e C)
                    k = int(ctx.cell("leros.parachute_loss", (str(rng) if rng < 5 else "5+",), (),
                                     f"losses of {u} landing {rng} hexes from the British"))
                    for _ in range(k):
                        if st.units[u].hex is not None:
                            _lose_step(rules, st, ctx, u)
            tr.overstack_check = st.turn + 1
            ctx.events.append(Event("drop", f"{pid}'s flight ({', '.join(load)}) lands in {rules.hid(spot)} "
                                            f"(Leros 3.6e)", {**path, "hex": rules.hid(spot), "fate": "landed"}))


def _nearest_british(rules, st, h: Hex) -> int | None:
    """Range to the nearest British unit of any type within 3 hexes (3.6e C: farther ones do not matter)."""
    best = None
    guns = rules.leros.get("coastal_guns", ())
    for k, u in st.units.items():
        if u.hex is None or side_of(rules, k) != BRITISH or k in guns:
            continue
        d = hex_distance(u.hex, h)
        if d <= 3 and (best is None or d < best):
            best = d
    return best


def is_infantry(rules, uid: str) -> bool:
    """Leros 3.6i's infantry: the rifle and parachute platoons (the machine guns, mortars and guns are other
    types), by the counter types the scenario files use (engine/rulesets/tcs/games/leros_scenarios.py)."""
    return rules.specs[uid].type.endswith(("rifle platoon", "parachute platoon"))


def still_landing(st, uid: str) -> bool:
    """3.6i: a unit dropped in the German Action Phase that has just ended, until the next German Action Phase
    begins (then it functions normally)."""
    return uid in st.leros.landed


def free_period_end(rules, turn: int) -> int:
    """3.6i: units dropped by day act without Op Sheets until the first night turn; dropped at night, until
    the first day turn.  The turn index from which they need an Op Sheet."""
    kind = rules.turns[turn].kind
    night = kind == "night"
    for i in range(turn + 1, len(rules.turns)):
        if (rules.turns[i].kind == "night") != night:
            return i
    return len(rules.turns)


# ---------------------------------------------------------------- 1.3 surrender

def surrender_allowed(rules, st, side: str) -> str:
    """Why a surrender demand is refused now ("" when allowed): campaign games only, from 0100 Nov 13, two each."""
    if not rules.leros.get("campaign"):
        return "surrender applies only to campaign games (Leros 1.3)"
    t = rules.turns[st.turn]
    if (t.when.month, t.when.day, t.when.hour) < (11, 13, 1):
        return "surrender may be demanded from 0100 Nov 13 (Leros 1.3)"
    if st.leros.demands[side] >= 2:
        return f"{side} has made its two demands (Leros 1.3)"
    if st.leros.surrendered:
        return f"{st.leros.surrendered} has surrendered"
    return ""


def counters_on_leros(rules, st, side: str) -> int:
    guns = rules.leros.get("coastal_guns", ())
    return sum(1 for k, u in st.units.items() if u.hex is not None and side_of(rules, k) == side and k not in guns)


def surrender_check(rules, st, ctx, demanding: str) -> bool:
    """One demand (1.3): the other side rolls a die, +1 per 10 counters it has on Leros (rounded normally);
    below 6 it surrenders."""
    other = BRITISH if demanding == GERMAN else GERMAN
    n = counters_on_leros(rules, st, other)
    mod = (n + 5) // 10                        # round normally: 29 -> +3, 25 -> +3, 24 -> +2
    st.leros.demands[demanding] += 1
    r = ctx.roll(f"{other} surrender check")
    total = r + mod
    gives = total < 6
    ctx.events.append(Event("surrender", f"{demanding} demands surrender: {other} rolls {r} +{mod} ({n} counters) "
                                         f"= {total}: " + ("it surrenders" if gives else "the fight goes on")
                                         + " (Leros 1.3)"))
    return gives


def surrender_tie(ctx) -> str:
    """1.3: both sides surrender on the same turn: 1-3 the British do, 4-6 the Germans."""
    r = ctx.roll("who surrenders first")
    return BRITISH if r <= 3 else GERMAN


# ---------------------------------------------------------------- 2.5 naval gunfire, 3.5 reserves

def naval_solitaire_pick(ctx, candidates: list[str]) -> list[str]:
    """2.5 solitaire play: five hexes noted at 1200, two drawn at random at 2400 (a die per draw, re-rolled
    when it names a hex already drawn or a sixth slip)."""
    if len(candidates) != 5 or len(set(candidates)) != 5:
        raise IllegalAction("Leros 2.5", "the solitaire plot notes five different hexes")
    picked: list[str] = []
    while len(picked) < 2:
        r = ctx.roll("draw a naval gunfire slip (1-5; 6 re-rolls)")
        if r <= 5 and candidates[r - 1] not in picked:
            picked.append(candidates[r - 1])
    return picked


def naval_cancelled(ctx) -> bool:
    """2.5: at 2400 a die: 1 or 2 cancels the bombardment."""
    return ctx.roll("naval gunfire cancellation (1-2 cancels)") <= 2


def naval_plot_refused(rules, st, side: str, hexes: list[str]) -> str:
    """Why a naval gunfire plot is refused now ("" when allowed): 2.5, the British on a 1200 turn, two hexes
    (or five for the solitaire method), on the map, once."""
    if side != BRITISH:
        return "only the British plot the Royal Navy's bombardment (Leros 2.5)"
    if rules.turns[st.turn].hhmm != "1200":
        return "the Royal Navy's hexes are noted on a 1200 turn (Leros 2.5)"
    if st.leros.naval_plot:
        return f"the bombardment is already noted: {', '.join(st.leros.naval_plot)} (Leros 2.5)"
    if len(hexes) not in (2, 5) or len(set(hexes)) != len(hexes):
        return "note two different hexes, or five for the solitaire method (two drawn at 2400) (Leros 2.5)"
    for h in hexes:
        try:
            rules.board.parse_hex(h)
        except Exception:  # noqa: BLE001 - a hex off the map, named in the message
            return f"{h} is not a hex of the map (Leros 2.5)"
    return ""


def naval_fire(rules, st, ctx) -> None:
    """2.5: the 2400 turn after a 1200 plot: the solitaire draw of two of five, a die (1-2 cancels), then each hex
    attacked as a 100 mm battalion mission adjusted on the 4-6 hex row with no spotter, HE only."""
    from ..procs import barrage_attack, scatter, zone_of
    from ..scenario import BatterySpec
    from ..state import Barrage

    tr = st.leros
    plot = list(tr.naval_plot)
    targets = naval_solitaire_pick(ctx, plot) if len(plot) == 5 else plot      # 2.5 solitaire play note
    if len(plot) == 5:
        ctx.events.append(Event("naval", f"the slips drawn: {', '.join(targets)} (Leros 2.5 solitaire play)"))
    if naval_cancelled(ctx):
        tr.naval_plot = []
        ctx.events.append(Event("naval", "the Royal Navy's bombardment is cancelled (Leros 2.5)"))
        return
    navy = BatterySpec("Royal Navy", BRITISH, "100mm", fires_as="battalion")
    line = rules.scenario.sides[BRITISH].nation
    for hid in targets:
        h = rules.board.parse_hex(hid)
        why = f"the Royal Navy's bombardment of {hid}"
        roll = ctx.roll_dice("1d6", f"adjustment of {why}")
        res = ctx.cell("tcs.artillery_adjustment", (line, "4-6", roll),
                       (Step(f"{line} line"), Step("the 4-6 hex row, no spotter", "Leros 2.5"), Step(f"roll {roll}")),
                       why)
        ctx.events.append(Event("adjust", f"{why}: {res} Shoot (Leros 2.5)", {"result": res}))
        if res == "Bad":
            h = scatter(rules, st, ctx, h, why)
            if h is None:
                continue
        zone = zone_of(rules, h, "battalion")
        mid = f"M{st.next_id}"
        st.next_id += 1
        st.markers.append(Barrage(mid, BRITISH, "he", h, zone, "Royal Navy"))
        barrage_attack(rules, st, ctx, navy, zone, mid)
    tr.naval_plot = []


# 3.5: Army Group E's reserve groups in release order (organisations as the book names them)
RESERVE_GROUPS = (("Para-Co", "9-III-Brg"), ("10-III-Brg", "11-III-Brg"), ("5-II-Brg", "6-II-Brg", "7-II-Brg"))
RESERVE_DEADLINE_HOURS = {2: 72, 3: 24}      # 3.5: the British must surrender within these hours (scenario 1)


def reserve_refused(rules, st, side: str) -> str:
    """Why an Army Group E request is refused now ("" when allowed), Leros 3.5."""
    tr = st.leros
    if side != GERMAN:
        return "only the Germans request Army Group E's reserves (Leros 3.5)"
    if not rules.leros.get("campaign"):
        return "Army Group E's reserves come only in campaign games (Leros 3.5)"
    if tr.reserve_groups >= len(RESERVE_GROUPS):
        return "every reserve group has been released (Leros 3.5)"
    if tr.reserve_requested:
        return "the request is made: a die each hour turn until a 6 (Leros 3.5)"
    t = rules.turns[st.turn]
    if not rules.leros.get("reserve_start") and (t.when.month, t.when.day, t.when.hour) < (11, 12, 18):
        return "reserves may be requested from 1800 Nov 12 (Leros 3.5)"
    if st.turn < tr.reserve_lock_until:
        return (f"no request until 24 hours after the last release: {rules.turns[tr.reserve_lock_until].label} "
                "(Leros 3.5)")
    return ""


def reserve_request(rules, st, ctx) -> int:
    """3.5: once requested, a die each hour turn; a 6 releases the next group (of three) into the Kos box (the
    Para Co into Athens); then no request for 24 hours.  In scenario 1's campaign the second group's release
    gives the Germans 72 hours to force a surrender, the third 24.  Returns the group released (1-3) or 0."""
    tr = st.leros
    if tr.reserve_groups >= len(RESERVE_GROUPS):
        return 0
    r = ctx.roll("Army Group E reserve release (6 releases)")
    if r != 6:
        ctx.events.append(Event("reserve", f"Army Group E holds its reserves: {r} (Leros 3.5)"))
        return 0
    tr.reserve_groups += 1
    tr.reserve_requested = False
    tr.reserve_lock_until = st.turn + hours_to_turns(rules, st.turn, 24)
    g = tr.reserve_groups
    for u in rules.leros.get("reserves", {}).get(str(g), []):
        tr.boxed[u] = "athens" if u.startswith("Para-Co") else "kos"
    ctx.events.append(Event("reserve", f"Army Group E releases group {g}: "
                                       f"{', '.join(RESERVE_GROUPS[g - 1])} (Leros 3.5)"))
    hours = RESERVE_DEADLINE_HOURS.get(g)
    if hours and rules.leros.get("reserve_deadlines"):
        end = st.turn + hours_to_turns(rules, st.turn, hours)
        tr.deadline = end if tr.deadline < 0 else min(tr.deadline, end)
        label = rules.turns[tr.deadline].label if tr.deadline < len(rules.turns) else "the end of the game"
        ctx.events.append(Event("reserve", f"the Germans must force a surrender by {label} (Leros 3.5)"))
    return g


def hours_to_turns(rules, turn: int, hours: int) -> int:
    start = rules.turns[turn].when
    for i in range(turn, len(rules.turns)):
        w = rules.turns[i].when
        if (w - start).total_seconds() >= hours * 3600:
            return i - turn
    return len(rules.turns) - turn


# ---------------------------------------------------------------- 5.2 victory

LEVELS = ("German Massive", "German Major", "German Minor", "Draw", "British Minor", "British Major",
          "British Massive")


def shift_level(level: str, shift: int) -> str:
    """Shift a victory level toward the British (+) or the Germans (-), held at the ends of the scale."""
    i = max(0, min(len(LEVELS) - 1, LEVELS.index(level) + shift))
    return LEVELS[i]


def feature_holder(rules, st, hexes: list[str]) -> str:
    """5.2a: a feature is the side's that occupies or last passed through its hex; a multi-hex village only
    when the same side was the last in each of its contiguous hexes."""
    holders = set()
    for hid in hexes:
        h = rules.hex(hid)
        occupants = {side_of(rules, k) for k, u in st.units.items() if u.hex == h}
        if len(occupants) == 1:
            holders.add(next(iter(occupants)))
        else:
            holders.add(st.control.get(h, ""))
    return next(iter(holders)) if len(holders) == 1 else ""


# ---------------------------------------------------------------- what the tracks show

def _box_name(board, box_id: str) -> str:
    box = board.boxes.get(box_id)
    return box.name if box is not None else box_id


def sea_box_id(side: str, box: str) -> str:
    """The map's box for a boat's place on its side's Sea Movement Track (1.2d): "kos", "german-sea-A"..."""
    if box in HOLDING.values():
        return box
    if box == "approach":
        return f"{side}-approach"
    return f"{side}-sea-{box}"


def track_view(rules, st) -> dict:
    """Everything off the map as the tracks print it, for a window to show (nothing here decides a rule).

    ``sea``: per side, its Holding box (with the units waiting there), Sea Movement Boxes A-D and its Approach
    box, in track order, each with its boats (type, load, Landing Zone of the trip, returning).  ``air``: the
    Athens box, the outward boxes, the Execution box and the Return Leg boxes with their Ju-52s (load, drop
    zone; a Return Leg box names the outward box it ``faces``, 3.6j).  ``drop_zones``: each plotted drop zone
    hex (3.6c) with the loaded Ju-52s bound for it and their units.  ``landing_zones``: each Landing Zone a loaded boat is bound for (1.2f), its hexes and boats.
    ``map_landing_zones``: every Landing Zone the map prints (1.2f), its number and hexes."""
    tr, board = st.leros, rules.board
    sides = [s for s in (GERMAN, BRITISH) if any(b.side == s for b in tr.boats.values())
             or any(v == HOLDING[s] for v in tr.boxed.values())]
    sea = []
    for side in sides:
        for box in (HOLDING[side], *SEA_BOXES, "approach"):
            boats = [{"id": k, "type": b.type, "load": list(b.load), "lz": b.lz, "returning": b.returning}
                     for k, b in sorted(tr.boats.items()) if b.side == side and b.box == box]
            units = [u for u in rules.order if tr.boxed.get(u) == box] if box == HOLDING[side] else []
            bid = sea_box_id(side, box)
            sea.append({"side": side, "box": bid, "name": _box_name(board, bid), "boats": boats, "units": units})
    air = []
    if tr.planes or any(v == "athens" for v in tr.boxed.values()):
        for box in ("athens", *AIR_OUT, *AIR_BACK[:-1]):
            planes = [{"id": k, "load": list(p.load), "dz": p.dz, "returning": p.returning, "aborted": p.aborted}
                      for k, p in sorted(tr.planes.items()) if p.box == box]
            units = [u for u in rules.order if tr.boxed.get(u) == "athens"] if box == "athens" else []
            faces = next((o for o, r in AIR_OPPOSITE.items() if r == box), "")      # 3.6j: a return box's
            air.append({"box": box, "name": _box_name(board, box), "planes": planes, "units": units,  # outward box
                        "faces": faces})
    dzs: dict[str, dict] = {}
    for k, p in sorted(tr.planes.items()):
        if p.dz and p.load and not p.returning:
            d = dzs.setdefault(p.dz, {"hex": p.dz, "planes": [], "units": []})
            d["planes"].append(k)
            d["units"] += p.load
    lzs: dict[int, dict] = {}
    for k, b in sorted(tr.boats.items()):
        if b.lz and b.load and not b.returning:
            z = lzs.setdefault(b.lz, {"lz": b.lz, "side": b.side, "boats": [],
                                      "hexes": [rules.hid(h) for h in lz_hexes(board, b.lz)]})
            z["boats"].append(k)
    every = sorted(int(name.rsplit(" ", 1)[1]) for name in board.areas
                   if name.startswith("Landing Zone ") and name.rsplit(" ", 1)[1].isdigit())
    return {"sea": sea, "air": air, "drop_zones": [dzs[k] for k in sorted(dzs)],
            "landing_zones": [lzs[k] for k in sorted(lzs)], "drift": tr.drift,
            "map_landing_zones": [{"lz": n, "hexes": [rules.hid(h) for h in lz_hexes(board, n)]} for n in every]}


def campaign_level(steps_lost: int) -> str:
    """5.2b: the winner's level by its own step losses."""
    if steps_lost > 150:
        return "Pyrrhic"
    if steps_lost > 100:
        return "Minor"
    if steps_lost >= 50:
        return "Major"
    return "Strategic"


__all__ = ["AIR_BACK", "AIR_OPPOSITE", "AIR_OUT", "BRITISH", "Boat", "GERMAN", "LEVELS", "Plane", "Tracks",
           "WEATHER", "abort_flight", "air_movement", "campaign_level", "check_embark", "counters_on_leros", "embark",
           "feature_holder", "free_period_end", "is_infantry", "naval_cancelled", "naval_solitaire_pick", "parachute_assault",
           "plan_flight", "reserve_request", "sea_movement", "shift_level", "start_flight", "still_landing", "surrender_allowed",
           "surrender_check", "surrender_tie", "sea_box_id", "track_view", "weather_effects"]
