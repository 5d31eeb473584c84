"""``python -m engine balance SCENARIO --games N --pairing strong-baseline``: computer players play seeded games
against each other, sides swapped every other game; prints each side's and each player's win rate with its 95 %
(Wilson) interval, the distribution of the victory margin and the mean game length.

Players: ``strong`` (engine/players/strong.py), ``baseline`` (the ruleset's bot.py) and ``random``
(engine/players/random.py).  Games are deterministic from ``--seed``: game i has seed ``seed + i``.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time

from ..errors import BadFile, Problem, SandtableError

DEFAULT_PAIRING = "strong-strong"


def register(subparsers) -> None:
    p = subparsers.add_parser("balance", help="play computer players against each other and report win rates",
                              description="Play seeded games between computer players (sides swapped every other "
                                          "game) and report each side's and player's win rate with its 95 % "
                                          "interval.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument("--pairing", action="append", metavar="A-B",
                   help=f"players to pair, like strong-baseline (players: strong, baseline, random); may be given "
                        f"more than once (default {DEFAULT_PAIRING})")
    p.add_argument("--bots", action="append", metavar="A,B",
                   help="the same as --pairing A-B: the two players, like strong,strong or strong,baseline")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed (game i has seed SEED+i)")
    p.add_argument("--variant", action="append", default=[], metavar="X",
                   help="play the scenario's variant X (repeat for more)")
    p.add_argument("--jobs", type=int, default=0,
                   help="worker processes (default: one per core, at most one per game)")
    p.add_argument("--charts", metavar="FILE",
                   help="the owner's chart book (TOML): the printed values it holds answer the games' questions "
                        "first (the players answer a cell it lacks)")
    p.add_argument("--records", metavar="FILE", help="append one JSON line per game to FILE as it ends")
    p.add_argument("--summarise", metavar="FILE", help="play nothing: report on the games recorded in FILE (written "
                                                       "by --records, one run or several)")
    p.add_argument("--json", action="store_true", help="one JSON object per pairing on standard output; the "
                                                       "progress as JSON lines on standard error")
    p.set_defaults(func=run)


def _pairings(args) -> list[tuple[str, str]]:
    from ..players.match import PLAYERS

    out, problems = [], []
    given = [("--pairing", t, "-") for t in args.pairing or []] + [("--bots", t, ",") for t in args.bots or []]
    for flag, text, joint in given or [("--pairing", DEFAULT_PAIRING, "-")]:
        a, _, b = text.partition(joint)
        if a not in PLAYERS or b not in PLAYERS:
            example = joint.join(("strong", "baseline"))
            problems.append(Problem(flag, text, f"expected two players joined by '{joint}', like {example} "
                                                f"(players: {', '.join(PLAYERS)})"))
        else:
            out.append((a, b))
    if args.games < 1:
        problems.append(Problem("--games", str(args.games), "expected at least 1"))
    if args.jobs < 0:
        problems.append(Problem("--jobs", str(args.jobs), "expected at least 1 (or 0: one per core)"))
    if problems:
        raise BadFile(problems)
    return out


def _stop(signum, _frame):
    raise SystemExit(128 + signum)


def _worker_dies_with_parent() -> None:
    """In a worker process: be sent SIGTERM when the parent ends (Linux), and end on SIGTERM at once."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)      # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _one(job):
    from ..players.match import play_game

    scenario, seed, players, *more = job          # (scenario, seed, players), or with the variants and book after
    variants = tuple(more[0]) if more else ()
    charts = more[1] if len(more) > 1 else None
    try:
        if charts:
            return play_game(scenario, seed, players, variants, charts)
        return play_game(scenario, seed, players, *((variants,) if variants else ()))
    except SandtableError as e:     # said with the game it comes from, and picklable from a worker process
        who = ", ".join(f"{side} {name}" for side, name in players.items())
        raise SandtableError(f"{scenario} seed {seed} ({who}): {e}") from None


def run(args) -> int:
    from ..game import load_rules
    from ..players.match import pairing_games, rules_sides, summarise
    from ..computer import players_for

    if args.summarise:
        return _summarise_records(args)
    pairings = _pairings(args)
    variants = tuple(args.variant or ())
    rules = load_rules(args.scenario, variants)
    charts = getattr(args, "charts", None)
    if charts:
        from ..charts import keeper_for

        keeper_for(rules, charts)               # BadFile now, naming the file, rather than in every game
    known = players_for(rules.name)
    missing = sorted({p for pair in pairings for p in pair} - set(known))
    if missing:
        flag = "--bots" if args.bots else "--pairing"
        raise BadFile([Problem(flag, p, f"the {rules.name} rules have no {p} player (players: {', '.join(known)})")
                       for p in missing])
    sides = rules_sides(rules)
    jobs_wanted = args.jobs or min(os.cpu_count() or 1, args.games)
    for pairing in pairings:
        jobs = [(args.scenario, seed, players, variants, charts) if charts else (args.scenario, seed, players, variants)
                for seed, players in pairing_games(pairing, sides, args.games, args.seed)]
        results = []
        t0 = time.perf_counter()
        if jobs_wanted > 1:
            from multiprocessing import Pool

            # stopped (the scenario editor's Stop, or a kill), the games in the workers stop with it: the pool is
            # terminated on the way out, and a worker whose parent is gone ends itself
            signal.signal(signal.SIGTERM, _stop)
            with Pool(jobs_wanted, initializer=_worker_dies_with_parent) as pool:
                for r in pool.imap(_one, jobs):
                    _done(args, pairing, r, results, t0)
        else:
            for job in jobs:
                _done(args, pairing, _one(job), results, t0)
        summary = summarise(args.scenario, pairing, results, sides)
        if variants:
            summary["variants"] = list(variants)
        phases = [s for r in results for s in r.phase_seconds.get("strong", [])]
        if phases:
            phases.sort()
            summary["strong_phase_seconds"] = {"median": round(phases[len(phases) // 2], 3),
                                               "max": round(phases[-1], 3), "phases": len(phases)}
        if args.json:
            print(json.dumps(summary), flush=True)
        else:
            _print(summary, sides)
    return 0


def _summarise_records(args) -> int:
    """The report of the games a records file holds, by pairing (the last record of a seed counts)."""
    from ..game import load_rules
    from ..players.match import GameResult, rules_sides, summarise

    sides = rules_sides(load_rules(args.scenario))
    by_pairing: dict = {}
    try:
        lines = open(args.summarise, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise BadFile([Problem(args.summarise, "", f"cannot read the records: {e.strerror or e}")]) from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            r = GameResult(int(d["seed"]), dict(d["players"]), d["winner"], int(d["turns"]), int(d["actions"]),
                           float(d["seconds"]), d.get("breakdown", {}), {"strong": d.get("strong_phase_seconds", [])})
        except (ValueError, KeyError, TypeError):
            raise BadFile([Problem(args.summarise, f"line {n}", "expected a game record written by --records")]) \
                from None
        by_pairing.setdefault(d["pairing"], {})[r.seed] = r
    for pairing, games in by_pairing.items():
        results = [games[k] for k in sorted(games)]
        a, _, b = pairing.partition("-")
        summary = summarise(args.scenario, (a, b), results, sides)
        phases = sorted(s for r in results if "strong" in r.players.values() for s in r.phase_seconds["strong"])
        if phases:
            summary["strong_phase_seconds"] = {"median": round(phases[len(phases) // 2], 3),
                                               "max": round(phases[-1], 3), "phases": len(phases)}
        if args.json:
            print(json.dumps(summary))
        else:
            _print(summary, sides)
    return 0


def _done(args, pairing, r, results, t0) -> None:
    results.append(r)
    if args.records:
        with open(args.records, "a", encoding="utf-8") as f:
            f.write(json.dumps({"pairing": "-".join(pairing), "variants": list(args.variant or ()),
                                "seed": r.seed, "players": r.players,
                                "winner": r.winner, "turns": r.turns, "actions": r.actions,
                                "seconds": round(r.seconds, 2), "breakdown": r.breakdown,
                                "strong_phase_seconds": [round(x, 4) for x in r.phase_seconds.get("strong", [])]})
                    + "\n")
    n, total = len(results), args.games
    if args.json:           # for machines (the scenario editor's Check balance): one line per game
        print(json.dumps({"pairing": "-".join(pairing), "done": n, "games": total,
                          "seconds": round(time.perf_counter() - t0, 1)}), file=sys.stderr, flush=True)
        return
    width = 30
    bar = "#" * (width * n // total) + "-" * (width - width * n // total)
    print(f"\r{'-'.join(pairing)} [{bar}] {n}/{total} games, {time.perf_counter() - t0:.0f} s",
          end="" if n < total else "\n", file=sys.stderr, flush=True)


def _pct(row: dict) -> str:
    lo, hi = row["ci95"]
    return f"{row['wins']}/{row.get('games', '')} = {100 * row['rate']:.0f} % (95 % interval {100 * lo:.0f}-{100 * hi:.0f} %)"


def _print(s: dict, sides: list[str]) -> None:
    print(f"{s['scenario']}" + (f" ({', '.join(s['variants'])})" if s.get("variants") else "")
          + f": {s['pairing']}, {s['games']} games, {s['mean_turns']} turns and "
          f"{s['mean_actions']} actions a game on average, {s['seconds']} s")
    for side in sides + ["draw"]:
        row = dict(s["sides"][side], games=s["games"])
        print(f"  {'draws' if side == 'draw' else side + ' wins'}: {_pct(row)}")
    for p, row in s["players"].items():
        if "wins" not in row:
            continue
        print(f"  {p}: {_pct(row)}")
        for side in sides:
            print(f"    as {side}: {_pct(row[f'as {side}'])}")
    print("  victory levels: " + ", ".join(f"{k}: {v}" for k, v in s["levels"].items()))
    print(f"  margin ({s['margin_is']}): " + ", ".join(f"{k}: {v}" for k, v in s["margin"].items()))
    if "strong_phase_seconds" in s:
        ph = s["strong_phase_seconds"]
        print(f"  strong player's phases: median {ph['median']} s, max {ph['max']} s over {ph['phases']} phases")
