"""The skirmish procedures as pure functions: each takes the dice already thrown and returns what happens.

A throw is a tuple of die faces (two for ``2D6`` / ``2AvD``).  The seed says
"equal or below" in some places and "below", "beneath" or "under" in others;
the first is ``score <= target``, the others ``score < target`` (the rally
example of SCW Rallying 2 -- Bravado 6 + 1 = 7, scored 6, rallied -- agrees).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .data import Tables, load_tables


def is_double(roll: tuple[int, ...]) -> bool:
    return len(roll) == 2 and roll[0] == roll[1]


def is_odd_double(roll: tuple[int, ...]) -> bool:
    return is_double(roll) and roll[0] % 2 == 1


def below(score: int, target: int) -> bool:
    """"Below", "beneath", "under": strictly less."""
    return score < target


def equal_or_below(score: int, target: int) -> bool:
    return score <= target


def average_die_face(d6: int, tables: Tables | None = None) -> int:
    """The average die's face for a d6 face 1..6 (faces 2,3,3,4,4,5; SCW Bravado 1)."""
    return (tables or load_tables()).average_die[d6 - 1]


# ---------------------------------------------------------------- SCW Advance / Under Fire

@dataclass(frozen=True)
class Advance:
    """The result of a movement throw: inches allowed, Bravado afterwards, casualties, pinned."""

    score: int
    rate: float
    bravado: int
    casualties: int
    pinned: bool
    text: str


def advance(bravado: int, roll: tuple[int, int], under_fire: bool = False, covering: int = 0,
            moving: bool = True) -> Advance:
    """Throw 2 dice against Bravado: full rate (Bravado inches) or less the excess (SCW Advance 1).

    Out of a cone an odd double costs a casualty (SCW Advance 2).  Under
    fire the excess is also lost from Bravado for good, pinning at 0 (SCW
    Under Fire 1), and any double costs a casualty (SCW Under Fire 2).
    ``moving=False`` leaves the rate out of the text (a second cone's throw).
    ``covering`` is the covering fire bonus (SCW Covering Fire 4): it is
    added to the Bravado the throw is compared with, so it cuts both the
    loss of movement and the loss of Bravado, but never raises the rate
    above full rate.
    """
    score = sum(roll)
    excess = max(0, score - (bravado + covering))
    rate = float(max(0, bravado - excess))
    if under_fire:
        new_bravado = max(0, bravado - excess)
        casualties = 1 if is_double(roll) else 0
        pinned = new_bravado == 0
    else:
        new_bravado = bravado
        casualties = 1 if is_odd_double(roll) else 0
        pinned = False
    parts = [f"threw {roll[0]}+{roll[1]}={score} against Bravado {bravado}"
             + (f"+{covering} covering fire" if covering else ""),
             *([f"moves up to {rate:g} inches"] if moving else [])]
    if under_fire and new_bravado != bravado:
        parts.append(f"Bravado {bravado} -> {new_bravado} under fire")
    if casualties:
        parts.append("a double: one casualty" if under_fire else "an odd double: one casualty")
    if pinned:
        parts.append("pinned")
    return Advance(score, rate, new_bravado, casualties, pinned, ", ".join(parts))


@dataclass(frozen=True)
class Test:
    """A pass/fail throw with its target and any casualty it causes."""

    score: int
    target: int
    passed: bool
    casualties: int
    text: str


def cone_entry(bravado: int, roll: tuple[int, int]) -> Test:
    """Moving into a cone or a new range band: throw below Bravado or lose a casualty (SCW Under Fire 3)."""
    score = sum(roll)
    ok = below(score, bravado)
    return Test(score, bravado, ok, 0 if ok else 1,
                f"threw {roll[0]}+{roll[1]}={score} needing below {bravado}: "
                + ("no loss" if ok else "one casualty"))


def press_on(bravado: int, roll: tuple[int, int], modifiers: dict[str, int]) -> Test:
    """Press on after a casualty in a cone: equal or below Bravado + modifiers; any double, another casualty (SCW Take Cover 2, 3)."""
    score = sum(roll)
    target = bravado + sum(modifiers.values())
    ok = equal_or_below(score, target)
    cas = 1 if is_double(roll) else 0
    mods = "".join(f" {v:+d} {k}" for k, v in modifiers.items() if v)
    return Test(score, target, ok, cas,
                f"threw {roll[0]}+{roll[1]}={score} needing {target} or less (Bravado {bravado}{mods}): "
                + ("presses on" if ok else "takes cover") + (", a double: one casualty" if cas else ""))


def cover_casualty(roll: tuple[int, int]) -> Test:
    """A team in cover within a cone throws each turn: an odd double costs a casualty (SCW Take Cover 4)."""
    cas = is_odd_double(roll)
    return Test(sum(roll), 0, not cas, 1 if cas else 0,
                f"in cover under fire, threw {roll[0]}+{roll[1]}: " + ("an odd double, one casualty" if cas else "no loss"))


@dataclass(frozen=True)
class LeaveCover:
    """Leaving cover: passed, Bravado afterwards, pinned."""

    score: int
    target: int
    passed: bool
    bravado: int
    pinned: bool
    text: str


def leave_cover(bravado: int, roll: tuple[int, int], modifiers: dict[str, int], in_cone: bool) -> LeaveCover:
    """Throw beneath Bravado + modifiers to leave cover (SCW Take Cover 5); failing costs a Bravado level
    and pins a team in a cone (SCW Take Cover 6)."""
    score = sum(roll)
    target = bravado + sum(modifiers.values())
    mods = "".join(f" {v:+d} {k}" for k, v in modifiers.items() if v)
    head = f"threw {roll[0]}+{roll[1]}={score} needing below {target} (Bravado {bravado}{mods}): "
    if below(score, target):
        return LeaveCover(score, target, True, bravado, False, head + "leaves cover")
    nb = max(0, bravado - 1)
    pinned = in_cone or nb == 0
    return LeaveCover(score, target, False, nb, pinned,
                      head + f"stays in cover, Bravado {bravado} -> {nb}" + (", pinned" if pinned else ""))


# ---------------------------------------------------------------- SCW Rallying

def rally(leader_bravado: int, roll: tuple[int, int], modifiers: dict[str, int]) -> Test:
    """The leader throws beneath his own Bravado + 1 (+1 commissar) to rally a team (SCW Rallying 2, 3)."""
    score = sum(roll)
    target = leader_bravado + sum(modifiers.values())
    ok = below(score, target)
    mods = "".join(f" {v:+d} {k}" for k, v in modifiers.items() if v)
    return Test(score, target, ok, 0,
                f"threw {roll[0]}+{roll[1]}={score} needing below {target} (leader's Bravado {leader_bravado}{mods}): "
                + ("rallied" if ok else "not rallied"))


def commissar_shoots(d6: int, tables: Tables | None = None) -> bool:
    """After a failed rally the commissar shoots the commander on a 1 (SCW Rallying 3)."""
    return d6 in (tables or load_tables())["leaders"]["commissar_shoots_on"]


def natural_leader(d10: int, tables: Tables | None = None) -> bool:
    """A natural leader emerges on a 1 or a 0 (ten) of 1D10 (SCW Leader Casualties 2)."""
    return d10 in (tables or load_tables())["leaders"]["natural_leader_on"]


def natural_leader_team(order: list[str], d6s: list[int], tables: Tables | None = None) -> str | None:
    """The first team, nearest the fallen leader first, to throw a 6 (SCW Leader Casualties 2).

    ``d6s`` are the throws made in turn, going round the teams again until one succeeds.
    """
    need = (tables or load_tables())["leaders"]["natural_leader_team_on"]
    for i, d in enumerate(d6s):
        if d == need:
            return order[i % len(order)]
    return None


def leader_hit(d6: int, tables: Tables | None = None) -> bool:
    """The casualty falls on the leader on this face, when he used his modifier this turn (a choice; SCW Leader Casualties 1)."""
    return d6 in (tables or load_tables())["leaders"]["leader_hit_on"]


# ---------------------------------------------------------------- SCW Covering Fire

def _lookup(table: list, score: int) -> int:
    for lo, hi, bonus in table:
        if lo <= score <= hi:
            return bonus
    raise ValueError(f"no row of the table holds {score}")


@dataclass(frozen=True)
class Covering:
    """A covering fire bonus and how it was reached."""

    bonus: int
    text: str
    modifiers: dict = field(default_factory=dict)


def lmg_covering(d6: int, lmgs: int, leader_directing: bool, any_close: bool,
                 tables: Tables | None = None) -> Covering:
    """LMG covering fire: 1D6 on the table, +1 leader directing, +1 per LMG, +1 any at close range (SCW Covering Fire 4, 5)."""
    t = (tables or load_tables())["covering"]["lmg"]
    base = _lookup(t["table"], d6)
    mods = {"leader directing": t["leader_directing"] if leader_directing else 0,
            "per LMG": t["per_lmg"] * lmgs,
            "LMG at close range": t["any_close"] if any_close else 0}
    bonus = base + sum(mods.values())
    m = "".join(f" {v:+d} {k}" for k, v in mods.items() if v)
    return Covering(bonus, f"LMG covering fire: threw {d6} -> +{base}{m} = +{bonus}", mods)


def rifle_covering(avd: int, rifles: int, leader_with: bool, tables: Tables | None = None) -> Covering:
    """Rifle covering fire: 1AvD on the table, +1 per two rifle teams, +1 leader with a team (SCW Covering Fire 6, 7)."""
    t = (tables or load_tables())["covering"]["rifle"]
    base = _lookup(t["table"], avd)
    mods = {"per two rifle teams": t["per_two_teams"] * (rifles // 2),
            "leader with a team": t["leader_with"] if leader_with else 0}
    bonus = base + sum(mods.values())
    m = "".join(f" {v:+d} {k}" for k, v in mods.items() if v)
    return Covering(bonus, f"rifle covering fire: threw {avd} (average die) -> +{base}{m} = +{bonus}", mods)


# ---------------------------------------------------------------- SCW Silencing a Machine gun

def silencing_fire(range_inches: float, roll: tuple[int, int], tables: Tables | None = None) -> tuple[int, str]:
    """LMG fire on a gun: 2D6 over the range costs it one Bravado per 3 over (SCW Silencing 2-4)."""
    per = (tables or load_tables())["hmg"]["bravado_per"]
    score = sum(roll)
    if score <= range_inches:
        return 0, f"threw {roll[0]}+{roll[1]}={score} at {range_inches:.1f} inches: no effect"
    over = score - range_inches
    lost = int(over // per)
    return lost, (f"threw {roll[0]}+{roll[1]}={score} at {range_inches:.1f} inches, {over:.1f} over: "
                  f"the gun loses {lost} Bravado")


def grenade(d6: int) -> bool:
    """A grenade from cover within 3 inches silences the gun on 4-6 (SCW Silencing 7)."""
    return d6 >= 4


def reopens(hmg_bravado: int, roll: tuple[int, int]) -> Test:
    """A silenced gun opens fire again if it throws under its Bravado (SCW Silencing 9)."""
    score = sum(roll)
    ok = below(score, hmg_bravado)
    return Test(score, hmg_bravado, ok, 0,
                f"the silenced gun threw {roll[0]}+{roll[1]}={score} needing below {hmg_bravado}: "
                + ("it opens fire again" if ok else "it stays silent"))


def assault_ones(roll: tuple[int, int]) -> int:
    """Re-opening on a bayonet charge: a throw with a 1 in it costs an additional casualty (SCW Silencing 11)."""
    return 1 if 1 in roll else 0


# ---------------------------------------------------------------- SCW At 'em With Bomb and Bayonet

def can_close_assault(distance_to_gun: float, bravado: int) -> bool:
    """A team that could reach the gun with its unmodified Bravado makes a close assault (SCW Bomb and Bayonet 1)."""
    return distance_to_gun <= bravado


@dataclass(frozen=True)
class Assault:
    """A close assault's outcome."""

    score: int
    result: str
    captured: bool
    attackers_killed: bool
    prisoners: int
    text: str


def close_assault(d10: int, hmg_bravado_lost: int, defenders_surrender: bool = True,
                  prisoners_d6: int = 0, tables: Tables | None = None) -> Assault:
    """1D10 + 1 per Bravado the gun has lost, on the assault table (SCW Bomb and Bayonet 2, 3).

    A 0 on the d10 is ten; totals above ten read as ten.  Defenders that do not
    surrender (Moors, Legionnaires) fight it out: a "surrender" result reads as
    "defenders dead" (a choice).  ``stiff_fight`` leaves the attackers' Bravado
    throw to the caller.
    """
    t = tables or load_tables()
    score = min(10, d10 + hmg_bravado_lost)
    row = next(r for r in t["assault"] if r["low"] <= score <= r["high"])
    result = row["result"]
    if result == "surrender" and not defenders_surrender:
        result = "dead"
        row = next(r for r in t["assault"] if r["result"] == "dead")
    prisoners = prisoners_d6 if result == "surrender" else 0
    mod = f" +{hmg_bravado_lost} for the gun's lost Bravado" if hmg_bravado_lost else ""
    text = f"close assault: threw {d10}{mod} = {score}: {row['text']}" + (f" ({prisoners} prisoners)" if prisoners else "")
    return Assault(score, result, result != "repulsed", result == "repulsed", prisoners, text)
