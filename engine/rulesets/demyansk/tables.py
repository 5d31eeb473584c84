"""The Demyansk tables (TEC, CRT, unit types, options) read from ``tables.toml``."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import BadFile, Problem
from ...fileio import read_toml

TABLES_FILE = Path(__file__).with_name("tables.toml")
BLANK = ""


@dataclass(frozen=True)
class Tables:
    """Terrain effects, the combat results table, unit types and the shipped options."""

    terrain: dict
    hexside: dict
    combat: dict
    crt_columns: tuple[str, ...]
    crt_rows: tuple[tuple[str, ...], ...]
    results: tuple[str, ...]
    unit_types: dict
    options: dict = field(default_factory=dict)
    guidance: dict = field(default_factory=dict)      # phase (or "pending-<kind>") -> one line for the player

    def crt(self, die: int, column: int) -> str:
        """The result for a die (1..6) at an odds column (1..6); ``""`` is a blank cell (6.6)."""
        return self.crt_rows[die - 1][column - 1]

    def type_flag(self, unit_type: str, flag: str) -> bool:
        return bool(self.unit_types.get(unit_type, {}).get(flag, False))


def load_tables(path: str | Path = TABLES_FILE) -> Tables:
    """Read and check the tables file; BadFile names the key that is wrong."""
    doc = read_toml(path)
    problems = []
    crt = doc.get("crt", {})
    cols = crt.get("columns", [])
    rows = crt.get("rows", [])
    results = crt.get("results", [])
    if len(rows) != 6 or any(len(r) != len(cols) for r in rows):
        problems.append(Problem(str(path), "crt.rows", f"expected 6 rows of {len(cols)} cells"))
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if cell != BLANK and cell not in results:
                problems.append(Problem(str(path), f"crt.rows[{i}][{j}]",
                                        f"expected one of {results} or \"\" for a blank cell, not {cell!r}"))
    if problems:
        raise BadFile(problems)
    return Tables(
        terrain=doc.get("terrain", {}),
        hexside=doc.get("hexside", {}),
        combat=doc.get("combat", {}),
        crt_columns=tuple(cols),
        crt_rows=tuple(tuple(r) for r in rows),
        results=tuple(results),
        unit_types=doc.get("unit_types", {}),
        options=doc.get("options", {}),
        guidance={k: v for k, v in doc.get("guidance", {}).items() if isinstance(v, str)},
    )
