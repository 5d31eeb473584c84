"""Typed errors: every refusal explains itself (DESIGN invariant 3)."""
from __future__ import annotations

from dataclasses import dataclass


EXCERPT_CHARS = 60


def excerpt(value, limit: int = EXCERPT_CHARS) -> str:
    """A value quoted for a message, bounded: ``'abc'`` as repr gives it, or its first ``limit`` characters
    and its length when longer (``'xxxx…' (1,048,576 characters)``), so a huge value never floods a message."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value) if not isinstance(value, (list, dict, tuple)) or len(value) < 1000 else \
        f"<{type(value).__name__} of {len(value):,} items>"
    return text if len(text) <= limit + 2 else text[:limit] + "…"


def clip(message: str, limit: int = 600) -> str:
    """A message that quotes what it was given, cut to ``limit`` characters (and how long it was) when longer."""
    return message if len(message) <= limit else f"{message[:limit]}… ({len(message):,} characters in all)"


class SandtableError(Exception):
    """Base of every error the engine raises on purpose."""


class BadHexId(SandtableError, ValueError):
    """A printed hex id that is malformed or off the map."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: ``FILE: key.path: what (expected …)``."""

    file: str
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"

    def to_dict(self) -> dict:
        d = {"file": self.file, "key": self.key, "message": self.message}
        if self.line is not None:
            d["line"] = self.line
        return d


class BadFile(SandtableError):
    """A file that cannot be loaded; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):
        return type(self), (self.problems,)       # picklable: a worker process's error reaches its parent


class IllegalAction(SandtableError, ValueError):
    """An action the rules forbid; ``rule`` is the reference, like ``Demyansk 5.2``."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}" if rule else message)

    def __reduce__(self):
        return type(self), (self.rule, self.message)
