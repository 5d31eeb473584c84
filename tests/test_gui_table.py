"""The skirmish table view, offscreen: dragging a team re-lays the guns' cones as the engine says, drops order
moves, refusals snap back with their rule, the log spells out the dice, cards stay face down."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from engine.rulesets.scw.bot import attacker_move
from engine.rulesets.scw.enemy import gun_cone
from engine.maps.table import distance
from gui.table import is_table_file
from gui.table.items import card_face
from gui.table.session import TableSession
from gui.table.view import WHEEL_STEP
from gui.table.window import TableWindow

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "scw-platoon-attack.toml"
SEED = 2            # the first order of this game turns over the machine gun at C4 (24, 23)


@pytest.fixture
def window(qtbot, tmp_path):
    session = TableSession.new(SCENARIO, seed=SEED)
    win = TableWindow(session, autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    win.view.fit()
    return win


@pytest.fixture
def gun_revealed(window):
    """The game after the attacker's first order (the bot's): a gun is firing and the other teams may move."""
    s = window.session
    assert window.give(attacker_move(s.rules, s.state).text())
    assert list(window.view.cones) == ["C4"], "the first move turns over the picture card at C4"
    return window


def corners(geom) -> list[tuple[float, float]]:
    return [(round(x, 6), round(y, 6)) for x, y in geom.exterior.coords]


def drawn(cone_item) -> list[tuple[float, float]]:
    return [(round(x, 6), round(y, 6)) for x, y in cone_item.outline_inches()]


def at_pointer(view, pos: QPoint) -> tuple[float, float]:
    """The table point (inches) the view reads under a viewport position."""
    return view.inches(view.mapToScene(pos))


def test_dragging_a_team_re_lays_the_cone_where_the_engine_says(qtbot, gun_revealed):
    win = gun_revealed
    view, s = win.view, win.session
    gun = s.state["guns"]["C4"]
    cone = view.cones["C4"]
    assert drawn(cone) == corners(gun_cone(gun))
    assert gun["target"] == "T1"
    start = tuple(s.state["teams"]["T2"]["at"])
    vp = view.viewport()
    a = view.screen_point(start)
    b = view.screen_point((start[0], start[1] - 6.0))     # 6 inches towards the gun: nearer than T1
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(0, -8))
    qtbot.mouseMove(vp, b)
    here = at_pointer(view, b)
    expected = s.preview("T2", here)["C4"]
    assert expected["target"] == "T2"
    assert drawn(cone) == corners(expected["cone"])
    assert drawn(cone) != corners(gun_cone(gun))
    assert view.allowance.isVisible()
    assert view.allowance.rect().width() / 2 / view.ppi == pytest.approx(s.allowance("T2"))
    assert view.ruler.isVisible() and view.ruler.text.text().startswith(f"{distance(start, here):.1f} in")
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    # the drop ordered the move: the engine rolled for it and the gun lays as the new state says
    entry = s.game.log[-1]
    assert entry.action.text() == f"move T2 {round(here[0], 2):g},{round(here[1], 2):g}"
    assert any(e.kind == "roll" for e in entry.events)
    assert drawn(view.cones["C4"]) == corners(gun_cone(s.state["guns"]["C4"]))
    moved = s.state["teams"]["T2"]["at"]
    assert view.teams["T2"].pos().x() == pytest.approx(moved[0] * view.ppi)
    assert view.teams["T2"].pos().y() == pytest.approx(moved[1] * view.ppi)
    assert not view.allowance.isVisible()


def test_a_refused_drop_snaps_back_with_the_rule_in_the_status_bar(qtbot, window):
    view, s = window.view, window.session
    start = tuple(s.state["teams"]["T3"]["at"])
    assert s.allowance("T3") == 8.0
    vp = view.viewport()
    a = view.screen_point(start)
    b = view.screen_point((start[0], start[1] - 12.0))   # beyond Bravado 8
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(0, -8))
    qtbot.mouseMove(vp, b)
    assert view.teams["T3"].pos().y() < start[1] * view.ppi - 100
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    assert not s.game.log
    message = window.statusBar().currentMessage()
    assert "SCW Advance 1" in message and "moves at most its Bravado, 8 inches" in message
    assert window.last_refusal.startswith("SCW Advance 1:")
    assert view.teams["T3"].pos().x() == pytest.approx(start[0] * view.ppi)
    assert view.teams["T3"].pos().y() == pytest.approx(start[1] * view.ppi)
    assert window.orders.heading.text().startswith("T3 ") and hasattr(view.teams["T3"], "halo")


def test_a_team_that_has_acted_is_refused_and_stays(qtbot, gun_revealed):
    win = gun_revealed
    view, s = win.view, win.session
    start = tuple(s.state["teams"]["T1"]["at"])
    assert s.allowance("T1") == 0.0
    vp = view.viewport()
    a = view.screen_point(start)
    b = view.screen_point((start[0] + 3.0, start[1]))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(8, 0))
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    assert "already acted this turn" in win.statusBar().currentMessage()
    assert view.teams["T1"].pos().x() == pytest.approx(start[0] * view.ppi)


def test_the_log_spells_out_every_throw_and_the_enemy_acts_on_its_own(gun_revealed):
    win = gun_revealed
    lines = [win.log_list.item(i).text() for i in range(win.log_list.count())]
    rolls = [e for e in win.session.game.log[0].events if e.kind == "roll"]
    assert rolls and lines[0].startswith("1. move T1")
    faces = rolls[0].data["faces"]
    assert any(f"two average dice show {faces[0]} and {faces[1]} ({sum(faces)})" in line for line in lines)
    assert any(line.strip().startswith("Enemy: the card at") and "machine gun" in line for line in lines)
    assert win.enemy_seen and "the gun at C4 opens fire" in win.enemy_seen[-1]
    assert win.statusBar().currentMessage().startswith("Enemy:")


def test_where_the_enemy_acts_a_ring_flashes_and_fades(qtbot, gun_revealed):
    view = gun_revealed.view
    assert [ring.at for ring in view.flashes] == [tuple(gun_revealed.session.state["guns"]["C4"]["at"])]
    qtbot.waitUntil(lambda: not view.flashes, timeout=5000)


def window_view_state(win) -> dict:
    return win.session.view()


def test_cards_lie_face_down_until_turned_over(gun_revealed):
    win = gun_revealed
    cards = win.session.state["cards"]
    for cid, item in win.view.cards.items():
        if cards[cid]["revealed"]:
            assert item.revealed and item.label.text().startswith(cards[cid]["face"][:-1])
        else:
            assert not item.revealed and item.label.text() == f"{cid} ?"
            assert card_face(cards[cid]["face"]) not in item.toolTip()
            assert window_view_state(win)["cards"][cid]["face"] is None
    assert win.view.cards["C4"].revealed


def test_an_order_from_the_list_and_undo(qtbot, window):
    view, s = window.view, window.session
    window.select_team("T2")
    texts = [window.orders.list.item(i).data(Qt.UserRole) for i in range(window.orders.list.count())]
    assert "take-cover T2" in texts and "end" in texts
    window.orders.list.setCurrentRow(texts.index("take-cover T2"))
    window.orders.give.click()
    assert s.state["teams"]["T2"]["cover"]
    assert window.autosave.is_file()
    window.undo_act.trigger()
    assert not s.state["teams"]["T2"]["cover"] and not s.game.log


def test_the_tape_measure_reads_inches_between_any_two_points(qtbot, window):
    view = window.view
    window.tape_act.setChecked(True)
    vp = view.viewport()
    a, b = view.screen_point((10.0, 10.0)), view.screen_point((40.0, 30.0))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    d = distance(at_pointer(view, a), at_pointer(view, b))
    assert view.tape.isVisible() and view.tape.text.text() == f"{d:.1f} in"
    assert not window.session.game.log


def test_skirmish_files_go_to_the_table_view(tmp_path, qtbot):
    assert is_table_file(SCENARIO)
    assert not is_table_file(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    assert not is_table_file(tmp_path / "missing.toml")
    session = TableSession.new(SCENARIO, seed=5)
    session.order("move T2 24,39")
    saved = tmp_path / "game.toml"
    session.save(saved)
    assert is_table_file(saved)
    win = TableWindow.open(saved)
    qtbot.addWidget(win)
    assert win.session.game.hash() == session.game.hash()


def test_sandtable_file_opens_the_table_view(tmp_path):
    from gui.app import main

    out = tmp_path / "shot.png"
    assert main([str(SCENARIO), "--screenshot", str(out)]) == 0
    assert out.stat().st_size > 10_000


def test_file_open_in_the_main_window_opens_the_table_window(qtbot, tmp_path, monkeypatch):
    from gui.play.window import MainWindow

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "autosave.toml")
    qtbot.addWidget(win)
    assert win.open_file(SCENARIO)
    table = win.table_window
    assert table.isVisible() and table.session.rules.scenario.name in table.windowTitle()
    assert set(table.view.teams) == {"T1", "T2", "T3", "T4", "T5"} and len(table.view.cards) == 6


def test_a_table_whose_image_is_missing_is_refused_in_words(tmp_path, capsys):
    from gui.app import main

    (tmp_path / "maps").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "maps" / "scw-table.toml").write_text((ROOT / "maps" / "scw-table.toml").read_text())
    bad = tmp_path / "scenarios" / "scw-platoon-attack.toml"
    bad.write_text(SCENARIO.read_text())
    assert TableWindow.open(bad) is None
    assert "table.image" in TableWindow.last_error and "scw-table.png is missing" in TableWindow.last_error
    assert main([str(bad), "--screenshot", str(tmp_path / "shot.png")]) == 1
    assert "scw-table.png is missing" in capsys.readouterr().err
    assert not (tmp_path / "shot.png").exists()


def test_a_team_owing_a_decision_is_marked_and_offered_only_its_choices(qtbot, window):
    s = window.session
    for t in s.state["teams"].values():   # set the scene by hand: one gun, 14 inches ahead of T2, laid on it
        t["at"] = [t["at"][0], 44.0]
    for c in s.state["cards"].values():
        c["revealed"], c["picture"] = True, False
    c = s.state["cards"]["C1"]
    c.update(at=[24.0, 30.0], facing=90.0, front=[24.0, 31.75], picture=True, revealed=True)
    s.state["guns"]["C1"] = s.rules.gun_from_card(c)
    s.state["teams"]["T2"]["at"] = [24.0, 44.0]
    s.state["hand_dice"] = [2, 2, 5, 5]     # under fire a double costs a figure; into the effective band 10, another
    assert window.move_team("T2", 24.0, 40.0)
    assert s.state["hand_dice"] == [] and s.state["teams"]["T2"]["figures"] == 2
    assert s.state["pending"] == {"kind": "press_on", "team": "T2"}
    texts = [window.orders.list.item(i).data(Qt.UserRole) for i in range(window.orders.list.count())]
    assert texts == ["press-on T2", "take-cover T2"]
    assert window.view.teams["T2"].pen().color().name() == "#ffffff"
    assert window.turn_label.text().endswith("a decision is owed")
    assert not window.end_act.isEnabled()


def test_a_right_drag_measures_and_a_left_drag_on_the_bare_table_pans(qtbot, window):
    view = window.view
    vp = view.viewport()
    a, b = view.screen_point((10.0, 10.0)), view.screen_point((22.0, 15.0))
    qtbot.mousePress(vp, Qt.RightButton, pos=a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.RightButton, pos=b)
    assert view.tape.isVisible()
    assert view.tape.text.text() == f"{distance(at_pointer(view, a), at_pointer(view, b)):.1f} in"
    view.zoom_by(3.0)
    view.centerOn(view.sceneRect().center())     # the zoom keeps the point under the pointer, wherever an earlier
    centre = view.rect().center()                # test left it: centred, the table can be panned every way
    before = at_pointer(view, centre)
    qtbot.mousePress(vp, Qt.LeftButton, pos=centre)
    qtbot.mouseMove(vp, centre + QPoint(60, 40))
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=centre + QPoint(60, 40))
    after = at_pointer(view, centre)
    assert after[0] < before[0] and after[1] < before[1]
    assert not window.session.game.log


def test_the_wheel_zooms_about_the_pointer_even_right_after_a_drag(qtbot, window):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    view = window.view
    vp = view.viewport()
    view.zoom_by(3.0)                                    # the table overflows the view: the wheel can anchor
    a, b = vp.rect().center() - QPoint(100, 60), vp.rect().center() + QPoint(80, 50)
    qtbot.mousePress(vp, Qt.RightButton, pos=a)          # a measure: the view handles the drag itself
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.RightButton, pos=b)
    under, zoom = at_pointer(view, b), view.transform().m11()
    p = QPointF(b)
    QApplication.sendEvent(vp, QWheelEvent(p, QPointF(vp.mapToGlobal(b)), QPoint(), QPoint(0, 120), Qt.NoButton,
                                           Qt.NoModifier, Qt.NoScrollPhase, False))
    assert view.transform().m11() == pytest.approx(zoom * WHEEL_STEP)
    assert at_pointer(view, b) == pytest.approx(under, abs=2 / view.transform().m11() / view.ppi)


def test_a_leader_whose_team_is_gone_stands_alone_until_he_joins_another(qtbot, window):
    s = window.session
    t1 = s.state["teams"]["T1"]
    t1["alive"], t1["figures"] = False, 0            # the HQ rifle team wiped out, as the engine leaves it
    s.state["leaders"]["L1"].update(team=None, at=list(t1["at"]))
    s.state["teams"]["T2"]["at"] = [t1["at"][0] + 5.0, t1["at"][1]]
    window.view.show_state()
    assert "T1" not in window.view.teams and list(window.view.leaders) == ["L1"]
    assert window.give("join L1 T2")
    assert not window.view.leaders
    assert window.view.teams["T2"].label.text() == "T2 B8 L1"


def test_escape_puts_a_dragged_team_back_and_orders_nothing(qtbot, gun_revealed):
    win = gun_revealed
    view, s = win.view, win.session
    start = tuple(s.state["teams"]["T2"]["at"])
    vp = view.viewport()
    a, b = view.screen_point(start), view.screen_point((start[0], start[1] - 6.0))
    qtbot.mousePress(vp, Qt.LeftButton, pos=a)
    qtbot.mouseMove(vp, a + QPoint(0, -8))
    qtbot.mouseMove(vp, b)
    assert s.preview("T2", at_pointer(view, b))["C4"]["target"] == "T2"
    qtbot.keyPress(view, Qt.Key_Escape)
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=b)
    assert len(s.game.log) == 1
    assert view.teams["T2"].pos().y() == pytest.approx(start[1] * view.ppi)
    assert drawn(view.cones["C4"]) == corners(gun_cone(s.state["guns"]["C4"]))
    qtbot.mouseClick(vp, Qt.LeftButton, pos=a)      # a click picks the team: its orders, and a halo
    assert win.selected == "T2" and win.orders.heading.text().startswith("T2 1 Sec rifles")
    assert hasattr(view.teams["T2"], "halo") and not hasattr(view.teams["T3"], "halo")


def test_asking_what_is_under_the_pointer_leaves_the_scene_its_items(qtbot, window):
    """A press on the bare table asks which team is there; the table image under it stays the scene's to delete.
    (PySide6 hands an item to Python when ``parentItem()`` answers None: the scene's delete and Python's then
    both delete it, and the program died in a later garbage collection.)"""
    from shiboken6 import Shiboken

    view = window.view
    image = view.image_item
    assert image is not None and not Shiboken.ownedByPython(image)
    bare = view.mapFromScene(image.sceneBoundingRect().topLeft()) + QPoint(3, 3)
    assert view.team_at(view.mapToScene(bare)) is None
    qtbot.mousePress(view.viewport(), Qt.LeftButton, pos=bare)
    qtbot.mouseRelease(view.viewport(), Qt.LeftButton, pos=bare)
    assert not Shiboken.ownedByPython(image)
    teams = list(view.teams.values())
    assert teams and view.team_at(teams[0].scenePos()) == teams[0].team_id
