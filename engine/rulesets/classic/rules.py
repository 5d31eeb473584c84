"""The classic hex-and-counter rules bound to one scenario: its phases, movement, zones of control, stacking,
combat, results, retreats, advances, supply and reinforcements, all configured by the scenario's data."""
from __future__ import annotations

import math

from engine.maps.hexes import Hex

from ...errors import IllegalAction
from ...game import Event, Outcome, action_hex, seed_rng
from ..demyansk import actions as A
from .combat import CombatMixin
from .config import Config
from .mapinfo import MapInfo
from .movement import MovementMixin
from .results import ResultsMixin
from .state import DUE, ELIMINATED, GAME_OVER, ON_MAP, REMOVED, Battle, State, Unit, state_to_dict
from .text import cite


class _Tables:
    """The CRT as the play window's battle panel asks it (``crt(roll, column)``)."""

    def __init__(self, rules):
        self.rules = rules

    def crt(self, roll: int, column: int) -> str:
        cfg = self.rules.cfg
        return cfg.crt_rows[roll - cfg.crt_first][column - 1]


class ClassicRules(MovementMixin, CombatMixin, ResultsMixin):
    """A scenario under the classic rules; never changes during a game."""

    name = "classic"

    def __init__(self, scenario, board, cfg: Config):
        self.scenario, self.board, self.cfg = scenario, board, cfg
        self.map = MapInfo(board, cfg)
        self.units = scenario.units
        self.order = list(scenario.units)
        self.sides = tuple(scenario.sides)
        self.type_of = {uid: cfg.unit_types[u.type] for uid, u in scenario.units.items()}
        self.phase_by_name = {p.name: p for p in cfg.phases}
        # the battle panel counts the die faces of a 1d6 table (other rolls: no chances shown)
        self.tables = _Tables(self) if (cfg.crt_dice, cfg.crt_sides) == (1, 6) else None
        from ...scenario import AreaContext

        self.areas = AreaContext(board)
        self.arrives = {uid: r for r in scenario.reinforcements for uid in r.units}
        self.sources = {s: self.areas.hexes(a) for s, a in cfg.supply_sources.items()} if cfg.supply else {}
        self._ineighbors = [tuple(self.map.index[n] for n in self.map.neighbors[h]) for h in self.map.hexes]
        self.judge = None
        if scenario.victory is not None and scenario.victory.kind == "conditions":
            from ...scenario.victory import Judge

            self.judge = Judge(scenario.victory, scenario, self.areas)

    # ------------------------------------------------------------ unit values
    def values(self, st: State, uid: str) -> tuple[int, int, int]:
        """Attack, defence, movement of the face up (the back once a step is lost)."""
        u = self.units[uid]
        if st.units[uid].steps_lost and u.reduced:
            a, d, m = (int(x) for x in u.reduced.split("-"))
            return a, d, m
        return u.attack, u.defense, u.movement

    def has(self, uid: str, names) -> bool:
        """A unit's type is one of ``names`` or has one of them as a tag."""
        t = self.type_of[uid]
        return t.name in names or bool(t.tags & set(names))

    def _scale(self, v: float, k: float) -> float:
        if k == 1:
            return v
        x = v * k
        return float(math.ceil(x - 1e-9) if self.cfg.halves == "up" else math.floor(x + 1e-9))

    def allowance(self, st: State, uid: str) -> float:
        ma = float(self.values(st, uid)[2])
        if st.units[uid].out_of_supply:
            ma = self._scale(ma, self.cfg.supply_movement)
        return ma

    # ------------------------------------------------------------ positions
    def _cache(self, st: State) -> dict:
        c = st.__dict__.get("_cache")
        if c is None:
            c = st.__dict__["_cache"] = {}
        return c

    def occupants(self, st: State) -> dict[Hex, list[str]]:
        c = self._cache(st)
        if "occ" not in c:
            occ: dict[Hex, list[str]] = {}
            for uid in self.order:
                u = st.units[uid]
                if u.status == ON_MAP:
                    occ.setdefault(u.hex, []).append(uid)
            c["occ"] = occ
        return c["occ"]

    def side_hexes(self, st: State, side: str) -> set[Hex]:
        c = self._cache(st)
        key = ("hexes", side)
        if key not in c:
            c[key] = {h for h, us in self.occupants(st).items() if self.units[us[0]].side == side}
        return c[key]

    def zoc(self, st: State, side: str) -> set[Hex]:
        """Hexes in the zone of control of ``side``'s units (not into terrain or across hexsides that block it)."""
        c = self._cache(st)
        key = ("zoc", side)
        if key not in c:
            hexes = self.map.hexes
            c[key] = {hexes[i] for i, on in enumerate(self._zoc_flags(st, side)) if on}
        return c[key]

    def _zoc_flags(self, st: State, side: str) -> bytearray:
        """The zone of control of ``side``'s units as flags by hex number (the map's projections, worked out once)."""
        c = self._cache(st)
        key = ("zocflags", side)
        if key not in c:
            index, izoc = self.map.index, self.map.izoc
            out = bytearray(len(index))
            for h, us in self.occupants(st).items():
                if self.units[us[0]].side != side or not any(self.type_of[u].zoc for u in us):
                    continue
                for n in izoc[index[h]]:
                    out[n] = 1
            c[key] = out
        return c[key]

    def enemy_of(self, side: str) -> list[str]:
        return [s for s in self.sides if s != side]

    def enemy_zoc(self, st: State, side: str) -> set[Hex]:
        out: set[Hex] = set()
        for e in self.enemy_of(side):
            out |= self.zoc(st, e)
        return out

    def enemy_hexes(self, st: State, side: str) -> set[Hex]:
        out: set[Hex] = set()
        for e in self.enemy_of(side):
            out |= self.side_hexes(st, e)
        return out

    def _flags(self, st: State, side: str) -> tuple[bytearray, bytearray]:
        """Enemy-occupied hexes and enemy zones of control for ``side``, as flags by hex number."""
        c = self._cache(st)
        key = ("flags", side)
        if key not in c:
            index = self.map.index
            enemy, ezoc = bytearray(len(index)), bytearray(len(index))
            for h in self.enemy_hexes(st, side):
                enemy[index[h]] = 1
            for e in self.enemy_of(side):
                zone = self._zoc_flags(st, e)
                ezoc = bytearray(a | b for a, b in zip(ezoc, zone)) if any(ezoc) else bytearray(zone)
            c[key] = (enemy, ezoc)
        return c[key]

    def _stack_use(self, st: State) -> dict[Hex, int]:
        """Hex -> the units (or stacking points) in it now."""
        c = self._cache(st)
        if "stack" not in c:
            by_count = self.cfg.stack_by == "count"
            c["stack"] = {h: len(us) if by_count else sum(self.type_of[u].stack for u in us)
                          for h, us in self.occupants(st).items()}
        return c["stack"]

    def stack_room(self, st: State, h: Hex, uids) -> bool:
        """Whether ``uids`` may end in ``h`` on top of what is there (stacking limit by count or points)."""
        limit = self.cfg.stack_limit
        if not limit:
            return True
        here = [u for u in self.occupants(st).get(h, []) if u not in uids]
        if self.cfg.stack_by == "count":
            return len(here) + len(uids) <= limit
        return sum(self.type_of[u].stack for u in (*here, *uids)) <= limit

    # ------------------------------------------------------------ states
    def initial_state(self, seed: int) -> State:
        placed = self.scenario.default_placement()
        units, z = {}, 1
        for uid in self.order:
            if uid in placed:
                units[uid] = Unit(self.board.parse_hex(placed[uid]), ON_MAP, self.units[uid].losses, z=z)
                z += 1
            else:
                units[uid] = Unit(None, DUE, self.units[uid].losses)
        st = State(self.scenario.first_turn, self.cfg.phases[0].name, units, seed_rng(seed), next_z=z)
        self._begin_phase(st, [])
        return st

    def state_to_dict(self, st: State) -> dict:
        return state_to_dict(st, self.map.hex_id)

    def is_over(self, st: State) -> bool:
        return st.over

    def outcome(self, st: State) -> Outcome | None:
        if not st.over:
            return None
        if self.judge is not None:
            return self.judge.outcome(self.facts(st))
        return Outcome(None, "the scenario gives no victory conditions")

    def facts(self, st: State):
        from ...scenario.victory import DUE as V_DUE, ELIMINATED as V_ELIM, GONE, ON_MAP as V_MAP, Facts

        status = {ON_MAP: V_MAP, DUE: V_DUE, ELIMINATED: V_ELIM, REMOVED: GONE}
        return Facts(sides=self.sides, unit_side={u: s.side for u, s in self.units.items()},
                     where={uid: u.hex if u.status == ON_MAP else None for uid, u in st.units.items()},
                     status={uid: status[u.status] for uid, u in st.units.items()},
                     steps={uid: 0 if u.status in (ELIMINATED, REMOVED) else self.units[uid].steps - u.steps_lost
                            for uid, u in st.units.items()},
                     original_steps={u: s.steps for u, s in self.units.items()})

    def standing(self, st: State) -> list:
        """The scenario's victory conditions as they stand in this state (the victory dock shows them)."""
        from ..free.standing import judge_standing

        return judge_standing(self.judge, self.facts(st), st.over, st.turn, self.scenario.last_turn)

    def looks(self, st: State) -> dict:
        """Counters with a step lost show their back (the play window asks)."""
        from ..free.state import Look

        return {uid: Look(back=True) for uid, u in st.units.items() if u.steps_lost and self.units[uid].steps > 1}

    def parse_action(self, text: str):
        return A.parse_action(text)

    def hex(self, text: str) -> Hex:
        return action_hex(self.board, text)

    def phase(self, st: State):
        return self.phase_by_name.get(st.phase)

    # ------------------------------------------------------------ reinforcements
    def entry_hexes(self, st: State, uid: str) -> list[Hex]:
        r = self.arrives.get(uid)
        if r is not None and r.entry:
            area = self.areas.hexes(r.entry)
        else:
            dep = {u: d for d in self.scenario.deployments for u in d.units}
            area = self.areas.hexes(dep[uid].area or "all") if uid in dep else frozenset(self.map.hexes)
        side = self.units[uid].side
        bad = self.enemy_hexes(st, side) | self.enemy_zoc(st, side) | self.map.prohibited[self.type_of[uid].cls]
        return sorted((h for h in area if h not in bad and self.stack_room(st, h, (uid,))), key=lambda h: (h.q, h.r))

    def check_enter(self, st: State, uid: str, h: Hex) -> None:
        ph = self.phase(st)
        if uid not in self.units or st.units[uid].status != DUE:
            raise IllegalAction("", f"{uid} is not waiting off the map")
        r = self.arrives.get(uid)
        rule = cite(r.rule if r else "")
        if ph is None or self.units[uid].side != ph.side or not (
                "reinforce" in ph.does or ("move" in ph.does and not self._has_reinforce_phase(ph.side))):
            raise IllegalAction(rule, f"{uid} enters in its side's reinforcement phase, not in the {st.phase} phase")
        if r is not None and r.turn > st.turn:
            raise IllegalAction(rule, f"{uid} arrives on turn {r.turn} (now turn {st.turn})")
        if h not in self.entry_hexes(st, uid):
            raise IllegalAction(rule, f"{uid} may not enter at {self.map.hex_id(h)}: it enters "
                                f"{'at ' + r.entry if r and r.entry else 'in its set-up area'}, in a hex free of enemy "
                                "units and zones of control, within the stacking limit")

    def _has_reinforce_phase(self, side: str) -> bool:
        return any(p.side == side and "reinforce" in p.does for p in self.cfg.phases)

    # ------------------------------------------------------------ apply
    def apply(self, st: State, action) -> tuple[State, list[Event]]:
        if st.over:
            raise IllegalAction("", "the game is over")
        events: list[Event] = []
        if st.pending:
            new = st.copy()
            self.answer(new, action, events)
            return new, events
        if isinstance(action, A.Move):
            uid = action.unit
            to = self.hex(action.to)
            if uid in self.units and action.frm and st.units[uid].status == ON_MAP \
                    and self.hex(action.frm) != st.units[uid].hex:
                raise IllegalAction("", f"{uid} is in {self.map.hex_id(st.units[uid].hex)}, not {action.frm}")
            cost = self.check_move(st, uid, to)
            if action.via:
                cost = self.check_path(st, uid, [self.hex(x) for x in (action.frm, *action.via, action.to)])
            new = st.copy()
            u = new.units[uid]
            frm = self.map.hex_id(u.hex)
            u.hex, u.moved, u.z, new.next_z = to, True, new.next_z, new.next_z + 1
            self.forget(new)
            events.append(Event("move", f"{uid} moves {frm}-{action.to} ({cost:g} MP)", {"unit": uid, "cost": cost}))
            return new, events
        if isinstance(action, A.Enter):
            h = self.hex(action.to)
            self.check_enter(st, action.unit, h)
            new = st.copy()
            u = new.units[action.unit]
            u.hex, u.status, u.z, new.next_z = h, ON_MAP, new.next_z, new.next_z + 1
            u.moved = "move" in self.phase(st).does
            self.forget(new)
            events.append(Event("enter", f"{action.unit} enters at {action.to}", {"unit": action.unit}))
            return new, events
        if isinstance(action, A.Declare):
            o = self.check_declaration(st, action.defender, tuple(action.attackers))
            new = st.copy()
            new.battles.append(Battle(action.defender, tuple(action.attackers)))
            events.append(Event("declare", f"battle announced: {action.text()} at {o.label}",
                                {"modifiers": o.modifiers}))
            if not self.cfg.declare_first:
                self.resolve(new, action.defender, events)
            return new, events
        if isinstance(action, A.Resolve):
            new = st.copy()
            self.resolve(new, action.defender, events)
            return new, events
        if isinstance(action, A.EndPhase):
            left = [b.defender for b in st.battles if not b.resolved]
            if left:
                raise IllegalAction(cite(self.cfg.combat_rule),
                                    f"announced battles must all be resolved: {', '.join(left)}")
            new = st.copy()
            self._end_phase(new, events)
            return new, events
        if isinstance(action, (A.Retreat, A.Advance, A.EnterResult)):
            raise IllegalAction(cite(self.cfg.retreat_rule), "there is no retreat, advance or result to decide now")
        raise IllegalAction("", f"{action.text()!r} is not an action of the classic rules")

    def _end_phase(self, st: State, events: list) -> None:
        names = [p.name for p in self.cfg.phases]
        i = names.index(st.phase)
        if i + 1 < len(names):
            st.phase = names[i + 1]
        elif st.turn >= self.scenario.last_turn:
            st.over, st.phase, st.side = True, GAME_OVER, ""
            out = self.outcome(st)
            events.append(Event("game-over", f"{out.winner or 'nobody'} wins: {out.reason}",
                                {"breakdown": out.breakdown}))
            return
        else:
            st.turn += 1
            st.phase = names[0]
        words = st.phase.replace("-", " ")
        events.append(Event("phase", f"now turn {st.turn}: {words[:1].upper() + words[1:]} phase"))
        self._begin_phase(st, events)

    def _begin_phase(self, st: State, events: list) -> None:
        st.battles, st.resolving, st.attacked = [], False, []
        st.side = self.phase_by_name[st.phase].side
        for u in st.units.values():
            u.moved = False
        self.forget(st)
        self._supply(st)

    # ------------------------------------------------------------ what the play window asks
    def units_to_act(self, st: State) -> set[str]:
        """The units some legal action names now (to move, attack, come in, retreat, advance)."""
        out: set[str] = set()
        for a in self.legal_actions(st):
            if isinstance(a, A.Declare):
                out.update(a.attackers)
            elif isinstance(a, (A.Move, A.Enter, A.Retreat, A.Advance)) and a.unit in self.units:
                out.add(a.unit)
        return out

    def why_idle(self, st: State, uid: str) -> IllegalAction | None:
        """Why a unit can do nothing now, with the scenario's rule and the phases that would allow it; None if it
        may act."""
        if uid not in self.units:
            return IllegalAction("", f"there is no unit {uid!r}")
        if st.over:
            return IllegalAction("", "the game is over")
        if uid in self.units_to_act(st):
            return None
        if st.pending:
            return IllegalAction(cite(self.cfg.retreat_rule), "a combat result waits for a decision first: "
                                 "make it on the map or in the battle panel")
        side = self.units[uid].side
        moves = [p.name for p in self.cfg.phases if p.side == side and "move" in p.does
                 and (not p.types or self.has(uid, p.types))]
        ph = self.phase(st)
        why = self.may_move(st, uid) if "move" in ph.does else None
        if why and ph.side == side and ": " in why:
            rule, _, msg = why.partition(": ")
            return IllegalAction(rule, msg)
        when = " and ".join(moves) or "no phase"
        return IllegalAction(cite(ph.rule), f"this is the {ph.name} phase: {uid} has nothing to do now; it moves "
                             f"in {when}")

    def guidance(self, st: State) -> str:
        """One line on what the phase (or the decision pending) asks of the player."""
        if st.over:
            return "The game is over."
        if st.pending:
            kind = st.pending[0]["kind"]
            return {"retreat": "Choose where the unit retreats: click a lit hex.",
                    "advance": "Advance after combat: drag a lit attacker into the empty hex, or choose none.",
                    "result": "Enter the printed chart's result for this battle."}[kind]
        ph = self.phase(st)
        name = self.scenario.sides[ph.side].name
        does = {"move": "moves its units", "attack": "announces battles, then resolves them",
                "reinforce": "brings its reinforcements onto the map", "special": "carries out the phase"}
        then = f"Next phase: {self.after_end(st)}."
        return (f"{name} " + " and ".join(does[d] for d in ph.does) + f"; {then}" if ph.does else
                f"{name} has nothing to do in this phase; {then}")

    def after_end(self, st: State) -> str:
        """What ending this phase leads to: the next phase of the sequence, or the next turn, or the game's end."""
        names = [p.name for p in self.cfg.phases]
        i = names.index(st.phase)
        if i + 1 < len(names):
            return f"{names[i + 1].replace('-', ' ')}"
        if st.turn >= self.scenario.last_turn:
            return f"turn {st.turn} ends and with it the game"
        return f"turn {st.turn + 1} begins with {names[0].replace('-', ' ')}"

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, st: State) -> list:
        if st.over:
            return []
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "result":
                return [A.EnterResult(r) for r in p["options"]]
            if p["kind"] == "retreat":
                return [A.Retreat(p["unit"], o) for o in p["options"]]
            return [A.Advance(o) for o in self._advance_options(st, p) if o != "wait"] + [A.Advance("none")]
        out: list = []
        ph = self.phase(st)
        if "reinforce" in ph.does or ("move" in ph.does and not self._has_reinforce_phase(ph.side)):
            for uid in self.order:
                if st.units[uid].status == DUE and self.units[uid].side == ph.side and \
                        (uid not in self.arrives or self.arrives[uid].turn <= st.turn):
                    out.extend(A.Enter(uid, self.map.hex_id(h)) for h in self.entry_hexes(st, uid))
        if "move" in ph.does:
            for uid in self.order:
                if self.may_move(st, uid) is None:
                    r = self.reach(st, uid)
                    frm = self.map.hex_id(r.start)
                    out.extend(A.Move(uid, self.map.hex_id(h), frm)
                               for h in sorted(r.destinations, key=lambda h: (h.q, h.r)))
        if "attack" in ph.does:
            if not (st.resolving and self.cfg.declare_first):
                out.extend(self.declarations(st))
            out.extend(A.Resolve(b.defender) for b in st.battles if not b.resolved)
        if not any(not b.resolved for b in st.battles):
            out.append(A.EndPhase())
        return out
