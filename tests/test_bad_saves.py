"""Saved games that are damaged, edited or from elsewhere: each refused with the file, the key and why."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import BadFile
from engine.game import LogRefused, load_game
from engine.scenario.newgame import new_game

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


@pytest.fixture(scope="module")
def saved_text(tmp_path_factory) -> str:
    """A real game of Demyansk I, twelve legal actions in, as saved."""
    game = new_game(str(SCENARIO), 3)
    pick = random.Random(1)
    for _ in range(12):
        game.play(pick.choice(game.legal_actions()))
    path = tmp_path_factory.mktemp("save") / "g.toml"
    game.save(path)
    return path.read_text()


def write(tmp_path, text: str) -> Path:
    p = tmp_path / "game.toml"
    p.write_text(text)
    return p


def refusal(p: Path) -> BadFile:
    with pytest.raises(BadFile) as e:
        load_game(p)
    assert all(pr.file == str(p) for pr in e.value.problems[:1])
    return e.value


def test_the_save_loads_as_written(tmp_path, saved_text):
    assert len(load_game(write(tmp_path, saved_text)).log) == 12


@pytest.mark.parametrize("edit, key, words", [
    (lambda t: t.replace("format = 1", "format = 99"), "format", "not 99 (written by a newer"),
    (lambda t: t.replace('format = 1\n', ''), "format", "missing"),
    (lambda t: t.replace('ruleset = "demyansk"', 'ruleset = "chess"'), "ruleset", "no ruleset called 'chess'"),
    (lambda t: t.replace("state_sha256 =", "state_sha257 ="), "state_sha256", "missing"),
    (lambda t: t.replace("scenario_sha256 =", "scenario_hash ="), "scenario_sha256", "missing"),
    (lambda t: "\n".join(x for x in t.splitlines() if not x.startswith("scenario =")), "scenario", "missing"),
    (lambda t: t.replace("seed = 3", 'seed = "3"'), "seed", "expected int"),
])
def test_an_edited_save_is_refused_naming_file_key_and_line(tmp_path, saved_text, edit, key, words):
    p = write(tmp_path, edit(saved_text))
    problems = {pr.key: pr for pr in refusal(p).problems}
    assert key in problems and words in problems[key].message
    assert problems[key].line is not None or words == "missing"


def test_a_save_under_another_installed_ruleset_than_its_scenario_is_refused(tmp_path, saved_text):
    p = write(tmp_path, saved_text.replace('ruleset = "demyansk"', 'ruleset = "scw"'))
    (pr,) = refusal(p).problems
    assert pr.key == "ruleset" and "'scw'" in pr.message and "'demyansk'" in pr.message


def test_a_move_the_rules_refuse_names_the_action_the_rule_and_keeps_the_game_before_it(tmp_path, saved_text):
    lines = saved_text.splitlines()
    i = next(n for n, x in enumerate(lines) if x.strip().startswith('"move ger-18mot-30'))
    unit = lines[i].split()[1]
    lines[i] = f'    "move {unit} 1109-0101",'          # a hex far beyond its movement allowance
    p = write(tmp_path, "\n".join(lines) + "\n")
    before = p.read_bytes()
    with pytest.raises(LogRefused) as e:
        load_game(p)
    err = e.value
    assert err.index == 4 and err.action == f"move {unit} 1109-0101"
    assert err.rule.startswith("Demyansk") and err.reason
    (pr,) = err.problems
    assert pr.file == str(p) and pr.key == "actions[4]" and pr.line == i + 1
    assert "action 5 of the log" in pr.message and err.rule in pr.message
    assert len(err.before.log) == 4 and err.before.actions_text() == load_game_prefix(saved_text, 4)
    assert p.read_bytes() == before          # the file is never touched


def test_one_corrupted_byte_in_a_move_is_a_refusal_not_a_traceback(tmp_path, saved_text):
    i = saved_text.index('"move ger-sst-1 2510-2509"')
    text = saved_text[:i + 11] + "S" + saved_text[i + 12:]        # "move ger-sSt-1 …": no such unit
    p = write(tmp_path, text)
    with pytest.raises(LogRefused) as e:
        load_game(p)
    assert e.value.index == 2 and len(e.value.before.log) == 2 and "ger-sSt-1" in str(e.value)


def load_game_prefix(text: str, n: int) -> list[str]:
    import tomli

    return tomli.loads(text)["actions"][:n]


def test_a_game_of_a_scenario_named_relative_to_the_current_folder_loads_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    game = new_game("scenarios/demyansk-1-trapped.toml", 2)
    game.play("end")
    save = tmp_path / "saves" / "g.toml"
    game.save(save)
    monkeypatch.chdir(tmp_path)
    assert load_game(save).hash() == game.hash()


LONG = 200_000        # characters: a message quoting one whole would be at least this long


@pytest.mark.parametrize("scenario", ["demyansk-1-trapped", "scw-platoon-attack", "tcs-test", "free-demo",
                                      "classic-river-crossing", "leros-2-drop-zone"])
def test_a_refused_action_of_any_length_is_quoted_as_a_bounded_excerpt(tmp_path, scenario):
    # an action 200,000 characters long (one was 1 MB and quoted whole, twice: 2 MB of output): the refusal says
    # which action and why in a few hundred characters, quoting its start and its length
    import tomli
    import tomli_w

    from engine.game import Game, load_rules

    path = str(ROOT / "scenarios" / f"{scenario}.toml")
    game = Game(load_rules(path), 5, path)
    pick = random.Random(3)
    for _ in range(2):
        game.play(pick.choice(game.legal_actions()))
    saved = tmp_path / "g.toml"
    game.save(saved)
    doc = tomli.loads(saved.read_text())
    legal = [a if isinstance(a, str) else a.text() for a in game.legal_actions()]
    legal = list({a.split()[0]: a for a in legal}.values())[:3]       # one action of each kind, three kinds
    texts = ["x" * LONG, legal[0] + " " + "z" * LONG]
    for long, some in ((LONG, legal), (3000, legal[:1])):     # past the length of any action, and a word within it
        for text in some:
            words = text.split()
            texts += [" ".join(words[:i] + ["y" * long] + words[i + 1:]) for i in range(len(words))]
    for text in dict.fromkeys(texts):
        doc["actions"] = doc["actions"][:2] + [text]
        bad = tmp_path / "long.toml"
        bad.write_text(tomli_w.dumps(doc))
        with pytest.raises(BadFile) as e:
            load_game(bad)
        (problem,) = e.value.problems
        assert problem.key == "actions[2]" and len(str(problem)) < 1500, (text[:60], str(problem)[:3000])
        assert f"({len(text):,} characters)" in problem.message or "characters in all)" in problem.message
