"""The map commands: ``validate``, ``hex``, ``bench load``; and the documented example map."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.maps.mapfile import dumps_map, load_map

DOC = Path(__file__).resolve().parent.parent / "docs" / "map-format.md"


@pytest.fixture
def example_map(tmp_path) -> Path:
    """The complete example of docs/map-format.md, with its two images."""
    block = re.search(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    for name in ("crossroads-a.png", "crossroads-b.png"):
        (tmp_path / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    p = tmp_path / "crossroads.toml"
    p.write_text(block, encoding="utf-8")
    return p


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the documented example

def test_documented_example_loads_and_is_in_saved_form(example_map):
    board = load_map(example_map)
    assert len(board.hexes()) == 21
    assert dumps_map(board) == example_map.read_text(encoding="utf-8")


def test_documented_example_obstacle_is_at_sheet_b_first_hex(example_map):
    board = load_map(example_map)
    (ob,) = board.obstacles
    cx, cy = board.center(board.parse_hex("B01.01"))
    assert ob.points[0] == pytest.approx((cx, cy), abs=1e-3)


# ---------------------------------------------------------------- validate

def test_validate_valid_map_exits_0(capsys, example_map):
    code, out, _ = run_cli(capsys, "validate", str(example_map))
    assert code == 0          # the example leaves one hex without terrain on purpose: a warning, as in Check map
    assert out == f"{example_map}: warning: terrain: B03.03 has no terrain\n{example_map}: ok (map), 1 warning(s)\n"
    code, out, _ = run_cli(capsys, "validate", "--json", str(example_map))
    assert code == 0
    assert [json.loads(x) for x in out.splitlines()] == [
        {"file": str(example_map), "key": "terrain", "message": "B03.03 has no terrain", "ok": True, "warning": True},
        {"file": str(example_map), "ok": True, "kind": "map"}]


def test_validate_and_check_map_agree_on_problems_and_warnings(capsys, tmp_path):
    from engine.maps.mapedit import SheetSpec, add_box, check_map, new_board
    from engine.maps.mapfile import save_map

    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    b = new_board("One", "flat", [SheetSpec("A", str(tmp_path / "a.png"), 4, 3)])
    b.terrain.pop(b.parse_hex("A01.01"))
    add_box(b, "A02.01", "dead pile")                 # a box named like a hex: an id naming two places
    save_map(b, tmp_path / "two.toml")
    findings = check_map(load_map(tmp_path / "two.toml"))
    problems = [f.message for f in findings if f.severity == "problem"]
    warnings = [f.message for f in findings if f.severity == "warning"]
    assert problems == ["box 'A02.01' has the id of hex A02.01"] and warnings == ["A01.01 has no terrain"]
    code, out, _ = run_cli(capsys, "validate", str(tmp_path / "two.toml"))
    assert code == 1
    lines = out.splitlines()
    assert [x.split(": sheets: ", 1)[1] for x in lines if ": sheets: " in x] == problems
    assert [x.split(": warning: terrain: ", 1)[1] for x in lines if ": warning: " in x] == warnings


def test_validate_reports_each_problem_with_file_line_and_key(capsys, example_map, tmp_path):
    text = example_map.read_text()
    misspelt = tmp_path / "misspelt.toml"
    misspelt.write_text(text.replace("cols = 4\nrows = 3\nshifted", "colls = 4\nrows = 3\nshifted", 1))
    bad_code = tmp_path / "code.toml"
    bad_code.write_text(text.replace('"cwcc",', '"cwcQ",'))
    code, out, _ = run_cli(capsys, "validate", str(example_map), str(misspelt), str(bad_code))
    assert code == 1
    assert out.splitlines() == [
        f"{example_map}: warning: terrain: B03.03 has no terrain",
        f"{example_map}: ok (map), 1 warning(s)",
        f"{misspelt}:18: sheets[0].colls: unknown key (did you mean 'cols'? expected one of id, image, "
        "numbering, first_col, first_row, cols, rows, shifted, row_direction, origin, transform, col_digits, row_digits, vassal)",
        f"{misspelt}:12: sheets[0]: missing key 'cols'",
        f"{bad_code}:39: terrain.A.rows[1]: unknown terrain code 'Q' at column 4 (A04.02; legend has c, r, w)",
    ]
    code, out, _ = run_cli(capsys, "validate", "--json", str(misspelt), str(bad_code))
    assert code == 1
    problems = [json.loads(x) for x in out.splitlines()]
    assert [(p["file"], p["key"], p["line"]) for p in problems] == [
        (str(misspelt), "sheets[0].colls", 18), (str(misspelt), "sheets[0]", 12),
        (str(bad_code), "terrain.A.rows[1]", 39)]
    assert all(p["ok"] is False for p in problems)


def test_validate_names_the_kinds_of_file_it_expects(capsys, tmp_path):
    other = tmp_path / "other.toml"
    other.write_text('title = "not a map"\n')
    broken = tmp_path / "broken.toml"
    broken.write_text("[map\n")
    code, out, _ = run_cli(capsys, "validate", str(other), str(broken), str(tmp_path / "none.toml"))
    assert code == 1
    assert f"{other}: not a file this program knows: expected a map file (with a [map] table), " \
           f"a scenario file (with a [scenario] table), a gridless table (with a [table] table), " \
           f"a saved game (with format, seed and actions), a chart slot file " \
           f"([[chart]] tables) or a chart book ([charts.\"<chart id>\"] tables)" in out
    assert f"{broken}:1: not valid TOML" in out
    assert f"{tmp_path / 'none.toml'}: file not found" in out


def test_validate_hands_scenario_files_to_the_scenario_loader(capsys, tmp_path):
    bad = tmp_path / "scenario.toml"
    bad.write_text('[scenario]\nid = "x"\nname = 3\n')
    code, out, _ = run_cli(capsys, "validate", "--json", str(bad))
    assert code == 1
    problems = [json.loads(x) for x in out.splitlines()]
    assert problems and all(p["file"] == str(bad) for p in problems)
    assert any(p["key"].startswith("scenario") for p in problems)


# ---------------------------------------------------------------- hex

def test_hex_command_text_for_a_shared_hex(capsys, example_map):
    code, out, _ = run_cli(capsys, "hex", str(example_map), "B01.01")
    assert code == 0
    assert out == (
        "A04.01 (also B01.01)\n"
        "  axial      q=3 r=-1\n"
        "  sheets     A, B\n"
        "  terrain    rough\n"
        "  elevation  30 m\n"
        "  features   -\n"
        "  areas      -\n"
        "  road       to B02.01, A03.01\n"
        "  neighbours\n"
        "    B02.01   road link\n"
        "    A03.01   road link\n"
        "    A03.02\n"
        "    A04.02\n"
    )


def test_hex_command_json(capsys, example_map):
    code, out, _ = run_cli(capsys, "hex", str(example_map), "A01.02", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["id"] == "A01.02" and d["ids"] == ["A01.02"]
    assert d["axial"] == [0, 1]
    assert d["terrain"] == "clear" and d["elevation"] == 0.0
    assert d["features"] == [] and d["areas"] == []
    by_id = {n["id"]: n for n in d["neighbours"]}
    assert set(by_id) == {"A01.01", "A02.01", "A02.02", "A01.03"}
    assert by_id["A01.01"]["hexside"] == ["river"]
    assert by_id["A02.02"]["lines"] == ["start line"]
    code, out, _ = run_cli(capsys, "hex", str(example_map), "A02.02", "--json")
    assert json.loads(out)["areas"] == ["Krasni Bor"]


def test_hex_command_refuses_off_map_and_malformed_ids(capsys, example_map):
    code, _, err = run_cli(capsys, "hex", str(example_map), "A09.01")
    assert code == 1
    assert err == f"{example_map}: hex 'A09.01' is off the map (sheet A: 'A09.01' is off the sheet (columns 1-4, rows 1-3))\n"
    code, out, _ = run_cli(capsys, "hex", str(example_map), "nonsense", "--json")
    assert code == 1
    assert json.loads(out) == {"file": str(example_map),
                               "error": "'nonsense' is not a hex id of this map (ids look like A01.01, B01.01)"}


def test_hex_command_on_a_bad_file_names_the_problem(capsys, tmp_path):
    code, _, err = run_cli(capsys, "hex", str(tmp_path / "none.toml"), "A01.01")
    assert code == 1
    assert err == f"{tmp_path / 'none.toml'}: file not found\n"


# ---------------------------------------------------------------- bench

def test_bench_load_prints_medians(capsys):
    code, out, _ = run_cli(capsys, "bench", "load", "--json", "--repeat", "1")
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    generated = rows[-1]
    assert generated["hexes"] == 3 * 35 * 68 - 2 * 68
    assert generated["map_load_ms"] > 0 and generated["repeat"] == 1
    if len(rows) == 2:
        assert rows[0]["map"] == "maps/demo.toml" and rows[0]["hexes"] > 0


def test_bench_unknown_benchmark(capsys):
    code, _, err = run_cli(capsys, "bench", "nothing")
    assert code == 1
    assert "no benchmark 'nothing' (there are: " in err and "load" in err


def test_validate_hands_gridless_tables_to_the_table_loader(capsys, tmp_path):
    shipped = Path(__file__).resolve().parent.parent / "maps" / "scw-table.toml"
    code, out, _ = run_cli(capsys, "validate", "--json", str(shipped))
    assert code == 0
    assert json.loads(out) == {"file": str(shipped), "ok": True, "kind": "table"}
    bad = tmp_path / "table.toml"
    bad.write_text('[table]\nwidth = "wide"\n')
    code, out, _ = run_cli(capsys, "validate", "--json", str(bad))
    assert code == 1
    problems = [json.loads(x) for x in out.splitlines()]
    assert problems and all(p["file"] == str(bad) and p["ok"] is False for p in problems)
    assert any(p["key"] == "table.width" for p in problems)
