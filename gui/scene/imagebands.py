"""Read a map image as horizontal bands of rows without ever holding the whole image in memory.

Pillow decodes a baseline JPEG or a non-interlaced PNG from top to bottom.
Here its decoder writes into an anonymous memory map the size of the image;
pages are committed only as rows are written, and each band of rows is
handed on and then given back to the system (``madvise``), so the resident
memory stays near one band however tall the scan is.

How far the decoder has got is read, for RGB, from the padding byte of
Pillow's 4-byte RGB pixels, which the decoder sets to 255 on every row it
writes.  Greyscale, palette and 16-bit greyscale PNGs have no padding byte:
for them the compressed bytes the decoder has taken are also inflated by a
counter that keeps only the count, and every complete row (filter byte and
pixels) in that count has been written.  Other images (TIFF, interlaced PNG,
CMYK JPEG, images with an alpha channel) are decoded whole.
"""
from __future__ import annotations

import mmap
import zlib
from typing import Callable, Iterator

from PIL import Image, ImageFile, ImagePalette

FEED_BYTES = 1 << 16  # compressed bytes per decoder call: a few rows of a scan
COUNT_CHUNK = 1 << 20  # inflated bytes the row counter holds at a time

# PNG raw modes decoded band by band into a buffer of the image's own mode:
# raw mode -> (the image mode, bits per pixel in the file, bytes per pixel in the buffer)
_PNG_PLAIN = {"L": ("L", 8, 1), "L;2": ("L", 2, 1), "L;4": ("L", 4, 1), "1": ("1", 1, 1),
              "P": ("P", 8, 1), "P;1": ("P", 1, 1), "P;2": ("P", 2, 1), "P;4": ("P", 4, 1),
              "I;16B": ("I;16", 16, 2)}
_RELEASE = getattr(mmap, "MADV_REMOVE", None) or getattr(mmap, "MADV_DONTNEED", None)


def streams(im: Image.Image) -> bool:
    """Whether this image can be decoded band by band (baseline JPEG or plain RGB PNG)."""
    if not isinstance(im, ImageFile.ImageFile) or len(getattr(im, "tile", ())) != 1:
        return False
    codec = im.tile[0][0]
    if im.format == "JPEG":
        return codec == "jpeg" and im.mode in ("RGB", "L") and not im.info.get("progressive")
    if im.format == "PNG":
        if codec != "zip" or im.info.get("interlace"):
            return False
        return im.mode == "RGB" or (im.tile[0][3] in _PNG_PLAIN and im.mode == _PNG_PLAIN[im.tile[0][3]][0])
    return False


def iter_bands(im: Image.Image, band_rows: int, cancelled: Callable[[], bool] = lambda: False
               ) -> Iterator[tuple[int, Image.Image]]:
    """``(top row, band image)`` from top to bottom; each band is ``band_rows`` tall but the last.

    Bands are RGB or RGBA images of their own.
    """
    if streams(im):
        if im.mode == "RGB":
            yield from _stream_bands(im, band_rows, cancelled)
        else:
            yield from _stream_plain_png(im, band_rows, cancelled)
        return
    im.load()
    whole = im if im.mode in ("RGB", "RGBA") else im.convert("RGBA" if "A" in im.getbands() or
                                                                 "transparency" in im.info else "RGB")
    for y in range(0, whole.height, band_rows):
        if cancelled():
            return
        yield y, whole.crop((0, y, whole.width, min(whole.height, y + band_rows)))


def _stream_bands(im: ImageFile.ImageFile, band_rows: int, cancelled) -> Iterator[tuple[int, Image.Image]]:
    """Bands of a baseline JPEG or a plain RGB PNG, decoded into Pillow's 4-byte RGB pixels."""
    width, height = im.size
    stride = width * 4
    codec, extents, offset, args = im.tile[0]
    if im.format == "JPEG":
        args = ("RGB", args[1] if isinstance(args, tuple) and len(args) > 1 else "")
        read = im.fp.read
    else:
        im._PngImageFile__idat = im._PngImageFile__prepare_idat  # what PngImageFile.load_prepare does
        read = _png_reader(im)

    def band(view, done: int, last: int) -> Image.Image:
        rows = Image.frombuffer("RGBX", (width, last + 1 - done),
                                view[done * stride:(last + 1) * stride], "raw", "RGBX", 0, 1)
        out = rows.convert("RGB")
        rows.close()
        return out

    yield from _decode_bands(
        im, read, ("RGB", codec, args), ("RGBX", 0, 1), stride, band_rows, cancelled,
        consumed=lambda data: None,
        band_ready=lambda buf, last: buf[last * stride + 3] == 255,   # the decoder's padding byte of that row
        band=band)


def _stream_plain_png(im: ImageFile.ImageFile, band_rows: int, cancelled) -> Iterator[tuple[int, Image.Image]]:
    """Bands of a greyscale, palette or 16-bit greyscale PNG, each turned into RGB (RGBA if it has transparency)."""
    width, height = im.size
    codec, extents, offset, rawmode = im.tile[0]
    mode, bits, nbytes = _PNG_PLAIN[rawmode]
    palette = im.palette.copy() if mode == "P" and im.palette is not None else None
    if mode == "1":       # a black and white scan: decoded as a two-colour palette (Pillow has no 1-bit buffer)
        mode, rawmode = "P", "P;1"
        palette = ImagePalette.ImagePalette("RGB", bytes([0, 0, 0, 255, 255, 255]))
    stride = width * nbytes
    row_bytes = 1 + (width * bits + 7) // 8            # the filter byte and the packed pixels of one row
    im._PngImageFile__idat = im._PngImageFile__prepare_idat  # what PngImageFile.load_prepare does
    transparency = im.info.get("transparency")
    counter = zlib.decompressobj()
    inflated = 0

    def consumed(data: bytes) -> None:
        """Inflate what the decoder took, keeping only the count: every whole row in it has been written."""
        nonlocal inflated
        out = counter.decompress(data, COUNT_CHUNK)
        inflated += len(out)
        while counter.unconsumed_tail:
            out = counter.decompress(counter.unconsumed_tail, COUNT_CHUNK)
            inflated += len(out)

    def band(view, done: int, last: int) -> Image.Image:
        rows = Image.frombuffer(mode, (width, last + 1 - done), view[done * stride:(last + 1) * stride],
                                "raw", mode, stride, 1)
        out = _to_rgb(rows, palette, transparency)
        rows.close()
        return out

    yield from _decode_bands(
        im, _png_reader(im), (mode, codec, rawmode), (mode, stride, 1), stride, band_rows, cancelled,
        consumed=consumed, band_ready=lambda buf, last: last < min(height, inflated // row_bytes), band=band)


def _decode_bands(im: ImageFile.ImageFile, read, decoder_args: tuple, map_args: tuple, stride: int,
                  band_rows: int, cancelled, consumed, band_ready, band) -> Iterator[tuple[int, Image.Image]]:
    """Feed ``im``'s compressed data to Pillow's decoder writing into an anonymous memory map of the image, and
    yield each band as soon as its rows are written (``band_ready(buf, last row)``, after ``consumed(bytes the
    decoder took)``); its pages are then given back.  ``band(view, top, last)`` makes a band image of its own."""
    width, height = im.size
    codec, extents, offset, _ = im.tile[0]
    mode, codec, rawmode = decoder_args
    buf = mmap.mmap(-1, stride * height)
    view = memoryview(buf)
    core = Image.core.map_buffer(buf, (width, height), "raw", 0, map_args)
    decoder = Image._getdecoder(mode, codec, rawmode, im.decoderconfig)
    done = 0
    try:
        decoder.setimage(core, extents)
        im.fp.seek(offset)
        pending = b""
        finished = False
        while done < height:
            if cancelled():
                return
            if not finished:
                chunk = read(FEED_BYTES)
                if not chunk:
                    raise OSError(f"the image data ends early (row {done} of {height})")
                pending += chunk
                n, err = decoder.decode(pending)
                if n < 0:
                    finished = True
                    if err < 0:
                        raise OSError(f"the image data is damaged near row {done} (decoder error {err})")
                else:
                    consumed(pending[:n])
                    pending = pending[n:]
            while done < height:
                last = min(height, done + band_rows) - 1
                if not finished and not band_ready(buf, last):
                    break
                yield done, band(view, done, last)
                _release(buf, done * stride, (last + 1) * stride)
                done = last + 1
            if finished and done < height:
                raise OSError(f"the image data ends early (row {done} of {height})")
    finally:
        decoder.cleanup()
        del decoder, core
        view.release()
        try:
            buf.close()
        except BufferError:  # a caller still holds a band; the map goes with it
            pass


def _to_rgb(rows: Image.Image, palette, transparency) -> Image.Image:
    """A band of a greyscale, palette or 16-bit image as RGB, or RGBA where the file marks a transparent colour."""
    if rows.mode == "I;16":
        import numpy as np

        grey = (np.frombuffer(rows.tobytes(), dtype="<u2").reshape(rows.height, rows.width) >> 8).astype(np.uint8)
        rows = Image.fromarray(grey, "L")
        if transparency is not None:
            transparency = transparency >> 8
    elif rows.mode == "P":
        rows = rows.copy()
        if palette is not None:
            rows.putpalette(palette)
    if transparency is not None:
        rows.info["transparency"] = transparency
        return rows.convert("RGBA")
    return rows.convert("RGB")


def _png_reader(im: ImageFile.ImageFile) -> Callable[[int], bytes]:
    """Pillow's reader of a PNG's image data, where a file cut short ends the data (Pillow raises struct.error
    or EOFError reading the next chunk's header) instead of escaping as an error of another kind."""
    import struct

    def read(n: int) -> bytes:
        try:
            return im.load_read(n)
        except (struct.error, EOFError):
            return b""

    return read


def _release(buf: mmap.mmap, start: int, end: int) -> None:
    """Give the pages wholly inside ``[start, end)`` back to the system."""
    if _RELEASE is None:
        return
    page = mmap.PAGESIZE
    a = -(-start // page) * page
    b = end // page * page if end < len(buf) else len(buf)
    if b > a:
        try:
            buf.madvise(_RELEASE, a, b - a)
        except OSError:
            pass
