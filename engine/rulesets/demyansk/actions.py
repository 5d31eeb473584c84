"""Demyansk actions: frozen records with a dict form and a short text form ("move 3-123 0512-0613")."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from ...charts import ChartAnswer
from ...errors import IllegalAction
from engine.errors import excerpt


@dataclass(frozen=True)
class Move:
    """Move a unit to a hex in a movement phase (5), like ``move 3-123 0512-0613``.

    ``via`` names the hexes in between when the player chose the path
    (``move 3-123 0512-0513-0613``); without it the path is the cheapest.
    """

    unit: str
    to: str
    frm: str = ""
    via: tuple[str, ...] = ()

    def text(self) -> str:
        if not self.frm:
            return f"move {self.unit} {self.to}"
        return f"move {self.unit} {'-'.join((self.frm, *self.via, self.to))}"


@dataclass(frozen=True)
class Declare:
    """Announce a battle (6): ``attack 9-SS by 3-123+4-7``."""

    defender: str
    attackers: tuple[str, ...]

    def text(self) -> str:
        return f"attack {self.defender} by {'+'.join(self.attackers)}"


@dataclass(frozen=True)
class Resolve:
    """Resolve a declared battle (6): ``resolve 9-SS``."""

    defender: str

    def text(self) -> str:
        return f"resolve {self.defender}"


@dataclass(frozen=True)
class EnterResult:
    """The result of a blank CRT cell as saves made before the CRT was a chart slot wrote it (6.6): ``result DR2``.

    Still read so that those saves replay; play now answers with a chart answer
    (``chart demyansk.crt [4-1][5] = DR2``), which the game remembers.
    """

    result: str

    def text(self) -> str:
        return f"result {self.result}"


@dataclass(frozen=True)
class Retreat:
    """Choose where a unit retreats to (6.7): ``retreat 3-123 0613`` or ``retreat 3-123 off``."""

    unit: str
    to: str

    def text(self) -> str:
        return f"retreat {self.unit} {self.to}"


@dataclass(frozen=True)
class Advance:
    """Advance one attacker into the vacated hex (6.7), or none: ``advance 3-123`` / ``advance none``."""

    unit: str

    def text(self) -> str:
        return f"advance {self.unit}"


@dataclass(frozen=True)
class Enter:
    """Bring a reinforcement onto its map edge (9.1): ``enter 3-123 0101``."""

    unit: str
    to: str

    def text(self) -> str:
        return f"enter {self.unit} {self.to}"


@dataclass(frozen=True)
class Drop:
    """Air-drop a parachute brigade (8.2): ``drop 1-AB 0915``."""

    unit: str
    to: str

    def text(self) -> str:
        return f"drop {self.unit} {self.to}"


@dataclass(frozen=True)
class Withdraw:
    """Withdraw a unit of a departing division (9.3 special rule 1): ``withdraw 18-30``."""

    unit: str

    def text(self) -> str:
        return f"withdraw {self.unit}"


@dataclass(frozen=True)
class EndPhase:
    """End the current phase (3): ``end``."""

    def text(self) -> str:
        return "end"


@dataclass(frozen=True)
class Place:
    """Set up a unit of a side the player sets up, before the first turn: ``place 3-123 0512``."""

    unit: str
    to: str

    def text(self) -> str:
        return f"place {self.unit} {self.to}"


ACTIONS = {"place": Place, "move": Move, "attack": Declare, "resolve": Resolve, "result": EnterResult, "retreat": Retreat,
           "advance": Advance, "enter": Enter, "drop": Drop, "withdraw": Withdraw, "end": EndPhase}

for _cls in ACTIONS.values():
    _cls.to_dict = lambda self: {"kind": type(self).__name__.lower(), **asdict(self)}


def parse_action(text: str):
    """The action of a text form; IllegalAction says what a well-formed one looks like."""
    words = text.split()
    if not words or words[0] not in ACTIONS:
        raise IllegalAction("", f"{excerpt(text)} is not an action (expected one of: {', '.join(ACTIONS)})")
    verb, args = words[0], words[1:]
    try:
        if verb == "end" and not args:
            return EndPhase()
        if verb == "move" and len(args) == 2:
            hexes = args[1].split("-")
            return Move(args[0], hexes[-1], "-".join(hexes[:1] if len(hexes) > 1 else ()), tuple(hexes[1:-1]))
        if verb == "attack" and len(args) == 3 and args[1] == "by":
            return Declare(args[0], tuple(args[2].split("+")))
        if verb in ("resolve", "result", "advance", "withdraw") and len(args) == 1:
            return {"resolve": Resolve, "result": EnterResult, "advance": Advance, "withdraw": Withdraw}[verb](args[0])
        if verb in ("retreat", "enter", "drop", "place") and len(args) == 2:
            return {"retreat": Retreat, "enter": Enter, "drop": Drop, "place": Place}[verb](args[0], args[1])
    except (ValueError, IndexError):
        pass
    forms = {"move": "move UNIT FROM-TO", "attack": "attack DEFENDER by A+B", "resolve": "resolve DEFENDER",
             "result": "result DR2", "retreat": "retreat UNIT HEX|off", "advance": "advance UNIT|none",
             "enter": "enter UNIT HEX", "drop": "drop UNIT HEX", "withdraw": "withdraw UNIT", "end": "end", "place": "place UNIT HEX"}
    raise IllegalAction("", f"{excerpt(text)} is malformed (expected {forms[verb]!r})")


def action_from_dict(d: dict):
    """An action from its dict form."""
    d = dict(d)
    kind = d.pop("kind", "")
    if kind == "chart":
        return ChartAnswer(d["slot"], tuple(d["key"]), d["value"], bool(d.get("from_owner", False)))
    for cls in ACTIONS.values():
        if cls.__name__.lower() == kind:
            for key in ("attackers", "via"):
                if key in d:
                    d[key] = tuple(d[key])
            return cls(**d)
    raise IllegalAction("", f"unknown action kind {kind!r}")
