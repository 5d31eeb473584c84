"""The strong player for the classic rules: it plans battles, retreats, advances and moves with the engine itself.

It knows no scenario: everything it aims at comes from the scenario's data
(its victory conditions, areas, CRT and results, terrain).  How it decides
(docs/bots.md, "The strong player (classic)", says the same in words):

* **Evaluation.** A position is worth, to a side, the figure :func:`evaluate`
  gives, the sum of:

  1. the **verdict** if the game ended now (the scenario's ``Judge``):
     ``VERDICT_VALUE`` for each level of the side's victory (minor 1, major 2,
     massive 3), the same taken off for each level of an enemy victory;
  2. the **progress** toward each victory condition (``Judge.progress``: the
     share of an occupy area's hexes held, of the losses or exits needed, the
     points lead), ``PROGRESS_VALUE`` times the condition's weight (its level
     and shift), added for the side's own conditions, taken off for the
     enemy's; each hex of an occupy area held beyond those needed adds
     ``SURPLUS_VALUE`` times the weight (it is harder to take back);
  3. the **approach** to each area an occupy condition names: for each unit of
     the condition's side on the map, ``APPROACH_VALUE`` times the weight over
     one plus the turns it needs to get there (the cheapest way by its own
     movement class's costs, hexsides and roads included, a hex in an enemy
     zone of control costing a whole move more and a hex an enemy unit holds
     two more); units of the other sides count the same by the plain costs
     with ``HOLD_VALUE`` instead (standing in or near the area keeps it from
     being taken);
  4. **strength on the map**: ``STRENGTH_VALUE`` for each point of attack plus
     defence (the face up) of each unit;
  5. **danger**: a unit beside enemy units loses ``DANGER_SHARE`` of what the
     CRT would take from it at the column all those neighbours would make
     (eliminations, exchanges, steps, and a retreat counted as its destruction
     when it has no hex to retreat to), ``LATER_SHARE`` instead when its own
     side's combat phase comes first (it strikes before the enemy can);
     what losing a unit costs is its strength, its approach to an area and
     the progress its steps would give an enemy losses condition.  Enemy
     units that could come up (their movement allowance away, or arriving
     next turn at their entry area) add ``THREAT_SHARE`` of what they would
     add to that loss.

  The side's own units and conditions count for it, every other side's
  against it.
* **Combat.** Every battle the rules allow now is a candidate (at most two
  groups of attackers per defender and column, the best columns first,
  ``max_battles`` of them).  For each, the engine plays the battle out once
  per distinct result of the dice (``State.preset_dice``: ``roll`` takes
  them first), weighted by the chance of the dice totals that give it
  (``crt_dice`` dice of ``crt_sides`` faces); the choices the result asks for
  are answered as they would be (a blank cell with ``blank_answer``, an
  enemy retreat as far from the attackers as it can go, its own retreats and
  advances by the best evaluation).  The expected gain is the average
  evaluation less the evaluation now; the best battles are announced while
  the gain is above ``min_gain``, no unit in two of them, then resolved.
* **Retreats and advances** of its own units: the option with the best
  evaluation.  **Reinforcements**: each enters at the hex that evaluates best.
* **Movement**: of every legal move of the units it has not decided to hold,
  the one whose position evaluates best is made, while it improves on not
  moving; a unit whose best move does not is held for the phase.  The
  approach term draws units to the areas to take (and keeps them on an area
  hex they hold: leaving it loses the progress and the verdict), the danger
  term keeps a unit in contact where leaving would cost and out of contact
  where staying would.

Each decision leaves one line in ``last_reason`` ("+3, expected gain 40.6: may win
the game as it stands"; "heads for Neustadt, 4 MP from it (+0.9)").  Deterministic: no chance of its
own; ``budget`` (seconds a decision, 0: no clock) and ``cancel`` (asked between
two simulated battles or two units' moves) cut the thinking short.
"""
from __future__ import annotations

import heapq
import math
import time

from engine.maps.hexes import hex_distance

from ..errors import IllegalAction
from ..rulesets.demyansk import actions as A
from ..computer import chooser
from ..scenario.victory import LEVELS
from .strong import odds_first, pick_battles

STRONG_OPTIONS = {"blank_answer": str, "budget": float, "min_gain": float, "max_battles": int}

VERDICT_VALUE = 10.0       # each level of victory if the game ended now
PROGRESS_VALUE = 4.0       # a condition's whole way, times its weight
SURPLUS_VALUE = 0.5        # each hex of an occupy area held beyond the count needed (harder to take back), times it
APPROACH_VALUE = 1.0       # a unit standing in an area its side must occupy (less further off), times the weight
HOLD_VALUE = 0.5           # the same for a unit of another side (it stands in the way)
STRENGTH_VALUE = 0.1       # each point of attack plus defence on the map
DANGER_SHARE = 0.75        # the share of the CRT's expected loss counted for a unit beside enemy units ...
LATER_SHARE = 0.3          # ... when its own side attacks first (the enemy strikes back only after that)
THREAT_SHARE = 0.1         # ... and of what enemy units that could come up by next time (or arrive) would add
SEEK_VALUE = 0.2           # no area to aim at: a unit next to the enemy (falls with the distance)
MOVE_MARGIN = 0.01         # a move must improve the evaluation by more than this
NEAREST_KEPT = 6           # movement: a unit's destinations evaluated in full, the nearest to its areas ...
SAFEST_KEPT = 4            # ... and those fewest enemy attack points can reach


# ---------------------------------------------------------------- what the scenario's data says, worked out once
class _Data:
    """Per rules: the conditions with their weights, the occupy areas with each class's costs to reach them, the
    chances of the dice totals and, per CRT column, the expected losses of a defender."""

    def __init__(self, rules):
        cfg = rules.cfg
        self.judge = rules.judge
        m = rules.map
        conditions = list(rules.judge.victory.conditions) if rules.judge is not None else []
        weight = {c.id: (LEVELS.index(c.level) + 1 if c.level else 0) + abs(c.shift) for c in conditions}
        for c in conditions:
            if c.kind == "count" and weight[c.id]:
                for i in c.conditions:                        # a condition that counts inside a count
                    weight[i] = weight.get(i, 0) + weight[c.id] / max(1, c.at_least)
        self.weighted = [(c, weight[c.id]) for c in conditions if weight.get(c.id)]
        self.reverse = {}                                     # class -> by hex: (hex number before, MP of the step)
        for k in cfg.classes:
            rev: list[list] = [[] for _ in m.hexes]
            for h, edges in enumerate(m.iedges[k]):
                for n, c in edges:
                    rev[n].append((h, c))
            self.reverse[k] = rev
        self.areas = []                                       # (condition, weight, area, class -> MP to reach it)
        for c, w in self.weighted:
            if c.kind == "occupy" and c.area:
                area = rules.areas.hexes(c.area)
                if area:
                    self.areas.append((c, w, area, {k: _costs_to(m, self.reverse[k], area) for k in cfg.classes}))
        self.allowance = {}                                   # class -> the largest movement allowance (a turn)
        for uid, spec in rules.units.items():
            k = rules.type_of[uid].cls
            self.allowance[k] = max(self.allowance.get(k, 1.0), float(spec.movement))
        self.phases = list(cfg.phases)
        self.phase_at = {p.name: i for i, p in enumerate(self.phases)}
        self.memo: dict = {}
        self.hex_memo: dict = {}
        self.area_memo: dict = {}
        # the dice: total -> chance, and a way to roll each total
        dist = {0: 1}
        for _ in range(cfg.crt_dice):
            nxt: dict = {}
            for t, n in dist.items():
                for f in range(1, cfg.crt_sides + 1):
                    nxt[t + f] = nxt.get(t + f, 0) + n
            dist = nxt
        total = sum(dist.values())
        self.chance = {t: n / total for t, n in sorted(dist.items())}
        self.max_retreat = max([r.defender_retreat for r in cfg.results.values()] + [1])
        # per column (1-based): expected share of a defender eliminated, steps lost, chance of a retreat
        self.loss = [None]
        for col in range(1, len(cfg.columns) + 1):
            elim = steps = retreat = 0.0
            for t, p in self.chance.items():
                res = self.result(rules, cfg.crt_rows[t - cfg.crt_first][col - 1])
                if res is None:
                    continue
                if res.defender_eliminated or res.exchange:
                    elim += p
                else:
                    steps += p * res.defender_steps
                    retreat += p * (res.defender_retreat > 0)
            self.loss.append((elim, steps, retreat))

    def next_attacker(self, st) -> str:
        """The side whose combat phase comes next (after this one, in a combat phase): it strikes first."""
        n = len(self.phases)
        i = self.phase_at.get(st.phase, 0)
        start = i + 1 if "attack" in self.phases[i].does else i
        for k in range(start, start + n):
            ph = self.phases[k % n]
            if "attack" in ph.does:
                return ph.side
        return ""

    def worth(self, rules, st, uid: str) -> float:
        """What losing a unit costs its side in the evaluation: its strength, its best approach to an area and the
        progress its remaining steps would give the enemy's losses conditions."""
        a, df, _ = rules.values(st, uid)
        value = STRENGTH_VALUE * (a + df)
        side, cls = rules.units[uid].side, rules.type_of[uid].cls
        i = rules.map.index[st.units[uid].hex]
        best = 0.0
        for c, w, _, cost in self.areas:
            mp = cost[cls][i]
            if mp < math.inf:
                best = max(best, (APPROACH_VALUE if c.side == side else HOLD_VALUE) * w
                           / (1 + mp / max(1.0, rules.allowance(st, uid))))
        value += best
        left = rules.units[uid].steps - st.units[uid].steps_lost
        for c, w in self.weighted:
            if c.kind == "losses" and c.side != side and (c.of or side) == side and c.at_least > 0:
                value += PROGRESS_VALUE * w * (left if c.measure == "steps" else 1) / c.at_least
        return value

    def distance(self, rules, i: int) -> list[int]:
        """Hexes from hex number ``i`` to each hex (worked out once per hex)."""
        got = self.hex_memo.get(i)
        if got is None:
            h = rules.map.hexes[i]
            got = self.hex_memo[i] = [hex_distance(h, x) for x in rules.map.hexes]
        return got

    def from_area(self, rules, area: str) -> list[int]:
        """Hexes from the nearest hex of an area to each hex (worked out once per area)."""
        got = self.area_memo.get(area)
        if got is None:
            hexes = rules.areas.hexes(area)
            got = self.area_memo[area] = [min((hex_distance(h, x) for h in hexes), default=999)
                                          for x in rules.map.hexes]
        return got

    @staticmethod
    def result(rules, code: str):
        """A CRT code's result; None for a blank cell (``ask``: the danger counts no loss for it)."""
        res = rules.cfg.results.get(code)
        return None if res is None or res.ask else res

    def faces(self, rules, total: int) -> list[int]:
        """Dice faces that add up to ``total``."""
        k, s = rules.cfg.crt_dice, rules.cfg.crt_sides
        out = []
        for i in range(k):
            f = min(s, total - (k - i - 1))
            out.append(f)
            total -= f
        return out


def _costs_to(m, rev: list, area) -> list[float]:
    """By hex number: the fewest MP a unit spends to reach a hex of ``area`` (``rev``: its class's steps, backward:
    terrain, hexsides and roads; no units), inf where it cannot."""
    return _search(len(m.hexes), rev, {m.index[h]: 0.0 for h in area if h in m.index}, None)


def _costs_now(rules, st, d: "_Data", k: int, cls: str) -> list[float]:
    """``_costs_to`` for the ``k``-th area in this position, for its condition's side: a hex in an enemy zone of
    control costs a whole move more (the unit stops there), a hex an enemy unit holds two more (it must be
    cleared first), an area hex too.  Kept for positions with the same enemy hexes and zones of control."""
    c, _, area, static = d.areas[k]
    enemy, ezoc = rules._flags(st, c.side)
    key = (k, cls, bytes(enemy), bytes(ezoc))
    got = d.memo.get(key)
    if got is None:
        turn = d.allowance.get(cls, 1.0)
        extra = [turn * (2 * e + (z and not e)) for e, z in zip(enemy, ezoc)]
        starts = {i: 2 * turn * enemy[i] for i, x in enumerate(static[cls]) if x == 0}
        if len(d.memo) > 20000:
            d.memo.clear()
        got = d.memo[key] = _search(len(rules.map.hexes), d.reverse[cls], starts, extra)
    return got


def _search(n: int, rev: list, starts: dict, extra: list | None) -> list[float]:
    """Dijkstra's search backward from ``starts`` (hex number -> its cost) over ``rev``; a step into a hex ``i``
    costs ``extra[i]`` more, except into a start hex that costs nothing (the unit's goal)."""
    dist = [math.inf] * n
    for i, c in starts.items():
        dist[i] = c
    heap = [(c, i) for i, c in starts.items()]
    heapq.heapify(heap)
    while heap:
        dd, i = heapq.heappop(heap)
        if dd > dist[i]:
            continue
        more = extra[i] if extra is not None and i not in starts else 0.0
        for j, step in rev[i]:
            nd = dd + step + more
            if nd < dist[j]:
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return dist


def _data(rules) -> _Data:
    d = rules.__dict__.get("_strong_data")
    if d is None:
        d = rules.__dict__["_strong_data"] = _Data(rules)
    return d


# ---------------------------------------------------------------- the evaluation
def evaluate(rules, st, side: str) -> float:
    """What a position is worth to ``side`` (the module's text says how)."""
    d = _data(rules)
    value = 0.0
    if d.judge is not None:
        facts = rules.facts(st)
        out = d.judge.outcome(facts)
        level = out.breakdown.get("level", "")
        if out.winner is not None and level in LEVELS:
            value += (1 if out.winner == side else -1) * VERDICT_VALUE * (LEVELS.index(level) + 1)
        for c, w in d.weighted:
            sign = 1 if c.side == side else -1
            value += sign * PROGRESS_VALUE * w * d.judge.progress(c, facts)
            if c.kind == "occupy":
                _, held, need = d.judge.occupied(c, facts)
                value += sign * SURPLUS_VALUE * w * max(0, len(held) - need)
    index = rules.map.index
    for k, (c, w, area, cost) in enumerate(d.areas):
        now: dict = {}
        for uid, u in st.units.items():
            if u.status != "map":
                continue
            mine = rules.units[uid].side
            cls = rules.type_of[uid].cls
            if mine == c.side:
                if cls not in now:
                    now[cls] = _costs_now(rules, st, d, k, cls)
                mp = now[cls][index[u.hex]]
            else:
                mp = cost[cls][index[u.hex]]
            if mp < math.inf:
                near = w / (1 + mp / max(1.0, rules.allowance(st, uid)))
                value += (1 if mine == side else -1) * (APPROACH_VALUE if mine == c.side else HOLD_VALUE) * near
    occ = rules.occupants(st)
    seek = not d.areas
    movers = _attackers(rules, st, d)
    first = d.next_attacker(st)
    for h, us in occ.items():
        mine = rules.units[us[0]].side
        sign = 1 if mine == side else -1
        worth = 0.0
        for uid in us:
            a, df, _ = rules.values(st, uid)
            worth += STRENGTH_VALUE * (a + df)
        value += sign * worth
        near = [a for n in rules.map.neighbors[h] for a in occ.get(n, ())
                if rules.units[a].side != mine and rules.values(st, a)[0] > 0]
        i = index[h]
        coming = [a for a, a_side, dist, reach in movers if a_side != mine and 1 < dist(i) <= reach]
        now = _expected_loss(rules, st, d, us, near) if near else 0.0
        if near:
            value -= sign * (LATER_SHARE if mine == first else DANGER_SHARE) * now
        if coming:
            value -= sign * THREAT_SHARE * max(0.0, _expected_loss(rules, st, d, us, near + coming) - now)
        if not near and seek:
            enemies = [e for e, u in st.units.items() if u.status == "map" and rules.units[e].side != mine]
            if enemies:
                far = min(hex_distance(h, st.units[e].hex) for e in enemies)
                value += sign * SEEK_VALUE * len(us) / far
    return value


def _attackers(rules, st, d: _Data) -> list:
    """The units that could attack next time their side attacks: (unit, side, hex number -> its distance in hexes,
    the distance it could close to attack: its movement allowance and one), on the map, or due on the next turn
    at the nearest hex of its entry area."""
    out = []
    for uid, u in st.units.items():
        spec = rules.units[uid]
        if spec.attack <= 0:
            continue
        if u.status == "map":
            here = rules.map.index[u.hex]
            out.append((uid, spec.side, d.distance(rules, here).__getitem__, spec.movement + 1))
        elif u.status == "due":
            r = rules.arrives.get(uid)
            if r is not None and r.entry and r.turn <= st.turn + 1:
                out.append((uid, spec.side, d.from_area(rules, r.entry).__getitem__, spec.movement + 1))
    return out


def _cornered(rules, st, d: _Data, uid: str) -> bool:
    """Whether a unit has no hex to retreat to (kept in the state's cache while no unit moves)."""
    c = rules._cache(st).setdefault("strong_cornered", {})
    got = c.get(uid)
    if got is None:
        got = c[uid] = not rules.retreat_options(st, uid, d.max_retreat)[0]
    return got


def _expected_loss(rules, st, d: _Data, defenders: list, attackers: list) -> float:
    """What the CRT takes on average from a hex's ``defenders`` attacked by all ``attackers`` (``_Data.worth``)."""
    col = rules.odds(st, defenders[0], attackers).column
    if col <= 0:
        return 0.0
    elim, steps, retreat = d.loss[col]
    lost = 0.0
    for uid in defenders:
        worth = d.worth(rules, st, uid)
        left = rules.units[uid].steps - st.units[uid].steps_lost
        share = elim + steps / max(1, left)
        if retreat and share < 1 and _cornered(rules, st, d, uid):
            share += retreat                  # nowhere to retreat: a retreat result destroys it
        lost += worth * min(1.0, share)
    return lost


# ---------------------------------------------------------------- the player
class StrongClassic:
    """Chooses one legal action at a time for one side of a classic scenario (see the module)."""

    def __init__(self, side: str, blank_answer: str = "NE", budget: float = 0.0, min_gain: float = 0.05,
                 max_battles: int = 30, cancel=None):
        self.side = side
        self.blank_answer = blank_answer
        self.blank_cells = 0
        self.budget = float(budget)              # seconds a decision may think (0: no clock)
        self.min_gain = float(min_gain)
        self.max_battles = int(max_battles)
        self.cancel = cancel or (lambda: False)  # asked between two simulations: True stops the thinking
        self.last_reason = ""
        self._plan: list = []
        self._key = None
        self._planned = False
        self._held: set[str] = set()             # units it decided not to move this phase
        self._gains: dict = {}                   # unit -> the last known gain of its best move this phase

    def fork(self) -> "StrongClassic":
        """A copy with a memory of its own (it may think in another thread; kept only if its choice is played)."""
        twin = StrongClassic(self.side, self.blank_answer, self.budget, self.min_gain, self.max_battles,
                             self.cancel)
        twin._plan, twin._key, twin._planned = list(self._plan), self._key, self._planned
        twin._held, twin._gains = set(self._held), dict(self._gains)
        return twin

    def _stop(self, start: float) -> bool:
        return bool(self.cancel()) or (self.budget > 0 and time.perf_counter() - start > self.budget)

    def value(self, rules, st, side: str | None = None) -> float:
        return evaluate(rules, st, side or self.side)

    # ------------------------------------------------------------ entry point
    def choose(self, rules, st):
        self.last_reason = ""
        key = (st.turn, st.phase)
        if key != self._key:
            self._key, self._plan, self._planned, self._held, self._gains = key, [], False, set(), {}
        if st.pending:
            return self._answer(rules, st)
        legal = rules.legal_actions(st)
        ph = rules.phase(st)
        enters = [a for a in legal if isinstance(a, A.Enter)]
        if enters:
            return self._enter(rules, st, enters)
        if "attack" in ph.does:
            fight = self._declare(rules, st)
            if fight is not None:
                return fight
            resolve = next((a for a in legal if isinstance(a, A.Resolve)), None)
            if resolve is not None:
                self.last_reason = f"resolves the battle against {resolve.defender}"
                return resolve
        if "move" in ph.does:
            move = self._move(rules, st, legal)
            if move is not None:
                return move
        self.last_reason = "nothing better to do this phase"
        return A.EndPhase()

    # ------------------------------------------------------------ choices
    def _answer(self, rules, st):
        p = st.pending[0]
        options = rules.legal_actions(st)
        if p["kind"] == "result":
            self.blank_cells += 1
            self.last_reason = f"a blank chart cell: {self.blank_answer} (no printed chart at hand)"
            return next((a for a in options if a.result == self.blank_answer), options[0])
        if len(options) == 1:
            self.last_reason = "the only choice"
            return options[0]
        best = max(options, key=lambda a: (self._after(rules, st, a, self.side), a.text()))
        self.last_reason = f"the best of {len(options)} choices"
        return best

    def _after(self, rules, st, action, side: str) -> float:
        try:
            after, _ = rules.apply(st, action)
        except IllegalAction:
            return float("-inf")
        return self.value(rules, after, side)

    def _enter(self, rules, st, enters: list):
        unit = enters[0].unit
        options = [a for a in enters if a.unit == unit]
        best = min(options, key=lambda a: (-self._after(rules, st, a, self.side), a.to))
        self.last_reason = f"enters where the position is best{self._aim_words(rules, rules.apply(st, best)[0], unit)}"
        return best

    # ------------------------------------------------------------ movement
    def _move(self, rules, st, legal: list):
        """The best move of the units still free to move, if it improves the position.

        Each unit's destinations are screened first (``_shortlist``): only the nearest to its side's areas and the
        safest are evaluated in full.  The units are then taken in the order of their last known gain (worked out
        for every unit once a phase): the first one's moves are evaluated again in this position, and its move is
        made if its gain is still at least every other unit's last known gain; otherwise its gain is updated and
        the next is tried.  A unit whose best move no longer improves the position is held for the phase."""
        start = time.perf_counter()
        by_unit: dict[str, list] = {}
        for a in legal:
            if isinstance(a, A.Move) and a.unit not in self._held:
                by_unit.setdefault(a.unit, []).append(a)
        now = self.value(rules, st)
        gains = {uid: g for uid, g in self._gains.items() if uid in by_unit}
        fresh: dict = {}

        def best_of(uid):
            top = None
            for a in self._shortlist(rules, st, uid, by_unit[uid]):
                try:
                    after, _ = rules.apply(st, a)
                except IllegalAction:
                    continue
                v = self.value(rules, after)
                if top is None or (v, a.to) > (top[0], top[1].to):
                    top = (v, a, after)
            return top

        for uid in by_unit:                       # units not yet weighed this phase: weighed now
            if uid in gains:
                continue
            if self.cancel() or fresh and self._stop(start):
                break
            top = best_of(uid)
            if top is None or top[0] <= now + MOVE_MARGIN:
                self._held.add(uid)
                continue
            gains[uid] = top[0] - now
            fresh[uid] = top
        best = None
        while gains:
            uid = max(gains, key=lambda u: (gains[u], u))
            top = fresh.get(uid) or best_of(uid)
            fresh[uid] = top
            if top is None or top[0] <= now + MOVE_MARGIN:
                self._held.add(uid)               # no move of it improves the position: it stays this phase
                del gains[uid]
                continue
            gains[uid] = top[0] - now
            if all(gains[uid] >= g for u, g in gains.items() if u != uid) or self.cancel() or self._stop(start):
                best = top
                break
        self._gains = gains
        if best is None:
            return None
        v, move, after = best
        self.last_reason = f"{self._aim_words(rules, after, move.unit).lstrip(', ') or 'a better position'} " \
                           f"(+{v - now:.1f})"
        return move

    def _shortlist(self, rules, st, uid: str, options: list) -> list:
        """The destinations of a unit worth evaluating in full: the ``NEAREST_KEPT`` nearest to the areas its side
        must occupy or hold (by its class's costs, none of the units), and the ``SAFEST_KEPT`` beside the fewest
        enemy attack points; every one when they are no more."""
        if len(options) <= NEAREST_KEPT + SAFEST_KEPT:
            return options
        d = _data(rules)
        cls, side = rules.type_of[uid].cls, rules.units[uid].side
        index, occ = rules.map.index, rules.occupants(st)

        def near(a):
            i = index[rules.hex(a.to)]
            return (min((cost[cls][i] for _, _, _, cost in d.areas), default=0.0), a.to)

        def threat(a):
            h = rules.hex(a.to)
            return (sum(rules.values(st, e)[0] for n in rules.map.neighbors[h] for e in occ.get(n, ())
                        if rules.units[e].side != side), near(a))
        kept = sorted(options, key=near)[:NEAREST_KEPT]
        kept += [a for a in sorted(options, key=threat) if a not in kept][:SAFEST_KEPT]
        return kept

    def _aim_words(self, rules, st, uid: str) -> str:
        """A few words on where a unit now stands against the areas of the victory conditions."""
        d = _data(rules)
        u = st.units[uid]
        if u.status != "map":
            return ""
        mine = rules.units[uid].side
        best = None
        for c, w, area, cost in d.areas:
            name = c.area
            if u.hex in area:
                return f", {'holds' if mine == c.side else 'stands in'} {name}"
            if mine == c.side:
                mp = cost[rules.type_of[uid].cls][rules.map.index[u.hex]]
                if mp < math.inf and (best is None or mp < best[0]):
                    best = (mp, name)
        if best is not None:
            return f", heads for {best[1]}, {best[0]:g} MP from it"
        return ""

    # ------------------------------------------------------------ combat
    def _declare(self, rules, st):
        if not rules.cfg.declare_first or not self._planned:
            self._planned = True
            self._plan = self.plan_battles(rules, st)
        while self._plan:
            gain, decl, why = self._plan.pop(0)
            try:
                odds = rules.check_declaration(st, decl.defender, tuple(decl.attackers))
            except IllegalAction:
                continue
            self.last_reason = f"{odds.label}, expected gain {gain:.1f}{why}"
            return decl
        return None

    def plan_battles(self, rules, st) -> list:
        """The battles worth announcing now, best first: (expected gain, declaration, why), each gain above
        ``min_gain``, no unit in two of them and no defender twice."""
        start = time.perf_counter()
        now = self.value(rules, st)
        scored = []
        candidates = odds_first(rules.declarations(st), lambda a: rules.odds(st, a.defender, a.attackers))
        for decl in candidates[:self.max_battles]:
            if self._stop(start):
                break
            gain, why = self.battle_gain(rules, st, decl, now)
            if gain > self.min_gain:
                scored.append((gain, decl, why))
        return pick_battles(scored)

    def battle_gain(self, rules, st, decl, now: float | None = None) -> tuple[float, str]:
        """The expected change of the evaluation if ``decl`` is fought now, over the dice totals, and a few words
        on its best outcome."""
        d = _data(rules)
        if now is None:
            now = self.value(rules, st)
        col = rules.odds(st, decl.defender, decl.attackers).column
        cfg = rules.cfg
        by_code: dict = {}                   # a result -> (its chance, a total that gives it): each played once
        for t, p in d.chance.items():
            code = cfg.crt_rows[t - cfg.crt_first][col - 1]
            chance, total = by_code.get(code, (0.0, t))
            by_code[code] = (chance + p, total)
        expected, best = 0.0, (float("-inf"), "")
        for code, (p, total) in sorted(by_code.items()):
            trial = st.copy()
            trial.preset_dice = d.faces(rules, total)
            try:
                after, _ = rules.apply(trial, decl)
                if rules.cfg.declare_first:
                    after, _ = rules.apply(after, A.Resolve(decl.defender))
                after = self._settle(rules, after, decl)
            except IllegalAction:
                return float("-inf"), ""
            v = self.value(rules, after)
            expected += p * v
            if v > best[0]:
                best = (v, self._outcome_words(rules, st, after))
        return expected - now, best[1]

    def _settle(self, rules, st, decl):
        """Answer the choices a simulated result asks for: blank cells with ``blank_answer``, an enemy retreat as
        far from the attackers as it can go, each side's own retreats and advances by its best evaluation."""
        attackers = [st.units[a].hex for a in decl.attackers if st.units[a].status == "map"]
        for _ in range(50):
            if not st.pending or st.over:
                return st
            p = st.pending[0]
            options = rules.legal_actions(st)
            if p["kind"] == "result":
                action = next((a for a in options if a.result == self.blank_answer), options[0])
            elif p["kind"] == "retreat" and p["side"] != self.side:
                def away(a):
                    if a.to == "off":
                        return (-1, 0, a.to)
                    h = rules.hex(a.to)
                    return (min((hex_distance(h, x) for x in attackers), default=0), a.to not in p["dirty"], a.to)
                action = max(options, key=away)
            else:
                who = p["side"]
                action = max(options, key=lambda a: (self._after(rules, st, a, who), a.text()))
            st, _ = rules.apply(st, action)
        return st

    def _outcome_words(self, rules, before, after) -> str:
        d = _data(rules)
        if d.judge is not None:
            was, now = d.judge.outcome(rules.facts(before)), d.judge.outcome(rules.facts(after))
            if now.winner == self.side and was.winner != self.side:
                return ": may win the game as it stands"
            for c, w, area, _ in d.areas:
                if c.side == self.side and d.judge.progress(c, rules.facts(after)) > \
                        d.judge.progress(c, rules.facts(before)):
                    return f": may take {c.area}"
        lost = sorted(u for u, x in after.units.items() if before.units[u].status == "map" and x.status != "map"
                      and rules.units[u].side != self.side)
        if lost:
            return f": may destroy {', '.join(lost)}"
        return ": pushes it back"


def strong_for(rules, side: str, cancel=None, **options):
    """A function from a state to the strong player's next action for ``side`` of a classic scenario (one player,
    keeping its memory); ``options`` are ``STRONG_OPTIONS``; ``cancel`` a function that says to stop thinking."""
    if getattr(rules, "name", "") != "classic":
        raise ValueError(f"this strong player knows the classic rules only, not the {getattr(rules, 'name', '?')} "
                         "rules")
    if side not in rules.sides:
        raise ValueError(f"this scenario has no side {side!r} (sides: {', '.join(rules.sides)})")
    unknown = set(options) - set(STRONG_OPTIONS)
    if unknown:
        raise ValueError(f"the strong player has no option {', '.join(sorted(unknown))}")
    return chooser(rules, StrongClassic(side, cancel=cancel, **options))
