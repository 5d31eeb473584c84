"""``python -m engine import vassal MODULE.vmod OUTDIR``: a VASSAL module's maps, counters and set-ups."""
from __future__ import annotations

import json
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser("import", help="import another program's files (a VASSAL module)",
                              description="Import a VASSAL module (.vmod): each map with hex-gridded boards becomes "
                                          "a map file whose sheets reproduce VASSAL's hex centres and labels, the "
                                          "palette's pieces become counter images with a manifest, and the at-start "
                                          "stacks, pre-defined set-ups and any saves or logs given become free-play "
                                          "scenarios. What cannot come across is listed in OUTDIR/import-report.txt.")
    p.add_argument("kind", choices=("vassal",), help="what to import (vassal: a VASSAL module)")
    p.add_argument("module", metavar="MODULE.vmod")
    p.add_argument("outdir", metavar="OUTDIR")
    p.add_argument("--save", action="append", default=[], metavar="FILE.vsav",
                   help="also turn this save or log (.vsav, .vlog) into a scenario (repeatable)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..importers.vassal.importer import import_module

    result = import_module(args.module, args.outdir, args.save)
    if args.json:
        print(json.dumps({"maps": [str(p) for p in result.maps], "scenarios": [str(p) for p in result.scenarios],
                          "manifest": str(result.manifest) if result.manifest else None,
                          "report": str(result.report), "counters": result.counters, "units": result.units,
                          "svg_drawn": result.svg_drawn,
                          "max_error_px": round(result.max_error_px, 3)}))
    else:
        print("\n".join(result.lines))
        for p in result.maps + result.scenarios:
            print(f"wrote {p}", file=sys.stderr)
    return 0
