"""A baseline bot for the attacking platoon: fire and movement by a fixed list of priorities.

It picks only among ``legal_actions`` (so it can never cheat with the hidden
cards: it aims at face-down cards by their positions only).  Deterministic.
"""
from __future__ import annotations

from engine.maps.table import distance
from .actions import Cover, EndTurn, Move, Order

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


def bot_for(rules, side: str):
    """A function from a state to the attacker's next order; the defenders need none (the rules play them)."""
    if side != "attacker":
        raise ValueError(f"the skirmish's {side} is played by the rules themselves, not by a bot")
    return lambda state: attacker_move(rules, state)


def side_to_act(state: dict) -> str | None:
    """The side whose decision the game waits for: the defender lays its cards at set-up, then the attacker."""
    if state["outcome"]:
        return None
    return "defender" if state["phase"] == "setup" else "attacker"
