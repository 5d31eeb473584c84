"""The tiled level-of-detail pyramid of a map image, built with libvips (or Pillow) and cached on disk.

Level 0 is the image at full size, each next level half the size of the one
before, down to the level that fits in one tile.  Tiles are ``TILE`` pixels
square (smaller at the right and bottom edges) and stored as
``<cache>/tiles/<content hash>/<level>/<col>_<row>.jpg`` (``.png`` for images
with transparency), with ``pyramid.toml`` describing them.  A pyramid is
built in a private folder and renamed into place when complete, so a cache
folder is either whole or absent.  No Qt here: this runs in a worker thread.

Two builders make the same pyramid.  libvips (``pyvips``, whose binary wheel
carries the library) decodes the scan once, streaming, on every core, and
writes every level's tiles as the rows go by.  A JPEG is first read at 1/8 of
its size by its decoder's DCT scaling (Pillow's draft mode: 0.85 s of CPU for a
32,000 x 20,000 scan, against 1.15 s for libvips's shrink-on-load), and that
picture cut into the pyramid's coarse levels (level 3 and up) at once: a
partial pyramid (``Pyramid.first``), shown while the fine levels are built.  Pillow's builder (``gui.scene.imagebands``) is the fallback where libvips
cannot be loaded, and ``SANDTABLE_TILER=pillow`` chooses it.
"""
from __future__ import annotations

import hashlib
import io
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

from gui.scene.imagebands import iter_bands

TILE = 512
PYRAMID_FORMAT = 1
JPEG_QUALITY = 88
HASH_CHUNK = 1 << 20
HASH_SAMPLES = 32          # chunks read from a big image's body for its cache key (besides its head and tail)
PREVIEW_LEVEL = 3          # the finest level of the first view: a JPEG's decoder reads it at 1/8 of the size
PAPER_RGB = (222, 214, 190)  # the sheet's paper under a growing first view (``gui.scene.sheetlayer.PAPER``)
GROW_FROM = 1              # a growing first view is read from libvips's tiles of this level as they are written

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
    first: int = 0            # the finest level on disk: above 0 in a first view, while the rest is built

    def tile_path(self, level: int, col: int, row: int) -> Path:
        return self.folder / str(level) / f"{col}_{row}.{self.ext}"

    def level_for(self, screen_px_per_image_px: float) -> int:
        """The coarsest level that still has at least one of its pixels per screen pixel."""
        k = 0
        scale = screen_px_per_image_px
        while k + 1 < len(self.levels) and scale * 2 <= 1.0 + 1e-9:
            scale *= 2
            k += 1
        return max(k, self.first)

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
    """The cache key of an image file: its size and modification time, its first and last megabyte and
    ``HASH_SAMPLES`` megabytes spread through the rest (a smaller file is read whole).

    Reading all of a 400 MB scan would take longer than opening its cached pyramid; an image edited
    and saved again changes its time (and a compressed scan its size and bytes) so it is tiled anew.
    """
    st = os.stat(path)
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    with open(path, "rb") as f:
        if st.st_size <= HASH_CHUNK * (HASH_SAMPLES + 2):
            while chunk := f.read(HASH_CHUNK):
                h.update(chunk)
        else:
            last = st.st_size - HASH_CHUNK
            for i in range(HASH_SAMPLES + 2):
                f.seek(last * i // (HASH_SAMPLES + 1))
                h.update(f.read(HASH_CHUNK))
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


def tiler() -> str:
    """The builder in use: "vips" where libvips loads (unless ``SANDTABLE_TILER=pillow``), else "pillow"."""
    if os.environ.get("SANDTABLE_TILER", "").lower() == "pillow":
        return "pillow"
    return "vips" if _vips() is not None else "pillow"


def tiler_name() -> str:
    """The builder in use with its version, e.g. "libvips 8.18.7"."""
    if tiler() == "vips":
        v = _vips()
        return f"libvips {v.version(0)}.{v.version(1)}.{v.version(2)}"
    import PIL

    return f"Pillow {PIL.__version__}"


_VIPS: list = []


def _vips():
    """The pyvips module, or None where libvips cannot be loaded."""
    if not _VIPS:
        try:
            import pyvips

            pyvips.cache_set_max(0)          # nothing is asked twice: keep no operation cache
            _few_arenas()
            _VIPS.append(pyvips)
        except Exception:                    # not installed, or its library missing or broken: Pillow's builder
            _VIPS.append(None)
    return _VIPS[0]


def build_pyramid(image: str | os.PathLike, cache_root: str | os.PathLike,
                  progress: Callable[[float], None] | None = None,
                  cancelled: Callable[[], bool] = lambda: False,
                  preview: Callable[["Pyramid"], None] | None = None,
                  engine: str | None = None,
                  rows: Callable[[int, int, Image.Image], None] | None = None) -> Pyramid:
    """The pyramid of an image: from the cache, or built now (streaming, band by band).

    ``preview(pyramid)`` is called first, for a JPEG, with a partial pyramid of the coarse levels only
    (``first`` above 0), made from the scan read small; never for a cached pyramid.  Its tiles are in
    the build's private folder and go with it when the whole pyramid is in place.

    ``rows(level, top, image)``: for a scan that cannot be read small (a PNG), its first view grows instead,
    from the top down as the decoder goes: ``image`` is the next rows of the scan at the size of pyramid
    level ``level`` (``PREVIEW_LEVEL``), ``top`` their first row at that level.  Never for a cached pyramid,
    nor with ``SANDTABLE_PROGRESSIVE=0`` (the build before it: the placeholder until the pyramid is done).
    """
    digest = image_digest(image)
    final = Path(cache_root) / "tiles" / digest
    found = Pyramid.load(final)
    if found is not None:
        return found
    im = open_map_image(image)
    engine = engine or tiler()
    work = final.parent / f".{digest}.{os.getpid()}.{threading.get_ident()}.partial"
    shutil.rmtree(work, ignore_errors=True)
    _remove_abandoned(final.parent, digest)
    try:
        with im:
            ext = "png" if ("A" in im.getbands() or "transparency" in im.info) else "jpg"
            levels = plan_levels(im.width, im.height)
            grow = None
            if preview is not None and im.format == "JPEG":   # only a JPEG is read small for less than in full
                first = _first_view(_pillow_small(Path(image), levels), work, levels, ext, cancelled)
                _give_back_memory()      # the small picture's memory, before the full decode needs its own
                preview(first)
                if cancelled():
                    raise BuildCancelled()
            elif rows is not None and progressive() and _preview_level(levels) > GROW_FROM:
                grow = rows          # any other scan: its first view grows from the top as it is decoded
            if engine == "vips":
                _vips_levels(Path(image), work, levels, ext, progress, cancelled, grow)
            else:
                _write_levels(im, work, levels, ext, progress, cancelled, grow)
            shutil.rmtree(work / "preview", ignore_errors=True)
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


def _remove_abandoned(folder: Path, digest: str) -> None:
    """Remove this image's private build folders left by programs that ended while tiling (never read as a
    cache, they would only fill the disk); a build of a program still running is left alone."""
    for old in folder.glob(f".{digest}.*.partial"):
        try:
            pid = int(old.name.split(".")[2])
            os.kill(pid, 0)
        except (ValueError, IndexError, ProcessLookupError):
            shutil.rmtree(old, ignore_errors=True)
        except OSError:          # a process of another user: still running
            pass


def progressive() -> bool:
    """Whether a scan that cannot be read small shows a first view growing from the top as it is decoded
    (``SANDTABLE_PROGRESSIVE=0``: no, the placeholder until the pyramid is done, as before)."""
    return os.environ.get("SANDTABLE_PROGRESSIVE", "1") != "0"


def _preview_level(levels) -> int:
    return min(PREVIEW_LEVEL, len(levels) - 1)


def _pillow_small(path: Path, levels) -> Image.Image:
    """The whole scan at the size of the first view's finest level, with Pillow: a JPEG through its
    decoder's draft mode (1/8 scale), then resized to the level's exact size."""
    lv = levels[_preview_level(levels)]
    with Image.open(path) as im:
        im.draft("RGB", (lv.width, lv.height))
        small = im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
    return small if small.size == (lv.width, lv.height) else small.resize((lv.width, lv.height), Image.BILINEAR)


def _first_view(small: Image.Image, work: Path, levels, ext: str, cancelled) -> "Pyramid":
    """Cut the scan read small into the pyramid's coarse levels in ``work/preview``: a partial pyramid."""
    k = _preview_level(levels)
    cut = work / "preview.cut"
    _write_levels(small, cut, levels[k:], ext, None, cancelled)
    if cancelled():
        raise BuildCancelled()
    folder = work / "preview"
    folder.mkdir(parents=True)
    for i in range(len(levels) - k):
        os.replace(cut / str(i), folder / str(i + k))
    shutil.rmtree(cut)
    return Pyramid(folder, levels[0].width, levels[0].height, TILE, ext, tuple(levels), first=k)


def _vips_open(vips, path: Path, **options):
    """A scan opened by libvips for a streamed read, as 8-bit sRGB or greyscale (alpha kept)."""
    im = vips.Image.new_from_file(str(path), access="sequential", fail_on="truncated", **options)
    return _vips_8bit(vips, im)


def _vips_8bit(vips, im):
    if im.interpretation not in ("srgb", "b-w") or im.format != "uchar":
        im = im.colourspace("srgb")
    if im.format != "uchar":
        im = im.cast("uchar")
    return im


def _few_arenas() -> None:
    """At most two glibc heaps for the threads (libvips's workers): otherwise each keeps its own and what one
    frees is never used by the others, tens of megabytes more at the peak of a big scan's build."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 2)      # M_ARENA_MAX
    except (OSError, AttributeError):    # not glibc: nothing to do
        pass


def _give_back_memory() -> None:
    """Return freed heap memory to the system (glibc keeps it in its per-thread arenas otherwise)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):    # not glibc: nothing to do
        pass


def _vips_levels(path: Path, work: Path, levels, ext: str, progress, cancelled, rows=None) -> None:
    """Every level's tiles in ``work``, by libvips: one streamed decode, tiles written as rows arrive.

    ``rows``: the growing first view (see ``build_pyramid``), read from the tiles of level ``GROW_FROM``
    that libvips has written so far (``_GrowingView``): no second decode of the scan."""
    vips = _vips()
    try:
        im = _vips_open(vips, path)
        if im.width != levels[0].width or im.height != levels[0].height:
            raise ValueError(f"libvips reads it as {im.width} x {im.height}")
        work.mkdir(parents=True, exist_ok=True)
        suffix = f".jpg[Q={JPEG_QUALITY}]" if ext == "jpg" else ".png[compression=1]"
        # Progress and cancelling are watched from a Python thread of our own, never from a callback that libvips
        # would call on its worker threads (Python called from native threads while the program collects its
        # garbage crashed the process): the watcher counts the tiles written and kills the build when asked.
        done = threading.Event()
        total = sum(lv.cols * lv.rows for lv in levels)
        top = len(levels) - 1
        growing = None if rows is None else _GrowingView(work / "p_files" / str(top - GROW_FROM), levels, ext, rows)

        def watch() -> None:
            nonlocal growing
            while not done.wait(0.02):                  # a cancel is seen within 20 ms
                if cancelled():
                    im.set_kill(True)
                    return
                if growing is not None:
                    try:
                        if not growing.poll():
                            growing = None              # a tile that could not be read: no more rows
                    except Exception:                   # never worth this thread: it watches the cancel too
                        growing = None
                if progress is not None:                # the tiles written so far, level by level
                    try:
                        made = sum(len(os.listdir(f)) for f in os.scandir(work / "p_files") if f.is_dir())
                    except OSError:                     # not begun yet
                        made = 0
                    progress(min(1.0, made / total))
            if growing is not None and not cancelled():
                try:
                    growing.poll()                      # the rows written since the last look
                except Exception:                       # the pyramid is done: the first view no longer matters
                    pass

        watcher = threading.Thread(target=watch, name=f"tiles watch {Path(path).name}", daemon=True)
        watcher.start()
        try:
            im.dzsave(str(work / "p"), tile_size=TILE, overlap=0, depth="onetile", suffix=suffix)
        finally:
            done.set()
            watcher.join()
    except vips.Error as e:
        if cancelled():
            raise BuildCancelled() from None
        raise OSError(str(e).strip().splitlines()[-1] if str(e).strip() else "libvips failed") from None
    if cancelled():
        raise BuildCancelled()
    # libvips numbers the levels from the smallest (0) up; here level 0 is the full size
    made = work / "p_files"
    for k, lv in enumerate(levels):
        folder = made / str(top - k)
        if len(os.listdir(folder)) != lv.cols * lv.rows:
            raise OSError(f"level {k} has {len(os.listdir(folder))} tiles, not {lv.cols * lv.rows}")
        os.replace(folder, work / str(k))
    shutil.rmtree(made)
    (work / "p.dzi").unlink(missing_ok=True)


def on_paper(im: Image.Image) -> Image.Image:
    """An RGB picture of an image, where it is transparent the sheet's paper (a first view has no alpha)."""
    if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
        rgba = im.convert("RGBA")
        out = Image.new("RGB", rgba.size, PAPER_RGB)
        out.paste(rgba, mask=rgba.getchannel("A"))
        return out
    return im.convert("RGB")


class _GrowingView:
    """The first view of a scan that cannot be read small, grown from the tiles of one fine level as libvips
    writes them: each complete row of tiles is read small (a JPEG tile by its decoder's DCT scaling) and handed
    on as the next rows of the preview level, top to bottom.  Reading all of level 1 so costs 0.35 s of CPU for a
    32,000 x 20,000 scan, where decoding its PNG again for a first view would cost 3.0 s."""

    def __init__(self, folder: Path, levels, ext: str, rows):
        self.folder, self.ext, self.rows = folder, ext, rows
        self.level = _preview_level(levels)
        self.source = levels[GROW_FROM]
        self.shrink = 1 << (self.level - GROW_FROM)
        self.width = levels[self.level].width
        self.next = 0                                    # the next row of tiles to hand on

    def poll(self) -> bool:
        """Hand on every row of tiles written whole since the last look; False if a whole tile cannot be read
        (the first view then stops growing; the pyramid's build is not this class's business)."""
        while self.next < self.source.rows:
            tiles = []
            for c in range(self.source.cols):
                data = self._written(self.folder / f"{c}_{self.next}.{self.ext}")
                if data is None:
                    return True                          # not all written yet
                tiles.append(data)
            try:
                tiles = [self._small(data) for data in tiles]
            except (OSError, SyntaxError, ValueError):
                return False
            step = TILE // self.shrink
            strip = Image.new("RGB", (self.width, max(t.height for t in tiles)))
            for c, t in enumerate(tiles):
                strip.paste(t, (c * step, 0))
            self.rows(self.level, self.next * step, strip)
            self.next += 1
        return True

    def _written(self, path: Path) -> bytes | None:
        """A tile's bytes, or None while it is not (wholly) written: a JPEG ends with its EOI marker,
        a PNG with its IEND chunk."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if (data.endswith(b"\xff\xd9") if self.ext == "jpg" else data[-8:-4] == b"IEND") else None

    def _small(self, data: bytes) -> Image.Image:
        with Image.open(io.BytesIO(data)) as t:
            want = (-(-t.width // self.shrink), -(-t.height // self.shrink))
            t.draft("RGB", want)
            small = on_paper(t)
        return small if small.size == want else small.resize(want, Image.BILINEAR)


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


def _write_levels(im: Image.Image, work: Path, levels, ext: str, progress, cancelled, rows=None) -> None:
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
        k = _preview_level(levels)
        for y, band in iter_bands(im, TILE, cancelled):
            writer.add(band)
            if rows is not None:              # the growing first view: the band just decoded, small
                rows(k, y >> k, on_paper(band).reduce(1 << k))
            if progress is not None:
                progress(min(1.0, (y + band.height) / im.height))
        if cancelled():
            raise BuildCancelled()
        writer.finish()
        for f in pending:
            f.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
