"""A baseline player for any scenario under the classic rules: legal, not random.

It heads for the hexes the victory conditions name (its own to take, the
enemy's to hold), attacks where the column is at least the middle of the
CRT, retreats away from the enemy, advances when it can and answers a blank
cell with ``NE`` when the results define it (it has no printed chart).  It
asks the rules for everything: legal actions, destinations, odds.
"""
from __future__ import annotations

from engine.maps.hexes import Hex, hex_distance

from ..demyansk import actions as A
from .state import ON_MAP


class ClassicBot:
    """Chooses one legal action at a time for one side."""

    def __init__(self, side: str, blank_answer: str = "NE"):
        self.side = side
        self.blank_answer = blank_answer
        self.blank_cells = 0

    def choose(self, rules, st):
        legal = rules.legal_actions(st)
        if st.pending:
            return self._answer(rules, st, legal)
        ph = rules.phase(st)
        targets = self._targets(rules, st)
        enters = [a for a in legal if isinstance(a, A.Enter)]
        if enters:
            unit = enters[0].unit
            return min((a for a in enters if a.unit == unit),
                       key=lambda a: (_nearest(rules.hex(a.to), targets), a.to))
        if "attack" in ph.does:
            fight = self._fight(rules, st, legal)
            if fight is not None:
                return fight
        if "move" in ph.does:
            move = self._move(rules, st, legal, targets)
            if move is not None:
                return move
        return A.EndPhase()

    # ------------------------------------------------------------ where to go
    def _targets(self, rules, st) -> list[Hex]:
        """The hexes of the victory conditions' areas (to take or to hold), else the enemy's units."""
        out: set[Hex] = set()
        victory = rules.scenario.victory
        for c in getattr(victory, "conditions", ()) if victory is not None else ():
            if c.kind == "occupy" and c.area:
                out |= rules.areas.hexes(c.area)
        if not out:
            out = {u.hex for uid, u in st.units.items() if u.status == ON_MAP and rules.units[uid].side != self.side}
        return sorted(out, key=lambda h: (h.q, h.r))

    def _move(self, rules, st, legal, targets):
        moves = [a for a in legal if isinstance(a, A.Move)]
        by_unit: dict[str, list] = {}
        for a in moves:
            by_unit.setdefault(a.unit, []).append(a)
        for uid, options in by_unit.items():
            here = st.units[uid].hex
            now = _nearest(here, targets)
            best = min(options, key=lambda a: (_nearest(rules.hex(a.to), targets), a.to))
            if _nearest(rules.hex(best.to), targets) < now:
                return best
        return None

    # ------------------------------------------------------------ combat
    def _fight(self, rules, st, legal):
        good = len(rules.cfg.columns) // 2 + 1          # the middle column or better
        best = None
        for a in legal:
            if isinstance(a, A.Declare):
                o = rules.odds(st, a.defender, a.attackers)
                key = (o.column, -len(a.attackers))
                if o.column >= good and (best is None or key > best[0]):
                    best = (key, a)
        if best is not None:
            return best[1]
        return next((a for a in legal if isinstance(a, A.Resolve)), None)

    def _answer(self, rules, st, legal):
        p = st.pending[0]
        if p["kind"] == "result":
            self.blank_cells += 1
            choice = next((a for a in legal if a.result == self.blank_answer), legal[0])
            return choice
        if p["kind"] == "retreat":
            enemies = [u.hex for uid, u in st.units.items()
                       if u.status == ON_MAP and rules.units[uid].side != rules.units[p["unit"]].side]

            def safety(a):
                if a.to == "off":
                    return (-1, a.to)
                return (min((hex_distance(rules.hex(a.to), e) for e in enemies), default=99), a.to)
            return max(legal, key=safety)
        advances = [a for a in legal if a.unit != "none"]
        return advances[0] if advances else A.Advance("none")


def _nearest(h: Hex, targets: list[Hex]) -> int:
    return min((hex_distance(h, t) for t in targets), default=0)


def side_to_act(st) -> str | None:
    """The side whose decision the game waits for: a pending choice's side, else the phase's; None at the end."""
    if st.over:
        return None
    return st.pending[0]["side"] if st.pending else st.side


def play_out(rules, game, bots: dict, max_actions: int = 100000) -> None:
    """Let players (bots, or functions from a state to an action) play a game to its end (or ``max_actions``)."""
    n = 0
    while not game.is_over() and n < max_actions:
        player = bots.get(side_to_act(game.state))
        if player is None:
            action = A.EndPhase()
        elif callable(player) and not hasattr(player, "choose"):
            action = player(game.state)
        else:
            action = player.choose(rules, game.state)
        game.play(action)
        n += 1


def bot_for(rules, side: str):
    """A function from a state to the baseline bot's next action for ``side``."""
    if side not in rules.sides:
        raise ValueError(f"this scenario has no side {side!r} (sides: {', '.join(rules.sides)})")
    player = ClassicBot(side)
    return lambda st: player.choose(rules, st)


def random_player(rules, seed: int):
    """A player choosing uniformly among the legal actions (its own generator, seeded): the invariant test's player."""
    import random

    rng = random.Random(seed)
    return lambda st: rng.choice(rules.legal_actions(st))
