"""``python -m engine detect-grid IMAGE``: find the hex grid printed on a scan and propose its calibration."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import BadFile, Problem
from ..fileio import check_writable


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "detect-grid", help="find the hex grid printed on a scan",
        description="Find the hex grid printed on a scanned map from its hex lines alone: orientation, hex size, "
                    "turn, stretch between the axes and offset, proposed as a sheet's transform in the map "
                    "format's terms (docs/grid-detection.md). Exit 0 when a grid is found, 1 when none can be "
                    "trusted (the reason is printed).")
    p.add_argument("image", metavar="IMAGE", help="the scan (PNG, JPEG, TIFF, ...)")
    p.add_argument("--json", action="store_true", help="print the proposal as one JSON object")
    p.add_argument("--write-map", metavar="OUT.toml",
                   help="write a map file for the image with the found grid (every hex clear)")
    p.add_argument("--origin", metavar="ID", default="0101",
                   help="the printed id of the found sheet's first column's top hex (the top-left whole hex): "
                        "four digits like 0101 (the default) or a TCS id like A01.01")
    p.add_argument("--shifted", choices=("even", "odd"), default=None,
                   help="which printed column numbers (flat hexes) or row numbers (pointy) sit half a hex down "
                        "(right), as printed on the map; default: the first column (row) found counts as shifted "
                        "if it sits lower (further right) than the next")
    p.add_argument("--name", default=None, help="the map's name in the written file (default: the image's name)")
    p.add_argument("--min-confidence", type=float, default=None, metavar="C",
                   help="refuse a grid found with less confidence than C (0-1; default 0.6)")
    p.set_defaults(func=run)


def run(args) -> int:
    from engine.maps.gridfind import MIN_CONFIDENCE, find_grid
    from engine.maps.gridsheet import found_sheet, grid_board, parse_origin_id

    if args.write_map:
        try:
            parse_origin_id(args.origin)
        except ValueError as e:
            raise BadFile([Problem(args.origin, "--origin", str(e))]) from None
        check_writable(args.write_map, "--write-map", suffix=".toml")      # before the search, which takes time
    conf = MIN_CONFIDENCE if args.min_confidence is None else args.min_confidence
    if not 0.0 <= conf <= 1.0:
        raise BadFile([Problem(str(args.min_confidence), "--min-confidence", "expected a number from 0 to 1")])
    prop = find_grid(args.image, min_confidence=conf)
    out = {"file": args.image, **prop.to_dict()}
    if prop.found:
        fs = found_sheet(prop)
        out["sheet"] = {"cols": fs.cols, "rows": fs.rows, "origin_id": args.origin, "first_shifted": fs.first_shifted}
    written = None
    if prop.found and args.write_map:
        from engine.maps.mapfile import save_map

        out_path = Path(args.write_map)
        image_rel = os.path.relpath(Path(args.image).resolve(), out_path.parent.resolve())
        try:
            board = grid_board(prop, image_rel.replace(os.sep, "/"), origin_id=args.origin, shifted=args.shifted,
                               name=args.name or Path(args.image).stem)
        except ValueError as e:
            raise BadFile([Problem(args.origin, "--origin", str(e))]) from None
        try:
            save_map(board, out_path)
        except OSError as e:          # the folder changed while the grid was searched for, or the disk is full
            raise BadFile([Problem(str(out_path), "--write-map", f"cannot be written ({e.strerror or e})")]) from None
        written = str(out_path)
        out["map"] = written
    if args.json:
        print(json.dumps(out))
    else:
        print(_text(out))
    return 0 if prop.found else 1


def _text(d: dict) -> str:
    if not d["found"]:
        return f"{d['file']}: no grid: {d['reason']}"
    lines = [f"{d['file']}: {d['orientation']} hexes {d['hex_px']:.2f} px apart, turned {d['rotation']:+.2f} degrees, "
             f"stretched {d['stretch'] * 100:+.2f} % (confidence {d['confidence']:.2f}, {d['seconds']:.2f} s)",
             "  transform = [" + ", ".join(f"{v:g}" for v in d["transform"]) + "]"]
    sh = d.get("sheet")
    if sh:
        lines.append(f"  whole hexes: {sh['cols']} columns x {sh['rows']} rows, the top-left one {sh['origin_id']}")
    if d.get("map"):
        lines.append(f"  wrote {d['map']}")
    return "\n".join(lines)
