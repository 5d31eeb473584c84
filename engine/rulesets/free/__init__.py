"""``ruleset = "free"``: the table with no rules, so that any digitised map is playable at once.

Counters go anywhere (hexes and off-map boxes), flip, carry step-loss and text
markers; dice of any kind are rolled from the game's generator and logged;
notes are written on hexes; the turn and phase track follows the scenario's
names; reinforcements are released on their turn; a side's counters may be
kept face down (solitaire) until revealed.  Nothing is refused but what the
file forbids (a hex off the map, an unknown counter, a reinforcement before
its turn).
"""
from __future__ import annotations

from .rules import FreeRules

# A ruleset configured by data plays with whatever sides the scenario names (None: any sides).
EXPECTED_SIDES = None

__all__ = ["FreeRules", "rules_for_scenario", "EXPECTED_SIDES"]


def rules_for_scenario(scenario, board=None):
    """The free-play table bound to a loaded scenario (and its map, read from the map file unless given)."""
    return FreeRules.from_scenario(scenario, board)
