"""The attacker's orders as small frozen records with a text form, like ``move T2 30.5,20``."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ...errors import IllegalAction
from engine.errors import excerpt


def _inches(v: float) -> str:
    """A coordinate written so that reading it back gives the same float (the log must replay exactly)."""
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class Order:
    """Base of every order: ``text()`` gives the log form, ``to_dict()`` the saved form."""

    verb = ""

    def text(self) -> str:
        parts = [self.verb]
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, tuple):
                parts.append(",".join(v))
            elif isinstance(v, float):
                parts.append(_inches(v))
            else:
                parts.append(str(v))
        return " ".join(parts)

    def to_dict(self) -> dict:
        d = {"verb": self.verb, **asdict(self)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Place(Order):
    """Lay a face-down card on a defensive position (SCW Scenario 2)."""

    verb = "place"
    card: str
    position: str


@dataclass(frozen=True)
class Join(Order):
    """A leader goes over to a team."""

    verb = "join"
    leader: str
    team: str


@dataclass(frozen=True)
class Rally(Order):
    """A leader tries to rally a pinned team (SCW Rallying)."""

    verb = "rally"
    leader: str
    team: str


@dataclass(frozen=True)
class Fire(Order):
    """An LMG team fires to silence a gun (SCW Silencing 2)."""

    verb = "fire"
    team: str
    gun: str


@dataclass(frozen=True)
class Cover(Order):
    """Teams of one kind give covering fire against a gun this turn (SCW Covering Fire 3)."""

    verb = "cover"
    gun: str
    teams: tuple


@dataclass(frozen=True)
class Grenade(Order):
    """A team in cover within 3 inches throws grenades at a gun (SCW Silencing 6)."""

    verb = "grenade"
    team: str
    gun: str


@dataclass(frozen=True)
class Bayonet(Order):
    """After a grenade silences the gun, the rifle team goes in with the bayonet (SCW Silencing 8)."""

    verb = "bayonet"
    team: str


@dataclass(frozen=True)
class Hold(Order):
    """Decline to go in with the bayonet."""

    verb = "hold"
    team: str


@dataclass(frozen=True)
class Leave(Order):
    """A team in cover tries to leave it (SCW Take Cover 5)."""

    verb = "leave"
    team: str


@dataclass(frozen=True)
class Move(Order):
    """A team advances towards a point on the table (SCW Advance)."""

    verb = "move"
    team: str
    x: float
    y: float

    def text(self) -> str:
        return f"move {self.team} {_inches(self.x)},{_inches(self.y)}"


@dataclass(frozen=True)
class Assault(Order):
    """A team that can reach a gun charges it with bomb and bayonet (SCW Bomb and Bayonet 1)."""

    verb = "assault"
    team: str
    gun: str


@dataclass(frozen=True)
class TakeCover(Order):
    """A team takes cover (SCW Take Cover 1, 2)."""

    verb = "take-cover"
    team: str


@dataclass(frozen=True)
class PressOn(Order):
    """After a casualty in a cone, the team tries to press on (SCW Take Cover 2)."""

    verb = "press-on"
    team: str


@dataclass(frozen=True)
class EndTurn(Order):
    """The attacker's turn is over: the enemy's turn follows."""

    verb = "end"


ORDERS = {c.verb: c for c in (Place, Join, Rally, Fire, Cover, Grenade, Bayonet, Hold, Leave, Move, Assault,
                               TakeCover, PressOn, EndTurn)}


def parse_order(text: str) -> Order:
    """An order from its text form, like ``move T2 30.5,20`` or ``cover C3 T3,T5``."""
    words = text.split()
    if not words or words[0] not in ORDERS:
        raise IllegalAction("", f"unknown order {excerpt(text)}; expected one of: {', '.join(ORDERS)}")
    cls = ORDERS[words[0]]
    args = words[1:]
    try:
        if cls is Move:
            if len(args) != 2:
                raise ValueError
            x, y = args[1].split(",")
            return Move(args[0], float(x), float(y))
        if cls is Cover:
            if len(args) != 2:
                raise ValueError
            return Cover(args[0], tuple(args[1].split(",")))
        names = [f.name for f in fields(cls)]
        if len(args) != len(names):
            raise ValueError
        return cls(*args)
    except ValueError:
        names = " ".join(f.name for f in fields(cls)) if cls is not Move else "team x,y"
        raise IllegalAction("", f"cannot read {excerpt(text)}: expected '{cls.verb} {names}'") from None


def order_from_dict(d: dict) -> Order:
    cls = ORDERS[d["verb"]]
    kw = {f.name: (tuple(d[f.name]) if f.name == "teams" else d[f.name]) for f in fields(cls)}
    return cls(**kw)
