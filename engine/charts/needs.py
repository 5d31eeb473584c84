"""Every printed value a scenario needs, listed before play so the owner can type them in one form.

A ruleset's bound rules may offer ``chart_needs(state, value) -> list[ValueNeed]``:
the cells of its chart slots that the scenario reads, grouped as the printed
material is (``counters``: one row per unit type; ``terrain``: one row per terrain;
``tables``: the game's small tables), each marked ``before_play`` when the game
cannot list its first legal moves without it (counter values, terrain classes,
visibility) or not when it is read only when play comes to it (a table a roll is
read on).  ``value(slot, key)`` is what is known of a cell now (the owner's book,
the game's answers): a need may depend on another value (a movement cost is
needed for the mobility types the counters have).

:func:`needs_of` asks the rules; :func:`value_reader` reads the published cells,
the game's answers and the owner's book, in that order.  The form that shows the
list (``gui/charts/valuesform.py``) is only a view of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .slots import Key

SECTIONS = ("counters", "terrain", "tables")


@dataclass(frozen=True)
class ValueNeed:
    """One printed value a scenario reads: a chart cell, where the form shows it, and when play needs it."""

    slot: str
    key: Key
    section: str            # "counters", "terrain" or "tables"
    row: str                # the unit type, the terrain, or the table's title
    column: str             # the value's heading in that row ("movement", "move: foot", "[day]")
    before_play: bool       # needed before the first legal-move list (else read when play comes to it)
    why: str = ""           # what reads it ("BW 1.8: the weather roll")


Value = Callable[[str, Key], Any]


def needs_of(rules: Any, state: Any = None, value: Value | None = None) -> list[ValueNeed]:
    """Every value the scenario bound in ``rules`` reads, in the form's order ([] for rules that list none)."""
    ask = getattr(rules, "chart_needs", None)
    return list(ask(state, value)) if ask is not None else []


def value_reader(slots: Any, state: Any = None, book: Any = None) -> Value:
    """A cell's value as known now: published with the slot, answered in this game, or in the owner's book."""
    memory = getattr(state, "memory", None)

    def value(slot_id: str, key: Key):
        key = tuple(str(k) for k in key)
        slot = slots[slot_id]
        if key in slot.known:
            return slot.known[key]
        if memory is not None:
            v = memory.get(slot_id, key)
            if v is not None:
                return v
        if book is not None and slot_id in book.slots:
            return book.lookup(slot_id, key)
        return None
    return value


@dataclass(frozen=True)
class NeedCount:
    filled: int
    needed: int
    optional_filled: int
    optional: int

    @property
    def missing(self) -> int:
        return self.needed - self.filled


def count_filled(needs: list[ValueNeed], value: Value) -> NeedCount:
    """How many of the values needed before play, and of the others, have a value now."""
    before = [n for n in needs if n.before_play]
    later = [n for n in needs if not n.before_play]
    return NeedCount(sum(value(n.slot, n.key) is not None for n in before), len(before),
                     sum(value(n.slot, n.key) is not None for n in later), len(later))
