"""The headless commands: ``moves`` (destinations, costs, blocked neighbours) and ``play`` (bots to the end)."""
from __future__ import annotations

import json
from pathlib import Path

from engine.cli import main
from engine.game import load_game

ROOT = Path(__file__).resolve().parents[1]
TRAPPED = str(ROOT / "scenarios" / "demyansk-1-trapped.toml")


def test_moves_lists_destinations_with_costs_and_why_neighbours_are_blocked(capsys):
    assert main(["moves", TRAPPED, "ger-12-27", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["unit"] == "ger-12-27" and report["phase"] == "german-movement"
    costs = {d["hex"]: d["cost"] for d in report["destinations"]}
    assert costs and all(1 <= c <= report["allowance"] for c in costs.values())
    assert all(b["reason"].startswith(("Demyansk", "prohibited")) for b in report["blocked"])


def test_moves_names_an_unknown_unit(capsys):
    assert main(["moves", TRAPPED, "nobody"]) == 1
    assert "there is no unit 'nobody'" in capsys.readouterr().err


def test_play_needs_a_bot_for_every_side(capsys):
    assert main(["play", TRAPPED, "--bot", "german"]) == 1
    assert "--bot german,soviet" in capsys.readouterr().err


def test_play_runs_scenario_i_to_the_end_and_its_save_replays(capsys, tmp_path):
    save = tmp_path / "trapped.toml"
    assert main(["play", TRAPPED, "--seed", "2", "--bot", "german,soviet", "--save", str(save), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["over"] and report["turns"] == 10 and report["winner"] in ("german", "soviet")
    assert "pocket units with a free line to the west" in report["breakdown"]
    assert load_game(save).hash() == report["state_sha256"]
