"""``python -m engine play scenarios/scw-platoon-attack.toml --seed N --bot attacker``: the skirmish played headless.

The defenders need no bot: their guns' behaviour is written into the rules
and the engine decides it (``enemy.py``).  The attacker is the baseline bot.
"""
from __future__ import annotations

import json
import time

from ...errors import BadFile, Problem
from ...game import Game
from . import rules_for_path
from .bot import attacker_move

MAX_ORDERS = 5000


def play_out(rules, game: Game, limit: int = MAX_ORDERS) -> None:
    """Let the attacker bot give orders until the game ends."""
    for _ in range(limit):
        if game.is_over():
            return
        game.play(attacker_move(rules, game.state))
    raise RuntimeError(f"the game did not end within {limit} orders")


def summary(game: Game) -> dict:
    """What the game came to: the winner, why, and what is left of both sides."""
    s = game.state
    out = game.outcome()
    return {
        "winner": out.winner if out else None,
        "reason": out.reason if out else "not finished",
        "breakdown": {
            "attackers": {t["id"]: (f"{t['figures']} figures, Bravado {t['bravado']}" if t["alive"] else "wiped out")
                          for _, t in sorted(s["teams"].items(), key=lambda kv: (len(kv[0]), kv[0]))},
            "cards": {c["id"]: f"{c['position']}: {c['face'] if c['revealed'] else 'face down'}"
                      for _, c in sorted(s["cards"].items())},
            "guns": {g["id"]: ("captured" if g["captured"] else "silenced" if g["silenced"] else "firing")
                     for _, g in sorted(s["guns"].items())},
        },
    }


def run(args) -> int:
    """The ``play`` command for a skirmish scenario."""
    chosen = [s.strip() for s in (args.bot or "").split(",") if s.strip()]
    if chosen != ["attacker"]:
        raise BadFile([Problem("--bot", "", "headless skirmish play needs --bot attacker "
                                            "(the defenders' guns are played by the rules themselves)")])
    rules = rules_for_path(args.scenario)
    game = Game(rules, args.seed, args.scenario)
    t0 = time.perf_counter()
    play_out(rules, game)
    seconds = time.perf_counter() - t0
    if getattr(args, "save", None):
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "turns": game.state["turn"], "over": game.is_over(),
              **summary(game), "actions": len(game.log), "state_sha256": game.hash(), "seconds": round(seconds, 3)}
    if getattr(args, "json", False):
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {report['turns']} turns, {report['actions']} orders, "
          f"{report['seconds']} s")
    print(f"winner: {report['winner']} - {report['reason']}")
    for part, items in report["breakdown"].items():
        print(f"  {part}:")
        for k, v in items.items():
            print(f"    {k}: {v}")
    print(f"state hash: {report['state_sha256']}")
    if getattr(args, "save", None):
        print(f"saved: {args.save}")
    return 0
