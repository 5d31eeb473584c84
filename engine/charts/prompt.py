"""Asking for a printed chart's result in play, and remembering the answer in the game.

When a procedure needs a cell that is blank, the ruleset works out everything
else first (the column, each shift with its rule, the roll) and puts a
:class:`ChartPrompt` in the state as a pending choice.  The legal actions are then
one :class:`ChartAnswer` per result in the chart's domain.  The answer is an
ordinary logged action, so replay and undo/redo are exact and never ask again;
the state keeps it in its :class:`ChartMemory`, so the game asks each cell once,
and an answer contradicting an earlier one is refused with both values.

The owner's book (:mod:`engine.charts.book`) stays outside the game state:
:func:`answer_from_book` turns a prompt whose cell the owner has already
entered into the answer action a controller plays for them, marked as read from
the owner's chart, and the controller records the player's own answers in the book.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction
from .book import ChartBook
from .slots import ChartSet, ChartSlot, Key


@dataclass(frozen=True)
class Step:
    """One line of the working shown with a prompt: ``column 8 (firepower 12)``, ``-2 trench`` (BW 1.3a)."""

    text: str
    rule: str = ""

    def show(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text

    def to_dict(self) -> dict:
        return {"text": self.text, **({"rule": self.rule} if self.rule else {})}

    @classmethod
    def from_dict(cls, d: dict) -> "Step":
        return cls(d["text"], d.get("rule", ""))


@dataclass(frozen=True)
class ChartPrompt:
    """A pending choice: enter the printed result of one cell, with the working that led to it."""

    slot: str
    key: Key
    title: str
    steps: tuple[Step, ...] = ()
    purpose: str = ""           # what the result is for: "fire at B12.07 by 2/133"
    choices: tuple = ()         # the chart's results, in printed order

    def text(self) -> str:
        """``Area Fire Table [8][9]: column 8 (firepower 12), -2 trench (BW 1.3a), roll 9: enter the printed result``."""
        cell = self.title + "".join(f"[{k}]" for k in self.key)
        work = ", ".join(s.show() for s in self.steps)
        why = f" for {self.purpose}" if self.purpose else ""
        return f"{cell}{why}: {work}: enter the printed result" if work else f"{cell}{why}: enter the printed result"

    def to_dict(self) -> dict:
        return {"slot": self.slot, "key": list(self.key), "title": self.title,
                "steps": [s.to_dict() for s in self.steps], "purpose": self.purpose,
                "choices": list(self.choices)}

    @classmethod
    def from_dict(cls, d: dict) -> "ChartPrompt":
        return cls(d["slot"], tuple(d["key"]), d["title"], tuple(Step.from_dict(s) for s in d.get("steps", ())),
                   d.get("purpose", ""), tuple(d.get("choices", ())))


_ANSWER = re.compile(r"^chart\s+(?P<slot>[\w.\-]+)\s+(?P<key>(\[[^\]]*\])+)\s*=\s*(?P<value>.+?)"
                     r"(?P<owner>\s+\(owner's chart\))?$")


@dataclass(frozen=True)
class ChartAnswer:
    """The action that answers a prompt: ``chart tcs.area_fire [8][9] = 1S``."""

    slot: str
    key: Key
    value: Any
    from_owner: bool = False     # read from the owner's chart rather than typed now

    def text(self) -> str:
        cells = "".join(f"[{k}]" for k in self.key)
        return f"chart {self.slot} {cells} = {self.value}" + (" (owner's chart)" if self.from_owner else "")

    def to_dict(self) -> dict:
        return {"kind": "chart", "slot": self.slot, "key": list(self.key), "value": self.value,
                **({"from_owner": True} if self.from_owner else {})}

    @classmethod
    def parse(cls, text: str) -> "ChartAnswer | None":
        """The answer a text names, or None if the text is not a chart answer."""
        m = _ANSWER.match(text.strip())
        if not m:
            return None
        key = tuple(re.findall(r"\[([^\]]*)\]", m.group("key")))
        value: Any = m.group("value").strip()
        if re.fullmatch(r"-?\d+", value):
            value = int(value)
        return cls(m.group("slot"), key, value, bool(m.group("owner")))


@dataclass
class ChartMemory:
    """The cells answered in this game (part of the game state, so replay needs no owner's chart)."""

    cells: dict[str, dict[Key, Any]] = field(default_factory=dict)

    def get(self, slot_id: str, key: Key) -> Any | None:
        return self.cells.get(slot_id, {}).get(tuple(key))

    def put(self, slot_id: str, key: Key, value: Any) -> None:
        self.cells.setdefault(slot_id, {})[tuple(key)] = value

    def copy(self) -> "ChartMemory":
        return ChartMemory({s: dict(c) for s, c in self.cells.items()})

    def to_dict(self) -> dict:
        return {s: {"|".join(k): v for k, v in sorted(c.items())} for s, c in sorted(self.cells.items())}

    @classmethod
    def from_dict(cls, d: dict) -> "ChartMemory":
        return cls({s: {tuple(k.split("|")): v for k, v in c.items()} for s, c in d.items()})


def answer_words(slots: ChartSet, answer: ChartAnswer) -> str:
    """A chart answer in words, for the log: ``Area Fire Table, column 6, roll 8: 1S``, each key named by its axis
    (``Terrain Effects Chart: height, terrain woods: 1``); the action's own text if its chart is not in ``slots``."""
    if answer.slot not in slots:
        return answer.text()
    slot = slots[answer.slot]
    where = ", ".join(f"{axis.name} {str(k).replace('_', ' ')}" for axis, k in zip(slot.axes, answer.key))
    return f"{slot.title}{', ' + where if where else ''}: {answer.value}" \
        + (" (read from the owner's chart)" if answer.from_owner else "")


def read_cell(slots: ChartSet, memory: ChartMemory, slot_id: str, key: Key) -> Any | None:
    """A cell's value known to the game: published with the slot, or answered earlier in this game."""
    slot = slots[slot_id]
    key = tuple(str(k) for k in key)
    if key in slot.known:
        return slot.known[key]
    return memory.get(slot_id, key)


def prompt_for(slot: ChartSlot, key: Key, steps: tuple[Step, ...] = (), purpose: str = "") -> ChartPrompt:
    """The prompt for a blank cell, offering the chart's whole result domain."""
    bad = slot.check_key(tuple(key))
    if bad:
        raise ValueError(bad)
    return ChartPrompt(slot.id, tuple(str(k) for k in key), slot.title, tuple(steps), purpose, slot.domain.choices())


def answers(prompt: ChartPrompt) -> list[ChartAnswer]:
    """The legal answers to a prompt: one per result in the chart's domain, in printed order."""
    return [ChartAnswer(prompt.slot, prompt.key, v) for v in prompt.choices]


def accept_answer(slots: ChartSet, memory: ChartMemory, prompt: ChartPrompt, answer: ChartAnswer,
                  rule: str = "") -> Any:
    """Check an answer against the pending prompt, the chart's domain and earlier answers; store it.

    Returns the value as stored.  Refusals are :class:`IllegalAction` citing the chart's rule.
    """
    slot = slots[prompt.slot]
    rule = rule or slot.rule
    if answer.slot != prompt.slot or tuple(answer.key) != tuple(prompt.key):
        raise IllegalAction(rule, f"the chart result asked for now is {prompt.title}"
                            + "".join(f"[{k}]" for k in prompt.key) + ", not "
                            + (slots[answer.slot].cell_text(answer.key) if answer.slot in slots else answer.slot))
    v = slot.domain.normalise(answer.value)
    if v is None:
        raise IllegalAction(rule, f"{answer.value!r} is not a result of {slot.title} (expected {slot.domain.describe()})")
    old = read_cell(slots, memory, prompt.slot, prompt.key)
    if old is not None and old != v:
        raise IllegalAction(rule, f"{slot.cell_text(prompt.key)} was entered as {old!r} earlier in this game; "
                            f"{v!r} contradicts it")
    memory.put(prompt.slot, prompt.key, v)
    return v


def answer_from_book(prompt: ChartPrompt, book: ChartBook | None) -> ChartAnswer | None:
    """The answer a controller plays for the owner when their chart already holds the cell."""
    if book is None or prompt.slot not in book.slots:
        return None
    v = book.lookup(prompt.slot, prompt.key)
    return None if v is None else ChartAnswer(prompt.slot, prompt.key, v, from_owner=True)


def remember_answer(book: ChartBook | None, answer: ChartAnswer) -> None:
    """Write a player's answer into the owner's chart (ChartConflict if it contradicts an entry)."""
    if book is not None and answer.slot in book.slots and not answer.from_owner:
        book.record(answer.slot, answer.key, answer.value)
