"""Every refusal names its rule and why, and links to the rules reference; the units that may act are framed;
one line of guidance per phase; old messages go when the game moves on."""
from __future__ import annotations

from pathlib import Path

import pytest

from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"


@pytest.fixture
def window(qtbot, tmp_path):
    win = play_window(qtbot, tmp_path, TRAPPED, size=(1100, 760))
    win.start_new_game(5)
    return win


def piece(win, uid):
    return next((u, h) for u, h in win.session.pieces() if u.id == uid)


def to_phase(win, phase):
    while win.session.state.phase != phase:
        win.phase_bar.next_act.trigger()


def test_picking_a_unit_that_cannot_move_says_which_phase_moves_it_and_cites_the_rule(window):
    unit, h = piece(window, "ger-122-409")
    window.map_view.picked.emit(unit, h)
    assert window.last_refusal.startswith("Demyansk 3: this is the German reinforcement phase")
    assert "moves in the German movement phase (3.4)" in window.last_refusal
    assert "cannot move now" not in window.statusBar().currentMessage()
    assert window.rule_link.isVisibleTo(window) and 'href="rule:Demyansk 3"' in window.rule_link.text()


def test_the_rule_cited_by_a_refusal_opens_the_rules_reference_at_that_rule(window, qtbot):
    to_phase(window, "german-mechanized-movement")
    unit, h = piece(window, "ger-122-409")
    window.map_view.picked.emit(unit, h)
    assert window.last_refusal.startswith("Demyansk 8.4")
    window.rule_link.linkActivated.emit("rule:Demyansk 8.4")
    help_window = window.menus.help_window
    assert help_window is not None and help_window.isVisible()
    assert help_window.page == "rules:Demyansk#demyansk-8.4"
    html = help_window.browser.toHtml()
    assert "Mechanized units" in html and "move in the mechanized phase" in html
    assert "Demyansk Pocket: rules reference" in help_window.windowTitle()


def test_units_that_may_act_are_framed_and_the_phase_gives_its_line_of_guidance(window):
    assert window.map_view.ready_hexes() == set()             # reinforcement phase: nobody on the map acts
    assert window.guide_label.text().startswith("German reinforcements (3.1)")
    to_phase(window, "german-mechanized-movement")
    acting = window.session.units_to_act()
    assert acting and len(acting) < 10
    expected = {h for u, h in window.session.pieces() if u.id in acting}
    assert window.map_view.ready_hexes() == expected and window.map_view.ready_marks.isVisible()
    assert window.guide_label.text().startswith("German mechanized movement (3.2, 8.4): drag")
    to_phase(window, "german-movement")
    assert len(window.map_view.ready_hexes()) > len(expected)
    assert window.guide_label.text() == (window.session.rules.tables.guidance["german-movement"]
                                         + ". Next phase: the Soviet reinforcement phase (3.5).")


def test_a_refusal_is_cleared_when_the_game_moves_on(window):
    unit, h = piece(window, "ger-122-409")
    window.map_view.picked.emit(unit, h)
    assert window.statusBar().currentMessage().startswith("Refused")
    window.phase_bar.next_act.trigger()
    assert not window.statusBar().currentMessage().startswith("Refused") and not window.rule_link.isVisibleTo(window)
    assert window.rule_link.text() == ""


def test_a_refusal_is_cleared_when_a_battle_is_prepared(window):
    to_phase(window, "german-combat")
    attacker = next(iter(window.session.units_to_act()))
    window.map_view.picked.emit(*piece(window, "ger-122-409"))
    assert window.statusBar().currentMessage().startswith("Refused")
    decl = next(a for a in window.session.game.legal_actions() if a.text().startswith("attack ")
                and attacker in a.attackers)
    unit, frm = piece(window, attacker)
    window._dropped(unit, frm, window.session.state.units[decl.defender].hex)
    assert window.combat.attackers == [attacker]
    assert not window.statusBar().currentMessage().startswith("Refused")
