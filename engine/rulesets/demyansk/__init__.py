"""Demyansk Pocket (1942): the ruleset (Python here, its numbers in ``tables.toml``)."""
from __future__ import annotations

from .charts import chart_slots
from .rules import DemyanskRules
from .tables import load_tables
from .units import GERMAN, SOVIET, UnitSpec

__all__ = ["chart_slots", "DemyanskRules", "UnitSpec", "GERMAN", "SOVIET", "SIDES", "SIDE_NAMES", "TITLE",
           "load_tables",
           "rules_for_scenario"]

TITLE = "Demyansk Pocket (1942)"
# The sides the rules play (every phase belongs to one of them): a scenario's sides must be these.
SIDES = (GERMAN, SOVIET)
SIDE_NAMES = {GERMAN: "German", SOVIET: "Soviet"}


def rules_for_scenario(scenario):
    """The ruleset bound to a loaded scenario (see ``engine.scenario``)."""
    from .from_scenario import rules_for_scenario as build

    return build(scenario)
