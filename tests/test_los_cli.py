"""``python -m engine los`` and ``viewshed`` on map files: explained answers, clear errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.cli import main
from engine.los.query import line_of_sight
from engine.los.model import SightMap
from engine.maps.mapfile import load_map, save_map

from test_los import open_board

ROOT = Path(__file__).resolve().parent.parent


def small_map(tmp_path) -> Path:
    board = open_board()
    board.terrain[board.parse_hex("A05.04")] = "woods"
    board.features[board.parse_hex("A08.04")] = {"mill"}
    path = tmp_path / "small.toml"
    save_map(board, path)
    return path


def test_los_json_explains_a_blocked_line(tmp_path, capsys):
    path = small_map(tmp_path)
    assert main(["los", str(path), "A05.02", "A05.06", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["result"] == "blocked" and d["range"] == 4
    b = d["blocked_by"]
    assert (b["kind"], b["hex"], b["top"], b["line_height"], b["distance"]) == ("woods", "A05.04", 20.0, 0.0, 1.5)


def test_los_heights_smoke_and_the_mill(tmp_path, capsys):
    path = small_map(tmp_path)
    assert main(["los", str(path), "A05.02", "A05.06", "--observer-height", "60"]) == 0
    assert capsys.readouterr().out.strip() == "A05.02 -> A05.06, range 4: clear"
    assert main(["los", str(path), "A08.02", "A08.06", "--smoke", "A08.03", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["blocked_by"]["kind"] == "smoke"
    assert main(["los", str(path), "A08.04", "A08.08", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["can_see"] is True and d["direct_fire"] is False and d["direct_fire_rule"] == "Black Wednesday 1.1f"


def test_the_edge_rule_from_the_command_line(tmp_path, capsys):
    board = open_board()
    board.terrain[board.parse_hex("A05.05")] = "woods"     # A04.05 -> A06.05 runs along A05.05/A05.06
    path = tmp_path / "edge.toml"
    save_map(board, path)
    assert main(["los", str(path), "A04.05", "A06.05"]) == 0
    assert capsys.readouterr().out.strip().endswith("clear")
    assert main(["los", str(path), "A04.05", "A06.05", "--edge-rule", "either", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["blocked_by"]["hex"] == "A05.05/A05.06"


def test_viewshed_command(tmp_path, capsys):
    path = small_map(tmp_path)
    assert main(["viewshed", str(path), "A05.02", "--json", "--visibility", "2"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["from"] == "A05.02" and "A05.04" in d["visible"] and "A05.05" not in d["visible"]
    assert d["count"] == len(d["visible"])


def test_bad_input_gives_a_clear_message_and_no_traceback(tmp_path, capsys):
    path = small_map(tmp_path)
    assert main(["los", str(path), "A05.02", "A99.06"]) == 1
    err = capsys.readouterr().err
    assert "A99.06" in err and "off the sheet" in err and "Traceback" not in err
    assert main(["los", str(tmp_path / "missing.toml"), "A05.02", "A05.06", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["message"] == "file not found"
    rules = tmp_path / "rules.toml"
    rules.write_text('[los]\nedge_rule = "never"\n', encoding="utf-8")
    assert main(["los", str(path), "A05.02", "A05.06", "--rules", str(rules)]) == 1
    err = capsys.readouterr().err
    assert f"{rules}:2: los.edge_rule" in err
    assert main(["los", str(path), "A05.02", "A05.06", "--observer-height", "-3"]) == 1
    assert "--observer-height" in capsys.readouterr().err


def test_the_demo_map_answers_and_agrees_with_the_engine():
    demo = ROOT / "maps" / "demo.toml"
    out = subprocess.run([sys.executable, "-m", "engine", "los", str(demo), "A05.05", "A12.09", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    board = load_map(demo)
    r = line_of_sight(SightMap(board), board.parse_hex("A05.05"), board.parse_hex("A12.09"))
    assert d == json.loads(json.dumps(r.to_dict()))
    assert d["result"] in ("clear", "blocked") and d["range"] == 8
