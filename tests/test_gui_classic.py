"""A classic scenario with sides of its own naming in the window, offscreen: moves and fights under its rules."""
from __future__ import annotations

from pathlib import Path

import pytest

from playwindow import play_window
from test_gui_play import drag

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "classic-river-crossing.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, SCENARIO, size=(1200, 800), monkeypatch=monkeypatch)
    return win


def test_blue_moves_by_dragging_and_a_refusal_cites_the_scenarios_rule(window, qtbot):
    s, b = window.session, window.board
    assert not window.table_panel.isVisible()
    window.next_phase()
    assert s.state.phase == "Blue movement" and window.phase_bar.label.text().startswith("Turn 1 of 6")
    costs, _ = s.destinations("b-1")
    assert costs[b.parse_hex("A08.07")] == 2.5
    drag(qtbot, window.map_view, b.parse_hex("A03.05"), b.parse_hex("A08.07"))
    assert s.state.units["b-1"].hex == b.parse_hex("A08.07"), window.last_refusal
    drag(qtbot, window.map_view, b.parse_hex("A04.06"), b.parse_hex("A12.06"))     # far beyond its allowance
    assert s.state.units["b-2"].hex == b.parse_hex("A04.06")
    assert window.last_refusal.startswith("Rule 4 (scenario): b-2 cannot reach A12.06")


def test_blue_fights_through_the_battle_panel(window, qtbot):
    s, b = window.session, window.board
    window.next_phase()
    s.play("move b-4 A02.05-A08.07")
    s.play("move b-1 A03.05-A08.08")
    window.next_phase()
    assert s.state.phase == "Blue combat"
    drag(qtbot, window.map_view, b.parse_hex("A08.07"), b.parse_hex("A09.08"))    # tanks onto the bridge guard
    assert window.combat.defender == "r-2" and window.combat.attackers == ["b-4"]
    drag(qtbot, window.map_view, b.parse_hex("A08.08"), b.parse_hex("A09.08"))
    assert window.combat.attackers == ["b-4", "b-1"]
    odds = s.odds("r-2", ["b-4", "b-1"])
    assert odds.label == "+5"           # 10 - 4 = +6 (top +5); river -1 for all across; combined arms +1
    window.declare_battle("r-2", ["b-4", "b-1"])
    assert s.battles()[0].defender == "r-2"
    window.resolve_battle("r-2")
    texts = [e.text for e in s.game.log[-1].events]
    assert texts[0].startswith("rolled ") and texts[1].split()[0] in ("DR", "DS", "DE")


def test_a_game_opened_afterwards_shows_no_battle_of_the_game_before(window, qtbot):
    # the battle panel went on saying "b-1 retreats to ..." of the game before, on a game where nothing was fought
    s = window.session
    window.next_phase()
    s.play("move b-4 A02.05-A08.07")
    s.play("move b-1 A03.05-A08.08")
    window.next_phase()
    window.combat.add_attacker("r-2", "b-4")
    window.combat.show_preparation(s.odds("r-2", ["b-4"]), [])
    window.declare_battle("r-2", ["b-4"])
    window.resolve_battle("r-2")
    assert window.combat.result_label.text()
    window.combat.add_attacker("r-2", "b-1")
    window.combat.show_preparation(s.odds("r-2", ["b-1"]), [])
    assert window.open_file(SCENARIO, ask=False)
    assert window.combat.result_label.text() == "" and window.combat.odds_label.text() == ""
    assert window.combat.defender is None and window.combat.title.text().startswith("Drag your units")
