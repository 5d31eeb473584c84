"""What a Demyansk counter says (2.1): side, type, strengths, division; fixed for a game."""
from __future__ import annotations

from dataclasses import dataclass

GERMAN = "german"
SOVIET = "soviet"
SIDES = (GERMAN, SOVIET)


def enemy_of(side: str) -> str:
    return SOVIET if side == GERMAN else GERMAN


@dataclass(frozen=True)
class UnitSpec:
    """One counter: ``attack-defense-movement`` plus what the set-up and the rules need.

    ``setup`` is the printed hex it starts in (``None`` for reinforcements),
    ``arrives`` the turn it arrives as a reinforcement, ``pocket`` whether it
    begins the game inside the pocket (7.2), ``division`` its German division
    (6.5), ``command_radius`` a headquarters' radius (8.1), ``withdraw_turn``
    the turn its division must be withdrawn by (9.3 special rule 1).
    """

    id: str
    side: str
    type: str
    attack: int
    defense: int
    movement: int
    name: str = ""
    army: str = ""
    division: str | None = None
    setup: str | None = None
    arrives: int | None = None
    pocket: bool = False
    command_radius: int | None = None
    withdraw_turn: int | None = None

    @property
    def values(self) -> str:
        return f"{self.attack}-{self.defense}-{self.movement}"
