"""Scenarios that cannot be played are refused when loaded, by ``validate`` as by ``play`` and the window."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import BadFile
from engine.game import Game, load_rules

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
MAP = (ROOT / "maps" / "demyansk.toml").as_posix()


def scenario(tmp_path, edit=lambda t: t, name="s.toml") -> Path:
    text = TRAPPED.read_text().replace('map = "../maps/demyansk.toml"', f'map = "{MAP}"')
    p = tmp_path / name
    p.write_text(edit(text))
    return p


def off_the_map(text: str) -> str:
    return text.replace('hex = "1715"', 'hex = "9950"', 1)


def line_of(p: Path, needle: str) -> int:
    return next(i for i, x in enumerate(p.read_text().splitlines(), 1) if needle in x)


def validate(capsys, *files) -> tuple[int, list[dict]]:
    code = main(["validate", "--json", *map(str, files)])
    return code, [json.loads(x) for x in capsys.readouterr().out.splitlines()]


def test_a_unit_on_a_hex_not_on_the_map_is_refused_when_the_scenario_is_loaded(tmp_path):
    p = scenario(tmp_path, off_the_map)
    with pytest.raises(BadFile) as e:
        load_rules(str(p))                        # before any game starts (it used to crash in initial_state)
    (pr,) = e.value.problems
    assert pr.file == str(p) and pr.line == line_of(p, '"9950"') and pr.key == "units[0].hex"
    assert "unit ger-12-27" in pr.message and "'9950' is off the map" in pr.message


def test_validate_refuses_what_play_refuses(tmp_path, capsys):
    off = scenario(tmp_path, off_the_map, "off.toml")
    lost = scenario(tmp_path, lambda t: t.replace(f'map = "{MAP}"', 'map = "no-such-map.toml"'), "lost.toml")
    alien = scenario(tmp_path, lambda t: t.replace('ruleset = "demyansk"', 'ruleset = "chess"'), "alien.toml")
    code, out = validate(capsys, off, lost, alien, scenario(tmp_path, name="fine.toml"))
    assert code == 1
    by_file = {o["file"]: o for o in out}
    assert by_file[str(off)]["key"] == "units[0].hex" and by_file[str(off)]["line"] == line_of(off, '"9950"')
    assert by_file[str(lost)]["key"] == "scenario.map" and "no-such-map.toml' does not exist" in by_file[str(lost)]["message"]
    assert by_file[str(lost)]["line"] == line_of(lost, "no-such-map")
    assert by_file[str(alien)]["key"] == "scenario.ruleset" and "no ruleset called 'chess'" in by_file[str(alien)]["message"]
    assert by_file[str(tmp_path / "fine.toml")]["ok"] is True
    for p in (off, lost, alien):                  # and play says the same
        with pytest.raises(BadFile) as e:
            Game(load_rules(str(p)), 1, str(p))
        assert str(e.value.problems[0]) == str(validate_problem(by_file[str(p)]))


def validate_problem(d: dict) -> str:
    where = d["file"] + (f":{d['line']}" if "line" in d else "")
    return f"{where}: {d['key']}: {d['message']}"


def test_validate_checks_saved_games(tmp_path, capsys):
    from engine.scenario.newgame import new_game

    game = new_game(str(TRAPPED), 5)
    for _ in range(3):
        game.play("end")
    good = tmp_path / "good.toml"
    game.save(good)
    text = good.read_text()
    files = {"newer.toml": text.replace("format = 1", "format = 99"),
             "noscenario.toml": "\n".join(x for x in text.splitlines() if not x.startswith("scenario =")),
             "renamed.toml": text.replace("state_sha256", "state_hash"),
             "alien.toml": text.replace('ruleset = "demyansk"', 'ruleset = "chess"'),
             "refused.toml": text.replace('    "end",\n', '    "move ger-12-27 1715-0101",\n', 1)}
    for name, t in files.items():
        (tmp_path / name).write_text(t)
    code, out = validate(capsys, good, *(tmp_path / n for n in files))
    assert code == 1
    first = {}
    for o in out:
        first.setdefault(Path(o["file"]).name, o)
    assert first["good.toml"] == {"file": str(good), "ok": True, "kind": "save"}
    expected = {"newer.toml": "format", "noscenario.toml": "scenario", "renamed.toml": "state_sha256",
                "alien.toml": "ruleset", "refused.toml": "actions[0]"}
    for name, key in expected.items():
        assert first[name]["ok"] is False and first[name]["key"] == key, first[name]
    assert "action 1 of the log ('move ger-12-27 1715-0101') is refused" in first["refused.toml"]["message"]
