"""Playing in the window, offscreen: phases, dragging a unit under the rules, refusals with their rule, undo/redo."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt

from gui.play.window import MainWindow
from playwindow import drag_from_tray, play_window

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "demyansk-1-trapped.toml"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, SCENARIO, monkeypatch=monkeypatch)
    assert win.session is not None and win.start_new_game(1)      # fixed dice: the tests below roll them
    return win


def to_movement_phase(win) -> None:
    for _ in range(12):
        if win.session.state.phase == "german-movement":
            return
        win.phase_bar.next_act.trigger()
    raise AssertionError(f"never reached the German movement phase ({win.session.state.phase})")


def drag(qtbot, view, frm, to) -> None:
    vp = view.viewport()
    a = view.mapFromScene(view.hex_centre(frm))
    b = view.mapFromScene(view.hex_centre(to))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(10, 4))
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)


def german_unit_that_can_move(win):
    s = win.session
    for unit, h in s.pieces():
        if unit.side != "german":
            continue
        costs, blocked = s.destinations(unit.id)
        if costs and blocked:
            return unit, h, costs, blocked
    raise AssertionError("no German unit with a legal move and a blocked neighbour")


def test_phase_bar_follows_the_game(window):
    assert window.phase_bar.label.text().startswith("Turn 1 of 10")
    before = window.session.state.phase
    window.phase_bar.next_act.trigger()
    assert window.session.state.phase != before
    assert window.phase_bar.label.text() == window.session.turn_text()
    assert window.log_dock.lines()[-1].startswith("1. end")


def test_drag_to_a_legal_hex_moves_and_logs(window, qtbot):
    to_movement_phase(window)
    view = window.map_view
    unit, start, costs, _ = german_unit_that_can_move(window)
    target = max(costs, key=lambda h: (costs[h] or 0, h.q, h.r))
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    n_log = len(window.log_dock.lines())

    # on pick-up the legal destinations light up with their costs
    vp = view.viewport()
    a = view.mapFromScene(view.hex_centre(start))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(12, 0))
    assert view.overlay.isVisible() and set(view.overlay.costs) == set(costs)
    assert view.overlay.costs[target] == costs[target]
    b = view.mapFromScene(view.hex_centre(target))
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)

    assert not view.overlay.isVisible()
    assert window.session.state.units[unit.id].hex == target
    assert unit in view.stacks[target] and unit not in view.stacks.get(start, [])
    lines = window.log_dock.lines()
    assert len(lines) == n_log + 1 and f"move {unit.id}" in lines[-1]


def test_drop_on_an_illegal_hex_snaps_back_with_the_rule(window, qtbot):
    to_movement_phase(window)
    view = window.map_view
    unit, start, costs, blocked = german_unit_that_can_move(window)
    bad, reason = next(iter(blocked.items()))
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    n_log = len(window.log_dock.lines())
    drag(qtbot, view, start, bad)
    assert window.session.state.units[unit.id].hex == start
    assert view.stacks[start][-1] is unit
    assert window.last_refusal.startswith("Demyansk ")
    assert "Refused — Demyansk" in window.statusBar().currentMessage()
    assert len(window.log_dock.lines()) == n_log


def test_undo_and_redo_step_one_action(window, qtbot):
    to_movement_phase(window)
    view = window.map_view
    unit, start, costs, _ = german_unit_that_can_move(window)
    target = next(iter(costs))
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    drag(qtbot, view, start, target)
    assert window.session.state.units[unit.id].hex == target
    n = len(window.log_dock.lines())
    window.phase_bar.undo_act.trigger()
    assert window.session.state.units[unit.id].hex == start
    assert view.stacks[start][-1] is unit
    assert len(window.log_dock.lines()) == n - 1
    window.phase_bar.redo_act.trigger()
    assert window.session.state.units[unit.id].hex == target
    assert len(window.log_dock.lines()) == n


def test_a_click_without_drag_moves_nothing(window, qtbot):
    to_movement_phase(window)
    view = window.map_view
    unit, start, _, _ = german_unit_that_can_move(window)
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(start)))
    assert window.session.state.units[unit.id].hex == start
    assert view.viewer.isVisible() and view.viewer.units == [unit]


def test_save_and_reopen_give_the_same_game(window, qtbot, tmp_path):
    to_movement_phase(window)
    view = window.map_view
    unit, start, costs, _ = german_unit_that_can_move(window)
    target = next(iter(costs))
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    drag(qtbot, view, start, target)
    saved = tmp_path / "game.toml"
    assert window.save_game(saved)
    lines, state_hash = window.log_dock.lines(), window.session.game.hash()

    other = MainWindow(cache=tmp_path / "cache2", autosave=tmp_path / "autosave2.toml")
    qtbot.addWidget(other)
    assert other.open_file(saved)
    assert other.session.game.hash() == state_hash
    assert other.log_dock.lines() == lines
    assert unit.id in [u.id for u in other.map_view.stacks[target]]
    assert other.phase_bar.label.text() == window.phase_bar.label.text()


def test_a_damaged_save_is_named_not_replayed(window, tmp_path):
    bad = tmp_path / "bad-save.toml"
    bad.write_text('format = 1\nruleset = "demyansk"\nseed = "one"\nactions = []\n')
    assert not window.open_file(bad)
    assert "bad-save.toml" in window.last_error and "seed" in window.last_error


def test_every_action_is_autosaved_and_a_normal_close_clears_it(window, qtbot, tmp_path):
    autosave = tmp_path / "autosave.toml"
    assert not autosave.exists()
    window.phase_bar.next_act.trigger()
    assert autosave.is_file()
    other = MainWindow(cache=tmp_path / "cache2", autosave=tmp_path / "autosave2.toml")
    qtbot.addWidget(other)
    assert other.open_file(autosave)
    assert other.session.game.hash() == window.session.game.hash()
    window.close()
    assert not autosave.exists()


def test_a_log_entry_shows_the_board_as_it_was(window, qtbot):
    to_movement_phase(window)
    view = window.map_view
    unit, start, costs, _ = german_unit_that_can_move(window)
    target = next(iter(costs))
    view.set_zoom(0.6)
    view.centre_on_hex(start)
    drag(qtbot, view, start, target)
    n = len(window.log_dock.lines())
    lst = window.log_dock.list
    # the entry before the move: the unit is back where it was, and nothing can be dragged
    rect = lst.visualItemRect(lst.item(n - 2))
    qtbot.mouseClick(lst.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.viewing_past == n - 1
    assert unit in view.stacks[start] and not view.drag_enabled
    assert "read-only" in window.phase_bar.label.text()
    assert window.session.state.units[unit.id].hex == target          # the game itself is untouched
    rect = lst.visualItemRect(lst.item(n - 1))
    qtbot.mouseClick(lst.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.viewing_past is None and unit in view.stacks[target] and view.drag_enabled


def test_drag_onto_an_enemy_prepares_declares_and_resolves_a_battle(window, qtbot):
    s = window.session
    for _ in range(12):
        if s.state.phase == "german-combat":
            break
        window.phase_bar.next_act.trigger()
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    defender, attacker = declare.defender, declare.attackers[0]
    where = {u.id: h for u, h in s.pieces()}
    view = window.map_view
    view.set_zoom(0.6)
    view.centre_on_hex(where[attacker])
    drag(qtbot, view, where[attacker], where[defender])
    assert s.state.units[attacker].hex == where[attacker]          # preparing a battle moves nothing
    panel = window.combat
    assert panel.defender == defender and panel.attackers == [attacker]
    odds = s.rules.odds(s.state, defender, (attacker,))
    assert f"Odds {odds.label}" in panel.odds_label.text()
    assert "Before the roll:" in panel.odds_label.text() and "/6" in panel.odds_label.text()

    qtbot.mouseClick(panel.declare_btn, Qt.LeftButton)
    assert [(b.defender, b.attackers) for b in s.battles()] == [(defender, (attacker,))]
    assert panel.battle_list.count() == 1
    qtbot.mouseClick(panel.resolve_btn, Qt.LeftButton)
    assert s.battles()[0].resolved
    roll = next(line for line in panel.result_label.text().splitlines() if line.startswith("rolled"))
    assert roll in window.log_dock.lines()[-1]

    # undo the attack and resolve it again: the same roll (undo never re-rolls)
    window.phase_bar.undo_act.trigger()
    assert not s.battles()[0].resolved
    qtbot.mouseClick(panel.resolve_btn, Qt.LeftButton)
    assert roll in panel.result_label.text()


def test_reinforcements_come_from_the_tray_under_the_rules(window, qtbot):
    s = window.session
    for _ in range(40):
        if any(a.text().startswith(("enter ", "drop ")) for a in s.game.legal_actions()):
            break
        window.phase_bar.next_act.trigger()
    uid = next(a.text().split()[1] for a in s.game.legal_actions() if a.text().startswith(("enter ", "drop ")))
    unit = s.scenario.units[uid]
    assert uid in window.tray.unit_ids(unit.side)
    entries = s.entries(uid)
    view = window.map_view
    good = next(iter(entries))
    bad = next(h for h in s.board.hexes() if h not in entries and h not in view.stacks)
    view.set_zoom(0.4)
    view.centre_on_hex(bad)
    drag_from_tray(view, uid, bad, "enter")
    assert set(view.overlay.costs) == set(entries)           # where it may come in is lit
    drag_from_tray(view, uid, bad, "drop")
    assert s.off_map().get(uid) and window.last_refusal.startswith("Demyansk ")
    view.centre_on_hex(good)
    drag_from_tray(view, uid, good, "enter")
    drag_from_tray(view, uid, good, "drop")
    assert s.state.units[uid].hex == good and uid not in s.off_map()
    assert uid not in window.tray.unit_ids(unit.side) and view.stacks[good][-1] is unit
    assert window.log_dock.lines()[-1].split(" — ")[0].endswith(f"{uid} {s.board.hex_id(good)}")


def test_a_blank_cell_and_a_retreat_are_chosen_in_the_panel_and_on_the_map(window, qtbot):
    # seed 3: the first German battle rolls a 6 at 2:1, a blank cell of the chart
    assert window.start_new_game(3)
    s = window.session
    while s.state.phase != "german-combat":
        window.phase_bar.next_act.trigger()
    declare = next(a for a in s.game.legal_actions() if a.text().startswith("attack "))
    panel = window.combat
    s.play(declare.text())
    panel.resolve.emit(declare.defender)
    assert panel.choice_list.count() == 0             # the printed chart's result is asked in the chart dock
    assert "enter the result from your printed chart" in panel.result_label.text()
    dock = window.charts.dock
    assert dock.isVisible() and dock.choice_texts() == ["AR1", "AR2", "EX", "NE", "DR1", "DR2", "DR3", "DE"]
    dock.choose("DR2")                                # as read from the printed chart
    retreats = s.pending_choices()
    assert retreats and all(c.startswith(f"retreat {declare.defender} ") for c in retreats)
    view = window.map_view
    lit = set(view.overlay.costs)
    assert lit == {s.board.parse_hex(c.split()[2]) for c in retreats if c.split()[2] != "off"}
    target = sorted(lit, key=lambda h: (h.q, h.r))[0]
    view.set_zoom(0.6)
    view.centre_on_hex(target)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(target)))
    assert s.state.units[declare.defender].hex == target
    assert not s.pending_choices() or not s.pending_choices()[0].startswith(f"retreat {declare.defender}")


def test_recent_files_newest_first(qtbot, tmp_path):
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "a.toml", recent=tmp_path / "recent.toml")
    qtbot.addWidget(win)
    demo = ROOT / "maps" / "demo.toml"
    assert win.open_file(demo) and win.open_file(SCENARIO) and win.open_file(demo)
    assert win.recent_files() == [demo, SCENARIO]
    win._fill_recent()
    names = [a.text() for a in win.recent_menu.actions()]
    assert names == ["&1 demo.toml", "&2 demyansk-1-trapped.toml"]
    win.recent_menu.actions()[1].trigger()
    assert win.scenario is not None and win.scenario.path == str(SCENARIO)


def test_selected_stacks_move_together_as_far_as_the_rules_allow(window, qtbot):
    to_movement_phase(window)
    s, view = window.session, window.map_view
    movers = []
    for unit, h in s.pieces():
        if unit.side == "german":
            costs, _ = s.destinations(unit.id)
            if costs:
                movers.append((unit, h, set(costs)))
    (u1, h1, d1), (u2, h2, d2) = next((a, b) for i, a in enumerate(movers) for b in movers[i + 1:]
                                      if a[2] & b[2])
    target = sorted(d1 & d2, key=lambda h: (h.q, h.r))[0]
    view.set_zoom(0.35)
    view.centre_on_hex(h1)
    vp = view.viewport()
    for h in (h1, h2):
        qtbot.mouseClick(vp, Qt.LeftButton, Qt.ShiftModifier, view.mapFromScene(view.hex_centre(h)))
    assert view.selected == {h1, h2} and view.marks.isVisible()
    drag(qtbot, view, h1, target)
    # the first goes; with it there, the rules refuse the second (one unit per hex, and the
    # first one's arrival changes the second's path): the refusal names its rule
    moved = [u for u in (u1, u2) if s.state.units[u.id].hex == target]
    assert len(moved) == 1
    assert window.last_refusal.startswith("Demyansk 5") and "(1 of 2 moved)" in window.last_refusal
    assert view.selected == set()


def test_a_rubber_band_selects_the_stacks_inside_it(window, qtbot):
    view = window.map_view
    view.fit()
    vp = view.viewport()
    a, b = QPoint(40, 40), QPoint(vp.width() // 2, vp.height() // 2)
    qtbot.mousePress(vp, Qt.LeftButton, Qt.ShiftModifier, a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.ShiftModifier, b)
    area = view.mapToScene(QRect(a, b).normalized()).boundingRect()
    inside = {h for h in view.stacks if area.contains(view.hex_centre(h))}
    assert inside and view.selected == inside


def test_help_lists_the_references_and_every_shortcut(window):
    titles = [t for t, p in window.help_documents() if p.is_file()]
    assert "Rules the engine enforces, by number" in titles and "Line of sight" in titles
    text = window.shortcuts_text()
    for key, name in (("Ctrl+Z", "Undo"), ("Ctrl+Shift+Z", "Redo"), ("Ctrl+Return", "Next phase"),
                      ("Ctrl+S", "Save game"), ("L", "Line of sight tool"), ("F", "Fit to window")):
        assert any(line.split() and line.strip().startswith(key) and line.endswith(name)
                   for line in text.splitlines()), (key, name)
    help_menu = next(m for m in window.menuBar().findChildren(type(window.recent_menu)) if m.title() == "&Help")
    assert [a.text() for a in help_menu.actions() if a.text()][:1] == titles[:1] == ["Getting started"]
    makers = next(a.menu() for a in help_menu.actions() if a.text().startswith("For map and scenario"))
    assert [a.text() for a in makers.actions()] == titles[1:]
