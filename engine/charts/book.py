"""The owner's chart entries: the cells of printed charts typed by the person who owns them.

They live in the user's data folder (never in the project), one TOML file per
chart set, scoped as the printed material is::

    format = 2
    [charts."tcs.area_fire"]                          # the series' charts, shared by its games
    "8" = { "9" = "1S", "10" = "2S" }
    [games.black_wednesday.charts."tcs.terrain.combat"]   # a game's own charts and counters
    clear = "Open"
    [games.leros.charts."tcs.terrain.combat"]
    village = "Protective"

    [[set_aside]]                                     # cells kept but not used, with the reason
    scope = "leros"
    chart = "tcs.terrain.combat"
    key = ["clear"]
    value = "Open"
    problem = "the published value is 'Partly Protective', not 'Open'"

nested one level per axis of the chart.  A chart marked ``scope = "game"`` in its
slot file (:mod:`engine.charts.slots`) is kept under the game a book is opened for
(:attr:`ChartBook.game`), so two games of a series never share or contradict their
terrain charts or counters; the rest is the series'.

Every cell is checked against its slot: an unknown chart, a label not on the chart,
a result outside the chart's domain, or a value different from a published one.
Reading a book never refuses it whole: such a cell is *set aside* (kept in the file
under ``[[set_aside]]``, listed in :attr:`ChartBook.problems` with the file and the
cell) and every other cell is used.  A file that cannot be read at all is kept as
it is and, at the first save, moved to ``<name>.damaged.toml`` beside it.  A book
written before charts were scoped (``format = 1``) is migrated on reading: each of
a game's own cells goes to the game it can be attributed to (``attribute``), the
rest is set aside; the old file is kept as ``<name>.format-1.toml`` at the first save.

A cell once entered is never silently changed: entering a different value raises
:class:`ChartConflict` showing both.  Saving merges with the file as it is on disk
now, so two windows (two games) sharing a book never drop each other's cells.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import BadFile, Problem, SandtableError
from ..fileio import atomic_write_text, read_toml, write_toml
from .slots import ChartSet, Key, nest, nested_cells

BOOK_FORMAT = 2
FORMATS = (1, 2)            # format 1: before a game's own charts were kept under the game (read and migrated)
SERIES = ""                 # the scope of the series' charts (and of every chart in a book opened for no game)

Attribute = Callable[[str, Key], list]     # (chart, key) -> the games whose own chart that cell can be


class ChartConflict(SandtableError, ValueError):
    """A value for a cell that already holds a different one."""

    def __init__(self, cell: str, old: Any, new: Any):
        self.cell, self.old, self.new = cell, old, new
        super().__init__(f"{cell} already holds {old!r}; {new!r} contradicts it "
                         "(correct the entry in the chart editor if the first one was wrong)")


class BadChartValue(SandtableError, ValueError):
    """A cell that is not on the chart, or a value outside the chart's results."""


def cell_path(scope: str, slot_id: str, key: Key) -> str:
    """Where a cell is in a book file: ``games.leros.charts.tcs.terrain.combat['clear']``."""
    head = f"games.{scope}.charts.{slot_id}" if scope else f"charts.{slot_id}"
    return head + "".join(f"[{k!r}]" for k in key)


@dataclass
class SetAside:
    """A cell of the owner's book that is kept but not used, and why."""

    scope: str          # SERIES, or the game it was found under
    slot: str
    key: Key
    value: Any
    problem: str

    def where(self) -> str:
        return cell_path(self.scope, self.slot, self.key)

    def ident(self) -> tuple:
        return self.scope, self.slot, tuple(self.key), repr(self.value)

    def to_dict(self) -> dict:
        d = {"scope": self.scope, "chart": self.slot, "key": list(self.key), "problem": self.problem}
        if self.value is not None:
            d["value"] = self.value
        return d


class ChartBook:
    """The owner's entries for a set of chart slots, read from and written to one TOML file.

    ``game`` is the game the book is opened for: its own charts (slots with
    ``scope = "game"``) are read and written under it.  ``attribute`` names the
    games a cell of an unscoped (format 1) book can belong to, for the migration.
    """

    def __init__(self, slots: ChartSet, path: str | Path | None = None, game: str = "",
                 attribute: Attribute | None = None):
        self.slots = slots
        self.path = Path(path) if path else None
        self.game = game
        self.attribute = attribute
        self.entries: dict[str, dict[Key, Any]] = {}                # the series' cells
        self.games: dict[str, dict[str, dict[Key, Any]]] = {}       # game -> chart -> cells
        self.set_aside: list[SetAside] = []
        self.unreadable: Problem | None = None      # why the file could not be read at all
        self.migrated = 0                           # cells moved from a format 1 book to their game
        self.notes: list[str] = []                  # what was done to the file (kept copies), for the owner
        self._original: bytes | None = None         # the file as read, kept beside the new one at the first save
        self._copy_as = "format-1"                  # … as <name>.format-1.toml (migrated) or .damaged.toml
        self.file_problems: list[Problem] = []      # what was wrong with the file beyond single cells
        self._stamp = None                          # the file's (mtime, size) when read
        self._changes: dict[tuple[str, str, Key], Any] = {}
        self._resolved: set[tuple] = set()

    # ------------------------------------------------------------ scopes
    def scope_of(self, slot_id: str, game: str | None = None) -> str:
        """Where a chart's cells are kept: the game's name for a game's own chart, else the series ('')."""
        slot = self.slots.slots.get(slot_id)
        if slot is None or not slot.per_game:
            return SERIES
        return self.game if game is None else game

    def table(self, scope: str, slot_id: str | None = None, create: bool = False):
        """The cells of one scope (``{chart: {key: value}}``), or of one chart in it."""
        if scope == SERIES:
            charts = self.entries
        else:
            charts = self.games.setdefault(scope, {}) if create else self.games.get(scope, {})
        if slot_id is None:
            return charts
        return charts.setdefault(slot_id, {}) if create else charts.get(slot_id, {})

    # ------------------------------------------------------------ reading cells
    def lookup(self, slot_id: str, key: Key) -> Any | None:
        """The value of a cell: shipped with the slot, or entered by the owner; None while blank."""
        slot = self.slots[slot_id]
        key = tuple(key)
        if key in slot.known:
            return slot.known[key]
        return self.table(self.scope_of(slot_id), slot_id).get(key)

    def filled(self, slot_id: str) -> dict[Key, Any]:
        """Every cell of a chart that has a value (shipped or entered)."""
        return {**self.slots[slot_id].known, **self.table(self.scope_of(slot_id), slot_id)}

    @property
    def problems(self) -> list[Problem]:
        """What the owner should know about the file: the cells set aside, a file that could not be read."""
        where = str(self.path) if self.path else "chart book"
        out = [self.unreadable] if self.unreadable is not None else []
        out += self.file_problems
        out += [Problem(where, s.where(), f"set aside: {s.problem}" + (f" (value {s.value!r})" if s.value is not None
                                                                      else "")) for s in self.set_aside]
        return out

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
        scope = self.scope_of(slot_id)
        self.table(scope, slot_id, create=True)[key] = v
        self._changes[scope, slot_id, key] = v
        return True

    def correct(self, slot_id: str, key: Key, value: Any | None) -> None:
        """Change or clear (``None``) an entered cell on purpose (the chart editor); shipped cells stay."""
        key = tuple(str(k) for k in key)
        slot = self.slots[slot_id]
        if key in slot.known:
            raise BadChartValue(f"{slot.cell_text(key)} is a published value ({slot.known[key]!r}) and cannot be changed")
        scope = self.scope_of(slot_id)
        cells = self.table(scope, slot_id)
        if value is None:
            if cells.pop(key, None) is not None:
                self._changes[scope, slot_id, key] = None
            return
        old = cells.pop(key, None)
        try:
            self.record(slot_id, key, value)
        except (BadChartValue, ChartConflict):
            if old is not None:
                cells[key] = old
            raise

    # ------------------------------------------------------------ cells set aside
    def restore(self, item: SetAside, game: str | None = None) -> Any:
        """Use a set-aside cell after all: entered into its scope (a game's own chart: ``game``, by default the game
        it was found under, or the one the book is open for when it was found unscoped); refused like
        :meth:`record` (it then stays set aside)."""
        if item.slot not in self.slots:
            raise BadChartValue(f"there is no chart {item.slot!r}")
        scope = self.scope_of(item.slot, game if game is not None else (item.scope or None))
        saved, self.game = self.game, (scope if self.slots[item.slot].per_game else self.game)
        try:
            self.record(item.slot, item.key, item.value)
            v = self.lookup(item.slot, item.key)
        finally:
            self.game = saved
        self.discard(item)
        return v

    def discard(self, item: SetAside) -> None:
        """Forget a set-aside cell (the owner's decision)."""
        self.set_aside = [s for s in self.set_aside if s.ident() != item.ident()]
        self._resolved.add(item.ident())

    # ------------------------------------------------------------ files
    def to_doc(self, slot_ids: list[str] | None = None, set_aside: bool = True) -> dict:
        def charts_of(table):
            return {sid: nest(cells) for sid, cells in sorted(table.items())
                    if cells and (slot_ids is None or sid in slot_ids)}

        doc: dict[str, Any] = {"format": BOOK_FORMAT, "charts": charts_of(self.entries)}
        games = {g: {"charts": charts_of(t)} for g, t in sorted(self.games.items()) if charts_of(t)}
        if games:
            doc["games"] = games
        if set_aside and self.set_aside:
            doc["set_aside"] = [s.to_dict() for s in self.set_aside]
        return doc

    def save(self, path: str | Path | None = None) -> None:
        """Write the entries atomically (to ``path``, or the file the book was read from).

        Saving to the book's own file merges with what is on disk now (cells another
        window wrote since this book was read are kept); a file that could not be read
        is first moved aside to ``<name>.damaged.toml``, a format 1 file kept as
        ``<name>.format-1.toml``.
        """
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("the chart book has no file to save to")
        if path is None or target == self.path:
            self._merge_disk(target)
            if self.unreadable is not None and target.exists():
                aside = _free_name(target, "damaged")
                target.replace(aside)
                self.notes.append(f"{target} could not be read ({self.unreadable.message}); it was kept as {aside}")
                self.unreadable = None
            if self._original is not None:
                keep = _free_name(target, self._copy_as)
                atomic_write_text(keep, self._original.decode("utf-8", "replace"))
                self.notes.append(f"the chart book written by an earlier version was kept as {keep}"
                                  if self._copy_as == "format-1" else
                                  f"the chart book as it was read is kept as {keep}")
                self._original = None
                self.file_problems = []
        write_toml(target, self.to_doc())
        if path is None or target == self.path:
            self._changes.clear()
            self._stamp = _stamp(target)

    def _merge_disk(self, target: Path) -> None:
        """Take in what another window wrote to the file since it was read, under this book's own changes."""
        if self.unreadable is not None or not target.exists() or _stamp(target) == self._stamp:
            return
        disk = ChartBook(self.slots, target, self.game, self.attribute)
        disk.load()
        if disk.unreadable is not None:
            return
        for (scope, sid, key), v in self._changes.items():
            cells = disk.table(scope, sid, create=True)
            if v is None:
                cells.pop(key, None)
            else:
                cells[key] = v
        known = {s.ident() for s in disk.set_aside}
        for s in self.set_aside:
            if s.ident() not in known:
                disk.set_aside.append(s)
        disk.set_aside = [s for s in disk.set_aside if s.ident() not in self._resolved]
        self.entries, self.games, self.set_aside = disk.entries, disk.games, disk.set_aside
        self.migrated += disk.migrated
        if disk._original is not None and self._original is None:
            self._original, self._copy_as = disk._original, disk._copy_as

    def export(self, path: str | Path, slot_ids: list[str] | None = None) -> None:
        """Write some or all charts' entries (the series' and every game's) to a file another owner can import."""
        write_toml(path, self.to_doc(slot_ids, set_aside=False))

    def read_doc(self, doc: Any, path: str) -> tuple[dict, dict, list[SetAside], list[Problem]]:
        """The cells of a parsed book file, checked against the slots: ``(series, games, set aside, problems)``.

        A bad cell is set aside (and named in ``problems``), never the whole file; only a
        file that is not a chart book at all gives problems and nothing else.
        """
        if not isinstance(doc, dict):
            return {}, {}, [], [Problem(path, "", "expected a chart file")]
        fmt = doc.get("format", 1)
        if fmt not in FORMATS:
            return {}, {}, [], [Problem(path, "format", f"expected format = {BOOK_FORMAT}, not {fmt!r} "
                                        "(a file from a newer version of the program?)")]
        series: dict[str, dict[Key, Any]] = {}
        games: dict[str, dict[str, dict[Key, Any]]] = {}
        aside: list[SetAside] = []
        problems: list[Problem] = []

        def put_aside(scope, sid, key, value, why, report=True):
            aside.append(SetAside(scope, sid, tuple(key), value, why))
            if report:
                problems.append(Problem(path, cell_path(scope, sid, key), why))

        def read_table(charts, scope: str, where: str, unscoped: bool):
            if not isinstance(charts, dict):
                problems.append(Problem(path, where, "expected [charts.\"<chart id>\"] tables"))
                return
            for sid, tree in charts.items():
                if sid not in self.slots:
                    for key, value in nested_cells(tree, 1) if isinstance(tree, dict) else [((), tree)]:
                        put_aside(scope, sid, key, value, f"there is no chart {sid!r}", report=False)
                    problems.append(Problem(path, f"{where}.{sid}", f"there is no chart {sid!r} "
                                            f"(expected one of {', '.join(sorted(self.slots.slots))})"))
                    continue
                slot = self.slots[sid]
                if not isinstance(tree, dict):
                    put_aside(scope, sid, (), tree, "expected a table of cells nested by axis")
                    continue
                for key, value in nested_cells(tree, len(slot.axes)):
                    self._read_cell(series, games, put_aside, scope, unscoped, slot, key, value)

        read_table(doc.get("charts", {}), SERIES, "charts", unscoped=True)
        raw_games = doc.get("games", {})
        if not isinstance(raw_games, dict):
            problems.append(Problem(path, "games", "expected [games.<game>.charts.\"<chart id>\"] tables"))
            raw_games = {}
        for g, t in raw_games.items():
            if not isinstance(t, dict):
                problems.append(Problem(path, f"games.{g}", "expected a [games.<game>.charts] table"))
                continue
            read_table(t.get("charts", {}), str(g), f"games.{g}.charts", unscoped=False)
        raw_aside = doc.get("set_aside", [])
        for i, s in enumerate(raw_aside if isinstance(raw_aside, list) else []):
            if isinstance(s, dict) and isinstance(s.get("chart"), str) and isinstance(s.get("key"), list):
                aside.append(SetAside(str(s.get("scope", "")), s["chart"], tuple(str(k) for k in s["key"]),
                                      s.get("value"), str(s.get("problem", ""))))
            else:
                problems.append(Problem(path, f"set_aside[{i}]", "expected scope, chart, key, value and problem"))
        return series, games, aside, problems

    def _read_cell(self, series, games, put_aside, scope, unscoped, slot, key, value) -> None:
        """One cell of a file: kept in its scope (a format 1 game's cell: in the game it belongs to), or set aside."""
        sid = slot.id
        if len(key) != len(slot.axes) or isinstance(value, dict):
            put_aside(scope, sid, key, value, "expected one value per cell, nested by "
                      + ", then ".join(a.name for a in slot.axes))
            return
        bad = slot.check_key(key)
        if bad:
            put_aside(scope, sid, key, value, bad)
            return
        v = slot.domain.normalise(value)
        if v is None:
            put_aside(scope, sid, key, value, f"{value!r} is not a result of {slot.title} "
                      f"(expected {slot.domain.describe()})")
            return
        if unscoped and slot.per_game and self.game:
            # written before a game's own charts were kept under the game (format 1): whose is it?
            owners = sorted(set(self.attribute(sid, key))) if self.attribute is not None else []
            if len(owners) != 1:
                why = (f"a game's own chart, written before charts were kept per game; it is used by "
                       f"{' and '.join(owners)}, so which game's printed chart it came from cannot be known"
                       if owners else "a game's own chart, written before charts were kept per game, "
                       "and no game known to the program uses this cell")
                put_aside(scope, sid, key, value, why)
                return
            scope = owners[0]
            self.migrated += 1
        elif not unscoped and not slot.per_game:
            scope = SERIES              # a series chart found under a game: the series' (checked below)
        target = series if scope == SERIES else games.setdefault(scope, {})
        mine = scope == SERIES or scope == self.game
        if mine and key in slot.known and slot.known[key] != v:
            put_aside(scope, sid, key, value, f"the published value is {slot.known[key]!r}, not {v!r}")
            return
        old = target.get(sid, {}).get(key)
        if old is not None and old != v:
            put_aside(scope, sid, key, value, f"contradicts {old!r} entered for the same cell")
            return
        target.setdefault(sid, {})[key] = v

    def parse(self, doc: Any, path: str) -> dict[str, dict[Key, Any]]:
        """The series' entries of a parsed book file, checked strictly: BadFile lists every problem
        (``python -m engine validate``, imports)."""
        series, _, aside, problems = self.read_doc(doc, path)
        if problems:
            raise BadFile(problems)
        return series

    def load(self, path: str | Path | None = None) -> "ChartBook":
        """Read the owner's entries (a missing file is an empty book).

        Never refuses the whole book: bad cells are set aside (:attr:`problems`), and a
        file that cannot be read at all is noted in :attr:`unreadable` and left as it is.
        """
        target = Path(path) if path else self.path
        self.entries, self.games, self.set_aside, self.unreadable = {}, {}, [], None
        self.migrated, self._original, self.file_problems = 0, None, []
        if target is None or not target.exists():
            return self
        self._stamp = _stamp(target)
        try:
            doc = read_toml(target)
        except BadFile as e:
            self.unreadable = e.problems[0]
            return self
        series, games, aside, problems = self.read_doc(doc, str(target))
        if not series and not games and not aside and problems:
            self.unreadable = problems[0]
            return self
        self.entries, self.games, self.set_aside = series, games, aside
        cells = [s.where() for s in aside]
        self.file_problems = [p for p in problems if not any(c.startswith(p.key) for c in cells)]
        if self.file_problems:          # a malformed table, not a cell: the file as it was is kept at the first save
            self._original, self._copy_as = target.read_bytes(), "damaged"
        elif isinstance(doc, dict) and doc.get("format", 1) == 1 and (self.migrated or self.set_aside):
            self._original, self._copy_as = target.read_bytes(), "format-1"
        return self

    def reread_if_changed(self) -> bool:
        """Read the file again if it changed on disk since it was read or written here (the owner edited it with
        another program while this one runs); cells entered here and not yet saved stay on top of it.  Whether it
        was read again."""
        if self.path is None or _stamp(self.path) == self._stamp:
            return False
        mine = dict(self._changes)
        self.load()
        for (scope, sid, key), v in mine.items():
            cells = self.table(scope, sid, create=True)
            if v is None:
                cells.pop(key, None)
            else:
                cells[key] = v
        self._changes = mine
        return True

    def import_file(self, path: str | Path) -> int:
        """Merge another owner's export: all or nothing; BadFile if any cell is bad or contradicts ours.

        Returns how many blank cells were filled (the series' and every game's).
        """
        series, games, aside, problems = self.read_doc(read_toml(path), str(path))
        if problems:
            raise BadFile(problems)
        incoming = [(SERIES, series)] + sorted(games.items())
        for scope, charts in incoming:
            for sid, cells in charts.items():
                mine = self.table(scope, sid)
                for key, v in cells.items():
                    old = self.slots[sid].known.get(key) if scope in (SERIES, self.game) else None
                    old = old if old is not None else mine.get(key)
                    if old is not None and old != v:
                        problems.append(Problem(str(path), cell_path(scope, sid, key),
                                                f"{v!r} contradicts the value already entered, {old!r}"))
        if problems:
            raise BadFile(problems)
        added = 0
        for scope, charts in incoming:
            for sid, cells in charts.items():
                mine = self.table(scope, sid, create=True)
                for key, v in cells.items():
                    if key not in mine and key not in self.slots[sid].known:
                        mine[key] = v
                        self._changes[scope, sid, key] = v
                        added += 1
        return added


def _stamp(path: Path):
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _free_name(path: Path, what: str) -> Path:
    """``tcs.damaged.toml``, ``tcs.damaged-2.toml``, …: a name beside ``path`` no file has yet."""
    n = 1
    while True:
        p = path.with_name(f"{path.stem}.{what}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not p.exists():
            return p
        n += 1


def open_book(slots: ChartSet, path: str | Path, game: str = "", attribute: Attribute | None = None) -> ChartBook:
    """The owner's book at ``path`` (empty if the file does not exist yet), opened for ``game``."""
    return ChartBook(slots, path, game, attribute).load()
