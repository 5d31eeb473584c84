"""Benchmark: a whole Demyansk scenario II game, bot against bot.

Prints one row: ``game_s`` (median seconds of a full game from the opening
to the end of the last turn), ``turns``, ``actions`` (player actions in the
log) and ``replay_s`` (median seconds to replay that log from the start) and
``replay_same_hash`` (the replays reached the game's state hash).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

DEFAULT_REPEAT = 3
SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "demyansk-2-campaign.toml"


def run(args) -> list[dict]:
    from ..game import Game, load_rules, replay
    from ..rulesets.demyansk.bot import DemyanskBot, play_out

    repeat = args.repeat or DEFAULT_REPEAT
    rules = load_rules(str(SCENARIO))
    times, replays, same = [], [], True
    game = None
    for i in range(repeat):
        game = Game(rules, 1, str(SCENARIO))
        bots = {s: DemyanskBot(s) for s in ("german", "soviet")}
        t = time.perf_counter()
        play_out(rules, game, bots)
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        again = replay(rules, 1, game.actions_text())
        replays.append(time.perf_counter() - t)
        same = same and again.hash() == game.hash()
    return [{"game_s": round(statistics.median(times), 3), "turns": game.state.turn, "actions": len(game.log),
             "replay_s": round(statistics.median(replays), 3), "replay_same_hash": same, "over": game.is_over()}]
