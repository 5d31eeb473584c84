"""``python -m engine viewshed MAP FROM``: every hex a hex can see."""
from __future__ import annotations

import json

from .los import add_sight_options, prepare


def register(subparsers) -> None:
    p = subparsers.add_parser("viewshed", help="every hex one hex can see",
                              description="List the hexes the observer's hex can see (its line of sight "
                                          "is clear and within the visibility limit).")
    p.add_argument("map", metavar="MAP", help="a map file (or a scenario file: its map is used)")
    p.add_argument("frm", metavar="FROM", help="the observer's hex id, like A05.06")
    add_sight_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from engine.los.viewshed import viewshed

    board, sm, markers = prepare(args)
    frm = board.parse_hex(args.frm)
    vs = viewshed(sm, frm, observer_height=args.observer_height, target_height=args.target_height,
                  markers=markers, visibility_limit=args.visibility)
    d = vs.to_dict(sm)
    if args.json:
        print(json.dumps(d))
    else:
        print(f"{d['from']} sees {d['count']} of {d['checked'] + 1} hexes:")
        ids = d["visible"]
        for i in range(0, len(ids), 12):
            print("  " + " ".join(ids[i:i + 12]))
    return 0
