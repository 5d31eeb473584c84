"""``python -m engine play scenarios/black-wednesday-4-melee-in-krasni-bor.toml --bot strong --charts BOOK``: a TCS
game (Black Wednesday, Leros) played headless.

``--bot random`` plays every side with random legal actions (``engine/players/random.py``, the invariant test);
``--bot soviet,axis`` plays both with the baseline player, ``--bot strong`` with the strong one, ``--bot
soviet=strong,axis=baseline`` chooses per side (``engine/players/tcs_player.py``).  ``--charts`` is the owner's
chart book: a printed value it holds answers the game's question first, a cell it lacks is answered by the
player to act with the first of the chart's results (a headless game has nobody to ask).  ``--explain`` prints
each decision with its reason.
"""
from __future__ import annotations

import json
import time

from ...errors import BadFile, Problem

MAX_ACTIONS = 200_000


def run(args) -> int:
    """The ``play`` command for a TCS scenario with the baseline or strong players."""
    from ...charts import keeper_for
    from ...computer import bot_for, parse_players, side_to_act
    from ...game import Game, load_rules

    variants = tuple(getattr(args, "variant", None) or ())
    rules = load_rules(args.scenario, variants)
    sides = list(rules.side_ids)
    players, problems = parse_players(args.bot, sides, rules.name)
    if problems or sorted(players) != sorted(sides):
        raise BadFile([Problem("--bot", "", f"headless TCS play needs a player for every side: --bot "
                                            f"{','.join(sides)} (the baseline), --bot strong, --bot "
                                            f"{sides[0]}=strong,{sides[1]}=baseline or --bot random"
                               + (f" ({'; '.join(problems)})" if problems else ""))])
    keeper = keeper_for(rules, args.charts) if getattr(args, "charts", None) else None
    game = Game(rules, args.seed, args.scenario, variants)
    bots = {s: bot_for(rules, s, bot=who) for s, who in players.items()}
    asked = 0
    t0 = time.perf_counter()
    for _ in range(MAX_ACTIONS):
        if keeper is not None:
            keeper.play_known(game)
        if game.is_over():
            break
        st = game.state
        side = side_to_act(rules, st)
        asked += bool(st.pending and st.pending[0]["kind"] == "chart")
        action = bots[side](st)
        if getattr(args, "explain", False):
            why = getattr(bots[side].player, "last_reason", "")
            print(f"{rules.clock(st)}: {action.text()}" + (f" - {why}" if why else ""))
        game.play(action)
    seconds = time.perf_counter() - t0
    out = game.outcome()
    if args.save:
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "players": players, "variants": list(variants),
              "over": game.is_over(), "winner": out.winner if out else None,
              "reason": out.reason if out else "not finished", "breakdown": out.breakdown if out else {},
              "actions": len(game.log), "turns": game.state.turn, "blank_cells_answered": asked,
              "state_sha256": game.hash(), "seconds": round(seconds, 3)}
    if keeper is not None:
        report["chart_prompts"] = {"from_owners_chart": keeper.from_book, "asked": asked, "charts": args.charts}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {report['actions']} actions, {report['seconds']} s")
    print(f"winner: {report['winner'] or 'nobody (a draw)'} - {report['reason']}")
    for k, v in report["breakdown"].items():
        print(f"  {k}: {v}")
    if asked:
        print(f"blank chart cells answered with the chart's first result (no printed chart at hand): {asked}")
    print(f"state hash: {report['state_sha256']}")
    if args.save:
        print(f"saved: {args.save}")
    return 0
