"""Map art: draw a board with Pillow so that it looks like a printed wargame map.

Each sheet becomes one image: paper, hills as tinted bands with contour
lines, terrain with its symbols, rivers and ditches along hexsides, roads and
railroads from hex centre to hex centre, hex features, named lines and areas,
the printed hex grid with a small id at the top of every hex, and a strip
below the map with its title and off-map boxes.  The sheet's transform is
set to what was drawn, so the board's grid lies exactly over its image.

Image coordinates are continuous: pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``.
Drawing happens at ``supersample`` times the size and is then reduced, which
gives cheap antialiasing.  Only one sheet image is held in memory at a time.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from engine.maps.board import Affine, Board, Sheet
from engine.fileio import atomic_write_bytes
from engine.maps.hexes import SQRT3
from engine.maps.art.canvas import Canvas
from engine.maps.art.layers import paint
from engine.maps.art.palette import print_on_paper
from engine.maps.art.shapes import printed_rect, sheet_margins

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
MAX_DRAWING_PIXELS = 40_000_000   # above this a sheet is drawn at its final size, without supersampling


@dataclass
class SheetArt:
    """A drawn sheet: its image and the lattice-to-image transform it was drawn with."""

    image: Image.Image
    transform: Affine


def sheet_frame(board: Board, sheet: Sheet, px_per_hex: float) -> tuple[Affine, tuple[int, int]]:
    """The transform and image size of a sheet drawn with ``px_per_hex`` pixels between neighbouring hex centres."""
    size_px = px_per_hex / SQRT3
    x0, y0, x1, y1 = printed_rect(board, sheet).bounds
    m, _strip = sheet_margins(board, sheet)
    width = int(math.ceil((x1 - x0 + m["left"] + m["right"]) * size_px))
    height = int(math.ceil((y1 - y0 + m["top"] + m["bottom"]) * size_px))
    transform = Affine(size_px, 0.0, (m["left"] - x0) * size_px, 0.0, size_px, (m["top"] - y0) * size_px)
    return transform, (width, height)


def render_sheet(board: Board, sheet: Sheet, px_per_hex: float = 64, supersample: int | None = None,
                 seed: int = 1) -> SheetArt:
    """Draw one sheet; returns its image and the transform it was drawn with.

    ``supersample`` None draws at twice the size (then reduces it) unless
    that would take more than MAX_DRAWING_PIXELS, when it draws at 1x.
    """
    transform, (w, h) = sheet_frame(board, sheet, px_per_hex)
    if supersample is None:
        supersample = 2 if w * h * 4 <= MAX_DRAWING_PIXELS else 1
    cv = Canvas(board, sheet, transform, (w, h), supersample, seed)
    paint(cv)
    img = cv.image if supersample == 1 else cv.image.resize((w, h), Image.Resampling.LANCZOS)
    cv.image = cv.draw = None
    return SheetArt(print_on_paper(img, seed), transform)


def sheet_image_path(board: Board, sheet: Sheet, out_path) -> Path:
    """``out.png`` for a one-sheet board; ``out-A.png``, ``out-B.png`` … for several sheets."""
    out = Path(out_path)
    if len(board.sheets) == 1:
        return out
    return out.with_name(f"{out.stem}-{sheet.id}{out.suffix}")


def render_board(board: Board, out_path, px_per_hex: float = 64, supersample: int | None = None,
                 seed: int = 1, colours: int | None = 128) -> list[Path]:
    """Draw every sheet to an image file and set each sheet's image and transform to match.

    The format follows the file's suffix (``.png`` or ``.jpg``, JPEG at
    quality 90); ``colours`` reduces a PNG to that many palette colours
    (None keeps full colour).  Each file is written atomically; the sheet's
    ``image`` becomes the file's name, relative to the map file beside it.
    """
    out = Path(out_path)
    if out.suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"{out}: map images are .png or .jpg, not {out.suffix or 'a name without a suffix'}")
    paths = []
    for sheet in board.sheets:
        path = sheet_image_path(board, sheet, out)
        art = render_sheet(board, sheet, px_per_hex, supersample, seed)
        atomic_write_bytes(path, encode_image(art.image, path.suffix, colours))
        sheet.transform, sheet.image = art.transform, path.name
        art = None   # one sheet image in memory at a time
        paths.append(path)
    return paths


def encode_image(img: Image.Image, suffix: str, colours: int | None = 128) -> bytes:
    """The bytes of a PNG (palette of ``colours``) or a JPEG (quality 90) of an image."""
    buf = io.BytesIO()
    if suffix.lower() in (".jpg", ".jpeg"):
        img.save(buf, "JPEG", quality=90, optimize=True)
    else:
        if colours:
            img = img.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        img.save(buf, "PNG", compress_level=9)
    return buf.getvalue()


__all__ = ["render_board", "render_sheet", "sheet_frame", "sheet_margins", "sheet_image_path", "encode_image", "SheetArt"]
