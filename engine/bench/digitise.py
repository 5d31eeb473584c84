"""Benchmark: digitising scans the project did not draw with its own map art (``engine.maps.scanset``).

One row of named measurements, each made by one function of ``MEASURES``:

- ``grid``: on the test set (seeds 0-29), ``grid_found`` is the share of scans
  where every whole hex's centre of the found grid lies within 2 px of the
  truth (target at least 0.95); ``grid_wrong`` counts scans where a grid was
  proposed with any centre off by more than 2 px (target 0); ``grid_refused``
  those where none was proposed; ``grid_worst_px`` the worst centre error
  over the grids found.
- ``grid_speed``: ``grid_s``, the median time of ``find_grid`` on a
  10,000 x 7,000 JPEG scan, read from its file (target under 5 s).

- ``terrain`` (``engine/bench/digitise_terrain.py``): ``terrain_accuracy``,
  the share of hexes suggested right with 5 % of each scan's whole hexes
  labelled (target at least 0.95), with the review share and the accuracy
  above the review line; ``terrain_s``, the time to suggest 2,350 hexes
  (target under 2 s); ``hexside_*``, recall and precision of rivers, walls and
  ridges suggested from one sample hexside (docs/terrain-suggestion.md).

``--sweep N`` (``measure_sweep``) instead runs the search on N scans drawn at random across the
space of hex sizes and styles (``engine.maps.sweepset``: radius 10-150 px, up to 150 columns,
ruled grids and tile boards, light or dark lines) and reports found, wrong and refused by band of
hex radius (target: at least 0.98 found, none wrong, every band at least 0.95), then ``grid_s``.

Each measurement takes the run's arguments and the shared :class:`Bench` (the
test set made once) and returns a dict.
"""
from __future__ import annotations

import math
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from engine.bench.digitise_terrain import measure_terrain
from engine.maps.gridfind import GridProposal, find_grid
from engine.maps.hexes import Layout
from engine.maps.scanset import SET_SIZE, Scan, make_scan

TOLERANCE_PX = 2.0
BIG_SCAN = (10_000, 7_000)
BIG_SEED = 1000
BIG_HEX_PX = 150.0            # a 22 x 34 inch sheet of about 2,300 hexes scanned at 300 dpi has hexes about this size
DEFAULT_REPEAT = 3


def centre_error(scan: Scan, prop: GridProposal) -> float:
    """The largest distance, in pixels, from a whole hex's true centre to the nearest centre of the proposed grid,
    or infinity when the proposed hexes are not the printed ones' size (a grid of half or double the size has
    centres near every true centre too)."""
    T = prop.transform
    a, b, _, d, e, _ = scan.transform
    if abs(abs(T.a * T.e - T.b * T.d) / abs(a * e - b * d) - 1) > 0.05:
        return math.inf
    lay = Layout(prop.orientation)
    Ti = T.inverse()
    worst = 0.0
    for u, v in scan.centres().values():
        h = lay.pixel_to_hex(*Ti.apply(u, v))
        pu, pv = T.apply(*lay.hex_to_pixel(h))
        worst = max(worst, math.hypot(pu - u, pv - v))
    return worst


class Bench:
    """What the measurements share: the test set, made once."""

    def __init__(self, n: int = SET_SIZE):
        self.n = n
        self._scans: list[Scan] | None = None

    def scans(self) -> list[Scan]:
        if self._scans is None:
            self._scans = [make_scan(seed) for seed in range(self.n)]
        return self._scans


def measure_grid(args, bench: Bench) -> dict:
    found = wrong = refused = 0
    worst = 0.0
    times = []
    for scan in bench.scans():
        t0 = time.perf_counter()
        prop = find_grid(scan.image)
        times.append(time.perf_counter() - t0)
        if not prop.found:
            refused += 1
            continue
        err = centre_error(scan, prop)
        if err <= TOLERANCE_PX:
            found += 1
            worst = max(worst, err)
        else:
            wrong += 1
    n = len(bench.scans())
    return {"scans": n, "grid_found": round(found / n, 3), "grid_wrong": wrong, "grid_refused": refused,
            "grid_worst_px": round(worst, 2), "grid_set_median_s": round(statistics.median(times), 3)}


def measure_grid_speed(args, bench: Bench) -> dict:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    scan = make_scan(BIG_SEED, width=BIG_SCAN[0], height=BIG_SCAN[1], hex_px=BIG_HEX_PX)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.jpg"
        scan.image.save(path, format="JPEG", quality=scan.style.jpeg_quality)
        times, prop = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            prop = find_grid(path)
            times.append(time.perf_counter() - t0)
    err = centre_error(scan, prop) if prop.found else None
    return {"grid_s": round(statistics.median(times), 2), "grid_s_image": f"{BIG_SCAN[0]}x{BIG_SCAN[1]}",
            "grid_s_found": bool(prop.found and err is not None and err <= TOLERANCE_PX), "repeat": repeat}


# name -> measurement; each returns a dict of figures merged into the one row printed
MEASURES: dict[str, Callable[[object, Bench], dict]] = {
    "grid": measure_grid,
    "grid_speed": measure_grid_speed,
    "terrain": measure_terrain,
}


def measure_sweep(args) -> list[dict]:
    """Grid detection over scans drawn at random across the space (``engine.maps.sweepset``): one row for each
    band of hex radius and one for all, with found (every whole hex's centre within 2 px), wrong (proposed and
    off), refused, and the median time of a search; then the 10,000 x 7,000 scan's time."""
    from engine.maps.sweepset import SIZE_BANDS, centre_error as sweep_error, make_sweep_scan, size_band

    n, first = int(args.sweep), int(getattr(args, "first", 0) or 0)
    rows: dict[str, dict] = {f"{lo}-{hi}": {"found": 0, "wrong": 0, "refused": 0, "times": [], "wrong_seeds": [],
                                             "refused_seeds": []} for lo, hi in SIZE_BANDS}
    for seed in range(first, first + n):
        scan = make_sweep_scan(seed)
        t0 = time.perf_counter()
        prop = find_grid(scan.image)
        row = rows[size_band(scan.radius)]
        row["times"].append(time.perf_counter() - t0)
        if not prop.found:
            row["refused"] += 1
            row["refused_seeds"].append(seed)
        elif sweep_error(scan, prop) <= TOLERANCE_PX:
            row["found"] += 1
        else:
            row["wrong"] += 1
            row["wrong_seeds"].append(seed)
    out = []
    total = {"found": 0, "wrong": 0, "refused": 0, "times": [], "wrong_seeds": [], "refused_seeds": []}
    for band, row in list(rows.items()) + [("all", total)]:
        if band != "all":
            for k in total:
                total[k] += row[k]
        count = row["found"] + row["wrong"] + row["refused"]
        out.append({"radius_px": band, "scans": count, "found": row["found"], "wrong": row["wrong"],
                    "refused": row["refused"], "found_share": round(row["found"] / count, 3) if count else None,
                    "median_s": round(statistics.median(row["times"]), 2) if row["times"] else None,
                    "wrong_seeds": row["wrong_seeds"], "refused_seeds": row["refused_seeds"]})
    out[-1].update(measure_grid_speed(args, None))
    return out


def run(args) -> list[dict]:
    if getattr(args, "sweep", None):
        return measure_sweep(args)
    bench = Bench()
    row: dict = {}
    for measure in MEASURES.values():
        row.update(measure(args, bench))
    return [row]
