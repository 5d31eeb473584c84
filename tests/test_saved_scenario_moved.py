"""A saved game of a shipped scenario still opens after the program has been unpacked or installed in another
folder: the scenario file it recorded is gone, the shipped scenario of that name (the same by its hash) is used."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import content
from engine.errors import BadFile
from engine.fileio import read_toml, write_toml
from engine.game import load_game
from engine.scenario.newgame import new_game
from gui.table import is_table_file
from gui.tcs.attach import is_tcs_path

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"
TCS = ROOT / "scenarios" / "tcs-test.toml"
OLD = "/opt/sandtable-0.0.9/engine/_content/scenarios/"       # where an older copy of the program lay


def saved_then_moved(tmp_path, scenario: Path, seed: int = 5, name: str | None = None) -> tuple[Path, str]:
    game = new_game(scenario, seed)
    game.play(game.legal_actions()[0].text())          # a log of one action to replay
    out = tmp_path / f"{scenario.stem}-save.toml"
    game.save(out)
    doc = read_toml(out)
    doc["scenario"] = OLD + (name or scenario.name)
    write_toml(out, doc)
    return out, game.hash()


def test_a_save_whose_shipped_scenario_moved_opens_with_the_shipped_scenario_of_that_name(tmp_path):
    out, digest = saved_then_moved(tmp_path, TRAPPED)
    game = load_game(out)                      # it said: the scenario file ... is missing
    assert game.hash() == digest and Path(game.scenario_path) == content.scenarios() / TRAPPED.name


def test_a_save_whose_scenario_is_nowhere_is_still_refused_by_name(tmp_path):
    out, _ = saved_then_moved(tmp_path, TRAPPED, name="my-own-trapped.toml")
    with pytest.raises(BadFile) as e:
        load_game(out)
    assert f"the scenario file {OLD}my-own-trapped.toml is missing" in str(e.value.problems[0])


def test_the_windows_saves_of_moved_scenarios_go_to_the_table_and_tcs_windows(tmp_path):
    table_save, _ = saved_then_moved(tmp_path, PLATOON, seed=3)
    assert is_table_file(table_save)            # a skirmish save still opens on the table
    tcs_save, _ = saved_then_moved(tmp_path, TCS, seed=3)
    assert is_tcs_path(tcs_save) and load_game(tcs_save) is not None
