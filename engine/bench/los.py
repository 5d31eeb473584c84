"""Benchmark: single exact LOS queries and a whole viewshed on a generated 3-sheet map with traced obstacles.

Prints one row: ``hexes``, ``obstacles``, ``los_single_ms`` (median of single
exact queries between random hexes), ``viewshed_ms`` (median of full
viewsheds from the highest hex), ``viewshed_loop_ms`` (the same viewshed as
a loop of single exact queries, median) and ``viewshed_disagreements``
(hexes on which the two differ, summed over three observers); the same
medians in CPU time (``*_cpu_ms``) show what a busy machine hides.
"""
from __future__ import annotations

import math
import random
import statistics
import time

from engine.maps.board import Board, Obstacle, Sheet
from engine.maps.hexes import Hex
from engine.los.query import line_of_sight
from engine.los.model import SightMap
from engine.los.rules import DEFAULT_LOS_RULES
from engine.los.viewshed import viewshed, viewshed_by_loop
from engine.maps.numbering import NumberingScheme

DEFAULT_REPEAT = 5
SHEET_COLS, SHEET_ROWS = 34, 60        # three sheets sharing a column: 6,060 hexes
OBSTACLES = 2400
SINGLE_QUERIES = 400


def generated_board(seed: int = 1943) -> Board:
    """Three TCS sheets side by side with rolling hills, whole-hex towns and traced woods and buildings."""
    rng = random.Random(seed)
    sheets = []
    origin = Hex(0, 0)
    for sid in "ABC":
        ns = NumberingScheme(style="tcs", sheet=sid, cols=SHEET_COLS, rows=SHEET_ROWS, origin=(origin.q, origin.r))
        sheets.append(Sheet(sid, ns))
        origin = ns.colrow_to_hex(SHEET_COLS, 1)
    board = Board(name="Generated LOS benchmark map", sheets=sheets)
    hexes = board.hexes()
    xs = [board.center(h)[0] for h in hexes]
    ys = [board.center(h)[1] for h in hexes]
    hills = [(rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys)), rng.uniform(10, 40), rng.uniform(6, 16))
             for _ in range(15)]
    for h, x, y in zip(hexes, xs, ys):
        e = sum(a * math.exp(-((x - hx) ** 2 + (y - hy) ** 2) / (2 * s * s)) for hx, hy, a, s in hills)
        board.elevation[h] = float(10 * round(e / 10))
        roll = rng.random()
        if roll < 0.04:
            board.terrain[h] = "town"
        elif roll < 0.06:
            board.terrain[h] = "bog"
        else:
            board.terrain[h] = "clear"
    for _ in range(OBSTACLES):
        cx, cy = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
        kind = "woods" if rng.random() < 0.75 else "building"
        radius = rng.uniform(0.15, 0.5) if kind == "woods" else rng.uniform(0.08, 0.25)
        n = rng.randint(6, 12)
        pts = []
        for i in range(n):
            ang = 2 * math.pi * (i + rng.uniform(-0.3, 0.3)) / n
            rad = radius * rng.uniform(0.6, 1.0)
            pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
        board.obstacles.append(Obstacle(kind, 20.0 if kind == "woods" else 10.0, pts))
    return board


def _median_ms(fn, repeat: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of ``repeat`` calls."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return statistics.median(wall), statistics.median(cpu)


def run(args) -> list[dict]:
    repeat = args.repeat or DEFAULT_REPEAT
    board = generated_board()
    sm = SightMap(board, DEFAULT_LOS_RULES)
    hexes = sm.hexes
    rng = random.Random(7)
    pairs = [tuple(rng.sample(hexes, 2)) for _ in range(SINGLE_QUERIES)]
    for a, b in pairs[:20]:
        line_of_sight(sm, a, b)
    single = [_median_ms(lambda: line_of_sight(sm, a, b, observer_height=2.0), 1) for a, b in pairs]
    # the observer stands on the highest hex, as an observation post would
    top = max(hexes, key=lambda h: (sm.ground[sm.hex_index(h)], h))
    observers = [top] + rng.sample(hexes, 2)
    vs_ms, vs_cpu = _median_ms(lambda: viewshed(sm, top, observer_height=2.0), repeat)
    loop_ms, loop_cpu = _median_ms(lambda: viewshed_by_loop(sm, top, observer_height=2.0), max(1, min(repeat, 3)))
    disagreements = 0
    visible = 0
    rechecks = 0
    for o in observers:
        fast = viewshed(sm, o, observer_height=2.0)
        slow = viewshed_by_loop(sm, o, observer_height=2.0)
        disagreements += len(fast.visible ^ slow)
        visible += len(fast.visible)
        rechecks += fast.exact_rechecks
    return [{
        "hexes": len(hexes),
        "obstacles": len(board.obstacles),
        "los_single_ms": round(statistics.median(w for w, _ in single), 4),
        "viewshed_ms": round(vs_ms, 2),
        "viewshed_loop_ms": round(loop_ms, 1),
        "speedup": round(loop_ms / vs_ms, 1),
        "los_single_cpu_ms": round(statistics.median(c for _, c in single), 4),
        "viewshed_cpu_ms": round(vs_cpu, 2),
        "viewshed_loop_cpu_ms": round(loop_cpu, 1),
        "viewshed_disagreements": disagreements,
        "observers_compared": len(observers),
        "visible_hexes": visible,
        "exact_rechecks": rechecks,
    }]
