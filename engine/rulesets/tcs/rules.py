"""The TCS ruleset bound to one scenario: the turn's sequence of steps, legal actions and apply."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from ...charts import ChartAnswer, ChartSet, accept_answer, answers, game_scope, load_slots
from ...errors import BadHexId, IllegalAction
from ...game import Event, Outcome, seed_rng
from ...maps.hexes import Hex, are_adjacent, hex_distance, hex_linedraw
from . import actions as A
from .proc import Ctx, Need, ask, chart_value
from .procs import PROCS, firepower_of
from .scenario import SHEET_TYPES, TcsScenario
from .sight import MOBILITIES, Sight, counter, movement_cost, spotted_hexes, spotters, terrain_key, visibility
from .state import OK, PARALYZED, SUPPRESSED, Mission, OpSheet, State, UnitState, state_to_dict
from .steps import AUTO

CHARTS = Path(__file__).with_name("charts.toml")
COUNTER_SLOTS = ("movement", "mobility", "range", "firepower", "morale", "steps", "point_fire")


class TcsRules:
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
        self._begin_step(st, [])
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
        while not st.over and not st.pending:
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
        if isinstance(action, A.End):
            events.append(Event("end", f"{side} ends {step}"))
            self._next_step(st, events)
            return
        if self.game is not None and hasattr(self.game, "act") and self.game.act(self, st, action, side, step, events):
            return                                         # a game's own action (BW 1.11b: tanks as carriers)
        handler = {"review": (A.Complete,), "implement": (A.Implement,), "reserve": (A.ReserveCheck,),
                   "add": (A.Assign,), "create": (A.NewSheet,), "sorties": (A.Airstrike,),
                   "missions": (A.PlaceMission, A.Lift, A.Plot),
                   "action": (A.SetMode, A.Move, A.Fire, A.Assault, A.Exit)}.get(step, ())
        if not isinstance(action, handler):
            raise IllegalAction("TCS sequence of play", f"{action.text()!r} is not allowed now: {self.clock(st)}")
        getattr(self, "_do_" + type(action).__name__.lower())(st, action, side, events)

    # ------------------------------------------------------------ Command Phase (TCS 6)
    def _sheet(self, st: State, sid: str, side: str) -> OpSheet:
        s = st.sheets.get(sid)
        if s is None or s.side != side:
            raise IllegalAction("TCS 6.0", f"{side} has no Op Sheet {sid!r}")
        return s

    def _do_complete(self, st, a: A.Complete, side, events) -> None:
        s = self._sheet(st, a.sheet, side)
        if not s.implemented and not a.cancel:
            raise IllegalAction("TCS 6.11", f"{a.sheet} is not implemented, so it cannot be completed (cancel it)")
        for u in s.units:
            if st.units[u].sheet == a.sheet:
                st.units[u].sheet = ""
        del st.sheets[a.sheet]
        events.append(Event("opsheet", f"{a.sheet} {'cancelled' if a.cancel else 'completed'}: its units are unassigned"))

    def check_implement(self, st, sid: str, side: str) -> OpSheet:
        s = self._sheet(st, sid, side)
        if s.implemented:
            raise IllegalAction("TCS 6.9f", f"{sid} is already implemented")
        if s.reserve:
            raise IllegalAction("TCS 6.14d", f"{sid} is a reserve: it is released by a reserve check")
        if s.rolled:
            raise IllegalAction("TCS 6.9f", f"{sid} has had its implementation roll this turn")
        first = int(chart_value(self, st, "tcs.command_prep_thresholds", (s.type, 1)))
        if s.weighted_turns < first:
            raise IllegalAction("TCS 6.9f", f"{sid} has {s.weighted_turns} weighted turns; it needs {first} to roll")
        self.check_limits(st, s)
        return s

    def check_limits(self, st, s: OpSheet, new: bool = False) -> None:
        """Implemented-sheet limits per side (Leros 2.1b, BW 2.1c) and per formation (TCS 6.7b), for every formation
        the sheet holds (BW 2.1b: one sheet may carry several divisions, each counting it)."""
        side = self.scenario.sides[s.side]
        imp = [x for x in st.sheets.values() if x.side == s.side and x.implemented and x.id != s.id]
        if not new and len(imp) >= side.max_implemented:
            raise IllegalAction("TCS 6.7b", f"{s.side} already has {len(imp)} implemented Op Sheets (limit {side.max_implemented})")
        for fid in sorted(self.sheet_formations(s)):
            f = self.scenario.formations.get(fid)
            if f is None:
                continue
            mine = [x for x in st.sheets.values() if x.id != s.id and fid in self.sheet_formations(x)]
            if new and len(mine) >= f.max_sheets:
                raise IllegalAction("TCS 6.7b", f"{fid} already has {len(mine)} Op Sheets (limit {f.max_sheets})")
            if not new and sum(x.implemented for x in mine) >= f.max_implemented:
                raise IllegalAction("TCS 6.7b", f"{fid} already has an implemented Op Sheet (limit {f.max_implemented})")

    def sheet_formations(self, s: OpSheet) -> set[str]:
        """The formations a sheet counts against: its own, and those of its units where a game lets formations
        share a sheet (BW 2.1b: "more than one division on a single Op Sheet")."""
        if self.game is not None and hasattr(self.game, "sheet_formations"):
            return self.game.sheet_formations(self, s)
        return {s.formation}

    def _do_implement(self, st, a: A.Implement, side, events) -> None:
        self.check_implement(st, a.sheet, side)
        self._run(st, "implement", {"sheet": a.sheet}, [], events, False)

    def _do_reservecheck(self, st, a: A.ReserveCheck, side, events) -> None:
        s = self._sheet(st, a.sheet, side)
        if not s.reserve or s.rolled:
            raise IllegalAction("TCS 6.14d", f"{a.sheet} is not a reserve waiting for its check")
        self._run(st, "reserve_check", {"sheet": a.sheet}, [], events, False)

    def check_assign(self, st, uid: str, sid: str, side: str) -> OpSheet:
        s = self._sheet(st, sid, side)
        if uid not in self.specs or self.specs[uid].side != side or st.units[uid].hex is None:
            raise IllegalAction("TCS 6.13", f"{uid} is not a unit of {side} on the map")
        if uid in s.units:
            raise IllegalAction("TCS 6.13", f"{uid} is already on {sid}")
        cur = st.units[uid].sheet
        if cur and cur in st.sheets and st.sheets[cur].implemented:
            raise IllegalAction("TCS 6.13", f"{uid} is carrying out {cur}; complete or cancel it first")
        if self.specs[uid].formation and s.formation and not self.fits_formation(uid, s.formation):
            raise IllegalAction("TCS 6.13", f"{uid} belongs to {self.specs[uid].formation}, not {s.formation}")
        if self.specs[uid].formation != s.formation and self.game is not None:
            more = s.copy()                       # BW 2.1b: a division joining a sheet counts it (TCS 6.7b)
            more.units = s.units + [uid]
            if self.sheet_formations(more) != self.sheet_formations(s):
                self.check_limits(st, more, new=True)
                if s.implemented:
                    self.check_limits(st, more)
        if self.game is not None and hasattr(self.game, "sheet_problem"):           # BW 2.1f looting
            self.game.check(self.game.sheet_problem(self, st, [uid], s.objective, s.id))
        return s

    def fits_formation(self, uid: str, formation: str) -> bool:
        """Whether a unit may be on a sheet of ``formation``: its own, or as the game allows (BW 3.1b, 4.1a)."""
        if self.specs[uid].formation == formation:
            return True
        return self.game is not None and hasattr(self.game, "formations_mix") and \
            self.game.formations_mix(self, uid, formation)

    def _do_assign(self, st, a: A.Assign, side, events) -> None:
        s = self.check_assign(st, a.unit, a.sheet, side)
        s.units.append(a.unit)
        if s.implemented:
            st.units[a.unit].sheet = s.id
        events.append(Event("opsheet", f"{a.unit} added to {a.sheet}"))

    def check_new_sheet(self, st, a: A.NewSheet, side: str) -> OpSheet:
        if a.sheet in st.sheets or not a.sheet.isidentifier() and not a.sheet.replace("-", "").isalnum():
            raise IllegalAction("TCS 6.8", f"{a.sheet!r} is taken or not a sheet id")
        if a.type not in SHEET_TYPES:
            raise IllegalAction("TCS 6.8", f"Op Sheet types are {', '.join(SHEET_TYPES)}, not {a.type!r}")
        if a.formation not in self.scenario.formations or self.scenario.formations[a.formation].side != side:
            raise IllegalAction("TCS 6.8", f"{side} has no formation {a.formation!r}")
        if not a.objective:
            raise IllegalAction("TCS 6.8", "an Op Sheet names its objective")
        obj = [self.hex(h) for h in a.objective]
        route = [self.hex(h) for h in a.route]
        s = OpSheet(a.sheet, side, a.formation, a.type, [], obj, route)
        self.check_limits(st, s, new=True)
        for u in a.units:
            if u not in self.specs or self.specs[u].side != side or st.units[u].hex is None:
                raise IllegalAction("TCS 6.8", f"{u} is not a unit of {side} on the map")
            if not self.fits_formation(u, a.formation):
                raise IllegalAction("TCS 6.8", f"{u} is not in {a.formation}")
        if any(self.specs[u].formation != a.formation for u in a.units):
            self.check_limits(st, OpSheet(a.sheet, side, a.formation, a.type, list(a.units), obj, route), new=True)
        if self.game is not None and hasattr(self.game, "sheet_problem"):           # BW 2.1f looting
            self.game.check(self.game.sheet_problem(self, st, a.units, obj))
        s.units = list(a.units)
        return s

    def _do_newsheet(self, st, a: A.NewSheet, side, events) -> None:
        st.sheets[a.sheet] = self.check_new_sheet(st, a, side)
        if self.game is not None and hasattr(self.game, "drawn_before_play"):        # BW 1.10k
            st.sheets[a.sheet].weighted_turns = self.game.drawn_before_play(self, st)
        st.next_id += 1
        events.append(Event("opsheet", f"new Op Sheet {a.sheet}: {a.type} for {a.formation}"))

    # ------------------------------------------------------------ Aircraft & Artillery (TCS 18, 25)
    def _do_airstrike(self, st, a: A.Airstrike, side, events) -> None:
        h = self.hex(a.hex)
        if st.sorties <= 0:
            raise IllegalAction("TCS 25.0", f"{side} has no sortie available")
        if not any(u.hex == h and self.specs[k].side != side for k, u in st.units.items()):
            raise IllegalAction("TCS 25.0", f"there is no enemy unit in {a.hex}")
        if not any(h in spotted_hexes(self, st, side, k) for k, u in st.units.items()
                   if u.hex is not None and self.specs[k].side == side):
            raise IllegalAction("TCS 25.0", f"no unit of {side} spots the enemy in {a.hex}")
        self._run(st, "airstrike", {"side": side, "hex": a.hex}, [], events, False)

    def check_mission(self, st, a: A.PlaceMission, side: str) -> None:
        bat = self._check_battery(st, a.battery, a.ammo, side)
        h = self.hex(a.hex)
        self._check_spotter(st, a.spotter, bat, side)
        vis = visibility(self, st)
        if h not in self.sight.visible_from(st, st.units[a.spotter].hex, [h], max(vis, 1)):
            raise IllegalAction("BW 3.2d", f"{a.spotter} has no line of sight to {a.hex} (within visibility {vis})")

    def _check_battery(self, st, battery: str, ammo: str, side: str):
        """A mission's battery and ammunition (the part of ``check_mission`` that no target or spotter changes)."""
        bat = self.batteries.get(battery)
        if bat is None or bat.side != side:
            raise IllegalAction("TCS 18.0", f"{side} has no battery {battery!r}")
        if bat.release and bat.release not in st.released:          # BW 3.5: a German battery comes by the table
            rule = next((r.rule for r in self.scenario.releases if r.id == bat.release), "TCS 18.0")
            raise IllegalAction(rule, f"{battery} is not released yet ({bat.release})")
        if battery in st.batteries_used or any(m.battery == battery for m in st.markers if m.continuous):
            raise IllegalAction("TCS 18.0", f"{battery} already fires this phase")
        if ammo not in ("he", "smoke", "illum"):
            raise IllegalAction("TCS 18.0", "ammunition is he, smoke or illum")
        if ammo != "he":
            if bat.smoke is False and bat.smoke_rule:
                raise IllegalAction(bat.smoke_rule, f"{battery} ({bat.calibre}) cannot fire smoke or illum")
            can = bat.smoke if bat.smoke is not None else _calibre_mm(bat.calibre) >= 80
            if not can:
                raise IllegalAction("Leros 2.6", f"{battery} ({bat.calibre}) cannot fire smoke or illum (80 mm and more)")
            if st.weather in self.options["no_smoke_weather"]:
                raise IllegalAction("Leros 1.4c", f"no smoke or illum may be placed in {st.weather}")
        if bat.unit:
            self._check_on_map_battery(st, bat)
        key = self.pool_key(bat, ammo)
        if key is not None and st.ammo.get(key, 0) <= 0:
            raise IllegalAction("TCS 18.0", f"{side} has no {bat.calibre} {ammo} rounds left")
        return bat

    def battery_problem(self, st, battery: str, side: str) -> str:
        """Why ``battery`` cannot take an HE mission now ("" when it can, short of a spotter and a target)."""
        try:
            self._check_battery(st, battery, "he", side)
        except IllegalAction as e:
            return str(e)
        return ""

    def _check_on_map_battery(self, st, bat) -> None:
        """An on-map mortar or gun fires its missions itself: it is on the map, in Fire mode, not paralyzed and
        has not fired this phase (TCS 5.0, 13.0)."""
        u = st.units.get(bat.unit)
        if u is None or u.hex is None:
            raise IllegalAction("TCS 18.0", f"{bat.unit} is not on the map, so {bat.id} cannot fire")
        if u.mode != "fire":
            raise IllegalAction("TCS 5.0", f"{bat.unit} is in Move mode: it fires only in Fire mode")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{bat.unit} is paralyzed")
        if u.fired:
            raise IllegalAction("TCS 5.0", f"{bat.unit} has fired this phase")

    def pool_key(self, bat, ammo: str) -> str | None:
        """The ammunition pool a mission of ``bat`` draws on, or None when its rounds are not counted: an on-map
        battery (a mortar company) whose calibre has no pool in the scenario fires from its own unit's supply.
        The choice is the scenario's: list an ``[[ammo]]`` row for the calibre to count its rounds."""
        key = f"{bat.side}|{bat.calibre}|{ammo}"
        if bat.unit and not any((s, c) == (bat.side, bat.calibre) for s, c, _a in self.scenario.ammo):
            return None
        return key

    def _check_spotter(self, st, sp: str, bat, side: str) -> None:
        """A mission's spotter, short of its line of sight to the target."""
        if sp not in self.specs or self.specs[sp].side != side or st.units[sp].hex is None:
            raise IllegalAction("BW 3.2d", f"{sp} is not a unit of {side} on the map")
        if self.options["spotters"] == "fo" and not (self.specs[sp].fo or sp == bat.unit):
            raise IllegalAction("TCS 17.2", f"{sp} cannot spot for {bat.id}: an FO, or the firing unit itself "
                                            "(this scenario's option: FOs only)")
        if st.units[sp].morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{sp} is paralyzed")
        if self.game is not None and hasattr(self.game, "mission_problem"):
            self.game.check(self.game.mission_problem(self, st, bat, sp))     # BW 2.3a, 2.3d

    def _do_placemission(self, st, a: A.PlaceMission, side, events) -> None:
        self.check_mission(st, a, side)
        bat = self.batteries[a.battery]
        key = self.pool_key(bat, a.ammo)
        if key is not None:
            st.ammo[key] -= 1
        if bat.unit:
            st.units[bat.unit].fired = True                         # the mortar company fires this phase
        st.batteries_used.append(a.battery)
        st.missions.append(Mission(a.battery, self.hex(a.hex), a.spotter, a.ammo, a.continuous))
        events.append(Event("mission", f"{a.battery}: {a.ammo} mission on {a.hex} spotted by {a.spotter}"))

    def _do_plot(self, st, a: A.Plot, side, events) -> None:
        if self.game is None or not hasattr(self.game, "plot"):
            raise IllegalAction("BW 4.7", "this game has no plotted super-heavy fire")
        self.game.plot(self, st, self.hex(a.hex), side, events)                  # BW 4.7 Dora

    def _do_lift(self, st, a: A.Lift, side, events) -> None:
        m = next((m for m in st.markers if m.id == a.marker and m.side == side and m.continuous), None)
        if m is None:
            raise IllegalAction("TCS 18.0", f"{side} has no Continuous Fire marker {a.marker!r}")
        st.markers.remove(m)
        events.append(Event("lift", f"{a.marker} lifted"))

    # ------------------------------------------------------------ Action phases
    def _own(self, st, uid: str, side: str) -> UnitState:
        if uid not in self.specs or self.specs[uid].side != side or st.units[uid].hex is None:
            raise IllegalAction("TCS sequence of play", f"{uid} is not a unit of {side} on the map")
        return st.units[uid]

    def ma(self, st, uid: str) -> Fraction:
        """A unit's movement allowance: its counter's, unless the game gives it one (BW 1.11a: towed guns, 8)."""
        if self.game is not None and hasattr(self.game, "movement_allowance"):
            ma = self.game.movement_allowance(self, st, uid)
            if ma is not None:
                return Fraction(ma)
        return Fraction(int(counter(self, st, "movement", uid) or 0))

    def _ma(self, st, uid: str) -> Fraction:
        """``ma``, read once per unit inside a listing (it depends on the state alone)."""
        memo = self.scope_memo(st)
        if memo is None:
            return self.ma(st, uid)
        key = ("ma", uid)
        if key not in memo:
            memo[key] = self.ma(st, uid)
        return memo[key]

    def check_mode(self, st, a: A.SetMode, side: str) -> None:
        u = self._own(st, a.unit, side)
        if a.mode not in ("move", "fire") or a.mode == u.mode:
            raise IllegalAction("TCS 5.0", f"{a.unit} is in {u.mode} mode; modes are move and fire")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{a.unit} is paralyzed and cannot change mode")
        if u.fired:
            raise IllegalAction("TCS 5.0", f"{a.unit} has fired this phase")
        if a.mode == "move" and u.mp_used + self._ma(st, a.unit) / 2 > self._ma(st, a.unit):
            raise IllegalAction("TCS 5.0", f"{a.unit} has not half its movement allowance left to enter Move mode")

    def _do_setmode(self, st, a: A.SetMode, side, events) -> None:
        self.check_mode(st, a, side)
        u = st.units[a.unit]
        if a.mode == "move":
            u.mp_used += self.ma(st, a.unit) / 2          # 3.1: entering Move Mode costs half the MPs
        u.mode = a.mode
        events.append(Event("mode", f"{a.unit} to {a.mode} mode"))

    def scope_memo(self, st) -> dict | None:
        """The memo of the listing that reads ``st`` now, or None outside a listing (or for another state)."""
        sc = self._scope
        return sc[1] if sc is not None and sc[0] is st else None

    def occupancy(self, st) -> dict:
        """Hex -> the units in it, in the state's order (an index legality checks share; built per query)."""
        memo = self.scope_memo(st)
        if memo is not None and "occ" in memo:
            return memo["occ"]
        at: dict = {}
        for k, u in st.units.items():
            if u.hex is not None:
                at.setdefault(u.hex, []).append(k)
        return at

    def units_at(self, st, h: Hex) -> list[str]:
        """The units in hex ``h``: from the listing's index, or by one pass over the units."""
        memo = self.scope_memo(st)
        if memo is not None and "occ" in memo:
            return memo["occ"].get(h, [])
        return [k for k, u in st.units.items() if u.hex == h]

    def stack_problem(self, st, uid: str, h: Hex) -> str:
        units = [k for k in self.units_at(st, h) if k != uid and not self.specs[k].fo]
        if self.specs[uid].fo:
            return ""
        if len(units) + 1 > self.options["stacking_units"]:
            return f"{self.hid(h)} would hold more than {self.options['stacking_units']} units (stacking limit)"
        veh = [k for k in units if self.specs[k].vehicle]
        if self.specs[uid].vehicle and len(veh) + 1 > self.options["stacking_vehicles"]:
            return f"{self.hid(h)} would hold more than {self.options['stacking_vehicles']} vehicles (stacking limit)"
        return ""

    def check_move(self, st, uid: str, to: Hex, side: str) -> Fraction:
        u = self._own(st, uid, side)
        if self.game is not None and to in self.board and are_adjacent(u.hex, to):
            self._game_move(st, uid, to)
        if u.mode != "move":
            if self.game is not None and hasattr(self.game, "fire_mode_move") and to in self.board \
                    and are_adjacent(u.hex, to):
                return self.game.fire_mode_move(self, st, uid, to)       # BW 1.1e man-handling (or refused)
            raise IllegalAction("TCS 5.0", f"{uid} is in Fire mode; only units in Move mode move")
        if u.morale_state == PARALYZED:
            raise IllegalAction("TCS 13.0", f"{uid} is paralyzed")
        if not self.has_orders(st, uid):
            raise IllegalAction("TCS 6.0", f"{uid} has no implemented Op Sheet to carry out")
        if to not in self.board or not are_adjacent(u.hex, to):
            raise IllegalAction("TCS 5.0", f"{uid} moves one hex at a time, to a neighbour of {self.hid(u.hex)}")
        if any(self.specs[k].side != side for k in self.units_at(st, to)):
            raise IllegalAction("TCS 5.0", f"{self.hid(to)} holds enemy units (assault or overrun it)")
        cost, why = movement_cost(self, st, uid, u.hex, to)
        if cost is None:
            raise IllegalAction("TCS 5.0", why)
        if self.game is not None:
            cost = self.game.move_cost(self, st, uid, to, cost)
        if u.mp_used + cost > self._ma(st, uid):
            raise IllegalAction("TCS 5.0", f"{uid} has {self.ma(st, uid) - u.mp_used} MPs left; {self.hid(to)} costs {cost}")
        why = self.stack_problem(st, uid, to)
        if why:
            raise IllegalAction("TCS stacking (game data)", why)
        return cost

    def destinations(self, st, uid: str):
        """Where a unit can move on now with the MPs it has left, at what cost by the cheapest legal path, and why
        each neighbour it cannot enter is refused (``paths.Reach``; TCS 5.0)."""
        from .paths import reach
        return reach(self, st, uid)

    def cheapest_path(self, st, uid: str, to: Hex) -> list[Hex]:
        """The cheapest legal path of hexes from the unit to ``to`` (TCS 5.0); IllegalAction if there is none."""
        from .paths import cheapest_path
        return cheapest_path(self, st, uid, to)

    def check_path(self, st, uid: str, path) -> Fraction:
        """The MPs a path of hexes costs the unit (its own hex first), or IllegalAction with the first refusal."""
        from .paths import check_path
        return check_path(self, st, uid, list(path))

    def _game_move(self, st, uid: str, to: Hex) -> None:
        if self.game is not None:
            self.game.check(self.game.move_problem(self, st, uid, to))

    def has_orders(self, st, uid: str) -> bool:
        """Whether a unit may move and assault: an implemented Op Sheet (TCS 6.0; games add exceptions)."""
        u = st.units[uid]
        return bool(u.sheet and u.sheet in st.sheets and (st.sheets[u.sheet].implemented
                                                          or st.marks.get("started " + u.sheet)))   # BW 2.1e

    def no_accrual(self, st, sheet) -> str:
        """Why a sheet accrues no weighted turns this Command Phase ("" when it does: TCS 6.9d; games add
        exceptions, Leros 3.6i)."""
        return ""

    def assault_defence_firepower(self, st, ctx, units: list[str]) -> int:
        """The defenders' fire in an assault: their firepower (TCS 15.0; games change it, Leros 3.6i)."""
        return firepower_of(self, st, ctx, units)

    def may_fire_sfa(self, st, uid: str) -> bool:
        """Whether a unit may fire an SFA: unassigned units may not (TCS 6.0; games add exceptions)."""
        u = st.units[uid]
        return bool(u.sheet and u.sheet in st.sheets)

    def _do_move(self, st, a: A.Move, side, events) -> None:
        to = self.hex(a.to)
        cost = self.check_move(st, a.unit, to, side)
        u = st.units[a.unit]
        frm = u.hex
        u.hex, u.mp_used, u.moved = to, u.mp_used + cost, True
        if self.game is not None:
            self.game.after_move(self, st, a.unit, frm, to)
        self._take(st, to, side)
        events.append(Event("move", f"{a.unit} moves to {a.to} ({cost} MP)", {"unit": a.unit, "to": a.to}))
        self._run(st, "overwatch", {"mover": a.unit, "hex": a.to}, [], events, False)

    def check_exit(self, st, uid: str, side: str) -> None:
        """BW 5.0 "exiting": a unit in Move mode with orders, in a map-edge hex, pays 1 MP to leave the map; only
        in scenarios whose victory counts exits."""
        u = self._own(st, uid, side)
        if not self.exits:
            raise IllegalAction("BW 5.0", "no victory condition of this scenario counts units leaving the map")
        if u.mode != "move" or u.morale_state == PARALYZED or not self.has_orders(st, uid):
            raise IllegalAction("BW 5.0", f"{uid} must be in Move mode, not paralyzed, carrying out an Op Sheet")
        if len(self.board.neighbors(u.hex)) == 6:
            raise IllegalAction("BW 5.0", f"{self.hid(u.hex)} is not on the map edge: units exit from the edge hexrow")
        if u.mp_used + 1 > self.ma(st, uid):
            raise IllegalAction("BW 5.0", f"{uid} has not the 1 MP leaving the map costs")

    def _do_exit(self, st, a: A.Exit, side, events) -> None:
        self.check_exit(st, a.unit, side)
        u = st.units[a.unit]
        st.marks["exited " + a.unit] = self.hid(u.hex)
        events.append(Event("exit", f"{a.unit} leaves the map from {self.hid(u.hex)} (BW 5.0)", {"unit": a.unit}))
        u.hex, u.mp_used = None, u.mp_used + 1
        if self.game is not None and hasattr(self.game, "after_exit"):
            self.game.after_exit(self, st, events)                                      # BW 1.10h

    def _take(self, st, h: Hex, side: str) -> None:
        if h in self.tracked:
            st.control[h] = side
        flag = f"trench:{side}"
        if h in self.trench and flag not in st.flags:      # BW 3.3a, 3.5: the first unit to enter a trench hex
            st.flags.append(flag)

    # ------------------------------------------------------------ reinforcements (BW 1.10g/h, 2.7, 3.3, 3.5, 4.3)
    def arrive(self, st: State, events: list) -> None:
        """Reinforcements due by this turn's clock (or released) enter through their entry area: each takes the
        first hex of it, in hex order, with room under the stacking limit; a unit finding no room waits a turn."""
        now = self.turns[st.turn].when
        from .clock import parse_clock
        for clock, side, calibre, kind, n in self.scenario.ammo_arrivals:     # BW 2.3c, 3.2c
            if n and parse_clock(clock, self.scenario.year) == now:
                key = f"{side}|{calibre}|{kind}"
                st.ammo[key] = st.ammo.get(key, 0) + n
                events.append(Event("ammo", f"{side} receives {n} {kind} rounds of {calibre} ({clock})"))
        at = None                 # hex -> units, built when a unit first looks for room
        # (entry, side, fo, vehicle) -> how many of the entry's first hexes have no room for such a unit: units only
        # arrive here, so a hex with no room stays so and the next unit of the kind looks on from there
        blocked: dict = {}
        for uid in [k for k in self.order if k in st.waiting]:
            due = st.waiting[uid]
            if due.startswith("release "):
                if due[8:] not in st.released:
                    continue
            elif parse_clock(due, self.scenario.year) > now:
                continue
            if at is None:
                at = self.occupancy(st)
            spec = self.specs[uid]
            kind = (spec.entry, spec.side, spec.fo, spec.vehicle)
            hexes = self.entries[uid]
            spot = None
            saved, self._scope = self._scope, (st, {"occ": at})
            try:
                prefix = True
                for i in range(blocked.get(kind, 0), len(hexes)):
                    h = hexes[i]
                    full = bool(self.stack_problem(st, uid, h)) or any(self.specs[k].side != spec.side
                                                                       for k in at.get(h, ()))
                    closed = self.game is not None and hasattr(self.game, "entry_closed") \
                        and self.game.entry_closed(self, st, h)                          # BW 1.10h
                    if not full and not closed:
                        spot = h
                        break
                    prefix = prefix and full          # only a full hex surely stays so while units arrive
                    if prefix:
                        blocked[kind] = i + 1
            finally:
                self._scope = saved
            if spot is None:
                continue
            st.units[uid].hex = spot
            at.setdefault(spot, []).append(uid)
            st.units[uid].mode = "move"
            del st.waiting[uid]
            events.append(Event("arrive", f"{uid} enters at {self.hid(spot)} ({self.specs[uid].entry})",
                                {"unit": uid, "hex": self.hid(spot)}))

    def overwatchers(self, st, mover: str, h: Hex) -> list[str]:
        """Enemy units that may fire overwatch at a unit entering ``h`` (TCS 12.0): in Fire mode, unsuppressed,
        not yet fired this phase, in range, and spotting it."""
        side = self.specs[mover].side
        values: dict = {}

        def value(slot: str, typ: str) -> int:
            if (slot, typ) not in values:
                values[slot, typ] = int(chart_value(self, st, f"tcs.counter.{slot}", (typ,)) or 0)
            return values[slot, typ]
        cands = []
        for k, u in st.units.items():
            spec = self.specs[k]
            if u.hex is None or spec.side == side or u.mode != "fire" or u.morale_state != OK or u.fired or spec.fo:
                continue
            if hex_distance(u.hex, h) <= value("range", spec.type) and \
                    (value("firepower", spec.type) or value("point_fire", spec.type)):
                if self.game is not None and self.game.fire_problem(self, st, u.hex, h):
                    continue                  # BW 1.1f: no overwatch into or out of the Mill
                cands.append(k)
        if cands and self.game is not None and hasattr(self.game, "overwatch_candidates"):
            cands = self.game.overwatch_candidates(self, st, mover, h, cands)     # BW 1.3c
        return sorted(spotters(self, st, mover, h, "", cands)) if cands else []

    def check_fire(self, st, a: A.Fire, side: str) -> Hex:
        units = list(a.units)
        if a.kind == "point":
            if len(units) != 1 or a.target not in self.specs or st.units[a.target].hex is None \
                    or self.specs[a.target].side == side:
                raise IllegalAction("TCS 9.0", "point fire: one unit at one enemy unit on the map")
            h = st.units[a.target].hex
        else:
            h = self.hex(a.target)
            if not any(v.hex == h and self.specs[k].side != side for k, v in st.units.items()):
                raise IllegalAction("TCS 8.0", f"there is no enemy unit in {a.target}")
        if len(set(units)) != len(units):
            raise IllegalAction("TCS 8.0", "a unit fires once")
        for uid in units:
            u = self._own(st, uid, side)
            if u.mode != "fire":
                raise IllegalAction("TCS 5.0", f"{uid} is in Move mode; only units in Fire mode fire")
            if u.morale_state != OK:
                raise IllegalAction("TCS 13.0", f"{uid} is {u.morale_state} and cannot fire")
            if u.fired:
                raise IllegalAction("TCS 8.0", f"{uid} has fired this phase")
            if self.game is not None:
                self.game.check(self.game.fire_problem(self, st, u.hex, h, uid, a.kind))
            if a.kind == "sfa" and not self.may_fire_sfa(st, uid):
                raise IllegalAction("TCS 6.0", f"{uid} is unassigned: unassigned units may not fire SFAs")
            rng = int(counter(self, st, "range", uid) or 0)
            d = hex_distance(u.hex, h)
            if d > rng:
                raise IllegalAction("TCS 8.0", f"{self.hid(h)} is {d} hexes from {uid}, beyond its range of {rng} "
                                               f"({d} > {rng})")
            if a.kind == "point":
                if int(counter(self, st, "point_fire", uid) or 0) <= 0:
                    raise IllegalAction("TCS 9.0", f"{uid} has no point fire")
                if uid not in spotters(self, st, a.target, h, side, [uid]):
                    from .explain import unseen_reason
                    raise IllegalAction("TCS 11.0", f"{uid} does not spot {a.target}: "
                                                    + unseen_reason(self, st, uid, h, side))
            else:
                if int(counter(self, st, "firepower", uid) or 0) <= 0:
                    raise IllegalAction("TCS 8.0", f"{uid} has no area firepower")
                if h not in spotted_hexes(self, st, side, uid):
                    from .explain import unseen_reason
                    raise IllegalAction("TCS 11.0", f"{uid} spots no enemy unit in {a.target}: "
                                                    + unseen_reason(self, st, uid, h, side))
        return h

    def _do_fire(self, st, a: A.Fire, side, events) -> None:
        h = self.check_fire(st, a, side)
        if a.kind == "point":
            self._run(st, "point_fire", {"unit": a.units[0], "target": a.target}, [], events, False)
            return
        if a.kind == "sfa":
            st.sfa_hexes.append(h)
        self._run(st, "area_fire", {"units": list(a.units), "hex": self.hid(h), "sfa": a.kind == "sfa"}, [], events, False)

    def check_assault(self, st, a: A.Assault, side: str) -> Hex:
        h = self.hex(a.hex)
        if not any(v.hex == h and self.specs[k].side != side for k, v in st.units.items()):
            raise IllegalAction("TCS 15.0", f"there is no enemy unit in {a.hex}")
        if a.overrun and (len(a.units) != 1 or not self.specs.get(a.units[0]) or not self.can_overrun(st, a.units[0])):
            raise IllegalAction("TCS 15.0", "an overrun is made by one vehicle (or a unit the game lets overrun: "
                                            "BW 2.6 mounted cavalry)")
        if a.overrun:
            cls = chart_value(self, st, "tcs.terrain.combat", (terrain_key(self.board, h),))
            if cls not in ("Open", "Billiard"):
                raise IllegalAction("TCS 15.0", f"vehicles overrun only Open hexes, not {cls}")
        for uid in a.units:
            u = self._own(st, uid, side)
            if self.game is not None:
                self.game.check(self.game.assault_problem(self, st, uid, a.overrun))
            if u.mode != "move" or u.morale_state != OK or u.fired:
                raise IllegalAction("TCS 15.0", f"{uid} must be in Move mode, unsuppressed and not yet in combat")
            if not are_adjacent(u.hex, h):
                raise IllegalAction("TCS 15.0", f"{uid} is not adjacent to {a.hex}")
            if not self.has_orders(st, uid):
                raise IllegalAction("TCS 6.0", f"{uid} has no implemented Op Sheet to carry out")
            if a.overrun:
                cost, why = movement_cost(self, st, uid, u.hex, h)
                if cost is None:
                    raise IllegalAction("TCS 5.0", why)
                if u.mp_used + cost + self.options["overrun_mp"] > self.ma(st, uid):
                    raise IllegalAction("TCS 15.0", f"{uid} lacks the MPs for an overrun")
        return h

    def can_overrun(self, st, uid: str) -> bool:
        """Whether a unit may overrun: a vehicle (TCS 15.0), or a unit the game lets (BW 2.6: mounted cavalry)."""
        if self.specs[uid].vehicle:
            return True
        return self.game is not None and hasattr(self.game, "overruns") and self.game.overruns(self, st, uid)

    def _do_assault(self, st, a: A.Assault, side, events) -> None:
        self.check_assault(st, a, side)
        if a.overrun:                     # the overrun's cost and the hex's own (TCS 15.0; overrun_mp is data)
            u = st.units[a.units[0]]
            cost, _why = movement_cost(self, st, a.units[0], u.hex, self.hex(a.hex))
            u.mp_used += self.options["overrun_mp"] + cost
        self._run(st, "assault", {"units": list(a.units), "hex": a.hex, "overrun": a.overrun}, [], events, False)

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

    def _sheet_offers(self, st, side, own) -> list:
        """One sheet of each type per formation with room, its units the formation's free units, its objective the
        nearest scenario objective, its route a straight line (any other sheet may be written out in full)."""
        out = []
        objectives = [self.board.parse_hex(o.hex) for o in self.scenario.objectives]
        for f in self.scenario.formations.values():
            if f.side != side:
                continue
            free = [u for u in own if self.specs[u].formation == f.id and not st.units[u].sheet]
            if not free or not objectives:
                continue
            start = st.units[free[0]].hex
            obj = min(objectives, key=lambda h: (hex_distance(start, h), h))
            route = tuple(self.hid(h) for h in hex_linedraw(start, obj) if h in self.board)
            sid = f"OS{st.next_id}"
            for t in SHEET_TYPES:
                a = A.NewSheet(sid, t, f.id, tuple(free), (self.hid(obj),), route)
                if _ok(lambda: self.check_new_sheet(st, a, side)):
                    out.append(a)
        return out

    def battery_spotters(self, st, battery: str, side: str, target: Hex | None = None) -> list[str]:
        """The units that may spot for ``battery`` now (in counter order); with a ``target``, only those that see
        it, nearest first."""
        bat = self.batteries.get(battery)
        if bat is None:
            return []
        out = [u for u in self.order if self.specs[u].side == side and st.units[u].hex is not None
               and _ok(lambda: self._check_spotter(st, u, bat, side))]
        if target is None:
            return out
        limit = max(visibility(self, st), 1)
        out = [u for u in out if target in self.sight.visible_from(st, st.units[u].hex, [target], limit)]
        return sorted(out, key=lambda u: hex_distance(st.units[u].hex, target))

    def _mission_offers(self, st, side, own) -> list:
        """The legal missions, one spotter each: for every battery, ammunition and target, the spotter nearest the
        target among those that may spot for the battery and see it (ties: counter order).  Any other spotter
        that sees the target is accepted too (``check_mission``); listing each would multiply the list by the
        side's units.  Sight lines are judged once per spotter hex, not per battery or ammunition."""
        out = []
        targets = self._enemy_hexes(st, side)
        if not targets:
            return out
        limit = max(visibility(self, st), 1)
        seen_from: dict = {}
        for b in self.scenario.batteries:
            if b.side != side:
                continue
            ammos = [ammo for ammo in ("he", "smoke", "illum") if _ok(lambda: self._check_battery(st, b.id, ammo, side))]
            if not ammos:
                continue
            best: dict = {}
            for sp in self.battery_spotters(st, b.id, side):
                at = st.units[sp].hex
                if at not in seen_from:
                    seen_from[at] = self.sight.visible_from(st, at, targets, limit)
                for h in seen_from[at]:
                    d = hex_distance(at, h)
                    if h not in best or d < best[h][0]:
                        best[h] = (d, sp)
            for h in targets:
                if h in best:
                    out += [A.PlaceMission(b.id, self.hid(h), best[h][1], ammo) for ammo in ammos]
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


def _ok(fn) -> bool:
    try:
        fn()
        return True
    except IllegalAction:
        return False


def _calibre_mm(c: str) -> int:
    digits = "".join(ch for ch in c if ch.isdigit())
    return int(digits) if digits else 0


__all__ = ["TcsRules", "MOBILITIES", "SUPPRESSED", "PARALYZED"]
