"""The baseline bots: the attacking platoon's fire and movement by a fixed list of priorities, and the
defenders' set-up (laying the cards where the scenario says ``cards = "player"``) as the rules' automatic
procedure lays them.

They pick only among ``legal_actions`` (so the attacker can never cheat with the hidden cards: it aims at
face-down cards by their positions only).  Deterministic; neither throws the game's dice.
"""
from __future__ import annotations

from engine.game import seed_rng
from engine.maps.table import distance
from .actions import Cover, EndTurn, Move, Order, Place
from .dice import shuffle

PRESS_ON_AT = 5   # presses on after a casualty while Bravado is at least this


def attacker_move(rules, state: dict) -> Order:
    """The attacker's next order."""
    legal = rules.legal_actions(state)
    if not legal:
        raise ValueError("the game is over")
    by_verb: dict[str, list[Order]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    if "press-on" in by_verb:
        t = state["teams"][by_verb["press-on"][0].team]
        return by_verb["press-on"][0] if t["bravado"] >= PRESS_ON_AT else by_verb["take-cover"][0]
    if "bayonet" in by_verb:
        return by_verb["bayonet"][0]
    if "place" in by_verb:
        return by_verb["place"][0]
    for verb in ("assault", "rally", "grenade", "fire"):
        if verb in by_verb:
            return _closest(state, by_verb[verb])
    if "cover" in by_verb:
        rifles = [a for a in by_verb["cover"] if state["teams"][a.teams[0]]["kind"] == "rifle"]
        if rifles and _someone_to_cover(state, rifles[0]):
            return rifles[0]
    moves = by_verb.get("move", [])
    near_gun = _teams_near_guns(state, rules)
    for a in by_verb.get("take-cover", []):
        if a.team in near_gun:
            return a
    if "leave" in by_verb:
        for a in by_verb["leave"]:
            if a.team not in near_gun:
                return a
    best = _best_moves(state, moves)
    if best:
        return best[0]
    return EndTurn()


def _closest(state, actions: list[Order]) -> Order:
    def key(a):
        t = state["teams"].get(getattr(a, "team", ""), None)
        g = state["guns"].get(getattr(a, "gun", ""), None)
        d = distance(t["at"], g["at"]) if t and g else 0.0
        return (d, a.text())
    return min(actions, key=key)


def _someone_to_cover(state, cover: Cover) -> bool:
    return any(t["alive"] and not t["done"] and not t["pinned"] and t["id"] not in cover.teams
               for t in state["teams"].values())


def _teams_near_guns(state, rules) -> set[str]:
    """Teams close enough to a firing gun to throw grenades from cover."""
    reach = rules.t["ranges"]["grenade"]
    out = set()
    for t in state["teams"].values():
        for g in state["guns"].values():
            if not g["captured"] and not g["silenced"] and t["alive"] and distance(t["at"], g["at"]) <= reach:
                out.add(t["id"])
    return out


def _best_moves(state, moves: list[Move]) -> list[Move]:
    """One move per team, the one that ends nearest a gun, else nearest a face-down card; LMGs last."""
    goals = [tuple(g["at"]) for g in state["guns"].values() if not g["captured"]]
    if not goals:
        goals = [tuple(c["front"]) for c in state["cards"].values() if not c["revealed"] and c["front"]]
    if not goals:
        return []
    per_team: dict[str, Move] = {}
    for m in moves:
        d = min(distance((m.x, m.y), g) for g in goals)
        cur = per_team.get(m.team)
        if cur is None or d < min(distance((cur.x, cur.y), g) for g in goals):
            per_team[m.team] = m
    order = sorted(per_team.values(), key=lambda m: (state["teams"][m.team]["kind"] == "lmg", m.team))
    return order


def automatic_layout(rules, state: dict) -> list[str]:
    """Where the automatic procedure (SCW Scenario 2, ``ScwRules._place_automatically``) would lay the cards
    still to be laid, one position a card in card order, after those already laid: the defensive positions
    shuffled, each taken unless it would put more than two cards within 4 inches.  The shuffle uses a generator
    of its own, seeded from the game's generator as it stands (which it does not move): the same game always
    gets the same layout, and the game's dice are not touched."""
    taken = [c["position"] for _, c in sorted(state["cards"].items()) if c["position"]]
    waiting = sum(1 for c in state["cards"].values() if c["position"] is None)
    own = {"rng": seed_rng(int(state["rng"]) ^ LAYOUT_SALT)}
    names = sorted(loc.name for loc in rules.table.locations_of_kind(rules.scenario.position_kind))
    chosen: list[str] = []
    for name in shuffle(own, names):
        if len(chosen) == waiting:
            break
        if name not in taken and not rules.crowded(taken + chosen + [name]):
            chosen.append(name)
    return chosen


LAYOUT_SALT = 0x5CA7_7E12_CA2D_5EED       # the baseline defender's own generator, apart from the game's


def defender_move(rules, state: dict) -> Order:
    """The defender's next decision: the next card laid where the automatic procedure would lay it."""
    legal = rules.legal_actions(state)
    if not legal:
        raise ValueError("the defenders have nothing to decide now: the rules play their guns")
    for name in automatic_layout(rules, state):
        for a in legal:
            if isinstance(a, Place) and a.position == name:
                return a
    return legal[0]                       # the layout met crowding it could not foresee: the first legal place


def bot_for(rules, side: str):
    """A function from a state to the side's next decision: the attacker's orders, the defender's set-up (the
    defenders' guns are played by the rules themselves, ``enemy.py``)."""
    if side == "attacker":
        return lambda state: attacker_move(rules, state)
    if side == "defender":
        return lambda state: defender_move(rules, state)
    raise ValueError(f"the skirmish has no side {side!r} (sides: attacker, defender)")


def side_to_act(state: dict) -> str | None:
    """The side whose decision the game waits for: the defender lays its cards at set-up, then the attacker."""
    if state["outcome"]:
        return None
    return "defender" if state["phase"] == "setup" else "attacker"
