"""Bad files in the window: named on the command line, opened, or the autosave resumed; a dialog, never a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

import gui.app as app_module
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


class _Shown(list):
    answers: list


@pytest.fixture
def dialogs(monkeypatch):
    """Dialogs the window shows, answered without a person: (kind, title, text); questions answered from ``answers``."""
    shown = _Shown()
    answers = []

    def warning(parent, title, text, *a, **k):
        shown.append(("warning", title, text))
        return QMessageBox.Ok

    def question(parent, title, text, *a, **k):
        shown.append(("question", title, text))
        return answers.pop(0) if answers else QMessageBox.No

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(MainWindow, "_offscreen", lambda self: False)     # as in a real window
    shown.answers = answers
    return shown




@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.resize(1100, 760)
    return win


def hostile(tmp_path) -> Path:
    p = tmp_path / "deep.toml"
    p.write_text("[scenario]\nid = " + "[" * 3000 + "]" * 3000 + "\n")
    return p


def a_saved_game(tmp_path, refused_at: int | None = None) -> Path:
    from engine.scenario.newgame import new_game

    game = new_game(str(SCENARIO), 4)
    for _ in range(4):
        game.play("end")
    p = tmp_path / "game.toml"
    game.save(p)
    if refused_at is not None:
        lines = p.read_text().splitlines()
        ends = [i for i, x in enumerate(lines) if x.strip() == '"end",']
        lines[ends[refused_at]] = '    "move ger-12-27 1715-0101",'
        p.write_text("\n".join(lines) + "\n")
    return p


def test_a_bad_file_on_the_command_line_shows_the_open_dialog(window, dialogs, tmp_path):
    bad = hostile(tmp_path)
    assert not app_module.open_at_start(window, str(bad))
    assert window.isVisible()
    ((kind, title, text),) = dialogs
    assert kind == "warning" and title == f"Cannot open {bad}" and str(bad) in text and "nested too deep" in text


def test_a_log_that_no_longer_replays_offers_the_game_before_the_refused_action(window, dialogs, tmp_path):
    p = a_saved_game(tmp_path, refused_at=2)
    before = p.read_bytes()
    dialogs.answers.append(QMessageBox.Yes)
    window.show()
    assert window.open_file(p)
    ((kind, title, text),) = dialogs
    assert kind == "question" and "no longer replays" in title
    assert "action 3 of the log ('move ger-12-27 1715-0101') is refused" in text and str(p) in text
    assert "after 2 of its 4 actions" in text
    assert len(window.session.game.log) == 2 and window.session.path is None     # Save asks for a new file
    assert "game.toml as it stood before action 3" in window.windowTitle()
    assert p.read_bytes() == before


def test_declining_the_game_before_the_refused_action_opens_nothing(window, dialogs, tmp_path):
    p = a_saved_game(tmp_path, refused_at=0)
    window.show()
    assert not window.open_file(p) and window.session is None
    assert dialogs[0][0] == "question"


def test_a_bad_autosave_is_kept_aside_reported_and_the_default_scenario_opens(window, dialogs, tmp_path, monkeypatch):
    window.autosave.write_text('format = 99\nruleset = "demyansk"\nseed = 1\nactions = []\n')
    monkeypatch.setattr(app_module, "_resume_wanted", lambda win: True)
    assert app_module.open_at_start(window, None)
    ((kind, title, text),) = dialogs
    assert kind == "warning" and "format" in text and "not 99" in text
    kept = [f for f in tmp_path.iterdir() if f.name.startswith("autosave-broken-")]
    assert len(kept) == 1 and "format = 99" in kept[0].read_text() and f"kept as {kept[0]}" in text
    assert window.scenario is not None and window.scenario.path == str(SCENARIO)


def test_an_autosave_whose_log_no_longer_replays_resumes_before_the_refused_action(window, dialogs, tmp_path,
                                                                                  monkeypatch):
    saved = a_saved_game(tmp_path, refused_at=3)
    saved.replace(window.autosave)
    monkeypatch.setattr(app_module, "_resume_wanted", lambda win: True)
    dialogs.answers.append(QMessageBox.Yes)
    assert app_module.open_at_start(window, None)
    assert len(window.session.game.log) == 3
    kept = [f for f in tmp_path.iterdir() if f.name.startswith("autosave-broken-")]
    assert len(kept) == 1 and "1715-0101" in kept[0].read_text()


def test_a_scenario_with_a_unit_off_the_map_is_refused_naming_file_line_and_unit(window, dialogs, tmp_path):
    text = SCENARIO.read_text().replace('map = "../maps/demyansk.toml"',
                                        f'map = "{(ROOT / "maps" / "demyansk.toml").as_posix()}"')
    p = tmp_path / "off.toml"
    p.write_text(text.replace('hex = "1715"', 'hex = "9950"', 1))
    window.show()
    assert not window.open_file(p)
    ((kind, title, text),) = dialogs
    assert kind == "warning" and f"{p}:393: units[0].hex: unit ger-12-27: hex '9950' is off the map" in text


def a_skirmish_save(tmp_path, name="skirmish.toml") -> tuple[Path, list[str]]:
    import random

    from engine.game import Game, load_rules

    scenario = str(ROOT / "scenarios" / "scw-platoon-attack.toml")
    game = Game(load_rules(scenario), 6, scenario)
    pick = random.Random(2)
    for _ in range(5):
        game.play(pick.choice(game.legal_actions()))
    p = tmp_path / name
    game.save(p)
    actions = game.actions_text()
    p.write_text(p.read_text().replace(f'"{actions[3]}"', '"move T1 71.9,0.1"'))    # far beyond any allowance
    return p, actions


def test_a_skirmish_whose_log_no_longer_replays_opens_as_it_stood_before_the_refused_order(window, tmp_path,
                                                                                          monkeypatch):
    from gui.table.window import TableWindow

    asked = []
    monkeypatch.setattr(TableWindow, "ask_yes_no", staticmethod(lambda parent, title, text: asked.append(text) or True))
    p, actions = a_skirmish_save(tmp_path)
    before = p.read_bytes()
    assert window.open_file(p)
    assert "action 4 of the log ('move T1 71.9,0.1') is refused" in asked[0] and str(p) in asked[0]
    assert window.table_window.session.game.actions_text() == actions[:3]
    assert p.read_bytes() == before
    window.table_window.close()


def test_a_refused_skirmish_autosave_is_kept_aside(window, tmp_path, monkeypatch):
    from gui.table.window import TableWindow

    monkeypatch.setattr(TableWindow, "ask_yes_no", staticmethod(lambda parent, title, text: False))
    p, _ = a_skirmish_save(tmp_path, "autosave.toml")
    assert p == window.autosave
    assert not window.open_file(p) and "no longer replays" in window.last_error
    kept = [f for f in tmp_path.iterdir() if f.name.startswith("autosave-broken-")]
    assert len(kept) == 1 and not window.autosave.exists() and "71.9,0.1" in kept[0].read_text()


def a_tcs_scenario(tmp_path, options: str) -> Path:
    text = (ROOT / "scenarios" / "tcs-test.toml").read_text()
    text = text.replace('map = "../maps/tcs-test.toml"', f'map = "{(ROOT / "maps" / "tcs-test.toml").as_posix()}"')
    text = text.replace("[options]\nstacking_units = 3\n", "[options]\n" + options)
    p = tmp_path / "tcs-odd.toml"
    p.write_text(text)
    return p


def test_a_tcs_scenario_naming_an_unknown_game_is_refused_naming_file_key_and_the_known_games(window, dialogs,
                                                                                             tmp_path, capsys):
    from engine.cli import main

    p = a_tcs_scenario(tmp_path, 'game_rules = "kursk"\n')
    expected = f"{p}: options.game_rules: no game has rules called 'kursk' (known games: black_wednesday; \"\" for none)"
    assert main(["validate", str(p)]) == 1
    assert capsys.readouterr().out.strip() == expected
    window.show()
    assert not window.open_file(p)
    ((kind, title, text),) = dialogs
    assert kind == "warning" and expected in text


@pytest.mark.parametrize("line,message", [
    ("stacking_units = -4", "expected a whole number from 1 to 99, got -4"),
    ("smoke_level = 100000000000", "expected a whole number from 1 to 9, got 100000000000"),
    ('spotters = "everyone"', "expected one of 'any', 'fo', got 'everyone'"),
    ("no_smoke_weather = [1, 2]", "expected a list of names (strings of 1 to 200 characters), got [1, 2]"),
    ('full_breaches = [""]', "expected a list of names (strings of 1 to 200 characters), got ['']"),
    ('prep_log = "' + "x" * 2000 + '"', "expected \"historical\" or the name of a Prep Log file beside the scenario, "
                                        "got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… "
                                        "(2,000 characters)"),
])
def test_tcs_option_values_out_of_their_range_are_refused_naming_the_key(tmp_path, line, message):
    from engine.commands.validate import check_file

    p = a_tcs_scenario(tmp_path, line + "\n")
    kind, problems = check_file(str(p))
    key = "options." + line.split(" =")[0]
    assert [(pr.file, pr.key, pr.message) for pr in problems] == [(str(p), key, message)]


def test_a_prep_log_option_naming_a_file_that_is_no_prep_log_is_refused(tmp_path):
    from engine.errors import BadFile
    from engine.game import Game, load_rules

    p = a_tcs_scenario(tmp_path, 'game_rules = "black_wednesday"\nprep_log = "tcs-odd.toml"\n')
    with pytest.raises(BadFile) as e:
        Game(load_rules(str(p)), 1, str(p))
    assert [(pr.file, pr.key) for pr in e.value.problems] == [(str(p), "battalions")]


def test_full_breaches_off_the_map_are_refused_naming_the_first(tmp_path):
    from engine.errors import BadFile
    from engine.game import Game, load_rules

    p = a_tcs_scenario(tmp_path, 'full_breaches = ["Z99.99", "Q1", "A01.01"]\n')
    with pytest.raises(BadFile) as e:
        Game(load_rules(str(p)), 1, str(p))
    assert [str(pr) for pr in e.value.problems] == [
        f"{p}: options.full_breaches: 'Z99.99' is not a hex of the map (nor are 1 more of its ids)"]
