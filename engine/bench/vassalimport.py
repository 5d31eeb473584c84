"""Benchmark: importing a VASSAL module with a 10,000 x 7,000 board image and 500 pieces.

Prints ``import_s`` (median wall time of the whole import) and ``import_peak_mb`` (the
largest resident memory of a child process doing one import, so the figure is the
import's own and not the benchmark's).  The module is generated once: a solid-colour
board PNG written in strips and 500 at-start pieces of ten kinds.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_REPEAT = 3
WIDTH, HEIGHT = 10_000, 7_000
PIECES = 500


def make_module(path: Path) -> None:
    from engine.importers.vassal import synthetic as S
    from engine.importers.vassal.buildfile import HexGridSpec
    from engine.importers.vassal.grid import centre

    g = S.Grid(dx=55.0, dy=64.0, x0=40, y0=40, numbering={"sep": "."})   # 182 columns: 0101 would be ambiguous
    spec = HexGridSpec(dx=55.0, dy=64.0, x0=40, y0=40)
    m = S.Module(name="Bench", boards=[("Big", "big.png", WIDTH, HEIGHT, g)])
    m.images["big.png"] = S.png_bytes(WIDTH, HEIGHT)
    defs = []
    for k in range(10):
        m.images[f"u{k}.png"] = S.counter_png(64, (20 * k, 80, 200 - 15 * k, 255))
        m.images[f"u{k}b.png"] = S.counter_png(64, (20 * k, 80, 200 - 15 * k, 255), (255, 255, 255, 255))
        d = S.definition([S.layer(["", f"u{k}b.png"], ["", "+ (reduced)"], "Flip"), S.basic(f"u{k}.png", f"Unit {k}")],
                         ["1", "null;0;0;0;0"])
        defs.append((f"Unit {k}", d))
    m.slots = list(defs)
    stacks = []
    for i in range(PIECES):
        x, y = centre(spec, 2 + (i * 7) % 170, 2 + (i * 3) % 100)
        stacks.append(S.setup_stack(f"s{i}", "Big", [defs[i % 10]], x, y))
    m.stacks = stacks
    m.write(path)


CHILD = """
import json, resource, sys, time
from engine.importers.vassal.importer import import_module
t = time.perf_counter()
r = import_module(sys.argv[1], sys.argv[2])
dt = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"s": dt, "peak_mb": peak, "units": r.units}))
"""


def run(args) -> list[dict]:
    repeat = args.repeat or DEFAULT_REPEAT
    with tempfile.TemporaryDirectory() as tmp:
        mod = Path(tmp) / "bench.vmod"
        t = time.perf_counter()
        make_module(mod)
        made = time.perf_counter() - t
        times, peaks = [], []
        units = 0
        for i in range(repeat):
            out = Path(tmp) / f"out{i}"
            done = subprocess.run([sys.executable, "-c", CHILD, str(mod), str(out)], capture_output=True, text=True,
                                  check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            times.append(row["s"])
            peaks.append(row["peak_mb"])
            units = row["units"]
    return [{"bench": "import", "board_px": f"{WIDTH}x{HEIGHT}", "pieces": units, "module_s": round(made, 2),
             "import_s": round(statistics.median(times), 3), "import_peak_mb": round(max(peaks), 1),
             "repeat": repeat}]
