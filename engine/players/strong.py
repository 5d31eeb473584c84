"""The strong Demyansk player: it plans its battles, retreats and advances with the engine itself.

How it decides (docs/bots.md says the same in words):

* **Evaluation.** A position is worth, to a side, the figure :func:`evaluate`
  gives: the victory condition as if the game ended now (9.3 victory points,
  or the 9.2 open line and how many blocked hexes still stand between the
  pocket and the west), plus the strength still on the map of each side, less
  a price for units that an enemy retreat result would destroy (no hex to
  retreat to).  The German side's figure is the Soviet side's negated.
* **Combat.** Every battle the rules allow now (``rules.declarations``) is a
  candidate.  For each, the engine plays the battle out once per face of the
  die (``preset_dice``: the same die the rules would roll), answers the
  choices the result asks for (blank chart cells with the bot's answer, an
  enemy retreat as far from the attackers as it can go, its own retreats and
  advances by the best evaluation), and averages the evaluation over the six
  faces.  The battle with the best expected gain is announced, then the next
  best among those whose units are still free, while the gain is above
  ``min_gain``.  A battle that gains nothing is never fought.
* **Retreats and advances** of its own units: the option with the best
  evaluation.
* **Movement, set-up and reinforcements**: the baseline player's
  (``engine.rulesets.demyansk.bot``), but heading for the corridor, the
  cheapest way through Soviet units and zones of control between the pocket
  and the west edge, which both sides fight over (the German to open it, the
  Soviet to hold it shut).

Each decision leaves one line in ``last_reason`` ("6:1, expected gain 12.0:
may cut the open line"; "heads for the corridor, 2 hexes from it") for the
log and the window.
"""
from __future__ import annotations

import heapq
import time

from ..charts import ChartAnswer, read_cell
from ..errors import IllegalAction
from ..rulesets.demyansk import actions as A
from ..computer import chooser
from ..rulesets.demyansk.bot import DemyanskBot, _nearest
from ..rulesets.demyansk.movement import reach
from ..rulesets.demyansk.supply import continuous_front, west_region
from ..rulesets.demyansk.charts import CRT, crt_key
from ..rulesets.demyansk.combat import battle_odds
from ..rulesets.demyansk.state import ELIMINATED, ON_MAP, State
from ..rulesets.demyansk.units import GERMAN, SOVIET
from ..rulesets.demyansk.victory import victory_points
from ..rulesets.demyansk.zoc import _cache, side_hexes, zoc

STRONG_OPTIONS = {"blank_answer": str, "budget": float, "min_gain": float, "max_battles": int}

LINK_VALUE = 40.0          # open-line scenarios: the pocket joined to the west (the game's whole object)
GAP_VALUE = 4.0            # each blocked hex still between the pocket and the west
STRENGTH_VALUE = 0.08      # each point of attack plus defence on the map
DOOMED_PRICE = 0.5         # a unit that a retreat result would destroy: this share of its value is at stake
BLOCKED_COST = 1           # corridor: a hex in a Soviet zone of control
OCCUPIED_COST = 3          # corridor: a hex holding a Soviet unit
SHUT_GAP = 8               # Soviet: below this corridor cost, moves that lengthen it come first


# ---------------------------------------------------------------- the evaluation
class _Graph:
    """The map as numbered hexes with neighbour lists (worked out once per rules), for fast searches.

    Hexes are numbered in (q, r) order, prohibited ones left out: nothing enters them, and every search below
    skips them anyway.  Also per unit, worked out once: its side, its strength value and its 9.3 value."""

    def __init__(self, rules):
        m = rules.map
        self.hexes = sorted((h for h in m.neighbors if h not in m.prohibited), key=lambda h: (h.q, h.r))
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.nb = [[self.index[n] for n in m.neighbors[h] if n in self.index] for h in self.hexes]
        self.west = sorted(self.index[h] for h in m.edges["west"] if h in self.index)
        self.west_set = frozenset(self.west)
        self.west_memo: dict = {}            # Soviet hexes and zones of control -> the west region (_View.west)
        self.west_flag = bytearray(len(self.hexes))
        for i in self.west:
            self.west_flag[i] = 1
        self.forts = [(self.index[f], f) for f in sorted(m.forts) if f in self.index]
        self.german = {uid: s.side == GERMAN for uid, s in rules.specs.items()}
        self.value = {uid: _unit_value(rules, uid) for uid in rules.specs}
        self.vp = {uid: 1 if rules.tables.type_flag(s.type, "infantry") else 3
                   for uid, s in rules.specs.items() if s.side == GERMAN}         # 9.3: destroyed or cut off
        self.german_ids = sorted(uid for uid, s in rules.specs.items() if s.side == GERMAN)


def _graph(rules) -> _Graph:
    g = rules.__dict__.get("_strong_graph")
    if g is None:
        g = rules.__dict__["_strong_graph"] = _Graph(rules)
    return g


class _View:
    """One state's positions on the numbered map (worked out once per state, kept in its cache, which the
    engine drops whenever a unit moves): each unit's hex number, and per hex whether it holds a Soviet or a
    German unit and whether it is in the Soviet (as ``zoc``: not into fortifications no Soviet unit has
    entered, 6.2) or the German zone of control (4)."""

    __slots__ = ("at", "soviet", "german", "szoc", "gzoc", "_west")

    def __init__(self, g: _Graph, st: State):
        idx, nb = g.index, g.nb
        n = len(g.hexes)
        soviet, german, szoc, gzoc = bytearray(n), bytearray(n), bytearray(n), bytearray(n)
        at = {}
        for uid, u in st.units.items():
            if u.status != ON_MAP:
                continue
            i = idx[u.hex]
            at[uid] = i
            if g.german[uid]:
                german[i] = 1
                for j in nb[i]:
                    gzoc[j] = 1
            else:
                soviet[i] = 1
                for j in nb[i]:
                    szoc[j] = 1
        if g.forts:
            lost = set(st.forts_lost)
            for i, f in g.forts:
                if f not in lost:
                    szoc[i] = 0                 # 6.2: no Soviet zone of control in a fortification not yet entered
        self.at, self.soviet, self.german, self.szoc, self.gzoc = at, soviet, german, szoc, gzoc
        self._west = None

    def west(self, g: _Graph) -> bytearray:
        """Per hex: 2 if joined to the west edge by hexes free of Soviet units and zones of control (7.2), else
        1 (a Soviet unit or zone of control) or 0."""
        if self._west is None:
            n = len(g.hexes)
            # the Soviet hexes and zones of control together (0 or 1 a hex: a bytewise or), then each hex of the
            # region marked 2 as it is reached, so one look at a hex says whether to go on.  The region depends
            # on those alone, which many states share (a simulated battle's results that move no Soviet unit):
            # it is kept for them
            either = int.from_bytes(self.soviet, "little") | int.from_bytes(self.szoc, "little")
            blocked = either.to_bytes(n, "little")
            got = g.west_memo.get(blocked)
            if got is not None:
                self._west = got
                return got
            seen = bytearray(blocked)
            todo = [i for i in g.west if not seen[i]]
            for i in todo:
                seen[i] = 2
            nb = g.nb
            while todo:
                i = todo.pop()
                for j in nb[i]:
                    if not seen[j]:
                        seen[j] = 2
                        todo.append(j)
            if len(g.west_memo) > 4096:
                g.west_memo.clear()
            g.west_memo[blocked] = self._west = seen
        return self._west


def _view(rules, st: State) -> _View | None:
    """The state's ``_View``, or None when a unit stands off the numbered map (then the engine's own sets)."""
    c = _cache(st)
    v = c.get("strong_view", False)
    if v is False:
        g = _graph(rules)
        try:
            v = _View(g, st)
        except KeyError:
            v = None
        c["strong_view"] = v
    return v


def fast_west_region(rules, st: State) -> set:
    """``supply.west_region`` (7.2) worked out on the numbered map and left in the state's cache, where the
    engine's own ``linked_to_west`` then finds it: the same hexes, sooner."""
    c = _cache(st)
    if "west" in c:
        return c["west"]
    v = _view(rules, st)
    if v is None:
        return west_region(rules, st)
    g = _graph(rules)
    c["west"] = region = {g.hexes[i] for i, s in enumerate(v.west(g)) if s == 2}
    return region


def _corridor_slow(rules, st: State) -> tuple[int, list]:
    """``corridor`` on the engine's hex sets (a unit off the numbered map)."""
    g = _graph(rules)
    idx = g.index
    pockets = {idx[st.units[u].hex] for u in rules.pocket_units
               if st.units[u].status == ON_MAP and st.units[u].hex in idx}
    if not pockets:
        return 999, []
    cost = [0] * len(g.hexes)
    for h in zoc(rules, st, SOVIET):
        i = idx.get(h)
        if i is not None:
            cost[i] = BLOCKED_COST
    for h in side_hexes(rules, st, SOVIET):
        i = idx.get(h)
        if i is not None:
            cost[i] = OCCUPIED_COST
    return _cheapest_way(g, cost, pockets)


def corridor(rules, st: State) -> tuple[int, list]:
    """The cheapest way from the west edge to a pocket unit through hexes free of Soviet units and zones of
    control, each such hex it must still cross costing ``BLOCKED_COST`` (zone of control) or ``OCCUPIED_COST``
    (a Soviet unit): (its cost, its hexes from the west edge). (0, [...]) once the pocket is linked (7.2, 9.2);
    (999, []) when no pocket unit is left.  Of equally cheap ways, the one a search in (cost, hex number) order
    meets first."""
    v = _view(rules, st)
    if v is None:
        return _corridor_slow(rules, st)
    at = v.at
    pockets = {at[u] for u in rules.pocket_units if u in at}
    if not pockets:
        return 999, []
    g = _graph(rules)
    soviet, szoc = v.soviet, v.szoc
    cost = [OCCUPIED_COST if soviet[i] else BLOCKED_COST if szoc[i] else 0 for i in range(len(g.hexes))]
    return _cheapest_way(g, cost, pockets)


def _cheapest_way(g: _Graph, cost: list, pockets: set) -> tuple[int, list]:
    """The cheapest way from the west edge to one of ``pockets`` (hex numbers, each free to stand in, 7.2)
    paying ``cost`` for each hex entered (the first one's too): (its cost, its hexes from the west edge), or
    (999, []).

    Dijkstra's search taking (cost, hex number) pairs lowest first and stopping at the first pocket hex; the
    costs are small whole numbers, so it keeps one heap of hex numbers per cost instead of one of pairs (the
    same hexes in the same order, found sooner)."""
    for i in pockets:
        cost[i] = 0                          # a unit's own hex may be in a zone of control (7.2)
    inf = 1 << 30
    dist = [inf] * len(g.hexes)
    prev = [-1] * len(g.hexes)
    levels: dict = {}
    for i in g.west:
        c = cost[i]
        dist[i] = c
        levels.setdefault(c, []).append(i)
    nb = g.nb
    push, pop = heapq.heappush, heapq.heappop
    d = 0
    while levels:
        heap = levels.pop(d, None)
        if heap is None:
            d += 1
            continue
        heapq.heapify(heap)
        while heap:
            i = pop(heap)
            if dist[i] != d:
                continue                     # reached more cheaply since it was listed
            if i in pockets:
                path = [i]
                while prev[path[-1]] >= 0:
                    path.append(prev[path[-1]])
                return d, [g.hexes[j] for j in reversed(path)]
            for n in nb[i]:
                nd = d + cost[n]
                if nd < dist[n]:
                    dist[n], prev[n] = nd, i
                    if nd == d:
                        push(heap, n)
                    else:
                        levels.setdefault(nd, []).append(n)
        d += 1
    return 999, []


def _way_cost(g: _Graph, cost: list, pocket) -> int:
    """The cost alone of ``_cheapest_way`` (``pocket``: per hex, a pocket unit stands there, its cost 0),
    searched the other way, from the pocket hexes out (the pocket is smaller than the free west): each hex
    entered costs its cost, the west edge hex too, as the way from the west pays for each hex but the pocket
    hex; the hexes taken level by level, each level in any order, the first west edge hex reached at the level
    being taken ends it; 999 if none."""
    inf = 1 << 30
    dist = [inf] * len(g.hexes)
    todo = []
    west = g.west_flag
    for i, p in enumerate(pocket):
        if p:
            if west[i]:
                return 0
            dist[i] = 0
            todo.append(i)
    levels: dict = {0: todo}
    nb = g.nb
    d = 0
    while levels:
        todo = levels.pop(d, None)
        if todo is None:
            d += 1
            continue
        while todo:
            i = todo.pop()
            if dist[i] != d:
                continue                     # reached more cheaply since it was listed
            if west[i]:
                return d
            for n in nb[i]:
                nd = d + cost[n]
                if nd < dist[n]:
                    dist[n] = nd
                    if nd == d:
                        if west[n]:
                            return d         # no level below d is left: its cost is final
                        todo.append(n)
                    else:
                        levels.setdefault(nd, []).append(n)
        d += 1
    return 999


def _corridor_costs(rules, st: State, v: _View) -> tuple[list, bytearray]:
    """The corridor's cost of each hex (``corridor``) and the pocket units' hexes, on the numbered map."""
    g = _graph(rules)
    soviet, szoc = v.soviet, v.szoc
    cost = [OCCUPIED_COST if soviet[i] else BLOCKED_COST if szoc[i] else 0 for i in range(len(g.hexes))]
    pocket = bytearray(len(g.hexes))
    at = v.at
    for u in rules.pocket_units:
        if u in at:
            pocket[at[u]] = 1
            cost[at[u]] = 0                  # a unit's own hex may be in a zone of control (7.2)
    return cost, pocket


def corridor_gap(rules, st: State) -> int:
    """``corridor``'s cost alone (the way itself not traced)."""
    v = _view(rules, st)
    if v is None:
        return corridor(rules, st)[0]
    cost, pocket = _corridor_costs(rules, st, v)
    if not any(pocket):
        return 999
    return _way_cost(_graph(rules), cost, pocket)


def _longest_after(rules, st: State, v: _View, gap: int, path: list, moves: list):
    """Of Soviet ``moves`` (legal now), the one after which ``corridor`` costs most, above ``gap``, the first
    in text order of equals: (that cost, the move), or None.

    The state after a move is not made: only the moving unit's old and new hexes and their neighbours change
    cost (a Soviet unit entering a fortification takes its 6.2 exemption away, as ``results.place`` records).
    The cost of ``path`` (the corridor now) after a move bounds the corridor's cost after it from above, so a
    move whose bound cannot beat the best found so far is not searched; the moves are searched highest bound
    first.  The same move as trying each with the engine."""
    g = _graph(rules)
    nb, idx = g.nb, g.index
    cost, pocket = _corridor_costs(rules, st, v)
    if not any(pocket):
        return None
    n = len(g.hexes)
    near = [0] * n                           # Soviet units next to each hex
    soviet = bytearray(v.soviet)
    for uid, i in v.at.items():
        if not g.german[uid]:
            for j in nb[i]:
                near[j] += 1
    exempt = bytearray(n)                    # 6.2: fortifications no Soviet unit has entered
    if g.forts:
        lost = set(st.forts_lost)
        for i, f in g.forts:
            if f not in lost:
                exempt[i] = 1
    way = [idx[h] for h in path]
    tried = []
    for a in moves:
        frm, to = v.at[a.unit], idx[rules.hex(a.to)]
        changed = {}
        for x in (frm, to, *nb[frm], *nb[to]):
            if x in changed:
                continue
            if pocket[x]:
                changed[x] = 0
                continue
            held = soviet[x] - (x == frm) + (x == to)
            zone = near[x] - (x in nb[frm]) + (x in nb[to])
            free_fort = exempt[x] and x != to
            changed[x] = OCCUPIED_COST if held else BLOCKED_COST if zone and not free_fort else 0
        bound = sum(changed.get(x, cost[x]) for x in way)
        if bound > gap:
            tried.append((-bound, a.text(), a, changed))
    tried.sort(key=lambda t: (t[0], t[1]))
    best = None
    for neg, text, a, changed in tried:
        if best is not None and (-neg, best[1].text()) <= (best[0], text):
            continue                         # cannot beat the best even at its bound
        after = list(cost)
        for x, c in changed.items():
            after[x] = c
        longer = _way_cost(g, after, pocket)
        if longer > gap and (best is None or (longer, best[1].text()) > (best[0], text)):
            best = (longer, a)
    return best


def _unit_value(rules, uid: str) -> float:
    s = rules.specs[uid]
    return STRENGTH_VALUE * (s.attack + s.defense)


def evaluate(rules, st: State, side: str) -> float:
    """What the position is worth to ``side`` (higher is better), in victory points or their equivalent."""
    v = _view(rules, st)
    if v is None:
        return _evaluate_slow(rules, st, side)
    g = _graph(rules)
    german = 0.0
    at = v.at
    if rules.victory == "points":
        # 9.3 as ``victory.victory_points`` counts it: German 2 a unit linked to the west (7.2), Soviet the
        # value of each German unit destroyed in combat or cut off, a point a turn without a front, the
        # withdrawal points
        west, nb = v.west(g), g.nb
        gv = 0
        sv = len(st.front_failures) + st.withdrawal_vp
        for uid in g.german_ids:
            u = st.units[uid]
            if u.status == ELIMINATED and u.destroyed_in_combat:
                sv += g.vp[uid]
            elif u.status == ON_MAP:
                i = at[uid]
                if west[i] == 2 or any(west[j] == 2 for j in nb[i]):
                    gv += 2
                else:
                    sv += g.vp[uid]
        german += gv - sv
    else:
        gap = corridor_gap(rules, st)         # 0: a pocket unit is linked to the west (7.2, 9.2)
        german += LINK_VALUE if gap == 0 else -GAP_VALUE * min(gap, 12)
    soviet, ger, szoc, gzoc, nb = v.soviet, v.german, v.szoc, v.gzoc, g.nb
    points = rules.victory == "points"
    for uid, i in at.items():
        is_german = g.german[uid]
        value = g.value[uid]
        ez = szoc if is_german else gzoc
        # a unit in an enemy zone of control with no free neighbour to retreat to: a retreat result destroys it
        if ez[i] and not any(not soviet[j] and not ger[j] and not ez[j] for j in nb[i]):
            value -= DOOMED_PRICE * (value + (3 if is_german and points else 0))
        german += value if is_german else -value
    return german if side == GERMAN else -german


def _evaluate_slow(rules, st: State, side: str) -> float:
    """``evaluate`` on the engine's hex sets (a unit off the numbered map)."""
    german = 0.0
    if rules.victory == "points":
        b = victory_points(rules, st).breakdown
        german += b["german total"] - b["soviet total"]
    else:
        gap, _ = corridor(rules, st)
        german += LINK_VALUE if gap == 0 else -GAP_VALUE * min(gap, 12)
    ezoc = {GERMAN: zoc(rules, st, SOVIET), SOVIET: zoc(rules, st, GERMAN)}
    occupied = side_hexes(rules, st, GERMAN) | side_hexes(rules, st, SOVIET)
    for uid, u in st.units.items():
        if u.status != ON_MAP:
            continue
        spec = rules.specs[uid]
        value = _unit_value(rules, uid)
        if u.hex in ezoc[spec.side] and not any(
                n not in occupied and n not in ezoc[spec.side] and n not in rules.map.prohibited
                for n in rules.map.neighbors[u.hex]):
            value -= DOOMED_PRICE * (value + (3 if spec.side == GERMAN and rules.victory == "points" else 0))
        german += value if spec.side == GERMAN else -value
    return german if side == GERMAN else -german


# ---------------------------------------------------------------- battles (shared with the classic strong player)
def odds_first(declarations, odds_of) -> list:
    """The legal battles, at most two groups per defender and odds column (fewest, then weakest, attackers),
    the most promising (highest odds) first so a short budget still sees them; ``odds_of(declaration)`` gives
    its odds (a ``column`` and an ``attack``)."""
    best: dict = {}
    for decl in declarations:
        odds = odds_of(decl)
        k = (decl.defender, odds.column)
        weight = (len(decl.attackers), odds.attack)
        best.setdefault(k, []).append((weight, decl, odds.column))
    out = []
    for items in best.values():
        items.sort(key=lambda x: (x[0], x[1].text()))
        out.extend(items[:2])
    out.sort(key=lambda x: (-x[2], x[0], x[1].text()))
    return [d for _, d, _ in out]


def pick_battles(scored: list) -> list:
    """Of (expected gain, declaration, why) triples, the battles to announce, best gain first: no unit in two of
    them and no defender twice."""
    scored = sorted(scored, key=lambda x: (-x[0], x[1].text()))
    plan, used, hit = [], set(), set()
    for gain, decl, why in scored:
        if decl.defender in hit or used & set(decl.attackers):
            continue
        plan.append((gain, decl, why))
        used.update(decl.attackers)
        hit.add(decl.defender)
    return plan


# ---------------------------------------------------------------- the player
class StrongDemyansk(DemyanskBot):
    """Chooses one legal action at a time for one side, planning battles with the engine (see the module)."""

    def __init__(self, side: str, blank_answer: str = "NE", budget: float = 0.0, min_gain: float = 0.05,
                 max_battles: int = 30, cancel=None):
        super().__init__(side, min_column=1, blank_answer=blank_answer)
        self.budget = float(budget)              # seconds for the battles of one combat phase (0: no clock)
        self.max_battles = int(max_battles)      # candidate battles simulated a combat phase, the best odds first
        self.min_gain = float(min_gain)
        self.cancel = cancel or (lambda: False)  # asked between two simulated battles: True stops the planning
        self.last_reason = ""
        self._plan: list = []                    # the battles chosen for this combat phase, best first
        self._planned = None
        self._targets_for = None

    def fork(self) -> "StrongDemyansk":
        twin = super().fork()
        twin._plan = list(self._plan)
        return twin

    # ------------------------------------------------------------ entry point
    def choose(self, rules, st: State):
        self.last_reason = ""
        return super().choose(rules, st)

    # ------------------------------------------------------------ pending choices
    def _answer(self, rules, st: State):
        p = st.pending[0]
        if p["kind"] == "result":
            return super()._answer(rules, st)
        options = rules.legal_actions(st)
        if len(options) == 1:
            return options[0]
        best = max(options, key=lambda a: (self._after(rules, st, a), a.text()))
        self.last_reason = f"the best of {len(options)} choices"
        return best

    def _after(self, rules, st: State, action) -> float:
        try:
            after, _ = rules.apply(st, action)
        except IllegalAction:
            return float("-inf")
        return evaluate(rules, after, self.side)

    # ------------------------------------------------------------ targets for movement
    def _targets(self, rules, st: State):
        """The corridor's blocked hexes (German: to open them; Soviet: to hold them), else the baseline's;
        worked out once a phase."""
        key = (st.turn, st.phase)
        if self._targets_for is None or self._targets_for[0] != key:
            self._targets_for = (key, self._corridor_targets(rules, st))
        return self._targets_for[1]

    def _corridor_targets(self, rules, st: State):
        gap, path = corridor(rules, st)
        if 0 < gap < 999:
            szoc = zoc(rules, st, SOVIET)
            soviet = side_hexes(rules, st, SOVIET)
            blocked = [h for h in path if h in szoc or h in soviet]
            if blocked:
                if self.side == GERMAN:
                    return blocked
                return blocked + sorted(side_hexes(rules, st, GERMAN))
        return super()._targets(rules, st)

    # ------------------------------------------------------------ movement
    def _move(self, rules, st: State):
        """The baseline's movement (withdrawals, garrisons, the front mended first), then each unit toward the
        corridor: units already in contact move too (German units may leave a zone of control, 7.1) and the
        pocket pushes out toward the relief, as long as the front (7.3) or the ring (7.2) holds."""
        if self.side == GERMAN:
            first = self._german_duties(rules, st)
            if first is not None:
                return first
        else:
            shut = self._shut_corridor(rules, st)
            if shut is not None:
                return shut
        targets = self._targets(rules, st)
        for uid in self._movers(rules, st):
            u = st.units[uid]
            if self.side == SOVIET and any(n in side_hexes(rules, st, GERMAN) for n in rules.map.neighbors[u.hex]):
                continue                                    # 5.2: it could not leave anyway
            r = reach(rules, st, uid)
            if not r.destinations:
                continue
            here = _nearest(u.hex, targets)
            dest = min(r.destinations, key=lambda h: (_nearest(h, targets), r.destinations[h], h))
            if _nearest(dest, targets) >= here:
                continue
            move = A.Move(uid, rules.map.hex_id(dest), rules.map.hex_id(u.hex))
            try:
                if not self._keeps_line(rules, st, move):
                    continue                                # never open the front or the ring
            except IllegalAction:
                continue
            n = _nearest(dest, targets)
            self.last_reason = f"heads for the corridor, {n} hex{'' if n == 1 else 'es'} from it"
            return move
        return None

    def _shut_corridor(self, rules, st: State):
        """Soviet: while the way from the west to the pocket is short (``corridor``) or open, the move that
        lengthens it most, tried with the engine on every legal move ending on or next to that way; None when
        no move lengthens it."""
        gap, path = corridor(rules, st)
        if gap >= SHUT_GAP or not path:
            return None
        near = set(path)
        for h in path:
            near.update(rules.map.neighbors[h])
        moves = [a for a in rules.legal_actions(st)
                 if isinstance(a, A.Move) and a.unit not in self._done and rules.hex(a.to) in near]
        v = _view(rules, st)
        best = None
        if v is None:
            for a in moves:
                try:
                    after, _ = rules.apply(st, a)
                except IllegalAction:
                    continue
                longer, _ = corridor(rules, after)
                if longer > gap and (best is None or (longer, best[1].text()) > (best[0], a.text())):
                    best = (longer, a)
        else:
            best = _longest_after(rules, st, v, gap, path, moves)
        if best is None:
            return None
        longer, move = best
        self._done.add(move.unit)
        self.last_reason = (f"shuts the corridor to the pocket" if gap == 0 else
                            f"deepens the block between the pocket and the west ({gap} to {longer})")
        return move

    # ------------------------------------------------------------ combat
    def _declare(self, rules, st: State):
        key = (st.turn, st.phase)
        if self._planned != key:
            self._planned = key
            self._plan = self.plan_battles(rules, st)
        while self._plan:
            gain, decl, why = self._plan.pop(0)
            try:
                odds = rules.odds(st, decl.defender, decl.attackers)
                rules.apply(st, decl)
            except IllegalAction:
                continue
            self.last_reason = f"{odds.label}, expected gain {gain:.1f}{why}"
            return decl
        return None

    def plan_battles(self, rules, st: State) -> list:
        """The battles worth announcing now, best first: (expected gain, declaration, why), each gain above
        ``min_gain``, no unit in two of them and no defender twice."""
        start = time.perf_counter()
        now = evaluate(rules, st, self.side)
        scored = []
        for decl in self._candidates(rules, st)[:self.max_battles]:
            if self.cancel() or self.budget and time.perf_counter() - start > self.budget:
                break
            gain, why = self.battle_gain(rules, st, decl, now)
            if gain > self.min_gain:
                scored.append((gain, decl, why))
        return pick_battles(scored)

    def _candidates(self, rules, st: State) -> list:
        return odds_first(rules.declarations(st), lambda d: battle_odds(rules, st, d.defender, d.attackers))

    def battle_gain(self, rules, st: State, decl, now: float | None = None) -> tuple[float, str]:
        """The expected change of the evaluation if ``decl`` is fought now, over the six faces of the die, and a
        few words on its best outcome."""
        if now is None:
            now = evaluate(rules, st, self.side)
        declared, _ = rules.apply(st, decl)
        odds = battle_odds(rules, st, decl.defender, decl.attackers)
        faces: dict = {}                          # a result -> the faces that give it (each simulated once)
        for face in range(1, 7):
            cell = read_cell(rules.charts, st.charts, CRT, crt_key(rules.tables, odds.column, face))
            faces.setdefault(cell or self.blank_answer, []).append(face)
        total, best = 0.0, (float("-inf"), "")
        for result, same in sorted(faces.items()):
            trial = declared.copy()
            trial.preset_dice = [same[0]]
            try:
                after, _ = rules.apply(trial, A.Resolve(decl.defender))
                after = self._settle(rules, after)
            except IllegalAction:
                return float("-inf"), ""
            value = evaluate(rules, after, self.side)
            total += value * len(same)
            if value > best[0]:
                best = (value, self._outcome_words(rules, st, after))
        gain = total / 6 - now
        return gain, best[1]

    def _settle(self, rules, st: State) -> State:
        """Answer the choices a simulated result asks for: blank cells with the bot's answer, each side's
        retreats and advances by its best evaluation."""
        for _ in range(20):
            if not st.pending:
                return st
            p = st.pending[0]
            if p["kind"] == "result":
                prompt = rules.chart_prompt(st)
                action = ChartAnswer(prompt.slot, prompt.key, self.blank_answer)
            elif p["kind"] == "retreat" and p["side"] != self.side:
                action = DemyanskBot(p["side"])._answer(rules, st)      # the enemy's retreat: away from us
            else:
                options = rules.legal_actions(st)
                who = p["side"]
                action = max(options, key=lambda a: (self._value_for(rules, st, a, who), a.text()))
            st, _ = rules.apply(st, action)
        return st

    def _value_for(self, rules, st: State, action, side: str) -> float:
        try:
            after, _ = rules.apply(st, action)
        except IllegalAction:
            return float("-inf")
        return evaluate(rules, after, side)

    def _outcome_words(self, rules, before: State, after: State) -> str:
        lost = [u for u in after.units if before.units[u].status == ON_MAP and after.units[u].status != ON_MAP
                and rules.specs[u].side != self.side]
        if rules.victory != "points":
            was = corridor(rules, before)[0] == 0
            now = corridor(rules, after)[0] == 0
            if was != now:
                return ": may open the line to the pocket" if now else ": may cut the open line"
        if lost:
            return f": may destroy {', '.join(sorted(lost))}"
        return ": pushes it back"


def strong_for(rules, side: str, cancel=None, **options):
    """A function from a state to the strong player's next action for ``side`` (one player, keeping its
    memory); ``options`` are ``STRONG_OPTIONS``; ``cancel`` a function that says to stop thinking."""
    if getattr(rules, "name", "") != "demyansk":
        raise ValueError(f"the strong player knows Demyansk Pocket only, not the {getattr(rules, 'name', '?')} rules")
    if side not in (GERMAN, SOVIET):
        raise ValueError(f"Demyansk has no side {side!r}")
    unknown = set(options) - set(STRONG_OPTIONS)
    if unknown:
        raise ValueError(f"the strong player has no option {', '.join(sorted(unknown))}")
    return chooser(rules, StrongDemyansk(side, cancel=cancel, **options))

