"""The TCS set-up phase before turn 1 (engine/rulesets/tcs/setupphase.py): each side in its game's order re-places
its units within their set-up areas; placements are refused with the rule (the area, Leros 5.1a, BW 1.10f), ending
a side's set-up checks the finished set-up, and the computer players place their units."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.maps.hexes import hex_distance
from engine.players.tcs_player import TcsPlayer
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs import rules_for_path

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios"


@pytest.fixture(scope="module")
def leros3():
    return rules_for_path(SCEN / "leros-3-night-melee.toml")


@pytest.fixture(scope="module")
def leros5():
    return rules_for_path(SCEN / "leros-5-curtain-falls.toml")


@pytest.fixture(scope="module")
def bw4():
    return rules_for_path(SCEN / "black-wednesday-4-melee-in-krasni-bor.toml")


def refused(rules, st, text: str, rule: str, words: str = "") -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        rules.apply(st, text)
    assert e.value.rule == rule, (e.value.rule, e.value.message)
    assert words in e.value.message, e.value.message
    return e.value


def test_leros_3_opens_with_the_german_then_the_british_set_up_and_end_accepts_the_file(leros3):
    st = leros3.initial_state(1)
    assert st.setup == ["german", "british"]                                    # Leros 5.1a: Germans first
    assert leros3.current(st) == ("setup", "setup", "german") and st.turn == 0 and st.step == 0
    assert "Set-up before play" in leros3.clock(st) and "Next step: British sets up" in leros3.guidance(st)
    refused(leros3, st, "place A-Kings-1 B46.12", "Leros 5.1a", "british set-up")   # not the British turn yet
    refused(leros3, st, "complete G-ATT", "Leros 5.1a", "not allowed now")          # no command step before play
    st2, ev = leros3.apply(st, "end")
    assert st2.setup == ["british"] and "set-up finished" in ev[0].text
    st3, _ = leros3.apply(st2, "end")
    assert not st3.setup and leros3.current(st3)[:2] == ("command", "review")
    assert {k: u.hex for k, u in st3.units.items()} == {k: u.hex for k, u in st.units.items()}   # as written


def test_a_placement_outside_the_units_area_is_refused_citing_the_rule(leros3):
    st = leros3.initial_state(1)
    spec = leros3.specs["6-II-65-1"]
    assert spec.setup == "within 5 of B42.30 and not terrain sea and sheet B" and spec.setup_rule == "Leros 5.1d"
    refused(leros3, st, "place 6-II-65-1 B35.13", "Leros 5.1d", "outside that area")
    refused(leros3, st, "place 6-II-65-1 B42.23", "Leros 5.1d", "outside that area")      # 7 hexes away
    st2, ev = leros3.apply(st, "place 6-II-65-1 B42.26")                                 # 4 hexes: inside
    assert leros3.hid(st2.units["6-II-65-1"].hex) == "B42.26" and ev[0].text.startswith("6-II-65-1 sets up in B42.26")
    # stacking: three units to a hex (the scenario's stacking limit)
    for uid in ("6-II-65-2", "6-II-65-3"):
        st2, _ = leros3.apply(st2, f"place {uid} B42.26")
    refused(leros3, st2, "place 7-II-65-1 B42.26", "TCS stacking (game data)", "stacking limit 3")


def test_leros_5_1a_a_british_unit_next_to_a_german_only_in_a_village(leros5):
    st = leros5.initial_state(1)
    st, _ = leros5.apply(st, "place 5-II-65-1 B45.17")                # a German forward, next to B44.17 and B45.16
    st, _ = leros5.apply(st, "end")
    assert leros5.current(st)[2] == "british"
    assert leros5.board.terrain[leros5.hex("B44.17")] == "clear"
    refused(leros5, st, "place D-Kings-1 B44.17", "Leros 5.1a", "unless in a Building or Village hex")
    assert A.Place("D-Kings-1", "B44.17") not in leros5.legal_actions(st)
    assert leros5.board.terrain[leros5.hex("B45.16")] == "village"
    st2, _ = leros5.apply(st, "place D-Kings-1 B45.16")                # a village hex: allowed
    assert leros5.hid(st2.units["D-Kings-1"].hex) == "B45.16"


def test_leros_5_1a_a_british_unit_left_next_to_a_german_keeps_the_british_set_up_from_ending(leros5):
    st = leros5.initial_state(1)
    uid = next(k for k in leros5.order if leros5.specs[k].side == "british" and k in leros5.setup_phase.areas
               and leros5.board.terrain[st.units[k].hex] not in ("village", "building")
               and len(leros5.setup_phase.areas[k]) > 7)
    at = st.units[uid].hex
    german = next(k for k in leros5.order if leros5.specs[k].side == "german" and k in leros5.setup_phase.areas)
    st.units[german].hex = next(n for n in leros5.board.neighbors(at) if leros5.board.terrain.get(n) != "sea")
    st.setup = ["british"]
    refused(leros5, st, "end", "Leros 5.1a", f"{uid} in {leros5.hid(at)}")
    assert A.End() not in leros5.legal_actions(st)


def test_black_wednesday_sets_up_soviets_first_then_axis_and_1_10f_is_checked(bw4):
    st = bw4.initial_state(1)
    assert st.setup == ["soviet", "axis"]                                       # BW 1.10b
    st, _ = bw4.apply(st, "end")
    assert bw4.current(st)[2] == "axis"
    sp = bw4.setup_phase
    critical = sp._critical(st, "axis")
    assert critical, "the written set-up has Spanish units that alone cover a trench hex by the wire"
    uid, need = next(iter(critical.items()))
    away = next(h for h in sorted(sp.areas[uid]) if any(hex_distance(h, t) > 1 for t in need)
                and sp.problem(st, uid, h) is None)
    act = A.Place(uid, bw4.hid(away))
    assert act not in bw4.legal_actions(st)              # the listing keeps the set-up finishable
    st2, _ = bw4.apply(st, act)                          # a person may move it (the set-up is not finished yet)
    refused(bw4, st2, "end", "BW 1.10f", "trench hex")
    north = next((h for h in sorted(sp.areas[uid]) if __import__(
        "engine.rulesets.tcs.games.bw_setup", fromlist=["x"]).north_of_wire(bw4.board, h)), None)
    if north is not None:
        refused(bw4, st, f"place {uid} {bw4.hid(north)}", "BW 1.10f", "north of the wire")


def test_the_strong_player_moves_an_attack_unit_nearer_its_objective_the_baseline_keeps_the_file(leros3):
    st = leros3.initial_state(1)
    strong = TcsPlayer("german", "strong")
    a = strong.choose(leros3, st)
    assert isinstance(a, A.Place)
    sheet = next(s for s in st.sheets.values() if a.unit in s.units)
    assert sheet.type == "attack"
    before = min(hex_distance(st.units[a.unit].hex, o) for o in sheet.objective)
    after = min(hex_distance(leros3.hex(a.to), o) for o in sheet.objective)
    assert after < before and "hexes from its attack objective B43.15" in strong.last_reason
    assert isinstance(TcsPlayer("german", "baseline").choose(leros3, st), A.End)
    # played out, the strong set-up ends and brings the attack nearer: each placement strictly nearer, then end
    n = 0
    while st.setup == ["german", "british"]:
        st, _ = leros3.apply(st, strong.choose(leros3, st))
        n += 1
        assert n < 200
    att = st.sheets["G-ATT"]
    start = leros3.initial_state(1)
    dist = lambda s: min(hex_distance(s.units[u].hex, o) for u in att.units for o in att.objective)  # noqa: E731
    assert dist(st) < dist(start)


def test_the_one_map_scenarios_areas_keep_to_map_b_and_every_file_hex_lies_in_its_area(leros3):
    from engine.scenario.areas import AreaContext, AreaError

    ctx = AreaContext(leros3.board)
    b = ctx.hexes("sheet B")
    kents = ctx.hexes("within 5 of B35.03 and sheet B")                       # Kents' area clipped to map B
    assert kents and kents <= b and all(leros3.hid(h).startswith("B") for h in kents)
    assert any(not leros3.hid(h).startswith("B") for h in ctx.hexes("within 5 of B35.03"))   # else it reaches C
    with pytest.raises(AreaError, match="no sheet 'D'"):
        ctx.hexes("sheet D")
    for path in sorted(SCEN.glob("leros-*.toml")):
        r = rules_for_path(path)
        for uid, area in r.setup_phase.areas.items():
            assert r.board.parse_hex(r.specs[uid].hex) in area, (path.name, uid)
            assert r.specs[uid].setup_rule == "Leros 5.1d"
    irish = leros3.specs["Irish-MG"].setup                                  # any sector of the battalion
    assert all(f"within 3 of {c}" in irish for c in ("B35.13", "B40.13")) and "B51.17" in irish


def test_a_computer_british_unit_left_next_to_a_german_moves_away_before_its_set_up_ends(leros5):
    st = leros5.initial_state(1)
    uid = next(k for k in leros5.order if leros5.specs[k].side == "british" and k in leros5.setup_phase.areas
               and leros5.board.terrain[st.units[k].hex] not in ("village", "building")
               and len(leros5.setup_phase.areas[k]) > 7)
    german = next(k for k in leros5.order if leros5.specs[k].side == "german" and k in leros5.setup_phase.areas)
    st.units[german].hex = next(n for n in leros5.board.neighbors(st.units[uid].hex)
                                if leros5.board.terrain.get(n) != "sea")
    st.setup = ["british"]
    stack = [k for k in leros5.order if st.units[k].hex == st.units[uid].hex]
    assert leros5.setup_phase.offenders(st, "british") == stack           # the whole stack next to the German
    player = TcsPlayer("british", "baseline")
    for k in stack:                                                        # each moves away, then the set-up ends
        a = player.choose(leros5, st)
        assert isinstance(a, A.Place) and a.unit == k and "(Leros 5.1a)" in player.last_reason
        st, _ = leros5.apply(st, a)
    assert isinstance(player.choose(leros5, st), A.End)
