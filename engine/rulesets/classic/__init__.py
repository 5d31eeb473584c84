"""``ruleset = "classic"``: the common rules of hex-and-counter games, configured entirely by data.

The scenario's ``[rules]`` (or the shared rules file it names) give the
phases, movement classes and the terrain effects chart, roads, zones of
control, stacking, the combat method and its columns, shifts, the CRT and
what each result does, retreats, advances and supply; docs/classic-rules.md
documents every key.  Refusals cite the scenario's own rule numbers.
"""
from __future__ import annotations

from .config import Config, read_config
from .rules import ClassicRules

# A ruleset configured by data plays with whatever sides the scenario names (None: any sides).
EXPECTED_SIDES = None

__all__ = ["ClassicRules", "Config", "read_config", "rules_for_scenario", "EXPECTED_SIDES"]


def rules_for_scenario(scenario, board=None):
    """The classic rules bound to a loaded scenario and its map."""
    from engine.maps.mapfile import load_map

    board = board if board is not None else load_map(scenario.map_path)
    return ClassicRules(scenario, board, read_config(scenario, board))
