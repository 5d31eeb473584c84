"""The scenario file's reader: typed values and tables read with every problem named by key path, and unit
selectors (``side``, ``type``, ``division``…), which the victory conditions read too."""
from __future__ import annotations

from typing import Any

from ..errors import Problem
from .areas import AreaSyntaxError, parse_area
from .model import UNIT_SIZES, UNIT_TYPES, Selector
from engine.errors import excerpt

_MISSING = object()
SELECT_KEYS = ("side", "deployment", "type", "not_type", "size", "branch", "division", "strength", "flags",
               "units")


class _Reader:
    """Collects problems while walking a TOML document."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def bad(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.file, key, message))

    def table(self, doc: Any, key: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict:
        """``doc`` as a table whose keys are all known; missing required keys are problems."""
        if not isinstance(doc, dict):
            self.bad(key, f"expected a table, found {_kind(doc)}")
            return {}
        for k in doc:
            if k not in allowed:
                self.bad(_join(key, k), f"unknown key (expected one of: {', '.join(allowed)})")
        for k in required:
            if k not in doc:
                self.bad(_join(key, k), "missing (required)")
        return doc

    def get(self, doc: dict, key: str, name: str, typ, default=_MISSING, choices=None):
        """A typed value; a wrong type or choice is a problem and gives the default."""
        path = _join(key, name)
        if name not in doc:
            return None if default is _MISSING else default
        v = doc[name]
        if not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
            self.bad(path, f"expected {_typename(typ)}, found {_kind(v)} {v!r}")
            return None if default is _MISSING else default
        if choices is not None and v not in choices:
            self.bad(path, f"{v!r} is not one of: {', '.join(map(str, choices))}")
            return None if default is _MISSING else default
        return v

    def strings(self, doc: dict, key: str, name: str, choices=None) -> tuple[str, ...]:
        """A list of strings (a single string is accepted as a list of one)."""
        path = _join(key, name)
        v = doc.get(name, [])
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.bad(path, f"expected a list of strings, found {_kind(v)}")
            return ()
        if choices is not None:
            for i, x in enumerate(v):
                if x not in choices:
                    self.bad(f"{path}[{i}]", f"{x!r} is not one of: {', '.join(choices)}")
        return tuple(v)

    def area(self, doc: dict, key: str, name: str, required: bool = False) -> str:
        text = self.get(doc, key, name, str, "")
        if not text:
            if required and doc.get(name) == "":
                self.bad(_join(key, name), "expected an area expression, found an empty string")
            return ""
        try:
            parse_area(text)
        except AreaSyntaxError as e:
            self.bad(_join(key, name), f"bad area expression {excerpt(text)}: {e}")
        return text

    def array(self, doc: dict, name: str) -> list:
        v = doc.get(name, [])
        if not isinstance(v, list):
            self.bad(name, f"expected an array of tables ([[{name}]]), found {_kind(v)}")
            return []
        return v


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _kind(v: Any) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number"}.get(type(v), type(v).__name__)


def _typename(typ) -> str:
    if isinstance(typ, tuple):
        return " or ".join(_typename(t) for t in typ)
    return {str: "a string", int: "an integer", bool: "true or false", float: "a number",
            dict: "a table", list: "an array"}.get(typ, typ.__name__)


def _selector(rd: _Reader, t: Any, key: str, sides=None, deployments=()) -> Selector:
    t = rd.table(t, key, SELECT_KEYS)
    side = rd.get(t, key, "side", str, "")
    if side and sides is not None and side not in sides:
        rd.bad(f"{key}.side", f"{side!r} is not a side (sides: {', '.join(sides)})")
    dep = rd.get(t, key, "deployment", str, "")
    if dep and deployments and dep not in {d.id for d in deployments}:
        rd.bad(f"{key}.deployment", f"no deployment {dep!r} in [[deployments]]")
    return Selector(
        side=side or "", deployment=dep or "", types=rd.strings(t, key, "type", UNIT_TYPES),
        not_types=rd.strings(t, key, "not_type", UNIT_TYPES), sizes=rd.strings(t, key, "size", UNIT_SIZES),
        branches=rd.strings(t, key, "branch"), divisions=rd.strings(t, key, "division"),
        strengths=rd.strings(t, key, "strength"), flags=rd.strings(t, key, "flags"),
        units=rd.strings(t, key, "units"),
    )
