"""The Demyansk Pocket ruleset bound to one scenario: legal actions and apply (Demyansk 3, the sequence of play)."""
from __future__ import annotations

from itertools import combinations

from engine.maps.board import Board
from ...charts import ChartAnswer, answers
from ...errors import IllegalAction
from ...game import Event, Outcome, action_hex, next_die, seed_rng
from engine.maps.hexes import Hex, hex_distance
from . import actions as A
from . import garrison
from .arrivals import (
    check_drop, check_enter, check_releases, check_withdraw, drop, enter, roll_for_reinforcements, withdraw,
)
from .charts import chart_set, crt_prompt
from .combat import Odds, battle_odds, check_declaration
from .mapinfo import MapInfo
from .movement import check_move, check_path, may_move_now, movement_phases, phase_name, reach
from .playersetup import SETUP_PHASES, TO_PLACE, check_place, check_setup_done, place_unit, placements, setup_phases
from .results import answer, eliminate, place, resolve, retreat_options
from .state import DUE, GAME_OVER, HELD, ON_MAP, PHASES, Battle, State, UnitState, state_to_dict
from .supply import continuous_front, determine_supply, linked_to_west, pocket_linked
from .tables import Tables, load_tables
from .units import GERMAN, SOVIET, UnitSpec
from .victory import conditions, open_line, standing, victory_points
from .zoc import forget, side_hexes
from engine.errors import excerpt


class _Forbidden:
    """Hexes a unit may not end its move in, with one reason for all (9.3 special rule 2)."""

    def __init__(self, hexes=frozenset(), reason: str = ""):
        self.hexes, self.reason = hexes, reason

    def __contains__(self, h) -> bool:
        return h in self.hexes

    def __getitem__(self, h) -> str:
        return self.reason


class DemyanskRules:
    """Demyansk Pocket for one scenario: map, counters, turns, options; never changes during a game."""

    name = "demyansk"

    def __init__(self, board: Board, units: list[UnitSpec], turns: int, victory: str = "open-line",
                 options: dict | None = None, tables: Tables | None = None, withdrawals: bool = False,
                 pocket_stays_until: int | None = None, garrison_until: int | None = None, first_turn: int = 1,
                 variable=(), play_area=None, play_area_rule: str = "", play_area_text: str = "",
                 player_setup: dict | None = None):
        self.tables = tables or load_tables()
        self.charts = chart_set(self.tables)           # 6.6: the CRT as a chart slot (blank cells asked in play)
        self.options = {**self.tables.options, **(options or {})}
        self.map = MapInfo(board, self.tables)
        self.board = board
        self.specs: dict[str, UnitSpec] = {u.id: u for u in units}
        self.order = [u.id for u in units]
        self.turns = turns
        self.first_turn = first_turn
        self.victory = victory
        self.withdrawals = withdrawals                  # 9.3 special rule 1
        self.pocket_stays_until = pocket_stays_until    # 9.3 special rule 2
        self.garrison_until = garrison_until            # 9.3 special rule 3
        self.divisions: dict[str, list[str]] = {}
        for u in units:
            if u.division and u.side == GERMAN:
                self.divisions.setdefault(u.division, []).append(u.id)
        self.pocket_units = [u.id for u in units if u.pocket]
        self.hqs = [u.id for u in units if self.tables.type_flag(u.type, "hq")]
        # variable reinforcements (engine.scenario.Reinforcement records with a release or a roll)
        self.variable = tuple(variable)
        self._group_of = {uid: g for g in self.variable for uid in g.units}
        self._release_areas: dict[str, frozenset[Hex]] = {}
        # the scenario's map area in play (None: the whole map)
        self.outside_play = frozenset(set(self.map.hexes) - set(play_area)) if play_area is not None else frozenset()
        self.play_area_rule = play_area_rule
        self.play_area_text = play_area_text
        # units the player sets up: unit id -> (hexes of its set-up areas, their rule, the areas as written)
        self.player_setup = dict(player_setup or {})

    def outside_play_reason(self, h: Hex) -> str:
        """Why a hex outside the map area in play is refused."""
        area = f" ({self.play_area_text})" if self.play_area_text else ""
        return f"{self.map.hex_id(h)} is outside the map area in play{area}"

    def variable_group_of(self, uid: str):
        return self._group_of.get(uid)

    def release_area(self, release) -> frozenset[Hex]:
        """The hexes of a release event's area expression (worked out once)."""
        if release.area not in self._release_areas:
            from ...scenario.areas import AreaContext

            self._release_areas[release.area] = AreaContext(self.board).hexes(release.area)
        return self._release_areas[release.area]

    # ------------------------------------------------------------ unit facts
    def is_infantry(self, uid: str) -> bool:
        return self.tables.type_flag(self.specs[uid].type, "infantry")

    def is_pocket_unit(self, st: State, uid: str) -> bool:
        """A unit that shares the pocket's supply (7.2): it began in the pocket, or it is a western unit isolated
        in the pocket at this turn's supply check (``supply.trapped_units``), and it has no free path to the west
        now (a unit that has reached the west is outside the pocket, "in supply at all times")."""
        if not (self.specs[uid].pocket or uid in st.trapped):
            return False
        u = st.units[uid]
        return u.status != ON_MAP or not linked_to_west(self, st, u.hex)

    def exempt_from_command(self, st: State, uid: str) -> bool:
        """HQs themselves, and parachute brigades on their drop turn (errata to 8.2), ignore 8.1."""
        spec = self.specs[uid]
        if self.tables.type_flag(spec.type, "hq"):
            return True
        u = st.units[uid]
        return u.drop_turn is not None and u.drop_turn == st.turn

    def command_radius(self, hq: str) -> int:
        """8.1: the scenario's radius, or (the shipped choice) the HQ's movement allowance."""
        spec = self.specs[hq]
        return spec.command_radius if spec.command_radius is not None else spec.movement

    def in_command(self, st: State, uid: str) -> bool:
        h = st.units[uid].hex
        return any(st.units[q].status == ON_MAP and hex_distance(st.units[q].hex, h) <= self.command_radius(q)
                   for q in self.hqs)

    def has_integrity(self, st: State, division: str) -> bool:
        """6.5: no original unit of the division has been lost."""
        return all(st.units[m].status not in ("eliminated", "off-map") for m in self.divisions[division])

    def forbidden_destinations(self, st: State, uid: str):
        """9.3 special rule 2: a pocket unit stays east of the front until the turn ends, unless the front reached it.

        A choice: for a unit the front has not reached (no free path to the
        west, 7.2), "west of the continuous front" is read as west of the
        pocket's westernmost hex in the same row.
        """
        if (self.pocket_stays_until is None or st.turn > self.pocket_stays_until or not self.specs[uid].pocket
                or linked_to_west(self, st, st.units[uid].hex)):
            return _Forbidden()
        return _Forbidden(self.map.west_of_pocket, f"Demyansk 9.3: units that began in the pocket may not move west "
                          f"of the continuous front before the end of turn {self.pocket_stays_until}")

    def roll(self, st: State, events: list, purpose: str) -> int:
        """One die as a chance event: a die entered at the table if any, else the game's generator."""
        if st.preset_dice:
            die = st.preset_dice.pop(0)
        else:
            die, st.rng = next_die(st.rng)
        events.append(Event("roll", f"rolled {die} for {purpose}", {"die": die, "purpose": purpose}))
        return die

    # ------------------------------------------------------------ states
    def initial_state(self, seed: int, dice: list[int] | None = None) -> State:
        units = {}
        for uid in self.order:
            spec = self.specs[uid]
            if spec.setup:
                units[uid] = UnitState(hex=self.board.parse_hex(spec.setup), status=ON_MAP)
            elif uid in self._group_of:
                units[uid] = UnitState(hex=None, status=HELD)
            elif uid in self.player_setup:
                units[uid] = UnitState(hex=None, status=TO_PLACE)
            else:
                units[uid] = UnitState(hex=None, status=DUE)
        st = State(turn=self.first_turn, phase=PHASES[0], units=units, rng=seed_rng(seed), preset_dice=list(dice or []))
        first_setup = setup_phases(self, st)
        if first_setup:
            st.phase = first_setup[0]        # the player sets up first; turn 1 begins when the set-up is done
            return st
        self._begin_phase(st, [], opening=True)
        return st

    def state_to_dict(self, st: State) -> dict:
        return state_to_dict(st, self.map.hex_id)

    def is_over(self, st: State) -> bool:
        return st.over

    def outcome(self, st: State) -> Outcome | None:
        if not st.over:
            return None
        if self.victory == "conditions":
            return conditions(self, st)
        return victory_points(self, st) if self.victory == "points" else open_line(self, st)

    def parse_action(self, text: str):
        return ChartAnswer.parse(text) or A.parse_action(text)

    def chart_prompt(self, st: State):
        """The blank CRT cell the game waits for, with its working (6.6), or None."""
        return crt_prompt(self, st)

    def chart_slots(self):
        """The charts these rules read (the CRT of the tables they were bound with)."""
        return self.charts

    def hex(self, text: str) -> Hex:
        return action_hex(self.board, text)

    # ------------------------------------------------------------ apply
    def apply(self, st: State, action) -> tuple[State, list[Event]]:
        """The new state and the events of one action; IllegalAction (with the rule) if it is refused."""
        new, events = self._apply(st, action)
        if self.variable and not new.over:
            check_releases(self, new, events)      # a release event is checked as soon as it happens
        return new, events

    def _apply(self, st: State, action) -> tuple[State, list[Event]]:
        if st.over:
            raise IllegalAction("", "the game is over")
        events: list[Event] = []
        if st.pending:
            p = st.pending[0]
            new = st.copy()
            answer(self, new, action, events)
            return new, events
        if isinstance(action, A.Place):
            h = self.hex(action.to)
            check_place(self, st, action.unit, h)
            new = st.copy()
            place_unit(self, new, action.unit, h, events)
            return new, events
        if isinstance(action, A.Move):
            to = self.hex(action.to)
            uid = action.unit
            if uid in self.specs and action.frm and st.units[uid].status == ON_MAP \
                    and self.hex(action.frm) != st.units[uid].hex:
                raise IllegalAction("", f"{uid} is in {self.map.hex_id(st.units[uid].hex)}, not {action.frm}")
            if action.via:
                if not action.frm:
                    raise IllegalAction("", "a move along a path names the hex it starts from")
                path = [self.hex(h) for h in (action.frm, *action.via, action.to)]
                cost = check_path(self, st, uid, path)
            else:
                cost = check_move(self, st, uid, to)
            garrison.check_move(self, st, uid, to)             # 6.2: not the move that empties a garrison
            new = st.copy()
            frm = self.map.hex_id(st.units[uid].hex)
            place(self, new, uid, to)
            new.units[uid].moved = True
            way = "-".join((frm, *action.via, action.to))
            events.append(Event("move", f"{uid} moves {way} ({cost} MP)", {"unit": uid, "cost": cost}))
            return new, events
        if isinstance(action, A.Declare):
            odds = check_declaration(self, st, action.defender, tuple(action.attackers))
            new = st.copy()
            new.battles.append(Battle(action.defender, tuple(action.attackers)))
            events.append(Event("declare", f"battle announced: {action.text()} at {odds.label}",
                                {"modifiers": odds.modifiers}))
            return new, events
        if isinstance(action, A.Resolve):
            self._check_paras_committed(st)
            new = st.copy()
            resolve(self, new, action.defender, events)
            return new, events
        if isinstance(action, A.Enter):
            h = self.hex(action.to)
            check_enter(self, st, action.unit, h)
            new = st.copy()
            enter(self, new, action.unit, h, events)
            return new, events
        if isinstance(action, A.Drop):
            h = self.hex(action.to)
            check_drop(self, st, action.unit, h)
            new = st.copy()
            drop(self, new, action.unit, h, events)
            return new, events
        if isinstance(action, A.Withdraw):
            check_withdraw(self, st, action.unit)
            new = st.copy()
            withdraw(self, new, action.unit, events)
            return new, events
        if isinstance(action, A.EndPhase):
            self._check_end(st)
            new = st.copy()
            self._end_phase(new, events)
            return new, events
        if isinstance(action, (A.Retreat, A.Advance, A.EnterResult, ChartAnswer)):
            raise IllegalAction("Demyansk 6.7", "there is no retreat, advance or blank result to decide now")
        raise IllegalAction("", f"{excerpt(action)} is not a Demyansk action")

    def _check_paras_committed(self, st: State) -> None:
        """8.2: a brigade that survived landing on a German unit attacks it before any battle is resolved.

        A choice: when no legal battle can include it (below 1:1 even with every
        adjacent Soviet unit), the duty lapses and the brigade is lost at the end
        of the combat phase (``_end_phase``), as when the German unit holds.
        """
        if st.resolving:
            return
        for uid, u in st.units.items():
            if u.landed_on and u.status == ON_MAP and not any(uid in b.attackers for b in st.battles) \
                    and self._para_can_attack(st, uid):
                raise IllegalAction("Demyansk 8.2", f"the parachute brigade {uid} landed on {u.landed_on} "
                                    "and must attack it: announce that battle first")

    def _para_can_attack(self, st: State, para: str) -> bool:
        """Some battle against the unit the brigade landed on, with the brigade in it, may be announced now (8.2)."""
        target = st.units[para].landed_on
        if target is None or st.units[target].status != ON_MAP or st.resolving \
                or any(b.defender == target for b in st.battles):
            return False
        taken = {a for b in st.battles for a in b.attackers}
        th = st.units[target].hex
        others = [o for o in self.order if o != para and o not in taken and st.units[o].status == ON_MAP
                  and self.specs[o].side == SOVIET and self.specs[o].attack > 0
                  and st.units[o].hex in self.map.neighbors[th]]
        for n in range(len(others) + 1):
            for group in combinations(others, n):
                try:
                    check_declaration(self, st, target, (para, *group))
                except IllegalAction:
                    continue
                return True
        return False

    # ------------------------------------------------------------ sequence of play (3)
    def _check_end(self, st: State) -> None:
        if st.phase in SETUP_PHASES:
            check_setup_done(self, st)
            return
        if st.phase.endswith("combat"):
            self._check_paras_committed(st)
            left = [b.defender for b in st.battles if not b.resolved]
            if left:
                raise IllegalAction("Demyansk 6", f"announced battles must all be resolved: {', '.join(left)}")
        if st.phase == "german-movement":
            why = self.garrison_shortfall(st)
            if why:
                raise IllegalAction("Demyansk 6.2", why)

    def garrison_shortfall(self, st: State) -> str | None:
        """6.2: why the German movement phase may not end yet (fortifications left empty that could be held), or None."""
        return garrison.shortfall(self, st)

    def _end_phase(self, st: State, events: list) -> None:
        if st.phase in SETUP_PHASES:
            later = setup_phases(self, st)
            st.phase = later[0] if later else PHASES[0]
            events.append(Event("phase", f"now turn {st.turn}: {phase_name(st.phase)} phase"))
            if not later:
                self._begin_phase(st, events)
            return
        i = PHASES.index(st.phase)
        if st.phase == "soviet-combat":
            for uid in self.order:
                u = st.units[uid]
                if u.landed_on and u.status == ON_MAP:     # 8.2: it could not attack; the German unit held
                    eliminate(self, st, uid, events, f"Demyansk 8.2: {uid} could not attack {u.landed_on}, "
                              "the German unit it landed on", in_combat=False)
        if st.phase == "german-movement":
            if not continuous_front(self, st):
                st.front_failures.append(st.turn)
                events.append(Event("front", f"Demyansk 7.3: no continuous German front on turn {st.turn}"))
        if i + 1 < len(PHASES):
            st.phase = PHASES[i + 1]
        else:
            self._end_turn(st, events)
            if st.over:
                return
            st.turn += 1
            st.phase = PHASES[0]
        events.append(Event("phase", f"now turn {st.turn}: {phase_name(st.phase)} phase"))
        self._begin_phase(st, events)

    def _end_turn(self, st: State, events: list) -> None:
        for u in st.units.values():
            u.entry_mp = 0
        if self.withdrawals:
            for uid in self.order:
                wt = self.specs[uid].withdraw_turn
                if wt is not None and st.turn > wt and st.units[uid].status == ON_MAP:
                    st.withdrawal_vp += 1
                    events.append(Event("vp", f"Demyansk 9.3: {uid} still on the map after turn {wt}: Soviet +1 VP"))
        if st.turn >= self.turns:
            st.over = True
            st.phase = GAME_OVER
            out = self.outcome(st)
            events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}", {"breakdown": out.breakdown}))

    def _begin_phase(self, st: State, events: list, opening: bool = False) -> None:
        """What happens as a phase begins; the game's opening phase makes no variable-reinforcement roll
        (no action is logged yet to carry its die: a choice, see docs/scenario-format.md)."""
        ph = st.phase
        st.battles = []
        st.resolving = False
        for u in st.units.values():
            u.moved = False
        if ph.endswith("reinforcement") and self.variable:
            check_releases(self, st, events)
            if not opening:
                roll_for_reinforcements(self, st, GERMAN if ph.startswith("german") else SOVIET, events)
        if ph == "german-reinforcement":
            determine_supply(self, st, events)
        elif ph.startswith("german") and not st.pocket_supplied and pocket_linked(self, st):
            st.pocket_supplied, st.pocket_linked, st.pocket_attack_limit = True, True, None   # 7.2 "at any time"
            events.append(Event("supply", "Demyansk 7.2: a free path now links the pocket to the west: supplied"))
        if ph in ("soviet-combat", "soviet-movement"):
            for uid in self.order:
                if self.specs[uid].side == SOVIET and st.units[uid].status == ON_MAP:
                    st.units[uid].out_of_command = not self.in_command(st, uid)     # 8.1
        if ph == "german-combat":
            for uid in self.order:
                st.units[uid].out_of_command = False

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, st: State) -> list:
        """Every legal action now, in a fixed order (declarations: each defender with every legal group)."""
        if st.over:
            return []
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "result":
                return answers(crt_prompt(self, st))
            if p["kind"] == "retreat":
                return [A.Retreat(p["unit"], o) for o in p["options"]]
            return [A.Advance(o) for o in p["options"]]
        out: list = []
        ph = st.phase
        if ph in SETUP_PHASES:
            out.extend(placements(self, st))
        elif ph.endswith("reinforcement"):
            out.extend(self._arrivals(st))
        elif ph.endswith("movement"):
            for uid in self.order:
                if may_move_now(self, st, uid) is None:
                    r = reach(self, st, uid)
                    frm = self.map.hex_id(r.start)
                    ends = garrison.allowed_ends(self, st, uid, r.destinations)          # 6.2; in hex order
                    out.extend(A.Move(uid, self.map.hex_id(h), frm) for h in ends)
            if self.withdrawals and ph.startswith("german"):
                for uid in self.order:
                    try:
                        check_withdraw(self, st, uid)
                    except IllegalAction:
                        continue
                    out.append(A.Withdraw(uid))
        elif ph.endswith("combat"):
            if not st.resolving:
                out.extend(self.declarations(st))
            try:
                self._check_paras_committed(st)
                out.extend(A.Resolve(b.defender) for b in st.battles if not b.resolved)
            except IllegalAction:
                pass                                   # 8.2: the brigade's battle is announced first
        try:
            self._check_end(st)
            out.append(A.EndPhase())
        except IllegalAction:
            pass
        return out

    def declarations(self, st: State, max_group: int = 6) -> list:
        """Every legal battle that could be announced now."""
        side = GERMAN if st.phase.startswith("german") else SOVIET
        taken = {a for b in st.battles for a in b.attackers}
        out = []
        occ_side = {u.hex: uid for uid, u in st.units.items() if u.status == ON_MAP and self.specs[uid].side == side
                    and uid not in taken and self.specs[uid].attack > 0}
        for d in self.order:
            u = st.units[d]
            if u.status != ON_MAP or self.specs[d].side == side:
                continue
            near = [occ_side[h] for h in (u.hex, *self.map.neighbors[u.hex]) if h in occ_side]
            for n in range(1, min(len(near), max_group) + 1):
                for group in combinations(near, n):
                    try:
                        check_declaration(self, st, d, group)
                    except IllegalAction:
                        continue
                    out.append(A.Declare(d, group))
        return out

    def _arrivals(self, st: State) -> list:
        out = []
        side = GERMAN if st.phase.startswith("german") else SOVIET
        edge = sorted(self.map.edges["west" if side == GERMAN else "east"])
        for uid in self.order:
            spec = self.specs[uid]
            if spec.side != side or st.units[uid].status != DUE or (spec.arrives or 0) > st.turn:
                continue
            for h in edge:
                try:
                    check_enter(self, st, uid, h)
                except IllegalAction:
                    continue
                out.append(A.Enter(uid, self.map.hex_id(h)))
            if self.tables.type_flag(spec.type, "airborne"):
                for h in sorted(self.map.pocket):
                    try:
                        check_drop(self, st, uid, h)
                    except IllegalAction:
                        continue
                    out.append(A.Drop(uid, self.map.hex_id(h)))
        return out

    # ------------------------------------------------------------ queries for the GUI and the command line
    def destinations(self, st: State, uid: str):
        """Legal destinations of a unit with their costs, and why each blocked neighbour is blocked."""
        return reach(self, st, uid)

    def check_path(self, st: State, uid: str, path) -> int:
        """The cost of moving a unit along a path of hexes (its own first), or IllegalAction with the rule."""
        return check_path(self, st, uid, list(path))

    def guidance(self, st: State) -> str:
        """One line for the player on what this phase (or the decision pending) asks of them (``tables.toml``),
        and what Next phase leads to."""
        key = f"pending-{st.pending[0]['kind']}" if st.pending else ("game-over" if st.over else st.phase)
        line = self.tables.guidance.get(key, "")
        if st.over or st.pending or not line:
            return line
        if st.phase.endswith("reinforcement") and not self._due_now(st):       # 3.1, 3.5: nothing to bring on
            line = f"{line.partition(':')[0]}: no units are due this turn; Next phase when done"
        return f"{line}. Next phase: {self.after_end(st)}."

    def _due_now(self, st: State) -> bool:
        """Whether a unit of the phasing side is due to come on now (9.1: its turn of arrival reached)."""
        side = GERMAN if st.phase.startswith("german") else SOVIET
        return any(self.specs[uid].side == side and st.units[uid].status == DUE
                   and (self.specs[uid].arrives or 0) <= st.turn for uid in self.order)

    def after_end(self, st: State) -> str:
        """What ending this phase leads to (3, the sequence of play), like ``the Soviet reinforcement phase (3.5)``."""
        if st.phase in SETUP_PHASES:
            later = [p for p in setup_phases(self, st) if p != st.phase]
            nxt = later[0] if later else PHASES[0]
            return f"the {phase_name(nxt)} phase" + ("" if later else f" of turn {st.turn}")
        i = PHASES.index(st.phase)
        if i + 1 < len(PHASES):
            return f"the {phase_name(PHASES[i + 1])} phase (3.{i + 2})"
        if st.turn >= self.turns:
            return f"turn {st.turn} ends and with it the game"
        return f"turn {st.turn} ends; turn {st.turn + 1} begins with the {phase_name(PHASES[0])} phase (3.1)"

    def units_to_act(self, st: State) -> set[str]:
        """The units some legal action names now (to move, attack, come in, set up, withdraw, retreat, advance)."""
        out: set[str] = set()
        for a in self.legal_actions(st):
            if isinstance(a, A.Declare):
                out.update(a.attackers)
            elif isinstance(a, A.Advance):
                if a.unit in self.specs:            # "advance none" names no unit
                    out.add(a.unit)
            elif isinstance(a, (A.Move, A.Enter, A.Drop, A.Place, A.Withdraw, A.Retreat)):
                out.add(a.unit)
        return out

    def why_idle(self, st: State, uid: str) -> IllegalAction | None:
        """Why a unit can do nothing now, with the rule and the phase that would allow it; None if it may act."""
        if uid not in self.specs:
            return IllegalAction("", f"there is no unit {uid!r}")
        if uid in self.units_to_act(st):
            return None
        if st.over:
            return IllegalAction("", "the game is over")
        if st.pending and st.pending[0].get("kind") == "result":
            return IllegalAction("Demyansk 6.6", "a blank cell of the combat results table waits for the result "
                                 "printed in your chart first (the Printed chart panel)")
        if st.pending:
            return IllegalAction("Demyansk 6.7", "a combat result waits for a decision first: "
                                 "make it on the map or in the battle panel")
        spec, phase = self.specs[uid], st.phase
        side = GERMAN if phase.startswith("german") else SOVIET
        when = " and ".join(movement_phases(self, uid))
        now = f"this is the {phase_name(phase)} phase"
        if phase in SETUP_PHASES:
            return IllegalAction("Demyansk 3", f"{now}: units are set up from the tray; {uid} moves in {when}")
        if phase.endswith("reinforcement"):
            return IllegalAction("Demyansk 3", f"{now}, in which only reinforcements come onto the map (9.1); "
                                 f"{uid} moves in {when}")
        if phase.endswith("combat"):
            if spec.side != side:
                return IllegalAction("Demyansk 3", f"{now}: {side.capitalize()} units attack and {uid} may only be "
                                     f"attacked; it moves in {when}")
            if any(uid in b.attackers for b in st.battles):
                return IllegalAction("Demyansk 6", f"{uid} already attacks in a battle announced this phase "
                                     "(each unit attacks once a phase)")
            if st.resolving:
                return IllegalAction("Demyansk 6", "battles are being resolved: every battle is announced "
                                     "before the first is resolved")
            if spec.attack <= 0:
                return IllegalAction("Demyansk 8.1" if self.tables.type_flag(spec.type, "hq") else "Demyansk 6",
                                     f"{uid} has no attack strength; it moves in {when}")
            return IllegalAction("Demyansk 6", f"{uid} has no adjacent enemy unit it may attack now "
                                 f"(attacks are on adjacent units only); it moves in {when}")
        why = may_move_now(self, st, uid)
        if why:
            rule, _, msg = why.partition(": ")
            return IllegalAction(rule, msg)
        r = reach(self, st, uid)
        reasons = sorted(set(r.blocked.values()))
        rule, _, msg = reasons[0].partition(": ") if len(reasons) == 1 else ("", "", "")
        if not msg:
            rule = "Demyansk 5"
            msg = "; ".join(reasons[:3]) or f"it has {r.allowance} MP, fewer than any neighbouring hex costs"
        return IllegalAction(rule, f"{uid} has no hex it may move to: {msg}")

    def standing(self, st: State):
        """The current standing of each victory condition (``victory.Standing``), during play or at the end."""
        return standing(self, st)

    def retreat_options(self, st: State, uid: str, hexes: int) -> list[str]:
        return retreat_options(self, st, uid, hexes)

    def odds(self, st: State, defender: str, attackers) -> "Odds":
        """A battle's odds with every modifier and its rule, whether or not it may be announced now."""
        return battle_odds(self, st, defender, tuple(attackers))
