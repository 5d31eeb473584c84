"""``python -m engine los MAP FROM TO``: can FROM see TO? Clear or blocked, by what, where."""
from __future__ import annotations

import json
import math

from ..errors import BadFile, Problem


def add_sight_options(p) -> None:
    """Options the los and viewshed commands share."""
    p.add_argument("--observer-height", type=float, default=None, metavar="M",
                   help="metres above the ground of the observer's eyes (default: the ruleset's)")
    p.add_argument("--target-height", type=float, default=None, metavar="M",
                   help="metres above the ground of the target (default: the ruleset's)")
    p.add_argument("--rules", metavar="FILE", default=None,
                   help="a TOML file with a [los] table (default: the built-in table)")
    p.add_argument("--edge-rule", choices=("both", "either"), default=None,
                   help="a line along a hexside or through a corner is blocked if both sides block, "
                        "or if either does (default: the ruleset's)")
    p.add_argument("--visibility", type=int, default=None, metavar="HEXES",
                   help="the turn's visibility limit in hexes")
    p.add_argument("--smoke", nargs="+", default=(), metavar="HEX", help="hexes with smoke markers")
    p.add_argument("--json", action="store_true", help="print JSON")


def prepare(args):
    """(board, sight map, markers) from the command's arguments; bad input raises BadFile/BadHexId."""
    from engine.los.model import SightMap
    from engine.los.rules import DEFAULT_LOS_RULES, load_los_rules
    from .hex import load_board

    rules = load_los_rules(args.rules) if args.rules else DEFAULT_LOS_RULES
    if args.edge_rule:
        rules = rules.with_options(edge_rule=args.edge_rule)
    for name in ("observer_height", "target_height"):
        v = getattr(args, name)
        if v is not None and (not math.isfinite(v) or v < 0):
            raise BadFile([Problem("command line", "--" + name.replace("_", "-"),
                                   f"expected a height of 0 m or more, found {v}")])
    if args.visibility is not None and args.visibility < 1:
        raise BadFile([Problem("command line", "--visibility", f"expected 1 hex or more, found {args.visibility}")])
    board = load_board(args.map)
    markers = {board.parse_hex(h): ["smoke"] for h in args.smoke}
    return board, SightMap(board, rules), markers


def register(subparsers) -> None:
    p = subparsers.add_parser("los", help="line of sight between two hexes, explained",
                              description="Is the line of sight from one hex to another clear or blocked? "
                                          "If blocked: by what, in which hex, where along the line, "
                                          "how high the line and the obstacle are there.")
    p.add_argument("map", metavar="MAP", help="a map file (or a scenario file: its map is used)")
    p.add_argument("frm", metavar="FROM", help="the observer's hex id, like A05.06")
    p.add_argument("to", metavar="TO", help="the target's hex id")
    p.add_argument("--all", action="store_true", help="list every obstruction, not only the first")
    add_sight_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from engine.los.query import line_of_sight

    board, sm, markers = prepare(args)
    a = board.parse_hex(args.frm)
    b = board.parse_hex(args.to)
    result = line_of_sight(sm, a, b, observer_height=args.observer_height, target_height=args.target_height,
                           markers=markers, visibility_limit=args.visibility, every=args.all)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.explain())
        for o in result.obstructions[1:]:
            print("  also " + o.explain())
    return 0
