"""``python -m engine play SCENARIO --bot blue,red`` for classic scenarios: the baseline bot (``--bot strong``: the
strong player for every side, ``--bot blue=strong,red=baseline`` per side; ``--bot random``: uniformly random legal
actions for every side, seeded by ``--seed``) plays to the end; prints the result (``--explain``: each of the
players' decisions with the strong player's reason as it goes)."""
from __future__ import annotations

import json
import time

from ...errors import BadFile, Problem


def run(args) -> int:
    from ...game import Game, load_rules
    from ...commands.play import _Explaining, _players
    from ...computer import STRONG
    from ...players.classic_strong import strong_for
    from .bot import ClassicBot, play_out, random_player

    rules = load_rules(args.scenario)
    sides = list(rules.sides)
    chosen = [s.strip() for s in args.bot.split(",") if s.strip()]
    if chosen == ["random"]:
        player = random_player(rules, args.seed)
        bots = {s: player for s in sides}
    else:
        players = _players(args.bot, sides, rules.name)
        bots = {}
        for s, who in players.items():
            bots[s] = strong_for(rules, s).player if who == STRONG else ClassicBot(s)
        if getattr(args, "explain", False):
            bots = {s: _Explaining(b) for s, b in bots.items()}
    game = Game(rules, args.seed, args.scenario)
    t0 = time.perf_counter()
    play_out(rules, game, bots)
    seconds = time.perf_counter() - t0
    out = game.outcome()
    if args.save:
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "turns": game.state.turn, "over": game.is_over(),
              "winner": out.winner if out else None, "reason": out.reason if out else "not finished",
              "breakdown": out.breakdown if out else {}, "actions": len(game.log), "state_sha256": game.hash(),
              "seconds": round(seconds, 3)}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {report['turns']} turns, {report['actions']} actions, "
          f"{report['seconds']} s")
    print(f"winner: {report['winner'] or 'nobody (a draw)'} - {report['reason']}")
    print(f"state hash: {report['state_sha256']}")
    if args.save:
        print(f"saved: {args.save}")
    return 0

