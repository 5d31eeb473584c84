"""``python -m engine play SCENARIO --bot SIDES`` for free-play scenarios: at a table with no rules the computer has
nothing to decide and moves the track on; ``--bot random`` plays uniformly random legal actions (seeded by
``--seed``, at most ``MAX_ACTIONS``), the invariant test of every ruleset."""
from __future__ import annotations

import json
import random

from ...errors import BadFile, Problem

MAX_ACTIONS = 5000


def run(args) -> int:
    from ...game import Game, load_rules

    rules = load_rules(args.scenario)
    sides = list(rules.scenario.sides)
    chosen = [s.strip() for s in args.bot.split(",") if s.strip()]
    if chosen != ["random"] and sorted(chosen) != sorted(sides):
        raise BadFile([Problem("--bot", "", f"headless play needs a player for every side: --bot {','.join(sides)} "
                               "or --bot random")])
    game = Game(rules, args.seed, args.scenario)
    rng = random.Random(args.seed)
    while not game.is_over() and len(game.log) < MAX_ACTIONS:
        game.play(rng.choice(rules.legal_actions(game.state)) if chosen == ["random"] else "end")
    out = game.outcome()
    if args.save:
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "turns": game.state.turn, "over": game.is_over(),
              "winner": out.winner if out else None, "reason": out.reason if out else "not finished",
              "breakdown": out.breakdown if out else {}, "actions": len(game.log), "state_sha256": game.hash()}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{args.scenario}, seed {args.seed}: {report['turns']} turns, {report['actions']} actions")
        print(f"{'winner: ' + report['winner'] if report['winner'] else 'result'}: {report['reason']}")
        print(f"state hash: {report['state_sha256']}")
    return 0
