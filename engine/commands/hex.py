"""``python -m engine hex FILE ID``: everything a map says about one hex."""
from __future__ import annotations

import json
import sys

from engine.maps.board import Board
from ..errors import BadHexId
from ..fileio import read_toml
from engine.maps.hexes import Hex, hexside


def register(subparsers) -> None:
    p = subparsers.add_parser("hex", help="show what a map says about one hex",
                              description="Show a hex's coordinates, ids, neighbours, terrain, "
                                          "features, elevation, hexsides, links and areas.")
    p.add_argument("file", metavar="FILE", help="a map file (or a scenario file: its map is used)")
    p.add_argument("hex_id", metavar="ID", help="a printed hex id, like A05.06 or 0512")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def load_board(path: str) -> Board:
    """The board of a map file, or of the map a scenario file names."""
    from engine.maps.mapfile import load_map

    doc = read_toml(path)
    if isinstance(doc.get("scenario"), dict) and not isinstance(doc.get("map"), dict):
        from ..scenario import load_scenario

        return load_map(load_scenario(path).map_path)
    return load_map(path)


def describe_hex(board: Board, h: Hex) -> dict:
    """A plain-data description of one hex of a board."""
    neighbours = []
    links: dict[str, list[str]] = {}
    for n in board.neighbors(h):
        side = hexside(h, n)
        kinds = sorted(k for k, sides in board.links.items() if side in sides)
        for k in kinds:
            links.setdefault(k, []).append(board.hex_id(n))
        neighbours.append({
            "id": board.hex_id(n),
            "hexside": sorted(board.hexsides.get(side, ())),
            "links": kinds,
            "lines": sorted(name for name, ln in board.lines.items() if side in ln.hexsides),
        })
    return {
        "id": board.hex_id(h),
        "ids": board.hex_ids(h),
        "axial": [h.q, h.r],
        "sheets": [sh.id for sh in board.sheets_of(h)],
        "terrain": board.terrain.get(h),
        "elevation": board.elevation.get(h),
        "elevation_unit": board.elevation_unit,
        "features": sorted(board.features_of(h)),
        "areas": sorted(name for name, a in board.areas.items() if h in a.hexes),
        "links": links,
        "neighbours": neighbours,
    }


def format_hex(d: dict) -> str:
    """The text form of :func:`describe_hex`."""
    also = [i for i in d["ids"] if i != d["id"]]
    lines = [d["id"] + (f" (also {', '.join(also)})" if also else ""),
             f"  axial      q={d['axial'][0]} r={d['axial'][1]}",
             f"  sheets     {', '.join(d['sheets'])}",
             f"  terrain    {d['terrain'] or '-'}",
             "  elevation  " + (f"{d['elevation']:g} {d['elevation_unit']}" if d["elevation"] is not None else "-"),
             f"  features   {', '.join(d['features']) or '-'}",
             f"  areas      {', '.join(d['areas']) or '-'}"]
    for kind, ids in d["links"].items():
        lines.append(f"  {kind:<10} to {', '.join(ids)}")
    lines.append("  neighbours")
    for n in d["neighbours"]:
        extra = n["hexside"] + [f"{k} link" for k in n["links"]] + [f"line {x!r}" for x in n["lines"]]
        lines.append(f"    {n['id']:<8} {', '.join(extra)}".rstrip())
    return "\n".join(lines)


def run(args) -> int:
    board = load_board(args.file)
    try:
        h = board.parse_hex(args.hex_id)
    except BadHexId as e:
        msg = f"{args.file}: {e}"
        if args.json:
            print(json.dumps({"file": args.file, "error": str(e)}))
        else:
            print(msg, file=sys.stderr)
        return 1
    d = describe_hex(board, h)
    print(json.dumps(d) if args.json else format_hex(d))
    return 0
