"""Synthetic scans of any size for benchmarks and tests, written strip by strip.

A PNG is written row by row with zlib, so a 32,000 x 20,000 scan needs a few
megabytes of memory to make.  A JPEG goes through Pillow's encoder, which needs
the whole image, up to ``MAX_JPEG_PIXELS``; a bigger one is written as a PNG
first and turned into a JPEG by libvips, streaming.  The picture
looks vaguely like a printed map: paper tones, soft terrain patches, a ruled
grid every ``cell`` pixels and a little print noise.

``python -m gui.scene.hugeimage OUT.png WIDTH HEIGHT``
"""
from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

import numpy as np
from PIL import Image

from engine.fileio import atomic_write_bytes

STRIP = 256
MAX_JPEG_PIXELS = 200_000_000


def scan_rows(width: int, height: int, y0: int, y1: int, cell: int = 160) -> np.ndarray:
    """Rows ``y0..y1`` of the synthetic scan as an ``(y1-y0, width, 3)`` uint8 array."""
    x = np.arange(width, dtype=np.float32)
    y = np.arange(y0, y1, dtype=np.float32)[:, None]
    fx = np.sin(x / 1900.0) + 0.5 * np.sin(x / 530.0 + 1.3)
    fy = np.cos(y / 1400.0) + 0.5 * np.sin(y / 610.0 + 0.4)
    t = (fx[None, :] * fy + 1.5) / 3.0                      # 0..1, soft patches
    rng = np.random.default_rng(7)
    noise = rng.integers(-6, 7, size=(64, 64), dtype=np.int16)
    reps = (-(-(y1 - y0) // 64), -(-width // 64))
    n = np.tile(noise, reps)[: y1 - y0, :width]
    out = np.empty((y1 - y0, width, 3), dtype=np.uint8)
    for c, (lo, hi) in enumerate(((232, 150), (224, 182), (196, 120))):
        out[..., c] = np.clip(lo + (hi - lo) * t + n, 0, 255).astype(np.uint8)
    out[:, ::cell, :] = (60, 50, 40)
    rows = np.nonzero((np.arange(y0, y1) % cell) == 0)[0]
    out[rows, :, :] = (60, 50, 40)
    return out


PNG_MODES = {"RGB": (8, 2, 3), "L": (8, 0, 1), "P": (8, 3, 1), "I;16": (16, 0, 2)}  # bit depth, colour type, bytes


def write_png(path: str | Path, width: int, height: int, cell: int = 160, level: int = 1, mode: str = "RGB") -> Path:
    """Write a PNG strip by strip (filter 0, zlib ``level``); memory stays at one strip.

    ``mode`` is "RGB", "L" (8-bit greyscale), "P" (a 256-colour palette) or
    "I;16" (16-bit greyscale): the same picture in each of the PNG kinds a scan comes in.
    """
    path = Path(path)
    depth, colour_type, nbytes = PNG_MODES[mode]
    tmp = path.with_name(f".{path.name}.tmp")
    z = zlib.compressobj(level)
    with open(tmp, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        _chunk(f, b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0))
        if mode == "P":       # index i shows a paper-to-ink tone, a little warm
            ramp = np.arange(256)
            _chunk(f, b"PLTE", np.stack([ramp, ramp * 15 // 16, ramp * 3 // 4], 1).astype(np.uint8).tobytes())
        for y0 in range(0, height, STRIP):
            rows = scan_rows(width, height, y0, min(height, y0 + STRIP), cell)
            if mode != "RGB":
                rows = rows[..., 1]
            if mode == "I;16":
                rows = (rows.astype(">u2") * 257).view(np.uint8)
            raw = np.zeros((rows.shape[0], width * nbytes + 1), dtype=np.uint8)
            raw[:, 1:] = rows.reshape(rows.shape[0], -1)
            data = z.compress(raw.tobytes())
            if data:
                _chunk(f, b"IDAT", data)
        _chunk(f, b"IDAT", z.flush())
        _chunk(f, b"IEND", b"")
    tmp.replace(path)
    return path


def write_jpeg(path: str | Path, width: int, height: int, cell: int = 160, quality: int = 85) -> Path:
    """Write a baseline RGB JPEG (whole image in memory up to MAX_JPEG_PIXELS; above, through libvips)."""
    if width * height > MAX_JPEG_PIXELS:
        return _write_big_jpeg(Path(path), width, height, cell, quality)
    rows = np.concatenate([scan_rows(width, height, y0, min(height, y0 + STRIP), cell)
                           for y0 in range(0, height, STRIP)])
    import io

    buf = io.BytesIO()
    Image.fromarray(rows).save(buf, "JPEG", quality=quality)
    del rows
    atomic_write_bytes(path, buf.getvalue())
    return Path(path)


def _write_big_jpeg(path: Path, width: int, height: int, cell: int, quality: int) -> Path:
    from gui.scene.tiles import _vips

    vips = _vips()
    if vips is None:
        raise ValueError(f"a {width} x {height} JPEG needs libvips (pyvips) to generate; write a PNG instead")
    png = write_png(path.with_name(f".{path.stem}.source.png"), width, height, cell)
    tmp = path.with_name(f".{path.name}.tmp.jpg")
    try:
        vips.Image.new_from_file(str(png), access="sequential").jpegsave(str(tmp), Q=quality)
        tmp.replace(path)
    finally:
        png.unlink(missing_ok=True)
        tmp.unlink(missing_ok=True)
    return path


def _chunk(f, kind: bytes, data: bytes) -> None:
    f.write(struct.pack(">I", len(data)))
    f.write(kind)
    f.write(data)
    f.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: python -m gui.scene.hugeimage OUT.png|OUT.jpg WIDTH HEIGHT", file=sys.stderr)
        return 2
    out, w, h = Path(args[0]), int(args[1]), int(args[2])
    (write_jpeg if out.suffix.lower() in (".jpg", ".jpeg") else write_png)(out, w, h)
    return 0


if __name__ == "__main__":
    sys.exit(main())
