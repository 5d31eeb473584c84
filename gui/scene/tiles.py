"""The tiled level-of-detail pyramid of a map image, built with libvips (or Pillow) and cached on disk.

Level 0 is the image at full size, each next level half the size of the one
before, down to the level that fits in one tile.  Tiles are ``TILE`` pixels
square (smaller at the right and bottom edges), JPEG (PNG for images with
transparency), and each row of tiles of a level is one file,
``<cache>/tiles/<content hash>/<level>/<row>.tiles``: a short index of where
each tile's bytes begin, then the tiles one after another (``Pyramid.tile_bytes``).
A 32,000 x 20,000 scan so makes 81 files, not 3,340: creating a file costs far
more than writing its bytes on most file systems.  ``pyramid.toml`` describes
the pyramid.  A pyramid is built in a private folder and renamed into place
when complete, so a cache folder is either whole or absent.  No Qt here: this
runs in a worker thread.

The scan is decoded once, from top to bottom, a band of 512 rows at a time:
by libvips (``pyvips``, whose binary wheel carries the library) where it
loads, in strips of 64 rows (its memory stays low), on a thread of its own a
band ahead, reading the file as a stream (not mapped), else by Pillow
(``gui.scene.imagebands``; ``SANDTABLE_TILER=pillow`` chooses it).  Each band
is cut into tiles, encoded on a thread pool while it is halved for the next
level, and so on down (``_LevelWriter``).  A JPEG is first read at 1/8 of its size by
its decoder's DCT scaling (Pillow's draft mode: 0.85 s of CPU for a 32,000 x
20,000 scan), and that picture cut into the pyramid's coarse levels (level 3
and up) at once: a partial pyramid (``Pyramid.first``), shown while the fine
levels are built.  Any other scan shows its first view growing from the top,
the rows of level 3 handed on as they are made.
"""
from __future__ import annotations

import hashlib
import io
import os
import queue
import shutil
import struct
import threading
import warnings
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import tomli
from PIL import Image

from engine.fileio import atomic_write_text, dumps_toml

from gui.scene.imagebands import iter_bands

TILE = 512
PYRAMID_FORMAT = 2          # 1: a file per tile (before tile rows); such a cache is built again
JPEG_QUALITY = 88
HASH_CHUNK = 1 << 20
HASH_SAMPLES = 32          # chunks read from a big image's body for its cache key (besides its head and tail)
PREVIEW_LEVEL = 3          # the finest level of the first view: a JPEG's decoder reads it at 1/8 of the size
# A JPEG up to this size is built whole without a first view: its pyramid takes about a second of CPU (the
# 10,275 x 6,675 scan: 0.9 s), and reading it small first would only put the sharp view off by a quarter of that.
QUICK_PIXELS = 100_000_000
PAPER_RGB = (222, 214, 190)  # the sheet's paper under a growing first view (``gui.scene.sheetlayer.PAPER``)
STRIP = 64                 # rows libvips decodes at a time (a band is eight strips)
ROW_MAGIC = b"SNDTROW1"     # the head of a file of a row of tiles

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

    def row_path(self, level: int, row: int) -> Path:
        """The file of one row of tiles of a level."""
        return self.folder / str(level) / f"{row}.tiles"

    def tile_bytes(self, level: int, col: int, row: int) -> bytes | None:
        """The encoded tile (JPEG or PNG), or None if its file cannot be read or is damaged."""
        return read_tile(self.row_path(level, row), col)

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


def write_row(path: Path, tiles: list[bytes]) -> None:
    """One row of encoded tiles in one file: ``ROW_MAGIC``, their count, the offset of each tile and of the
    end (little-endian 32-bit, from the file's start), then the tiles."""
    head = len(ROW_MAGIC) + 4 * (len(tiles) + 2)
    offsets = [head]
    for data in tiles:
        offsets.append(offsets[-1] + len(data))
    with open(path, "wb") as f:
        f.write(ROW_MAGIC + struct.pack(f"<{len(offsets) + 1}I", len(tiles), *offsets))
        f.write(b"".join(tiles))


def read_tile(path: Path, col: int) -> bytes | None:
    """Tile ``col`` of a row file, or None if the file is missing, too short or not a row of tiles."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(ROW_MAGIC) + 4)
            if len(head) < len(ROW_MAGIC) + 4 or not head.startswith(ROW_MAGIC):
                return None
            (count,) = struct.unpack("<I", head[len(ROW_MAGIC):])
            if not 0 <= col < count:
                return None
            f.seek(len(ROW_MAGIC) + 4 + 4 * col)
            start, end = struct.unpack("<2I", f.read(8))
            if end <= start:
                return None
            f.seek(start)
            data = f.read(end - start)
    except (OSError, struct.error):
        return None
    return data if len(data) == end - start else None


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

    ``preview(pyramid)`` is called first, for a JPEG over ``QUICK_PIXELS``, with a partial pyramid of the coarse levels only
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
            if preview is not None and im.format == "JPEG" and im.width * im.height > QUICK_PIXELS:
                # only a JPEG is read small for less than in full, and only a big one is worth it
                first = _first_view(_pillow_small(Path(image), levels), work, levels, ext, cancelled)
                _give_back_memory()      # the small picture's memory, before the full decode needs its own
                preview(first)
                if cancelled():
                    raise BuildCancelled()
            elif rows is not None and progressive() and _preview_level(levels) > 0:
                grow = rows          # any other scan (or a JPEG built at once): its first view grows as it is decoded
            bands = _vips_bands(Path(image), levels, cancelled) if engine == "vips" else iter_bands(im, TILE, cancelled)
            _write_levels(bands, work, levels, ext, progress, cancelled, grow)
            shutil.rmtree(work / "preview", ignore_errors=True)
        doc = {"format": PYRAMID_FORMAT, "width": levels[0].width, "height": levels[0].height, "tile": TILE,
               "ext": ext, "levels": [[lv.width, lv.height, lv.cols, lv.rows] for lv in levels]}
        atomic_write_text(work / "pyramid.toml", dumps_toml(doc))
        try:
            os.replace(work, final)
        except OSError:
            if Pyramid.load(final) is None:     # a cache of an earlier version (a file per tile) or damaged: replaced
                shutil.rmtree(final, ignore_errors=True)
                os.replace(work, final)
            else:                               # another build finished first; keep that one
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
    _write_levels(iter_bands(small, TILE, cancelled), cut, levels[k:], ext, None, cancelled)
    if cancelled():
        raise BuildCancelled()
    folder = work / "preview"
    folder.mkdir(parents=True)
    for i in range(len(levels) - k):
        os.replace(cut / str(i), folder / str(i + k))
    shutil.rmtree(cut)
    return Pyramid(folder, levels[0].width, levels[0].height, TILE, ext, tuple(levels), first=k)


def _vips_open(vips, path: Path, fh, **options):
    """A scan opened by libvips for a streamed read from the open file ``fh``, as 8-bit sRGB or greyscale
    (alpha kept).  The file is read through a stream of our own, not mapped: libvips maps a JPEG whole, and
    every page of it read stays in the process's resident memory (88 MB more at the peak of the 32,000 x
    20,000 JPEG's build)."""
    source = vips.SourceCustom()
    source.on_read(fh.read)
    source.on_seek(lambda offset, whence: (fh.seek(offset, whence), fh.tell())[1])
    im = vips.Image.new_from_source(source, "", access="sequential", fail_on="truncated", **options)
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


def _vips_bands(path: Path, levels, cancelled) -> Iterator[tuple[int, Image.Image]]:
    """``(top row, band)`` of the scan decoded once by libvips, top to bottom, ``TILE`` rows a band (the last
    fewer).  A thread of its own decodes each band as strips of ``STRIP`` rows (the decoder is one stream;
    more threads, and taller strips, only hold more memory: 230 MB against 170 MB for the 32,000 x 20,000
    JPEG) into one of two buffers, the next band while the last one's tiles are encoded, and each is handed
    on as a Pillow image over its buffer (not a copy): a buffer is written again two bands later, by when
    ``_write_levels`` has encoded the band's tiles (it asks for the next band only then)."""
    vips = _vips()
    fh = open(path, "rb")
    try:
        im = _vips_open(vips, path, fh)
        if im.width != levels[0].width or im.height != levels[0].height:
            raise ValueError(f"libvips reads it as {im.width} x {im.height}")
        # in the layout of Pillow's own pixels (RGB takes 4 bytes), so a band is a Pillow image over the buffer
        if im.bands == 3:
            im, mode = im.bandjoin_const([255]), "RGBX"
        elif im.bands == 2:
            im, mode = im.colourspace("srgb"), "RGBA"
        elif im.bands in (1, 4):
            mode = "L" if im.bands == 1 else "RGBA"
        else:
            raise ValueError(f"libvips reads it with {im.bands} bands")
    except vips.Error as e:
        fh.close()
        raise OSError(_vips_message(e)) from None
    except BaseException:
        fh.close()
        raise
    vips.concurrency_set(1)
    stride = im.width * im.bands
    height = min(TILE, im.height)
    free = threading.Semaphore(2)            # buffers not held by a band handed on
    done: "queue.Queue" = queue.Queue()      # (top, rows, buffer) decoded, or an exception, or None at the end
    stop = threading.Event()

    def decode() -> None:
        try:
            buffers = [memoryview(bytearray(stride * height)) for _ in range(2 if im.height > TILE else 1)]
            for i, top in enumerate(range(0, im.height, TILE)):
                free.acquire()
                view = buffers[i % len(buffers)]
                rows = min(TILE, im.height - top)
                for y in range(0, rows, STRIP):
                    if stop.is_set() or cancelled():
                        raise BuildCancelled()
                    n = min(STRIP, rows - y)
                    view[y * stride:(y + n) * stride] = im.crop(0, top + y, im.width, n).write_to_memory()
                done.put((top, rows, view))
            done.put(None)
        except vips.Error as e:
            done.put(BuildCancelled() if cancelled() or stop.is_set() else OSError(_vips_message(e)))
        except BaseException as e:         # noqa: BLE001 -- handed to the reader, raised there
            done.put(e)

    worker = threading.Thread(target=decode, name="scan decoder", daemon=True)
    worker.start()
    try:
        while True:
            item = done.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            top, rows, view = item
            yield top, Image.frombuffer(mode, (im.width, rows), view[:rows * stride], "raw", mode, 0, 1)
            free.release()                 # asked for the next band: this one's tiles are encoded
    finally:
        stop.set()
        free.release()
        free.release()
        worker.join()
        fh.close()


def _vips_message(e) -> str:
    text = str(e).strip()
    return text.splitlines()[-1] if text else "libvips failed"


def on_paper(im: Image.Image) -> Image.Image:
    """An RGB picture of an image, where it is transparent the sheet's paper (a first view has no alpha)."""
    if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
        rgba = im.convert("RGBA")
        out = Image.new("RGB", rgba.size, PAPER_RGB)
        out.paste(rgba, mask=rgba.getchannel("A"))
        return out
    return im.convert("RGB")


class _LevelWriter:
    """Cuts one level's rows into tiles, a row of tiles at a time, and hands the rows, halved, to the next level.

    ``watch(top, band)``: told of every band this level receives (the growing first view)."""

    def __init__(self, folder: Path, index: int, level: Level, ext: str, save, below: "_LevelWriter | None",
                 watch=None):
        self.folder, self.index, self.level, self.ext = folder, index, level, ext
        self.save, self.below, self.watch = save, below, watch
        self.rows: Image.Image | None = None   # a row of tiles being filled (each cut row gets a new one)
        self.fill = 0                            # rows of it received
        self.top = 0                             # level row of the first pending row
        self.seen = 0                            # rows received
        self.odd: Image.Image | None = None      # a last row received not yet halved (it pairs with the next)
        (folder / str(index)).mkdir(parents=True, exist_ok=True)

    def add(self, band: Image.Image) -> None:
        if self.watch is not None:
            self.watch(self.seen, band)
        self.seen += band.height
        if self.fill == 0 and band.height == TILE:
            self._cut(band)                      # its tiles are encoded while it is halved
        else:
            self._gather(band)
        if self.below is not None:               # halved at once, so the coarse levels follow the decoder closely
            self._halve(band)

    def _gather(self, band: Image.Image) -> None:
        y = 0
        while y < band.height:
            if self.rows is None:
                self.rows = Image.new(band.mode, (band.width, TILE))
            n = min(TILE - self.fill, band.height - y)
            self.rows.paste(band if n == band.height else band.crop((0, y, band.width, y + n)), (0, self.fill))
            self.fill += n
            y += n
            if self.fill == TILE:
                self._cut(self.rows)
                self.rows, self.fill = None, 0

    def finish(self) -> None:
        if self.fill:
            self._cut(self.rows.crop((0, 0, self.rows.width, self.fill)))
            self.rows, self.fill = None, 0
        if self.below is not None:
            if self.odd is not None:             # the image's last row, alone: halved to one row
                self.below.add(self.odd.reduce(2))
                self.odd = None
            self.below.finish()

    def _halve(self, band: Image.Image) -> None:
        if self.odd is not None:
            joined = Image.new(band.mode, (band.width, band.height + 1))
            joined.paste(self.odd, (0, 0))
            joined.paste(band, (0, 1))
            band, self.odd = joined, None
        if band.height % 2:
            self.odd = band.crop((0, band.height - 1, band.width, band.height))
            band = band.crop((0, 0, band.width, band.height - 1))
        if band.height:
            self.below.add(band.reduce(2))

    def _cut(self, strip: Image.Image) -> None:
        row = self.top // TILE
        boxes = [(x0, 0, min(strip.width, x0 + TILE), strip.height) for x0 in range(0, self.level.cols * TILE, TILE)]
        self.save(strip, boxes, self.folder / str(self.index) / f"{row}.tiles")
        self.top += strip.height


def _encode_tile(strip: Image.Image, box: tuple[int, int, int, int], ext: str) -> bytes:
    tile = strip.crop(box)
    out = io.BytesIO()
    if ext == "png":
        tile.save(out, "PNG", compress_level=1)
    else:
        tile.save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


def _write_levels(bands, work: Path, levels, ext: str, progress, cancelled, rows=None) -> None:
    """Every level's tiles in ``work`` from the scan's bands ``(top row, band)``, top to bottom: each level's
    rows of tiles cut as its rows arrive and encoded on a thread pool (encoding lets go of Python's lock), each
    tile cut from its row by the thread that encodes it; every band's tiles written before the next band.  ``rows``: the growing first view (``build_pyramid``),
    handed every band that reaches the preview level."""
    pool = ThreadPoolExecutor(max_workers=max(1, min(4, (os.cpu_count() or 2))))
    pending: deque[tuple[Path, list[Future]]] = deque()

    def written(keep: int) -> None:
        while len(pending) > keep:
            path, futures = pending.popleft()
            write_row(path, [f.result() for f in futures])

    def save(strip: Image.Image, boxes: list, path: Path) -> None:
        pending.append((path, [pool.submit(_encode_tile, strip, box, ext) for box in boxes]))

    k = _preview_level(levels)
    growing = [rows]

    def grow(top: int, band: Image.Image) -> None:
        if growing[0] is not None:
            try:
                growing[0](k, top, on_paper(band))
            except Exception:        # a first view that fails stops growing; the pyramid is built all the same
                growing[0] = None

    writer = None
    for index in reversed(range(len(levels))):
        watch = grow if rows is not None and index == k else None
        writer = _LevelWriter(work, index, levels[index], ext, save, writer, watch)
    try:
        for y, band in bands:
            if cancelled():
                raise BuildCancelled()
            writer.add(band)
            written(0)        # the band's tiles encoded: its buffer may be written again (``_vips_bands``)
            if progress is not None:
                progress(min(1.0, (y + band.height) / levels[0].height))
        if cancelled():
            raise BuildCancelled()
        writer.finish()
        written(0)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
