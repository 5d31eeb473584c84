"""Printed charts as typed slots: axes, dice and a result domain, with the cells a ruleset may ship.

A chart the program cannot ship (a series fire table, a game's weather table)
is a :class:`ChartSlot`: its axes (the printed column and row labels, or the
faces of the dice read on it), the domain its results come from, and the cells
whose values are public facts.  Every other cell is blank until the owner of
the printed chart enters it (:mod:`engine.charts.book`) or answers a prompt in
play (:mod:`engine.charts.prompt`).

A slot file is TOML::

    [[chart]]
    id = "tcs.command_prep"
    title = "Command Prep Table"
    rule = "TCS 6.9f"
    [[chart.axes]]
    name = "row"                    # printed labels, in order
    labels = ["1", "2", "3"]
    [[chart.axes]]
    name = "roll"
    dice = "2d6"                    # labels "2" .. "12"; also "1d6", "d66" (11 .. 66)
    [chart.domain]
    values = ["-", "S", "P"]        # or: min = 0, max = 9 (whole numbers)
    [chart.known]                   # public cells, nested by axis in order
    "1" = { "2" = "-", "3" = "S" }

An axis may be ``open = true``: any label is accepted (a counter manifest's
unit types).  Cells are addressed by a *key*, one label per axis in order.
``scope = "game"`` marks a chart each game of the set prints for itself (its
Terrain Effects Chart, its counters, its own tables): the owner's book keeps its
cells under the game, so two games of a series never share or contradict them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..errors import BadFile, Problem
from ..fileio import read_toml

Key = tuple[str, ...]
SCOPES = ("series", "game")      # whose printed chart it is: the whole series', or each game's own


def dice_labels(dice: str) -> tuple[str, ...]:
    """The faces a roll can show, as chart labels: ``1d6`` → 1..6, ``2d6`` → 2..12, ``d66`` → 11..66."""
    d = dice.strip().lower()
    if d in ("d66", "1d66", "11-66"):
        return tuple(f"{a}{b}" for a in range(1, 7) for b in range(1, 7))
    try:
        n, _, sides = d.partition("d")
        n = int(n or 1)
        sides = int(sides)
    except ValueError:
        raise ValueError(f"dice like \"1d6\", \"2d6\" or \"d66\", not {dice!r}") from None
    if not (1 <= n <= 10 and 2 <= sides <= 100):
        raise ValueError(f"dice like \"1d6\", \"2d6\" or \"d66\", not {dice!r}")
    return tuple(str(v) for v in range(n, n * sides + 1))


@dataclass(frozen=True)
class Axis:
    """One way into a chart: its name and its printed labels (or any label when ``open``)."""

    name: str
    labels: tuple[str, ...] = ()
    dice: str = ""
    open: bool = False

    def accepts(self, label: str) -> bool:
        return self.open or label in self.labels

    def describe(self) -> str:
        if self.open:
            return f"any {self.name}"
        if self.dice:
            return f"a {self.dice} roll ({self.labels[0]}..{self.labels[-1]})"
        return ", ".join(self.labels)


@dataclass(frozen=True)
class Domain:
    """The results a chart can print: a list of result codes, or a range of whole numbers."""

    values: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    @property
    def is_range(self) -> bool:
        return self.min is not None

    def normalise(self, value: Any) -> str | int | None:
        """The value as stored (a result code, or an int for a range); None if it is outside the domain."""
        if self.is_range:
            if isinstance(value, bool):
                return None
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    return None
            if isinstance(value, int) and self.min <= value <= self.max:
                return value
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)          # a result code that looks like a number ("23" on an 11-66 chart)
        if isinstance(value, str) and value.strip() in self.values:
            return value.strip()
        return None

    def choices(self) -> tuple[str | int, ...]:
        if self.is_range:
            return tuple(range(self.min, self.max + 1))
        return self.values

    def describe(self) -> str:
        if self.is_range:
            return f"a whole number from {self.min} to {self.max}"
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class ChartSlot:
    """A printed chart: id, title, the rule that uses it, axes, result domain and the cells shipped."""

    id: str
    title: str
    rule: str
    axes: tuple[Axis, ...]
    domain: Domain
    known: dict = field(default_factory=dict, hash=False, compare=False)   # Key -> value
    notes: str = ""
    scope: str = "series"       # "game": each game prints its own (its terrain chart, its counters)

    @property
    def per_game(self) -> bool:
        """Whether each game of the set prints its own copy of this chart (kept under that game in the book)."""
        return self.scope == "game"

    def check_key(self, key: Key) -> str | None:
        """None if ``key`` names a cell of this chart, else what is wrong with it."""
        if len(key) != len(self.axes):
            return f"{self.title} has {len(self.axes)} axes ({', '.join(a.name for a in self.axes)}), not {len(key)}"
        for label, axis in zip(key, self.axes):
            if not axis.accepts(label):
                return f"{self.title}: {axis.name} {label!r} is not on the chart (expected {axis.describe()})"
        return None

    def cells(self) -> Iterator[Key]:
        """Every cell of a chart whose axes are all closed, in printed order."""
        def walk(i: int, prefix: Key):
            if i == len(self.axes):
                yield prefix
                return
            for label in self.axes[i].labels:
                yield from walk(i + 1, prefix + (label,))
        if any(a.open for a in self.axes):
            return iter(())
        return walk(0, ())

    def cell_text(self, key: Key) -> str:
        """``Area Fire Table [8][9]``: a cell as messages name it."""
        return self.title + "".join(f"[{k}]" for k in key)


@dataclass
class ChartSet:
    """The chart slots a ruleset ships, by id."""

    slots: dict[str, ChartSlot] = field(default_factory=dict)

    def __contains__(self, slot_id: str) -> bool:
        return slot_id in self.slots

    def __getitem__(self, slot_id: str) -> ChartSlot:
        return self.slots[slot_id]

    def __iter__(self):
        return iter(self.slots.values())

    def merged(self, other: "ChartSet") -> "ChartSet":
        return ChartSet({**self.slots, **other.slots})


# ---------------------------------------------------------------- reading slot files

def nested_cells(tree: Any, depth: int, prefix: Key = ()) -> Iterator[tuple[Key, Any]]:
    """Walk a table nested one level per axis: ``{"8": {"9": "1S"}}`` gives ``(("8", "9"), "1S")``.

    A value found above ``depth`` (or a table at it) is yielded with its short key so the
    caller can report it.
    """
    if len(prefix) == depth or not isinstance(tree, dict):
        yield prefix, tree
        return
    for k, v in tree.items():
        yield from nested_cells(v, depth, prefix + (str(k),))


def nest(cells: dict[Key, Any]) -> dict:
    """The nested-table form of ``{key: value}`` (the inverse of :func:`nested_cells`)."""
    out: dict = {}
    for key, value in cells.items():
        node = out
        for k in key[:-1]:
            node = node.setdefault(k, {})
        node[key[-1]] = value
    return out


def key_path(slot_id: str, key: Key, prefix: str = "chart") -> str:
    return f"{prefix}.{slot_id}" + "".join(f"[{k!r}]" for k in key)


def parse_slots(doc: dict, path: str) -> ChartSet:
    """Chart slots from a parsed slot file; BadFile lists every problem with its key path."""
    problems: list[Problem] = []
    slots: dict[str, ChartSlot] = {}
    raw = doc.get("chart")
    if not isinstance(raw, list):
        raise BadFile([Problem(path, "chart", "expected [[chart]] tables, one per printed chart")])
    for i, c in enumerate(raw):
        where = f"chart[{i}]"
        if not isinstance(c, dict):
            problems.append(Problem(path, where, "expected a table"))
            continue
        sid, title, rule = c.get("id"), c.get("title"), c.get("rule", "")
        if not isinstance(sid, str) or not sid:
            problems.append(Problem(path, f"{where}.id", "expected the chart's id, like \"tcs.area_fire\""))
            continue
        if sid in slots:
            problems.append(Problem(path, f"{where}.id", f"the chart {sid!r} is defined twice"))
            continue
        if not isinstance(title, str) or not title:
            problems.append(Problem(path, f"{where}.title", "expected the chart's printed title"))
            continue
        if not isinstance(rule, str):
            problems.append(Problem(path, f"{where}.rule", "expected the rule that uses the chart, like \"TCS 6.9f\""))
            continue
        axes = []
        raw_axes = c.get("axes")
        if not isinstance(raw_axes, list) or not raw_axes:
            problems.append(Problem(path, f"{where}.axes", "expected [[chart.axes]] tables, one per axis"))
            continue
        ok = True
        for j, a in enumerate(raw_axes):
            aw = f"{where}.axes[{j}]"
            if not isinstance(a, dict) or not isinstance(a.get("name"), str):
                problems.append(Problem(path, aw, "expected a table with a name"))
                ok = False
                continue
            if a.get("open") is True:
                axes.append(Axis(a["name"], open=True))
            elif isinstance(a.get("dice"), str):
                try:
                    axes.append(Axis(a["name"], dice_labels(a["dice"]), dice=a["dice"]))
                except ValueError as e:
                    problems.append(Problem(path, f"{aw}.dice", f"expected {e}"))
                    ok = False
            elif isinstance(a.get("labels"), list) and a["labels"] and all(isinstance(x, str) for x in a["labels"]):
                if len(set(a["labels"])) != len(a["labels"]):
                    problems.append(Problem(path, f"{aw}.labels", "a label appears twice"))
                    ok = False
                axes.append(Axis(a["name"], tuple(a["labels"])))
            else:
                problems.append(Problem(path, aw, "expected labels = [\"…\"], dice = \"2d6\", or open = true"))
                ok = False
        dom = c.get("domain")
        domain = None
        if isinstance(dom, dict) and isinstance(dom.get("values"), list) and dom["values"] \
                and all(isinstance(v, str) for v in dom["values"]):
            domain = Domain(values=tuple(dom["values"]))
        elif isinstance(dom, dict) and isinstance(dom.get("min"), int) and isinstance(dom.get("max"), int) \
                and not isinstance(dom.get("min"), bool) and dom["min"] <= dom["max"]:
            domain = Domain(min=dom["min"], max=dom["max"])
        else:
            problems.append(Problem(path, f"{where}.domain",
                                    "expected values = [\"…\"] (the printed results) or min and max whole numbers"))
            ok = False
        scope = c.get("scope", "series")
        if scope not in SCOPES:
            problems.append(Problem(path, f"{where}.scope", f"expected one of {', '.join(map(repr, SCOPES))}, "
                                    f"not {scope!r}"))
            ok = False
        if not ok:
            continue
        slot = ChartSlot(sid, title, rule, tuple(axes), domain, {}, str(c.get("notes", "")), scope)
        known = c.get("known", {})
        if not isinstance(known, dict):
            problems.append(Problem(path, f"{where}.known", "expected a table of cells nested by axis"))
            known = {}
        for key, value in nested_cells(known, len(axes)):
            kp = f"{where}.known" + "".join(f"[{k!r}]" for k in key)
            bad = slot.check_key(key) if len(key) == len(axes) else \
                f"expected a value for each {', '.join(a.name for a in axes)}"
            if bad:
                problems.append(Problem(path, kp, bad))
                continue
            v = domain.normalise(value)
            if v is None:
                problems.append(Problem(path, kp, f"{value!r} is not a result of this chart (expected {domain.describe()})"))
                continue
            slot.known[key] = v
        slots[sid] = slot
    if problems:
        raise BadFile(problems)
    return ChartSet(slots)


def load_slots(path: str | Path) -> ChartSet:
    """Read a slot file (BadFile names the file, the key and what was expected)."""
    return parse_slots(read_toml(path), str(path))
