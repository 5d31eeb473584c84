"""The victory dock in the play window, offscreen: each condition's standing now, refreshed after every action and undo."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    w = play_window(qtbot, tmp_path, size=(1200, 800), monkeypatch=monkeypatch)
    return w


def figures(dock, row: int) -> dict[str, str]:
    """The figures of one condition as the dock shows them (a table: each label's line, then its value's)."""
    lines = dock.text().splitlines()
    out = {}
    for label, _ in dock.standings[row].figures:
        if label != "line":
            out[label] = lines[lines.index(label) + 1]
    return out


def test_scenario_i_shows_the_open_line_condition_as_it_stands(win):
    assert win.open_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    s = win.session
    [standing] = s.rules.standing(s.state)
    assert win.victory.rows() == [("Open line to the west", "Demyansk 9.2", standing.leader)]
    f = figures(win.victory, 0)
    assert f["pocket units on the map"] == dict(standing.figures)["pocket units on the map"]
    assert f["judged"] == "at the end of turn 10 (now turn 1)"
    assert standing.summary in win.victory.text()
    assert f"{s.scenario.sides[standing.leader].name} holds it now" in win.victory.text()   # "Soviet", not "soviet"
    assert "Soviet holds it now" in win.victory.text()


def test_scenario_ii_points_follow_a_battle_and_its_undo(win, qtbot):
    assert win.open_file(ROOT / "scenarios" / "demyansk-2-campaign.toml")
    assert win.start_new_game(7)      # seed 7: the first German battle is an exchange (EX) that costs the attacker
    s = win.session
    while s.state.phase != "german-combat":
        win.phase_bar.next_act.trigger()
    before = figures(win.victory, 0)
    assert win.victory.rows()[0][:2] == ("Victory points", "Demyansk 9.3")
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    win.declare_battle(declare.defender, list(declare.attackers))
    win.resolve_battle(declare.defender)
    after = figures(win.victory, 0)
    key = "Soviet: infantry destroyed (1 each)"
    assert int(after[key]) == int(before[key]) + 1                 # ger-122-410 was destroyed in the exchange
    assert int(after["German: units in or west of the front (2 each)"]) == \
        int(before["German: units in or west of the front (2 each)"]) - 2
    [now] = s.rules.standing(s.state)
    assert now.summary in win.victory.text()
    win.phase_bar.undo_act.trigger()
    assert figures(win.victory, 0) == before


def test_general_conditions_flip_when_the_hex_is_left_and_back_on_undo(win, qtbot, tmp_path):
    from test_reinforcements_variable import MAP, SCENARIO

    path = tmp_path / "hold.toml"
    path.write_text(SCENARIO.format(map=MAP), encoding="utf-8")
    assert win.open_file(path)
    s = win.session
    assert win.victory.rows() == [("hold", "", "german"), ("Verdict if the game ended now", "", "german")]
    while s.state.phase != "german-movement":
        win.phase_bar.next_act.trigger()
    start = s.board.parse_hex("0707")
    costs, _ = s.destinations("g-1")
    to = sorted(costs, key=lambda h: (h.q, h.r))[0]
    from gui.play.session import Refusal

    assert not isinstance(s.move("g-1", start, to), Refusal)
    assert win.victory.rows() == [("hold", "", "nobody"), ("Verdict if the game ended now", "", "soviet")]
    assert figures(win.victory, 1)["level"] == "minor"
    win.phase_bar.undo_act.trigger()
    assert win.victory.rows()[0] == ("hold", "", "german")


def test_a_free_line_is_drawn_on_the_map_when_asked(win, qtbot):
    assert win.open_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    s = win.session
    # clear the Soviet units between the pocket and the west edge: a line opens (a state of the game's own kind)
    from engine.rulesets.demyansk.state import ELIMINATED
    from engine.rulesets.demyansk.zoc import forget

    st = s.state
    for uid, u in st.units.items():
        if s.rules.specs[uid].side == "soviet" and u.status == "map":
            u.status, u.hex = ELIMINATED, None
    forget(st)
    win._show_play()
    [standing] = s.rules.standing(st)
    assert standing.leader == "german" and len(standing.hexes) > 2
    assert win.victory.rows()[0][2] == "german" and win.victory.line_box.isEnabled()
    assert not win.map_view.line_marks.isVisible()
    qtbot.mouseClick(win.victory.line_box, Qt.LeftButton)
    marks = win.map_view.line_marks
    assert marks.isVisible() and [s.board.hex_id(h) for h in marks.hexes] == list(standing.hexes)
    qtbot.mouseClick(win.victory.line_box, Qt.LeftButton)
    assert not marks.isVisible()


def test_a_past_log_entry_shows_the_standing_as_it_was(win, qtbot):
    assert win.open_file(ROOT / "scenarios" / "demyansk-2-campaign.toml")
    assert win.start_new_game(7)
    s = win.session
    while s.state.phase != "german-combat":
        win.phase_bar.next_act.trigger()
    before = figures(win.victory, 0)
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    win.declare_battle(declare.defender, list(declare.attackers))
    win.resolve_battle(declare.defender)
    n = len(s.game.log)
    win.show_past(n - 2)
    assert figures(win.victory, 0) == before and f"(as it stood after action {n - 2})" in win.victory.text()
    win.show_present()
    assert figures(win.victory, 0) != before
