"""Benchmark: importing a VASSAL module with a 10,000 x 7,000 board image and 500 pieces, and one of
600 counters each with art of its own (front and back, 96 px, scanned-looking), half of them SVG.

Prints ``import_s`` (median wall time of the whole import), ``import_cpu_s`` (its CPU time, both face-writing
threads counted: on a shared machine the wall time is mostly waiting) and ``import_peak_mb`` (the
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


COUNTERS = 600


def make_counter_module(path: Path) -> None:
    """600 palette pieces, each with a front and a back of its own: noisy 96 px PNG scans for half, SVG
    drawings for the other half; every piece also placed at start."""
    import random

    from PIL import Image

    from engine.importers.vassal import synthetic as S
    from engine.importers.vassal.buildfile import HexGridSpec
    from engine.importers.vassal.grid import centre

    import io
    rng = random.Random(7)
    g = S.Grid(dx=55.0, dy=64.0, x0=40, y0=40, numbering={"sep": "."})
    spec = HexGridSpec(dx=55.0, dy=64.0, x0=40, y0=40)
    m = S.Module(name="Counters", boards=[("Board", "board.png", 4000, 3000, g)])
    m.images["board.png"] = S.png_bytes(4000, 3000)
    defs = []
    for k in range(COUNTERS):
        names = []
        for face in ("f", "b"):
            if k % 2:
                name = f"c{k}{face}.svg"
                colour = f"#{rng.randrange(1 << 24):06x}"
                m.images[name] = (f'<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96">'
                                  f'<rect width="96" height="96" fill="{colour}" stroke="black" stroke-width="2"/>'
                                  f'<rect x="30" y="20" width="36" height="24" fill="none" stroke="black"/>'
                                  f'<path d="M30 20 L66 44 M66 20 L30 44" stroke="black"/>'
                                  f'<text x="48" y="80" font-size="16" text-anchor="middle">{k}-{face}</text>'
                                  f'</svg>').encode()
            else:
                name = f"c{k}{face}.png"
                im = Image.frombytes("RGB", (96, 96), rng.randbytes(96 * 96 * 3))
                buf = io.BytesIO()
                im.save(buf, "PNG")
                m.images[name] = buf.getvalue()
            names.append(name)
        d = S.definition([S.layer(["", names[1]], ["", "+ (reduced)"], "Flip"), S.basic(names[0], f"Unit {k}")],
                         ["1", "null;0;0;0;0"])
        defs.append((f"Unit {k}", d))
    m.slots = list(defs)
    m.stacks = [S.setup_stack(f"s{i}", "Board", [defs[i]], *centre(spec, 2 + (i * 7) % 60, 2 + (i * 3) % 40))
                for i in range(COUNTERS)]
    m.write(path)


CHILD = """
import json, resource, sys, time
from engine.importers.vassal.importer import import_module
t = time.perf_counter()
r = import_module(sys.argv[1], sys.argv[2])
dt = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_SELF)
peak = ru.ru_maxrss / 1024
print(json.dumps({"s": dt, "cpu_s": ru.ru_utime + ru.ru_stime, "peak_mb": peak, "units": r.units}))
"""


def run(args) -> list[dict]:
    repeat = args.repeat or DEFAULT_REPEAT
    with tempfile.TemporaryDirectory() as tmp:
        mod = Path(tmp) / "bench.vmod"
        t = time.perf_counter()
        make_module(mod)
        made = time.perf_counter() - t
        times, peaks, cpus = [], [], []
        units = 0
        for i in range(repeat):
            out = Path(tmp) / f"out{i}"
            done = subprocess.run([sys.executable, "-c", CHILD, str(mod), str(out)], capture_output=True, text=True,
                                  check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            times.append(row["s"])
            cpus.append(row["cpu_s"])
            peaks.append(row["peak_mb"])
            units = row["units"]
        rows = [{"bench": "import", "board_px": f"{WIDTH}x{HEIGHT}", "pieces": units, "module_s": round(made, 2),
                 "import_s": round(statistics.median(times), 3), "import_cpu_s": round(statistics.median(cpus), 3),
                 "import_peak_mb": round(max(peaks), 1), "repeat": repeat}]
        mod = Path(tmp) / "counters.vmod"
        make_counter_module(mod)
        times, peaks, cpus = [], [], []
        for i in range(repeat):
            out = Path(tmp) / f"c{i}"
            done = subprocess.run([sys.executable, "-c", CHILD, str(mod), str(out)], capture_output=True, text=True,
                                  check=True)
            row = json.loads(done.stdout.strip().splitlines()[-1])
            times.append(row["s"])
            cpus.append(row["cpu_s"])
            peaks.append(row["peak_mb"])
        rows.append({"bench": "import-counters", "counters": COUNTERS, "faces": 2 * COUNTERS, "svg_faces": COUNTERS,
                     "import_s": round(statistics.median(times), 3), "import_cpu_s": round(statistics.median(cpus), 3),
                     "import_peak_mb": round(max(peaks), 1), "repeat": repeat})
    return rows
