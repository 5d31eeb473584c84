"""The table view for gridless games (the Spanish Civil War skirmish): a table in inches, no hex grid."""
from __future__ import annotations

from pathlib import Path

from engine.errors import BadFile
from engine.fileio import is_file, read_toml
from engine.game import own_format_ruleset, saved_scenario_path

HOOK = "rules_for_own_scenario"


def is_table_file(path: str | Path) -> bool:
    """True for a gridless scenario, or a saved game of one, that the table view plays."""
    try:
        doc = read_toml(path)
        scenario = doc.get("scenario")
        if "actions" in doc and "seed" in doc and isinstance(scenario, str):
            target = saved_scenario_path(path, scenario)        # a shipped one moved with the program: found
            return is_file(target) and own_format_ruleset(str(target), HOOK) is not None
        return own_format_ruleset(str(path), HOOK) is not None
    except (BadFile, OSError):
        return False
