"""Games between computer players, and the balance report made of many of them.

A game is the scenario, a seed and the players of each side; it is deterministic
(the dice come from the game's generator, the random player has its own seeded
generator, the baseline and strong players choose without chance).  A pairing
``a-b`` plays ``a`` against ``b`` with sides swapped every other game, so each
player has each side in half the games.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..errors import SandtableError

PLAYERS = ("strong", "baseline", "random")
MAX_ACTIONS = 200_000


class NoSuchPlayer(SandtableError):
    """A player name the program does not know."""


def player_for(name: str, rules, side: str, seed: int):
    """A function from a state to the next action of player ``name`` for ``side``, and its bot object (or None)."""
    if name == "strong":
        from ..computer import STRONG, bot_for

        f = bot_for(rules, side, bot=STRONG)
        return f, f.player
    if name == "baseline":
        from ..computer import bot_for

        return bot_for(rules, side), None
    if name == "random":
        from .random import RandomPlayer

        rp = RandomPlayer(seed * 2 + (0 if side == rules_sides(rules)[0] else 1))
        return (lambda st: rp.choose(rules.legal_actions(st))), None
    raise NoSuchPlayer(f"there is no player {name!r} (players: {', '.join(PLAYERS)})")


def rules_sides(rules) -> list[str]:
    """The scenario's sides (a ruleset's ``sides``, else those of its units)."""
    sides = getattr(rules, "sides", None)
    if sides:
        return sorted(sides)
    return sorted({s.side for s in rules.specs.values()})


@dataclass
class GameResult:
    seed: int
    players: dict                 # side -> player name
    winner: str | None
    turns: int
    actions: int
    seconds: float
    breakdown: dict = field(default_factory=dict)
    phase_seconds: dict = field(default_factory=dict)     # player name -> seconds of each of its phases

    @property
    def winning_player(self) -> str | None:
        return self.players.get(self.winner) if self.winner else None


def _read(st, name: str):
    """A state's ``turn`` or ``phase``: an attribute, or a key of a ruleset whose state is a plain dict."""
    return st.get(name) if isinstance(st, dict) else getattr(st, name, None)


def play_game(scenario: str, seed: int, players: dict, variants: tuple[str, ...] = (),
              charts: str | None = None) -> GameResult:
    """Play one game of ``scenario`` (with its ``variants``) with ``players`` (side -> player name) to its end;
    ``charts``, the path of an owner's chart book, answers first the printed values it holds (the players answer a
    cell it lacks)."""
    from ..computer import side_to_act
    from ..scenario.newgame import new_game

    game = new_game(scenario, seed, tuple(variants))
    rules = game.rules
    keeper = None
    if charts:
        from ..charts import keeper_for

        keeper = keeper_for(rules, charts)
    choosers = {side: player_for(name, rules, side, seed)[0] for side, name in players.items()}
    phase_seconds: dict = {name: [] for name in players.values()}
    t0 = time.perf_counter()
    current, started = None, 0.0
    n = 0
    while not game.is_over():
        if keeper is not None:
            keeper.play_known(game)
            if game.is_over():
                break
        if n >= MAX_ACTIONS:
            raise SandtableError(f"{scenario} seed {seed}: no end after {MAX_ACTIONS} actions")
        st = game.state
        side = side_to_act(rules, st)
        key = (_read(st, "turn"), _read(st, "phase"), side)
        now = time.perf_counter()
        if key != current:
            if current is not None and current[2] in players:
                phase_seconds[players[current[2]]].append(now - started)
            current, started = key, now
        game.play(choosers[side](st))
        n += 1
    if current is not None and current[2] in players:
        phase_seconds[players[current[2]]].append(time.perf_counter() - started)
    out = game.outcome()
    return GameResult(seed, dict(players), out.winner if out else None, _read(game.state, "turn") or 0, len(game.log),
                      time.perf_counter() - t0, out.breakdown if out else {}, phase_seconds)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def pairing_games(pairing: tuple[str, str], sides: list[str], games: int, seed: int) -> list[tuple[int, dict]]:
    """The games of a pairing: (seed, side -> player), the first player on the first side in even games."""
    a, b = pairing
    out = []
    for i in range(games):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        out.append((seed + i, {sides[0]: first, sides[1]: second}))
    return out


def summarise(scenario: str, pairing: tuple[str, str], results: list[GameResult], sides: list[str]) -> dict:
    """Win rates with 95 % Wilson intervals: of each side, of each player overall and on each side; the
    distributions of the victory margin (or the verdict) and the mean game length."""
    n = len(results)
    out: dict = {"scenario": scenario, "pairing": "-".join(pairing), "games": n}
    by_side = {}
    for s in sides + [None]:
        w = sum(1 for r in results if r.winner == s)
        lo, hi = wilson(w, n)
        by_side[s or "draw"] = {"wins": w, "rate": round(w / n, 3) if n else 0, "ci95": [round(lo, 3), round(hi, 3)]}
    out["sides"] = by_side
    players = {}
    for p in dict.fromkeys(pairing):
        games = [r for r in results if p in r.players.values()]
        w = sum(1 for r in games if r.winning_player == p)
        lo, hi = wilson(w, len(games))
        row = {"games": len(games), "wins": w, "rate": round(w / len(games), 3) if games else 0,
               "ci95": [round(lo, 3), round(hi, 3)]}
        for s in sides:
            on = [r for r in games if r.players.get(s) == p]
            ws = sum(1 for r in on if r.winner == s)
            lo, hi = wilson(ws, len(on))
            row[f"as {s}"] = {"games": len(on), "wins": ws, "rate": round(ws / len(on), 3) if on else 0,
                              "ci95": [round(lo, 3), round(hi, 3)]}
        players[p] = row
    if pairing[0] == pairing[1]:
        players = {pairing[0]: {"games": n, "note": "the same player on both sides: see the sides' win rates"}}
    out["players"] = players
    margins: dict = {}
    for r in results:
        b = r.breakdown
        if "german total" in b:
            k = b["german total"] - b["soviet total"]
            key = f"{(k // 10) * 10}..{(k // 10) * 10 + 9}"
        else:
            key = r.winner or "draw"
        margins[key] = margins.get(key, 0) + 1
    out["margin"] = dict(sorted(margins.items(), key=lambda kv: _first_number(kv[0])))
    out["margin_is"] = "German minus Soviet victory points, by tens" if any(
        "german total" in r.breakdown for r in results) else "the verdict"
    levels: dict = {}
    for r in results:
        level = r.breakdown.get("level") if isinstance(r.breakdown, dict) else None
        if isinstance(level, str) and level and level != "draw":
            key = f"{r.winner} {level}" if r.winner and r.winner not in level else level
        else:
            key = f"{r.winner} victory" if r.winner else "draw"
        levels[key] = levels.get(key, 0) + 1
    out["levels"] = dict(sorted(levels.items(), key=lambda kv: (-kv[1], kv[0])))
    out["mean_turns"] = round(sum(r.turns for r in results) / n, 2) if n else 0
    out["mean_actions"] = round(sum(r.actions for r in results) / n, 1) if n else 0
    out["seconds"] = round(sum(r.seconds for r in results), 1)
    return out


def _first_number(text: str) -> float:
    try:
        return float(text.split("..")[0])
    except ValueError:
        return math.inf
