"""The owner's chart entries: the cells of printed charts typed by the person who owns them.

They live in the user's data folder (never in the project), one TOML file::

    format = 1
    [charts."tcs.area_fire"]
    "8" = { "9" = "1S", "10" = "2S" }

nested one level per axis of the chart.  Every cell is checked against its slot
(:mod:`engine.charts.slots`): an unknown chart, a label not on the chart, or a
result outside the chart's domain is refused with the file, the cell and the
allowed values.  A cell once entered is never silently changed: entering a
different value raises :class:`ChartConflict` showing both.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import BadFile, Problem, SandtableError
from ..fileio import read_toml, write_toml
from .slots import ChartSet, Key, nest, nested_cells

BOOK_FORMAT = 1


class ChartConflict(SandtableError, ValueError):
    """A value for a cell that already holds a different one."""

    def __init__(self, cell: str, old: Any, new: Any):
        self.cell, self.old, self.new = cell, old, new
        super().__init__(f"{cell} already holds {old!r}; {new!r} contradicts it "
                         "(correct the entry in the chart editor if the first one was wrong)")


class BadChartValue(SandtableError, ValueError):
    """A cell that is not on the chart, or a value outside the chart's results."""


class ChartBook:
    """The owner's entries for a set of chart slots, read from and written to one TOML file."""

    def __init__(self, slots: ChartSet, path: str | Path | None = None):
        self.slots = slots
        self.path = Path(path) if path else None
        self.entries: dict[str, dict[Key, Any]] = {}

    # ------------------------------------------------------------ reading cells
    def lookup(self, slot_id: str, key: Key) -> Any | None:
        """The value of a cell: shipped with the slot, or entered by the owner; None while blank."""
        slot = self.slots[slot_id]
        if key in slot.known:
            return slot.known[key]
        return self.entries.get(slot_id, {}).get(tuple(key))

    def filled(self, slot_id: str) -> dict[Key, Any]:
        """Every cell of a chart that has a value (shipped or entered)."""
        return {**self.slots[slot_id].known, **self.entries.get(slot_id, {})}

    # ------------------------------------------------------------ entering cells
    def checked(self, slot_id: str, key: Key, value: Any) -> Any:
        """``value`` as stored for the cell; BadChartValue or ChartConflict when it cannot be entered."""
        if slot_id not in self.slots:
            raise BadChartValue(f"there is no chart {slot_id!r} (charts: {', '.join(sorted(self.slots.slots))})")
        slot = self.slots[slot_id]
        key = tuple(str(k) for k in key)
        bad = slot.check_key(key)
        if bad:
            raise BadChartValue(bad)
        v = slot.domain.normalise(value)
        if v is None:
            raise BadChartValue(f"{slot.cell_text(key)}: {value!r} is not a result of this chart "
                                f"(expected {slot.domain.describe()})")
        old = self.lookup(slot_id, key)
        if old is not None and old != v:
            raise ChartConflict(slot.cell_text(key), old, v)
        return v

    def record(self, slot_id: str, key: Key, value: Any) -> bool:
        """Enter a cell (True if it was blank); refused like :meth:`checked`."""
        v = self.checked(slot_id, key, value)
        key = tuple(str(k) for k in key)
        if self.lookup(slot_id, key) is not None:
            return False
        self.entries.setdefault(slot_id, {})[key] = v
        return True

    def correct(self, slot_id: str, key: Key, value: Any | None) -> None:
        """Change or clear (``None``) an entered cell on purpose (the chart editor); shipped cells stay."""
        key = tuple(str(k) for k in key)
        slot = self.slots[slot_id]
        if key in slot.known:
            raise BadChartValue(f"{slot.cell_text(key)} is a published value ({slot.known[key]!r}) and cannot be changed")
        if value is None:
            self.entries.get(slot_id, {}).pop(key, None)
            return
        self.entries.get(slot_id, {}).pop(key, None)
        self.record(slot_id, key, value)

    # ------------------------------------------------------------ files
    def to_doc(self, slot_ids: list[str] | None = None) -> dict:
        charts = {sid: nest(cells) for sid, cells in sorted(self.entries.items())
                  if cells and (slot_ids is None or sid in slot_ids)}
        return {"format": BOOK_FORMAT, "charts": charts}

    def save(self, path: str | Path | None = None) -> None:
        """Write the entries atomically (to ``path``, or the file the book was read from)."""
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("the chart book has no file to save to")
        write_toml(target, self.to_doc())

    def export(self, path: str | Path, slot_ids: list[str] | None = None) -> None:
        """Write some or all charts' entries to a file another owner can import."""
        write_toml(path, self.to_doc(slot_ids))

    def parse(self, doc: Any, path: str) -> dict[str, dict[Key, Any]]:
        """The entries of a parsed book file, checked against the slots; BadFile lists every problem."""
        problems: list[Problem] = []
        if not isinstance(doc, dict):
            raise BadFile([Problem(path, "", "expected a chart file")])
        fmt = doc.get("format", BOOK_FORMAT)
        if fmt != BOOK_FORMAT:
            raise BadFile([Problem(path, "format", f"expected format = {BOOK_FORMAT}, not {fmt!r}")])
        charts = doc.get("charts", {})
        if not isinstance(charts, dict):
            raise BadFile([Problem(path, "charts", "expected [charts.\"<chart id>\"] tables")])
        out: dict[str, dict[Key, Any]] = {}
        for sid, tree in charts.items():
            if sid not in self.slots:
                problems.append(Problem(path, f"charts.{sid}",
                                        f"there is no chart {sid!r} (expected one of {', '.join(sorted(self.slots.slots))})"))
                continue
            slot = self.slots[sid]
            if not isinstance(tree, dict):
                problems.append(Problem(path, f"charts.{sid}", "expected a table of cells nested by axis"))
                continue
            for key, value in nested_cells(tree, len(slot.axes)):
                kp = f"charts.{sid}" + "".join(f"[{k!r}]" for k in key)
                if len(key) != len(slot.axes) or isinstance(value, dict):
                    problems.append(Problem(path, kp, "expected one value per cell, nested by "
                                            + ", then ".join(a.name for a in slot.axes)))
                    continue
                bad = slot.check_key(key)
                if bad:
                    problems.append(Problem(path, kp, bad))
                    continue
                v = slot.domain.normalise(value)
                if v is None:
                    problems.append(Problem(path, kp, f"{value!r} is not a result of {slot.title} "
                                            f"(expected {slot.domain.describe()})"))
                    continue
                if key in slot.known and slot.known[key] != v:
                    problems.append(Problem(path, kp, f"the published value is {slot.known[key]!r}, not {v!r}"))
                    continue
                out.setdefault(sid, {})[key] = v
        if problems:
            raise BadFile(problems)
        return out

    def load(self, path: str | Path | None = None) -> "ChartBook":
        """Read the owner's entries (a missing file is an empty book); BadFile for a bad one."""
        target = Path(path) if path else self.path
        if target is None or not target.exists():
            self.entries = {}
            return self
        self.entries = self.parse(read_toml(target), str(target))
        return self

    def import_file(self, path: str | Path) -> int:
        """Merge another owner's export: all or nothing; BadFile if any cell is bad or contradicts ours.

        Returns how many blank cells were filled.
        """
        incoming = self.parse(read_toml(path), str(path))
        problems = []
        for sid, cells in incoming.items():
            for key, v in cells.items():
                old = self.lookup(sid, key)
                if old is not None and old != v:
                    problems.append(Problem(str(path), f"charts.{sid}" + "".join(f"[{k!r}]" for k in key),
                                            f"{v!r} contradicts the value already entered, {old!r}"))
        if problems:
            raise BadFile(problems)
        added = 0
        for sid, cells in incoming.items():
            for key, v in cells.items():
                added += self.record(sid, key, v)
        return added


def open_book(slots: ChartSet, path: str | Path) -> ChartBook:
    """The owner's book at ``path`` (empty if the file does not exist yet)."""
    return ChartBook(slots, path).load()
