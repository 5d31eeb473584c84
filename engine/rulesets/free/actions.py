"""Free-play actions: what a player does at a table, each with a short text form (``flip 3-123``, ``roll 2d6``)."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from ...errors import IllegalAction
from engine.errors import excerpt

BOX = "box:"          # a place that is an off-map box, like ``box:dead``


@dataclass(frozen=True)
class Move:
    """Put a counter on a hex or in an off-map box: ``move 3-123 A12.07`` (``move 3-123 A11.07-A12.07`` and
    ``move 3-123 box:dead`` too; only the last place of a path counts at a table)."""

    unit: str
    to: str
    frm: str = ""

    def text(self) -> str:
        return f"move {self.unit} {self.frm + '-' if self.frm else ''}{self.to}"


@dataclass(frozen=True)
class Enter:
    """Bring a counter from off the map onto a hex: ``enter 3-123 A01.08`` (set-up and reinforcements)."""

    unit: str
    to: str

    def text(self) -> str:
        return f"enter {self.unit} {self.to}"


@dataclass(frozen=True)
class Flip:
    """Turn a counter over to its other face: ``flip 3-123``."""

    unit: str

    def text(self) -> str:
        return f"flip {self.unit}"


@dataclass(frozen=True)
class Steps:
    """Set a counter's step-loss marker: ``steps 3-123 1`` (0 takes the marker off)."""

    unit: str
    lost: int

    def text(self) -> str:
        return f"steps {self.unit} {self.lost}"


@dataclass(frozen=True)
class Mark:
    """Put a marker with any text on a counter: ``mark 3-123 Out of supply``."""

    unit: str
    label: str

    def text(self) -> str:
        return f"mark {self.unit} {self.label}"


@dataclass(frozen=True)
class Unmark:
    """Take a marker off a counter: ``unmark 3-123 Out of supply``."""

    unit: str
    label: str

    def text(self) -> str:
        return f"unmark {self.unit} {self.label}"


@dataclass(frozen=True)
class Note:
    """Write a note on a hex (an empty note rubs it out): ``note A12.07 Bridge blown``."""

    hex: str
    label: str = ""

    def text(self) -> str:
        return f"note {self.hex} {self.label}".rstrip()


@dataclass(frozen=True)
class Roll:
    """Roll dice: ``roll 2d6`` (any NdM), with what for if given: ``roll 1d6 for morale``."""

    count: int
    sides: int
    purpose: str = ""

    def text(self) -> str:
        return f"roll {self.count}d{self.sides}" + (f" for {self.purpose}" if self.purpose else "")


@dataclass(frozen=True)
class Reveal:
    """Show a hidden counter's face: ``reveal 3-123``."""

    unit: str

    def text(self) -> str:
        return f"reveal {self.unit}"


@dataclass(frozen=True)
class Hide:
    """Turn a counter face down again (solitaire's hidden units): ``hide 3-123``."""

    unit: str

    def text(self) -> str:
        return f"hide {self.unit}"


@dataclass(frozen=True)
class EndPhase:
    """Move the turn and phase track on: ``end``."""

    def text(self) -> str:
        return "end"


ACTIONS = {"move": Move, "enter": Enter, "place": Enter, "flip": Flip, "steps": Steps, "mark": Mark,
           "unmark": Unmark, "note": Note, "roll": Roll, "reveal": Reveal, "hide": Hide, "end": EndPhase}
FORMS = {"move": "move UNIT HEX|box:ID", "enter": "enter UNIT HEX", "place": "place UNIT HEX", "flip": "flip UNIT",
         "steps": "steps UNIT N", "mark": "mark UNIT TEXT", "unmark": "unmark UNIT TEXT", "note": "note HEX TEXT",
         "roll": "roll NdM [for TEXT]", "reveal": "reveal UNIT", "hide": "hide UNIT", "end": "end"}
MAX_DICE = 100
MAX_SIDES = 1000

for _cls in set(ACTIONS.values()):
    _cls.to_dict = lambda self: {"kind": type(self).__name__.lower(), **asdict(self)}

_DICE = re.compile(r"^(\d+)d(\d+)$")


def parse_action(text: str):
    """The action of a text form; IllegalAction says what a well-formed one looks like."""
    words = text.split()
    if not words or words[0] not in ACTIONS:
        raise IllegalAction("", f"{excerpt(text)} is not an action at the table (expected one of: {', '.join(FORMS)})")
    verb, args = words[0], words[1:]
    rest = text.split(None, 2)[2] if len(words) > 2 else ""
    if verb == "end" and not args:
        return EndPhase()
    if verb == "move" and len(args) == 2:
        where = args[1]
        if BOX in where:
            return Move(args[0], where[where.index(BOX):])
        parts = where.split("-")
        return Move(args[0], parts[-1], parts[0] if len(parts) > 1 else "")
    if verb in ("enter", "place") and len(args) == 2:
        return Enter(args[0], args[1])
    if verb in ("flip", "reveal", "hide") and len(args) == 1:
        return {"flip": Flip, "reveal": Reveal, "hide": Hide}[verb](args[0])
    if verb == "steps" and len(args) == 2 and args[1].isdigit():
        return Steps(args[0], int(args[1]))
    if verb in ("mark", "unmark") and len(args) >= 2:
        return (Mark if verb == "mark" else Unmark)(args[0], rest.strip())
    if verb == "note" and args:
        return Note(args[0], rest.strip())
    if verb == "roll" and args:
        m = _DICE.match(args[0].lower())
        purpose = ""
        if len(args) > 1:
            if args[1] != "for" or len(args) < 3:
                m = None
            else:
                purpose = text.split(None, 3)[3].strip()
        if m:
            n, s = int(m.group(1)), int(m.group(2))
            if not 1 <= n <= MAX_DICE or not 2 <= s <= MAX_SIDES:
                raise IllegalAction("", f"{args[0]}: roll 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides")
            return Roll(n, s, purpose)
    raise IllegalAction("", f"{excerpt(text)} is malformed (expected {FORMS[verb]!r})")
