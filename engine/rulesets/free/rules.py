"""The free-play table bound to one scenario: every action a player makes at a table, nothing else refused."""
from __future__ import annotations

from engine.maps.board import Board
from engine.maps.hexes import Hex

from ...errors import BadHexId, IllegalAction
from ...game import Event, Outcome, next_die, seed_rng
from ..ruledata import RulesData
from . import actions as A
from .state import AVAILABLE, DUE, GAME_OVER, IN_BOX, ON_MAP, Look, Piece, TableState, state_to_dict
from engine.errors import excerpt

RULES_KEYS = ("phases", "hidden_sides", "markers", "dice")
DEFAULT_DICE = ("1d6", "2d6")
DEAD_KINDS = ("dead", "eliminated")      # off-map boxes whose counters count as eliminated for victory


class FreeRules:
    """A table for one scenario: its map, counters, track names and which side is kept face down."""

    name = "free"
    table_tools = True             # the play window offers the table's tools (dice, flip, markers, notes)

    def __init__(self, board: Board, scenario, phases: tuple[str, ...], hidden_sides: tuple[str, ...] = (),
                 markers: tuple[str, ...] = (), dice: tuple[str, ...] = DEFAULT_DICE):
        self.board = board
        self.scenario = scenario
        self.phases = tuple(phases)
        self.hidden_sides = tuple(hidden_sides)
        self.markers = tuple(markers)
        self.dice = tuple(dice)
        self.order = list(scenario.units)
        self.hexes = board.hexes()
        self._ids: dict[Hex, str] = {}
        self.arrives = {uid: r for r in scenario.reinforcements for uid in r.units}
        self.judge = None
        if scenario.victory is not None and scenario.victory.kind == "conditions":
            from ...scenario import AreaContext
            from ...scenario.victory import Judge

            self.judge = Judge(scenario.victory, scenario, AreaContext(board))

    @classmethod
    def from_scenario(cls, scenario, board: Board | None = None) -> "FreeRules":
        from engine.maps.mapfile import load_map

        board = board if board is not None else load_map(scenario.map_path)
        data = RulesData(scenario)
        for k in data.data:
            if k not in RULES_KEYS:
                data.bad(k, f"unknown key for the free-play table (expected one of: {', '.join(RULES_KEYS)})")
        phases = data.strings(data.data, "", "phases") or default_phases(scenario)
        hidden = data.strings(data.data, "", "hidden_sides", choices=tuple(scenario.sides))
        markers = data.strings(data.data, "", "markers")
        dice = data.strings(data.data, "", "dice", DEFAULT_DICE)
        for i, d in enumerate(dice):
            try:
                A.parse_action(f"roll {d}")
            except IllegalAction as e:
                data.bad(f"dice[{i}]", f"{d!r} is not dice like 2d6 ({e.message})")
        data.check()
        return cls(board, scenario, phases, hidden, markers, dice)

    # ------------------------------------------------------------ places
    def hex_id(self, h: Hex) -> str:
        s = self._ids.get(h)
        if s is None:
            s = self._ids[h] = self.board.hex_id(h)
        return s

    def parse_place(self, text: str) -> tuple[Hex | None, str]:
        """A hex, or an off-map box (``box:ID``); IllegalAction naming what exists if neither."""
        if text.startswith(A.BOX):
            box = text[len(A.BOX):]
            if box not in self.board.boxes:
                known = ", ".join(f"{A.BOX}{b}" for b in self.board.boxes) or "this map has none"
                raise IllegalAction("", f"there is no off-map box {box!r} (boxes: {known})")
            return None, box
        try:
            h = self.board.parse_hex(text)
        except BadHexId as e:
            raise IllegalAction("", f"{e}") from None
        if h not in self.board:
            raise IllegalAction("", f"{text} is off the map")
        return h, ""

    def unit(self, st: TableState, uid: str) -> Piece:
        if uid not in st.units:
            raise IllegalAction("", f"there is no counter {uid!r} in this scenario")
        return st.units[uid]

    def place_name(self, p: Piece) -> str:
        if p.status == ON_MAP:
            return self.hex_id(p.hex)
        if p.status == IN_BOX:
            return self.board.boxes[p.box].name
        return "off the map"

    # ------------------------------------------------------------ states
    def initial_state(self, seed: int) -> TableState:
        units: dict[str, Piece] = {}
        placed = self.scenario.default_placement()
        boxed = self.scenario.default_boxes()
        z = 1
        for uid in self.order:
            side = self.scenario.units[uid].side
            p = Piece(hidden=side in self.hidden_sides)
            if uid in placed:
                p.hex, p.status, p.z = self.board.parse_hex(placed[uid]), ON_MAP, z
                z += 1
            elif uid in boxed:
                p.status, p.box = IN_BOX, boxed[uid]
            elif uid in self.arrives and self.arrives[uid].turn > self.scenario.first_turn:
                p.status = DUE
            p.flipped = self.scenario.units[uid].losses > 0
            units[uid] = p
        return TableState(turn=self.scenario.first_turn, phase=self.phases[0], units=units, rng=seed_rng(seed),
                          next_z=z)

    def state_to_dict(self, st: TableState) -> dict:
        return state_to_dict(st, self.hex_id)

    def is_over(self, st: TableState) -> bool:
        return st.over

    def outcome(self, st: TableState) -> Outcome | None:
        if not st.over:
            return None
        if self.judge is not None:
            return self.judge.outcome(self.facts(st))
        return Outcome(None, "free play: the players judge the result")

    def facts(self, st: TableState):
        """What the scenario's victory conditions are judged on (a counter in a dead box is eliminated)."""
        from ...scenario.victory import DUE as V_DUE, ELIMINATED, GONE, ON_MAP as V_MAP, Facts

        status, steps = {}, {}
        for uid, p in st.units.items():
            dead = p.status == IN_BOX and self.board.boxes[p.box].kind in DEAD_KINDS
            status[uid] = V_MAP if p.status == ON_MAP else ELIMINATED if dead else \
                V_DUE if p.status in (DUE, AVAILABLE) else GONE
            full = self.scenario.units[uid].steps
            steps[uid] = 0 if dead else max(full - p.steps_lost, 0)
        return Facts(sides=tuple(self.scenario.sides), unit_side={u: s.side for u, s in self.scenario.units.items()},
                     where={uid: p.hex if p.status == ON_MAP else None for uid, p in st.units.items()},
                     status=status, steps=steps,
                     original_steps={u: s.steps for u, s in self.scenario.units.items()})

    def parse_action(self, text: str):
        return A.parse_action(text)

    def guidance(self, st: TableState) -> str:
        """One line for the player: at a table nothing is refused but what the file forbids."""
        if st.over:
            return "The last turn is over."
        i = self.phases.index(st.phase)
        if i + 1 < len(self.phases):
            then = self.phases[i + 1]
        elif st.turn >= self.scenario.last_turn:
            then = "the last turn ends"
        else:
            then = f"{self.turn_name(st.turn + 1)}, {self.phases[0]}"
        return (f"{self.turn_name(st.turn)}, {st.phase}: move any counter anywhere; the Table dock rolls dice, "
                f"flips and marks counters and writes notes. Next phase: {then}.")

    def standing(self, st: TableState) -> list:
        """The scenario's victory conditions as they stand now (none: the players judge)."""
        from .standing import judge_standing

        return judge_standing(self.judge, self.facts(st), st.over, st.turn, self.scenario.last_turn)

    # ------------------------------------------------------------ the view
    def looks(self, st: TableState) -> dict[str, Look]:
        """How each counter that is not plainly face up is shown (hidden, its back, markers); the GUI asks this."""
        out = {}
        for uid, p in st.units.items():
            if p.hidden or p.flipped or p.steps_lost or p.markers:
                out[uid] = Look(p.hidden, p.flipped, p.steps_lost, p.markers)
        return out

    def hidden_units(self, st: TableState) -> set[str]:
        """Counters shown as blanks until revealed (solitaire)."""
        return {uid for uid, p in st.units.items() if p.hidden}

    def notes(self, st: TableState) -> dict[Hex, str]:
        return {self.board.parse_hex(k): v for k, v in st.notes.items()}

    def destinations(self, st: TableState, uid: str):
        """Every hex of the map (a table refuses nothing), with no cost."""
        from types import SimpleNamespace

        here = st.units[uid].hex if uid in st.units else None
        return SimpleNamespace(destinations={h: None for h in self.hexes if h != here}, blocked={})

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, st: TableState) -> list:
        """Every counter to every hex and box, flips, reveals, the dice offered, the end of the phase."""
        if st.over:
            return []
        out: list = []
        ids = [self.hex_id(h) for h in self.hexes]
        boxes = [f"{A.BOX}{b}" for b in self.board.boxes]
        for uid in self.order:
            p = st.units[uid]
            if p.status == DUE:
                continue
            here = self.hex_id(p.hex) if p.status == ON_MAP else ""
            verb = A.Move if p.status in (ON_MAP, IN_BOX) else A.Enter
            out.extend(verb(uid, h) for h in ids if h != here)
            out.extend(A.Move(uid, b) for b in boxes if not (p.status == IN_BOX and b == f"{A.BOX}{p.box}"))
            out.append(A.Flip(uid))
            out.append(A.Reveal(uid) if p.hidden else A.Hide(uid))
        for d in self.dice:
            out.append(A.parse_action(f"roll {d}"))
        out.append(A.EndPhase())
        return out

    # ------------------------------------------------------------ apply
    def apply(self, st: TableState, action) -> tuple[TableState, list[Event]]:
        if st.over:
            raise IllegalAction("", "the game is over")
        events: list[Event] = []
        new = st.copy()
        if isinstance(action, (A.Move, A.Enter)):
            p = self.unit(new, action.unit)
            self._check_released(new, action.unit)
            h, box = self.parse_place(action.to)
            if isinstance(action, A.Enter) and box:
                raise IllegalAction("", f"enter puts a counter on a hex: use move {action.unit} {action.to}")
            frm = self.place_name(p)
            if h is not None:
                p.hex, p.status, p.box = h, ON_MAP, ""
            else:
                p.hex, p.status, p.box = None, IN_BOX, box
            p.z, new.next_z = new.next_z, new.next_z + 1
            events.append(Event("move", f"{action.unit} {frm} to {self.place_name(p)}", {"unit": action.unit}))
        elif isinstance(action, A.Flip):
            p = self.unit(new, action.unit)
            p.flipped = not p.flipped
            events.append(Event("flip", f"{action.unit} turned to its {'back' if p.flipped else 'front'}"))
        elif isinstance(action, A.Steps):
            p = self.unit(new, action.unit)
            p.steps_lost = action.lost
            events.append(Event("steps", f"{action.unit}: {action.lost} step(s) lost" if action.lost
                                else f"{action.unit}: step marker taken off"))
        elif isinstance(action, A.Mark):
            p = self.unit(new, action.unit)
            p.markers = (*p.markers, action.label)
            events.append(Event("mark", f"{action.unit}: marker {action.label!r}"))
        elif isinstance(action, A.Unmark):
            p = self.unit(new, action.unit)
            if action.label not in p.markers:
                have = ", ".join(repr(m) for m in p.markers) or "none"
                raise IllegalAction("", f"{action.unit} has no marker {action.label!r} (its markers: {have})")
            i = p.markers.index(action.label)
            p.markers = p.markers[:i] + p.markers[i + 1:]
            events.append(Event("unmark", f"{action.unit}: marker {action.label!r} taken off"))
        elif isinstance(action, A.Note):
            h, box = self.parse_place(action.hex)
            if box:
                raise IllegalAction("", "notes are written on hexes of the map")
            hid = self.hex_id(h)
            if action.label:
                new.notes[hid] = action.label
                events.append(Event("note", f"note on {hid}: {action.label}"))
            else:
                new.notes.pop(hid, None)
                events.append(Event("note", f"note on {hid} rubbed out"))
        elif isinstance(action, A.Roll):
            faces = []
            for _ in range(action.count):
                die, new.rng = next_die(new.rng, action.sides)
                faces.append(die)
            what = f" for {action.purpose}" if action.purpose else ""
            shown = f"{'+'.join(map(str, faces))} = {sum(faces)}" if len(faces) > 1 else str(faces[0])
            events.append(Event("roll", f"rolled {action.count}d{action.sides}{what}: {shown}",
                                {"dice": faces, "total": sum(faces), "purpose": action.purpose}))
        elif isinstance(action, (A.Reveal, A.Hide)):
            p = self.unit(new, action.unit)
            p.hidden = isinstance(action, A.Hide)
            events.append(Event("reveal", f"{action.unit} {'turned face down' if p.hidden else 'revealed'}"))
        elif isinstance(action, A.EndPhase):
            self._next_phase(new, events)
        else:
            raise IllegalAction("", f"{excerpt(action)} is not an action at the table")
        return new, events

    def _check_released(self, st: TableState, uid: str) -> None:
        """The one rule a table keeps: a reinforcement comes on its turn (the scenario's rule, if it gives one)."""
        if st.units[uid].status == DUE:
            r = self.arrives[uid]
            raise IllegalAction(r.rule, f"{uid} arrives on turn {r.turn} (now turn {st.turn})")

    def _next_phase(self, st: TableState, events: list) -> None:
        i = self.phases.index(st.phase)
        if i + 1 < len(self.phases):
            st.phase = self.phases[i + 1]
        elif st.turn >= self.scenario.last_turn:
            st.over, st.phase = True, GAME_OVER
            out = self.outcome(st)
            events.append(Event("game-over", f"the last turn is over: {out.reason}"))
            return
        else:
            st.turn += 1
            st.phase = self.phases[0]
            self._release(st, events)
        events.append(Event("phase", f"{self.turn_name(st.turn)}, {st.phase}"))

    def _release(self, st: TableState, events: list) -> None:
        for uid in self.order:
            p = st.units[uid]
            if p.status == DUE and self.arrives[uid].turn <= st.turn:
                p.status = AVAILABLE
                events.append(Event("reinforcement", f"{uid} arrives ({self.arrives[uid].entry or 'any entry'})"))

    def turn_name(self, turn: int) -> str:
        names = self.scenario.turn_names
        i = turn - self.scenario.first_turn
        return names[i] if names and 0 <= i < len(names) else f"turn {turn}"


def default_phases(scenario) -> tuple[str, ...]:
    """Without phases in the file: one phase per side, the first side first."""
    sides = list(scenario.sides)
    if scenario.first_side in sides:
        i = sides.index(scenario.first_side)
        sides = sides[i:] + sides[:i]
    return tuple(scenario.sides[s].name for s in sides) or ("play",)
