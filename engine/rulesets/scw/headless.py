"""``python -m engine play scenarios/scw-platoon-attack.toml --seed N --bot attacker``: the skirmish played headless.

The defenders' guns need no player: their behaviour is written into the rules
and the engine decides it (``enemy.py``).  ``--bot attacker`` plays the
attacker with the baseline bot; ``--bot strong`` plays both sides with the
strong players (``engine/players/scw_strong.py``); ``--bot
attacker=strong,defender=baseline`` chooses per side (the defender decides
only where the cards lie, with the ``player-cards`` variant).  ``--variant``
picks the scenario's variants; ``--explain`` prints each decision with the
strong player's reason.
"""
from __future__ import annotations

import json
import time

from ...errors import BadFile, Problem
from ...game import Game
from . import rules_for_path
from .bot import attacker_move

SIDES = ("attacker", "defender")
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


def players_from(spec: str) -> dict[str, str]:
    """``--bot``: each side's player ("baseline" or "strong"); the attacker must have one, the defender has the
    baseline unless named (it decides only where the cards lie).  BadFile naming --bot otherwise."""
    from ...computer import parse_players

    players, problems = parse_players(spec, SIDES, "scw")
    if problems or "attacker" not in players:
        raise BadFile([Problem("--bot", "", "headless skirmish play needs --bot attacker (the baseline), --bot "
                                            "strong, or --bot attacker=strong,defender=baseline (the defenders' "
                                            "guns are played by the rules themselves)"
                               + (f" ({'; '.join(problems)})" if problems else ""))])
    players.setdefault("defender", "baseline")
    return players


def play_with(rules, game: Game, choosers: dict, explain=None, limit: int = MAX_ORDERS) -> None:
    """Play the game to its end, each decision by the side to act's chooser (a function of the state);
    ``explain(turn, action, reason)`` hears of each one."""
    from .bot import side_to_act

    for _ in range(limit):
        if game.is_over():
            return
        st = game.state
        choose = choosers[side_to_act(st)]
        action = choose(st)
        if explain is not None:
            player = getattr(choose, "player", None)
            explain(st, action, getattr(player, "last_reason", "") or "")
        game.play(action)
    raise RuntimeError(f"the game did not end within {limit} orders")


def run(args) -> int:
    """The ``play`` command for a skirmish scenario."""
    from ...computer import bot_for

    players = players_from(args.bot)
    variants = tuple(getattr(args, "variant", None) or ())
    rules = rules_for_path(args.scenario, variants or None)
    game = Game(rules, args.seed, args.scenario, variants)
    choosers = {side: bot_for(rules, side, bot=who) for side, who in players.items()}

    def explain(st, action, why):
        where = "set-up" if st["phase"] == "setup" else f"turn {st['turn']}"
        print(f"{where}: {action.text()}" + (f" - {why}" if why else ""))

    t0 = time.perf_counter()
    play_with(rules, game, choosers, explain if getattr(args, "explain", False) else None)
    seconds = time.perf_counter() - t0
    if getattr(args, "save", None):
        game.save(args.save)
    report = {"scenario": args.scenario, "seed": args.seed, "variants": list(variants), "players": players,
              "turns": game.state["turn"], "over": game.is_over(),
              **summary(game), "actions": len(game.log), "state_sha256": game.hash(), "seconds": round(seconds, 3)}
    if getattr(args, "json", False):
        print(json.dumps(report))
        return 0
    chosen = f", variants {', '.join(variants)}" if variants else ""
    who = ", ".join(f"{side} {name}" for side, name in players.items())
    print(f"{args.scenario}, seed {args.seed}{chosen} ({who}): {report['turns']} turns, {report['actions']} orders, "
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
