"""Scenarios: the data model, the loader, set-up areas and set-up checks."""
from .areas import AreaContext, AreaError, AreaSyntaxError, parse_area
from .load import load_scenario, parse_scenario
from .model import (
    Branch, Deployment, EntryOption, Reinforcement, Scenario, Selector, SetupRule, Side, Unit,
    Variant, Victory, VictoryAward, Withdrawal, UNIT_SIZES, UNIT_TYPES,
)
from .save import save_scenario, scenario_to_dict, with_placement
from .setup import check_scenario_file, scenario_board, validate_setup

__all__ = [
    "AreaContext", "AreaError", "AreaSyntaxError", "parse_area", "load_scenario", "parse_scenario",
    "Branch", "Deployment", "EntryOption", "Reinforcement", "Scenario", "Selector", "SetupRule", "Side",
    "Unit", "Variant", "Victory", "VictoryAward", "Withdrawal", "UNIT_SIZES", "UNIT_TYPES", "validate_setup",
    "save_scenario", "scenario_to_dict", "with_placement", "check_scenario_file", "scenario_board",
]
from .variable import Release, RollModifier, RollResult, RollTable  # noqa: E402

__all__ += ["Release", "RollModifier", "RollResult", "RollTable"]
