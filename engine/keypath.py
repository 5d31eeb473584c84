"""Key paths like ``sheets[0].cols`` or ``terrain.A.rows[3]``, and the TOML line each one is on.

The parser gives line numbers only for syntax errors; for problems found
later, :func:`find_line` scans the text once for table headers, keys and the
elements of arrays.  It reads standard TOML written one key per line; where it
cannot tell, it answers the line of the nearest enclosing key, or None.
"""
from __future__ import annotations

import re

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_KEY_PART = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_KEY = re.compile(rf"^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=\s*")
_ARRAY_TABLE = re.compile(rf"^\s*\[\[\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]\]")
_TABLE = re.compile(rf"^\s*\[\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*\]")
_PART = re.compile(_KEY_PART)
_SEGMENT = re.compile(r'\[(\d+)\]|\.?("(?:[^"\\]|\\.)*"|[^.\[]+)')


def format_path(path: tuple) -> str:
    """``("sheets", 0, "cols")`` -> ``sheets[0].cols``; odd keys are quoted."""
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            text = seg if _BARE.match(seg) else '"' + seg.replace("\\", "\\\\").replace('"', '\\"') + '"'
            out += ("." if out else "") + text
    return out


def parse_path(text: str) -> tuple:
    """The inverse of :func:`format_path`."""
    out: list = []
    for m in _SEGMENT.finditer(text):
        if m.group(1) is not None:
            out.append(int(m.group(1)))
        else:
            out.append(_unquote(m.group(2)))
    return tuple(out)


def _unquote(part: str) -> str:
    part = part.strip()
    if part.startswith('"') and part.endswith('"') and len(part) >= 2:
        return part[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if part.startswith("'") and part.endswith("'") and len(part) >= 2:
        return part[1:-1]
    return part


def _split_key(text: str) -> list[str]:
    return [_unquote(m.group(0)) for m in _PART.finditer(text)]


def key_lines(text: str) -> dict[tuple, int]:
    """Every table, key and top-level array element of a TOML text -> its line (1-based)."""
    lines = text.splitlines()
    found: dict[tuple, int] = {}
    counters: dict[tuple, int] = {}
    table: tuple = ()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _ARRAY_TABLE.match(line)
        if m:
            name = tuple(_split_key(m.group(1)))
            n = counters.get(name, 0)
            counters[name] = n + 1
            table = name + (n,)
            found.setdefault(table, i + 1)
            i += 1
            continue
        m = _TABLE.match(line)
        if m:
            table = tuple(_split_key(m.group(1)))
            found.setdefault(table, i + 1)
            i += 1
            continue
        m = _KEY.match(line)
        if m:
            key = table + tuple(_split_key(m.group(1)))
            found.setdefault(key, i + 1)
            rest = line[m.end():]
            if rest.startswith("["):
                i = _scan_array(lines, i, m.end(), key, found)
                continue
        i += 1
    return found


def _scan_array(lines: list[str], i: int, col: int, key: tuple, found: dict) -> int:
    """Record the line of each element of the array starting at lines[i][col]; return the next line."""
    depth = 0
    index = -1
    expecting = False
    quote = None
    while i < len(lines):
        line = lines[i]
        j = col
        while j < len(line):
            ch = line[j]
            if quote:
                if ch == "\\" and quote == '"':
                    j += 2
                    continue
                if line.startswith(quote, j):
                    j += len(quote)
                    quote = None
                    continue
                j += 1
                continue
            if ch == "#":
                break
            if ch in "\"'":
                if depth == 1 and expecting:
                    index += 1
                    found.setdefault(key + (index,), i + 1)
                    expecting = False
                quote = ch * 3 if line.startswith(ch * 3, j) else ch
                j += len(quote)
                continue
            if ch == "[":
                if depth == 1 and expecting:
                    index += 1
                    found.setdefault(key + (index,), i + 1)
                    expecting = False
                depth += 1
                if depth == 1:
                    expecting = True
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return i + 1
            elif ch == ",":
                if depth == 1:
                    expecting = True
            elif not ch.isspace() and depth == 1 and expecting:
                index += 1
                found.setdefault(key + (index,), i + 1)
                expecting = False
            j += 1
        i += 1
        col = 0
        if quote and len(quote) == 1:
            quote = None
    return i


def find_line(text: str, key: str) -> int | None:
    """The line of a key path in a TOML text, or of its nearest enclosing key; None if unknown."""
    return line_of(key_lines(text), key)


def line_of(found: dict[tuple, int], key: str) -> int | None:
    """The line of a key path in a :func:`key_lines` index, or of its nearest enclosing key."""
    path = parse_path(key)
    while path:
        if path in found:
            return found[path]
        path = path[:-1]
    return None
