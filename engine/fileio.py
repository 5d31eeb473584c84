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
    except OSError as e:
        raise BadFile([Problem(str(p), "", f"cannot read the file ({e.strerror})")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile([Problem(str(p), "", f"not UTF-8 text (byte {e.start})")]) from None
    try:
        return tomli.loads(text)
    except tomli.TOMLDecodeError as e:
        line = getattr(e, "lineno", None)
        msg = getattr(e, "msg", None) or str(e)
        if line is None:
            m = re.search(r"line (\d+)", str(e))
            line = int(m.group(1)) if m else None
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise BadFile([Problem(str(p), "", f"not valid TOML: {msg}", line)]) from None


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write a file so that it is either the old one or the whole new one, never half."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(p.parent))
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
