"""The TCS ruleset bound to one scenario: the turn's sequence of steps, legal actions and apply."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from ...charts import ChartAnswer, ChartSet, accept_answer, answers, game_scope, load_slots
from ...errors import BadHexId, IllegalAction
from ...game import Event, Outcome, seed_rng
from ...maps.hexes import Hex, are_adjacent, hex_distance
from . import actions as A
from .artillery import ArtilleryRules
from .assault import AssaultRules
from .fire import FireRules
from .movement import MovementRules
from .opsheets import OpSheetRules
from .proc import Ctx, Need, _ok, ask, chart_value
from .procs import PROCS
from .scenario import TcsScenario
from .sight import MOBILITIES, Sight, counter, spotted_hexes, terrain_key
from .state import OK, PARALYZED, SUPPRESSED, OpSheet, State, UnitState, state_to_dict
from .steps import AUTO

CHARTS = Path(__file__).with_name("charts.toml")
COUNTER_SLOTS = ("movement", "mobility", "range", "firepower", "morale", "steps", "point_fire")


class TcsRules(OpSheetRules, ArtilleryRules, MovementRules, FireRules, AssaultRules):
    """A TCS game for one scenario: map, counters, clock, charts; never changes during a game."""

    name = "tcs"
    procs = PROCS                   # a game's own procedures join these (games/leros_rules.py)

    def __init__(self, scenario: TcsScenario, charts: ChartSet | None = None, los_base=None):
        self.scenario = scenario
        self.charts = charts or load_slots(CHARTS)
        self.board = scenario.board
        self.options = scenario.options
        off = [h for h in self.options.get("full_breaches", []) if not self._is_hex_id(h)]
        if off:         # BW 1.4: a breach is made in a wire hex of the map
            from ...errors import BadFile, Problem, excerpt
            raise BadFile([Problem(scenario.path, "options.full_breaches",
                                   f"{excerpt(off[0])} is not a hex of the map"
                                   + (f" (nor are {len(off) - 1} more of its ids)" if len(off) > 1 else ""))])
        self.turns = scenario.turns()
        self.specs = {u.id: u for u in scenario.units}
        self.order = [u.id for u in scenario.units]
        self._rank = {u: i for i, u in enumerate(self.order)}
        a = scenario.first_player
        self.side_ids = (a, next(s for s in scenario.sides if s != a))
        self.batteries = {b.id: b for b in scenario.batteries}
        self.terrains = sorted({terrain_key(self.board, h) for h in self.board.hexes()})
        self.has_roads = bool(self.board.links.get("road"))
        # everything on the map that may be an LOS obstacle: its height comes from the Terrain Effects Chart
        self.los_kinds = sorted(set(self.terrains) | {f for fs in self.board.features.values() for f in fs}
                                | {o.kind for o in self.board.obstacles})
        self.los_base = los_base       # a game's own LOS table (BW's bog, Leros' piers); None: the engine's default
        self.sight = Sight(self)
        self._seqs: dict[bool, list] = {}
        self._hids: dict = {}            # hex -> its id (the board never changes during a game)
        # (state, memo) while legal_actions reads one unchanging state: what its checks share ("occ": hex -> units)
        self._scope = None
        self._complete: set = set()
        self.game = None                # the game's own rules (engine/rulesets/tcs/games/<name>_rules.py)
        if self.options.get("game_rules"):
            import importlib
            self.game = importlib.import_module(f".games.{self.options['game_rules']}_rules", __package__)
            if hasattr(self.game, "bind"):        # the game's own procedures and data (BW 2.4's Prep Log)
                self.game.bind(self)
        from ...scenario.areas import AreaContext
        self.areas = AreaContext(self.board)
        # hexes whose occupation a victory condition reads (BW 5.0 "occupy": the last side to enter or pass through)
        self.condition_parts = {c.id: [self.areas.hexes(a.strip()) for a in c.area.split(";")]
                                for c in scenario.conditions if c.area}
        self.condition_hexes = {k: frozenset().union(*v) for k, v in self.condition_parts.items()}
        self.tracked = frozenset(self.board.parse_hex(o.hex) for o in scenario.objectives).union(
            *self.condition_hexes.values())
        self.trench = frozenset(h for h, fs in self.board.features.items() if "trench" in fs)
        self.entries = {u.id: sorted(self.areas.hexes(u.entry)) for u in scenario.units if u.entry}
        self.release_units = {r.id: [u.id for u in scenario.units if u.release == r.id] for r in scenario.releases}
        self.exits = any(c.kind in ("exit", "no_exit") for c in scenario.conditions)      # BW 5.0
        from .setupphase import SetupPhase
        self.setup_phase = SetupPhase(self)      # the sides that choose their placements before turn 1

    def setup_order(self) -> tuple[str, ...]:
        """The order the sides set up in: the game's own (BW 1.10b: Soviets first), else the sides' order."""
        own = getattr(self.game, "SETUP_ORDER", None) if self.game is not None else None
        return tuple(own) if own else tuple(self.scenario.sides)

    def side_name(self, side: str) -> str:
        s = self.scenario.sides.get(side)
        return getattr(s, "name", side) or side

    def _is_hex_id(self, text: str) -> bool:
        try:
            self.board.parse_hex(text)
            return True
        except (BadHexId, ValueError):
            return False

    def hid(self, h: Hex) -> str:
        try:
            return self._hids[h]
        except KeyError:
            text = self._hids[h] = self.board.hex_id(h)
            return text

    def hex(self, text: str) -> Hex:
        try:
            return self.board.parse_hex(text)
        except BadHexId as e:
            raise IllegalAction("", str(e)) from None

    # ------------------------------------------------------------ the sequence of play
    def sequence(self, turn: int) -> list[tuple[str, str, str]]:
        """The turn's steps: (phase, step, who): a side, "first"/"second" (the phase's initiative), or "" (the engine)."""
        full = self.turns[turn].full_hour
        if full in self._seqs:
            return self._seqs[full]
        a, b = self.side_ids
        seq = [("command", "review", a), ("command", "review", b), ("command", "accrue", "")]
        for step in ("implement", "reserve", "add", "create"):
            seq += [("command", step, a), ("command", step, b)]
        if full:
            seq.append(("command", "bn_morale", ""))
            if self.scenario.weather_table:
                seq.append(("command", "weather", ""))
        if self.scenario.releases:
            seq.append(("command", "release", ""))
        seq.append(("artillery", "initiative", ""))
        for who in ("first", "second"):
            seq += [("artillery", s, who) for s in ("sortie_roll", "sorties", "preplot", "missions", "execute", "lift")]
        seq += [("action", "initiative", ""), ("action", "action", "first"), ("action", "action", "second"),
                ("cleanup", "cleanup", "")]
        self._seqs[full] = seq
        return seq

    def current(self, st: State) -> tuple[str, str, str]:
        if st.over:
            return "over", "over", ""
        if st.setup:
            return "setup", "setup", st.setup[0]
        phase, step, who = self.sequence(st.turn)[st.step]
        if who in ("first", "second"):
            who = st.order[0 if who == "first" else 1] if st.order else self.side_ids[0 if who == "first" else 1]
        return phase, step, who

    def clock(self, st: State) -> str:
        """``0620 10 Feb, day turn — Command Phase: implementation checks (German)``: where the game is."""
        t = self.turns[min(st.turn, len(self.turns) - 1)]
        if st.over:
            return f"{t.label}: the game is over"
        return f"{t.label}, {t.kind} turn — {self.step_title(*self.current(st))}"

    def step_title(self, phase: str, step: str, who: str) -> str:
        """A step of the sequence in words, with its phase and side (``Command Phase: new Op Sheets (German)``)."""
        from .steps import step_title
        return step_title(self, phase, step, who)

    def guidance(self, st: State) -> str:
        """One line: what this step (or the question pending) asks of whom, with its rule, and what ending the
        step leads to (the engine's own steps it runs, then the next step a player takes)."""
        from .steps import guidance
        legal = None
        step = self.current(st)[1] if not st.over else ""
        if not st.pending and (step in ("review", "implement", "reserve", "add", "create")
                               or (step == "sorties" and st.sorties <= 0)):
            legal = self.legal_actions(st)           # cheap there: "nothing to do" is said so
        return guidance(self, st, legal)

    def after_end(self, st: State) -> str:
        """What "end" leads to now, in words (``weighted turns accrue, then German: implementation checks``)."""
        from .steps import after_end
        return after_end(self, st)

    def acting_side(self, st: State) -> str:
        """The side whose decision the game waits for now."""
        if st.pending:
            p = st.pending[0]
            return p.get("side") or self.current(st)[2] or self.side_ids[0]
        return self.current(st)[2]

    # ------------------------------------------------------------ states
    def initial_state(self, seed: int, dice: list[int] | None = None, memory=None) -> State:
        sc = self.scenario
        units = {u.id: UnitState(None if u.hex in self.board.boxes else self.board.parse_hex(u.hex), u.mode,
                                 u.steps_lost) for u in sc.units}
        sheets = {}
        for s in sc.op_sheets:
            sheets[s.id] = OpSheet(s.id, s.side, s.formation, s.type, list(s.units),
                                   [self.board.parse_hex(h) for h in s.objective],
                                   [self.board.parse_hex(h) for h in s.route], s.implemented, s.weighted_turns,
                                   s.size, s.reserve)
            if s.implemented:
                for u in s.units:
                    units[u].sheet = s.id
        ammo = {f"{k[0]}|{k[1]}|{k[2]}": v for k, v in sc.ammo.items()}
        control = {self.board.parse_hex(o.hex): o.held_by for o in sc.objectives if o.held_by}
        # BW 5.0: a condition hex is held by the side on it at the start, else by the scenario's holder
        on = {u.hex: self.specs[k].side for k, u in units.items()}
        for h in sorted(self.tracked - set(control)):
            if h in on or sc.holder:
                control[h] = on.get(h, sc.holder)
        waiting = {}
        for u in sc.units:
            if u.enters or u.release:
                units[u.id].hex = None
                waiting[u.id] = u.enters or "release " + u.release
        st = State(0, 0, units, sheets, {b: m for b, (_s, m) in sc.battalions.items()},
                   {b: 0 for b in sc.battalions}, ammo, seed_rng(seed), sc.weather, preset_dice=list(dice or []),
                   control=control, waiting=waiting)
        for hid in self.options.get("full_breaches", []):
            st.marks["wire " + hid] = "full"
        self.arrive(st, [])
        if memory is not None:
            st.memory = memory.copy()
        st.setup = list(self.setup_phase.sides)      # the set-up phase comes before turn 1
        if not st.setup:
            self._begin_step(st, [])                 # else when the last side's set-up ends
        self._drive(st, [])
        return st

    def state_to_dict(self, st: State) -> dict:
        return state_to_dict(st, self.hid)

    def is_over(self, st: State) -> bool:
        return st.over

    def outcome(self, st: State) -> Outcome | None:
        """Objective points held at the end (the scenario's victory table), with each side's steps lost."""
        if not st.over:
            return None
        if self.scenario.levels:
            from .victory import evaluate
            winner, level, breakdown = evaluate(self, st)
            return Outcome(winner or None, level, breakdown)
        pts = {s: 0 for s in self.side_ids}
        for o in self.scenario.objectives:
            holder = st.control.get(self.board.parse_hex(o.hex), "")
            if holder in pts:
                pts[holder] += o.points
        lost = {s: sum(u.steps_lost for k, u in st.units.items() if self.specs[k].side == s) for s in self.side_ids}
        a, b = self.side_ids
        winner = a if pts[a] > pts[b] else b if pts[b] > pts[a] else None
        return Outcome(winner, f"objective points {pts[a]} to {pts[b]}", {"points": pts, "steps lost": lost})

    def parse_action(self, text: str):
        if self.game is not None and hasattr(self.game, "parse_action"):
            own = self.game.parse_action(text)           # a game's own actions (BW 1.11b: mount, dismount)
            if own is not None:
                return own
        return A.parse_action(text)

    def chart_prompt(self, st: State):
        """The printed result the game waits for now (a pending chart prompt), or None."""
        p = st.pending[0] if st.pending else None
        return p["prompt"] if p is not None and p["kind"] == "chart" else None

    def chart_slots(self) -> ChartSet:
        """The charts these rules read (the series' slots, with a game's own tables when it brings them)."""
        return self.charts

    def chart_scope(self) -> str:
        """The game whose own printed charts and counters these rules read (the owner's book keeps them under it):
        the game the scenario names (``black-wednesday``, ``leros``), or its id for a scenario of the program's own."""
        return game_scope(getattr(self.scenario, "game_name", ""), self.scenario.id)

    def chart_needs(self, st: State | None = None, value=None) -> list:
        """Every printed value the scenario reads, for the form filled before play (engine.charts.needs)."""
        from .needs import chart_needs

        return chart_needs(self, st, value)

    # ------------------------------------------------------------ running procedures
    def _run(self, st: State, proc: str, args: dict, inputs: list, events: list, then: bool) -> None:
        """Run a procedure on ``st`` in place; if it stops, ``st`` keeps only its dice and the question."""
        work = st.copy()
        work.pending = []
        mark = len(events)
        ctx = Ctx(self, work, inputs, events)
        try:
            follow = self.procs[proc](self, work, ctx, **args)
        except Need as n:
            kept = [e for e in events[mark:] if e.kind == "roll"]
            del events[mark:]
            events.extend(kept)
            st.rng, st.preset_dice = work.rng, work.preset_dice
            st.pending = [{**n.pending, "resume": {"proc": proc, "args": args, "inputs": ctx.inputs, "then": then}}]
            p = st.pending[0]
            events.append(Event("ask", p["prompt"].text() if p["kind"] == "chart" else p["text"]))
            return
        st.__dict__.update(work.__dict__)
        if follow:                       # a procedure that goes on as a new one (the next overwatch fire)
            self._run(st, follow[0], follow[1], [], events, then)
        elif then:
            self._next_step(st, events)

    def _drive(self, st: State, events: list) -> None:
        """Run the engine's own steps until a player must act (or a value legality needs is blank)."""
        if self.game is not None and not st.pending:     # a move's overwatch is over: breaches settle (BW 1.4b)
            self.game.settle_breaches(self, st, events)
        while not st.over and not st.pending and not st.setup:
            phase, step, who = self.current(st)
            if phase in ("artillery", "action"):
                miss = self._missing(st)
                if miss:
                    st.pending = [miss]
                    events.append(Event("ask", miss["prompt"].text()))
                    return
            due = self.game.due(self, st) if self.game is not None and hasattr(self.game, "due") else None
            if due:                      # a game's own step that comes first in a phase (BW 2.4e: the Prep fires)
                self._run(st, due[0], due[1], [], events, then=False)
                continue
            if step in AUTO:
                args = {"phase": phase} if step == "initiative" else {"side": who} if who else {}
                if step == "weather" and not self.scenario.weather_table:
                    self._next_step(st, events)
                    continue
                self._run(st, step, args, [], events, then=True)
                continue
            return

    def _missing(self, st: State) -> dict | None:
        """The first blank cell that legality needs (terrain, spotting, visibility, the counters on the map)."""
        kind = self.turns[st.turn].kind
        key = (kind, st.weather, frozenset((slot, k, str(v)) for slot, c in st.memory.cells.items() for k, v in c.items()),
               frozenset(self.specs[k].type for k, u in st.units.items() if u.hex is not None))
        if key in self._complete:          # every value legality needs was known in this same situation
            return None
        miss = self._first_missing(st, kind)
        if miss is None:
            self._complete.add(key)
        return miss

    def _first_missing(self, st: State, kind: str) -> dict | None:
        need = [("tcs.turn_visibility", (kind,), f"{kind} turns"),
                ("tcs.weather_visibility", (st.weather,), f"{st.weather} weather")]
        for c in ("open", "non-open"):
            for t in ("vehicle", "non-vehicle"):
                need.append(("tcs.spotting_range", (c, t), "spotting"))
        mobs = set()
        types = set()                      # a type's cells are asked for once, for its first unit on the map
        for uid in self.order:
            spec = self.specs[uid]
            if st.units[uid].hex is None or (spec.type, spec.vehicle) in types:
                continue
            typ = spec.type
            types.add((typ, spec.vehicle))
            for s in COUNTER_SLOTS:
                need.append((f"tcs.counter.{s}", (typ,), f"{uid} ({typ})"))
            if self.specs[uid].vehicle:
                need.append(("tcs.counter.armor", (typ,), f"{uid} ({typ})"))
            mob = chart_value(self, st, "tcs.counter.mobility", (typ,))
            if mob:
                mobs.add(mob)
        for k in self.los_kinds:
            need.append(("tcs.terrain.height", (k,), f"{k} on this map"))
        for t in self.terrains + (["road"] if self.has_roads else []):
            if t != "road":
                for s in ("combat", "spotting"):
                    need.append((f"tcs.terrain.{s}", (t,), f"{t} on this map"))
            for m in sorted(mobs):
                need.append(("tcs.terrain.move", (t, m), f"{t} on this map"))
        for slot, key, why in need:
            if chart_value(self, st, slot, key) is None:
                return ask(self, slot, key, why)
        return None

    def _next_step(self, st: State, events: list) -> None:
        st.step += 1
        if st.step >= len(self.sequence(st.turn)):
            if st.turn + 1 >= len(self.turns):
                st.over = True
                out = self.outcome(st)
                events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}",
                                    {"breakdown": out.breakdown}))
                return
            st.turn += 1
            st.step = 0
            st.order = []
            events.append(Event("turn", f"turn {self.turns[st.turn].label} ({self.turns[st.turn].kind})"))
            self.arrive(st, events)
        self._begin_step(st, events)

    def _begin_step(self, st: State, events: list) -> None:
        phase, step, who = self.current(st)
        if step == "implement":
            for s in st.sheets.values():
                s.rolled = False
        if step == "missions":
            st.batteries_used = []
        if step == "action":
            for k, u in st.units.items():
                if self.specs[k].side == who:
                    u.mp_used, u.moved, u.fired = Fraction(0), False, False

    # ------------------------------------------------------------ queries for the panels
    def op_sheet_geometry(self, st: State, sid: str):
        """An Op Sheet's objective (a point, or the area its hexes cover) and route (a line through hex centres),
        as shapely geometry in lattice coordinates: ``(objective, route or None)``."""
        import shapely
        from shapely.geometry import LineString, Point

        s = st.sheets[sid]
        lay = self.board.layout
        if len(s.objective) == 1:
            objective = Point(lay.hex_to_pixel(s.objective[0]))
        else:
            objective = shapely.union_all([lay.polygon(h) for h in s.objective])
        route = LineString([lay.hex_to_pixel(h) for h in s.route]) if len(s.route) >= 2 else None
        return objective, route

    def turn_info(self, st: State) -> dict:
        """The clock panel: turn name and kind, weather, visibility (None while a limit is blank), phase, step, side."""
        t = self.turns[min(st.turn, len(self.turns) - 1)]
        a = chart_value(self, st, "tcs.turn_visibility", (t.kind,))
        b = chart_value(self, st, "tcs.weather_visibility", (st.weather,))
        phase, step, who = self.current(st)
        return {"clock": t.label, "kind": t.kind, "full_hour": t.full_hour, "turn": st.turn + 1,
                "turns": len(self.turns), "weather": st.weather,
                "visibility": None if a is None or b is None else min(int(a), int(b)),
                "phase": phase, "step": step, "side": who, "order": list(st.order)}

    def ammunition(self, st: State, side: str) -> dict[tuple[str, str], int]:
        """A side's ammunition pools: (calibre, he|smoke|illum) -> rounds left."""
        out = {}
        for key, n in sorted(st.ammo.items()):
            s, calibre, kind = key.split("|")
            if s == side:
                out[calibre, kind] = n
        return out

    def unit_status(self, st: State, uid: str) -> dict:
        """What a counter shows in play: hex, mode, morale state, steps lost of its steps, its Op Sheet."""
        u = st.units[uid]
        steps = chart_value(self, st, "tcs.counter.steps", (self.specs[uid].type,))
        return {"hex": self.hid(u.hex) if u.hex is not None else None, "mode": u.mode,
                "morale": u.morale_state or "good order", "steps_lost": u.steps_lost, "steps": steps,
                "sheet": u.sheet, "fired": u.fired, "mp_used": str(u.mp_used)}

    def why_idle(self, st: State, uid: str):
        """Why a unit can do nothing now, with its rule (``explain.why_idle``); None if it may do something."""
        from .explain import why_idle
        return why_idle(self, st, uid)

    # ------------------------------------------------------------ apply
    def apply(self, st: State, action) -> tuple[State, list[Event]]:
        """The new state and the events of one action; IllegalAction (with the rule) if it is refused."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if st.over:
            raise IllegalAction("", "the game is over")
        events: list[Event] = []
        new = st.copy()
        if st.pending:
            self._answer(new, action, events)
        else:
            self._act(new, action, events)
        self._drive(new, events)
        return new, events

    def _answer(self, st: State, action, events: list) -> None:
        p = st.pending[0]
        resume = p.get("resume")
        if p["kind"] == "chart":
            if not isinstance(action, ChartAnswer):
                raise IllegalAction(self.charts[p["prompt"].slot].rule,
                                    f"the game waits for a printed result: {p['prompt'].text()}")
            v = accept_answer(self.charts, st.memory, p["prompt"], action)
            events.append(Event("chart", f"{self.charts[action.slot].cell_text(action.key)} = {v}"
                                + (" (owner's chart)" if action.from_owner else ""), {"slot": action.slot}))
            st.pending = []
            if resume:
                self._run(st, resume["proc"], resume["args"], resume["inputs"], events, resume["then"])
            return
        if not isinstance(action, A.Choose) or action.what != p["what"] or action.value not in p["options"]:
            raise IllegalAction("", f"the game waits for a decision: {p['text']} "
                                    f"(choose {p['what']} {'|'.join(p['options'])})")
        st.pending = []
        self._run(st, resume["proc"], resume["args"], resume["inputs"] + [action.value], events, resume["then"])

    def _act(self, st: State, action, events: list) -> None:
        phase, step, side = self.current(st)
        if isinstance(action, (ChartAnswer, A.Choose)):
            raise IllegalAction("", "there is no chart result or decision asked for now")
        if self.game is not None and hasattr(self.game, "before_play") and self.game.before_play(self, st, action, events):
            return                                         # BW 1.10b: the Soviet's own Prep Log, before play
        if st.setup:                                       # the set-up phase (setupphase.py)
            if isinstance(action, A.End):
                self.setup_phase.end(st, side, events)
                if not st.setup:
                    self._begin_step(st, events)
            elif isinstance(action, A.Place):
                self.setup_phase.place(st, action, side, events)
            else:
                raise IllegalAction(self.setup_phase.rule_of_order(),
                                    f"{action.text()!r} is not allowed now: {self.clock(st)} (place units or end "
                                    f"the set-up)")
            return
        if isinstance(action, A.End):
            events.append(Event("end", f"{side} ends {step}"))
            self._next_step(st, events)
            return
        if isinstance(action, A.Place):
            raise IllegalAction("", "units are placed in the set-up phase before the first turn, not now")
        if self.game is not None and hasattr(self.game, "act") and self.game.act(self, st, action, side, step, events):
            return                                         # a game's own action (BW 1.11b: tanks as carriers)
        handler = {"review": (A.Complete,), "implement": (A.Implement,), "reserve": (A.ReserveCheck,),
                   "add": (A.Assign,), "create": (A.NewSheet,), "sorties": (A.Airstrike,),
                   "missions": (A.PlaceMission, A.Lift, A.Plot),
                   "action": (A.SetMode, A.Move, A.Fire, A.Assault, A.Exit)}.get(step, ())
        if not isinstance(action, handler):
            raise IllegalAction("TCS sequence of play", f"{action.text()!r} is not allowed now: {self.clock(st)}")
        getattr(self, "_do_" + type(action).__name__.lower())(st, action, side, events)

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, st: State) -> list:
        """Every legal action now, in a fixed order."""
        if st.over:
            return []
        if st.pending:
            return self._listing(st)
        saved, self._scope = self._scope, (st, {"occ": self.occupancy(st)})
        try:
            return self._listing(st)
        finally:
            self._scope = saved

    def _listing(self, st: State) -> list:
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "chart":
                return answers(p["prompt"])
            return [A.Choose(p["what"], o) for o in p["options"]]
        if self.game is not None and hasattr(self.game, "before_play_offers"):
            first = self.game.before_play_offers(self, st)
            if first:
                return first                               # BW 1.10b: the Prep Log comes before anything else
        phase, step, side = self.current(st)
        if st.setup:
            return self.setup_phase.offers(st, side)
        out: list = []
        own = [k for k in self.order if self.specs[k].side == side and st.units[k].hex is not None]
        mine = [s for s in st.sheets.values() if s.side == side]
        if step == "review":
            out += [A.Complete(s.id, cancel=not s.implemented) for s in mine]
        elif step == "implement":
            out += [A.Implement(s.id) for s in mine if _ok(lambda: self.check_implement(st, s.id, side))]
        elif step == "reserve":
            out += [A.ReserveCheck(s.id) for s in mine if s.reserve and not s.rolled]
        elif step == "add":
            out += [A.Assign(u, s.id) for s in mine for u in own if _ok(lambda: self.check_assign(st, u, s.id, side))]
        elif step == "create":
            out += self._sheet_offers(st, side, own)
        elif step == "sorties" and st.sorties > 0:
            seen = set()
            for u in own:
                seen |= spotted_hexes(self, st, side, u)
            out += [A.Airstrike(self.hid(h)) for h in sorted(seen)]
        elif step == "missions":
            out += [A.Lift(m.id) for m in st.markers if m.side == side and m.continuous]
            if self.game is not None and hasattr(self.game, "plot_offers"):
                out += self.game.plot_offers(self, st, side)                     # BW 4.7
            out += self._mission_offers(st, side, own)
        elif step == "action":
            out += self._action_offers(st, side, own)
        out.append(A.End())
        return out

    def _enemy_hexes(self, st, side) -> list[Hex]:
        return sorted({u.hex for k, u in st.units.items() if u.hex is not None and self.specs[k].side != side})

    def _action_offers(self, st, side, own) -> list:
        out = []
        enemy_at = self._enemy_hexes(st, side)
        enemy_q = np.array([h.q for h in enemy_at], dtype=np.int64)
        enemy_r = np.array([h.r for h in enemy_at], dtype=np.int64)
        for uid in own:
            u = st.units[uid]
            for m in ("move", "fire"):
                a = A.SetMode(uid, m)
                if _ok(lambda: self.check_mode(st, a, side)):
                    out.append(a)
            if u.mode == "move":
                for n in self.board.neighbors(u.hex):
                    if _ok(lambda: self.check_move(st, uid, n, side)):
                        out.append(A.Move(uid, self.hid(n)))
                if self.exits and _ok(lambda: self.check_exit(st, uid, side)):
                    out.append(A.Exit(uid))
                for h in enemy_at:
                    if are_adjacent(u.hex, h):
                        for ov in ((False, True) if self.can_overrun(st, uid) else (False,)):
                            a = A.Assault((uid,), self.hid(h), ov)
                            if _ok(lambda: self.check_assault(st, a, side)):
                                out.append(a)
            elif u.morale_state == OK and not u.fired:
                # only hexes in range (and, for area fire, spotted) can pass check_fire: test those alone
                rng = int(counter(self, st, "range", uid) or 0)
                seen = spotted_hexes(self, st, side, uid) if _any_within(u.hex, enemy_q, enemy_r, rng) else set()
                area = int(counter(self, st, "firepower", uid) or 0) > 0
                # seen holds enemy hexes only: those in range, in enemy_at's (sorted) order
                near = sorted(h for h in seen if hex_distance(u.hex, h) <= rng) if area else []
                for h in near:
                    for kind in ("area", "sfa"):
                        a = A.Fire(kind, (uid,), self.hid(h))
                        if _ok(lambda: self.check_fire(st, a, side)):
                            out.append(a)
                if seen and int(counter(self, st, "point_fire", uid) or 0) > 0:
                    occ = self.occupancy(st)           # the enemy units in seen hexes, in the scenario's order
                    for k in sorted((k for h in seen for k in occ.get(h, ()) if k in self._rank
                                     and self.specs[k].side != side), key=self._rank.__getitem__):
                        a = A.Fire("point", (uid,), k)
                        if _ok(lambda: self.check_fire(st, a, side)):
                            out.append(a)
        if self.game is not None and hasattr(self.game, "action_offers"):
            out += self.game.action_offers(self, st, side, own)      # BW 1.11b: climbing onto tanks, getting off
        return out


def _any_within(h: Hex, qs: np.ndarray, rs: np.ndarray, rng: int) -> bool:
    """Whether any of the hexes (axial ``qs``, ``rs``) is within ``rng`` hexes of ``h`` (``hex_distance``, vectorised)."""
    if not len(qs):
        return False
    dq = qs - h.q
    dr = rs - h.r
    return bool(((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 <= rng).any())


__all__ = ["TcsRules", "MOBILITIES", "SUPPRESSED", "PARALYZED"]
