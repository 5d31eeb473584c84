"""Leros on the TCS engine: the series' turn with the game's sea and air movement, parachute drops,
surrender demands, terrain facts and victory (engine/rulesets/tcs/games/leros.py holds the procedures).

Extra actions (text forms):

- ``embark BOAT U+U lz N [sheet S]``: a trip from the holding box (Leros 1.2e), own Action Phase
- ``plan PLANE U+U dz HEX``: a Ju-52's flight and its drop zone in Athens (3.6c-d), German Action Phase
- ``takeoff PLANE``: a loaded Ju-52 leaves Athens (3.6b); ``abortflight PLANE``: call it off (3.6j)
- ``drift DIR``: the Direction of Drift for this turn's drops (3.6a), German Command review step
- ``demand``: a surrender demand (1.3), own Command review step
- ``naval HEX+HEX`` (or five hexes, the solitaire method): the Royal Navy's bombardment noted on a 1200 turn,
  British Command review step, fired at the next 2400 (2.5)
- ``request``: Army Group E's reserves requested (3.5), German Command review step of a campaign game
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from ....charts import load_slots
from ....errors import IllegalAction
from ....game import Event
from .. import actions as A
from ..procs import PROCS
from ..rules import CHARTS, TcsRules
from ..state import State
from ..steps import ASKS
from . import leros as L
from .leros_variants import lrdg_rovers
from engine.errors import excerpt


@dataclass(frozen=True)
class Embark:
    boat: str
    units: tuple[str, ...]
    lz: int
    sheet: str = ""

    def text(self) -> str:
        return f"embark {self.boat} {'+'.join(self.units)} lz {self.lz}" + (f" sheet {self.sheet}" if self.sheet else "")

    def words(self, rules, st) -> str:
        """In a list: ``Embark 1-KB on boat B1 for landing zone 2`` (Leros 1.2e)."""
        return f"Embark {'+'.join(self.units)} on {self.boat} for landing zone {self.lz}" \
            + (f" (Op Sheet {self.sheet})" if self.sheet else "")


@dataclass(frozen=True)
class Plan:
    plane: str
    units: tuple[str, ...]
    dz: str

    def text(self) -> str:
        return f"plan {self.plane} {'+'.join(self.units)} dz {self.dz}"

    def words(self, rules, st) -> str:
        """In a list: ``Load 1-FJ in Ju-52 J1 to drop on B12.05`` (Leros 3.6c-d)."""
        return f"Load {'+'.join(self.units)} in {self.plane} to drop on {self.dz}"


@dataclass(frozen=True)
class PlaneOrder:
    verb: str           # "takeoff" or "abortflight"
    plane: str

    def text(self) -> str:
        return f"{self.verb} {self.plane}"

    def words(self, rules, st) -> str:
        return f"{self.plane} takes off (Leros 3.6b)" if self.verb == "takeoff" else f"Call off {self.plane}'s flight"


@dataclass(frozen=True)
class Drift:
    direction: str

    def text(self) -> str:
        return f"drift {self.direction}"

    def words(self, rules, st) -> str:
        return f"Direction of Drift {self.direction} (Leros 3.6a)"


@dataclass(frozen=True)
class Demand:
    def text(self) -> str:
        return "demand"

    def words(self, rules, st) -> str:
        return "Demand the enemy's surrender (Leros 1.3)"


@dataclass(frozen=True)
class NavalPlot:
    hexes: tuple[str, ...]

    def text(self) -> str:
        return f"naval {'+'.join(self.hexes)}"

    def words(self, rules, st) -> str:
        return f"Royal Navy bombardment of {', '.join(self.hexes)} (Leros 2.5)"


@dataclass(frozen=True)
class Request:
    def text(self) -> str:
        return "request"

    def words(self, rules, st) -> str:
        return "Request Army Group E's reserves (Leros 3.5)"


def parse_leros(text: str):
    """A Leros action's text form, or None when it is a series action."""
    w = text.split()
    try:
        if w[0] == "embark" and w[3] == "lz":
            sheet = w[6] if len(w) > 6 and w[5] == "sheet" else ""
            return Embark(w[1], tuple(w[2].split("+")), int(w[4]), sheet)
        if w[0] == "plan" and w[3] == "dz" and len(w) == 5:
            return Plan(w[1], tuple(w[2].split("+")), w[4])
        if w[0] in ("takeoff", "abortflight") and len(w) == 2:
            return PlaneOrder(w[0], w[1])
        if w[0] == "drift" and len(w) == 2:
            return Drift(w[1])
        if w == ["demand"]:
            return Demand()
        if w[0] == "naval" and len(w) == 2:
            return NavalPlot(tuple(w[1].split("+")))
        if w == ["request"]:
            return Request()
    except (IndexError, ValueError):
        raise IllegalAction("", f"cannot read {excerpt(text)}: see the Leros action forms in "
                                "engine/rulesets/tcs/games/leros_rules.py") from None
    return None


@dataclass
class LerosState(State):
    leros: L.Tracks = None

    def copy(self) -> "LerosState":
        c = State.copy(self)
        c.leros = self.leros.copy()
        return c


# ---------------------------------------------------------------- procedures (stop and resume like the series')

def _proc_phase(rules, st, ctx, side: str) -> None:
    """At the start of a side's Action Phase: its boats move and land (1.2), German Ju-52s fly (3.6b)."""
    if side == L.GERMAN:
        st.leros.landed.clear()     # 3.6i: the next friendly Action Phase after a landing, they act normally
    L.sea_movement(rules, st, ctx, side)
    if side == L.GERMAN:
        L.air_movement(rules, st, ctx)


def _proc_assault(rules, st, ctx, units: list, hex: str, overrun: bool = False) -> None:
    """Leros 3.6i: units still landing from a parachute assault that are assaulted (or overrun): those other
    than infantry are eliminated at once; the infantry fires back at a strength of 1 (``assault_defence_firepower``).
    Then the series' assault (TCS 15.0); attackers who take the hex occupy it (1.2g: a coastal battery's hex
    taken by the Germans destroys the battery)."""
    h = rules.board.parse_hex(hex)
    for k in rules.order:
        if st.units[k].hex == h and L.still_landing(st, k) and not L.is_infantry(rules, k):
            L._destroy(st, k)
            ctx.events.append(Event("eliminated", f"{k} is eliminated: assaulted as it lands, it is no infantry "
                                                  "(Leros 3.6i)", {"unit": k}))
    PROCS["assault"](rules, st, ctx, units, hex, overrun)
    if any(st.units[u].hex == h for u in units):
        rules._take(st, h, rules.specs[units[0]].side)      # 1.2g, 5.2a: a hex taken by assault is occupied


def _proc_drop(rules, st, ctx) -> None:
    """The last action of the German Action Phase: the drops of Ju-52s in the Execution box (3.6e), then
    overstacks left from the last drop lose their excess units (3.6g)."""
    tr = st.leros
    if tr.overstack_check >= 0 and tr.overstack_check <= st.turn:
        _overstack(rules, st, ctx)
    planes = [p for p in sorted(tr.planes) if tr.planes[p].box == "air-execution" and tr.planes[p].load]
    if planes:
        L.parachute_assault(rules, st, ctx, planes)


def _overstack(rules, st, ctx) -> None:
    tr = st.leros
    tr.overstack_check = -1
    limit = rules.options["stacking_units"]
    by_hex: dict = {}
    for k in rules.order:
        u = st.units[k]
        if u.hex is not None and L.side_of(rules, k) == L.GERMAN and not rules.specs[k].fo:
            by_hex.setdefault(u.hex, []).append(k)
    for h, ks in by_hex.items():
        for k in ks[limit:]:
            L._destroy(st, k)
            ctx.events.append(Event("drop", f"{k} is eliminated: {rules.hid(h)} is still overstacked (Leros 3.6g)"))


def _proc_embark(rules, st, ctx, boat: str, units: list, lz: int, side: str, sheet: str) -> None:
    L.embark(rules, st, ctx, boat, units, lz, side, sheet)


def _proc_surrender(rules, st, ctx, side: str) -> None:
    tr = st.leros
    other = L.BRITISH if side == L.GERMAN else L.GERMAN
    label = rules.turns[st.turn].label
    if L.surrender_check(rules, st, ctx, side):
        if tr.surrendered == side and tr.surrender_turn == label:      # 1.3: both on the same turn
            first = L.surrender_tie(ctx)
            ctx.events.append(Event("surrender", f"both sides surrender this turn: {first} surrenders first (Leros 1.3)"))
            tr.surrendered = first
        else:
            tr.surrendered, tr.surrender_turn = other, label


def _air_roll(rules, st, ctx, side: str) -> int:
    """One side's sortie availability roll (Leros 3.3b, 2.3b): 0 off day turns or in weather without sorties."""
    from ..proc import Step

    n = 0
    for a in rules.scenario.air:
        if a.side != side:
            continue
        if rules.turns[st.turn].kind != "day" or (a.weather and st.weather not in a.weather):
            ctx.events.append(Event("sorties", f"no sorties for {side}: {rules.turns[st.turn].kind} turn, {st.weather}"))
            continue
        roll = ctx.roll_dice(rules.charts[a.table].axes[-1].dice, f"{side} sortie availability")
        n += int(ctx.cell(a.table, (roll,), (Step(f"roll {roll}"),), f"{side} sorties"))
    return n


def _proc_sortie_roll(rules, st, ctx, side: str) -> None:
    """Leros 2.3b: with British air (4.1, 4.2) the British roll only when the German roll gave no sortie; the
    German roll is made once a turn, by whichever side's Aircraft step comes first."""
    if not any(a.side == L.BRITISH for a in rules.scenario.air):
        PROCS["sortie_roll"](rules, st, ctx, side)
        return
    tr = st.leros
    turn, german = tr.german_sorties
    if turn != st.turn:
        german = _air_roll(rules, st, ctx, L.GERMAN)
    if side == L.GERMAN:
        n = german
    elif german > 0:
        n = 0
        ctx.events.append(Event("sorties", f"no British sorties: the Germans have {german} (Leros 2.3b)"))
    else:
        n = _air_roll(rules, st, ctx, L.BRITISH)       # Leros 2.3b: the British Sortie Availability Table
    tr.german_sorties = (st.turn, german)               # written last: a chart prompt reruns this from its start
    st.sorties = n
    ctx.events.append(Event("sorties", f"{side}: {n} sorties available", {"side": side, "sorties": n}))


def _proc_naval(rules, st, ctx) -> None:
    L.naval_fire(rules, st, ctx)


def _proc_reserve(rules, st, ctx) -> None:
    L.reserve_request(rules, st, ctx)


PROCS_LEROS = {**PROCS, "assault": _proc_assault, "sortie_roll": _proc_sortie_roll, "leros_naval": _proc_naval, "leros_reserve": _proc_reserve, "leros_phase": _proc_phase, "leros_drop": _proc_drop, "leros_embark": _proc_embark,
               "leros_surrender": _proc_surrender}


class LerosRules(TcsRules):
    """The TCS rules with Leros' own (scenario ``[leros]`` section)."""

    procs = PROCS_LEROS
    # what a player's step asks, in words (engine/rulesets/tcs/steps.py), with Leros' own actions in those steps
    step_asks = {**ASKS,
                 "review": ASKS["review"] + "; the clock panel's list also holds what this step allows besides: a "
                                            "surrender demand (Leros 1.3), the reserves' request (3.5), the Royal "
                                            "Navy's plot (2.5), the Direction of Drift (3.6a)",
                 "action": ASKS["action"] + "; boats are loaded and Ju-52 flights planned in the Tracks panel "
                                            "(Leros 1.2e, 3.6c)"}

    def __init__(self, scenario, charts=None, los_base=None):
        charts = charts or load_slots(CHARTS)
        charts["tcs.terrain.height"].known[("woods",)] = 5                 # Leros 1.1a: scrub woods, 5 m
        charts["tcs.terrain.combat"].known[("clear",)] = "Partly Protective"  # Leros 1.1d
        charts["tcs.terrain.spotting"].known[("clear",)] = "open"           # Leros 1.1d: open for spotting
        for side, lz_box in (("german", scenario.leros.get("sea_boxes", {})),):
            for lz, box in lz_box.items():
                charts["leros.sea_box"].known[(side, str(lz))] = box
        from .leros_setup import add_reserves
        add_reserves(scenario)              # Leros 3.5: Army Group E's groups held back in a campaign
        super().__init__(scenario, charts, los_base)
        self.leros = scenario.leros
        self.features = self.leros.get("victory", {}).get("features", [])
        self.feature_hexes = {self.board.parse_hex(h) for f in self.features for h in f["hexes"]}

    def setup_order(self) -> tuple[str, ...]:
        return (L.GERMAN, L.BRITISH)        # Leros 5.1a: the Germans always set up first, the British second

    # ------------------------------------------------------------ state
    def initial_state(self, seed, dice=None, memory=None):
        base = super().initial_state(seed, dice, memory)
        st = LerosState(**{f.name: getattr(base, f.name) for f in fields(State)}, leros=self._tracks())
        for f in self.features:
            for h in f["hexes"]:
                st.control.setdefault(self.board.parse_hex(h), f["held_by"])
        return st

    def _tracks(self) -> L.Tracks:
        lr = self.leros
        tr = L.Tracks(drift=lr.get("drift", "N"), batteries_lost=list(lr.get("batteries_lost", [])))
        tr.boxed = {u: b for u, b in lr.get("boxes", {}).items()}
        for us in lr.get("reserves", {}).values():
            tr.boxed.update(dict.fromkeys(us, "reserve"))           # 3.5: held by Army Group E until released
        tr.reserve_groups = lr.get("reserve_start", 0)
        for b in lr.get("boats", []):
            tr.boats[b["id"]] = L.Boat(b["id"], b["type"], b["side"], b["box"], list(b["load"]), b["lz"],
                                       sheet=b["sheet"])
            for u in b["load"]:
                tr.boxed[u] = "boat"
        for p in lr.get("planes", []):
            tr.planes[p["id"]] = L.Plane(p["id"], p["box"], list(p["load"]), p["dz"])
            for u in p["load"]:
                tr.boxed[u] = "plane"
        return tr

    def track_view(self, st) -> dict:
        """The Sea and Air Movement Tracks, drop zones and Landing Zones as the window shows them."""
        return L.track_view(self, st)

    def state_to_dict(self, st) -> dict:
        d = super().state_to_dict(st)
        d["leros"] = st.leros.to_dict()
        return d

    # ------------------------------------------------------------ the turn
    def _begin_step(self, st, events) -> None:
        super()._begin_step(st, events)
        if not isinstance(st, LerosState):
            return
        phase, step, who = self.current(st)
        if step == "action":
            self._run(st, "leros_phase", {"side": who}, [], events, False)
        elif step == "initiative" and phase == "artillery" and st.leros.naval_plot and \
                self.turns[st.turn].hhmm == "0000":
            self._run(st, "leros_naval", {}, [], events, False)        # 2.5: the 2400 turn after the plot
        elif step == "review" and who == L.GERMAN and st.leros.reserve_requested and \
                self.turns[st.turn].hhmm.endswith("00"):
            self._run(st, "leros_reserve", {}, [], events, False)      # 3.5: a die each hour turn

    def _run(self, st, proc, args, inputs, events, then) -> None:
        if proc == "weather" and self.turns[st.turn].hhmm in self.leros.get("no_weather_roll", ()):
            events.append(Event("weather", f"no weather roll at {self.turns[st.turn].label} (scenario rule)"))
            self._next_step(st, events)       # scenario 2: Normal weather 1400-1500
            return
        super()._run(st, proc, args, inputs, events, then)

    def _next_step(self, st, events) -> None:
        if isinstance(st, LerosState) and st.leros.surrendered and st.step + 1 >= len(self.sequence(st.turn)):
            st.over = True          # 1.3: the surrender takes effect at the end of the turn it is made
            out = self.outcome(st)
            events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}", {"breakdown": out.breakdown}))
            return
        if isinstance(st, LerosState) and 0 <= st.leros.deadline <= st.turn and \
                st.step + 1 >= len(self.sequence(st.turn)):
            st.over = True          # 3.5: no surrender forced in time after the reserves were committed
            out = self.outcome(st)
            events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}", {"breakdown": out.breakdown}))
            return
        super()._next_step(st, events)

    def _take(self, st, h, side) -> None:
        super()._take(st, h, side)
        if h in self.feature_hexes:
            st.control[h] = side      # 5.2a: the last to pass through
        if side == L.GERMAN and isinstance(st, LerosState):
            for letter, bh in L.battery_hexes(self.board).items():
                if bh == h and letter not in st.leros.batteries_lost:
                    st.leros.batteries_lost.append(letter)       # 1.2g: occupied, destroyed

    def free_of_sheets(self, st, uid: str) -> str:
        """The rule that lets a unit act without an Op Sheet now ("" when none does)."""
        if uid in self.leros.get("independent", ()):
            return "Leros 2.1e"         # LRDG and SBS act without Op Sheets
        until = st.leros.free_until.get(uid) if isinstance(st, LerosState) else None
        if until is not None and st.turn < until:
            return "Leros 3.6i"         # the no-Op-Sheet period after a parachute landing
        return ""

    def has_orders(self, st, uid: str) -> bool:
        return bool(self.free_of_sheets(st, uid)) or super().has_orders(st, uid)

    def no_accrual(self, st, sheet) -> str:
        # Leros 3.6i: no parachute assaulting unit accrues weighted turns before it arrives on Leros: a sheet whose
        # units are all paratroops still in Athens or aboard a Ju-52 waits (one with units on Leros accrues)
        para = self.leros.get("paratroops", ())
        if isinstance(st, LerosState) and sheet.units and all(
                u in para and st.units[u].hex is None and st.leros.boxed.get(u) in ("athens", "plane")
                for u in sheet.units):
            return "its paratroops have not arrived on Leros (Leros 3.6i)"
        return ""

    def assault_defence_firepower(self, st, ctx, units: list[str]) -> int:
        # Leros 3.6i: infantry assaulted as it lands fires with a strength of 1 (the others are gone already)
        landing = [u for u in units if isinstance(st, LerosState) and L.still_landing(st, u)]
        rest = [u for u in units if u not in landing]
        return len(landing) + (super().assault_defence_firepower(st, ctx, rest) if rest else 0)

    def may_fire_sfa(self, st, uid: str) -> bool:
        # Leros 2.1e: the LRDG and SBS fire SFAs even when on no Op Sheet; Leros 3.6i: so do paratroops in their
        # no-Op-Sheet period
        return bool(self.free_of_sheets(st, uid)) or super().may_fire_sfa(st, uid)

    def ma(self, st, uid: str):
        from fractions import Fraction
        if uid in self.leros.get("trucked", ()) and st.units[uid].mode == "move":
            return Fraction(12)         # 1.6: trucked heavy weapons move 12 MPs in Move mode
        if st.units[uid].mode == "move" and lrdg_rovers(self, uid):
            return Fraction(15)         # Leros 4.7: the LRDG on its Rovers, 15 vehicle MPs in Move mode
        return super().ma(st, uid)

    # ------------------------------------------------------------ actions
    def parse_action(self, text: str):
        return parse_leros(text) or super().parse_action(text)

    def _act(self, st, action, events) -> None:
        phase, step, side = self.current(st)
        if isinstance(action, A.End) and step == "action" and side == L.GERMAN and not st.pending and \
                (any(p.box == "air-execution" and p.load for p in st.leros.planes.values())
                 or 0 <= st.leros.overstack_check <= st.turn):
            events.append(Event("end", f"{side} ends {step}"))
            self._run(st, "leros_drop", {}, [], events, True)
            return
        if isinstance(action, NavalPlot):
            why = L.naval_plot_refused(self, st, side, list(action.hexes))
            if not why and step != "review":
                why = "the Royal Navy's hexes are noted in the British Command review step (the program's choice)"
            if why:
                raise IllegalAction("Leros 2.5", why)
            st.leros.naval_plot = list(action.hexes)            # 2.5: noted at 1200, fired at the next 2400
            events.append(Event("naval", f"the British note {len(action.hexes)} hexes for the Royal Navy (Leros 2.5)"))
            return
        if isinstance(action, Request):
            why = L.reserve_refused(self, st, side)
            if not why and step != "review":
                why = "reserves are requested in the German Command review step (the program's choice)"
            if why:
                raise IllegalAction("Leros 3.5", why)
            st.leros.reserve_requested = True
            events.append(Event("reserve", "the Germans request Army Group E's reserves (Leros 3.5)"))
            if self.turns[st.turn].hhmm.endswith("00"):
                self._run(st, "leros_reserve", {}, [], events, False)  # 3.5: the first die on an hour turn
            return
        if isinstance(action, (Embark, Plan, PlaneOrder, Drift, Demand)):
            self.check_leros(st, action, side, step)
            if isinstance(action, Embark):
                self._run(st, "leros_embark", {"boat": action.boat, "units": list(action.units), "lz": action.lz,
                                               "side": side, "sheet": action.sheet}, [], events, False)
            elif isinstance(action, Plan):
                L.plan_flight(self, st, action.plane, list(action.units), action.dz, events)
            elif isinstance(action, PlaneOrder) and action.verb == "takeoff":
                L.start_flight(self, st, action.plane, events)
            elif isinstance(action, PlaneOrder):
                L.abort_flight(st, action.plane, events)
            elif isinstance(action, Drift):
                st.leros.drift = action.direction
                events.append(Event("air", f"Direction of Drift {action.direction} (Leros 3.6a)"))
            else:
                self._run(st, "leros_surrender", {"side": side}, [], events, False)
            return
        super()._act(st, action, events)

    def check_leros(self, st, action, side: str, step: str) -> None:
        """Where and when each Leros action may be taken."""
        if isinstance(action, (Embark, Plan, PlaneOrder)) and step != "action":
            raise IllegalAction("Leros 1.2e" if isinstance(action, Embark) else "Leros 3.6c",
                                f"{action.text()!r} is made in the side's own Action Phase")
        if isinstance(action, (Plan, PlaneOrder, Drift)) and side != L.GERMAN:
            raise IllegalAction("Leros 3.6", "only the Germans make parachute assaults")
        if isinstance(action, Embark):
            if action.sheet and (action.sheet not in st.sheets or st.sheets[action.sheet].side != side
                                 or st.sheets[action.sheet].type == "prepared_defense"):
                raise IllegalAction("Leros 1.2f", f"{action.sheet} is not an Op Sheet of {side} other than "
                                                  "Prepared Defense")
            L.check_embark(self, st, action.boat, list(action.units), action.lz, side)
        elif isinstance(action, Plan):
            L.check_plan(self, st, action.plane, list(action.units), action.dz)
        elif isinstance(action, PlaneOrder) and action.verb == "takeoff":
            p = st.leros.planes.get(action.plane)
            if p is None or p.box != "athens" or not p.load:
                raise IllegalAction("Leros 3.6b", f"{action.plane} is not a loaded Ju-52 in the Athens box")
            if not L.weather_effects(st.weather)["air_movement"]:
                raise IllegalAction("Leros 1.4", f"no air movement in {st.weather} weather")
        elif isinstance(action, PlaneOrder):
            L.check_abort_flight(st, action.plane)
        elif isinstance(action, Drift):
            if step != "review" or action.direction not in ("N", "NE", "SE", "S", "SW", "NW"):
                raise IllegalAction("Leros 3.6a", "the Direction of Drift (N, NE, SE, S, SW, NW) is set before the "
                                                  "turn's drops, in the German Command review step")
        elif isinstance(action, Demand):
            why = L.surrender_allowed(self, st, side)
            if not why and step != "review":
                why = "a surrender demand is made in the side's Command review step (the program's choice)"
            if why:
                raise IllegalAction("Leros 1.3", why)

    def legal_actions(self, st) -> list:
        out = super().legal_actions(st)
        if st.over or st.pending:
            return out
        phase, step, side = self.current(st)
        extra: list = []
        if step == "review":
            if not L.surrender_allowed(self, st, side):
                extra.append(Demand())
            if not L.reserve_refused(self, st, side):
                extra.append(Request())
            if side == L.BRITISH and self.turns[st.turn].hhmm == "1200" and not st.leros.naval_plot:
                extra += self._naval_offers(st)
            if side == L.GERMAN and any(p.load for p in st.leros.planes.values()):
                extra += [Drift(d) for d in ("N", "NE", "SE", "S", "SW", "NW") if d != st.leros.drift]
        elif step == "action":
            extra += self._embark_offers(st, side)
            if side == L.GERMAN:
                extra += self._air_offers(st)
        return extra + out

    def _naval_offers(self, st) -> list:
        """2.5: plots the listing offers: the first two German-held hexes (then the victory features' hexes) and,
        for the computer's plot, the solitaire method's five (any plot of hexes on the map may be typed)."""
        held = sorted({self.hid(u.hex) for k, u in st.units.items() if u.hex is not None
                       and self.specs[k].side == L.GERMAN})
        held += [h for f in self.features for h in f["hexes"] if h not in held]     # then the features' hexes
        return [NavalPlot(tuple(held[:n])) for n in (2, 5) if len(held) >= n]

    def _embark_offers(self, st, side: str) -> list:
        tr = st.leros
        boat = next((b for k, b in sorted(tr.boats.items()) if b.side == side and b.box == L.HOLDING[side]
                     and not b.load), None)
        waiting = [u for u in self.order if tr.boxed.get(u) == L.HOLDING[side] and not L.is_heavy(self, u)]
        if boat is None or not waiting:
            return []
        lzs = sorted(set(self.leros.get("landing_zones") or [])) or list(range(1, 17))
        return [Embark(boat.id, (waiting[0],), lz) for lz in lzs]

    def _air_offers(self, st) -> list:
        tr = st.leros
        out: list = []
        waiting = [u for u in self.order if tr.boxed.get(u) == "athens" and u in self.leros.get("paratroops", ())]
        empty = next((p for k, p in sorted(tr.planes.items()) if p.box == "athens" and not p.load), None)
        if empty is not None and waiting:
            dzs = self.leros.get("drop_zones") or []
            for dz in dzs[:2]:
                out.append(Plan(empty.id, (waiting[0],), dz))
        for k, p in sorted(tr.planes.items()):
            if p.box == "athens" and p.load and L.weather_effects(st.weather)["air_movement"]:
                out.append(PlaneOrder("takeoff", k))
        return out

    # ------------------------------------------------------------ victory (5.2)
    def outcome(self, st):
        from ....game import Outcome
        if not st.over:
            return None
        lost = {s: sum(self._steps_lost(st, k) for k in st.units if self.specs[k].side == s) for s in self.side_ids}
        for s, n in self.leros.get("losses_off_counters", {}).items():
            lost[s] = lost.get(s, 0) + n      # 5.2b: every step lost before the start counts, on a counter or not
        vic = self.leros.get("victory", {})
        held = {f["name"]: L.feature_holder(self, st, f["hexes"]) for f in self.features}
        breakdown = {"features": held, "steps lost": lost, "surrendered": st.leros.surrendered or "none",
                     "batteries lost": list(st.leros.batteries_lost)}
        shift = 0
        if self.leros.get("alternate_start"):
            shift += 1                 # scenario 1: the alternate start shifts one level to the British
        if self.leros.get("historical_setup"):
            shift += 1                 # 2.7: the historical British set-up
        for v in self.leros.get("variants", []):
            from .leros_setup import VARIANT_SHIFT
            shift += VARIANT_SHIFT.get(v, 0)
        if st.leros.deadline >= 0:
            breakdown["surrender deadline"] = (self.turns[st.leros.deadline].label
                                               if st.leros.deadline < len(self.turns) else "after the last turn")
        if self.leros.get("campaign"):
            if st.leros.surrendered:
                winner = L.BRITISH if st.leros.surrendered == L.GERMAN else L.GERMAN
            else:
                winner = L.BRITISH     # 5.2b: the British hold out to the end of Nov 17
            level = L.campaign_level(lost[winner])
            breakdown["level"] = level
            return Outcome(winner, f"{winner} {level} victory ({lost[winner]} steps lost)", breakdown)
        kind = vic.get("kind", "features_held")
        if kind == "curtain_rises":
            level = self._s1_level(st, held, lost)
        elif kind == "curtain_falls" and st.leros.surrendered == L.BRITISH:
            hhmm = int(st.leros.surrender_turn.split()[0])
            level = ("German Massive" if hhmm <= 840 else "German Major" if hhmm <= 1140
                     else "German Minor" if hhmm <= 1500 else "Draw")
        else:
            n = sum(1 for v in held.values() if v == L.BRITISH)
            levels = vic.get("levels") or []
            level = levels[n] if levels else "Draw"
        level = L.shift_level(level, shift)
        breakdown["level"], breakdown["shift"] = level, shift
        winner = L.BRITISH if level.startswith("British") else L.GERMAN if level.startswith("German") else None
        return Outcome(winner, f"{level} ({sum(1 for v in held.values() if v == L.BRITISH)} of {len(held)} "
                               f"features British)", breakdown)

    def _steps_lost(self, st, uid: str) -> int:
        """5.2b: a unit's steps lost; a destroyed unit (surrendered, evicted by an assault, lost at sea or landing
        on the enemy) has lost all its steps, its counter's value when the game knows it."""
        u = st.units[uid]
        if u.hex is None and st.leros.boxed.get(uid, "dead") == "dead":
            from ..proc import chart_value
            full = chart_value(self, st, "tcs.counter.steps", (self.specs[uid].type,))
            if full is not None:
                return max(u.steps_lost, int(full))
        return u.steps_lost

    def _s1_level(self, st, held: dict, lost: dict) -> str:
        """Scenario 1: German captures among the batteries and the four places; the British Major also needs
        40 German steps lost.  One capture alone is a Draw unless it is a battery (then German Minor: the
        program's reading); a battery and one other feature is a Draw."""
        batteries = {f["name"] for f in self.features if f["battery"]}
        taken = [n for n, v in held.items() if v == L.GERMAN]
        taken_b = [n for n in taken if n in batteries]
        if not taken:
            return "British Major" if lost[L.GERMAN] >= self.leros["victory"]["german_losses"] else "British Minor"
        if len(taken) == 1:
            return "German Minor" if taken_b else "Draw"
        if len(taken) == 2 and len(taken_b) == 1:
            return "Draw"
        return "German Minor" if len(taken) == 2 else "German Major" if len(taken) == 3 else "German Massive"
