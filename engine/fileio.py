"""Reading TOML with clear errors, writing files atomically (DESIGN invariants 2 and 5)."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import tomli
import tomli_w

from .errors import BadFile, Problem


def read_toml(path: str | os.PathLike) -> dict[str, Any]:
    """Parse a TOML file; a missing or malformed file raises BadFile naming file and line."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise BadFile([Problem(str(p), "", "file not found")]) from None
    except IsADirectoryError:
        raise BadFile([Problem(str(p), "", "a folder, not a file")]) from None
    except OSError as e:
        raise BadFile([Problem(str(p), "", f"cannot read the file ({e.strerror or e})")]) from None
    except ValueError as e:          # a name the system cannot take (a NUL byte in it)
        raise BadFile([Problem(repr(str(p))[1:-1], "", f"not a file name ({e})")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile([Problem(str(p), "", f"not UTF-8 text (byte {e.start})")]) from None
    return loads_toml(text, str(p))


def is_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` names an existing file; False, not an exception, for a name the system refuses
    (too long, a NUL byte in it) or a folder it may not look into."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def check_writable(path: str | os.PathLike, key: str = "", suffix: str = "") -> Path:
    """``path`` as a file this program can write (before any long work is done for it): BadFile naming it and
    ``key`` (the option that gave it) when it is a folder, its folder is missing or not writable, or its name
    does not end in ``suffix``."""
    p = Path(path)

    def bad(message: str) -> BadFile:
        return BadFile([Problem(str(p), key, message)])

    try:
        if suffix and not p.name.endswith(suffix):
            raise bad(f"expected a file name ending in {suffix}")
        if p.is_dir():
            raise bad("is a folder, not a file")
        folder = p.parent.resolve()
        if not folder.is_dir():
            raise bad(f"the folder {str(p.parent) or '.'} does not exist")
        if p.exists() and not os.access(p, os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
            raise bad(f"cannot be written here (no permission to write in {folder})")
    except (OSError, ValueError) as e:          # a name the system refuses (too long, a NUL byte)
        raise bad(f"not a file name that can be written ({e})") from None
    return p


def loads_toml(text: str, file: str) -> dict[str, Any]:
    """Parse TOML text read from ``file``: every way the reader can fail becomes BadFile naming the file.

    Besides syntax errors the reader refuses, by raising other exceptions,
    arrays and inline tables nested hundreds of levels deep and keys of a
    thousand parts (RecursionError), and integers of thousands of digits
    (ValueError from Python's integer conversion limit).
    """
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as e:
        line = getattr(e, "lineno", None)
        msg = getattr(e, "msg", None) or str(e)
        if line is None:
            m = re.search(r"line (\d+)", str(e))
            line = int(m.group(1)) if m else None
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise BadFile([Problem(file, "", f"not valid TOML: {msg}", line)]) from None
    except RecursionError as e:
        raise BadFile([Problem(file, "", f"not a file this program reads: {e} "
                                         "(arrays, tables or keys nested too deep)", _line_where(text, _DEEP))]) from None
    except (ValueError, OverflowError) as e:
        m = re.search(r"limit \((\d+) digits\)", str(e))
        what = f"an integer of more than {m.group(1)} digits" if m else f"a value is out of range ({e})"
        raise BadFile([Problem(file, "", f"not a file this program reads: {what}",
                               _line_where(text, _LONG_NUMBER) if m else None)]) from None
    except MemoryError:
        raise BadFile([Problem(file, "", "not a file this program reads: too large to hold in memory")]) from None


# where arrays or inline tables open 400 deep, or a key has 1000 parts, on one line
_DEEP = re.compile(r"(?:[\[{][^\[{\n]{0,40}){400}|(?:[^.\n]{0,200}\.){999}")
_LONG_NUMBER = re.compile(r"[0-9_]{4000}")


def _line_where(text: str, pattern: re.Pattern) -> int | None:
    """The line (from 1) where ``pattern`` first matches in ``text``, or None."""
    m = pattern.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


TEMP_SUFFIX = ".tmp"
STALE_SECONDS = 600      # a temporary file this old is left from a write that was interrupted
_TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")     # mkstemp: prefix, 8 random characters, suffix


def _temp_prefix(p: Path) -> str:
    return f".{p.name}."


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write a file so that it is either the old one or the whole new one, never half.

    The data goes to a temporary file beside the target, is synced, and is
    renamed over the target; the folder is synced too, so that a power cut
    after the write cannot undo the rename.  Temporary files left beside the
    target by an earlier write that was interrupted are removed.
    """
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(p.parent, p.name)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(p), suffix=TEMP_SUFFIX, dir=str(p.parent))
    try:
        # mkstemp makes the file private (0600); give it the mode an ordinary
        # new file would have, or keep the mode of the file it replaces.
        try:
            mode = os.stat(p).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    sync_folder(p.parent)


def sync_folder(folder: str | os.PathLike) -> None:
    """Flush a folder's entries (a rename in it) to the disk; a no-op where folders cannot be opened (Windows)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(str(folder), flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass        # some file systems refuse fsync on a folder; the rename itself has happened
    finally:
        os.close(fd)


def remove_stale_temps(folder: str | os.PathLike, name: str | None = None,
                       older_than: float = STALE_SECONDS) -> list[Path]:
    """Remove temporary files an interrupted atomic write left in ``folder`` (for one file ``name``, or all).

    Only files named like this module's temporary files (``.NAME.XXXX.tmp``)
    and not modified for ``older_than`` seconds are removed, so a write in
    progress in another process keeps its file.  Returns the files removed.
    """
    import time

    folder = Path(folder)
    now = time.time()
    prefix = _temp_prefix(Path(name)) if name else "."
    removed: list[Path] = []
    try:
        candidates = [f for f in folder.iterdir()
                      if f.name.startswith(prefix) and _TEMP_NAME.match(f.name)]
    except OSError:
        return removed
    for f in candidates:
        try:
            if f.is_file() and now - f.stat().st_mtime >= older_than:
                f.unlink()
                removed.append(f)
        except OSError:
            continue
    return removed


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def dumps_toml(doc: dict[str, Any]) -> str:
    """TOML text with keys in the order given (callers build dicts in a fixed order)."""
    return tomli_w.dumps(doc, multiline_strings=False)


def write_toml(path: str | os.PathLike, doc: dict[str, Any]) -> None:
    atomic_write_text(path, dumps_toml(doc))
