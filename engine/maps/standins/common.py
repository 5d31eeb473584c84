"""Shared tools for stand-in maps: sheet points, hexes inside shapes, routes, and writing the files.

Waypoints are given as printed grid positions ``(sheet, column, row)``, where
whole numbers are hex centres and fractions lie between them, so the
geography reads in the rulebook's own hex numbers.
"""
from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import shapely
import shapely.affinity
from PIL import Image

from engine.maps.board import Affine, Area, Board, Line
from engine.maps.hexes import SQRT3, Hex, Hexside, hex_linedraw, hexside
from engine.maps.samples import sample_main


def grid_point(board: Board, sheet: str, col: float, row: float) -> tuple[float, float]:
    """A point of a sheet's printed grid in lattice coordinates (whole numbers are hex centres)."""
    ns = board.sheet(sheet).numbering
    c, r = int(round(col)), int(round(row))
    x, y = board.center(ns.colrow_to_hex(c, r))
    down = 1.0 if ns.row_direction == "down" else -1.0
    return (x + 1.5 * (col - c), y + down * SQRT3 * (row - r))


def shape(board: Board, points) -> shapely.Polygon:
    """A polygon through printed grid points ``(sheet, col, row)``."""
    return shapely.Polygon([grid_point(board, *p) for p in points]).buffer(0)


def ellipse(board: Board, sheet: str, col: float, row: float, rcol: float, rrow: float) -> shapely.Polygon:
    """An ellipse centred on a grid point, ``rcol`` columns and ``rrow`` rows in radius."""
    cx, cy = grid_point(board, sheet, col, row)
    return shapely.affinity.scale(shapely.Point(cx, cy).buffer(1.0, quad_segs=16), 1.5 * rcol, SQRT3 * rrow)


def hexes_in(board: Board, geom) -> set[Hex]:
    """The board's hexes whose centre lies inside a shape."""
    hexes = board.hexes()
    xy = np.array([board.center(h) for h in hexes])
    inside = shapely.contains_xy(geom, xy[:, 0], xy[:, 1])
    return {h for h, ok in zip(hexes, inside) if ok}


def route(board: Board, ids) -> list[Hex]:
    """The hexes of a route through waypoint hex ids, each step to a neighbour."""
    out: list[Hex] = []
    hexes = [board.parse_hex(i) for i in ids]
    for a, b in zip(hexes, hexes[1:]):
        seg = hex_linedraw(a, b)
        out.extend(seg if not out else seg[1:])
    return out


def links_of(path: list[Hex]) -> set[Hexside]:
    return {hexside(a, b) for a, b in zip(path, path[1:])}


def add_feature(board: Board, hexes, name: str) -> None:
    for h in hexes:
        board.features.setdefault(h, set()).add(name)


def add_hexsides(board: Board, sides, name: str) -> None:
    for s in sides:
        board.hexsides.setdefault(s, set()).add(name)


def add_area(board: Board, name: str, kind: str, hexes) -> None:
    board.areas[name] = Area(name, kind, set(hexes))


def add_line(board: Board, name: str, kind: str, sides) -> None:
    board.lines[name] = Line(name, kind, set(sides))


def printed_copy(board: Board, keep_area) -> Board:
    """The board as the art draws it: only the areas ``keep_area(area)`` accepts, and no named lines."""
    out = copy.copy(board)
    out.areas = {k: a for k, a in board.areas.items() if keep_area(a)}
    out.lines = {}
    return out


def write_map(board: Board, printed: Board, folder, stem: str, px_per_hex: float, suffix: str = ".png",
              colours: int | None = 96, seed: int = 1, turn_degrees: float = 0.0) -> list[Path]:
    """Draw every sheet of ``printed``, give ``board`` the images and transforms, save ``stem.toml``.

    ``turn_degrees`` turns each drawn image about its centre (as a scan lies a
    little askew on the glass) and folds the turn into the sheet's transform.
    Returns the map file and the image files.
    """
    from engine.fileio import atomic_write_bytes
    from engine.maps.art import encode_image, render_sheet, sheet_image_path
    from engine.maps.mapfile import save_map

    folder = Path(folder)
    paths = []
    for sheet, drawn in zip(board.sheets, printed.sheets):
        art = render_sheet(printed, drawn, px_per_hex, None, seed)
        image, transform = art.image, art.transform
        if turn_degrees:
            image, transform = _turned(image, transform, turn_degrees)
        path = sheet_image_path(board, sheet, folder / f"{stem}{suffix}")
        atomic_write_bytes(path, encode_image(image, path.suffix, colours))
        sheet.image, sheet.transform = path.name, transform
        drawn.image, drawn.transform = path.name, transform
        paths.append(path)
    toml = folder / f"{stem}.toml"
    save_map(board, toml)
    return [toml] + paths


def write_standin(game, folder, px_per_hex: float | None = None) -> list[Path]:
    """Write a stand-in game's ``STEM.toml`` and sheet images into a folder; returns their paths.

    ``game`` is the game's module: its ``build_board()``, ``printed(board)``, ``STEM`` and ``PX_PER_HEX``.
    """
    board = game.build_board()
    return write_map(board, game.printed(board), folder, game.STEM,
                     game.PX_PER_HEX if px_per_hex is None else px_per_hex)


def standin_main(game, argv: list[str] | None = None) -> int:
    """``python -m engine.maps.standins.GAME [FOLDER]``: write that stand-in (into maps/ by default)."""
    return sample_main(lambda folder: write_standin(game, folder), argv)


def _turned(image: Image.Image, t: Affine, degrees: float) -> tuple[Image.Image, Affine]:
    """An image turned anticlockwise about its centre (canvas grown to fit) and the transform that follows it."""
    w, h = image.size
    out = image.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=(239, 232, 212))
    w2, h2 = out.size
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    # a pixel (u, v) goes to (u', v') about the centres: image y runs down, so anticlockwise on screen is
    # u' = cos*(u-cx) + sin*(v-cy) + cx2, v' = -sin*(u-cx) + cos*(v-cy) + cy2
    cx, cy, cx2, cy2 = w / 2, h / 2, w2 / 2, h2 / 2
    turn = Affine(cos, sin, cx2 - cos * cx - sin * cy, -sin, cos, cy2 + sin * cx - cos * cy)
    composed = Affine(turn.a * t.a + turn.b * t.d, turn.a * t.b + turn.b * t.e, turn.a * t.c + turn.b * t.f + turn.c,
                      turn.d * t.a + turn.e * t.d, turn.d * t.b + turn.e * t.e, turn.d * t.c + turn.e * t.f + turn.f)
    return out, composed
