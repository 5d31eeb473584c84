"""A scenario as plain data: sides, units, deployments, set-up rules, reinforcements, victory."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .variable import Release, RollTable

BOX_PREFIX = "box:"     # a free-play unit that starts in an off-map box: hex = "box:dead"

# Demyansk 2.1's symbol summary, named as the rulesets' unit-type tables name them.
UNIT_TYPES = (
    "infantry", "armored", "mechanized", "motorized", "light_infantry", "engineer", "military_police",
    "assault_gun", "airborne", "antiaircraft", "naval_infantry", "headquarters",
)
UNIT_SIZES = ("battalion", "regiment", "brigade", "division", "corps", "army")
SETUP_RULE_KINDS = ("occupy_each", "count", "cover")
ENTRY_METHODS = ("march", "airdrop")


@dataclass(frozen=True)
class Branch:
    """A branch of a side's forces and its counter colours (Demyansk 2.1: army, guards, navy …)."""

    id: str
    name: str
    fill: str
    text: str


@dataclass(frozen=True)
class Side:
    """One side of the game, like ``german``, with its counter colours per branch."""

    id: str
    name: str
    colour: str
    branches: dict[str, Branch] = field(default_factory=dict)
    player_setup: bool = False    # its units start off the map and the player places them in their areas


@dataclass(frozen=True)
class Unit:
    """One counter: identity, type and size, strengths, and where it sets up."""

    id: str
    side: str
    type: str
    size: str
    attack: int
    defense: int
    movement: int
    name: str = ""
    branch: str = "army"
    division: str = ""
    regiment: str = ""
    command_radius: int | None = None
    flags: frozenset[str] = frozenset()
    setup: str = ""          # area expression the unit must set up in ("" = its deployment's area)
    hex: str = ""            # default placement, a printed hex id ("" = not on the map at start)
    steps: int = 1           # steps the counter has at full strength (2: a front and a back)
    losses: int = 0          # steps it has lost when the scenario begins
    morale: int | None = None  # battalion morale, where the rules give units one
    reduced: str = ""        # the back's printed values, like ``2-2-5`` (a unit with steps; "" = the front's)

    @property
    def strengths(self) -> str:
        """The printed values, like ``4-5-7`` (attack-defense-movement)."""
        return f"{self.attack}-{self.defense}-{self.movement}"

    def has_flag(self, flag: str) -> bool:
        return flag in self.flags


@dataclass(frozen=True)
class Selector:
    """Which units a rule counts: every given field must match (lists mean "any of")."""

    side: str = ""
    deployment: str = ""
    types: tuple[str, ...] = ()
    not_types: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    branches: tuple[str, ...] = ()
    divisions: tuple[str, ...] = ()
    strengths: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    units: tuple[str, ...] = ()

    def matches(self, unit: Unit, deployment_of: dict[str, str] | None = None) -> bool:
        if self.side and unit.side != self.side:
            return False
        if self.deployment and (deployment_of or {}).get(unit.id) != self.deployment:
            return False
        if self.types and unit.type not in self.types:
            return False
        if self.not_types and unit.type in self.not_types:
            return False
        if self.sizes and unit.size not in self.sizes:
            return False
        if self.branches and unit.branch not in self.branches:
            return False
        if self.divisions and unit.division not in self.divisions:
            return False
        if self.strengths and unit.strengths not in self.strengths:
            return False
        if self.flags and not all(f in unit.flags for f in self.flags):
            return False
        if self.units and unit.id not in self.units:
            return False
        return True


@dataclass(frozen=True)
class Deployment:
    """A group of units a side sets up together, in one area, at one step of the set-up order."""

    id: str
    side: str
    order: int
    area: str
    units: tuple[str, ...]
    rule: str = ""
    text: str = ""


@dataclass(frozen=True)
class SetupRule:
    """A constraint on the whole set-up.

    ``occupy_each``: every hex of ``area`` holds a unit chosen by ``select``;
    ``count``: between ``min`` and ``max`` units chosen by ``select`` are in ``area``;
    ``cover``: every hex of ``area`` holds a unit of ``select`` or lies in its zone of control.
    """

    kind: str
    area: str
    select: Selector
    rule: str = ""
    text: str = ""
    min: int | None = None
    max: int | None = None
    zoc_not_into: tuple[str, ...] = ()   # terrain into which the units' ZOC does not extend


@dataclass(frozen=True)
class EntryOption:
    """Another way a reinforcement group may enter, from a later turn on."""

    from_turn: int
    entry: str
    method: str = "march"
    rule: str = ""


@dataclass(frozen=True)
class Reinforcement:
    """Units that arrive on a turn, where (an area expression) and how (march or airdrop).

    A variable reinforcement (``release`` and/or ``roll`` given) holds its
    units back until its release event; then, with a ``roll``, one roll on the
    table each of the side's reinforcement phases decides which units come.
    """

    turn: int
    side: str
    units: tuple[str, ...]
    entry: str
    method: str = "march"
    may_delay: bool = False
    rule: str = ""
    text: str = ""
    alternatives: tuple[EntryOption, ...] = ()
    id: str = ""
    release: Release | None = None
    roll: RollTable | None = None

    @property
    def variable(self) -> bool:
        """Held back until an event and/or a die roll releases its units."""
        return self.release is not None or self.roll is not None


@dataclass(frozen=True)
class Withdrawal:
    """Units that must leave the map by a turn; from ``no_attack_from_turn`` on they may not attack."""

    by_turn: int
    side: str
    units: tuple[str, ...]
    no_attack_from_turn: int | None = None
    rule: str = ""
    text: str = ""


@dataclass(frozen=True)
class VictoryAward:
    """Victory points a side scores each time an event happens."""

    side: str
    points: int
    event: str
    select: Selector | None = None
    per: str = ""
    rule: str = ""
    text: str = ""


@dataclass(frozen=True)
class Victory:
    """How the game is won: ``kind`` names the test, the other fields are its data."""

    kind: str
    rule: str = ""
    text: str = ""
    side: str = ""                # the side that must achieve the condition
    otherwise: str = ""           # who wins when it fails
    source: Selector | None = None
    target: str = ""              # area expression
    free_of: tuple[str, ...] = ()
    when: str = "end_of_game"
    tie: str = "draw"
    awards: tuple[VictoryAward, ...] = ()
    conditions: tuple = ()        # kind "conditions": Condition records
    otherwise_level: str = ""     # kind "conditions": the level ``otherwise`` wins at when nothing is met


@dataclass(frozen=True)
class Condition:
    """One victory condition; which fields matter depends on ``kind`` (see engine/scenario/victory.py)."""

    id: str
    kind: str
    side: str
    level: str = ""
    shift: int = 0
    rule: str = ""
    text: str = ""
    area: str = ""
    count: int = 0
    mode: str = "end"
    select: object = None            # an engine.scenario.Selector, or None for every unit of the side
    share: float = 0.0
    at_least: int = 1
    of: str = ""                     # losses: whose; count: (unused)
    measure: str = "steps"
    margin: int = 1
    conditions: tuple[str, ...] = ()  # count: the ids it counts
    awards: tuple["Award", ...] = ()  # points: the schedule


@dataclass(frozen=True)
class Award:
    """Victory points ``side`` scores ``points`` times per event.

    ``eliminated``: per enemy unit eliminated; ``step_lost``: per enemy step
    lost; ``exited``: per own unit that left the map; ``hex_held``: per hex of
    ``area`` the side holds at the end.  ``select`` narrows the units counted.
    """

    side: str
    points: int
    event: str
    select: object = None
    area: str = ""
    rule: str = ""
    text: str = ""


@dataclass(frozen=True)
class Variant:
    """A named alternative: options and special rules it changes."""

    id: str
    name: str
    text: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    special_rules: dict[str, Any] = field(default_factory=dict)
    shift_side: str = ""          # the variant moves the victory result toward this side …
    shift: int = 0                # … by this many levels (it makes the game easier for the other side)


@dataclass
class Scenario:
    """A scenario file: the game it belongs to, its map, forces, set-up, arrivals, victory."""

    id: str
    name: str
    ruleset: str
    map: str                      # path relative to the scenario file, as written
    first_turn: int
    last_turn: int
    first_side: str
    sides: dict[str, Side]
    units: dict[str, Unit]
    path: str = ""                # the scenario file
    map_path: str = ""            # the map file, resolved
    rule: str = ""
    text: str = ""
    game: str = ""                # the game's name, like "Demyansk Pocket"
    turn_names: tuple[str, ...] = ()
    deployments: tuple[Deployment, ...] = ()
    setup_rules: tuple[SetupRule, ...] = ()
    reinforcements: tuple[Reinforcement, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    special_rules: dict[str, Any] = field(default_factory=dict)
    variants: tuple[Variant, ...] = ()
    victory: Victory | None = None
    stacking_limit: int = 0       # most units in one hex at set-up (0: no limit)
    stacking_rule: str = ""
    play_area: str = ""           # area expression: the part of the map in play ("" = all of it)
    play_area_rule: str = ""
    playing_minutes: tuple[int, ...] = ()   # the game library's playing time: minutes, or (least, most)
    # rulesets configured by data (free, classic): their [rules] table as written, or the name of a shared
    # rules file beside the scenario; the ruleset checks it
    rules: dict[str, Any] | str = field(default_factory=dict)

    # ------------------------------------------------------------ queries
    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def deployment_of(self) -> dict[str, str]:
        """Unit id -> the id of the deployment it sets up with."""
        return {uid: d.id for d in self.deployments for uid in d.units}

    def deployment(self, dep_id: str) -> Deployment:
        for d in self.deployments:
            if d.id == dep_id:
                return d
        raise KeyError(dep_id)

    def select(self, selector: Selector) -> list[Unit]:
        dep = self.deployment_of()
        return [u for u in self.units.values() if selector.matches(u, dep)]

    def initial_units(self) -> list[Unit]:
        """Units on the map at the start (those with a set-up), in file order."""
        dep = self.deployment_of()
        return [u for u in self.units.values() if u.id in dep]

    def reinforcement_units(self) -> list[Unit]:
        ids = [uid for r in self.reinforcements for uid in r.units]
        return [self.units[i] for i in ids]

    def default_placement(self) -> dict[str, str]:
        """Unit id -> its default printed hex, for every unit on the map at the start."""
        return {u.id: u.hex for u in self.initial_units() if u.hex and not u.hex.startswith(BOX_PREFIX)}

    def default_boxes(self) -> dict[str, str]:
        """Unit id -> the off-map box it starts in (``hex = "box:ID"``, free-play scenarios only)."""
        return {u.id: u.hex[len(BOX_PREFIX):] for u in self.initial_units() if u.hex.startswith(BOX_PREFIX)}

    def player_sides(self) -> list[str]:
        """The sides whose units the player sets up in their areas at the start of play."""
        return [s.id for s in self.sides.values() if s.player_setup]

    def setup_area(self, unit_id: str) -> list[str]:
        """The area expressions a unit's set-up hex must satisfy (its deployment's and its own)."""
        out = []
        for d in self.deployments:
            if unit_id in d.units and d.area:
                out.append(d.area)
        u = self.units[unit_id]
        if u.setup:
            out.append(u.setup)
        return out

    def with_variant(self, variant_id: str) -> "Scenario":
        """A copy with a variant's options and special rules applied."""
        import copy

        for v in self.variants:
            if v.id == variant_id:
                s = copy.copy(self)
                s.options = {**self.options, **v.options}
                s.special_rules = {**self.special_rules, **v.special_rules}
                if v.shift and self.victory is not None and self.victory.kind == "conditions":
                    always = Condition(f"variant-{v.id}", "count", v.shift_side, shift=v.shift, at_least=0,
                                       text=f"variant {v.name}")
                    s.victory = replace(self.victory, conditions=self.victory.conditions + (always,))
                return s
        raise KeyError(variant_id)
