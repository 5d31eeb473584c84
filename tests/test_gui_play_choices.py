"""Pending choices on the map and paths traced while dragging, offscreen in the real window."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from engine.errors import IllegalAction
from playwindow import play_window

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    w = play_window(qtbot, tmp_path, size=(1200, 800), monkeypatch=monkeypatch)
    assert w.open_file(SCENARIO) and w.start_new_game(1)      # fixed dice: the tests below roll them
    return w


def to_phase(w, phase):
    for _ in range(12):
        if w.session.state.phase == phase:
            return
        w.phase_bar.next_act.trigger()
    raise AssertionError(f"never reached {phase}")


def advance_pending(w):
    """Seed 3: the first German battle rolls a 6 at 2:1, a blank cell; DE from the printed chart leaves an advance."""
    assert w.start_new_game(3)
    s = w.session
    to_phase(w, "german-combat")
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    where = {u.id: h for u, h in s.pieces()}
    w.declare_battle(declare.defender, list(declare.attackers))
    odds = s.rules.odds(s.state, declare.defender, declare.attackers)
    assert w.combat.battle_list.item(0).text() == f"{declare.defender} <- {declare.attackers[0]} at {odds.label}"
    w.resolve_battle(declare.defender)
    w.combat.choose.emit("result DE")
    attacker = declare.attackers[0]
    assert s.pending_choices() == [f"advance {attacker}", "advance none"]
    # the eliminated defender is gone from the map (the engine keeps its last hex) and listed in its side's tray
    assert declare.defender not in {u.id for units in w.map_view.stacks.values() for u in units}
    assert declare.defender in w.tray.unit_ids(s.scenario.units[declare.defender].side)
    return s, attacker, where[attacker], where[declare.defender]


def click(qtbot, view, h):
    view.centre_on_hex(h)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(h)))


def test_the_advance_is_lit_on_the_map_and_a_click_on_the_attacker_advances_it(win, qtbot):
    s, attacker, at, vacated = advance_pending(win)
    view = win.map_view
    assert set(view.overlay.costs) == {at, vacated} and view.overlay.isVisible()
    assert "Advance after combat" in win.statusBar().currentMessage()
    view.set_zoom(0.6)
    click(qtbot, view, at)
    assert s.state.units[attacker].hex == vacated and not s.pending_choices()
    assert f"{attacker} advances {s.board.hex_id(at)}-{s.board.hex_id(vacated)}" in win.log_dock.lines()[-1]
    assert not view.overlay.isVisible() and not view.viewer.isVisible()


def test_a_click_on_the_vacated_hex_advances_nobody(win, qtbot):
    s, attacker, at, vacated = advance_pending(win)
    view = win.map_view
    view.set_zoom(0.6)
    click(qtbot, view, vacated)
    assert s.state.units[attacker].hex == at and not s.pending_choices()
    assert win.log_dock.lines()[-1].split(" — ")[0].endswith("advance none")


def test_dragging_the_attacker_into_the_vacated_hex_advances_it(win, qtbot):
    s, attacker, at, vacated = advance_pending(win)
    view = win.map_view
    view.set_zoom(0.6)
    view.centre_on_hex(at)
    vp = view.viewport()
    a, b = view.mapFromScene(view.hex_centre(at)), view.mapFromScene(view.hex_centre(vacated))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(10, 4))
    assert set(view.overlay.costs) == {vacated}               # on pick-up: where it may advance
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    assert s.state.units[attacker].hex == vacated
    assert win.log_dock.lines()[-1].split(" — ")[0].endswith(f"advance {attacker}")


def test_the_battle_panel_still_offers_the_advance_choices(win, qtbot):
    s, attacker, at, vacated = advance_pending(win)
    panel = win.combat
    assert [panel.choice_list.item(i).text() for i in range(panel.choice_list.count())] == \
        [f"advance {attacker}", "advance none"]
    panel.choice_list.setCurrentRow(1)
    qtbot.mouseClick(panel.choose_btn, Qt.LeftButton)
    assert s.state.units[attacker].hex == at and not s.pending_choices()


def _paths(s):
    """(unit, start, a legal path of three hexes, an illegal one to the same legal destination) in this phase."""
    rules, st = s.rules, s.state
    for unit, h in s.pieces():
        if unit.side != "german":
            continue
        costs, _ = s.destinations(unit.id)
        for dest in sorted(costs, key=lambda x: (x.q, x.r)):
            via = [m for m in rules.map.neighbors[h] if dest in rules.map.neighbors[m]]
            good, bad = [], []
            for m in via:
                try:
                    rules.check_path(st, unit.id, [h, m, dest])
                    good.append(m)
                except IllegalAction as e:
                    bad.append((m, e))
            if good and bad:
                return unit, h, [h, good[0], dest], [h, bad[0][0], dest], bad[0][1]
    raise AssertionError("no destination with both a legal and an illegal path of two steps")


def trace(qtbot, view, hexes):
    vp = view.viewport()
    pts = [view.mapFromScene(view.hex_centre(h)) for h in hexes]
    qtbot.mousePress(vp, Qt.LeftButton, pos=pts[0])
    qtbot.mouseMove(vp, pts[0] + QPoint(8, 3))
    for p in pts[1:]:
        qtbot.mouseMove(vp, p)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=pts[-1])


def test_a_drag_follows_the_path_traced_when_it_is_legal(win, qtbot):
    to_phase(win, "german-movement")
    s, view = win.session, win.map_view
    unit, start, good, _, _ = _paths(s)
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    trace(qtbot, view, good)
    assert view.trace == good
    assert s.state.units[unit.id].hex == good[-1]
    ids = "-".join(s.board.hex_id(h) for h in good)
    cost = s.rules.check_path(s.game._before[-1], unit.id, good)
    assert s.game.log[-1].action.text() == f"move {unit.id} {ids}"
    assert f"{unit.id} moves {ids} ({cost} MP)" in win.log_dock.lines()[-1]


def test_an_illegal_traced_path_falls_back_to_the_cheapest_with_the_rule(win, qtbot):
    to_phase(win, "german-movement")
    s, view = win.session, win.map_view
    unit, start, _, bad, why = _paths(s)
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    trace(qtbot, view, bad)
    assert s.state.units[unit.id].hex == bad[-1]                   # the destination is legal: it moved
    frm, to = s.board.hex_id(bad[0]), s.board.hex_id(bad[-1])
    assert s.game.log[-1].action.text() == f"move {unit.id} {frm}-{to}"      # by the cheapest path
    assert win.last_refusal == f"{why.rule}: {why.message}" and why.rule.startswith("Demyansk")
    assert "The path traced is refused" in win.statusBar().currentMessage()


def test_a_loop_in_the_trace_is_cut_out(win, qtbot):
    to_phase(win, "german-movement")
    s, view = win.session, win.map_view
    unit, start, good, _, _ = _paths(s)
    side = next(n for n in s.rules.map.neighbors[start] if n not in good)
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    trace(qtbot, view, [start, side, start, good[1], good[2]])     # out and back, then along the good path
    assert view.trace == good and s.state.units[unit.id].hex == good[-1]


def test_the_trace_is_drawn_while_dragging_and_gone_after(win, qtbot):
    to_phase(win, "german-movement")
    s, view = win.session, win.map_view
    unit, start, good, _, _ = _paths(s)
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    vp = view.viewport()
    pts = [view.mapFromScene(view.hex_centre(h)) for h in good]
    qtbot.mousePress(vp, Qt.LeftButton, pos=pts[0])
    qtbot.mouseMove(vp, pts[0] + QPoint(8, 3))
    qtbot.mouseMove(vp, pts[1])
    assert view.trace_marks.isVisible() and view.trace_marks.hexes == good[:2]
    qtbot.mouseMove(vp, pts[2])
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=pts[2])
    assert not view.trace_marks.isVisible()
