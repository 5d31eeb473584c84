"""``python -m engine balance`` and ``play --bot strong``: computer players against each other, from the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.game import load_game

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = str(ROOT / "scenarios" / "demyansk-1-trapped.toml")


def test_play_with_the_strong_player_on_one_side_explains_its_moves_and_replays(tmp_path, capsys):
    save = tmp_path / "strong.toml"
    assert main(["play", TRAPPED, "--seed", "3", "--bot", "german=strong,soviet=baseline", "--explain",
                 "--save", str(save), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    report = json.loads(out[-1])
    assert report["over"] and report["players"] == {"german": "strong", "soviet": "baseline"}
    assert report["winner"] in ("german", "soviet")
    explained = [line for line in out[:-1] if "german-" in line and " - " in line]
    assert any("heads for the corridor" in line for line in explained)
    assert load_game(save).hash() == report["state_sha256"]        # the game is its log: it replays


def test_play_names_a_player_it_does_not_know(capsys):
    assert main(["play", TRAPPED, "--bot", "german=clever,soviet"]) == 1
    err = capsys.readouterr().err
    assert "--bot" in err and "no player 'clever'" in err


def test_balance_swaps_sides_reports_wilson_intervals_and_records_each_game(tmp_path, capsys):
    records = tmp_path / "games.jsonl"
    assert main(["balance", TRAPPED, "--games", "2", "--pairing", "baseline-random", "--seed", "5",
                 "--records", str(records), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["games"] == 2 and summary["pairing"] == "baseline-random"
    rows = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [5, 6]
    assert rows[0]["players"] == {"german": "baseline", "soviet": "random"}
    assert rows[1]["players"] == {"german": "random", "soviet": "baseline"}     # sides swapped
    wins = sum(1 for r in rows if r["players"][r["winner"]] == "baseline")
    assert summary["players"]["baseline"]["wins"] == wins
    lo, hi = summary["players"]["baseline"]["ci95"]
    assert 0 <= lo <= wins / 2 <= hi <= 1
    # the records alone give the same report
    assert main(["balance", TRAPPED, "--summarise", str(records), "--json"]) == 0
    again = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert again["players"] == summary["players"] and again["sides"] == summary["sides"]


def test_balance_refuses_an_unknown_pairing(capsys):
    assert main(["balance", TRAPPED, "--pairing", "strong-clever"]) == 1
    assert "--pairing" in capsys.readouterr().err


def test_errors_cross_process_boundaries_with_their_rule_and_problems():
    import pickle

    from engine.errors import BadFile, IllegalAction, Problem

    e = pickle.loads(pickle.dumps(IllegalAction("Demyansk 6.2", "2710 is empty")))
    assert (type(e), e.rule, e.message, str(e)) == (IllegalAction, "Demyansk 6.2", "2710 is empty",
                                                     "Demyansk 6.2: 2710 is empty")
    b = pickle.loads(pickle.dumps(BadFile([Problem("x.toml", "units[0].hex", "off the map")])))
    assert type(b) is BadFile and b.problems[0].key == "units[0].hex"


def test_a_game_that_fails_in_a_worker_is_named_with_its_seed_and_players(monkeypatch):
    from engine.commands import balance
    from engine.errors import IllegalAction, SandtableError
    from engine.players import match

    def refuse(scenario, seed, players):
        raise IllegalAction("Demyansk 6.2", "2710 is empty")
    monkeypatch.setattr(match, "play_game", refuse)
    with pytest.raises(SandtableError, match=r"demo.toml seed 8 \(german strong, soviet strong\): Demyansk 6.2: 2710"):
        balance._one(("demo.toml", 8, {"german": "strong", "soviet": "strong"}))


def test_bots_names_the_pairing_as_the_issue_spells_it(capsys):
    assert main(["balance", TRAPPED, "--games", "2", "--bots", "baseline,random", "--seed", "5", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["pairing"] == "baseline-random" and summary["games"] == 2
    assert main(["balance", TRAPPED, "--bots", "baseline-random"]) == 1
    assert "--bots" in capsys.readouterr().err


def test_balance_plays_a_classic_scenario_with_its_own_sides(capsys):
    river = str(ROOT / "scenarios" / "classic-river-crossing.toml")
    assert main(["balance", river, "--games", "2", "--bots", "baseline,random", "--json"]) == 0
    said = capsys.readouterr()
    summary = json.loads(said.out.splitlines()[-1])
    progress = [json.loads(line) for line in said.err.splitlines()]     # --json: the progress for machines too
    assert [(p["done"], p["games"], p["pairing"]) for p in progress] == [(1, 2, "baseline-random"),
                                                                          (2, 2, "baseline-random")]
    rows = summary["players"]["baseline"]
    assert summary["games"] == 2 and rows["games"] == 2
    assert set(summary["sides"]) == {"blue", "red", "draw"}
    assert sum(v["wins"] for v in summary["sides"].values()) == 2
    # the victory levels the classic rules' conditions give ("blue major"), counted
    assert sum(summary["levels"].values()) == 2
    assert all(k.split()[0] in ("blue", "red", "draw") and (k == "draw" or k.split()[1] in ("minor", "major",
                                                                                           "massive"))
               for k in summary["levels"])


def test_stopping_a_balance_run_stops_its_worker_processes():
    import os
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "engine", "balance", TRAPPED, "--games", "40", "--bots",
                          "strong,strong", "--jobs", "2", "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert json.loads(p.stderr.readline())["done"] == 1          # the workers are playing

        def children():
            out = []
            for pid in os.listdir("/proc"):
                if pid.isdigit():
                    try:
                        stat = open(f"/proc/{pid}/stat").read()
                    except OSError:
                        continue
                    if int(stat.rsplit(")", 1)[1].split()[1]) == p.pid:
                        out.append(int(pid))
            return out
        workers = children()
        assert len(workers) >= 2
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=30)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and any(os.path.exists(f"/proc/{w}") for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if os.path.exists(f"/proc/{w}")]
    finally:
        p.kill()
        p.wait()


def test_balance_names_the_players_a_ruleset_does_not_have(capsys):
    free = str(ROOT / "scenarios" / "free-demo.toml")
    assert main(["balance", free, "--games", "2", "--bots", "random,strong"]) == 1
    err = capsys.readouterr().err
    assert "--bots: strong: the free rules have no strong player (players: baseline, random)" in err
    assert "Traceback" not in err


def test_balance_plays_leros_3_with_the_tcs_players_and_the_owners_book(capsys, tmp_path):
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from leros_book import write_book

    book = write_book(tmp_path)                     # the TEST book (made-up values), as an owner's would be
    leros = str(ROOT / "scenarios" / "leros-3-night-melee.toml")
    assert main(["balance", leros, "--games", "2", "--pairing", "strong-baseline", "--jobs", "1", "--charts",
                 str(book), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out["games"] == 2 and out["pairing"] == "strong-baseline"
    assert out["players"]["strong"]["games"] == 2 and "strong_phase_seconds" in out


def test_balance_refuses_a_missing_chart_book_naming_it(capsys, tmp_path):
    leros = str(ROOT / "scenarios" / "leros-3-night-melee.toml")
    assert main(["balance", leros, "--games", "1", "--charts", str(tmp_path / "none.toml")]) == 1
    err = capsys.readouterr().err
    assert "none.toml" in err and "there is no such chart file" in err and "Traceback" not in err
