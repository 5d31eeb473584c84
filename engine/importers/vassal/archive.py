"""A VASSAL module (``.vmod``) or save (``.vsav``, ``.vlog``) as a ZIP archive.

Entries are read by name; images are found the way VASSAL finds them (``images/NAME``,
then its Unicode NFD form, then ``NAME.gif``).  Big entries are copied to disk in chunks,
never read whole into memory.  Every failure is a :class:`BadFile` naming the archive and
the entry.
"""
from __future__ import annotations

import os
import shutil
import struct
import unicodedata
import zipfile
import zlib
from pathlib import Path

from engine.errors import BadFile, Problem

BUILD_FILES = ("buildFile.xml", "buildFile")
CHUNK = 1 << 20
# What an entry read whole into memory may hold (a ZIP entry says its unpacked size; a module of a few
# hundred kilobytes can unpack to gigabytes).  The largest real build files are a few megabytes, saves
# tens of kilobytes to a few megabytes.
BUILD_FILE_LIMIT = 64 << 20
SAVE_LIMIT = 32 << 20
METADATA_LIMIT = 1 << 20
IMAGE_FILE_LIMIT = 64 << 20
MAX_IMAGE_SIDE = 1_000_000       # pixels; a board's area is bounded separately (importer.MAX_BOARD_PIXELS)


class Archive:
    """An open ZIP archive; use as a context manager."""

    def __init__(self, path, name: str | None = None):
        """``path`` a file, or a binary file object (a save inside a module) with ``name`` to report it by."""
        self.path = Path(path) if isinstance(path, (str, os.PathLike)) else Path(name or "archive")
        self.name = name if name is not None else str(path)
        try:
            self.zip = zipfile.ZipFile(path if not isinstance(path, (str, os.PathLike)) else self.path)
        except FileNotFoundError:
            raise BadFile([Problem(self.name, "", "file not found")]) from None
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as e:
            raise BadFile([Problem(self.name, "", f"not a readable ZIP archive ({e}); a VASSAL module, "
                                                  f"save or log is a ZIP file")]) from None
        self.names = set(self.zip.namelist())

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.zip.close()

    def bad(self, entry: str, message: str) -> BadFile:
        return BadFile([Problem(self.name, entry, message)])

    def has(self, entry: str) -> bool:
        return entry in self.names

    def read(self, entry: str, limit: int = SAVE_LIMIT) -> bytes:
        """An entry's bytes (entries are small files: build files, saves, counter images), at most ``limit``."""
        if entry not in self.names:
            raise self.bad(entry, "missing from the archive")
        info = self.zip.getinfo(entry)
        if info.file_size > limit:
            raise self.bad(entry, f"unpacks to {info.file_size:,} bytes (at most {limit:,} are read for this "
                                  f"entry: a damaged or hostile archive)")
        try:
            return self.zip.read(entry)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, RuntimeError, NotImplementedError) as e:
            raise self.bad(entry, f"cannot be read ({e}): the archive is damaged or truncated") from None

    def build_file(self) -> tuple[str, bytes]:
        """The module's build file (``buildFile.xml``, else the old ``buildFile``)."""
        for name in BUILD_FILES:
            if name in self.names:
                return name, self.read(name, BUILD_FILE_LIMIT)
        raise self.bad("buildFile.xml", "missing: a VASSAL module holds buildFile.xml (or buildFile before "
                                        "VASSAL 3.5)")

    def image_entry(self, name: str) -> str | None:
        """The archive entry of an image the build file names, or None."""
        if not name or name.startswith("/"):
            return None
        for cand in (name, unicodedata.normalize("NFD", name), name + ".gif"):
            entry = "images/" + cand
            if entry in self.names:
                return entry
        return None

    def open(self, entry: str):
        try:
            return self.zip.open(entry)
        except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError) as e:
            raise self.bad(entry, f"cannot be read ({e}): the archive is damaged or truncated") from None

    def copy_to(self, entry: str, dest: Path, progress=None) -> None:
        """Copy an entry to a file in chunks (atomically: a temporary file renamed into place)."""
        tmp = dest.with_name(dest.name + ".part")
        try:
            with self.open(entry) as src, open(tmp, "wb") as out:
                done = 0
                while True:
                    block = src.read(CHUNK)
                    if not block:
                        break
                    out.write(block)
                    done += len(block)
                    if progress is not None:
                        progress(done)
            os.replace(tmp, dest)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
            tmp.unlink(missing_ok=True)
            raise self.bad(entry, f"cannot be read ({e}): the archive is damaged or truncated") from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def image_size(self, entry: str) -> tuple[int, int]:
        """An image's pixel size, read from its header only (the pixels are never decoded)."""
        from PIL import Image

        if entry.lower().endswith(".svg"):
            return _svg_size(self, entry)
        try:
            with self.open(entry) as f:
                head = f.read(32)
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError) as e:
            raise self.bad(entry, f"cannot be read ({e}): the archive is damaged or truncated") from None
        if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
            # the size straight from the header: Pillow refuses to even open images past its pixel limit
            w, h = struct.unpack(">II", head[16:24])
            if w < 1 or h < 1:
                raise self.bad(entry, f"is a PNG image of {w} x {h} pixels")
            return w, h
        try:
            with self.open(entry) as f:
                with Image.open(f) as im:
                    return im.size
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError, zipfile.BadZipFile, zlib.error,
                EOFError, NotImplementedError) as e:
            raise self.bad(entry, f"is not an image Sandtable can read ({e})") from None


def _svg_size(arc: Archive, entry: str) -> tuple[int, int]:
    import re

    with arc.open(entry) as f:
        try:
            head = f.read(4096).decode("utf-8", "replace")
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError) as e:
            raise arc.bad(entry, f"cannot be read ({e}): the archive is damaged or truncated") from None
    m = re.search(r"<svg\b[^>]*>", head, re.S)
    if m:
        w = re.search(r'\bwidth="([\d.]+)(px)?"', m.group(0))
        h = re.search(r'\bheight="([\d.]+)(px)?"', m.group(0))
        vb = re.search(r'\bviewBox="[\d.\-]+[ ,]+[\d.\-]+[ ,]+([\d.]+)[ ,]+([\d.]+)"', m.group(0))
        for found in (w and h and (w.group(1), h.group(1)), vb and (vb.group(1), vb.group(2))):
            if found:
                try:
                    size = tuple(float(v) for v in found)
                except ValueError:          # "1.2.3"
                    continue
                if all(1 <= v <= MAX_IMAGE_SIDE for v in size):
                    return round(size[0]), round(size[1])
                raise arc.bad(entry, f"is an SVG image of {found[0]} x {found[1]} pixels (expected 1 to "
                                     f"{MAX_IMAGE_SIDE:,} each way)")
    raise arc.bad(entry, "is an SVG image without a width and height")


def copy_file(src: Path, dest: Path) -> None:
    tmp = dest.with_name(dest.name + ".part")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dest)
