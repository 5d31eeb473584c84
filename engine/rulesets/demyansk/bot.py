"""A baseline Demyansk player: legal, not random; attacks at good odds, garrisons and keeps the front, heads for its objectives.

It answers a blank CRT cell with ``blank_answer`` (default "NE") because a
bot has no printed chart (the game then remembers that answer for the cell);
callers report how often that happened, and may first answer from the
owner's chart (``play_out``'s ``charts``).
"""
from __future__ import annotations

import copy

from ...charts import ChartAnswer
from ...computer import chooser
from ...errors import IllegalAction
from engine.maps.hexes import Hex, hex_distance
from . import actions as A
from .combat import check_declaration
from .movement import may_move_now, reach
from .state import DUE, ON_MAP, State
from .supply import continuous_front, linked_to_west, pocket_linked
from .units import GERMAN, SOVIET, enemy_of
from .zoc import side_hexes


BOT_OPTIONS = {"min_column": int, "blank_answer": str}     # DemyanskBot's options, as a saved game records them


class DemyanskBot:
    """Chooses one legal action at a time for one side."""

    def __init__(self, side: str, min_column: int = 3, blank_answer: str = "NE"):
        self.side = side
        self.min_column = min_column
        self.blank_answer = blank_answer
        self.blank_cells = 0
        self._done: set[str] = set()
        self._phase_key = None

    def fork(self) -> "DemyanskBot":
        """A copy with a memory of its own: it may choose in another thread, and be kept only if its choice is
        played, without the original having seen a choice that was dropped."""
        twin = copy.copy(self)
        twin._done = set(self._done)
        return twin

    # ------------------------------------------------------------ entry point
    def choose(self, rules, st: State):
        key = (st.turn, st.phase)
        if key != self._phase_key:
            self._phase_key, self._done = key, set()
        if st.pending:
            return self._answer(rules, st)
        ph = st.phase
        if ph.endswith("setup"):
            return self._set_up(rules, st)
        if ph.endswith("reinforcement"):
            return self._arrive(rules, st) or A.EndPhase()
        if ph.endswith("combat"):
            return self._fight(rules, st) or A.EndPhase()
        return self._move(rules, st) or self._fill_garrison(rules, st) or A.EndPhase()

    def _fill_garrison(self, rules, st: State):
        """Demyansk 6.2, before ending the German movement phase: while the engine says a fortification left
        empty could still be held, the first legal move into an empty one (the greedy garrison of
        ``_german_duties`` can miss a unit the engine's largest garrison counts on); None when the end is legal."""
        if self.side != GERMAN or st.phase != "german-movement" or not rules.garrison_shortfall(st):
            return None
        from .garrison import forts_to_hold
        occupied = {u.hex for u in st.units.values() if u.status == ON_MAP}
        empty = set(forts_to_hold(rules, st)) - occupied
        for a in rules.legal_actions(st):
            if isinstance(a, A.Move) and rules.hex(a.to) in empty:
                self._done.add(a.unit)
                self.last_reason = f"garrisons the fortification {a.to} (6.2)"
                return a
        return None

    # ------------------------------------------------------------ set-up by the player
    def _set_up(self, rules, st: State):
        """A free hex of the unit's areas, hexes a set-up rule asks for first; the last unit where the set-up passes."""
        places = [a for a in rules.legal_actions(st) if isinstance(a, A.Place)]
        if not places:
            return A.EndPhase()
        wanted = self._wanted_hexes(rules)
        first = places[0].unit
        places.sort(key=lambda a: (a.unit != first, rules.hex(a.to) not in wanted))
        unit = places[0].unit
        mine = [a for a in places if a.unit == unit]
        if len({a.unit for a in places}) > 1:
            return mine[0]
        for a in mine:                       # the side's last unit: a hex with which the set-up may end
            after, _ = rules.apply(st, a)
            if any(isinstance(x, A.EndPhase) for x in rules.legal_actions(after)):
                return a
        return mine[0]

    def _wanted_hexes(self, rules) -> set:
        scenario = getattr(rules, "scenario", None)
        if scenario is None:
            return set()
        from ...scenario import AreaContext

        ctx = AreaContext(rules.board)
        out: set = set()
        for r in scenario.setup_rules:
            if r.select.side in ("", self.side) and (r.kind != "count" or r.min):
                out |= ctx.hexes(r.area)
        return out

    # ------------------------------------------------------------ pending choices
    def _answer(self, rules, st: State):
        p = st.pending[0]
        if p["kind"] == "result":
            self.blank_cells += 1
            prompt = rules.chart_prompt(st)
            return ChartAnswer(prompt.slot, prompt.key, self.blank_answer)
        if p["kind"] == "retreat":
            enemies = [st.units[u].hex for u in st.units if st.units[u].status == ON_MAP
                       and rules.specs[u].side != rules.specs[p["unit"]].side]
            def safety(o):
                if o == "off":
                    return (-1, o)
                h = rules.board.parse_hex(o)
                return (min((hex_distance(h, e) for e in enemies), default=99), o)
            return A.Retreat(p["unit"], max(p["options"], key=safety))
        for option in p["options"]:
            move = A.Advance(option)
            if option == "none" or self._keeps_line(rules, st, move):
                return move
        return A.Advance("none")

    # ------------------------------------------------------------ objectives
    def _targets(self, rules, st: State) -> list[Hex]:
        """Where this side's units head: Germans for the pocket, Soviets for the nearest Germans."""
        if self.side == GERMAN:
            pocket = [st.units[u].hex for u in rules.pocket_units if st.units[u].status == ON_MAP]
            return pocket or sorted(side_hexes(rules, st, SOVIET))
        return sorted(side_hexes(rules, st, GERMAN))

    # ------------------------------------------------------------ reinforcements
    def _arrive(self, rules, st: State):
        targets = self._targets(rules, st)
        for a in rules.legal_actions(st):
            if isinstance(a, A.Drop):
                continue
            if isinstance(a, A.Enter) and a.unit not in self._done:
                self._done.add(a.unit)
                options = [x for x in rules.legal_actions(st) if isinstance(x, A.Enter) and x.unit == a.unit]
                return min(options, key=lambda x: (_nearest(rules.board.parse_hex(x.to), targets), x.to))
        return None

    # ------------------------------------------------------------ combat
    def _fight(self, rules, st: State):
        if not st.resolving:
            declared = self._declare(rules, st)
            if declared:
                return declared
        for b in st.battles:
            if not b.resolved:
                return A.Resolve(b.defender)
        return None

    def _declare(self, rules, st: State):
        taken = {a for b in st.battles for a in b.attackers}
        attacked = {b.defender for b in st.battles}
        mine = {u.hex: uid for uid, u in st.units.items() if u.status == ON_MAP and rules.specs[uid].side == self.side
                and uid not in taken and rules.specs[uid].attack > 0}
        best = None
        for d in rules.order:
            u = st.units[d]
            if u.status != ON_MAP or rules.specs[d].side == self.side or d in attacked:
                continue
            group = tuple(mine[h] for h in (u.hex, *rules.map.neighbors[u.hex]) if h in mine)
            if not group:
                continue
            try:
                odds = check_declaration(rules, st, d, group)
            except IllegalAction:
                continue
            must = any(st.units[a].landed_on == d for a in group)
            if odds.column >= self.min_column or must:
                score = (must, odds.column, -len(group))
                if best is None or score > best[0]:
                    best = (score, A.Declare(d, group))
        return best[1] if best else None

    # ------------------------------------------------------------ movement
    def _movers(self, rules, st: State):
        """This side's units not yet handled this phase that may move now, garrisons of the pocket's forts left
        out (6.2); each is marked handled as it is offered."""
        for uid in rules.order:
            if uid in self._done or rules.specs[uid].side != self.side:
                continue
            self._done.add(uid)
            if may_move_now(rules, st, uid):
                continue
            if st.units[uid].hex in rules.map.forts and uid in rules.pocket_units:
                continue                                    # 6.2: garrisons stay
            yield uid

    def _german_duties(self, rules, st: State):
        """What the German must see to before any other move: withdrawals due, forts to garrison, a broken front."""
        if rules.withdrawals:
            for uid in rules.order:
                wt = rules.specs[uid].withdraw_turn
                if wt is not None and st.turn >= wt - 1 and st.units[uid].status == ON_MAP:
                    try:
                        rules.apply(st, A.Withdraw(uid))
                    except IllegalAction:
                        continue
                    return A.Withdraw(uid)
        garrison = self._garrison(rules, st)
        if garrison:
            return garrison
        if st.phase == "german-movement" and not continuous_front(rules, st):
            return self._mend_front(rules, st)
        return None

    def _move(self, rules, st: State):
        if self.side == GERMAN:
            duty = self._german_duties(rules, st)
            if duty:
                return duty
        targets = self._targets(rules, st)
        enemy = side_hexes(rules, st, enemy_of(self.side))
        for uid in self._movers(rules, st):
            u = st.units[uid]
            if any(n in enemy for n in rules.map.neighbors[u.hex]):
                continue                                    # holds the line
            r = reach(rules, st, uid)
            if not r.destinations:
                continue
            here = _nearest(u.hex, targets)
            dest = min(r.destinations, key=lambda h: (_nearest(h, targets), r.destinations[h], h))
            if _nearest(dest, targets) >= here:
                continue
            if self.side == GERMAN and uid in rules.pocket_units and not linked_to_west(rules, st, u.hex):
                continue                                    # the pocket holds; the relief comes to it
            move = A.Move(uid, rules.map.hex_id(dest), rules.map.hex_id(u.hex))
            if not self._keeps_line(rules, st, move):
                continue                                    # never open the front or the ring
            return move
        return None

    def _mend_front(self, rules, st: State):
        """7.3: the first move that makes the front continuous again, if one unit can.

        Only a destination whose new zone of control touches both the part of the front joined to the north
        edge and the part joined to the south edge can mend it (moving a unit away only shrinks those parts),
        so the others are not tried: the move found is the same, found sooner.
        """
        north, south, soviet = _front_parts(rules, st)
        nb = rules.map.neighbors
        known: dict = {}                     # many units reach the same hexes: each is judged once

        def may_mend(h) -> bool:
            got = known.get(h)
            if got is None:
                blob = {x for x in (h, *nb[h]) if x not in soviet}
                near = blob.union(*(nb[x] for x in blob))
                got = known[h] = bool(near & north) and bool(near & south)
            return got

        for uid in rules.order:
            u = st.units[uid]
            if (rules.specs[uid].side != GERMAN or u.status != ON_MAP or uid in rules.pocket_units
                    or u.hex in rules.map.forts or may_move_now(rules, st, uid)):
                continue
            r = reach(rules, st, uid)
            for h in sorted(r.destinations, key=lambda h: (r.destinations[h], h)):
                if not may_mend(h):
                    continue
                move = A.Move(uid, rules.map.hex_id(h), rules.map.hex_id(u.hex))
                after, _ = rules.apply(st, move)
                if continuous_front(rules, after) and not rules.garrison_shortfall(after):
                    self._done.add(uid)
                    return move
        return None

    def _keeps_line(self, rules, st: State, move) -> bool:
        """German: the move keeps a continuous front (7.3); Soviet: it keeps the pocket cut off (7.2).  A move the
        engine refuses (6.2: a unit the garrison needs) keeps nothing: False, whether or not the line holds now."""
        try:
            after, _ = rules.apply(st, move)
        except IllegalAction:
            return False
        if self.side == GERMAN:
            return not continuous_front(rules, st) or continuous_front(rules, after)
        return pocket_linked(rules, st) or not pocket_linked(rules, after)

    def _garrison(self, rules, st: State):
        lost = set(st.forts_lost)
        occupied = {u.hex for u in st.units.values() if u.status == ON_MAP}
        empty = [f for f in sorted(rules.map.forts) if f not in lost and f not in occupied]
        if not empty:
            return None
        for uid in rules.order:
            u = st.units[uid]
            if rules.specs[uid].side != GERMAN or u.status != ON_MAP or u.hex in rules.map.forts:
                continue
            near = [f for f in empty if hex_distance(u.hex, f) <= rules.specs[uid].movement]
            if not near or may_move_now(rules, st, uid):
                continue
            dest = reach(rules, st, uid).destinations
            for f in near:
                if f in dest:
                    self._done.add(uid)
                    return A.Move(uid, rules.map.hex_id(f), rules.map.hex_id(u.hex))
        return None


def _front_parts(rules, st: State) -> tuple[set, set, set]:
    """7.3: the hexes held by German units or their zone of control that join the north edge, those that join
    the south edge (each with the edge's own hexes, held or not), and the Soviet-held hexes."""
    from collections import deque

    from .zoc import zoc

    soviet = side_hexes(rules, st, SOVIET)
    held = (side_hexes(rules, st, GERMAN) | zoc(rules, st, GERMAN)) - soviet
    nb = rules.map.neighbors
    parts = []
    for edge in ("north", "south"):
        start = {h for h in rules.map.edges[edge] if h in held}
        seen = set(start)
        todo = deque(start)
        while todo:
            h = todo.popleft()
            for n in nb[h]:
                if n in held and n not in seen:
                    seen.add(n)
                    todo.append(n)
        parts.append(seen | set(rules.map.edges[edge]))
    return parts[0], parts[1], soviet


def _nearest(h: Hex, targets: list[Hex]) -> int:
    return min((hex_distance(h, t) for t in targets), default=0)


def side_to_act(st: State) -> str | None:
    """The side whose decision the game waits for: a pending choice's side, else the phase's side (3.0); None at the end."""
    if st.pending:
        return st.pending[0]["side"]
    side = st.phase.split("-")[0]
    return side if side in (GERMAN, SOVIET) else None


def play_out(rules, game, bots: dict, max_actions: int = 200000, charts=None) -> None:
    """Let bots play a game to its end (or to ``max_actions``); ``charts`` (an ``engine.charts.ChartKeeper``)
    answers blank cells from the owner's chart before a bot is asked."""
    n = 0
    while not game.is_over() and n < max_actions:
        if charts is not None:
            n += len(charts.play_known(game))
            if game.is_over():
                break
        st = game.state
        side = st.pending[0]["side"] if st.pending else (GERMAN if st.phase.startswith("german") else SOVIET)
        bot = bots.get(side)
        action = bot.choose(rules, st) if bot else A.EndPhase()
        game.play(action)
        n += 1


def bot_for(rules, side: str, **options):
    """A function from a state to the baseline bot's next action for ``side`` (one bot, keeping its memory);
    ``options`` are DemyanskBot's (``BOT_OPTIONS``)."""
    if side not in (GERMAN, SOVIET):
        raise ValueError(f"Demyansk has no side {side!r}")
    unknown = set(options) - set(BOT_OPTIONS)
    if unknown:
        raise ValueError(f"the Demyansk bot has no option {', '.join(sorted(unknown))}")
    return chooser(rules, DemyanskBot(side, **options))
