"""The tiled level-of-detail pyramid of a map image, built with Pillow and cached on disk.

Level 0 is the image at full size, each next level half the size of the one
before, down to the level that fits in one tile.  Tiles are ``TILE`` pixels
square (smaller at the right and bottom edges) and stored as
``<cache>/tiles/<content hash>/<level>/<col>_<row>.jpg`` (``.png`` for images
with transparency), with ``pyramid.toml`` describing them.  A pyramid is
built in a private folder and renamed into place when complete, so a cache
folder is either whole or absent.  No Qt here: this runs in a worker thread.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import threading
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import tomli
from PIL import Image

from engine.fileio import atomic_write_text, dumps_toml

from .imagebands import iter_bands

TILE = 512
PYRAMID_FORMAT = 1
JPEG_QUALITY = 88
HASH_CHUNK = 1 << 20

# A scanned map is legitimately far larger than Pillow's default guard against
# decompression bombs (about 89 megapixels).  Map images are allowed up to one
# gigapixel (a 40,000 x 25,000 scan); above that they are refused with a message.
MAP_MAX_PIXELS = 1_000_000_000
Image.MAX_IMAGE_PIXELS = MAP_MAX_PIXELS


class MapImageError(Exception):
    """A map image that cannot be shown: the message names the file and what is wrong."""


class BuildCancelled(Exception):
    """The pyramid build was stopped before it finished."""


@dataclass(frozen=True)
class Level:
    """One level of a pyramid: its size in pixels and in tiles."""

    width: int
    height: int
    cols: int
    rows: int


@dataclass(frozen=True)
class Pyramid:
    """A complete pyramid on disk."""

    folder: Path
    width: int
    height: int
    tile: int
    ext: str
    levels: tuple[Level, ...]

    def tile_path(self, level: int, col: int, row: int) -> Path:
        return self.folder / str(level) / f"{col}_{row}.{self.ext}"

    def level_for(self, screen_px_per_image_px: float) -> int:
        """The coarsest level that still has at least one of its pixels per screen pixel."""
        k = 0
        scale = screen_px_per_image_px
        while k + 1 < len(self.levels) and scale * 2 <= 1.0 + 1e-9:
            scale *= 2
            k += 1
        return k

    @classmethod
    def load(cls, folder: Path) -> "Pyramid | None":
        """The pyramid in ``folder``, or None if there is none (or it is from another version)."""
        try:
            doc = tomli.loads((folder / "pyramid.toml").read_text("utf-8"))
            if doc.get("format") != PYRAMID_FORMAT:
                return None
            levels = tuple(Level(*lv) for lv in doc["levels"])
            return cls(folder, int(doc["width"]), int(doc["height"]), int(doc["tile"]), str(doc["ext"]), levels)
        except (OSError, KeyError, TypeError, ValueError, RecursionError, tomli.TOMLDecodeError):
            return None


def image_digest(path: str | os.PathLike) -> str:
    """The content hash of an image file, read in chunks (never the whole file at once)."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        while chunk := f.read(HASH_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def plan_levels(width: int, height: int, tile: int = TILE) -> tuple[Level, ...]:
    """The levels of a pyramid for an image of this size."""
    levels = []
    w, h = width, height
    while True:
        levels.append(Level(w, h, -(-w // tile), -(-h // tile)))
        if w <= tile and h <= tile:
            return tuple(levels)
        w, h = -(-w // 2), -(-h // 2)


def cached_pyramid(image: str | os.PathLike, cache_root: str | os.PathLike, digest: str | None = None
                   ) -> Pyramid | None:
    """The pyramid of an image if it is already in the cache."""
    digest = digest or image_digest(image)
    return Pyramid.load(Path(cache_root) / "tiles" / digest)


def open_map_image(path: str | os.PathLike) -> Image.Image:
    """Open a map image lazily (header only); clear MapImageError if it is missing, unreadable or too big."""
    from engine.fileio import is_file

    p = Path(path)
    if not is_file(p):
        raise MapImageError(f"{p}: the map image does not exist")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            im = Image.open(p)
    except Image.DecompressionBombError:
        raise MapImageError(f"{p}: the image is larger than {MAP_MAX_PIXELS // 1_000_000:,} megapixels, "
                            "the most Sandtable opens as a map") from None
    except (OSError, SyntaxError, ValueError) as e:
        raise MapImageError(f"{p}: not an image Sandtable can read ({e})") from None
    w, h = im.size
    if w * h > MAP_MAX_PIXELS:
        im.close()
        raise MapImageError(f"{p}: the image is {w:,} x {h:,} = {w * h / 1e6:,.0f} megapixels; Sandtable opens "
                            f"map images up to {MAP_MAX_PIXELS // 1_000_000:,} megapixels")
    return im


def build_pyramid(image: str | os.PathLike, cache_root: str | os.PathLike,
                  progress: Callable[[float], None] | None = None,
                  cancelled: Callable[[], bool] = lambda: False) -> Pyramid:
    """The pyramid of an image: from the cache, or built now (streaming, band by band)."""
    digest = image_digest(image)
    final = Path(cache_root) / "tiles" / digest
    found = Pyramid.load(final)
    if found is not None:
        return found
    im = open_map_image(image)
    work = final.parent / f".{digest}.{os.getpid()}.{threading.get_ident()}.partial"
    shutil.rmtree(work, ignore_errors=True)
    try:
        with im:
            ext = "png" if ("A" in im.getbands() or "transparency" in im.info) else "jpg"
            levels = plan_levels(im.width, im.height)
            _write_levels(im, work, levels, ext, progress, cancelled)
        doc = {"format": PYRAMID_FORMAT, "width": levels[0].width, "height": levels[0].height, "tile": TILE,
               "ext": ext, "levels": [[lv.width, lv.height, lv.cols, lv.rows] for lv in levels]}
        atomic_write_text(work / "pyramid.toml", dumps_toml(doc))
        try:
            os.replace(work, final)
        except OSError:  # another build finished first; keep that one
            shutil.rmtree(work, ignore_errors=True)
    except BuildCancelled:
        shutil.rmtree(work, ignore_errors=True)
        raise
    except (OSError, SyntaxError, ValueError) as e:
        shutil.rmtree(work, ignore_errors=True)
        raise MapImageError(f"{image}: cannot read the image ({e})") from None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    found = Pyramid.load(final)
    if found is None:
        raise MapImageError(f"{image}: the tile cache at {final} could not be written")
    return found


class _LevelWriter:
    """Cuts one level's rows into tiles and hands the rows, halved, to the next level."""

    def __init__(self, folder: Path, index: int, level: Level, ext: str, save, below: "_LevelWriter | None"):
        self.folder, self.index, self.level, self.ext = folder, index, level, ext
        self.save, self.below = save, below
        self.rows: Image.Image | None = None   # rows received but not yet cut
        self.top = 0                             # level row of the first pending row
        (folder / str(index)).mkdir(parents=True, exist_ok=True)

    def add(self, band: Image.Image) -> None:
        if self.rows is None and band.height == TILE:
            self._cut(band)
            return
        if self.rows is None:
            self.rows = band.copy()
        else:
            joined = Image.new(band.mode, (band.width, self.rows.height + band.height))
            joined.paste(self.rows, (0, 0))
            joined.paste(band, (0, self.rows.height))
            self.rows = joined
        while self.rows is not None and self.rows.height >= TILE:
            self._cut(self.rows.crop((0, 0, self.rows.width, TILE)))
            rest = self.rows.height - TILE
            self.rows = self.rows.crop((0, TILE, self.rows.width, self.rows.height)) if rest else None

    def finish(self) -> None:
        if self.rows is not None:
            self._cut(self.rows)
            self.rows = None
        if self.below is not None:
            self.below.finish()

    def _cut(self, strip: Image.Image) -> None:
        row = self.top // TILE
        for col in range(self.level.cols):
            x0 = col * TILE
            tile = strip.crop((x0, 0, min(strip.width, x0 + TILE), strip.height))
            self.save(tile, self.folder / str(self.index) / f"{col}_{row}.{self.ext}")
        self.top += strip.height
        if self.below is not None:
            self.below.add(strip.reduce(2))


def _save_tile(tile: Image.Image, path: Path) -> None:
    if path.suffix == ".png":
        tile.save(path, "PNG", compress_level=1)
    else:
        tile.save(path, "JPEG", quality=JPEG_QUALITY)


def _write_levels(im: Image.Image, work: Path, levels, ext: str, progress, cancelled) -> None:
    pool = ThreadPoolExecutor(max_workers=max(1, min(4, (os.cpu_count() or 2))))
    pending: list[Future] = []

    def save(tile: Image.Image, path: Path) -> None:
        pending.append(pool.submit(_save_tile, tile, path))
        if len(pending) > 64:
            for f in pending[:32]:
                f.result()
            del pending[:32]

    writer = None
    for index in reversed(range(len(levels))):
        writer = _LevelWriter(work, index, levels[index], ext, save, writer)
    try:
        for y, band in iter_bands(im, TILE, cancelled):
            writer.add(band)
            if progress is not None:
                progress(min(1.0, (y + band.height) / im.height))
        if cancelled():
            raise BuildCancelled()
        writer.finish()
        for f in pending:
            f.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
