"""Benchmark: how long ``load_map`` takes, on the demo map and on a generated 3-sheet map of ~7,000 hexes."""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from engine.bench import median_ms
from engine.maps.board import Affine, Area, Board, Box, Line, Obstacle, Sheet
from engine.maps.hexes import Hex, hex_neighbors, hex_range, hexside, hexsides_of
from engine.maps.mapfile import load_map, save_map
from engine.maps.numbering import NumberingScheme

DEFAULT_REPEAT = 15
DEMO_MAP = Path(__file__).resolve().parent.parent.parent / "maps" / "demo.toml"
SHEET_COLS, SHEET_ROWS = 35, 68       # three such sheets sharing a column: 7,004 hexes
LEGEND = {"c": "clear", "w": "woods", "b": "bog", "v": "village", "r": "rough", "l": "lake"}


def generated_board(seed: int = 1942) -> Board:
    """Three TCS sheets A, B, C side by side, each one's first column the last of the one before."""
    rng = random.Random(seed)
    sheets = []
    origin = Hex(0, 0)
    for i, sid in enumerate("ABC"):
        ns = NumberingScheme(style="tcs", sheet=sid, cols=SHEET_COLS, rows=SHEET_ROWS, origin=(origin.q, origin.r))
        px = 60.0
        sheets.append(Sheet(sid, ns, f"{sid.lower()}.png", Affine(px, 0.0, 80.0 - i * 1500.0, 0.0, px, 90.0)))
        origin = ns.colrow_to_hex(SHEET_COLS, 1)
    board = Board(name="Generated three-sheet map", sheets=sheets, legend=dict(LEGEND))
    hexes = board.hexes()
    names = list(LEGEND.values())
    weights = [50, 20, 8, 5, 12, 2]
    for h in hexes:
        board.terrain[h] = rng.choices(names, weights)[0]
        board.elevation[h] = float(rng.choice(range(0, 120, 10)) + rng.choice((0, 0, 0, 5)))
    for name, count in (("trench", 150), ("wire", 80), ("minefield", 20)):
        for h in rng.sample(hexes, count):
            board.features.setdefault(h, set()).add(name)
    on_map = set(hexes)
    for name, count in (("river", 250), ("AT ditch", 60), ("stream", 120)):
        for h in rng.sample(hexes, count):
            n = rng.choice(hex_neighbors(h))
            if n in on_map:
                board.hexsides.setdefault(hexside(h, n), set()).add(name)
    for kind, count, length in (("road", 12, 60), ("railroad", 2, 120), ("trail", 20, 15)):
        links = board.links.setdefault(kind, set())
        for _ in range(count):
            h = rng.choice(hexes)
            heading = rng.randrange(6)
            for _step in range(length):
                heading = (heading + rng.choice((-1, 0, 0, 0, 1))) % 6
                n = hex_neighbors(h)[heading]
                if n not in on_map:
                    heading = (heading + 3) % 6
                    continue
                links.add(hexside(h, n))
                h = n
    for i in range(40):
        centre = rng.choice(hexes)
        kind = rng.choice(("town", "setup", "entry"))
        board.areas[f"{kind} {i}"] = Area(f"{kind} {i}", kind, {h for h in hex_range(centre, 2) if h in on_map})
    for i in range(3):
        centre = rng.choice(hexes)
        region = {h for h in hex_range(centre, 6) if h in on_map}
        sides = {s for h in region for s in hexsides_of(h) if s.other(h) in on_map and s.other(h) not in region}
        board.lines[f"perimeter {i}"] = Line(f"perimeter {i}", "perimeter", sides)
    board.boxes = {"dead": Box("dead", "Dead pile", "dead"), "reserve": Box("reserve", "Reserve", "holding")}
    for _ in range(60):
        x, y = board.center(rng.choice(hexes))
        pts = [(round(x + dx, 3), round(y + dy, 3)) for dx, dy in ((-0.4, -0.3), (0.4, -0.3), (0.5, 0.3), (-0.3, 0.4))]
        board.obstacles.append(Obstacle(rng.choice(("building", "woods")), rng.choice((10.0, 20.0)), pts,
                                        rng.choice("ABC")))
    board.invalidate()
    return board


def write_generated_map(folder: Path, seed: int = 1942) -> Path:
    """Write the generated map and tiny stand-in images for its sheets into a folder."""
    from PIL import Image

    board = generated_board(seed)
    for sh in board.sheets:
        Image.new("RGB", (1, 1), (240, 230, 200)).save(folder / sh.image)
    path = folder / "generated.toml"
    save_map(board, path)
    return path


def measure(path: Path, label: str, repeat: int) -> dict:
    board = load_map(path)
    return {"map": label, "hexes": len(board.hexes()), "bytes": path.stat().st_size,
            "map_load_ms": median_ms(lambda: load_map(path), repeat, 2), "repeat": repeat}


def run(args) -> list[dict]:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    rows = []
    if DEMO_MAP.exists():
        rows.append(measure(DEMO_MAP, "maps/demo.toml", repeat))
    else:
        print(f"bench load: skipping maps/demo.toml (not found at {DEMO_MAP})", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_generated_map(Path(tmp))
        row = measure(path, "generated 3-sheet (A, B, C)", repeat)
        board = load_map(path)
        row["map_save_ms"] = median_ms(lambda: save_map(board, Path(tmp) / "again.toml"), max(3, repeat // 3), 2)
        rows.append(row)
    return rows
