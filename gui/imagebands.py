"""Read a map image as horizontal bands of rows without ever holding the whole image in memory.

Pillow decodes a baseline JPEG or a non-interlaced PNG from top to bottom.
Here its decoder writes into an anonymous memory map the size of the image;
pages are committed only as rows are written, and each band of rows is
handed on and then given back to the system (``madvise``), so the resident
memory stays near one band however tall the scan is.  Progress is read from
the padding byte of Pillow's 4-byte RGB pixels, which the decoder sets to 255
on every row it writes.  Other images (TIFF, interlaced PNG, CMYK JPEG,
images with an alpha channel) are decoded whole.
"""
from __future__ import annotations

import mmap
from typing import Callable, Iterator

from PIL import Image, ImageFile

FEED_BYTES = 1 << 16  # compressed bytes per decoder call: a few rows of a scan
_RELEASE = getattr(mmap, "MADV_REMOVE", None) or getattr(mmap, "MADV_DONTNEED", None)


def streams(im: Image.Image) -> bool:
    """Whether this image can be decoded band by band (baseline JPEG or plain RGB PNG)."""
    if not isinstance(im, ImageFile.ImageFile) or len(getattr(im, "tile", ())) != 1:
        return False
    codec = im.tile[0][0]
    if im.format == "JPEG":
        return codec == "jpeg" and im.mode in ("RGB", "L") and not im.info.get("progressive")
    if im.format == "PNG":
        return codec == "zip" and im.mode == "RGB" and not im.info.get("interlace")
    return False


def iter_bands(im: Image.Image, band_rows: int, cancelled: Callable[[], bool] = lambda: False
               ) -> Iterator[tuple[int, Image.Image]]:
    """``(top row, band image)`` from top to bottom; each band is ``band_rows`` tall but the last.

    Bands are RGB or RGBA images of their own.
    """
    if streams(im):
        yield from _stream_bands(im, band_rows, cancelled)
        return
    im.load()
    whole = im if im.mode in ("RGB", "RGBA") else im.convert("RGBA" if "A" in im.getbands() or
                                                                 "transparency" in im.info else "RGB")
    for y in range(0, whole.height, band_rows):
        if cancelled():
            return
        yield y, whole.crop((0, y, whole.width, min(whole.height, y + band_rows)))


def _stream_bands(im: ImageFile.ImageFile, band_rows: int, cancelled) -> Iterator[tuple[int, Image.Image]]:
    width, height = im.size
    stride = width * 4
    codec, extents, offset, args = im.tile[0]
    if im.format == "JPEG":
        args = ("RGB", args[1] if isinstance(args, tuple) and len(args) > 1 else "")
        read = im.fp.read
    else:
        im._PngImageFile__idat = im._PngImageFile__prepare_idat  # what PngImageFile.load_prepare does
        read = im.load_read
    buf = mmap.mmap(-1, stride * height)
    view = memoryview(buf)
    core = Image.core.map_buffer(buf, (width, height), "raw", 0, ("RGBX", 0, 1))
    decoder = Image._getdecoder("RGB", codec, args, im.decoderconfig)
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
                    pending = pending[n:]
            while done < height:
                last = min(height, done + band_rows) - 1
                if not finished and buf[last * stride + 3] != 255:
                    break
                rows = Image.frombuffer("RGBX", (width, last + 1 - done),
                                        view[done * stride:(last + 1) * stride], "raw", "RGBX", 0, 1)
                band = rows.convert("RGB")
                rows.close()
                del rows
                yield done, band
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
