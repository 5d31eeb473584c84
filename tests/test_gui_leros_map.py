"""Leros on the map, offscreen: every Landing Zone drawn and labelled at its hexes, the tracks as boxes with the
boats and Ju-52s as counters, a boat selected lighting its Landing Zone, a flight planned by a click on the map,
a drag that plays the engine's action, and a scattered drop drawn as arrows from the planned to the actual hexes."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt

from engine.maps.hexes import Hex
from leros_book import leros_cells
from playwindow import play_window

SCEN = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    w = play_window(qtbot, tmp_path, size=(1500, 950), monkeypatch=monkeypatch)
    assert w.open_file(SCEN / "leros-1-curtain-rises.toml")
    return w


def near(a: QPointF, b: QPointF) -> bool:
    return abs(a.x() - b.x()) < 0.01 and abs(a.y() - b.y()) < 0.01


def german_action_phase(win):
    """Scenario 1 moved on to the German Action Phase of its first turn (the Germans won the initiative), with the
    test book's values (not the printed ones) for the cells play reads."""
    rules, st = win.session.rules, win.session.state
    for (slot, key), v in leros_cells(rules).items():
        st.memory.put(slot, key, v)
    st.pending, st.setup = [], []                # past the set-up phase
    st.order = ["german", "british"]
    st.step = rules.sequence(st.turn).index(("action", "action", "first"))
    assert rules.current(st) == ("action", "action", "german")
    win.session.changed.emit()


def test_every_landing_zone_is_drawn_with_its_label_at_its_hexes(win):
    marks, view = win.tcs.zone_marks, win.map_view
    board = win.session.board
    lzs = {z["lz"]: z["hexes"] for z in win.session.rules.track_view(win.session.state)["map_landing_zones"]}
    assert sorted(lzs) == list(range(1, 17))                      # the map's sixteen Landing Zones
    # the zones no boat is bound for are outlined thinly, "LZ n"; the four of the invasion fleet carry their boats
    assert marks.printed_labels() == [f"LZ {n}" for n in sorted(set(lzs) - {3, 4, 5, 13})]
    assert marks.labels()[:4] == ["LZ 3 · 7 boats", "LZ 4 · 5 boats", "LZ 5 · 1 boat", "LZ 13 · 3 boats"]
    for text, n in (("LZ 7", 7), ("LZ 16", 16), ("LZ 4 · 5 boats", 4)):
        at = marks.anchors[text]
        assert any(near(at, view.hex_centre(board.parse_hex(h))) for h in lzs[n]), text   # drawn at a hex of it
    path = next(p for p, label, _a in marks.printed if label == "LZ 7")
    assert all(path.contains(view.hex_centre(board.parse_hex(h))) for h in lzs[7])
    assert not path.contains(view.hex_centre(board.parse_hex(lzs[4][0])))
    assert near(marks.anchors["DZ B34.25 · 5 Ju-52"], view.hex_centre(board.parse_hex("B34.25")))
    legend = win.tcs.board.legend.texts
    assert "Landing Zone (printed on the map)" in legend and "Landing Zone a loaded boat is bound for" in legend


def test_the_tracks_are_boxes_with_the_boats_and_ju52s_as_counters(win):
    board = win.tcs.board.board
    assert win.tcs.board.isVisible()
    box_a = board.boxes["german-sea-A"].rect()
    boats = [c for (kind, _cid), c in board.counters.items() if kind == "boat" and c.box == "german-sea-A"]
    assert len(boats) == 18 and all(box_a.contains(c.sceneBoundingRect()) for c in boats)
    assert board.counters[("boat", "Barge-1")].lines == ("Barge-1", "LZ 4")
    assert board.counters[("boat", "Barge-10")].box == "kos"
    assert [c.cid for (k, _), c in board.counters.items() if k == "plane" and c.box == "air-B"] == \
        ["Ju52-1", "Ju52-2", "Ju52-3", "Ju52-4", "Ju52-5"]
    assert board.counters[("plane", "Ju52-1")].lines == ("Ju52-1", "B34.25")
    assert {f"lz:german:{n}" for n in range(1, 17)} <= set(board.boxes)


def test_selecting_a_boat_lights_its_landing_zone_on_the_map_and_the_board(win, qtbot):
    board, marks = win.tcs.board.board, win.tcs.zone_marks
    sboard = win.session.board
    assert marks.lit is None
    c = board.counters[("boat", "Barge-1")]
    board.centerOn(c)
    qtbot.mouseClick(board.viewport(), Qt.LeftButton, pos=board.mapFromScene(c.sceneBoundingRect().center()))
    assert board.selected_ids() == ["Barge-1"]
    assert marks.lit_label() == "Landing Zone 4" and board.lit_zone() == "lz:german:4"
    lz4 = win.session.rules.track_view(win.session.state)["map_landing_zones"][3]["hexes"]
    assert all(marks.lit[0].contains(win.map_view.hex_centre(sboard.parse_hex(h))) for h in lz4)
    # a Ju-52 lights its drop zone; a row of the tracks dock naming a zone lights that one
    board.select("plane", "Ju52-2")
    assert marks.lit_label() == "drop zone B34.25"
    tree = win.tcs.tracks.tree
    rows = [tree.topLevelItem(0).child(1).child(i) for i in range(tree.topLevelItem(0).child(1).childCount())]
    row = next(r for r in rows if r.text(0).startswith("MFP-5 "))
    tree.setCurrentItem(row)
    assert marks.lit_label() == "Landing Zone 5"


def test_an_action_listed_that_names_a_zone_lights_it(win):
    german_action_phase(win)
    st = win.session.state
    for b in st.leros.boats.values():           # an empty boat in Kos: the engine offers embarking for a zone
        if b.id == "Barge-10":
            assert b.box == "kos" and not b.load
    others = win.tcs.clock.others
    texts = [others.itemData(i) for i in range(others.count())]        # each row's action (its words shown)
    embark = [t for t in texts if t.startswith("embark Barge-10 ") and t.endswith(" lz 13")]
    assert embark, texts[:10]
    board = win.tcs.board.board
    board.select("boat", "Barge-1")
    assert win.tcs.zone_marks.lit_label() == "Landing Zone 4"
    others.setCurrentIndex(0)                   # the list refilled after an action lights nothing by itself
    win.session.changed.emit()
    assert win.tcs.zone_marks.lit_label() == "Landing Zone 4"
    from gui.tcs.tracks import zone_named
    words = others.itemText(texts.index(embark[0]))                # the row as shown names the zone, too
    assert zone_named(words, win.tcs.tracks.view)[0] == "Landing Zone 13", words
    others.showPopup()
    others.highlighted.emit(texts.index(embark[0]))     # the action under the pointer in the open list
    assert win.tcs.zone_marks.lit_label() == "Landing Zone 13"
    others.hidePopup()
    others.activated.emit(0)                            # the action chosen in the list
    assert win.tcs.zone_marks.lit_label() == f"Landing Zone {texts[0].split()[-1]}"


def test_a_flight_is_planned_by_selecting_it_on_the_board_and_clicking_the_map(win, qtbot):
    german_action_phase(win)
    board = win.tcs.board.board
    board.select("plane", "Ju52-6")
    board.select("unit", "4-I-FJ-MG1", add=True)
    board.select("unit", "4-I-FJ-MG2", add=True)
    assert win.tcs.mode == "dz"                              # the next map click is the drop zone
    view = win.map_view
    h = win.session.board.parse_hex("B36.21")
    view.centre_on_hex(h)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.mapFromScene(view.hex_centre(h)))
    assert win.tcs.last_refusal is None, str(win.tcs.last_refusal)
    assert win.session.game.log[-1].action.text() == "plan Ju52-6 4-I-FJ-MG1+4-I-FJ-MG2 dz B36.21"
    p = win.session.state.leros.planes["Ju52-6"]
    assert p.load == ["4-I-FJ-MG1", "4-I-FJ-MG2"] and p.dz == "B36.21"
    assert "DZ B36.21 · 1 Ju-52" in win.tcs.zone_marks.labels()
    assert board.counters[("plane", "Ju52-6")].lines == ("Ju52-6", "B36.21")
    # the loaded Ju-52 is dragged to Air Movement Box A: the engine's takeoff; back to Athens is refused
    c = board.counters[("plane", "Ju52-6")]
    board.pressed(c, None)
    assert set(board.targets) == {"air-A"} and board.boxes["air-A"].target
    board.released(c)
    assert board.drag_to("plane", "Ju52-6", "air-A") == "takeoff Ju52-6"
    assert win.session.state.leros.planes["Ju52-6"].box == "air-A"
    assert board.counters[("plane", "Ju52-6")].box == "air-A"
    assert board.drag_to("plane", "Ju52-6", "air-C") == ""       # no action takes it two boxes on
    assert board.drag_to("plane", "Ju52-6", "athens") == "abortflight Ju52-6"     # 3.6j: from preparation
    assert win.session.state.leros.planes["Ju52-6"].box == "athens"


def test_an_empty_boat_dragged_to_a_landing_zone_embarks_the_selected_units(win):
    german_action_phase(win)
    board = win.tcs.board.board
    board.select("unit", "8-II-16-MG1")
    board.select("unit", "8-II-16-MG2", add=True)
    board.pressed(board.counters[("boat", "Barge-10")], None)       # picked up with the units selected
    assert "lz:german:6" in board.targets and not board.boxes["german-sea-B"].target
    board.released(board.counters[("boat", "Barge-10")])
    board._held_units = ["8-II-16-MG1", "8-II-16-MG2"]
    assert board.drag_to("boat", "Barge-10", "lz:german:6") == "embark Barge-10 8-II-16-MG1+8-II-16-MG2 lz 6"
    boat = win.session.state.leros.boats["Barge-10"]
    assert (boat.box, boat.load, boat.lz) == ("A", ["8-II-16-MG1", "8-II-16-MG2"], 6)
    assert board.counters[("boat", "Barge-10")].box == "german-sea-A"
    assert board.counters[("boat", "Barge-10")].lines == ("Barge-10", "LZ 6")


def test_a_scattered_drop_draws_its_arrows_from_the_planned_to_the_actual_hexes(win):
    german_action_phase(win)
    s = win.session
    rules, st = s.rules, s.state
    for i, d in enumerate(("N", "NE", "SE", "S", "SW", "NW"), start=1):
        st.memory.put("tcs.scatter_direction", (str(i),), d)
    for r in ("0", "1", "2", "3", "4", "5+"):
        st.memory.put("leros.parachute_loss", (r,), 0)
    for k, u in st.units.items():            # no British near the drop zone: every flight lands
        if rules.specs[k].side == "british":
            u.hex = None
    for pid in ("Ju52-1", "Ju52-2"):
        st.leros.planes[pid].box = "air-execution"
    for pid in ("Ju52-3", "Ju52-4", "Ju52-5"):
        st.leros.planes[pid].box = "air-C"
    st.leros.drift = "N"
    # the drop zone marker scatters S (4), 5 halved = 2 hexes; Ju52-1 drifts 1 N (3) and lands N (1);
    # Ju52-2 drifts 0 (2) and lands SE (3)
    st.preset_dice = [4, 5, 3, 1, 2, 3]
    win.tcs.play("end")
    assert win.tcs.last_refusal is None, str(win.tcs.last_refusal)
    from engine.rulesets.tcs.games.leros import _step
    dz = rules.hex("B34.25")
    marker = _step(dz, "S", 2)
    one = _step(_step(marker, "N", 1), "N", 1)
    two = _step(marker, "SE", 1)
    assert st is not s.state and s.state.units["1-I-FJ-1"].hex == one and s.state.units["1-I-FJ-3"].hex == two
    view, marks = win.map_view, win.tcs.zone_marks
    c = view.hex_centre
    arrows = [(a, b, label) for a, b, _colour, label in marks.arrows]
    assert any(near(a, c(dz)) and near(b, c(marker)) and label == "DZ B34.25 scatters" for a, b, label in arrows)
    assert any(near(a, c(marker)) and near(b, c(_step(marker, "N", 1))) for a, b, _l in arrows)       # the drift
    assert any(near(a, c(_step(marker, "N", 1))) and near(b, c(one)) and label == "Ju52-1" for a, b, label in arrows)
    assert any(near(a, c(marker)) and near(b, c(two)) and label == "Ju52-2" for a, b, label in arrows)
    assert [fate for _p, fate in marks.ends] == ["landed", "landed"]
    board = win.tcs.board.board                 # the Ju-52s home-bound, each inside its Return Leg box
    back = [c for (kind, _), c in board.counters.items() if kind == "plane" and c.box.startswith("air-return")]
    assert {c.cid for c in back} == {"Ju52-1", "Ju52-2"}
    assert all(board.boxes[c.box].rect().contains(c.sceneBoundingRect()) for c in back)
    from gui.tcs.trackboard import CH, GAP, HEAD
    assert board.boxes["air-return-1"].rect().height() <= HEAD + CH + 2 * GAP     # side by side, one row
    data = [e.data for e in s.game.log[-1].events if e.kind == "drop"]
    assert data[0] == {"what": "scatter", "turn": st.turn, "dz": "B34.25", "to": rules.hid(marker)}
    assert data[1]["to_qr"] == [one.q, one.r] and data[1]["fate"] == "landed"
    assert Hex(*data[2]["to_qr"]) == two


def test_a_landing_from_the_sea_is_ringed_on_the_map_with_its_zone_and_boats(win):
    """Scenario 1 played with End step and the initiative to the Germans until the fleet in box A lands (the
    landing hexes chosen in turn, as a player clicks them); the units landed are ringed and their zone labelled."""
    s = win.session
    for (slot, key), v in leros_cells(s.rules).items():
        s.state.memory.put(slot, key, v)
    landed: list[dict] = []
    for _ in range(400):
        st = s.state
        legal = s.legal_texts()
        if st.pending:
            p = st.pending[0]
            if p["kind"] == "choice" and p["what"] == "landing":
                text = f"choose landing {p['options'][len(landed) % len(p['options'])]}"
            elif p["kind"] == "choice" and p["what"] == "initiative":
                text = "choose initiative german"
            else:
                text = next(t for t in legal if t.startswith(("chart ", "choose ")))
            assert win.tcs.play(text), str(win.tcs.last_refusal)
            landed += [e.data for e in s.game.log[-1].events if e.kind == "land"]
            if landed and not s.state.pending:
                break
            continue
        assert win.tcs.play("end"), str(win.tcs.last_refusal)
        landed += [e.data for e in s.game.log[-1].events if e.kind == "land"]
        if landed and not s.state.pending:
            break
    assert landed and all(d["what"] == "landing" for d in landed)
    marks = win.tcs.zone_marks
    by_lz = {}
    for d in landed:
        by_lz.setdefault(d["lz"], []).append(d)
    assert marks.landed_labels() == [
        f"landed at LZ {lz}: {len(ds)} units from {len({d['boat'] for d in ds})} boat"
        + "s" * (len({d['boat'] for d in ds}) != 1) for lz, ds in sorted(by_lz.items())]
    view, board = win.map_view, s.board
    rings = [p for points, _t, _a in marks.landed for p in points]
    for d in landed:
        h = board.parse_hex(d["hex"])
        assert s.state.units[d["unit"]].hex == h
        assert any(near(p, view.hex_centre(h)) for p in rings)
    lz4 = next(z["hexes"] for z in s.rules.track_view(s.state)["map_landing_zones"] if z["lz"] == 4)
    assert all(d["hex"] in lz4 for d in by_lz[4])
    assert "Units landed from the sea (this turn or the last)" in win.tcs.board.legend.texts
