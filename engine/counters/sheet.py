"""Cutting a scanned counter sheet into counter images (Pillow).

The grid is set by two clicked points, the top-left corner of the first
counter and the bottom-right corner of the last one, the number of columns
and rows, and the gutter (the gap between counters, in pixels of the scan).
Each counter's box is then worked out from these, so a sheet whose counters
are evenly spaced is cut exactly; the boxes can be previewed before cutting.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from engine.errors import BadFile, Problem
from engine.fileio import atomic_write_bytes


@dataclass(frozen=True)
class CounterGrid:
    """A sheet's counter grid: ``first`` top-left and ``last`` bottom-right corners, counts and gutter."""

    first: tuple[float, float]
    last: tuple[float, float]
    columns: int
    rows: int
    gutter: tuple[float, float] = (0.0, 0.0)   # horizontal and vertical gap between counters

    def __post_init__(self):
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"a counter grid needs at least one column and one row, not "
                             f"{self.columns} x {self.rows}")
        if self.last[0] <= self.first[0] or self.last[1] <= self.first[1]:
            raise ValueError("the second corner must lie below and to the right of the first")
        if self.cell[0] <= 0 or self.cell[1] <= 0:
            raise ValueError(f"a gutter of {self.gutter} leaves no room for the counters")

    @property
    def cell(self) -> tuple[float, float]:
        """A counter's width and height in pixels of the scan."""
        w = (self.last[0] - self.first[0] - (self.columns - 1) * self.gutter[0]) / self.columns
        h = (self.last[1] - self.first[1] - (self.rows - 1) * self.gutter[1]) / self.rows
        return w, h

    def box(self, column: int, row: int) -> tuple[int, int, int, int]:
        """The pixel box ``(left, top, right, bottom)`` of the counter in a column and row (from 0)."""
        w, h = self.cell
        x0 = self.first[0] + column * (w + self.gutter[0])
        y0 = self.first[1] + row * (h + self.gutter[1])
        return round(x0), round(y0), round(x0 + w), round(y0 + h)

    def boxes(self) -> list[tuple[int, int, int, int]]:
        """Every counter's box, row by row from the top left."""
        return [self.box(c, r) for r in range(self.rows) for c in range(self.columns)]

    def to_dict(self) -> dict:
        return {"first": list(self.first), "last": list(self.last), "columns": self.columns, "rows": self.rows,
                "gutter": list(self.gutter)}


MAX_SHEET_PIXELS = 120_000_000     # an A3 sheet scanned at 600 dpi is about 70 megapixels


def open_sheet(path: str | os.PathLike) -> Image.Image:
    """A scanned sheet as an RGBA image; BadFile names the file when it is missing, not an image, or so large
    (its header may say so falsely) that decoding it would exhaust memory."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                w, h = im.size
                if w * h > MAX_SHEET_PIXELS:
                    raise BadFile([Problem(str(path), "", f"the image says it is {w:,} x {h:,} pixels, too large "
                                                          f"for a counter sheet (at most "
                                                          f"{MAX_SHEET_PIXELS // 1_000_000} megapixels)")])
                return im.convert("RGBA")
    except FileNotFoundError:
        raise BadFile([Problem(str(path), "", "the counter sheet image is missing")]) from None
    except Image.DecompressionBombError as e:
        raise BadFile([Problem(str(path), "", f"the image is too large to open ({e})")]) from None
    except (OSError, SyntaxError, ValueError) as e:
        raise BadFile([Problem(str(path), "", f"not an image Pillow can read ({e})")]) from None


def check_grid(grid: CounterGrid, sheet: Image.Image, name: str = "counter sheet") -> None:
    """Refuse a grid whose counters run off the sheet."""
    left, top, _, _ = grid.box(0, 0)
    _, _, right, bottom = grid.box(grid.columns - 1, grid.rows - 1)
    if left < 0 or top < 0 or right > sheet.width or bottom > sheet.height:
        raise BadFile([Problem(name, "grid", f"the grid ({left},{top})-({right},{bottom}) runs off the "
                                             f"{sheet.width} x {sheet.height} sheet")])


def cut(sheet: Image.Image, grid: CounterGrid) -> list[Image.Image]:
    """The counters of a sheet, row by row from the top left."""
    check_grid(grid, sheet)
    return [sheet.crop(b) for b in grid.boxes()]


def preview(sheet: Image.Image, grid: CounterGrid, colour=(230, 30, 30, 255)) -> Image.Image:
    """A copy of the sheet with every counter's box outlined, to check the grid before cutting."""
    out = sheet.convert("RGBA").copy()
    d = ImageDraw.Draw(out)
    for left, top, right, bottom in grid.boxes():
        d.rectangle((left, top, right - 1, bottom - 1), outline=colour, width=1)
    return out


def save_counters(images: dict[str, Image.Image], folder: str | os.PathLike) -> dict[str, str]:
    """Write images as PNG files named ``<name>.png`` in ``folder`` (each atomically); name -> file path."""
    import io

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, img in images.items():
        if not name or any(c in name for c in "/\\:") or name.startswith("."):
            raise BadFile([Problem(str(folder), name, "expected a plain file name for a counter image")])
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        path = folder / f"{name}.png"
        atomic_write_bytes(path, buf.getvalue())
        out[name] = str(path)
    return out


def assign(images: list[Image.Image], fronts: dict[str, int], backs: dict[str, int] | None = None
           ) -> dict[str, Image.Image]:
    """Name cut images for units: ``<unit>-front`` and ``<unit>-back`` from their indexes in the cut."""
    out = {}
    for kind, table in (("front", fronts), ("back", backs or {})):
        for uid, i in table.items():
            if not 0 <= i < len(images):
                raise BadFile([Problem("counter sheet", f"{kind}s.{uid}",
                                       f"counter {i + 1} is not on the sheet (it has {len(images)})")])
            out[f"{uid}-{kind}"] = images[i]
    return out
