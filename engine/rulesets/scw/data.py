"""The skirmish rules' numbers, read from ``tables.toml`` beside this module."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...errors import BadFile, Problem
from ...fileio import read_toml

TABLES = Path(__file__).with_name("tables.toml")


@dataclass(frozen=True)
class TroopType:
    """A troop type of SCW Bravado 1: its Bravado and the two dice it throws (``2D6`` or ``2AvD``)."""

    key: str
    label: str
    bravado: int
    dice: str
    surrender: bool = True


@dataclass(frozen=True)
class Tables:
    """Every number the skirmish rules use."""

    raw: dict
    troops: dict

    def troop(self, key: str) -> TroopType:
        try:
            return self.troops[key]
        except KeyError:
            raise KeyError(f"no troop type {key!r}; expected one of {', '.join(sorted(self.troops))}") from None

    def __getitem__(self, key):
        return self.raw[key]

    @property
    def average_die(self) -> tuple[int, ...]:
        return tuple(self.raw["dice"]["average_die"])

    @property
    def hmg_bands(self) -> tuple[tuple[str, float], ...]:
        return tuple((n, float(r)) for n, r in self.raw["hmg"]["bands"])

    def bands(self, weapon: str) -> tuple[tuple[str, float], ...]:
        return tuple((n, float(r)) for n, r in self.raw["ranges"][weapon])


def tables_from_dict(doc: dict, file: str) -> Tables:
    """Check the troop types and wrap the document."""
    troops = {}
    problems = []
    for key, t in doc.get("troops", {}).items():
        if t.get("dice") not in ("2D6", "2AvD") or not isinstance(t.get("bravado"), int):
            problems.append(Problem(file, f"troops.{key}", "expected bravado (an integer) and dice = \"2D6\" or \"2AvD\""))
            continue
        troops[key] = TroopType(key, t.get("label", key), t["bravado"], t["dice"], bool(t.get("surrender", True)))
    if problems:
        raise BadFile(problems)
    return Tables(doc, troops)


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The ruleset's tables (read once)."""
    return tables_from_dict(read_toml(TABLES), str(TABLES))
