"""TCS actions: frozen records with a dict form and a short text form (see the package docstring)."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from ...charts import ChartAnswer
from ...errors import IllegalAction
from engine.errors import excerpt


@dataclass(frozen=True)
class End:
    """End the current step for the side acting: ``end``."""

    def text(self) -> str:
        return "end"


@dataclass(frozen=True)
class Choose:
    """Answer a pending decision: ``choose initiative german``, ``choose retreat A03.04``, ``choose overwatch pass``."""

    what: str
    value: str

    def text(self) -> str:
        return f"choose {self.what} {self.value}"


@dataclass(frozen=True)
class Complete:
    """Command Phase step 1: an implemented Op Sheet is done (``complete OS1``) or cancelled (``cancel OS1``)."""

    sheet: str
    cancel: bool = False

    def text(self) -> str:
        return f"{'cancel' if self.cancel else 'complete'} {self.sheet}"


@dataclass(frozen=True)
class Implement:
    """Command Phase step 3: roll for an Op Sheet's implementation: ``implement OS1``."""

    sheet: str

    def text(self) -> str:
        return f"implement {self.sheet}"


@dataclass(frozen=True)
class ReserveCheck:
    """Command Phase step 4: roll a reserve sheet's release: ``reserve OS1``."""

    sheet: str

    def text(self) -> str:
        return f"reserve {self.sheet}"


@dataclass(frozen=True)
class Assign:
    """Command Phase step 5: add a unit to an Op Sheet: ``assign 1-A OS1``."""

    unit: str
    sheet: str

    def text(self) -> str:
        return f"assign {self.unit} {self.sheet}"


@dataclass(frozen=True)
class NewSheet:
    """Command Phase step 6: ``opsheet OS3 attack 1-Bn units 1-A+2-A objective B05.04,B05.05 route A03.03-B05.04``.

    ``objective`` is an area (hexes) or a point; ``route`` a polyline of hexes.
    """

    sheet: str
    type: str
    formation: str
    units: tuple[str, ...]
    objective: tuple[str, ...]
    route: tuple[str, ...] = ()

    def text(self) -> str:
        t = (f"opsheet {self.sheet} {self.type} {self.formation} units {'+'.join(self.units)} "
             f"objective {','.join(self.objective)}")
        return t + (f" route {'-'.join(self.route)}" if self.route else "")


@dataclass(frozen=True)
class Airstrike:
    """Aircraft step: one available sortie attacks a hex: ``airstrike B04.05``."""

    hex: str

    def text(self) -> str:
        return f"airstrike {self.hex}"


@dataclass(frozen=True)
class PlaceMission:
    """Artillery: ``mission 1-Bty B04.05 by FO-1 he`` (ammo he|smoke|illum; add ``continuous``)."""

    battery: str
    hex: str
    spotter: str
    ammo: str = "he"
    continuous: bool = False

    def text(self) -> str:
        return f"mission {self.battery} {self.hex} by {self.spotter} {self.ammo}" + (" continuous" if self.continuous else "")


@dataclass(frozen=True)
class Lift:
    """Artillery step 3: remove an own Continuous Fire barrage: ``lift M3``."""

    marker: str

    def text(self) -> str:
        return f"lift {self.marker}"


@dataclass(frozen=True)
class SetMode:
    """Change a unit's mode: ``mode 1-A move`` (costs half its movement allowance) or ``mode 1-A fire``."""

    unit: str
    mode: str

    def text(self) -> str:
        return f"mode {self.unit} {self.mode}"


@dataclass(frozen=True)
class Move:
    """Move a unit one hex: ``move 1-A B05.04`` (overwatch may answer each hex entered)."""

    unit: str
    to: str

    def text(self) -> str:
        return f"move {self.unit} {self.to}"


@dataclass(frozen=True)
class Fire:
    """Area fire (``fire 1-A+2-A at B05.04``), point fire at a unit (``pointfire ATG-1 at T-34a``)
    or a suppressive fire action (``sfa 1-A at B05.04``)."""

    kind: str                       # "area", "point", "sfa"
    units: tuple[str, ...]
    target: str

    def text(self) -> str:
        verb = {"area": "fire", "point": "pointfire", "sfa": "sfa"}[self.kind]
        return f"{verb} {'+'.join(self.units)} at {self.target}"


@dataclass(frozen=True)
class Assault:
    """Assault an adjacent enemy hex (``assault 1-A+2-A B05.04``) or overrun it with a vehicle (``overrun T-1 B05.04``)."""

    units: tuple[str, ...]
    hex: str
    overrun: bool = False

    def text(self) -> str:
        return f"{'overrun' if self.overrun else 'assault'} {'+'.join(self.units)} {self.hex}"


@dataclass(frozen=True)
class PrepLog:
    """The Soviet player's own Preparatory Barrage Log, written before play (BW 1.10b, 2.4): ``preplog T/T/...``,
    a turn of the Program each (in the Log's order), each turn the battalions' target hexes in column order
    separated by commas, ``-`` for none."""

    targets: str

    def text(self) -> str:
        return f"preplog {self.targets}"


@dataclass(frozen=True)
class Place:
    """The set-up phase before turn 1: put a unit on another hex of its set-up area: ``place 1-A B35.24``
    (Leros 5.1a, BW 1.10b/f)."""

    unit: str
    to: str

    def text(self) -> str:
        return f"place {self.unit} {self.to}"


ACTIONS = (End, Choose, Place, Complete, Implement, ReserveCheck, Assign, NewSheet, Airstrike, PlaceMission, Lift, SetMode,
           Move, Fire, Assault, PrepLog)
for _cls in ACTIONS:
    _cls.to_dict = lambda self: {"kind": type(self).__name__.lower(), **asdict(self)}

@dataclass(frozen=True)
class Plot:
    """Artillery step 3 on a full-hour turn: plot a super-heavy gun's target for the next hour (BW 4.7 Dora):
    ``plot HEX``."""

    hex: str

    def text(self) -> str:
        return f"plot {self.hex}"


@dataclass(frozen=True)
class Exit:
    """Leave the map from a map-edge hex for 1 MP (BW 5.0 "exiting"): ``exit UNIT``."""

    unit: str

    def text(self) -> str:
        return f"exit {self.unit}"


FORMS = {"end": "end", "choose": "choose WHAT VALUE", "complete": "complete SHEET", "cancel": "cancel SHEET",
         "implement": "implement SHEET", "reserve": "reserve SHEET", "assign": "assign UNIT SHEET",
         "opsheet": "opsheet ID TYPE FORMATION units U+U objective HEX,HEX [route HEX-HEX]",
         "airstrike": "airstrike HEX", "mission": "mission BATTERY HEX by SPOTTER he|smoke|illum [continuous]",
         "lift": "lift MARKER", "plot": "plot HEX", "mode": "mode UNIT move|fire", "move": "move UNIT HEX",
         "fire": "fire U+U at HEX", "pointfire": "pointfire UNIT at TARGET", "sfa": "sfa U+U at HEX",
         "assault": "assault U+U HEX", "overrun": "overrun UNIT HEX", "exit": "exit UNIT",
         "place": "place UNIT HEX",
         "preplog": "preplog HEX,HEX,.../HEX,HEX,... (a turn each, a battalion each, - for none)", "chart": "chart SLOT [KEY]... = VALUE"}


def parse_action(text: str):
    """The action a text names; IllegalAction says what a well-formed one looks like."""
    answer = ChartAnswer.parse(text)
    if answer is not None:
        return answer
    w = text.split()
    if not w or w[0] not in FORMS:
        raise IllegalAction("", f"{excerpt(text)} is not a TCS action (expected one of: {', '.join(FORMS)})")
    v, a = w[0], w[1:]
    if v == "end" and not a:
        return End()
    if v == "choose" and len(a) == 2:
        return Choose(a[0], a[1])
    if v in ("complete", "cancel") and len(a) == 1:
        return Complete(a[0], v == "cancel")
    if v == "implement" and len(a) == 1:
        return Implement(a[0])
    if v == "reserve" and len(a) == 1:
        return ReserveCheck(a[0])
    if v == "assign" and len(a) == 2:
        return Assign(a[0], a[1])
    if v == "opsheet" and len(a) in (7, 9) and a[3] == "units" and a[5] == "objective" \
            and (len(a) == 7 or a[7] == "route"):
        return NewSheet(a[0], a[1], a[2], tuple(a[4].split("+")), tuple(a[6].split(",")),
                        tuple(a[8].split("-")) if len(a) == 9 else ())
    if v == "airstrike" and len(a) == 1:
        return Airstrike(a[0])
    if v == "mission" and len(a) in (5, 6) and a[2] == "by" and (len(a) == 5 or a[5] == "continuous"):
        return PlaceMission(a[0], a[1], a[3], a[4], len(a) == 6)
    if v == "lift" and len(a) == 1:
        return Lift(a[0])
    if v == "plot" and len(a) == 1:
        return Plot(a[0])
    if v == "mode" and len(a) == 2:
        return SetMode(a[0], a[1])
    if v == "move" and len(a) == 2:
        return Move(a[0], a[1])
    if v in ("fire", "pointfire", "sfa") and len(a) == 3 and a[1] == "at":
        return Fire({"fire": "area", "pointfire": "point", "sfa": "sfa"}[v], tuple(a[0].split("+")), a[2])
    if v == "exit" and len(a) == 1:
        return Exit(a[0])
    if v == "place" and len(a) == 2:
        return Place(a[0], a[1])
    if v == "preplog" and len(a) == 1:
        return PrepLog(a[0])
    if v in ("assault", "overrun") and len(a) == 2:
        return Assault(tuple(a[0].split("+")), a[1], v == "overrun")
    raise IllegalAction("", f"{excerpt(text)} is malformed (expected {FORMS[v]!r})")
