"""The Spanish Civil War platoon skirmish: gridless, in inches, with HMG cones and hidden card positions."""
from __future__ import annotations

from pathlib import Path

from .rules import ScwRules
from .scenario import ScwScenario, load_scw_scenario

__all__ = ["ScwRules", "ScwScenario", "load_own_scenario", "load_scw_scenario", "rules_for_own_scenario",
           "rules_for_path", "rules_for_scenario"]

# This ruleset reads its own scenario format (a gridless table, no hexes):
# ``validate`` and ``load_rules`` find these two by the file's scenario.ruleset.
load_own_scenario = load_scw_scenario


def rules_for_path(path: str | Path, variant: str | tuple[str, ...] | None = None) -> ScwRules:
    """The skirmish rules bound to a scenario file (and one of its variants, or several in order)."""
    return ScwRules(load_scw_scenario(path, variant))


def rules_for_own_scenario(path: str | Path, variants: tuple[str, ...] = ()) -> ScwRules:
    """The rules bound to a skirmish scenario file and its chosen variants (the hook ``engine.game.load_rules`` looks for)."""
    return rules_for_path(path, tuple(variants) or None)


def rules_for_scenario(scenario) -> ScwRules:
    """The rules for a scenario: a loaded ScwScenario, or anything with the scenario file's ``path``."""
    if isinstance(scenario, ScwScenario):
        return ScwRules(scenario)
    if isinstance(scenario, (str, Path)):
        return rules_for_path(scenario)
    return rules_for_path(scenario.path)
