"""Leros in the play window, offscreen: the Sea and Air Movement Tracks in their dock, the planned drop zones and
the Landing Zones of the invasion fleet on the map, and a flight planned to a drop zone picked on the map."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from playwindow import play_window

SCEN = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.fixture
def open_window(qtbot, tmp_path, monkeypatch):
    win = play_window(qtbot, tmp_path, size=(1500, 950), monkeypatch=monkeypatch)

    def opened(name):
        assert win.open_file(SCEN / name)
        return win
    return opened


def tree_rows(tree):
    """Every row of a tree widget as "parent > row: contents" text, depth first."""
    out = []

    def walk(item, path):
        text = f"{item.text(0)}: {item.text(1)}" if item.text(1) else item.text(0)
        out.append(" > ".join(path + [text]))
        for i in range(item.childCount()):
            walk(item.child(i), path + [item.text(0)])
    for i in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(i), [])
    return out


def test_scenario_1_opens_with_the_invasion_fleet_on_the_sea_track_and_the_drop_zone_on_the_map(open_window):
    win = open_window("leros-1-curtain-rises.toml")
    dock = win.tcs.tracks
    assert dock.isVisible() and not dock.visibleRegion().isEmpty()        # raised over the Op Sheets tab
    rows = tree_rows(dock.tree)
    box_a = [r for r in rows if r.startswith("Sea Movement Track (Germans) > German Sea Movement Box A > ")]
    assert len(box_a) == 18                                               # 18 boats loaded for four LZs
    assert ("Sea Movement Track (Germans) > German Sea Movement Box A > "
            "MFP-5 (MFP) to Landing Zone 5: Kust-Co-1, Kust-Co-2, Kust-Co-3") in rows
    assert any(r.startswith("Sea Movement Track (Germans) > Kos Box > waiting: 3-Arty-1") for r in rows)
    assert any(r.startswith("Sea Movement Track (British) > Samos Box > waiting: A-Kents-1") for r in rows)
    assert "Air Movement Track > Air Movement Box B > Ju52-1 drop zone B34.25: 1-I-FJ-1, 1-I-FJ-2" in rows
    zones = win.tcs.zone_marks
    assert zones.scene() is win.map_view.scene()
    assert zones.labels() == ["LZ 3 · 7 boats", "LZ 4 · 5 boats", "LZ 5 · 1 boat", "LZ 13 · 3 boats",
                              "DZ B34.25 · 5 Ju-52"]
    # the drop zone's outline is the hex B34.25 on the map
    centre = win.map_view.hex_centre(win.session.board.parse_hex("B34.25"))
    dz_path = zones.zones[-1][0]
    assert dz_path.contains(centre) and dz_path.boundingRect().width() < 2 * win.map_view.scale_


def test_double_clicking_a_drop_zone_centres_the_map_on_it(open_window, qtbot):
    win = open_window("leros-2-drop-zone.toml")
    tree = win.tcs.tracks.tree
    top = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
               if tree.topLevelItem(i).text(0) == "Drop zones and Landing Zones")
    assert top.child(0).text(0) == "Drop zone B34.25"
    view = win.map_view
    view.set_zoom(2.0)
    view.centre_on_hex(win.session.board.parse_hex("C40.20"))
    target = view.hex_centre(win.session.board.parse_hex("B34.25"))
    assert not view.viewport().rect().contains(view.mapFromScene(target))
    tree.itemActivated.emit(top.child(0), 0)
    middle = view.mapToScene(view.viewport().rect().center())
    assert abs(middle.x() - target.x()) < view.scale_ and abs(middle.y() - target.y()) < view.scale_


def test_a_flight_is_planned_to_a_drop_zone_picked_on_the_map_and_drawn_there(open_window, qtbot):
    win = open_window("leros-1-curtain-rises.toml")
    rules, st = win.session.rules, win.session.state
    st.pending = []
    st.order, st.setup = ["german", "british"], []                             # the Germans won initiative
    st.step = rules.sequence(st.turn).index(("action", "action", "first"))     # the German Action Phase
    assert rules.current(st) == ("action", "action", "german")
    win.session.changed.emit()
    dock = win.tcs.tracks
    assert dock.plane.isEnabled() and dock.plane.currentText() == "Ju52-6"
    assert [dock.units.item(i).text() for i in range(dock.units.count())] == ["4-I-FJ-MG1", "4-I-FJ-MG2",
                                                                             "4-I-FJ-Mor"]
    # the click on the map plans the flight: there is no Plan button, and nothing to pick before units are ticked
    assert not any(b.text() == "Plan flight" for b in dock.findChildren(QPushButton))
    assert not dock.pick_dz.isEnabled() and dock.pick_dz.toolTip() == "Tick the units the Ju-52 carries first"
    view = win.map_view
    view.centre_on_hex(win.session.board.parse_hex("B36.21"))

    def pick_b36_21():
        dock.pick_dz.click()
        assert win.tcs.mode == "dz"
        qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(
            view.hex_centre(win.session.board.parse_hex("B36.21"))))
        assert not dock.pick_dz.isChecked() and win.tcs.mode == ""

    # three units are more than a Ju-52 carries: the engine refuses with its rule and nothing changes
    for u in ("4-I-FJ-MG1", "4-I-FJ-MG2", "4-I-FJ-Mor"):
        dock.tick(u)
    assert dock.pick_dz.isEnabled()
    pick_b36_21()
    assert win.tcs.last_refusal is not None and "3.6" in win.tcs.last_refusal.rule
    assert win.session.state.leros.planes["Ju52-6"].load == []
    assert dock.dz == "B36.21" and "new DZ B36.21" in win.tcs.zone_marks.labels()   # the hex refused stays shown
    dock.tick("4-I-FJ-Mor", False)
    n = len(win.session.game.log)
    pick_b36_21()                                         # the click alone plans it
    assert len(win.session.game.log) == n + 1
    p = win.session.state.leros.planes["Ju52-6"]
    assert win.tcs.last_refusal is None, str(win.tcs.last_refusal)
    assert p.load == ["4-I-FJ-MG1", "4-I-FJ-MG2"] and p.dz == "B36.21"
    assert win.tcs.last_refusal is None and dock.dz == ""
    assert win.tcs.zone_marks.labels()[-2:] == ["DZ B34.25 · 5 Ju-52", "DZ B36.21 · 1 Ju-52"]
    assert any(r.endswith("Ju52-6 drop zone B36.21: 4-I-FJ-MG1, 4-I-FJ-MG2") for r in tree_rows(dock.tree))


def test_a_tcs_game_without_tracks_leaves_the_tracks_dock_hidden(open_window):
    win = open_window("leros-2-drop-zone.toml")
    assert win.tcs.tracks.isVisible()
    win = open_window("tcs-test.toml")
    assert not win.tcs.tracks.isVisible() and win.tcs.zone_marks.labels() == []


@pytest.mark.parametrize("name", sorted(p.name for p in SCEN.glob("leros-*.toml")))
def test_each_leros_scenario_opens_with_its_set_up_tracks_and_zones(open_window, name):
    win = open_window(name)
    st, rules = win.session.state, win.session.rules
    on_map = {uid for uid, u in st.units.items() if u.hex is not None}
    shown = {u.id for units in win.map_view.stacks.values() for u in units}
    assert on_map and shown == on_map                                     # the set-up, every counter at its hex
    view = rules.track_view(st)
    assert win.tcs.tracks.isVisible()
    tree = win.tcs.tracks.tree
    tops = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    sides = [rules.scenario.sides[s].name for s in dict.fromkeys(b["side"] for b in view["sea"])]
    assert tops == [f"Sea Movement Track ({n})" for n in sides] + ["Air Movement Track"] * bool(view["air"]) \
        + ["Drop zones and Landing Zones"]
    assert len(win.tcs.zone_marks.labels()) == len(view["drop_zones"]) + len(view["landing_zones"])


def test_file_new_game_offers_the_leros_variants_and_starts_the_game_with_those_ticked(open_window, qtbot):
    from engine.scenario.newgame import new_game
    win = open_window("leros-1-curtain-rises.toml")
    dlg = win.new_game_dialog()
    assert list(dlg.variant_boxes) == ["4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7"]   # Leros 4.0
    assert dlg.variant_boxes["4.6"].text() == "4.6 Lt. Col. French Takes Command"
    dlg.variant_boxes["4.1"].setChecked(True)
    dlg.variant_boxes["4.6"].setChecked(True)
    dlg.seed_box.setValue(11)
    qtbot.mouseClick(dlg.start_button, Qt.LeftButton)
    game = win.session.game
    assert (game.seed, game.variants) == (11, ("4.1", "4.6"))
    sc = win.session.rules.scenario
    assert sc.sides["british"].command_prep == 4 and any(a.side == "british" for a in sc.air)   # 4.6, 4.1
    assert game.hash() == new_game(SCEN / "leros-1-curtain-rises.toml", 11, ("4.1", "4.6")).hash()
    assert win.new_game_dialog().variant_boxes["4.1"].isChecked()            # offered again for the next game


def paint_marks(win, zoom: float):
    """Paint the zone marks as the map does at ``zoom`` (labels keep 11 px zoomed out); the labels drawn."""
    from PySide6.QtGui import QImage, QPainter, QTransform

    marks = win.tcs.zone_marks
    img = QImage(400, 400, QImage.Format_ARGB32)
    painter = QPainter(img)
    painter.setWorldTransform(QTransform.fromScale(zoom, zoom))
    marks.paint(painter, None)
    painter.end()
    return marks.drawn


def test_the_zone_labels_of_scenario_1_never_cover_each_other_zoomed_out(open_window):
    """Zoomed out, the labels keep a readable size, larger than their zones: at the map's opening zoom "DZ B34.25 ·
    5 Ju-52", "LZ 13 · 3 boats" and "LZ 4 · 5 boats" covered each other; each is now moved clear of those before,
    and a Landing Zone's printed label with no room left is left out (the map prints it)."""
    win = open_window("leros-1-curtain-rises.toml")
    for zoom in (0.05, 0.09, 0.18, 0.5):         # 9 %: the map's opening zoom in a window of 1500 x 950
        drawn = paint_marks(win, zoom)
        texts = [t for t, _b in drawn]
        assert set(win.tcs.zone_marks.labels()) <= set(texts)       # the zones bound for: always labelled
        assert "DZ B34.25 · 5 Ju-52" in texts and "LZ 13 · 3 boats" in texts
        for i, (t1, b1) in enumerate(drawn):
            for t2, b2 in drawn[i + 1:]:
                assert not b1.intersects(b2), (zoom, t1, t2)
