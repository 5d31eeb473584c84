"""VASSAL's SequenceEncoder: lists of strings joined by one delimiter, escaped with backslashes.

Decoding follows VASSAL's rules: a delimiter immediately preceded by a backslash is part of
the item (that one backslash is dropped); the first unescaped delimiter ends the item; an
item longer than one character wrapped in single quotes loses them.  An empty text is one
empty item and a trailing delimiter gives a trailing empty item.
"""
from __future__ import annotations


def split(text: str | None, delim: str) -> list[str]:
    """Every item of an encoded list."""
    if text is None:
        return []
    if "\\" + delim not in text:          # nothing escaped (most lists): the plain split is the same
        return [item[1:-1] if len(item) > 1 and item[0] == "'" and item[-1] == "'" else item
                for item in text.split(delim)]
    out: list[str] = []
    pos, n = 0, len(text)
    while True:
        buf: list[str] = []
        start = pos
        while True:
            i = text.find(delim, pos)
            if i < 0:
                buf.append(text[start:])
                pos = n + 1
                break
            if i > 0 and text[i - 1] == "\\":
                buf.append(text[start:i - 1] + delim)
                start = pos = i + 1
                continue
            buf.append(text[start:i])
            pos = i + 1
            break
        item = "".join(buf)
        if len(item) > 1 and item.startswith("'") and item.endswith("'"):
            item = item[1:-1]
        out.append(item)
        if pos > n:
            return out


def join(items: list[str], delim: str) -> str:
    """The encoded text of a list (the inverse of :func:`split`)."""
    parts = []
    for item in items:
        item = item.replace(delim, "\\" + delim)
        if item.startswith("\\") or (item.startswith("'") and item.endswith("'") and len(item) > 1):
            item = f"'{item}'"
        parts.append(item)
    return delim.join(parts)


def join_chain(items: list[str]) -> str:
    """A trait chain (outermost first): each trait wraps the encoded rest, one escaping level deeper."""
    if len(items) == 1:
        return items[0]
    return join([items[0], join_chain(items[1:])], "\t")
