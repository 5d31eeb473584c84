"""``python -m engine play scenarios/tcs-test.toml --seed N --bot random``: a TCS game played headless.

The random bot plays every side with uniformly random legal actions and gives
every pending choice, chart prompts included, a random legal answer (the dice of
the bot come from their own generator seeded with the game's seed, never from
the game's dice).
"""
from __future__ import annotations

import json
import random
import time

from ...charts import keeper_for
from ...errors import BadFile, Problem
from ...game import Game
from . import rules_for_path

MAX_ACTIONS = 20000


def play_random(rules, game: Game, seed: int, limit: int = MAX_ACTIONS, charts=None) -> int:
    """Play uniformly random legal actions until the game ends; returns how many chart prompts were answered
    at random.  ``charts`` (an ``engine.charts.ChartKeeper``) answers from the owner's chart first."""
    pick = random.Random(seed)
    answered = 0
    for _ in range(limit):
        if charts is not None:
            charts.play_known(game)
        if game.is_over():
            return answered
        acts = rules.legal_actions(game.state)
        if not acts:
            raise RuntimeError(f"no legal action at {rules.clock(game.state)}")
        a = pick.choice(acts)
        answered += type(a).__name__ == "ChartAnswer"
        game.play(a)
    raise RuntimeError(f"the game did not end within {limit} actions")


def run(args) -> int:
    """The ``play`` command for a TCS scenario."""
    chosen = [s.strip() for s in (args.bot or "").split(",") if s.strip()]
    if chosen != ["random"]:
        raise BadFile([Problem("--bot", "", "headless TCS play needs --bot random (every side, every chart prompt)")])
    rules = rules_for_path(args.scenario)
    keeper = keeper_for(rules, args.charts) if getattr(args, "charts", None) else None
    game = Game(rules, args.seed, args.scenario)
    t0 = time.perf_counter()
    answered = play_random(rules, game, args.seed, charts=keeper)
    seconds = time.perf_counter() - t0
    if getattr(args, "save", None):
        game.save(args.save)
    out = game.outcome()
    report = {"scenario": args.scenario, "seed": args.seed, "clock": rules.clock(game.state), "over": game.is_over(),
              "winner": out.winner if out else None, "reason": out.reason if out else "not finished",
              "breakdown": out.breakdown if out else {}, "actions": len(game.log),
              "chart_prompts_answered": answered, "state_sha256": game.hash(), "seconds": round(seconds, 3)}
    if keeper is not None:
        report["chart_prompts"] = {"from_owners_chart": keeper.from_book, "asked": answered, "charts": args.charts}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {report['actions']} actions, {report['seconds']} s")
    print(f"winner: {report['winner'] or 'nobody (a draw)'} - {report['reason']}")
    for k, v in report["breakdown"].items():
        print(f"  {k}: {v}")
    if keeper is not None:
        print(f"chart prompts: {keeper.from_book + answered}, {keeper.from_book} answered from the owner's chart "
              f"{args.charts}, {answered} asked")
    print(f"chart prompts answered at random: {answered}")
    print(f"state hash: {report['state_sha256']}")
    if getattr(args, "save", None):
        print(f"saved: {args.save}")
    return 0
