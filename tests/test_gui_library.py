"""The game library (File > New game…, and the first start): every shipped scenario and the user's own, grouped by
game, searched, picked into the New game dialog; the How to play pages it and Help lead to; distinct titles."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths, Qt, QUrl

from engine.errors import BadFile
from engine.fileio import read_toml
from engine.scenario.catalog import read_entry
from engine.scenario.newgame import new_game
from gui import app as app_module
from gui.help.howto import GETTING_STARTED, HOW_TO_PLAY, how_to_play_page
from gui.help.reference import read_reference, reference_html
from gui.play.library import GameLibrary
from gui.play.window import MainWindow

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
CAMPAIGN = ROOT / "scenarios" / "demyansk-2-campaign.toml"
# what a page written for players never shows: the program's files, modules, keys and tests
SOURCE = re.compile(r"engine/|gui/|tests?/|scenarios/|docs/|\.py\b|\.toml\b|`|::|\b[a-z]+_[a-z_]+\b")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh home: no documents, no data, no recent files."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


@pytest.fixture
def window(qtbot, tmp_path, home):
    win = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    win.resize(1100, 760)
    return win


def documents() -> Path:
    docs = QStandardPaths.writableLocation(QStandardPaths.DocumentsLocation)
    return Path(docs) / "Sandtable"


def test_the_library_lists_every_shipped_scenario_under_its_game(qtbot, home):
    lib = GameLibrary()
    qtbot.addWidget(lib)
    listed = {e.path.resolve(): e for e in lib.visible_entries()}
    assert set(listed) == {p.resolve() for p in SCENARIOS}
    tops = {lib.tree.topLevelItem(i).text(0): lib.tree.topLevelItem(i) for i in range(lib.tree.topLevelItemCount())}
    assert list(tops)[:4] == ["Demyansk Pocket", "Black Wednesday", "Leros", "Spanish Civil War skirmish"]
    for p in SCENARIOS:                           # each under the game its file names, with what the file says
        head = read_toml(p)["scenario"]
        e = listed[p.resolve()]
        top = tops[head.get("game", "")]
        assert e in [top.child(j).data(0, Qt.UserRole) for j in range(top.childCount())]
        assert (e.title, e.situation) == (head["name"], head["text"]) and e.playing_text and e.turns and e.sides
    trapped = listed[(ROOT / "scenarios" / "demyansk-1-trapped.toml").resolve()]
    assert (trapped.sides, trapped.turns_text, trapped.playing_text, trapped.ruleset_text) == \
        (("German", "Soviet"), "10 turns", "1.5-3 hours", "Demyansk Pocket rules")
    demyansk = tops["Demyansk Pocket"]             # the game's own rules first, the default scenario selected
    assert [demyansk.child(j).text(0) for j in range(demyansk.childCount())] == \
        ["Trapped!", "Campaign Game", "Trapped! (classic rules)"]
    assert lib.current_entry() == trapped
    assert tops["Black Wednesday"].child(3).text(0) == "3c: The Campaign (from Assault the Line)"   # under its game
    bw3c = listed[(ROOT / "scenarios" / "black-wednesday-3c-campaign.toml").resolve()]
    assert bw3c.turns == 82                        # the rulebook's count, from the turn track 0600 10 Feb-1700 11 Feb
    lib.select_title("Campaign Game")
    text = lib.details.toPlainText()
    for words in ("Campaign Game", "Demyansk Pocket", "German, Soviet", "18 turns", "3-6 hours", "Demyansk 9.3",
                  "victory points decide"):
        assert words in text


def test_search_narrows_the_list_and_clearing_it_brings_everything_back(qtbot, home):
    lib = GameLibrary()
    qtbot.addWidget(lib)
    qtbot.keyClicks(lib.search, "leros campaign")
    assert [e.title for e in lib.visible_entries()] == ["Leros campaign C1 (from The Curtain Rises)",
                                                        "Leros campaign C4 (from The Big Show)",
                                                        "Leros campaign C5 (from The Curtain Falls)"]
    assert lib.count_label.text() == f"3 of {len(SCENARIOS)} scenarios and saved games, in 1 game(s)"
    lib.search.setText("krasni bor")                  # a place, in titles and situations
    assert {e.game for e in lib.visible_entries()} == {"Black Wednesday"} and len(lib.visible_entries()) == 3
    lib.search.setText("classic")                      # a kind of rules
    assert {e.title for e in lib.visible_entries()} == {"River Crossing", "Trapped! (classic rules)"}
    lib.search.setText("no such game anywhere")
    assert lib.visible_entries() == [] and not lib.choose_button.isEnabled()
    assert "No scenario matches" in lib.details.toPlainText()
    lib.search.clear()
    assert len(lib.visible_entries()) == len(SCENARIOS) and lib.choose_button.isEnabled()


def test_picking_demyansk_ii_in_the_library_opens_new_game_on_it_and_starts_it_against_the_computer(window, qtbot):
    window.show()
    window.new_act.trigger()
    lib = window.library_dlg
    assert lib.isVisible() and window.scenario is None
    qtbot.keyClicks(lib.search, "demyansk")
    assert lib.select_title("Campaign Game")
    qtbot.mouseClick(lib.choose_button, Qt.LeftButton)
    assert not lib.isVisible()
    dlg = window.new_game_dlg
    assert dlg.isVisible() and Path(dlg.offer.path) == CAMPAIGN and "Campaign Game" in dlg.scenario_label.text()
    dlg.set_played_by("soviet", "computer")
    dlg.seed_box.setValue(12)
    window.computer_step_ms = 10 ** 7                 # the computer waits: the test only checks who plays
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    assert window.scenario.path == str(CAMPAIGN) and window.session.game.seed == 12
    assert window.computer is not None and set(window.computer.sides) == {"soviet"}
    assert window.session.game.hash() == new_game(CAMPAIGN, 12).hash()
    window.new_act.trigger()                          # again: the game in progress is the one selected
    assert window.library_dlg.current_entry().path == CAMPAIGN
    window.library_dlg.reject()
    assert window.scenario.path == str(CAMPAIGN)       # Cancel changes nothing


def test_the_first_start_shows_the_library_and_later_starts_show_it_on_the_last_game(window, qtbot, tmp_path):
    assert app_module.open_at_start(window, None)
    lib = window.library_dlg
    assert lib.isVisible() and lib.windowTitle().startswith("Welcome to Sandtable")
    assert window.scenario is None and "File > New game" in window.guide_label.text()
    lib.select_title("River Crossing")
    lib.choose()
    window.new_game_dlg.accept()
    assert window.scenario.name == "River Crossing" and window.recent_files()
    again = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave2.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(again)
    assert app_module.open_at_start(again, None)        # a game was open before: the library on it, no fresh game
    lib = again.library_dlg
    assert lib.isVisible() and not lib.windowTitle().startswith("Welcome") and again.scenario is None
    assert lib.current_entry().path.name == "classic-river-crossing.toml"
    assert again.recent_files()[0].name == "classic-river-crossing.toml"     # Open recent still starts with the
    assert app_module.default_file().name not in [p.name for p in again.recent_files()]  # user's game
    lib.reject()
    # the Demyansk campaign played to turn 2, saved, the program quit: the next start offers to continue it
    saved = tmp_path / "my-campaign.toml"
    game = new_game(CAMPAIGN, 7)
    game.play("end")
    game.save(saved)
    assert again.open_file(saved)
    later = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave4.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(later)
    assert app_module.open_at_start(later, None)
    lib = later.library_dlg
    assert lib.current_entry().path == saved and lib.choose_button.text() == "Continue this game"
    qtbot.mouseClick(lib.choose_button, Qt.LeftButton)
    assert later.session.path == saved and len(later.session.game.log) == 1
    third = MainWindow(cache=tmp_path / "tiles", autosave=tmp_path / "autosave3.toml", recent=tmp_path / "none.toml")
    qtbot.addWidget(third)
    assert app_module.open_at_start(third, str(CAMPAIGN))      # ``sandtable FILE`` opens FILE, first start or not
    assert third.scenario.path == str(CAMPAIGN) and getattr(third, "library_dlg", None) is None


def test_the_users_scenarios_and_saved_games_are_listed_with_their_game_and_a_saved_game_continues(window, qtbot):
    folder = documents()
    folder.mkdir(parents=True)
    game = new_game(ROOT / "scenarios" / "classic-river-crossing.toml", 5)
    game.play("end")
    game.save(folder / "my-crossing.toml")
    own = folder / "mine" / "my-trapped.toml"
    own.parent.mkdir()
    text = (ROOT / "scenarios" / "demyansk-1-trapped.toml").read_text("utf-8")
    own.write_text(text.replace('name = "Trapped!"', 'name = "Trapped, my way"').replace(
        'map = "../maps/demyansk.toml"', f'map = "{(ROOT / "maps" / "demyansk.toml").as_posix()}"'), "utf-8")
    (folder / "notes.toml").write_text('[other]\nx = 1\n', "utf-8")              # neither: not listed
    (folder / "broken.toml").write_text('[scenario\nname = "x"', "utf-8")       # listed with its problem
    window.show()
    window.new_act.trigger()
    lib = window.library_dlg
    entries = {e.path.name: e for e in lib.visible_entries()}
    assert "notes.toml" not in entries and entries["broken.toml"].problem
    assert entries["my-trapped.toml"].game == "Demyansk Pocket" and not entries["my-trapped.toml"].shipped
    saved = entries["my-crossing.toml"]
    assert saved.saved and saved.game == "River Crossing" and "1 action(s)" in saved.saved_text
    assert lib.select_title(saved.title) and lib.choose_button.text() == "Continue this game"
    lib.search.setText("my-trapped")                       # a file name finds it too
    assert [e.path.name for e in lib.visible_entries()] == ["my-trapped.toml"]
    assert lib.tree.currentItem().text(0) == "Trapped, my way (yours)"
    lib.search.clear()
    lib.select_title(saved.title)
    qtbot.mouseClick(lib.choose_button, Qt.LeftButton)
    assert window.session.path == folder / "my-crossing.toml" and len(window.session.game.log) == 1


def test_how_to_play_pages_exist_for_each_kind_of_game_and_speak_to_players(window, qtbot):
    kinds = {read_entry(p).how_to_play for p in SCENARIOS}
    assert kinds == set(HOW_TO_PLAY) == {"demyansk", "classic", "skirmish", "tcs"}
    for page in [GETTING_STARTED] + [how_to_play_page(k) for k in kinds]:
        text = " ".join(page.read_text("utf-8").split())
        assert not SOURCE.search(text), (page.name, SOURCE.search(text).group(0))
        for words in ("Undo", "Save game"):            # what a turn asks, and how to take back and save
            assert words in text, (page.name, words)
    tcs = " ".join(how_to_play_page("tcs").read_text("utf-8").split())
    for words in ("Op Sheet", "Move or Fire mode", "Printed chart", "Enter this result", "chart book",
                  "Next step", "Implement", "Place mission", "right-click"):
        assert words in tcs
    window.show()
    window.new_act.trigger()
    lib = window.library_dlg
    lib.select_title("Leros 4: The Big Show")
    assert lib.howto_button.text() == "How to play a TCS game"
    qtbot.mouseClick(lib.howto_button, Qt.LeftButton)
    help_window = window.menus.help_window
    assert help_window.isVisible() and help_window.page.endswith("how-to-play-tcs.md")
    assert help_window.windowTitle() == "Sandtable help — How to play a TCS game"
    assert "Op Sheets" in help_window.browser.toPlainText()
    assert "Rules reference: Leros" in lib.details.toPlainText()
    lib.details.anchorClicked.emit(QUrl("rules:Leros"))   # the link beside How to play, clicked
    assert help_window.page.startswith("rules:Leros") and "Leros: rules reference" in help_window.browser.toPlainText()
    howto_menu = window.menus.how_to_play_menu
    assert [a.text() for a in howto_menu.actions()] == [title for title, _ in HOW_TO_PLAY.values()]
    howto_menu.actions()[0].trigger()
    assert help_window.page.endswith("how-to-play-demyansk.md")
    window.menus.show_document(GETTING_STARTED)                 # Getting started leads to each page
    help_window.browser.anchorClicked.emit(QUrl("how-to-play-tcs.md#the-owners-chart-book"))
    assert help_window.page.endswith("how-to-play-tcs.md")


def test_the_rules_references_speak_to_players_and_refusals_still_find_their_rule(window):
    for game in read_reference():
        text = reference_html(game)
        plain = re.sub(r"<[^>]+>", " ", text)
        assert not re.search(r"engine/|tests/|scenarios/|\.py\b|\.toml\b|test_\w+|State\.|\[options\]", plain), \
            (game.game, re.search(r"engine/|tests/|scenarios/|\.py\b|\.toml\b|test_\w+|State\.|\[options\]",
                                  plain).group(0))
    assert window.show_rule("Black Wednesday 1.4a")
    text = window.menus.help_window.browser.toPlainText()
    assert "only Fully Breached wire hexes are entered" in text and "Black Wednesday: rules reference" in text
    assert window.show_rule("Leros 2.7")
    assert "free set-up" in window.menus.help_window.browser.toPlainText()


def test_shipped_titles_are_distinct_even_cut_short_and_the_list_shows_the_whole_title_on_hovering(qtbot, home):
    titles = [read_toml(p)["scenario"]["name"] for p in SCENARIOS]
    assert len(set(titles)) == len(titles)
    assert len({t[:20] for t in titles}) == len(titles)          # what a narrow list keeps of each
    lib = GameLibrary()
    qtbot.addWidget(lib)
    for item in lib.items():
        e = item.data(0, Qt.UserRole)
        assert item.toolTip(0).splitlines()[0] == e.title


@pytest.mark.parametrize("value, words", [("long", "expected a number of minutes"), ([90, 60], "the least time first"),
                                          ([0, 30], "between 1 and"), ([30, 60, 90], "expected a number of minutes")])
@pytest.mark.parametrize("name", ["classic-river-crossing.toml", "tcs-test.toml", "scw-platoon-attack.toml"])
def test_a_wrong_playing_time_is_refused_naming_the_file_and_key(tmp_path, name, value, words):
    from engine.game import load_rules

    text = (ROOT / "scenarios" / name).read_text("utf-8")
    text = re.sub(r"^playing_minutes = .*$", f"playing_minutes = {value!r}".replace("'", '"'), text, count=1,
                  flags=re.M)
    for rel in re.findall(r'"(\.\./maps/[^"]+)"', text):
        text = text.replace(rel, (ROOT / "maps" / Path(rel).name).as_posix())
    bad = tmp_path / name
    bad.write_text(text, "utf-8")
    with pytest.raises(BadFile) as e:
        load_rules(str(bad))
    assert any(p.key == "scenario.playing_minutes" and words in p.message and p.file == str(bad)
               for p in e.value.problems), e.value.problems


def test_a_saved_game_lists_its_own_turn_and_says_who_the_computer_plays(window, qtbot):
    """The Demyansk campaign saved at turn 2 against the computer: the Turns column says turn 2 (not the
    scenario's 18 turns), and the details say the turn as the game shows it and the side the computer plays."""
    from engine.computer import ComputerSides

    folder = documents()
    folder.mkdir(parents=True)
    game = new_game(CAMPAIGN, 7)
    while game.state.turn < 2:
        game.play("end")
    game.computer = ComputerSides(("soviet",))
    game.save(folder / "campaign-turn2.toml")
    window.show()
    window.new_act.trigger()
    lib = window.library_dlg
    saved = next(e for e in lib.visible_entries() if e.path.name == "campaign-turn2.toml")
    assert lib.select_title(saved.title)
    item = lib.tree.currentItem()
    assert item.text(1) == "turn 2 of 18"
    details = lib.details.toPlainText()
    assert "Turn\nTurn 2 of 18 — German reinforcement\n" in details and "Computer plays\nSoviet\n" in details
    qtbot.mouseClick(lib.choose_button, Qt.LeftButton)
    assert window.session.turn_text() == "Turn 2 of 18 — German reinforcement"    # as the game itself shows it
    assert window.computer is not None and set(window.computer.sides) == {"soviet"}


def test_the_library_offers_to_import_a_vassal_module(window, qtbot, monkeypatch):
    # a newcomer with a VASSAL module met only the shipped games at the first start: the import was in the File menu
    asked = []
    monkeypatch.setattr(window, "import_vassal", lambda module=None: asked.append(module) or True)
    window.show()
    window.new_act.trigger()
    lib = window.library_dlg
    assert lib.import_button.isVisible() and "VASSAL" in lib.import_button.text()
    qtbot.mouseClick(lib.import_button, Qt.LeftButton)
    assert asked == [None] and not lib.isVisible()


def test_a_saved_tcs_game_lists_its_turn_as_the_game_shows_it(tmp_path):
    """A TCS game counts its turns from 0 and shows them from 1: saved in its third turn (1040 10 Feb, "Turn 3 of
    18" in the clock panel) the library said "turn 2", and "turn 0" for a game saved in its first turn."""
    from engine.game import Game
    from engine.rulesets.tcs import rules_for_path

    scenario = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"
    game = Game(rules_for_path(scenario), 4, str(scenario))
    game.state.turn = 2                      # where the game stands is all the library reads of a save's head
    game.save(tmp_path / "bw4.toml")
    entry = read_entry(tmp_path / "bw4.toml")
    assert game.rules.turn_info(game.state)["turn"] == 3
    assert (entry.saved_turn, entry.saved_turn_short) == ("Turn 3 of 18", "turn 3 of 18")
