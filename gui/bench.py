"""The play window's benchmark: ``python -m gui.bench --json`` prints one JSON object.

- ``first_frame_s``: open the default scenario (or maps/demo.toml) with its tiles
  already cached, until the first frame with every visible tile is drawn (median).
- ``first_view_s``, ``huge_open_s``, ``huge_peak_mb``, ``cached_open_s``: a fresh process opens a
  generated 32,000 x 20,000 scan with an empty tile cache: until its low-resolution first view is
  drawn, until the whole pyramid is built and the first full frame drawn; its peak resident memory;
  then the same map opened again in a new window from the cache, until drawn.  ``huge_*`` is the
  scan as a PNG, ``huge_jpeg_*`` as a baseline JPEG.  The scans are written once and kept.
  ``*_cpu_s``: the same in CPU seconds of all the process's threads (on a shared machine the
  wall-clock figures include waiting for a core).
- ``--tiler pillow`` builds the pyramids with Pillow instead of libvips (the builder before libvips).
- A PNG cannot be read small: its first view is the first rows of the scan drawn, growing from the top as
  the scan is decoded (``first_view_s``); ``--old-paths`` measures the program before that and before the
  layered grid (no first view for a PNG); ``--compare`` runs the scans with both, in turn, ``--runs`` times
  each (every run with an empty tile cache), and reports each figure as ``{"new": median, "old": median}``.
- ``frame_p50_ms``, ``frame_p95_ms``: paint times of a 1920 x 1080 view panning and
  zooming across every level of that scan with ``counters`` counters on it
  (``frame_cpu_*``: the same in CPU time of the painting thread; ``still_redraw_*``:
  the full-quality redraw once the view comes to rest, ``still_redraw_cpu_*`` in CPU time).
- ``jpeg_open_s``, ``jpeg_peak_mb``: the same first opening for a 10,275 x 6,675 baseline JPEG.
- ``library_open_s``: the game library (File > New game…) built and shown with every shipped scenario listed
  (median); ``library_full_load_s``: what loading every shipped scenario whole would take instead, once.
  ``python -m gui.bench --library`` measures these two alone.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HUGE_W, HUGE_H = 32_000, 20_000
JPEG_W, JPEG_H = 10_275, 6_675     # the map VASSAL runs out of memory on, as a baseline JPEG
HEX_PX = 128.0           # pixels per lattice unit on the generated scan
COUNTERS = 1000
VIEW_W, VIEW_H = 1920, 1080


def _app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["sandtable-bench"])
    app.setApplicationName("Sandtable")
    return app


def peak_mb() -> float:
    """Peak resident memory of this process in MB."""
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 1024 / 1024 if sys.platform == "darwin" else r / 1024


def huge_map(folder: Path, width: int = HUGE_W, height: int = HUGE_H, ext: str = "png") -> Path:
    """A map file over a generated scan of ``width`` x ``height`` (the scan is made once, PNG or JPEG)."""
    from engine.maps.board import Affine, Board, Sheet
    from engine.maps.mapfile import save_map
    from engine.maps.numbering import NumberingScheme

    folder.mkdir(parents=True, exist_ok=True)
    image = folder / f"scan-{width}x{height}.{ext}"
    if not image.exists():
        subprocess.run([sys.executable, "-m", "gui.scene.hugeimage", str(image), str(width), str(height)], check=True)
    cols = int((width / HEX_PX - 2) / 1.5)
    rows = int((height / HEX_PX - 2) / math.sqrt(3))
    sheet = Sheet("A", NumberingScheme(style="classic", cols=cols, rows=rows, col_digits=3 if cols > 99 else 2,
                                       row_digits=3 if rows > 99 else 2), image=image.name,
                  transform=Affine(HEX_PX, 0.0, HEX_PX * 1.2, 0.0, HEX_PX, HEX_PX * 1.2))
    board = Board(name=f"Generated scan {width} x {height}", sheets=[sheet])
    path = folder / f"scan-{width}x{height}-{ext}.toml"
    save_map(board, path)
    return path


def sample_units(n: int, board) -> list:
    """``n`` units spread over the board, one to three per hex (deterministic)."""
    from engine.scenario import Side, Unit

    sides = {"axis": Side("axis", "Axis", "#9aa6b2"), "soviet": Side("soviet", "Soviet", "#c9a46a")}
    hexes = board.hexes()
    step = max(1, len(hexes) * 2 // n)
    placed = []
    i = 0
    for k in range(n):
        side = "axis" if k % 2 else "soviet"
        u = Unit(f"{k + 1}", side, ("infantry", "armor", "artillery")[k % 3], ("XX", "X", "III")[k % 3],
                 2 + k % 7, 1 + k % 5, 4 + k % 3)
        placed.append((u, hexes[(i * step) % len(hexes)]))
        if k % 3 != 1:
            i += 1
    return placed, sides


def frame_times(win, app) -> dict:
    """Paint times (ms, wall and CPU) while zooming from a quarter of the whole board to 2x and back,
    one wheel step (x1.25) at a time, panning at every step; then full-quality redraws once still."""
    view = win.map_view
    levels = set()
    view.fit()
    view.wait_until_drawn(30)
    wall, cpu, still, still_cpu = [], [], [], []
    z0 = view.zoom() / 4
    steps = int(math.ceil(math.log(2.0 / z0) / math.log(1.25)))
    zooms = [z0 * 1.25 ** i for i in range(steps + 1)]
    for n, z in enumerate(zooms + zooms[::-1]):
        view.set_zoom(z)
        for dx, dy in ((0, 0), (160, 0), (0, 120), (-160, 0), (0, -120)):
            h, v = view.horizontalScrollBar(), view.verticalScrollBar()
            h.setValue(h.value() + dx)
            v.setValue(v.value() + dy)
            t, c = time.perf_counter(), time.thread_time()
            view.viewport().repaint()
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.thread_time() - c) * 1000)
            levels.update(it.last_level for it in view.images if it.last_level is not None)
            app.processEvents()
        if n % 3 == 0:
            # the view comes to rest: one redraw of everything in full quality
            view._still_timer.stop()
            t, c = time.perf_counter(), time.thread_time()
            view._became_still()
            view.viewport().repaint()
            still.append((time.perf_counter() - t) * 1000)
            still_cpu.append((time.thread_time() - c) * 1000)
            app.processEvents()
    return {"wall": wall, "cpu": cpu, "still": still, "still_cpu": still_cpu, "levels": levels}


def first_view(win, app, timeout: float = 600) -> bool:
    """Process events until every sheet shows a picture (its first view or its pyramid), then draw it."""
    view = win.map_view
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if all(it.preview is not None or it.growing is not None or it.pyramid is not None or it.error
               for it in view.images):
            view.viewport().repaint()
            return True
        time.sleep(0.002)
    return False


def open_timed(path: Path, cache: Path, app):
    """A new window opens ``path``: seconds to its first view, to its full first frame; and the window."""
    from gui.play.window import MainWindow

    win = MainWindow(cache=cache)
    win.resize(VIEW_W, VIEW_H + 60)
    win.show()
    app.processEvents()
    t, c = time.perf_counter(), _cpu()
    if not win.open_file(path):
        raise SystemExit(f"cannot open {path}: {win.last_error}")
    first_view(win, app)
    view_s, view_cpu = time.perf_counter() - t, _cpu() - c
    ok = win.map_view.wait_until_drawn(600)
    win.cpu_s = (view_cpu, _cpu() - c)         # CPU seconds of every thread: the shared machine's load aside
    return view_s, time.perf_counter() - t, ok, win


def _cpu() -> float:
    r = os.times()
    return r.user + r.system


def huge_child(folder: Path, cache: Path, width: int = HUGE_W, height: int = HUGE_H, ext: str = "png",
               frames: bool = True) -> dict:
    """In a fresh process: open a big scan with an empty cache, again from the cache, then (``frames``)
    time frames over it."""
    app = _app()
    path = huge_map(folder, width, height, ext)
    view_s, open_s, ok, win = open_timed(path, cache, app)
    cpu_s = win.cpu_s
    mb = peak_mb()
    win.close()
    win.deleteLater()
    app.processEvents()
    _, cached_s, _, win = open_timed(path, cache, app)
    opened = {"first_view_s": round(view_s, 2), "open_s": round(open_s, 2), "peak_mb": round(mb, 1), "drawn": ok,
              "cached_open_s": round(cached_s, 2), "first_view_cpu_s": round(cpu_s[0], 2),
              "open_cpu_s": round(cpu_s[1], 2), "cached_open_cpu_s": round(win.cpu_s[1], 2)}
    if not frames:
        return opened
    placed, sides = sample_units(COUNTERS, win.board)
    from gui.scene.counterart import CounterArt

    win.map_view.set_art(CounterArt(sides))
    win.map_view.set_pieces(placed)
    timed = frame_times(win, app)
    return {**opened, "frames": timed["wall"], "cpu": timed["cpu"], "still": timed["still"],
            "still_cpu": timed["still_cpu"],
            "levels_seen": len(timed["levels"]),
            "levels": len(win.map_view.images[0].pyramid.levels) if win.map_view.images[0].pyramid else 0,
            "counters": len(placed)}


def first_frame(repeat: int, cache: Path) -> list[float]:
    app = _app()
    from engine.content import default_file
    from gui.play.window import MainWindow

    path = default_file()
    out = []
    for i in range(repeat + 1):
        win = MainWindow(cache=cache)
        win.resize(1280, 860)
        win.show()
        app.processEvents()
        t = time.perf_counter()
        win.open_file(path)
        win.map_view.wait_until_drawn(120)
        if i:                       # the first run fills the tile cache
            out.append(time.perf_counter() - t)
        win.close()
        win.deleteLater()
        app.processEvents()
    return out


def library_open(repeat: int) -> dict:
    """The game library shown, from its files' heads; and every shipped scenario loaded whole, for comparison."""
    from engine import content
    from engine.scenario.newgame import scenario_offer

    from gui.play.library import GameLibrary

    app = _app()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        dlg = GameLibrary(own=[])
        dlg.show()
        app.processEvents()
        times.append(time.perf_counter() - t)
        dlg.close()
        dlg.deleteLater()
        app.processEvents()
    t = time.perf_counter()
    for path in sorted(content.scenarios().glob("*.toml")):
        scenario_offer(path)
    return {"library_open_s": round(statistics.median(times), 3), "library_entries": len(dlg.items()),
            "library_full_load_s": round(time.perf_counter() - t, 3)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.bench", description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--repeat", type=int, default=5, help="runs of first_frame_s (median reported)")
    p.add_argument("--folder", help="where the generated scan is kept (default: the user cache folder)")
    p.add_argument("--size", default=f"{HUGE_W}x{HUGE_H}", help="size of the generated scan (WIDTHxHEIGHT)")
    p.add_argument("--library", action="store_true", help="measure the game library alone")
    p.add_argument("--huge-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--tiler", choices=("vips", "pillow"), help="the pyramid builder (default: libvips if it loads)")
    p.add_argument("--runs", type=int, default=1, help="runs of the scans' figures (medians reported)")
    p.add_argument("--old-paths", action="store_true",
                   help="the paths before the growing first view and the layered grid (SANDTABLE_PROGRESSIVE=0, "
                        "SANDTABLE_GRID_LAYER=0)")
    p.add_argument("--compare", action="store_true",
                   help="each scan's figures with today's paths and with --old-paths, in turn: {new, old} medians")
    p.add_argument("--cache", help=argparse.SUPPRESS)
    p.add_argument("--ext", default="png", help=argparse.SUPPRESS)
    p.add_argument("--no-frames", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    if args.tiler:
        os.environ["SANDTABLE_TILER"] = args.tiler
    if args.huge_child:
        print(json.dumps(huge_child(Path(args.folder), Path(args.cache), width, height, args.ext,
                                    frames=not args.no_frames)))
        return 0
    if args.library:
        result = library_open(args.repeat)
        print(json.dumps(result) if args.json else "\n".join(f"{k:20} {v}" for k, v in result.items()))
        return 0
    if args.old_paths:
        os.environ.update(OLD_PATHS)
    _app()
    from gui.common.userfolders import cache_root

    folder = Path(args.folder) if args.folder else cache_root() / "bench"
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-") as tmp:
        firsts = first_frame(args.repeat, Path(tmp) / "small")
        runs = 0

        def child(w: int, h: int, ext: str, frames: bool, env: dict) -> dict | None:
            nonlocal runs
            runs += 1
            cache = Path(tmp) / f"{ext}-{w}-{runs}"          # empty: every run builds its pyramids
            huge_map(folder, w, h, ext)    # generated before the child starts, so it is not timed
            run = subprocess.run([sys.executable, "-m", "gui.bench", "--huge-child", "--folder", str(folder),
                                  "--size", f"{w}x{h}", "--ext", ext, "--cache", str(cache),
                                  *(() if frames else ("--no-frames",))], capture_output=True, text=True,
                                 env={**os.environ, **env})
            shutil.rmtree(cache, ignore_errors=True)
            if run.returncode != 0:
                print(run.stderr, file=sys.stderr)
                return None
            return json.loads(run.stdout.strip().splitlines()[-1])

        def scans(env: dict) -> dict | None:
            found = (child(width, height, "png", True, env), child(width, height, "jpg", False, env),
                     child(JPEG_W, JPEG_H, "jpg", False, env))
            return None if None in found else figures(*found, width, height)

        if args.compare:
            # the paths of today and of before, run after one another in turn: the machine's load is shared
            new, old = [], []
            for _ in range(args.runs):
                new.append(scans({}))
                old.append(scans(OLD_PATHS))
            if None in new or None in old:
                return 1
            result = {"first_frame_s": round(statistics.median(firsts), 3), "runs": args.runs,
                      **{k: {"new": _median([r[k] for r in new]), "old": _median([r[k] for r in old])}
                         for k in new[0] if k not in ("huge_size", "jpeg_size", "tiler")},
                      "tiler": new[0]["tiler"], "huge_size": new[0]["huge_size"], "jpeg_size": new[0]["jpeg_size"]}
            print(json.dumps(result) if args.json else "\n".join(f"{k:28} {v}" for k, v in result.items()))
            return 0
        every = [scans({}) for _ in range(args.runs)]
        if None in every:
            return 1
    result = {"first_frame_s": round(statistics.median(firsts), 3),
              **{k: _median([r[k] for r in every]) for k in every[0]},
              **library_open(args.repeat)}
    if args.runs > 1:
        result["runs"] = args.runs
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:16} {v}")
    return 0


# the paths before issue 33's second round, for comparison in the same run (``--old-paths``, ``--compare``)
OLD_PATHS = {"SANDTABLE_PROGRESSIVE": "0", "SANDTABLE_GRID_LAYER": "0"}


def _median(values: list):
    """The median of numbers (a string or a flag: the first run's)."""
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return round(statistics.median(values), 3)
    return values[0]


def figures(huge: dict, big_jpeg: dict, jpeg: dict, width: int, height: int) -> dict:
    """The benchmark's figures from one run of each scan (the PNG with its frames)."""
    from gui.scene.tiles import tiler

    frames = sorted(huge.pop("frames"))
    cpu = sorted(huge.pop("cpu"))
    still = huge.pop("still")
    still_cpu = huge.pop("still_cpu", None) or [0.0]
    return {
        "tiler": tiler(),
        "first_view_s": huge["first_view_s"],
        "huge_open_s": huge["open_s"],
        "huge_peak_mb": huge["peak_mb"],
        "cached_open_s": huge["cached_open_s"],
        "first_view_cpu_s": huge["first_view_cpu_s"],
        "huge_open_cpu_s": huge["open_cpu_s"],
        "cached_open_cpu_s": huge["cached_open_cpu_s"],
        "huge_jpeg_first_view_s": big_jpeg["first_view_s"],
        "huge_jpeg_open_s": big_jpeg["open_s"],
        "huge_jpeg_peak_mb": big_jpeg["peak_mb"],
        "huge_jpeg_cached_open_s": big_jpeg["cached_open_s"],
        "huge_jpeg_first_view_cpu_s": big_jpeg["first_view_cpu_s"],
        "huge_jpeg_open_cpu_s": big_jpeg["open_cpu_s"],
        "huge_jpeg_cached_open_cpu_s": big_jpeg["cached_open_cpu_s"],
        "frame_p50_ms": round(statistics.median(frames), 2),
        "frame_p95_ms": round(frames[min(len(frames) - 1, int(0.95 * len(frames)))], 2),
        "counters": huge["counters"],
        "frames": len(frames),
        "frame_cpu_p50_ms": round(statistics.median(cpu), 2),
        "frame_cpu_p95_ms": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))], 2),
        "still_redraw_p50_ms": round(statistics.median(still), 1),
        "still_redraw_max_ms": round(max(still), 1),
        "still_redraw_cpu_p50_ms": round(statistics.median(still_cpu), 1),
        "still_redraw_cpu_max_ms": round(max(still_cpu), 1),
        "pyramid_levels": huge["levels"],
        "levels_drawn": huge["levels_seen"],
        "huge_size": f"{width}x{height}",
        "jpeg_first_view_s": jpeg["first_view_s"],
        "jpeg_open_s": jpeg["open_s"],
        "jpeg_peak_mb": jpeg["peak_mb"],
        "jpeg_cached_open_s": jpeg["cached_open_s"],
        "jpeg_open_cpu_s": jpeg["open_cpu_s"],
        "jpeg_first_view_cpu_s": jpeg["first_view_cpu_s"],
        "jpeg_cached_open_cpu_s": jpeg["cached_open_cpu_s"],
        "jpeg_size": f"{JPEG_W}x{JPEG_H}",
    }


if __name__ == "__main__":
    sys.exit(main())
