"""File > New game…: the scenario, its variants, the seed and the sides' players, started as the engine starts a game."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.fileio import read_toml
from engine.scenario.newgame import new_game
from gui.play.window import MainWindow
from gui.common.newgame import COMPUTER, ME, NewGameDialog
from gui.table.window import TableWindow
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"
CAMPAIGN = ROOT / "scenarios" / "demyansk-2-campaign.toml"
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"
ODD = "air-supply-odd-faces"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, TRAPPED, monkeypatch=monkeypatch)
    return win


def test_the_dialog_shows_the_scenario_its_variants_sides_and_a_random_seed(qtbot):
    dlg = NewGameDialog(CAMPAIGN, computer={"soviet"})
    qtbot.addWidget(dlg)
    assert "Campaign Game" in dlg.scenario_label.text()
    box = dlg.variant_boxes[ODD]
    assert box.text() == "Air supply on 1, 3 or 5" and not box.isChecked() and "7.2" in box.toolTip()
    assert {s: c.currentData() for s, c in dlg.side_boxes.items()} == {"german": ME, "soviet": COMPUTER}
    other = NewGameDialog(CAMPAIGN)
    qtbot.addWidget(other)
    assert 0 < dlg.seed_box.value() and dlg.seed_box.value() != other.seed_box.value()   # fresh dice each time
    box.setChecked(True)
    dlg.seed_box.setValue(4242)
    dlg.set_played_by("german", COMPUTER)
    c = dlg.choice()
    assert (c.variants, c.seed, c.computer) == ((ODD,), 4242, frozenset({"german", "soviet"}))
    assert Path(c.path) == CAMPAIGN


def test_file_new_game_starts_the_variant_chosen_exactly_as_the_engine_does(window, qtbot, tmp_path):
    window.new_act.trigger()                                 # the game library, the open scenario selected
    library = window.library_dlg
    assert library.isVisible() and library.current_entry().path == TRAPPED
    qtbot.mouseClick(library.choose_button, Qt.LeftButton)
    dlg = window.new_game_dlg
    assert dlg.isVisible() and Path(dlg.offer.path) == TRAPPED               # the open scenario, preselected
    assert window.scenario.name in dlg.scenario_label.text()
    dlg.variant_boxes[ODD].setChecked(True)
    dlg.seed_box.setValue(77)
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    game = window.session.game
    assert (game.seed, game.variants) == (77, (ODD,))
    assert window.session.rules.options["air_supply_faces"] == [1, 3, 5]
    assert game.hash() == new_game(TRAPPED, 77, (ODD,)).hash()
    assert window.computer is None                         # both sides are the player's by default
    window.phase_bar.next_act.trigger()
    assert window.new_game_dialog().variant_boxes[ODD].isChecked()       # offered again for the next game
    assert window.save_game(tmp_path / "g.toml")
    assert read_toml(tmp_path / "g.toml")["variants"] == [ODD]
    again = MainWindow(cache=tmp_path / "cache2", autosave=tmp_path / "a2.toml")
    qtbot.addWidget(again)
    assert again.open_file(tmp_path / "g.toml")
    assert again.session.game.variants == (ODD,) and again.session.game.hash() == game.hash()
    assert again.session.past(0).hash() == new_game(TRAPPED, 77, (ODD,)).hash()    # the log replays with the variant


def test_another_scenario_file_picked_in_the_dialog_is_opened_and_started(window, qtbot):
    dlg = window.new_game_dialog()
    assert dlg.set_scenario(CAMPAIGN)
    dlg.seed_box.setValue(5)
    dlg.accept()
    assert window.scenario.name == "Campaign Game"
    assert window.session.game.scenario_path == str(CAMPAIGN) and window.session.game.seed == 5
    assert window.windowTitle() == "Sandtable — Campaign Game"


def test_a_file_that_is_no_scenario_is_named_and_cannot_be_started(window, tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('[scenario]\nid = "x"\nname = 5\n', "utf-8")
    dlg = window.new_game_dialog()
    assert not dlg.set_scenario(bad)
    assert "broken.toml" in dlg.problem and dlg.choice() is None
    assert not dlg.start_button.isEnabled()
    assert dlg.set_scenario(TRAPPED) and dlg.start_button.isEnabled() and dlg.problem == ""


def test_the_skirmish_window_offers_its_variants_and_who_plays_each_side(qtbot, tmp_path):
    win = TableWindow.open(PLATOON, seed=3)
    qtbot.addWidget(win)
    win.show()
    win.new_act.trigger()
    dlg = win.new_game_dlg
    assert set(dlg.variant_boxes) == {"militia", "player-cards"}
    att, dfn = dlg.side_boxes["attacker"], dlg.side_boxes["defender"]
    # the player leads the attack unless the computer is asked to; the defenders' one decision (laying the cards
    # with the player-cards variant) is the player's unless the computer is asked to take it
    assert (att.currentData(), att.isEnabled(), dfn.currentData(), dfn.isEnabled()) == (ME, True, ME, True)
    assert [dlg.level_box.itemData(i) for i in range(dlg.level_box.count())] == ["baseline", "strong"]
    dlg.variant_boxes["militia"].setChecked(True)
    dlg.seed_box.setValue(9)
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    game = win.session.game
    assert (game.seed, game.variants) == (9, ("militia",))
    assert win.session.rules.scenario.attacker_troops == "militia"
    assert game.hash() == new_game(PLATOON, 9, ("militia",)).hash()
    assert win.turn_label.text() == win.session.turn_text()
    win.session.save(tmp_path / "s.toml")
    assert read_toml(tmp_path / "s.toml")["variants"] == ["militia"]
    again = TableWindow.open(tmp_path / "s.toml")
    qtbot.addWidget(again)
    assert again.session.game.hash() == game.hash() and again.session.rules.scenario.attacker_troops == "militia"
    dlg = again.new_game_dialog()                  # the next new game offers the variants of this one, ticked
    assert dlg.variant_boxes["militia"].isChecked() and not dlg.variant_boxes["player-cards"].isChecked()


def test_rules_no_computer_player_knows_never_show_a_side_as_the_computers(qtbot, monkeypatch):
    # the last game had the computer play the Soviets: rules no computer player knows offer every side to the player
    # alone (a side was shown as the computer's, and the game then said so only once started)
    import engine.computer

    bw4 = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"
    known = NewGameDialog(bw4, computer={"soviet"})      # Black Wednesday (the TCS) has its computer players now
    qtbot.addWidget(known)
    assert {s: c.currentData() for s, c in known.side_boxes.items()} == {"soviet": COMPUTER, "axis": ME}
    assert known.choice().computer == frozenset({"soviet"})
    monkeypatch.setattr(engine.computer, "has_baseline", lambda ruleset: ruleset != "tcs")   # rules it does not know
    dlg = NewGameDialog(bw4, computer={"soviet"})
    qtbot.addWidget(dlg)
    assert {s: c.currentData() for s, c in dlg.side_boxes.items()} == {"soviet": ME, "axis": ME}
    assert all(c.findData(COMPUTER) < 0 and not c.isEnabled() for c in dlg.side_boxes.values())
    assert "no computer player" in dlg.findChild(type(dlg.scenario_label), "no-computer-player").text()
    assert dlg.choice().computer == frozenset()
    dlg.set_scenario(CAMPAIGN)                        # rules the computer knows: offered again, the default kept
    assert {s: c.currentData() for s, c in dlg.side_boxes.items()} == {"german": ME, "soviet": COMPUTER}
    shown = [dlg.sides_layout.itemAt(i).widget() for i in range(dlg.sides_layout.count())]
    assert "no-computer-player" not in [w.objectName() for w in shown if w is not None]
