"""The ``[rules]`` of a scenario for rulesets configured by data (``free``, ``classic``).

A scenario carries its rules either inline (a ``[rules]`` table) or names a
shared rules file beside it (``rules = "../rules/classic-demyansk.toml"``);
an inline table may also name a shared file as ``rules.file`` and override
some of its keys.  Every problem is reported with the file, the key path, the
line (found in the file's text) and the values allowed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import BadFile, Problem
from ..fileio import read_toml
from ..keypath import key_lines, line_of


class RulesData:
    """The rules table of one scenario with where each key was written (file, key prefix, lines)."""

    def __init__(self, scenario):
        self.problems: list[Problem] = []
        spec = scenario.rules
        self.scenario_file = scenario.path
        inline: dict = {}
        shared_name = ""
        if isinstance(spec, str):
            shared_name = spec
        elif isinstance(spec, dict):
            inline = dict(spec)
            shared_name = inline.pop("file", "") if isinstance(inline.get("file", ""), str) else ""
        self.data: dict[str, Any] = {}
        self._where: dict[str, tuple[str, str]] = {}      # top key -> (file, key prefix)
        self._lines: dict[str, dict] = {}
        if shared_name:
            path = Path(scenario.path).parent / shared_name if scenario.path else Path(shared_name)
            if not path.is_file():
                raise BadFile([Problem(scenario.path, "rules" if isinstance(spec, str) else "rules.file",
                                       f"the rules file {shared_name} is missing")])
            shared = read_toml(path)
            for k, v in shared.items():
                self.data[k] = v
                self._where[k] = (str(path), "")
        for k, v in inline.items():
            self.data[k] = v
            self._where[k] = (scenario.path, "rules")

    def get(self, key: str, default=None):
        return self.data.get(key, default)

    def where(self, key: str) -> tuple[str, str, int | None]:
        """(file, full key path, line) of a key path like ``crt.rows[2]``."""
        top = key.split(".", 1)[0].split("[", 1)[0]
        file, prefix = self._where.get(top, (self.scenario_file, "rules"))
        full = f"{prefix}.{key}" if prefix else key
        line = None
        if file:
            found = self._lines.get(file)
            if found is None:
                try:
                    found = self._lines[file] = key_lines(Path(file).read_text(encoding="utf-8"))
                except OSError:
                    found = self._lines[file] = {}
            line = line_of(found, full)
            if line is None or full == "rules" or line == found.get(("rules",)):
                # a table written only as its sub-tables ([rules.terrain.clear] ...): its first line
                from ..keypath import parse_path

                path = parse_path(full)
                inside = [n for k, n in found.items() if k[:len(path)] == path and len(k) > len(path)]
                line = min(inside) if inside else line
        return file, full, line

    def bad(self, key: str, message: str) -> None:
        file, full, line = self.where(key)
        self.problems.append(Problem(file, full, message, line))

    def check(self) -> None:
        """Raise BadFile with every problem found so far."""
        if self.problems:
            raise BadFile(self.problems)

    # ------------------------------------------------------------ typed reading
    def value(self, table: dict, key: str, name: str, typ, default, choices=None):
        """``table[name]`` checked against a type (and a list of choices); a problem and the default if wrong."""
        if not isinstance(table, dict) or name not in table:
            return default
        v = table[name]
        ok = isinstance(v, typ) and not (typ in (int, (int, float)) and isinstance(v, bool))
        if not ok:
            self.bad(f"{key}.{name}" if key else name, f"expected {_typename(typ)}, found {v!r}")
            return default
        if choices is not None and v not in choices:
            self.bad(f"{key}.{name}" if key else name, f"{v!r} is not one of: {', '.join(map(str, choices))}")
            return default
        return v

    def table(self, table: dict, key: str, name: str, allowed: tuple[str, ...] | None = None) -> dict:
        """A sub-table (empty if absent); unknown keys are problems naming the known ones."""
        path = f"{key}.{name}" if key else name
        v = table.get(name, {}) if isinstance(table, dict) else {}
        if not isinstance(v, dict):
            self.bad(path, f"expected a table, found {v!r}")
            return {}
        if allowed is not None:
            for k in v:
                if k not in allowed:
                    self.bad(f"{path}.{k}", f"unknown key (expected one of: {', '.join(allowed)})")
        return v

    def strings(self, table: dict, key: str, name: str, default=(), choices=None) -> tuple[str, ...]:
        path = f"{key}.{name}" if key else name
        if not isinstance(table, dict) or name not in table:
            return tuple(default)
        v = table[name]
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.bad(path, f"expected a list of strings, found {v!r}")
            return tuple(default)
        if choices is not None:
            for i, x in enumerate(v):
                if x not in choices:
                    self.bad(f"{path}[{i}]", f"{x!r} is not one of: {', '.join(choices)}")
        return tuple(v)


def _typename(typ) -> str:
    if isinstance(typ, tuple):
        return " or ".join(_typename(t) for t in typ)
    return {str: "a string", int: "an integer", bool: "true or false", float: "a number",
            dict: "a table", list: "an array"}.get(typ, typ.__name__)
