"""``python -m engine bench WHAT``: run the benchmark ``engine/bench/WHAT.py`` and print its medians.

A benchmark module has ``run(args) -> list[dict]``; each dict is printed as
one JSON object per line (``--json``) or as ``key=value`` pairs.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import sys


ALIASES = {"import": "vassalimport"}     # benchmark names that are Python keywords -> their module


def available() -> list[str]:
    """Names of the benchmarks in ``engine/bench``."""
    from .. import bench

    names = {m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_")}
    return sorted(names | {a for a, m in ALIASES.items() if m in names})


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="run a benchmark and print medians",
                              description="Run a benchmark from engine/bench and print its medians.")
    p.add_argument("what", metavar="WHAT", help=f"which benchmark ({', '.join(available()) or 'none yet'})")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--repeat", type=int, default=None, metavar="N",
                   help="how many runs each median is taken over (each benchmark has its own default)")
    p.add_argument("--sweep", type=int, nargs="?", const=200, default=None, metavar="N",
                   help="digitise: grid detection over N scans (default 200) drawn at random across the space of "
                        "hex sizes and styles (engine/maps/sweepset.py), reported by hex size band; "
                        "digitise_terrain: N held-out scans of the test set (default 100)")
    p.add_argument("--first", type=int, default=None, metavar="SEED",
                   help="digitise --sweep: the first seed (default 0); digitise_terrain: the first held-out seed "
                        "(default 9000)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.what not in available():
        print(f"no benchmark {args.what!r} (there are: {', '.join(available()) or 'none'})", file=sys.stderr)
        return 1
    if args.repeat is not None and args.repeat < 1:
        print("--repeat must be at least 1", file=sys.stderr)
        return 1
    mod = importlib.import_module(f"engine.bench.{ALIASES.get(args.what, args.what)}")
    for row in mod.run(args):
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    return 0
