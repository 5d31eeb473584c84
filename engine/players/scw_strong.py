"""The strong skirmish players (the SCW platoon skirmish): they plan with the engine itself.

How they decide (docs/bots.md, "The skirmish's players", says the same in words):

* **What is left to decide.**  The defenders' guns are played by the rules' own procedure (SCW Contact 4,
  ``engine/rulesets/scw/enemy.py``): no player touches them.  The defender decides only where the cards are
  laid when the scenario says ``cards = "player"`` (SCW Scenario 2); the attacker gives every order.
* **Simulated games.**  A decision is weighed by playing the game on from it many times with the engine,
  the defender's set-up then by its baseline (``engine/rulesets/scw/bot.py``), the attacker by its rule of
  thumb (``paced_move``).  A simulation works on a copy of the state whose generator is seeded anew from
  what the attacking player can see (the positions, figures, Bravado, turn: ``ScwRules.view``), never from
  the game's own generator, and whose face-down cards are dealt anew from what is known of them (how many
  are still face down, the faces already turned, and SCW Scenario 2's deal: one picture card and five from
  the rest of the pack); so neither player peeks at the cards or the dice, has any chance of its own, or
  moves the real game's dice.  The n-th simulation of every candidate starts from the same deal and the
  same dice (common random numbers), so candidates are compared on the same luck.
* **The value of a simulated game**, to the attacker: 1 for taking every gun, 0 for a broken attack, plus a
  little (at most 0.2) for the share of its figures still standing and of the guns taken, so that among
  lost games the better ones count; the defender's is the same subtracted from 1.2.
* **The attacker** starts from a rule of thumb the engine found (``paced_move``: one team bounds a turn).
  Where a key order is open (a pending choice, a charge, LMG fire, grenades, covering fire, a rally,
  leaving cover) it lists candidate orders: the rule of thumb's first, every key order, ending the turn,
  cover for a team in a cone or within grenade range, and per team at most three moves (the full move
  towards the nearest gun or card, towards the nearest face-down card, and the full move turned least from
  that heading whose path touches no gun's cone as it is laid now).  They share ``rollouts`` simulations by
  successive halving (a few each, the better half kept, more each; the rule of thumb's order kept to the
  end); it leaves the rule of thumb only for an order whose mean value is better by more than ``SURE``
  standard errors.  Other orders are the rule of thumb's (``every_order`` simulates them too).
* **The defender** starts from the deepest legal layout of the cards still in hand (SCW Scenario 2's
  crowding; the farthest from the attackers' base line on the whole, the rulebook's "defence in depth"),
  and sets it against the next deepest and the automatic procedure's layout in ``setup_rollouts``
  simulated attacks by the baseline attacker, by successive halving; it lays another layout only when it
  held surely better, one card a decision.

Each decision leaves one line in ``last_reason`` ("T2 takes cover: 9 of 12 simulated games won (75 %); the
next best 50 % of 12 (T2 presses on)").  The number of simulations is capped, not the clock, so a game is
the same on any machine; ``budget`` (seconds a decision) adds a clock and ``cancel`` (asked between two
simulations) stops the thinking: the rule of thumb's choice is played unless something was surely better.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import marshal
import math
import time

from ..computer import chooser
from ..errors import IllegalAction
from ..game import next_die, seed_rng
from ..maps.table import distance
from ..rulesets.scw.actions import EndTurn, Move, Order, Place
from ..rulesets.scw.bot import attacker_move, automatic_layout, defender_move
from ..rulesets.scw.enemy import active_guns, gun_cone

STRONG_OPTIONS = {"budget": float, "rollouts": int, "setup_rollouts": int, "candidates": int, "layouts": int,
                  "every_order": bool}

SIDES = ("attacker", "defender")
SHAPE = 0.1              # the value of a simulated game: + this much for the figures left, as much for the guns taken
MAX_ORDERS = 600         # a simulated game that runs longer is stopped and valued as it stands
SIDESTEP_ANGLES = (20, -20, 40, -40, 60, -60, 80, -80)
SIM_SALT = 0x51_4D_5C_A7_0F_F1_CE_5D
KEY_ORDERS = ("press-on", "bayonet", "assault", "fire", "grenade", "cover", "rally", "leave")
RULE_OF_THUMB = {"move": "one team bounds a turn, towards the nearest gun or card",
                 "end": "one team has bounded this turn; the others keep out of the guns' sight",
                 "take-cover": "in cover within grenade range of a gun", "place": "the automatic procedure's place"}
SURE = 1.0               # the attacker leaves its rule of thumb only for an order this many standard errors better


# ---------------------------------------------------------------- simulations
def _copy(state: dict) -> dict:
    """A deep copy of a plain-data state (marshal is several times quicker than ``copy.deepcopy`` here)."""
    return marshal.loads(marshal.dumps(state))


def seen_seed(rules, state: dict) -> int:
    """A 64-bit seed from what the attacking player sees of the state (``ScwRules.view``: no generator, no
    face of a face-down card): the simulations' dice and deals come from it."""
    v = rules.view(state)
    v.pop("hand_dice", None)
    text = json.dumps(v, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def _picture_odds(rules, hand: int, shown_pictures: int, shown_blanks: int) -> list[tuple[int, float]]:
    """How many of the face-down cards are picture cards, with the chance of each, from SCW Scenario 2's deal
    (one picture card, then ``drawn`` cards from the other 51 of the pack, 11 of them pictures) and the faces
    already turned: [(pictures still face down, probability)]."""
    drawn = rules.t["cards"]["drawn"]
    rest, rest_pictures = 51, 11
    hidden = hand - shown_pictures - shown_blanks
    weights = []
    for total in range(1, hand + 1):
        k = total - 1                                       # pictures among the drawn cards
        if k > drawn:
            break
        prior = math.comb(rest_pictures, k) * math.comb(rest - rest_pictures, drawn - k) / math.comb(rest, drawn)
        face_down = total - shown_pictures
        if not 0 <= face_down <= hidden:
            continue
        # the turned cards show exactly these faces when the pictures lie anywhere among the hand's cards
        likelihood = math.comb(hidden, face_down) / math.comb(hand, total)
        weights.append((face_down, prior * likelihood))
    whole = sum(w for _, w in weights) or 1.0
    return [(n, w / whole) for n, w in weights]


def deal_anew(rules, state: dict, seed: int) -> dict:
    """A copy of ``state`` for a simulation: its own generator seeded with ``seed``, no dice typed in, and the
    face-down cards dealt anew from what is known of them (``_picture_odds``)."""
    s = _copy(state)
    rng = seed_rng(seed)
    s["rng"] = rng
    s["hand_dice"] = []
    cards = [c for _, c in sorted(s["cards"].items())]
    hidden = [c for c in cards if not c["revealed"]]
    if hidden:
        shown = [c for c in cards if c["revealed"]]
        odds = _picture_odds(rules, len(cards), sum(1 for c in shown if c["picture"]),
                             sum(1 for c in shown if not c["picture"]))
        face, rng = next_die(rng, 1 << 20)
        u, pictures = (face - 1) / float(1 << 20), odds[-1][0] if odds else 0
        for n, p in odds:
            if u < p:
                pictures = n
                break
            u -= p
        order = list(range(len(hidden)))
        for i in range(len(order) - 1, 0, -1):           # which of them: a Fisher-Yates shuffle
            j, rng = next_die(rng, i + 1)
            order[i], order[j - 1] = order[j - 1], order[i]
        for rank, i in enumerate(order):
            picture = rank < pictures
            hidden[i]["picture"] = picture
            hidden[i]["face"] = "QS" if picture else "5S"
    return s


def paced_move(rules, state: dict) -> Order:
    """The attacker's rule of thumb the strong player starts from: the baseline's priorities (charges,
    rallies, grenades, LMG fire, covering fire, cover near a gun), but one team moves a turn: once a team has
    moved, the turn ends unless a charge, rally, grenade or LMG fire is open.  Every gun swings to the
    nearest team that moves or has moved this turn (SCW Contact 4), and a move even out of every cone loses a
    figure on an odd double (SCW Advance 1): one team bounding at a time keeps the others out of the fire and
    spends fewer moves on the way (over 300 seeded games of the platoon attack the baseline attacker takes the
    position 23 % of the time, this one 37 %)."""
    action = attacker_move(rules, state)
    if action.verb == "move" and state["moving"] and not state["pending"]:
        return EndTurn()
    return action


def play_on(rules, state: dict, attacker=paced_move) -> dict:
    """Play a simulation's state on to the end (or ``MAX_ORDERS``) in place: the defender's set-up by its
    baseline, the attacker by ``attacker`` (a function of the rules and the state)."""
    for _ in range(MAX_ORDERS):
        if state["outcome"] is not None:
            break
        if state["phase"] == "setup":
            action = defender_move(rules, state)
        else:
            action = attacker(rules, state)
        rules.apply_in_place(state, action)
    return state


def attacker_value(state: dict) -> float:
    """What a finished (or stopped) simulated game is worth to the attacker: 1 for a win, plus up to ``SHAPE``
    for the share of its figures still standing and as much for the share of the guns taken."""
    won = 1.0 if state["outcome"] and state["outcome"]["winner"] == "attacker" else 0.0
    figures = sum(t["figures"] for t in state["teams"].values() if t["alive"])
    guns = state["guns"].values()
    taken = sum(1 for g in guns if g["captured"]) / len(guns) if guns else 0.0
    return won + SHAPE * figures / max(1, state["start_figures"]) + SHAPE * taken


def _surely_better(a: list, b: list) -> bool:
    """Whether candidate ``a``'s simulations beat ``b``'s by more than ``SURE`` standard errors of the
    difference of their means (each [sum, count, wins, sum of squares])."""
    def mean_var(x):
        s, n, _, sq = x
        m = s / n
        return m, max(sq / n - m * m, 1e-6) / n

    ma, va = mean_var(a)
    mb, vb = mean_var(b)
    return ma - mb > SURE * math.sqrt(va + vb)


def value_for(side: str, state: dict) -> float:
    v = attacker_value(state)
    return v if side == "attacker" else 1.0 + 2 * SHAPE - v


# ---------------------------------------------------------------- the player

def _dealer(rules, state: dict):
    """The ``j``-th copy of ``state`` to simulate on, as a function of ``j``: the face-down cards dealt anew and
    the dice seeded from what the attacker sees (``deal_anew``), each deal worked out once and copied afresh."""
    base = seen_seed(rules, state) ^ SIM_SALT
    deals: dict = {}

    def deal(j: int) -> dict:
        if j not in deals:
            deals[j] = marshal.dumps(deal_anew(rules, state, (base + j * 0x9E3779B97F4A7C15) & (2**64 - 1)))
        return marshal.loads(deals[j])
    return deal

class StrongScw:
    """Chooses one legal decision at a time for one side of the skirmish, by simulated games (see the module)."""

    def __init__(self, side: str, budget: float = 0.0, rollouts: int = 24, setup_rollouts: int = 64,
                 candidates: int = 12, layouts: int = 8, every_order: bool = False, cancel=None):
        if side not in SIDES:
            raise ValueError(f"the skirmish has no side {side!r} (sides: {', '.join(SIDES)})")
        self.side = side
        self.budget = float(budget)              # seconds a decision (0: no clock, the simulations' number only)
        self.rollouts = max(1, int(rollouts))    # simulated games an attacker's decision
        self.setup_rollouts = max(1, int(setup_rollouts))   # simulated attacks to choose where the cards lie
        self.candidates = max(1, int(candidates))
        self.layouts = max(1, int(layouts))
        self.every_order = bool(every_order)     # simulate every order, not only where a key order is open
        self.cancel = cancel or (lambda: False)  # asked between two simulations: True stops the thinking
        self.last_reason = ""
        self.last_simulations = 0                # simulated games behind the last decision
        self._layout: dict = {}                  # the defender's planned layout: card -> position

    def fork(self) -> "StrongScw":
        twin = StrongScw(self.side, self.budget, self.rollouts, self.setup_rollouts, self.candidates, self.layouts,
                         self.every_order, self.cancel)
        twin._layout = dict(self._layout)
        return twin

    # ------------------------------------------------------------ entry point
    def choose(self, rules, state: dict) -> Order:
        self.last_reason = ""
        self.last_simulations = 0
        legal = rules.legal_actions(state)
        if not legal:
            raise ValueError("the game is over")
        if state["phase"] == "setup":
            return self._place(rules, state, legal)
        if len(legal) == 1:
            self.last_reason = "the only order open"
            return legal[0]
        return self._order(rules, state, legal)

    def _stop(self, start: float) -> bool:
        return bool(self.cancel()) or (self.budget > 0 and time.perf_counter() - start > self.budget)

    def _halving(self, start: float, n: int, total: int, simulate, keep_first: bool = False) -> tuple[list[list],
                                                                                                        list[int]]:
        """Successive halving over ``n`` candidates sharing ``total`` simulations: each round gives every
        candidate still in the running the same number more (the j-th simulation of each from the same luck),
        then keeps the better half (and candidate 0 with ``keep_first``).  ``simulate(i, j)`` is candidate i's
        j-th simulated value.  Returns each candidate's [sum of values, simulations, games won, sum of squared
        values] and the candidates still in the running; stops early on ``cancel`` or the budget."""
        stats = [[0.0, 0, 0, 0.0] for _ in range(n)]
        alive = list(range(n))
        rounds = max(1, math.ceil(math.log2(n))) if n > 1 else 1
        per_round = max(1, total // rounds)
        while alive:
            more = max(2, per_round // len(alive))
            for i in alive:
                for _ in range(more):
                    if self._stop(start):
                        return stats, alive
                    j = stats[i][1]
                    value = simulate(i, j)
                    stats[i][0] += value
                    stats[i][1] += 1
                    stats[i][2] += value >= 1.0          # the side won that game (value_for)
                    stats[i][3] += value * value
                    self.last_simulations += 1
            if len(alive) <= 2:
                break                            # the last round: these are compared as they stand
            alive.sort(key=lambda i: (-stats[i][0] / stats[i][1], i))
            keep = alive[:(len(alive) + 1) // 2]
            if keep_first and 0 in alive and 0 not in keep:
                keep.append(0)                   # the rule of thumb's choice stays in the running to the end
            if len(keep) >= len(alive):
                break                            # no fewer left (three, the first kept): compared as they stand
            alive = keep
        return stats, alive

    @staticmethod
    def _best(stats: list[list], alive: list[int]) -> list[int]:
        """Candidates best first: those still in the running by their mean value, then the others, the last
        dropped first (the most simulated) and by their mean value, candidates never simulated last."""
        def key(i):
            s, n = stats[i][0], stats[i][1]
            return (n == 0, i not in alive, 0 if i in alive else -n, -(s / n) if n else 0.0, i)

        return sorted(range(len(stats)), key=key)

    # ------------------------------------------------------------ the attacker's orders
    def _order(self, rules, state: dict, legal: list) -> Order:
        start = time.perf_counter()
        if not self.every_order and not any(a.verb in KEY_ORDERS for a in legal):
            first = paced_move(rules, state)
            self.last_reason = f"{describe(state, first)}: {RULE_OF_THUMB.get(first.verb, 'the rule of thumb')}"
            return first
        cands, notes = self.candidates_for(rules, state, legal)
        if len(cands) == 1:
            self.last_reason = f"{describe(state, cands[0], notes.get(cands[0], ''))}: the only sensible order"
            return cands[0]
        deal = _dealer(rules, state)

        def simulate(i: int, j: int) -> float:
            s = deal(j)
            try:
                rules.apply_in_place(s, cands[i])
            except IllegalAction:
                return -1.0                      # never chosen: the order is refused in this deal
            return value_for(self.side, play_on(rules, s))

        stats, alive = self._halving(start, len(cands), self.rollouts, simulate, keep_first=True)
        ranked = self._best(stats, alive)
        best = ranked[0]
        if stats[best][1] == 0 or stats[0][1] == 0:
            self.last_reason = f"{describe(state, cands[0], notes.get(cands[0], ''))}: no time to think"
            return cands[0]
        if best != 0 and not _surely_better(stats[best], stats[0]):
            ranked.remove(0)
            ranked.insert(0, 0)
            best = 0
        self.last_reason = self._why(state, cands, notes, stats, ranked)
        return cands[best]

    def _why(self, state, cands, notes, stats, ranked) -> str:
        """The reason line: the order, how its simulated games went, and the best other order's."""
        best = ranked[0]
        words = describe(state, cands[best], notes.get(cands[best], ""))
        _, n, won, _ = stats[best]
        line = f"{words}: {won} of {n} simulated games won ({100 * won / n:.0f} %)"
        others = sorted((i for i in ranked[1:] if stats[i][1]),
                        key=lambda i: (-stats[i][1], -stats[i][0] / stats[i][1], i))
        if others:
            o = others[0]
            _, n2, won2, _ = stats[o]
            doubt = best == 0 and stats[o][0] / n2 > stats[0][0] / n
            line += (f"; {'none surely better, the best other' if doubt else 'the next best'} {100 * won2 / n2:.0f} % "
                     f"of {n2} ({describe(state, cands[o], notes.get(cands[o], ''))})")
        return line

    def candidates_for(self, rules, state: dict, legal: list) -> tuple[list[Order], dict]:
        """The orders worth simulating now, the rule of thumb's choice first, at most ``candidates``; with a few
        words on the moves that are not plain (an order -> its note)."""
        first = paced_move(rules, state)
        if state["pending"]:
            return [first] + [a for a in legal if a != first], {}
        out: list[Order] = [first]
        notes: dict = {}

        def add(a, note=""):
            if a not in out:
                out.append(a)
                if note:
                    notes[a] = note

        reach = rules.t["ranges"]["grenade"]
        guns = [g for g in state["guns"].values() if not g["captured"] and not g["silenced"]]
        cones = [gun_cone(g) for g in active_guns(state)]
        for a in legal:
            if a.verb in ("assault", "fire", "grenade", "cover", "rally", "leave", "end"):
                add(a)
            elif a.verb == "take-cover":
                t = state["teams"][a.team]
                if (any(c.dwithin(_point(t["at"]), rules.radius) for c in cones)
                        or any(distance(t["at"], g["at"]) <= reach for g in guns)):
                    add(a)
        moves: dict[str, list[Move]] = {}
        for a in legal:
            if isinstance(a, Move):
                moves.setdefault(a.team, []).append(a)
        goals = _goals(state)
        cards = [tuple(c["front"]) for _, c in sorted(state["cards"].items()) if not c["revealed"] and c["front"]]
        for tid, ms in sorted(moves.items()):
            t = state["teams"][tid]
            towards = min(ms, key=lambda m: (_nearest((m.x, m.y), goals), m.text())) if goals else ms[0]
            add(towards)
            if cards:
                add(min(ms, key=lambda m: (_nearest((m.x, m.y), cards), m.text())))
            side = _sidestep(rules, state, t, (towards.x, towards.y), cones)
            if side is not None:
                add(side, "out of the cones")
        return out[:self.candidates], notes

    # ------------------------------------------------------------ the defender's set-up
    def _place(self, rules, state: dict, legal: list) -> Order:
        waiting = [cid for cid, c in sorted(state["cards"].items()) if c["position"] is None]
        laid = {cid: c["position"] for cid, c in state["cards"].items() if c["position"]}
        planned = self._layout
        if not planned or any(planned.get(cid) != pos for cid, pos in laid.items()) or \
                any(cid not in planned for cid in waiting):
            self._layout = planned = self.plan_layout(rules, state)
        want = Place(waiting[0], planned[waiting[0]])
        if want in legal:
            if not self.last_reason:
                self.last_reason = f"lays {want.card} at {want.position}, as planned"
            return want
        self._layout = {}
        self.last_reason = "the planned layout is no longer open: the automatic procedure's place"
        return defender_move(rules, state)

    def layouts_for(self, rules, state: dict) -> list[tuple[str, ...]]:
        """The ways to lay the cards still in hand, by the rules (SCW Scenario 2): the deepest first (the
        farthest from the attackers' base line on the whole), then the next deepest, the automatic procedure's
        layout and others spread over the rest; at most ``layouts``."""
        waiting = [cid for cid, c in sorted(state["cards"].items()) if c["position"] is None]
        taken = [c["position"] for c in state["cards"].values() if c["position"]]
        names = sorted(loc.name for loc in rules.table.locations_of_kind(rules.scenario.position_kind)
                       if loc.name not in taken)
        line = rules.table.lines[rules.scenario.baseline]
        depth = {n: _distance_to_line(rules.table.location(n).at, line) for n in names}
        legal = [combo for combo in itertools.combinations(names, len(waiting))
                 if not rules.crowded(taken + list(combo))]
        legal.sort(key=lambda combo: (-sum(depth[n] for n in combo), combo))
        deep = max(1, self.layouts // 2)
        out = list(legal[:deep])
        auto = tuple(sorted(automatic_layout(rules, state)))
        if len(auto) == len(waiting) and auto not in out:
            out.append(auto)
        rest = legal[deep:]
        want = self.layouts - len(out)
        if rest and want > 0:
            step = len(rest) / want
            out += [rest[int(k * step)] for k in range(want) if rest[int(k * step)] not in out]
        return out[:self.layouts] or legal[:1]

    def plan_layout(self, rules, state: dict) -> dict:
        """The layout of the cards still in hand that the simulated attacks did worst against: card -> position."""
        start = time.perf_counter()
        waiting = [cid for cid, c in sorted(state["cards"].items()) if c["position"] is None]
        options = self.layouts_for(rules, state)
        if not options:
            return {}
        deal = _dealer(rules, state)

        def simulate(i: int, j: int) -> float:
            s = deal(j)
            for cid, pos in zip(waiting, options[i]):
                rules.apply_in_place(s, Place(cid, pos))
            return value_for(self.side, play_on(rules, s, attacker_move))

        stats, alive = self._halving(start, len(options), self.setup_rollouts, simulate, keep_first=True)
        ranked = self._best(stats, alive)
        best = ranked[0]
        if best != 0 and (not stats[0][1] or not _surely_better(stats[best], stats[0])):
            best = 0                             # nothing surely better than the deepest layout
        layout = dict(zip(waiting, options[best]))
        if stats[best][1]:
            _, n, held, _ = stats[best]
            if best == 0:
                self.last_reason = (f"lays the cards at {', '.join(options[best])}, the deepest layout the rules "
                                    f"allow (defence in depth): held {held} of {n} simulated attacks "
                                    f"({100 * held / n:.0f} %), none of {len(options) - 1} others surely better")
            else:
                self.last_reason = (f"lays the cards at {', '.join(options[best])}: the best of {len(options)} "
                                    f"layouts, held {held} of {n} simulated attacks ({100 * held / n:.0f} %; the "
                                    f"deepest layout {100 * stats[0][2] / stats[0][1]:.0f} % of {stats[0][1]})")
        else:
            self.last_reason = "no time to think: the deepest layout the rules allow (defence in depth)"
        return layout


# ---------------------------------------------------------------- geometry and words
def _point(at):
    from shapely.geometry import Point

    return Point(at)


def _goals(state: dict) -> list[tuple[float, float]]:
    """What the attack heads for: the guns not yet taken, else the face-down cards (as the baseline)."""
    goals = [tuple(g["at"]) for g in state["guns"].values() if not g["captured"]]
    if not goals:
        goals = [tuple(c["front"]) for c in state["cards"].values() if not c["revealed"] and c["front"]]
    return goals


def _nearest(at, points) -> float:
    return min(distance(at, p) for p in points)


def _distance_to_line(at, line) -> float:
    """How far a point lies from a table's line (a shapely LineString)."""
    return line.distance(_point(at))


def _sidestep(rules, state: dict, t: dict, aim: tuple[float, float], cones) -> Move | None:
    """A full move for team ``t`` turned as little as it can be from the heading of ``aim`` whose path (swept by
    the footprint) touches no gun's cone as the guns are laid now; None if the move to ``aim`` touches none
    already, or no such turn is found."""
    from shapely.geometry import LineString

    if not cones:
        return None
    here = tuple(t["at"])
    if not any(c.dwithin(LineString([here, aim]), rules.radius) for c in cones):
        return None
    step = float(t["bravado"]) - 0.01
    if step <= 0.5:
        return None
    heading = math.atan2(aim[1] - here[1], aim[0] - here[0])
    for turn in SIDESTEP_ANGLES:
        a = heading + math.radians(turn)
        pt = (round(here[0] + step * math.cos(a), 2), round(here[1] + step * math.sin(a), 2))
        if not rules.table.contains(pt) or distance(here, pt) > t["bravado"]:
            continue
        if any(c.dwithin(LineString([here, pt]), rules.radius) for c in cones):
            continue
        return Move(t["id"], pt[0], pt[1])
    return None


def _what_at(state: dict, at) -> str:
    """The gun or face-down card nearest a point, in words."""
    best = None
    for g in state["guns"].values():
        if not g["captured"]:
            best = min(best or (1e9, ""), (distance(at, g["at"]), f"the gun at {g['id']}"))
    for c in state["cards"].values():
        if not c["revealed"] and c["front"]:
            best = min(best or (1e9, ""), (distance(at, c["front"]), f"the card at {c['position']}"))
    return best[1] if best else "the enemy"


def describe(state: dict, a: Order, note: str = "") -> str:
    """An order in a few words, for a reason line."""
    v = a.verb
    if v == "move":
        t = state["teams"][a.team]
        d = distance(t["at"], (a.x, a.y))
        return f"{a.team} moves {d:.1f} in. towards {_what_at(state, (a.x, a.y))}" + (f", {note}" if note else "")
    if v == "fire":
        return f"{a.team} fires its LMG at the gun at {a.gun}"
    if v == "cover":
        return f"{','.join(a.teams)} give{'s' if len(a.teams) == 1 else ''} covering fire against the gun at {a.gun}"
    if v == "assault":
        return f"{a.team} charges the gun at {a.gun}"
    if v == "grenade":
        return f"{a.team} throws grenades at the gun at {a.gun}"
    if v == "rally":
        return f"{a.leader} rallies {a.team}"
    if v == "join":
        return f"{a.leader} goes over to {a.team}"
    if v == "end":
        return "ends the turn"
    words = {"take-cover": "takes cover", "press-on": "presses on", "leave": "leaves cover",
             "bayonet": "goes in with the bayonet", "hold": "holds in cover"}
    if v in words:
        return f"{a.team} {words[v]}"
    return a.text()


def strong_for(rules, side: str, cancel=None, **options):
    """A function from a state to the strong player's next decision for ``side`` (one player, keeping its
    memory); ``options`` are ``STRONG_OPTIONS``; ``cancel`` a function that says to stop thinking."""
    if getattr(rules, "name", "") != "scw":
        raise ValueError(f"this strong player knows the skirmish only, not the {getattr(rules, 'name', '?')} rules")
    if side not in SIDES:
        raise ValueError(f"the skirmish has no side {side!r} (sides: {', '.join(SIDES)})")
    unknown = set(options) - set(STRONG_OPTIONS)
    if unknown:
        raise ValueError(f"the strong player has no option {', '.join(sorted(unknown))}")
    return chooser(rules, StrongScw(side, cancel=cancel, **options))
