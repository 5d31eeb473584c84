"""``python -m engine play SCENARIO --seed N --bot german,soviet``: bots play a scenario to the end; prints the winner and the victory breakdown.

``--bot random`` plays every side of any ruleset with uniformly random legal actions
(``engine.players.random``), its choices seeded by ``--seed`` apart from the game's dice.
"""
from __future__ import annotations

import importlib
import json
import time

from ..errors import BadFile, Problem


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a scenario to the end with bots",
                              description="Play a scenario headless to its end with the baseline bot for each "
                                          "side named, print the winner and the victory breakdown.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", default="", help="sides the bot plays, comma separated (every side, for headless play); "
                        "'random' plays every side of any ruleset with random legal actions; 'strong' plays every "
                        "side with the strong player (Demyansk, classic scenarios, the skirmish); SIDE=PLAYER "
                        "(baseline or strong) chooses per side, "
                        "like german=strong,soviet=baseline")
    p.add_argument("--variant", action="append", default=[], metavar="X",
                   help="play with the scenario's variant X (repeat for more; the new-game dialog offers the same)")
    p.add_argument("--explain", action="store_true", help="print each of the strong player's decisions with its "
                                                           "reason")
    p.add_argument("--save", metavar="FILE", help="write the saved game (TOML) at the end")
    p.add_argument("--charts", metavar="FILE", help="the owner's chart book (TOML): blank chart cells it holds are "
                                                    "answered from it first, the bots answer the rest")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..charts import keeper_for
    from ..fileio import check_writable
    from ..game import Game, load_rules

    if args.save:
        check_writable(args.save, "--save")      # before the game is played out, not after
    if args.bot.strip() == "random":
        return _random_play(args)
    own = _ruleset_play(args.scenario)
    if own is not None:
        return own(args)
    rules = load_rules(args.scenario, tuple(args.variant))
    sides = sorted({s.side for s in rules.specs.values()})
    players = _players(args.bot, sides, rules.name)
    bot_mod = importlib.import_module(f"engine.rulesets.{rules.name}.bot")
    bots = {}
    for s, who in players.items():
        if who == "strong":
            from ..players.strong import StrongDemyansk

            bots[s] = StrongDemyansk(s)
        else:
            bots[s] = bot_mod.DemyanskBot(s)
    keeper = keeper_for(rules, args.charts) if args.charts else None
    game = Game(rules, args.seed, args.scenario, tuple(args.variant))
    t0 = time.perf_counter()
    if args.explain:
        bots = {s: _Explaining(b) for s, b in bots.items()}
    bot_mod.play_out(rules, game, bots, charts=keeper)
    seconds = time.perf_counter() - t0
    out = game.outcome()
    if args.save:
        game.save(args.save)
    blanks = sum(b.blank_cells for b in bots.values())
    report = {"scenario": args.scenario, "seed": args.seed, "turns": game.state.turn, "over": game.is_over(),
              "winner": out.winner if out else None, "reason": out.reason if out else "not finished",
              "breakdown": out.breakdown if out else {}, "actions": len(game.log),
              "blank_cells_answered": blanks, "state_sha256": game.hash(), "seconds": round(seconds, 3),
              "players": players}
    if keeper is not None:
        report["chart_prompts"] = {"from_owners_chart": keeper.from_book, "asked": blanks, "charts": args.charts}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {report['turns']} turns, {report['actions']} actions, "
          f"{report['seconds']} s")
    print(f"winner: {report['winner'] or 'nobody (a draw)'} - {report['reason']}")
    _print_breakdown(report["breakdown"], "  ")
    if keeper is not None:
        print(f"chart prompts: {keeper.from_book + blanks}, {keeper.from_book} answered from the owner's chart "
              f"{args.charts}, {blanks} asked")
    if blanks:
        print(f"blank chart cells: {blanks}, answered by the bot with "
              f"{next(iter(bots.values())).blank_answer} (no printed chart at hand)")
    print(f"state hash: {report['state_sha256']}")
    if args.save:
        print(f"saved: {args.save}")
    return 0


def _players(spec: str, sides: list[str], ruleset: str) -> dict[str, str]:
    """``--bot``: each side's player ("baseline" or "strong"); BadFile naming --bot unless every side has one."""
    from ..computer import parse_players

    players, problems = parse_players(spec, sides, ruleset)
    if problems or sorted(players) != sides:
        raise BadFile([Problem("--bot", "", f"headless play needs a player for every side: --bot {','.join(sides)} "
                               f"(the baseline bot) or --bot random or --bot strong or --bot "
                               f"{sides[0]}=strong,{sides[-1]}=baseline"
                               + (f" ({'; '.join(problems)})" if problems else ""))])
    return players


class _Explaining:
    """A bot that prints each decision and, for the strong player, its reason."""

    def __init__(self, bot):
        self.bot = bot

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def choose(self, rules, st):
        action = self.bot.choose(rules, st)
        why = getattr(self.bot, "last_reason", "")
        print(f"turn {st.turn} {st.phase}: {action.text()}" + (f" - {why}" if why else ""))
        return action


def _random_play(args) -> int:
    """Every side plays uniformly random legal actions to the end (the invariant test's player)."""
    from ..charts import ChartAnswer
    from ..game import Game, load_rules
    from ..players.random import play_random

    from ..charts import keeper_for

    variants = tuple(getattr(args, "variant", None) or ())
    rules = load_rules(args.scenario, variants)
    keeper = keeper_for(rules, args.charts) if getattr(args, "charts", None) else None
    game = Game(rules, args.seed, args.scenario, variants)
    t0 = time.perf_counter()
    play_random(game, charts=keeper)
    seconds = time.perf_counter() - t0
    out = game.outcome()
    if args.save:
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "bot": "random", "variants": list(variants),
              "over": game.is_over(),
              "winner": out.winner if out else None, "reason": out.reason if out else "not finished",
              "breakdown": out.breakdown if out else {}, "actions": len(game.log),
              "chart_prompts_answered": sum(isinstance(e.action, ChartAnswer) for e in game.log)
              - (keeper.from_book if keeper is not None else 0),
              "state_sha256": game.hash(), "seconds": round(seconds, 3)}
    turn = getattr(game.state, "turn", None)
    if isinstance(turn, int):
        report["turns"] = turn            # the turn the game ended in, where the ruleset counts turns
    if keeper is not None:
        report["chart_prompts"] = {"from_owners_chart": keeper.from_book, "asked": report["chart_prompts_answered"],
                                   "charts": args.charts}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.scenario}, seed {args.seed}" + (f", variants {', '.join(variants)}" if variants else "")
          + f", random play: {report['actions']} actions, {report['seconds']} s")
    print(f"winner: {report['winner'] or 'nobody (a draw)'} - {report['reason']}")
    _print_breakdown(report["breakdown"], "  ")
    if report["chart_prompts_answered"]:
        print(f"chart prompts answered at random: {report['chart_prompts_answered']}")
    print(f"state hash: {report['state_sha256']}")
    if args.save:
        print(f"saved: {args.save}")
    return 0


def _ruleset_play(path: str):
    """A ruleset's own headless play (``engine/rulesets/<name>/headless.py``), if the scenario's ruleset has one."""
    from ..fileio import read_toml

    head = read_toml(path).get("scenario")
    name = head.get("ruleset") if isinstance(head, dict) else None
    if not isinstance(name, str) or not name.isidentifier():
        return None
    try:
        return importlib.import_module(f"engine.rulesets.{name}.headless").run
    except ModuleNotFoundError as e:
        if e.name in (f"engine.rulesets.{name}", f"engine.rulesets.{name}.headless"):
            return None
        raise


def _print_breakdown(d: dict, indent: str) -> None:
    for k, v in d.items():
        if isinstance(v, dict):
            print(f"{indent}{k}:")
            _print_breakdown(v, indent + "  ")
        else:
            print(f"{indent}{k}: {v}")
