"""The skirmish window with the computer at the table: it leads the attack, or lays the defenders' cards, as the
New game dialog asks; its orders are marked in the log with its reasons; a saved game remembers it."""
from pathlib import Path

from PySide6.QtCore import Qt

from engine.fileio import read_toml
from engine.game import replay
from gui.common.newgame import COMPUTER, ME
from gui.table.window import TableWindow

ROOT = Path(__file__).resolve().parent.parent
PLATOON = ROOT / "scenarios" / "scw-platoon-attack.toml"


def start(qtbot, sides: dict, level: str, variants=(), seed=5):
    win = TableWindow.open(PLATOON, seed=3)
    qtbot.addWidget(win)
    win.computer_step_ms = 10 ** 7          # the test plays the computer's orders itself (``step``)
    win.show()
    win.new_act.trigger()
    dlg = win.new_game_dlg
    for side, who in sides.items():
        dlg.set_played_by(side, who)
    for v in variants:
        dlg.variant_boxes[v].setChecked(True)
    dlg.level_box.setCurrentIndex(dlg.level_box.findData(level))
    dlg.seed_box.setValue(seed)
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    return win


def test_the_strong_computer_leads_the_attack_and_the_log_gives_its_reasons(qtbot, tmp_path):
    win = start(qtbot, {"attacker": COMPUTER, "defender": ME}, "strong")
    c = win.computer
    assert c is not None and c.sides == {"attacker"} and c.bot == "strong"
    assert win.pause_act.isEnabled()
    assert "the computer is" in win.turn_label.text()
    for _ in range(4):
        assert c.step()
    lines = win.log_list
    texts = [lines.item(i).text() for i in range(lines.count())]
    assert texts[0].startswith("1. [computer] ") and texts[1].startswith("    why: ")
    assert sum(t.startswith("    why: ") for t in texts) == 4
    win.pause_act.setChecked(True)
    assert not c.step() and "paused" in win.turn_label.text()
    win.session.save(tmp_path / "g.toml")
    doc = read_toml(tmp_path / "g.toml")
    assert doc["computer"]["bot"] == "strong" and doc["computer"]["sides"] == ["attacker"]
    assert doc["computer"]["played"] == [1, 2, 3, 4]
    again = TableWindow.open(tmp_path / "g.toml")
    qtbot.addWidget(again)
    assert again.computer is not None and again.computer.bot == "strong" and again.computer.sides == {"attacker"}
    assert again.session.game.hash() == win.session.game.hash()
    # and its reasons: the reopened log reads as it did
    assert sorted(map(int, doc["computer"]["reasons"])) == [1, 2, 3, 4]
    again_texts = [again.log_list.item(i).text() for i in range(again.log_list.count())]
    assert [t for t in again_texts if t.startswith("    why: ")] == [t for t in texts if t.startswith("    why: ")]
    again.close()
    win.close()


def test_the_computer_lays_the_defenders_cards_then_the_player_attacks(qtbot):
    win = start(qtbot, {"attacker": ME, "defender": COMPUTER}, "baseline", variants=("player-cards",))
    c = win.computer
    assert c.sides == {"defender"} and win.session.state["phase"] == "setup"
    for _ in range(6):
        assert c.step()
    s = win.session.state
    assert s["phase"] == "turn" and all(card["position"] for card in s["cards"].values())
    assert not c.to_play() and not c.step()             # the attack is the player's
    assert win.give("end")
    game = win.session.game
    assert replay(game.rules, game.seed, game.actions_text(), str(PLATOON), game.variants).hash() == game.hash()
    win.close()
