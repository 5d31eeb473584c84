"""Black Wednesday's own rules on the TCS engine, each in a concrete position on its stand-in map."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.rulesets.tcs import rules_for_path
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs.games import black_wednesday_rules as bw

ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def rules6():
    return rules_for_path(ROOT / "scenarios" / "black-wednesday-6-the-assault-continues.toml")


def fresh():
    r = rules6()
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    return r, st


def put(r, st, uid, hid, **kw):
    u = st.units[uid]
    u.hex = r.board.parse_hex(hid)
    for k, v in kw.items():
        setattr(u, k, v)


def refused(fn, rule):
    with pytest.raises(IllegalAction) as e:
        fn()
    assert e.value.rule == rule, e.value
    return e.value


def test_1_1e_no_vehicle_enters_the_hospital():
    r, st = fresh()
    put(r, st, "1-RB:KV1", "B54.12")
    refused(lambda: r.check_move(st, "1-RB:KV1", r.board.parse_hex("B53.12"), "soviet"), "BW 1.1e")
    put(r, st, "1-269-63Gd:1Co-P1", "B54.12")
    assert bw.move_problem(r, st, "1-269-63Gd:1Co-P1", r.board.parse_hex("B53.12")) is None


def test_1_1f_vehicles_enter_the_mill_only_by_its_road_from_a26_23():
    r, st = fresh()
    mill = r.board.parse_hex("A25.23")
    put(r, st, "1-RB:KV1", "A24.23")
    refused(lambda: r.check_move(st, "1-RB:KV1", mill, "soviet"), "BW 1.1f")
    put(r, st, "1-RB:KV1", "A26.23")
    assert bw.move_problem(r, st, "1-RB:KV1", mill) is None


def test_1_1f_no_direct_fire_into_or_out_of_the_mill():
    r, st = fresh()
    put(r, st, "1-MR:P1", "A25.23", mode="fire")
    put(r, st, "1-133-72:1Co-P1", "A26.23", mode="fire")
    e = refused(lambda: r.check_fire(st, A.Fire("area", ("1-133-72:1Co-P1",), "A25.23"), "soviet"), "BW 1.1f")
    assert "Mill" in str(e)
    refused(lambda: r.check_fire(st, A.Fire("point", ("1-MR:P1",), "1-133-72:1Co-P1"), "axis"), "BW 1.1f")
    assert bw.fire_problem(r, st, r.board.parse_hex("A27.23"), r.board.parse_hex("A26.23")) is None


def test_1_2d_an_embankment_hex_holds_two_vehicles():
    r, st = fresh()
    put(r, st, "1-RB:KV1", "B02.27")
    put(r, st, "1-RB:KV2", "B02.27")
    put(r, st, "1-RB:KV3", "B03.27")
    refused(lambda: r.check_move(st, "1-RB:KV3", r.board.parse_hex("B02.27"), "soviet"), "BW 1.2d")
    st.units["1-RB:KV2"].hex = None
    assert bw.move_problem(r, st, "1-RB:KV3", r.board.parse_hex("B02.27")) is None


def test_1_4a_only_fully_breached_wire_is_entered_and_only_infantry_or_cavalry_breach():
    r, st = fresh()
    wire = r.board.parse_hex("A02.27")
    put(r, st, "1-RB:KV1", "A02.26")
    refused(lambda: r.check_move(st, "1-RB:KV1", wire, "soviet"), "BW 1.4a")
    put(r, st, "1-133-72:1Co-P1", "A02.26", mode="move")
    assert bw.move_problem(r, st, "1-133-72:1Co-P1", wire) is None
    from fractions import Fraction
    st.units["1-133-72:1Co-P1"].mp_used = Fraction(3)                  # after a mode change: its remaining MA
    assert bw.move_problem(r, st, "1-133-72:1Co-P1", wire) is None
    st.units["1-133-72:1Co-P1"].moved = True
    refused(lambda: r.check_move(st, "1-133-72:1Co-P1", wire, "soviet"), "BW 1.4b")


def test_1_4b_only_the_soviet_player_breaches_wire():
    r, st = fresh()
    wire = r.board.parse_hex("A02.27")
    assert st.marks.get("wire A02.27") != "full"
    put(r, st, "10-III-262:P1", "A02.26", mode="move", moved=False)          # Spanish infantry beside the wire
    why = bw.move_problem(r, st, "10-III-262:P1", wire)
    assert why is not None and why[0] == "BW 1.4b" and "Soviet" in why[1]
    st.marks["wire A02.27"] = "full"                                          # a Full breach is open to both
    assert bw.move_problem(r, st, "10-III-262:P1", wire) is None


def test_1_4b_c_d_a_breach_is_partial_then_full_and_never_closes():
    r, st = fresh()
    uid, frm, wire = "1-133-72:1Co-P1", r.board.parse_hex("A02.26"), r.board.parse_hex("A02.27")
    events = []
    put(r, st, uid, "A02.27", mode="move")
    bw.after_move(r, st, uid, frm, wire)
    bw.settle_breaches(r, st, events)
    assert st.marks["wire A02.27"] == "partial" and st.units[uid].hex == frm      # 1.4b C: back out
    assert (wire, "Partial breach") in bw.breaches(r, st)                         # the marker the map shows
    put(r, st, uid, "A02.27", mode="fire")                                         # in Fire mode: no breach
    bw.after_move(r, st, uid, frm, wire)
    bw.settle_breaches(r, st, events)
    assert st.marks["wire A02.27"] == "partial" and st.units[uid].hex == wire
    st.turn += 1                                                                   # 1.4b D: the next turn
    put(r, st, uid, "A02.27", mode="move")
    bw.after_move(r, st, uid, frm, wire)
    bw.settle_breaches(r, st, events)
    assert st.marks["wire A02.27"] == "full" and st.units[uid].hex == wire          # 1.4b D: it stays
    put(r, st, "1-RB:KV1", "A02.26")
    assert bw.move_problem(r, st, "1-RB:KV1", wire) is None                         # open terrain now
    bw.settle_breaches(r, st, events)
    assert st.marks["wire A02.27"] == "full"                                        # 1.4c: never closes
    assert any("partially breaches" in e.text for e in events)


def test_1_4b_d_a_partial_breach_turns_full_only_in_the_next_turn_not_by_a_second_unit_in_the_same_phase():
    r, st = fresh()
    frm, wire = r.board.parse_hex("A02.26"), r.board.parse_hex("A02.27")
    events = []
    for uid in ("1-133-72:1Co-P1", "1-133-72:1Co-P2"):        # two platoons breach the same hex in one phase
        put(r, st, uid, "A02.27", mode="move")
        bw.after_move(r, st, uid, frm, wire)
        bw.settle_breaches(r, st, events)
        assert st.marks["wire A02.27"] == "partial" and st.units[uid].hex == frm     # both go back out (C)
    assert "next turn" in events[-1].text
    st.turn += 1                                              # "in the next turn or later" (1.4b D)
    uid = "1-133-72:1Co-P2"
    put(r, st, uid, "A02.27", mode="move")
    bw.after_move(r, st, uid, frm, wire)
    bw.settle_breaches(r, st, events)
    assert st.marks["wire A02.27"] == "full" and st.units[uid].hex == wire


def test_1_11a_a_towed_gun_in_move_mode_moves_with_8_foot_mps_whatever_its_counter_says():
    from engine.rulesets.tcs.sight import movement_cost, terrain_key
    r, st = fresh()
    gun, tank, frm = "72-div:AT3", "1-RB:KV1", r.board.parse_hex("B20.10")
    to = next(n for n in r.board.neighbors(frm) if not r.board.has_link("road", frm, n)
              and not {"wire", "hospital", "mill", "rr embankment"} & set(r.board.features_of(n)))
    for k in [k for k, u in st.units.items() if u.hex in (frm, to)]:
        st.units[k].hex = None
    put(r, st, gun, "B20.10", mode="move", morale_state="", sheet="63Gd-released")
    put(r, st, tank, "B20.10", mode="move", morale_state="", sheet="RB-attack")
    st.memory.put("tcs.counter.movement", ("soviet 45mm at gun",), 2)       # the counter's own value
    st.memory.put("tcs.counter.mobility", ("soviet 45mm at gun",), "wheeled")
    st.memory.put("tcs.counter.mobility", ("kv-i",), "tracked")
    st.memory.put("tcs.terrain.move", (terrain_key(r.board, to), "foot"), "3")
    st.memory.put("tcs.terrain.move", (terrain_key(r.board, to), "wheeled"), "P")
    st.memory.put("tcs.terrain.move", (terrain_key(r.board, to), "tracked"), "P")
    assert r.ma(st, gun) == 8                                                # 1.11a: 8 MPs
    assert movement_cost(r, st, gun, frm, to)[0] == 3                        # Foot MPs for terrain purposes
    assert r.check_move(st, gun, to, "soviet") == 3
    assert movement_cost(r, st, tank, frm, to)[0] is None                    # a tank keeps its own mobility
    assert bw.transported(r, "KG-Flak:AT88-1")                               # "AT (88mm)": an AT gun


def test_1_11b_axis_infantry_rides_an_axis_tank_and_the_soviets_never_do():
    from engine.rulesets.tcs.sight import terrain_key
    r = rules_n("8-counter-attack-at-krasni-bor")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.order = ["axis", "soviet"]
    st.step = next(i for i, x in enumerate(r.sequence(st.turn)) if x[:2] == ("action", "action"))
    assert r.current(st) == ("action", "action", "axis")
    tank, inf, frm = "1-226:StuG1", "1-I-390:P1", r.board.parse_hex("B60.20")
    to = next(n for n in r.board.neighbors(frm) if not r.board.features_of(n) and not r.units_at(st, n))
    for k in [k for k, u in st.units.items() if u.hex == frm]:
        st.units[k].hex = None
    for k in (tank, inf):
        put(r, st, k, "B60.20", mode="move", morale_state="", moved=False, fired=False)
    st.memory.put("tcs.counter.movement", ("stug iii f",), 12)
    st.memory.put("tcs.counter.mobility", ("stug iii f",), "tracked")
    st.memory.put("tcs.counter.movement", ("german infantry platoon",), 6)
    st.memory.put("tcs.terrain.move", (terrain_key(r.board, to), "tracked"), "1")
    mount = r.parse_action(f"mount {inf} {tank}")
    assert mount in r._action_offers(st, "axis", [inf, tank])               # a legal action, listed
    events = []
    r._act(st, mount, events)
    assert bw.carrier_of(r, st, inf) == tank and any("BW 1.11b" in e.text for e in events)
    refused(lambda: r.check_move(st, inf, to, "axis"), "BW 1.11b")         # it moves only with its tank
    r._do_move(st, A.Move(tank, r.hid(to)), "axis", events)
    assert st.units[inf].hex == to == st.units[tank].hex                   # carried along
    dismount = r.parse_action(f"dismount {inf}")
    assert dismount in r._action_offers(st, "axis", [inf, tank])
    st.pending = []
    r._act(st, dismount, events)
    assert not bw.carrier_of(r, st, inf) and st.units[inf].hex == to
    # the Soviets cannot use tanks as carriers (TCS 25.1e)
    refused(lambda: bw.check_mount(r, st, bw.Mount("1-133-72:1Co-P1", "1-RB:KV8"), "soviet"), "BW 1.11b")
    assert bw.action_offers(r, st, "soviet", ["1-133-72:1Co-P1", "1-RB:KV8"]) == []


def test_1_4b_a_breaching_move_costs_all_the_units_remaining_ma():
    from fractions import Fraction
    r, st = fresh()
    uid = "1-133-72:1Co-P1"
    st.memory.put("tcs.counter.movement", (r.specs[uid].type,), 6)
    put(r, st, uid, "A02.26", mode="move", mp_used=Fraction(2))
    assert r.ma(st, uid) == 6
    assert bw.move_cost(r, st, uid, r.board.parse_hex("A02.27"), Fraction(1)) == Fraction(4)
    assert bw.move_cost(r, st, uid, r.board.parse_hex("A02.25"), Fraction(1)) == Fraction(1)


def test_scenario_full_breaches_start_fully_breached():
    r, st = fresh()
    assert len(r.options["full_breaches"]) == 15
    for hid in r.options["full_breaches"]:
        assert "wire" in r.board.features_of(r.board.parse_hex(hid)) and st.marks["wire " + hid] == "full"


def test_2_3e_an_fo_never_assaults():
    r, st = fresh()
    put(r, st, "269-63Gd:FO", "B40.16", mode="move")
    put(r, st, "5-II-262:P1", "B41.16")
    refused(lambda: r.check_assault(st, A.Assault(("269-63Gd:FO",), "B41.16", False), "soviet"), "BW 2.3e")


def test_1_12_assault_trained_units_are_engineers_smg_ski_cavalry_and_mr():
    r = rules6()
    trained = {k for k, s in r.specs.items() if s.assault_trained}
    assert "1-MR:P1" in trained and "1-Engineer:P1" in trained and "269-63Gd:SMG1" in trained
    assert "63Gd-div:Cav" in trained and "63Gd-div:Eng1" in trained
    assert "5-II-262:P1" not in trained and "1-269-63Gd:1Co-P1" not in trained


def test_2_1b_a_division_has_one_implemented_sheet_and_one_more():
    r, st = fresh()
    a = A.NewSheet("X1", "attack", "63Gd", ("1-269-63Gd:1Co-P1",), ("B45.18",), ())
    refused(lambda: r.check_new_sheet(st, a, "soviet"), "TCS 6.7b")


def test_3_1b_spanish_and_german_units_never_share_an_op_sheet():
    r = rules_for_path(ROOT / "scenarios" / "black-wednesday-8-counter-attack-at-krasni-bor.toml")
    st = r.initial_state(1)
    st.sheets["Sp-prepared"].implemented = False
    st.units["1-226:StuG1"].sheet = ""                                   # free of its own sheet
    e = refused(lambda: r.check_assign(st, "1-226:StuG1", "Sp-prepared", "axis"), "TCS 6.13")
    assert "belongs to german" in str(e)


def test_2_1d_the_63_guards_implement_on_row_5_and_others_on_row_7_without_size_or_staff():
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import implement
    r, st = fresh()
    st.sheets["63Gd-follow-on"].size = 2
    events = []
    implement(r, st, Ctx(r, st, [6, 6, "1-269-63Gd"], events), "63Gd-follow-on")
    assert "on row 5 " in [e.text for e in events if e.kind == "implement"][-1]
    events = []
    implement(r, st, Ctx(r, st, [1, 1], events), "72-follow-on")
    assert "on row 7 " in events[-1].text and not st.sheets["72-follow-on"].implemented


def test_2_1b_d_two_divisions_share_one_sheet_rated_7_with_the_guards_and_never_split_over_two():
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import implement
    r, st = fresh()
    del st.sheets["63Gd-released"]                            # the Guards keep one sheet (their follow-on)
    for u in ("1-270-63Gd:1Co-P1", "1-270-63Gd:1Co-P2"):
        st.units[u].sheet = ""
    mixed = A.NewSheet("X1", "attack", "43", ("1-708-43:1Co-P1", "1-270-63Gd:1Co-P1"), ("B15.30",), ())
    s = r.check_new_sheet(st, mixed, "soviet")                 # 2.1b: more than one division on a single sheet
    st.sheets["X1"] = s
    st.sheets["X1"].weighted_turns = 40
    events = []
    implement(r, st, Ctx(r, st, [6, 6, "1-708-43"], events), "X1")
    assert "on row 7 " in [e.text for e in events if e.kind == "implement"][-1]     # 2.1d: mixed with the Guards
    # the Guards now have two sheets (the follow-on and X1): a third is refused, and X1 being implemented, the
    # follow-on cannot implement too (the division would be split over two implemented sheets)
    third = A.NewSheet("X2", "attack", "72", ("1-133-72:1Co-P1", "1-270-63Gd:1Co-P2"), ("A29.33",), ())
    e = refused(lambda: r.check_new_sheet(st, third, "soviet"), "TCS 6.7b")
    assert "63Gd" in str(e)
    st.sheets["X1"].implemented = True
    e = refused(lambda: r.check_implement(st, "63Gd-follow-on", "soviet"), "TCS 6.7b")
    assert "63Gd" in str(e)
    # 2.1c: the armour may join a divisional sheet; divisional units never join the armour's own sheet
    del st.sheets["RB-attack"]
    st.units["2-RB:T26-1"].sheet = ""
    r.check_assign(st, "2-RB:T26-1", "X1", "soviet")
    refused(lambda: r.check_new_sheet(st, A.NewSheet("X3", "attack", "armour", ("1-708-43:1Co-P2",),
                                                     ("B15.30",), ()), "soviet"), "TCS 6.8")


def test_2_1d_the_armours_own_sheet_rates_7_without_size():
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import implement
    r, st = fresh()
    s = st.sheets["RB-attack"]
    s.implemented, s.size, s.weighted_turns = False, 2, 40
    events = []
    implement(r, st, Ctx(r, st, [1, 1], events), "RB-attack")
    assert "on row 7 " in events[-1].text                      # not 9: Size is ignored (2.1d)


def test_2_4_the_historical_prep_log_is_data_on_the_map_with_its_katyusha_turns(tmp_path):
    from engine.errors import BadFile
    from engine.rulesets.tcs.games.bw_prep import load_prep_log
    log = load_prep_log()
    assert log.check(rules6().board) == []
    assert list(log.turns)[0] == "0600 10 Feb" and len(log.turns) == 8
    assert log.katyusha_turns() == ["0600 10 Feb", "0620 10 Feb", "0820 10 Feb"]
    assert ("Katyusha 2", "B53.12") in log.turns["0820 10 Feb"] and len(log.turns["0640 10 Feb"]) == 9
    assert [log.shoot(d) for d in range(1, 7)] == ["bad"] * 3 + ["good"] * 3          # 2.4d
    assert log.settings["prep_multiplier"] == 2 and log.settings["katyusha_radius"] == 5
    bad = tmp_path / "log.toml"
    bad.write_text('[log]\n[[battalions]]\nid = "a"\ncalibre = "122mm"\n[turns]\n"0600 10 Feb" = ["B01.01", "B01.02"]\n')
    with pytest.raises(BadFile) as e:
        load_prep_log(bad)
    assert "expected 1 entries" in str(e.value)


# ---------------------------------------------------------------- BW 2.4: the Prep Log fired in play

@functools.lru_cache(maxsize=None)
def rules_n(stem):
    return rules_for_path(ROOT / "scenarios" / f"black-wednesday-{stem}.toml")


def empty_map(r, seed=1):
    """Scenario ``r`` at its first turn with every unit off the map and no question pending."""
    st = r.initial_state(seed)
    st.pending, st.setup = [], []            # past the set-up phase
    for u in st.units.values():
        u.hex = None
    return st


def run_proc(r, st, proc, inputs, *args, **kw):
    """Run one procedure on ``st`` with its dice fixed; returns (events, the Need that stopped it or None)."""
    from engine.rulesets.tcs.proc import Ctx, Need
    events = []
    try:
        proc(r, st, Ctx(r, st, inputs, events), *args, **kw)
    except Need as n:
        return events, n
    return events, None


def test_2_4a_b_d_scenario_1_fires_its_three_columns_doubled_without_ammunition_on_the_plotted_hexes():
    r = rules_n("1-turning-the-left")
    assert [b for b, _c in r.bw_prep.battalions] == ["122mm 1", "122mm 2", "152mm 7"]
    st = empty_map(r)
    st.memory.put("tcs.barrage_values", ("122mm", "battalion"), 8)
    st.memory.put("tcs.barrage_values", ("152mm", "battalion"), 12)
    ammo = dict(st.ammo)
    events, need = run_proc(r, st, bw.prep_fire, [1, 4, 6])       # Bad, Good, Good: all land (2.4d)
    assert need is None
    assert [(e.data["battalion"], e.data["shoot"]) for e in events if e.kind == "prep"] == \
        [("122mm 1", "bad"), ("122mm 2", "good"), ("152mm 7", "good")]
    marks = [m for m in st.markers if m.battery.startswith("prep ")]
    assert [r.hid(m.hex) for m in marks] == ["B15.32", "B15.30", "B15.31"]          # never scatters
    assert all(len(m.zone) == 7 for m in marks)                                       # a battalion's zone
    assert [e.text.split("strength ")[1][:2] for e in events if e.kind == "barrage"] == ["16", "16", "24"]  # 2.4a
    assert st.ammo == ammo                                                             # 2.4b
    assert st.marks["prep 0600 10 Feb"] == "fired"


def test_2_4a_a_prep_barrage_attacks_a_unit_in_its_zone_at_double_strength():
    r = rules_n("1-turning-the-left")
    st = empty_map(r)
    st.units["1-I-262:P1"].hex = r.board.parse_hex("B16.32")          # beside 122mm 1's target B15.32
    st.memory.put("tcs.barrage_values", ("122mm", "battalion"), 8)
    _events, need = run_proc(r, st, bw.prep_fire, [5])
    p = need.pending["prompt"]
    assert p.slot == "tcs.area_fire_column" and p.key == ("16",)       # the Area Fire column of 2 x 8


def test_2_4g_katyushas_attack_a_radius_5_zone_at_strength_6_and_scatter_on_a_bad_shoot():
    from engine.maps.hexes import hex_distance, hex_neighbor
    from engine.rulesets.tcs.procs import DIRECTIONS
    r = rules_n("2-assault-of-the-guards")
    st = empty_map(r)
    for cal, v in (("122mm", 8), ("152mm", 12)):
        st.memory.put("tcs.barrage_values", (cal, "battalion"), v)
    st.memory.put("tcs.scatter_direction", ("3",), "S")
    st.memory.put("tcs.scatter_distance", ("4",), 2)
    # Katyusha 1 Good (5), Katyusha 2 Bad (2) then scatter 3 (S) and 4 (2 hexes), then the three gun battalions
    events, need = run_proc(r, st, bw.prep_fire, [5, 2, 3, 4, 4, 4, 4])
    assert need is None
    k1, k2 = st.markers[0], st.markers[1]
    assert r.hid(k1.hex) == "B29.30" and all(hex_distance(x, k1.hex) <= 5 for x in k1.zone)
    assert max(hex_distance(x, k1.hex) for x in k1.zone) == 5 and len(k1.zone) > 60
    want = hex_neighbor(hex_neighbor(r.board.parse_hex("B46.12"), DIRECTIONS["S"]), DIRECTIONS["S"])
    assert k2.hex == want and r.hid(k2.hex) != "B46.12"                 # scattered 2 hexes south
    assert "strength 6 " in [e.text for e in events if e.kind == "barrage"][0]


def test_2_4e_the_prep_fires_first_in_the_soviet_action_phase_once_a_turn():
    r = rules_n("1-turning-the-left")
    st = empty_map(r)
    st.step = r.sequence(0).index(("action", "action", "first"))
    st.order = ["axis", "soviet"]
    assert bw.due(r, st) is None                                        # the Axis phase: no Prep
    st.order = ["soviet", "axis"]
    assert bw.due(r, st) == ("bw_prep", {})
    st.marks["prep 0600 10 Feb"] = "fired"
    assert bw.due(r, st) is None                                        # once
    assert bw.due(rules6(), rules6().initial_state(1)) is None          # scenario 6 has no Prep (2.4)


def test_2_4e_in_play_the_soviet_action_phase_opens_with_the_preps_chart_prompt():
    from engine.charts import ChartAnswer
    r = rules_n("1-turning-the-left")
    st = empty_map(r)
    st.step = r.sequence(0).index(("action", "initiative", ""))
    st.preset_dice = [6, 1, 4, 4, 4]                                    # Soviet wins the initiative, then the shoots
    r._drive(st, [])
    while st.pending[0]["kind"] == "chart":                             # values legality needs: any legal answer
        st, _ev = r.apply(st, r.legal_actions(st)[0])
    assert st.pending[0]["what"] == "initiative"
    st, _ev = r.apply(st, A.Choose("initiative", "soviet"))
    p = st.pending[0]["prompt"]
    assert (p.slot, p.key) == ("tcs.barrage_values", ("122mm", "battalion"))
    st, _ev = r.apply(st, ChartAnswer("tcs.barrage_values", ("122mm", "battalion"), "8"))
    st, ev = r.apply(st, ChartAnswer("tcs.barrage_values", ("152mm", "battalion"), "12"))
    assert st.marks["prep 0600 10 Feb"] == "fired" and not st.pending
    assert r.current(st)[1:] == ("action", "soviet")
    assert sum(1 for m in st.markers if m.battery.startswith("prep ")) == 3


def test_2_4c_the_logs_battalions_are_never_batteries_for_regular_missions():
    r = rules_n("3-assault-the-line")
    st = empty_map(r)
    assert not set(r.batteries) & {b for b, _c in r.bw_prep.battalions}
    refused(lambda: r.check_mission(st, A.PlaceMission("122mm 1", "B15.32", "x", "he"), "soviet"), "TCS 18.0")


def test_2_4_a_log_breaking_the_katyusha_turns_or_leaving_a_gun_idle_is_refused(tmp_path):
    from engine.errors import BadFile
    from engine.rulesets.tcs.games.bw_prep import load_prep_log
    board = rules6().board
    log = load_prep_log()
    bad = log.with_target("0640 10 Feb", "Katyusha 1", "B30.30").with_target("0700 10 Feb", "122mm 3", "")
    probs = bad.problems(board)
    assert any("0640 10 Feb Katyusha 1" in p and "2.4g" in p for p in probs)
    assert any("0700 10 Feb 122mm 3" in p and "every turn" in p for p in probs)
    good = log.with_target("0600 10 Feb", "122mm 1", "B16.30")
    good.save(tmp_path / "mine.toml")
    again = load_prep_log(tmp_path / "mine.toml")
    assert again.target("0600 10 Feb", "122mm 1") == "B16.30" and again.problems(board) == []
    bad.save(tmp_path / "bad.toml")
    src = (ROOT / "scenarios" / "black-wednesday-3-assault-the-line.toml").read_text()
    (tmp_path / "s.toml").write_text(src.replace('prep_log = "historical"', 'prep_log = "bad.toml"')
                                     .replace('"../maps/', f'"{ROOT}/maps/'))
    with pytest.raises(BadFile) as e:
        rules_for_path(tmp_path / "s.toml")
    assert "bad.toml" in str(e.value) and "Katyusha 1" in str(e.value)


# ---------------------------------------------------------------- BW 1.3c, 1.3d, 2.2a

def morale_memory(r, st, uids, result):
    for u in uids:
        st.memory.put("tcs.counter.morale", (r.specs[u].type,), 4)
        st.memory.put("tcs.counter.steps", (r.specs[u].type,), 5)
    for col in range(1, 14):
        st.memory.put("tcs.morale", (str(col), "7"), result)


def test_2_2a_a_commissar_turns_a_suppression_into_a_step_loss_once_a_phase():
    from engine.rulesets.tcs.procs import morale_check
    r, st = fresh()
    a, b = "1-269-63Gd:1Co-P1", "1-269-63Gd:1Co-P2"
    put(r, st, a, "B40.16")
    put(r, st, b, "B40.16")
    morale_memory(r, st, [a, b], "S")
    lost = st.units[b].steps_lost
    _ev, need = run_proc(r, st, morale_check, [3, 4], a)
    assert need.pending["what"] == "commissar" and need.pending["options"] == ["accept", a, b]
    events, need = run_proc(r, st, morale_check, [3, 4, b], a)
    assert need is None and st.units[a].morale_state == "" and st.units[b].steps_lost == lost + 1
    assert any("BW 2.2a" in e.text for e in events)
    _ev, need = run_proc(r, st, morale_check, [3, 4], a)                 # the same phase: no second benefit
    assert need is None and st.units[a].morale_state == "suppressed"
    st.units[a].morale_state = ""
    _ev, need = run_proc(r, st, morale_check, [3, 4, "accept"], b)       # the player may accept it
    assert st.units[b].morale_state == "suppressed"


def test_2_2a_one_extra_step_loss_cancels_the_suppression_against_the_whole_hex():
    from engine.rulesets.tcs.procs import area_attack
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    h = r.board.parse_hex("B40.22")
    for k in [k for k, u in st.units.items() if u.hex == h]:
        st.units[k].hex = None
    three = ["1-269-63Gd:1Co-P1", "1-269-63Gd:1Co-P2", "1-269-63Gd:1Co-P3"]
    for k in three:
        put(r, st, k, "B40.22", steps_lost=0, morale_state="")
    morale_memory(r, st, three, "S")
    st.memory.put("tcs.area_fire_column", ("8",), 5)
    st.memory.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Open")
    st.memory.put("tcs.terrain.fire_shift", ("Open",), 0)
    st.memory.put("tcs.area_fire", ("5", "7"), "M")             # a morale check for each unit, no step lost
    # the fire's roll, then each platoon's morale roll (3+4: S); one commissar choice for the hex
    events, need = run_proc(r, st, area_attack, [3, 4, 3, 4, three[2], 3, 4, 3, 4], 8, h, "test fire")
    assert need is None
    assert [st.units[k].morale_state for k in three] == ["", "", ""]        # none of the three stays Suppressed
    assert [st.units[k].steps_lost for k in three] == [0, 0, 1]             # for one extra step in the hex
    assert sum(e.kind == "commissar" and "loses a step" in e.text for e in events) == 1


def test_2_2a_only_suppression_is_downgraded_and_only_for_soviets():
    from engine.rulesets.tcs.procs import morale_check
    r, st = fresh()
    a = "1-269-63Gd:1Co-P1"
    put(r, st, a, "B40.16")
    morale_memory(r, st, [a], "P")
    _ev, need = run_proc(r, st, morale_check, [3, 4], a)
    assert need is None and st.units[a].morale_state == "paralyzed"
    s = "5-II-262:P1"
    put(r, st, s, "B45.18")
    morale_memory(r, st, [s], "S")
    _ev, need = run_proc(r, st, morale_check, [3, 4], s)
    assert need is None and st.units[s].morale_state == "suppressed"


def test_1_3d_a_unit_in_a_trench_may_take_paralyzed_instead_of_an_syr():
    from engine.rulesets.tcs.procs import morale_check
    r, st = fresh()
    s = "5-II-262:P1"
    trench = r.hid(sorted(r.trench)[0])
    put(r, st, s, trench)
    morale_memory(r, st, [s], "SYR")
    _ev, need = run_proc(r, st, morale_check, [3, 4], s)
    assert need.pending["what"] == "trench" and need.pending["options"] == ["SYR", "P"]
    _ev, need = run_proc(r, st, morale_check, [3, 4, "P"], s)
    assert need is None and st.units[s].morale_state == "paralyzed" and r.hid(st.units[s].hex) == trench
    put(r, st, s, "B45.18", morale_state="")                              # not a trench hex: no choice
    assert "trench" not in r.board.features_of(r.board.parse_hex("B45.18"))
    _ev, need = run_proc(r, st, morale_check, [3, 4], s)
    assert need is None or need.pending.get("what") != "trench"


def test_1_3c_trench_to_trench_movement_draws_overwatch_only_from_adjacent_units():
    from engine.maps.hexes import hex_distance
    r, st = fresh()
    t1 = next(h for h in sorted(r.trench) if any(n in r.trench for n in r.board.neighbors(h)))
    t2 = next(n for n in r.board.neighbors(t1) if n in r.trench)
    near = next(n for n in r.board.neighbors(t2) if n != t1)
    far = next(h for h in r.board.hexes() if hex_distance(h, t2) == 3)
    inf, tank = "1-269-63Gd:1Co-P1", "1-RB:KV1"
    put(r, st, inf, r.hid(t2), mode="move")
    bw.after_move(r, st, inf, t1, t2)
    put(r, st, "5-II-262:P1", r.hid(near))
    put(r, st, "5-II-262:P2", r.hid(far))
    assert bw.overwatch_candidates(r, st, inf, t2, ["5-II-262:P1", "5-II-262:P2"]) == ["5-II-262:P1"]
    put(r, st, tank, r.hid(t2), mode="move")
    bw.after_move(r, st, tank, t1, t2)                                    # vehicles are spotted normally
    assert bw.overwatch_candidates(r, st, tank, t2, ["5-II-262:P1", "5-II-262:P2"]) == ["5-II-262:P1", "5-II-262:P2"]
    off = next(n for n in r.board.neighbors(t2) if n not in r.trench)
    bw.after_move(r, st, inf, off, t2)                                    # from outside a trench: normal
    assert bw.overwatch_candidates(r, st, inf, t2, ["5-II-262:P1", "5-II-262:P2"]) == ["5-II-262:P1", "5-II-262:P2"]


# ---------------------------------------------------------------- BW 2.1e

def test_2_1e_a_soviet_sheet_implemented_in_play_starts_one_battalion_at_a_time():
    from engine.rulesets.tcs.procs import implement
    r, st = fresh()
    s = st.sheets["63Gd-follow-on"]
    bns = sorted({r.specs[u].battalion for u in s.units} - {""})
    assert len(bns) == 7
    _ev, need = run_proc(r, st, implement, [6, 6], "63Gd-follow-on")
    assert need.pending["what"] == "battalion" and need.pending["options"] == bns
    events, need = run_proc(r, st, implement, [6, 6, "2-269-63Gd"], "63Gd-follow-on")
    assert need is None and not s.implemented
    assert r.has_orders(st, "2-269-63Gd:1Co-P1") and r.has_orders(st, "269-63Gd:SMG1")   # with the regiment's units
    assert not r.has_orders(st, "1-269-63Gd:1Co-P1")                                     # the others wait
    assert any("2-269-63Gd starts alone" in e.text for e in events)
    for bn in [b for b in bns if b != "2-269-63Gd"][:-1]:                              # each roll starts one more
        s.rolled = False
        run_proc(r, st, implement, [6, 6, bn], "63Gd-follow-on")
        assert not s.implemented and r.has_orders(st, bn + ":1Co-P1")
    s.rolled = False
    events, need = run_proc(r, st, implement, [6, 6], "63Gd-follow-on")              # the last: fully implemented
    assert need is None and s.implemented and r.has_orders(st, bns[-1] + ":1Co-P1")
    assert any("fully implemented" in e.text for e in events)


def test_2_1e_axis_sheets_implement_whole():
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.games.black_wednesday_rules import implement_units
    r, st = fresh()
    s = st.sheets["Sp-hasty"]
    s.implemented = False
    for u in s.units:
        st.units[u].sheet = ""
    implement_units(r, st, Ctx(r, st, [], []), s)
    assert s.implemented and all(r.has_orders(st, u) for u in s.units)


# ---------------------------------------------------------------- BW 3.4, 4.6

def test_3_4_the_return_battalion_restores_up_to_15_spanish_infantry_steps_at_2200():
    r = rules_n("3c-campaign")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.turn = next(i for i, t in enumerate(r.turns) if t.label == "2200 10 Feb")
    st.step = r.sequence(st.turn).index(("command", "review", "axis"))
    inf = [k for k in r.order if bw.spanish_infantry(r, k) and st.units[k].hex is not None][:4]
    mg = next(k for k in r.order if r.specs[k].type == "spanish mg section" and st.units[k].hex is not None)
    for k in inf:
        st.units[k].steps_lost = 5
    st.units[mg].steps_lost = 2
    assert bw.due(r, st) == ("bw_return", {})
    _ev, need = run_proc(r, st, bw.return_battalion, [])
    assert mg not in need.pending["options"] and inf[0] in need.pending["options"]   # infantry only
    picks = [inf[0]] * 5 + [inf[1]] * 5 + [inf[2]] * 5
    events, need = run_proc(r, st, bw.return_battalion, picks)
    assert need is None                                                  # 15 given: no more asked
    assert [st.units[k].steps_lost for k in inf] == [0, 0, 0, 5] and st.units[mg].steps_lost == 2
    assert st.marks["return battalion"] == "15" and bw.due(r, st) is None
    st.turn -= 1                                                         # any other turn: no Return Battalion
    del st.marks["return battalion"]
    assert bw.due(r, st) is None


def test_4_6_grandes_in_command_makes_the_spanish_command_prep_2(tmp_path):
    src = (ROOT / "scenarios" / "black-wednesday-8-counter-attack-at-krasni-bor.toml").read_text()
    assert rules_n("8-counter-attack-at-krasni-bor").scenario.formations["spanish"].command_prep == 3
    p = tmp_path / "s8.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', 'game_rules = "black_wednesday"\nvariants = ["4.6"]')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    assert rules_for_path(p).scenario.formations["spanish"].command_prep == 2
    p.write_text(src.replace('game_rules = "black_wednesday"', 'game_rules = "black_wednesday"\nvariants = ["4.9"]')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    from engine.errors import BadFile
    with pytest.raises(BadFile) as e:
        rules_for_path(p)
    assert "options.variants" in str(e.value) and "4.9" in str(e.value)


# ---------------------------------------------------------------- BW 5.0 exiting, 5.1 exit conditions

def test_5_0_units_exit_from_the_map_edge_for_1_mp_and_5_1_an_intact_battalion_through_e_h_counts():
    from engine.rulesets.tcs.victory import condition_met, units_lost
    r = rules_n("8-counter-attack-at-krasni-bor")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    conds = {c.id: c for c in r.scenario.conditions}
    area = r.condition_hexes["exit-bn"]
    edge = next(h for h in sorted(area) if len(r.board.neighbors(h)) < 6)
    inner = next(h for h in r.board.neighbors(edge) if len(r.board.neighbors(h)) == 6)
    bn = [k for k in r.order if r.specs[k].battalion == "1-708-43"]
    assert len(bn) == 11
    for k in bn:
        st.memory.put("tcs.counter.steps", (r.specs[k].type,), 5)
        st.memory.put("tcs.counter.movement", (r.specs[k].type,), 6)
        st.units[k].steps_lost = 0                                                   # at full strength here
    first = bn[0]
    put(r, st, first, r.hid(inner), mode="move")
    st.sheets["S-exit"] = type(next(iter(st.sheets.values())))("S-exit", "soviet", "43", "attack", bn, [edge], [],
                                                               implemented=True)
    for k in bn:
        st.units[k].sheet = "S-exit"
    refused(lambda: r.check_exit(st, first, "soviet"), "BW 5.0")                   # not an edge hex
    put(r, st, first, r.hid(edge), mode="move")
    lost_before = units_lost(r, st, "soviet")
    events = []
    r._do_exit(st, A.Exit(first), "soviet", events)
    assert st.units[first].hex is None and st.marks["exited " + first] == r.hid(edge)
    assert units_lost(r, st, "soviet") == lost_before                                # exited is not lost (5.0)
    assert A.parse_action("exit " + first) == A.Exit(first)
    assert not condition_met(r, st, conds["exit-bn"])[0]                             # 1 of 11 is not intact
    for k in bn[1:9]:                                                                # 9 of 11 out: 45 of 55 steps
        st.units[k].hex, st.marks["exited " + k] = None, r.hid(edge)
    ok, why = condition_met(r, st, conds["exit-bn"])
    assert ok and "1-708-43" in why
    assert not condition_met(r, st, conds["no-exit-bn"])[0]
    assert not condition_met(r, st, conds["exit-rgt"])[0]                           # the regiment is bigger
    st.units[bn[1]].steps_lost = 2                                                   # 43 of 55: below 80%
    assert not condition_met(r, st, conds["exit-bn"])[0] and condition_met(r, st, conds["no-exit-bn"])[0]


def test_5_1_formations_are_read_from_the_order_of_battle():
    r = rules_n("3c-campaign")
    assert bw.group_of(r, "1-269-63Gd:2Co-P3", "company") == "1-269-63Gd:2Co"
    assert bw.group_of(r, "1-269-63Gd:2Co-P3", "battalion") == "1-269-63Gd"
    assert bw.group_of(r, "1-269-63Gd:2Co-P3", "regiment") == "269-63Gd"
    assert bw.group_of(r, "269-63Gd:SMG1", "regiment") == "269-63Gd"
    assert bw.group_of(r, "1-RB:KV1", "regiment") == bw.group_of(r, "2-RB:T26-1", "regiment") == "RB"
    assert bw.group_of(r, "63Gd-div:Cav", "regiment") == "" and bw.group_of(r, "IndTk:T34-1", "regiment") == ""


# ---------------------------------------------------------------- BW 2.2c

def test_2_2c_two_identical_adjacent_platoons_consolidate_into_one_with_the_steps_of_both():
    from engine.rulesets.tcs.victory import units_lost
    r, st = fresh()
    for k in [k for k in r.order if r.specs[k].side == "soviet"]:
        st.units[k].hex = None                                           # only the platoons below on the map
    a, b, c, d = "1-269-63Gd:1Co-P1", "1-269-63Gd:1Co-P2", "1-269-63Gd:1Co-P3", "2-269-63Gd:1Co-P1"
    put(r, st, a, "B40.16", steps_lost=3, morale_state="")
    put(r, st, b, "B41.16", steps_lost=3, morale_state="")
    put(r, st, c, "B40.17", steps_lost=2, morale_state="")               # not the same strength
    put(r, st, d, "B40.16", steps_lost=3, morale_state="")               # another battalion
    st.memory.put("tcs.counter.steps", ("soviet rifle platoon",), 5)
    assert bw.consolidation_pairs(r, st) == [(a, b)]
    st.step = r.sequence(st.turn).index(("cleanup", "cleanup", ""))
    assert bw.due(r, st) == ("bw_consolidate", {})
    lost = units_lost(r, st, "soviet")
    events, need = run_proc(r, st, bw.consolidate, [f"{a}+{b}"])
    assert need is None and st.units[a].steps_lost == 1 and st.units[b].hex is None   # 2 + 2 steps: one lost
    assert units_lost(r, st, "soviet") == lost + 1                        # 5.0: consolidated units are lost
    assert bw.due(r, st) is None
    put(r, st, b, "B41.16", steps_lost=1, morale_state="suppressed")
    assert bw.consolidation_pairs(r, st) == []                            # suppressed units never consolidate


# ---------------------------------------------------------------- BW 1.1e man-handling, 2.3a/d/e, 3.2d, 4.2

def test_1_1e_a_gun_is_man_handled_into_the_hospital_in_fire_mode_without_overwatch_or_sfa():
    r, st = fresh()
    inf = "5-II-262:P1"
    gun = next(k for k in r.order if r.specs[k].type == "spanish 37mm at gun")
    hosp = r.board.parse_hex("B53.12")
    for k in (gun, inf):
        put(r, st, k, "B54.12", mode="fire", sheet="Sp-hasty", moved=False, fired=False, morale_state="")
    assert r.has_orders(st, gun)
    st.units[gun].mode = "move"
    refused(lambda: r.check_move(st, gun, hosp, "axis"), "BW 1.1e")                 # trucks never enter (1.11a)
    st.units[gun].mode = "fire"
    assert r.check_move(st, gun, hosp, "axis") == 0                                   # no MPs
    refused(lambda: r.check_move(st, inf, hosp, "axis"), "TCS 5.0")                   # only guns are man-handled
    refused(lambda: r.check_move(st, gun, r.board.parse_hex("B55.12"), "axis"), "TCS 5.0")   # only the Hospital
    events = []
    r._do_move(st, A.Move(gun, "B53.12"), "axis", events)
    assert st.units[gun].hex == hosp and st.units[gun].mode == "fire"
    assert bw.overwatch_candidates(r, st, gun, hosp, [inf]) == []                     # draws no overwatch
    assert bw.fire_problem(r, st, hosp, r.board.parse_hex("B50.12"), gun, "sfa")[0] == "BW 1.1e"
    assert bw.fire_problem(r, st, hosp, r.board.parse_hex("B50.12"), gun, "area") is None
    refused(lambda: r.check_move(st, gun, r.board.parse_hex("B54.12"), "axis"), "BW 1.1e")   # once a phase


def test_2_3a_d_divisional_artillery_is_spotted_only_by_its_divisions_artillery_fo():
    r, st = fresh()
    for fo in ("269-63Gd:FO", "269-63Gd:FO-Mor", "133-72:FO"):
        put(r, st, fo, "B40.22", morale_state="")
    bat = r.batteries["343-1"]
    assert bw.mission_problem(r, st, bat, "269-63Gd:FO") is None
    assert bw.mission_problem(r, st, bat, "133-72:FO")[0] == "BW 2.3a"
    assert bw.mission_problem(r, st, bat, "269-63Gd:FO-Mor")[0] == "BW 2.3d"
    assert bw.mission_problem(r, st, r.batteries["9-1"], "133-72:FO") is None
    refused(lambda: r.check_mission(st, A.PlaceMission("343-1", "B34.17", "133-72:FO", "he"), "soviet"), "BW 2.3a")


def test_2_3_the_soviet_artillery_table_gun_sizes_and_2_and_3_162_leave_play_at_0500_11_feb():
    book = {"289-1": "76mm", "289-2": "76mm", "289-3": "76mm", "162-1": "76mm", "162-2": "76mm",
            "162-3": "122mm", "343-1": "76mm", "343-2": "76mm", "343-3": "122mm", "9-1": "76mm", "9-2": "76mm",
            "9-3": "122mm"}
    for path in sorted((ROOT / "scenarios").glob("black-wednesday-*.toml")):
        r = rules_for_path(path)
        for b in r.batteries.values():
            if b.side == "soviet" and not b.unit:
                assert b.calibre == book[b.id], (path.name, b.id)
    r = rules_n("3c-campaign")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    before = next(i for i, t in enumerate(r.turns) if t.label == "0400 11 Feb")
    at = next(i for i, t in enumerate(r.turns) if t.label == "0500 11 Feb")
    for turn, gone in ((before, False), (at, True), (at + 1, True)):
        st.turn = turn
        for bid in ("162-2", "162-3"):
            why = bw.mission_problem(r, st, r.batteries[bid], "708-43:FO")
            assert (why is not None and why[0] == "BW 2.3" and "0500 11 Feb" in why[1]) == gone, (turn, bid, why)
        assert bw.mission_problem(r, st, r.batteries["162-1"], "708-43:FO") is None       # 1-162 stays


def test_2_3a_the_289_at_regiment_serves_the_one_division_assigned_before_play(tmp_path):
    r, st = fresh()
    assert r.options["at289_division"] == "63Gd" and r.bw_at289 == "63Gd"
    assert bw.mission_problem(r, st, r.batteries["289-1"], "269-63Gd:FO") is None
    why = bw.mission_problem(r, st, r.batteries["289-1"], "133-72:FO")
    assert why[0] == "BW 2.3a" and "289" in why[1]
    assert rules_n("5-assaulting-the-mill").bw_at289 == "72"          # the only division of scenario 5
    # chosen before play in the new game: a variant of the scenarios with the 289's battalions
    from engine.rulesets.tcs.scenario import load_tcs_scenario
    from engine.rulesets.tcs.variants import apply, offered
    sc = load_tcs_scenario(ROOT / "scenarios" / "black-wednesday-6-the-assault-continues.toml")
    assert {"289-43", "289-72"} <= {v.id for v in offered(sc)} and "289-63Gd" not in {v.id for v in offered(sc)}
    apply(sc, ["289-72"])
    from engine.rulesets.tcs import TcsRules
    r72 = TcsRules(sc)
    st72 = r72.initial_state(1)
    assert r72.bw_at289 == "72" and bw.mission_problem(r72, st72, r72.batteries["289-1"], "133-72:FO") is None
    assert bw.mission_problem(r72, st72, r72.batteries["289-1"], "269-63Gd:FO")[0] == "BW 2.3a"
    one = load_tcs_scenario(ROOT / "scenarios" / "black-wednesday-1-turning-the-left.toml")
    assert not any(v.id.startswith("289-") for v in offered(one))      # no 289 in scenario 1


def test_2_3e_an_fo_takes_no_step_loss_from_the_area_fire_table():
    from engine.rulesets.tcs.procs import area_attack
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    h = r.board.parse_hex("B40.22")
    for k in [k for k, u in st.units.items() if u.hex == h]:
        st.units[k].hex = None
    put(r, st, "269-63Gd:FO", "B40.22", steps_lost=0)
    st.memory.put("tcs.area_fire_column", ("8",), 5)
    st.memory.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Open")
    st.memory.put("tcs.terrain.fire_shift", ("Open",), 0)
    st.memory.put("tcs.area_fire", ("5", "7"), "1")
    events, need = run_proc(r, st, area_attack, [3, 4], 8, h, "test fire")
    assert st.units["269-63Gd:FO"].steps_lost == 0 and any("BW 2.3e" in e.text for e in events)
    assert need.pending["prompt"].slot == "tcs.counter.morale"                       # its morale check goes on


def test_3_2d_an_axis_mission_measures_from_a_faux_trp_the_spotter_sees():
    from engine.rulesets.tcs.procs import fire_mission
    r, st = fresh()
    for k, u in st.units.items():
        u.hex = None
    put(r, st, "5-II-262:P1", "B40.22")
    put(r, st, "269-63Gd:FO", "B40.22")
    tgt = r.board.parse_hex("B34.17")
    assert tgt in r.bw_faux and r.board.parse_hex("A46.20") in r.bw_faux and r.board.parse_hex("B32.06") in r.bw_faux
    assert r.board.parse_hex("B40.22") not in r.bw_faux
    _ev, need = run_proc(r, st, fire_mission, [3], "Bty1", "B34.17", "5-II-262:P1", "he", False)
    assert need.pending["prompt"].key[1] == "0-3"                                    # the trench target itself
    _ev, need = run_proc(r, st, fire_mission, [3], "343-1", "B34.17", "269-63Gd:FO", "he", False)
    assert need.pending["prompt"].key[1] == "7-10"                                   # Soviets: from the spotter, 8


def test_4_2_spanish_panic_costs_a_step_and_paralyzes_on_a_die_at_most_the_printed_morale(tmp_path):
    src = (ROOT / "scenarios" / "black-wednesday-6-the-assault-continues.toml").read_text()
    p = tmp_path / "s6.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', 'game_rules = "black_wednesday"\nvariants = ["4.2"]')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    r = rules_for_path(p)
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    h = r.board.parse_hex("B45.25")
    for k in [k for k, u in st.units.items() if u.hex == h]:
        st.units[k].hex = None
    a, b = "5-II-262:P1", "5-II-262:P2"
    put(r, st, a, "B45.25", steps_lost=0, morale_state="")
    put(r, st, b, "B45.25", steps_lost=0, morale_state="")
    st.memory.put("tcs.counter.morale", ("spanish infantry platoon",), 4)
    st.memory.put("tcs.counter.steps", ("spanish infantry platoon",), 5)
    events, need = run_proc(r, st, bw.before_overrun, [1, 1], h, ["63Gd-div:Cav"])   # 4.2a: by armor only
    assert need is None and not events and st.units[a].steps_lost == 0
    events, need = run_proc(r, st, bw.before_overrun, [4, 5], h, ["1-RB:KV1"])
    assert need is None
    assert (st.units[a].steps_lost, st.units[a].morale_state) == (1, "paralyzed")      # 4 <= morale 4
    assert (st.units[b].steps_lost, st.units[b].morale_state) == (0, "")               # 5 > 4
    r6, st6 = fresh()                                                                  # without the variant
    put(r6, st6, a, "B45.25", steps_lost=0, morale_state="")
    events, need = run_proc(r6, st6, bw.before_overrun, [1], h, ["1-RB:KV1"])
    assert st6.units[a].steps_lost == 0 and not events


def test_4_2a_a_mounted_cavalry_overrun_rolls_no_spanish_panic(tmp_path):
    from engine.rulesets.tcs.procs import assault
    from engine.rulesets.tcs.sight import terrain_key
    src = (ROOT / "scenarios" / "black-wednesday-6-the-assault-continues.toml").read_text()
    p = tmp_path / "s6.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', 'game_rules = "black_wednesday"\nvariants = ["4.2"]')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    r = rules_for_path(p)
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    h = r.board.parse_hex("B45.25")
    for k in [k for k, u in st.units.items() if u.hex in (h, r.board.parse_hex("B44.25"))]:
        st.units[k].hex = None
    put(r, st, "5-II-262:P1", "B45.25", steps_lost=0, morale_state="")
    put(r, st, "63Gd-div:Cav", "B44.25", mode="move", morale_state="")
    st.memory.put("tcs.counter.morale", ("spanish infantry platoon",), 6)
    st.memory.put("tcs.counter.steps", ("spanish infantry platoon",), 5)
    events, need = run_proc(r, st, assault, [1, 1, 1], ["63Gd-div:Cav"], "B45.25", True)
    assert not [e for e in events if e.kind == "panic"]                    # no die for panic (it would be 1)
    assert (st.units["5-II-262:P1"].steps_lost, st.units["5-II-262:P1"].morale_state) == (0, "")
    assert need is not None and need.pending["prompt"].slot == "tcs.counter.firepower"   # the overrun's own fire


def test_2_6_mounted_cavalry_draws_a_column_more_and_never_assaults():
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import fire_shifts
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    h = r.board.parse_hex("B40.16")
    for k in [k for k, u in st.units.items() if u.hex == h]:
        st.units[k].hex = None
    st.memory.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Open")
    st.memory.put("tcs.terrain.fire_shift", ("Open",), 0)
    put(r, st, "63Gd-div:Cav", "B40.16", mode="fire")
    put(r, st, "5-II-262:P1", "B41.16")
    assert fire_shifts(r, st, Ctx(r, st, [], []), h, [])[0] == 0                    # dismounted: no shift
    st.units["63Gd-div:Cav"].mode = "move"
    total, steps = fire_shifts(r, st, Ctx(r, st, [], []), h, [])
    assert total == 1 and any(s.rule == "BW 2.6" for s in steps)
    refused(lambda: r.check_assault(st, A.Assault(("63Gd-div:Cav",), "B41.16", False), "soviet"), "BW 2.6")


def test_2_6_mounted_cavalry_assaults_by_overrun():
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    cav, h = "63Gd-div:Cav", r.board.parse_hex("B41.16")
    for k in [k for k, u in st.units.items() if u.hex in (h, r.board.parse_hex("B40.16"))]:
        st.units[k].hex = None
    put(r, st, cav, "B40.16", mode="move", morale_state="", sheet="63Gd-released")
    put(r, st, "5-II-262:P1", "B41.16")
    for slot, v in (("movement", 10), ("mobility", "foot")):
        st.memory.put(f"tcs.counter.{slot}", ("soviet cavalry squadron",), v)
    st.memory.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Open")
    st.memory.put("tcs.terrain.move", (terrain_key(r.board, h), "foot"), "1")
    assert r.check_assault(st, A.Assault((cav,), "B41.16", True), "soviet") == h        # mounted: it overruns
    st.units[cav].mode = "fire"                                                     # dismounted: no overrun
    refused(lambda: r.check_assault(st, A.Assault((cav,), "B41.16", True), "soviet"), "TCS 15.0")


def test_1_2c_a_tank_climbs_onto_the_embankment_off_the_railroad_for_its_entire_ma():
    from fractions import Fraction
    r, st = fresh()
    b = r.board
    emb = sorted(h for h, fs in b.features.items() if "rr embankment" in fs)
    h = next(h for h in emb if len([n for n in b.neighbors(h) if b.has_link("railroad", h, n)]) >= 2
             and any(not b.has_link("railroad", h, n) and n not in emb for n in b.neighbors(h)))
    along = next(n for n in b.neighbors(h) if b.has_link("railroad", h, n))
    off = next(n for n in b.neighbors(h) if not b.has_link("railroad", h, n) and n not in emb)
    tank = "1-RB:KV1"
    st.memory.put("tcs.counter.movement", (r.specs[tank].type,), 10)
    put(r, st, tank, b.hex_id(off), mode="move", mp_used=Fraction(0))
    assert bw.move_cost(r, st, tank, h, Fraction(1)) == 10                 # climbing on: the entire MA
    put(r, st, tank, b.hex_id(along))
    assert bw.move_cost(r, st, tank, h, Fraction(1)) == 1                  # along the railroad: no extra cost
    put(r, st, tank, b.hex_id(h))
    assert bw.move_cost(r, st, tank, off, Fraction(1)) == 10               # climbing down
    inf = "1-269-63Gd:1Co-P1"
    put(r, st, inf, b.hex_id(off))
    assert bw.move_cost(r, st, inf, h, Fraction(1)) == 1                   # foot units are not affected


def test_1_10h_an_intact_soviet_battalion_exiting_through_an_entry_area_closes_it_to_axis_reinforcements():
    r = rules_n("8-counter-attack-at-krasni-bor")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    e_hex = next(h for h in sorted(r.bw_entries["e"]) if len(r.board.neighbors(h)) < 6)
    bn = [k for k in r.order if r.specs[k].battalion == "1-708-43"]
    for k in bn:
        st.memory.put("tcs.counter.steps", (r.specs[k].type,), 5)
        st.memory.put("tcs.counter.movement", (r.specs[k].type,), 6)
        st.units[k].steps_lost = 0
    for k in bn[:8]:                                                      # 40 of 55 steps out: not yet intact
        st.units[k].hex, st.marks["exited " + k] = None, r.hid(e_hex)
    last = bn[8]
    put(r, st, last, r.hid(e_hex), mode="move")
    st.sheets["S-exit"] = type(next(iter(st.sheets.values())))("S-exit", "soviet", "43", "attack", bn, [e_hex], [],
                                                               implemented=True)
    st.units[last].sheet = "S-exit"
    assert not bw.entry_closed(r, st, e_hex)
    events = []
    r._do_exit(st, A.Exit(last), "soviet", events)                        # 45 of 55: intact, area E closes
    assert st.marks["closed entry_area_e"] == "yes" and any("BW 1.10h" in e.text for e in events)
    assert bw.entry_closed(r, st, e_hex)
    assert not bw.entry_closed(r, st, next(iter(r.bw_entries["f"])))
    rc = rules_n("3c-campaign")                                          # a German reinforcement arriving
    sc = rc.initial_state(1)
    sc.pending = []
    sc.marks["closed entry_area_e"] = "yes"
    de = next(k for k in rc.order if k in sc.waiting and rc.specs[k].entry.startswith("entry_area_e"))
    assert set(rc.entries[de]) & rc.bw_entries["e"]
    sc.waiting[de] = "0600 10 Feb"
    rc.arrive(sc, [])
    assert sc.units[de].hex is not None and sc.units[de].hex not in rc.bw_entries["e"]


def s8_with(tmp_path, variants):
    src = (ROOT / "scenarios" / "black-wednesday-8-counter-attack-at-krasni-bor.toml").read_text()
    p = tmp_path / "s8v.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', f'game_rules = "black_wednesday"\nvariants = {variants}')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    return rules_for_path(p)


def test_3_1b_the_ss_at_guns_may_join_a_german_sheet():
    r = rules_n("3c-campaign")
    ss = next(k for k in r.order if r.specs[k].type == "ss 75mm at gun")
    de = next(k for k in r.order if r.specs[k].formation == "german")
    sp = next(k for k in r.order if r.specs[k].type == "spanish infantry platoon")
    assert r.specs[ss].formation == "spanish" and r.fits_formation(ss, "german")
    assert not r.fits_formation(de, "spanish") and not r.fits_formation(sp, "german")


def test_4_1_german_cooperation_shares_sheets_and_one_ammunition_pool(tmp_path):
    r = s8_with(tmp_path, '["4.1"]')
    st = r.initial_state(1)
    st.sheets["Sp-prepared"].implemented = False
    st.units["1-226:StuG1"].sheet = ""
    assert r.check_assign(st, "1-226:StuG1", "Sp-prepared", "axis")                  # 4.1a
    base = rules_n("8-counter-attack-at-krasni-bor")
    de = next(b for b in base.batteries.values() if b.calibre == "105mm de")
    assert r.batteries[de.id].calibre == "105mm"                                     # 4.1d
    pools = base.initial_state(1).ammo
    assert st.ammo["axis|105mm|he"] == pools["axis|105mm|he"] + pools["axis|105mm de|he"]
    assert "axis|105mm de|he" not in st.ammo


def test_4_7_dora_is_plotted_an_hour_ahead_scatters_a_die_minus_one_and_attacks_at_151(tmp_path):
    from engine.maps.hexes import hex_neighbor
    from engine.rulesets.tcs.procs import DIRECTIONS
    src = (ROOT / "scenarios" / "black-wednesday-6-the-assault-continues.toml").read_text()
    p = tmp_path / "s6d.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', 'game_rules = "black_wednesday"\nvariants = ["4.7"]')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    r = rules_for_path(p)
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    assert r.turns[0].label == "1000 10 Feb" and r.turns[0].full_hour
    events = []
    r._do_plot(st, A.Plot("B45.18"), "axis", events)
    assert st.marks["dora 1100 10 Feb"] == "B45.18"
    refused(lambda: r._do_plot(st, A.Plot("B40.16"), "axis", []), "BW 4.7")          # cannot be changed
    refused(lambda: bw.check_plot(r, st, "soviet"), "BW 4.7")
    st.turn = 1                                                                       # 1020: not an hour turn
    refused(lambda: bw.check_plot(r, st, "axis"), "BW 4.7")
    st.turn = 3
    assert r.turns[3].label == "1100 10 Feb"
    st.step = r.sequence(3).index(("artillery", "execute", "second"))
    st.order = ["soviet", "axis"]
    assert bw.due(r, st) == ("bw_dora", {})
    landing = hex_neighbor(hex_neighbor(r.board.parse_hex("B45.18"), DIRECTIONS["S"]), DIRECTIONS["S"])
    for k in [k for k, u in st.units.items() if u.hex == landing]:
        st.units[k].hex = None
    put(r, st, "1-269-63Gd:1Co-P1", r.hid(landing))
    st.memory.put("tcs.scatter_direction", ("3",), "S")
    _ev, need = run_proc(r, st, bw.dora_fire, [3, 3])                                # S, 3 - 1 = 2 hexes
    assert need.pending["prompt"].slot == "tcs.area_fire_column" and need.pending["prompt"].key == ("151",)
    for k in [k for k, u in st.units.items() if u.hex == landing]:
        st.units[k].hex = None
    events, need = run_proc(r, st, bw.dora_fire, [3, 1])                             # a 1: no scatter
    assert need is None and st.marks["dora fired 1100 10 Feb"] == "B45.18"
    assert st.markers[-1].kind == "smoke" and r.hid(st.markers[-1].hex) == "B45.18"
    refused(lambda: bw.check_plot(rules6(), st, "axis"), "BW 4.7")                 # without the variant


def test_1_3a_in_an_assault_the_trench_shift_helps_only_the_defender():
    from engine.rulesets.tcs.procs import assault
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    t = next(h for h in sorted(r.trench) if any(n not in r.trench and "wire" not in r.board.features_of(n)
                                                 for n in r.board.neighbors(h)))
    d = next(n for n in r.board.neighbors(t) if n not in r.trench and "wire" not in r.board.features_of(n))
    for k, u in st.units.items():
        if u.hex in (t, d):
            u.hex = None
    a, s = "1-269-63Gd:1Co-P1", "5-II-262:P1"
    put(r, st, a, r.hid(t), mode="move")
    put(r, st, s, r.hid(d), mode="fire")
    m = st.memory
    m.put("tcs.counter.firepower", ("soviet rifle platoon",), 4)
    m.put("tcs.counter.firepower", ("spanish infantry platoon",), 3)
    m.put("tcs.area_fire_column", ("4",), 5)
    m.put("tcs.area_fire_column", ("3",), 7)
    for h in (t, d):
        m.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Open")
    m.put("tcs.terrain.fire_shift", ("Open",), 0)
    m.put("tcs.area_fire", ("5", "2"), "-")
    _ev, need = run_proc(r, st, assault, [1, 1, 1, 1], [a], r.hid(d))
    p = need.pending["prompt"]
    assert p.slot == "tcs.area_fire" and p.key == ("7", "2")                        # no -2 for the attacker's trench
    assert not any("trench" in step.text for step in p.steps)


def test_1_9_the_air_sortie_table_is_a_chart_prompt_whose_result_names_the_side_and_the_count():
    from engine.rulesets.tcs.procs import sortie_roll
    r, st = fresh()                                      # scenario 6 opens at 1000 10 Feb: a day turn, Clear
    assert {a.side: a.sortie_type for a in r.scenario.air} == {"axis": "german stuka sortie",
                                                                "soviet": "soviet air sortie"}
    assert r.turns[st.turn].kind == "day" and st.weather == "clear"
    _ev, need = run_proc(r, st, sortie_roll, [3, 5], side="soviet")               # 11..66: tens 3, units 5
    p = need.pending["prompt"]
    assert (p.slot, p.key) == ("bw.air_sortie", ("35",)) and "German 2" in r.charts["bw.air_sortie"].domain.values
    st.memory.put("bw.air_sortie", ("35",), "German 2")
    _ev, need = run_proc(r, st, sortie_roll, [3, 5], side="soviet")
    assert need is None and st.sorties == 0 and st.marks["air 1000 10 Feb"] == "axis 2"
    _ev, need = run_proc(r, st, sortie_roll, [], side="axis")                       # one roll a turn: no dice now
    assert need is None and st.sorties == 2
    st.turn, st.weather = 1, "overcast"                                             # 1.9: Clear turns only
    events, need = run_proc(r, st, sortie_roll, [], side="axis")
    assert need is None and st.sorties == 0 and st.marks["air 1020 10 Feb"] == "none"


def test_4_1c_german_cooperation_doubles_german_sorties_and_halves_soviet_ones(tmp_path):
    from engine.rulesets.tcs.procs import sortie_roll
    r = s8_with(tmp_path, '["4.1"]')
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.weather = "clear"
    st.turn = next(i for i, t in enumerate(r.turns) if t.kind == "day")
    label = r.turns[st.turn].label
    st.memory.put("bw.air_sortie", ("35",), "German 2")
    st.memory.put("bw.air_sortie", ("61",), "Soviet 3")
    run_proc(r, st, sortie_roll, [3, 5], side="axis")
    assert st.sorties == 4 and st.marks["air " + label] == "axis 4"              # 2x Stuka becomes 4x
    del st.marks["air " + label]
    run_proc(r, st, sortie_roll, [6, 1], side="soviet")
    assert st.sorties == 1                                                         # 3 halved, rounded down
    base = rules_n("8-counter-attack-at-krasni-bor")
    sb = base.initial_state(1)
    sb.pending, sb.weather, sb.turn = [], "clear", st.turn
    sb.memory.put("bw.air_sortie", ("61",), "Soviet 3")
    run_proc(base, sb, sortie_roll, [6, 1], side="soviet")
    assert sb.sorties == 3                                                         # without the variant


def with_variants(tmp_path, stem, variants):
    src = (ROOT / "scenarios" / f"black-wednesday-{stem}.toml").read_text()
    p = tmp_path / f"{stem}-v.toml"
    p.write_text(src.replace('game_rules = "black_wednesday"', f'game_rules = "black_wednesday"\nvariants = {variants}')
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    return rules_for_path(p)


def test_3_5_and_4_1b_the_german_table_is_read_on_its_modified_row_asked_above_12(tmp_path):
    from engine.rulesets.tcs.procs import release
    r = with_variants(tmp_path, "3c-campaign", '["4.1"]')
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.flags.append("trench:soviet")                                   # BW 3.5: a Soviet unit entered a trench
    st.released.append("spanish-reserve")                              # the Spanish table is not rolled again
    st.turn = next(i for i, t in enumerate(r.turns) if t.label == "0100 11 Feb")
    _ev, need = run_proc(r, st, release, [6, 5])                        # 11, from 0100 11 Feb: the table's modifier
    p = need.pending["prompt"]
    assert (p.slot, p.key) == ("bw.german_reinforcement_modifier", ("0100 11 Feb",))
    st.memory.put("bw.german_reinforcement_modifier", ("0100 11 Feb",), 1)
    _ev, need = run_proc(r, st, release, [6, 5])                        # 11 + 1 + 2 (4.1b) = row 14
    p = need.pending["prompt"]
    assert (p.slot, p.key) == ("bw.german_reinforcements", ("14",))
    assert [s.text for s in p.steps] == ["roll 11", "+1 on or after 0100 11 Feb", "+2 German Cooperation"]
    st.memory.put("bw.german_reinforcements", ("14",), "B")
    events, need = run_proc(r, st, release, [6, 5, "de-226"])          # B: the player picks the armour company
    assert need is None and "de-226" in st.released
    base = rules_n("3c-campaign")
    sb = base.initial_state(1)
    sb.pending, sb.flags, sb.released = [], ["trench:soviet"], ["spanish-reserve"]
    sb.turn = next(i for i, t in enumerate(base.turns) if t.label == "1000 10 Feb")   # before 0100, no variant
    _ev, need = run_proc(base, sb, release, [6, 5])
    p = need.pending["prompt"]
    assert (p.slot, p.key) == ("bw.german_reinforcements", ("11",)) and len(p.steps) == 1


def test_3_5_a_german_result_is_the_players_pick_i_215_first_and_3_5a_a_battery_brings_its_rounds():
    from engine.rulesets.tcs.procs import release
    r = rules_n("3c-campaign")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.flags.append("trench:soviet")
    st.released.append("spanish-reserve")
    st.turn = next(i for i, t in enumerate(r.turns) if t.label == "1000 10 Feb")
    refused(lambda: r._check_battery(st, "I-215-1", "he", "axis"), "BW 3.5")     # not released yet
    st.memory.put("bw.german_reinforcements", ("7",), "A")
    st.memory.put("bw.german_reinforcements", ("9",), "B")
    _ev, need = run_proc(r, st, release, [3, 4])                                   # 7: A
    opts = need.pending["options"]
    assert "de-1-635Ost" in opts and "de-I-215-1" in opts and "de-850-1" not in opts   # 3.5 note
    assert "de-226" not in opts                                                    # a B group is not an A
    he = st.ammo.get("axis|105mm de|he", 0)
    _ev, need = run_proc(r, st, release, [3, 4, "de-I-215-1"])
    assert need is None and st.released[-1] == "de-I-215-1"
    assert st.ammo["axis|105mm de|he"] == he + 20 and st.ammo["axis|105mm de|smoke"] >= 4     # 3.5a
    r._check_battery(st, "I-215-1", "he", "axis")                                   # now it fires
    st.released += ["de-I-215-2"]
    _ev, need = run_proc(r, st, release, [4, 5])                                   # 9: B
    opts = need.pending["options"]
    assert {"de-226", "de-flak", "de-1-635Ost+de-2-635Ost", "de-I-215-3+de-III-215-9"} <= set(opts)
    _ev, need = run_proc(r, st, release, [4, 5, "de-I-215-3+de-III-215-9"])
    assert need is None and st.released[-2:] == ["de-I-215-3", "de-III-215-9"]
    assert st.ammo["axis|150mm de|illum"] >= 1


def test_4_5_mined_wire_attacks_a_soviet_unit_breaching_it_through_a_chart_prompt(tmp_path):
    r = with_variants(tmp_path, "6-the-assault-continues", '["4.5"]')
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    uid, frm, wire = "1-133-72:1Co-P1", r.board.parse_hex("A02.26"), r.board.parse_hex("A02.27")
    put(r, st, uid, "A02.27", mode="move")
    bw.after_move(r, st, uid, frm, wire)
    assert st.marks["mines " + uid] == "A02.27" and bw.due(r, st) == ("bw_mines", {})
    _ev, need = run_proc(r, st.copy(), bw.mine_attack, [4, 4])           # (the engine runs a procedure on a copy)
    p = need.pending["prompt"]
    assert (p.slot, p.key) == ("bw.minefield_attack", ("8",))
    st.memory.put("bw.minefield_attack", ("8",), "1")
    st.memory.put("tcs.counter.steps", (r.specs[uid].type,), 5)
    lost = st.units[uid].steps_lost
    events, need = run_proc(r, st, bw.mine_attack, [4, 4])
    assert any(e.kind == "mines" and e.data["result"] == "1" for e in events)
    assert st.units[uid].steps_lost == lost + 1                           # then its morale check (TCS 13.0)
    assert need is None or need.pending["prompt"].slot.startswith("tcs.")
    st.marks["wire A02.27"] = "full"                                      # cleared with the wire
    put(r, st, uid, "A02.27", mode="move")
    bw.after_move(r, st, uid, frm, wire)
    assert "mines " + uid not in st.marks
    r6, s6 = fresh()                                                      # without the variant: no mines (1.7)
    put(r6, s6, uid, "A02.27", mode="move")
    bw.after_move(r6, s6, uid, frm, wire)
    assert "mines " + uid not in s6.marks and "breaching " + uid in s6.marks


def test_5_1_axis_massive_holds_every_town_south_of_the_trench_and_soviet_major_needs_two_villages():
    r = rules_n("3c-campaign")
    st = r.initial_state(1)
    st.pending, st.over = [], True
    south = r.condition_hexes["south-cb"]
    assert r.board.parse_hex("A25.23") in south                        # the Mill, behind the line
    assert r.board.parse_hex("B20.02") not in south                    # north of the first trench line
    assert r.condition_hexes["kb"] <= south                            # Krasni Bor lies behind it
    for h in south:
        st.control[h] = "axis"
    out = r.outcome(st)
    assert out.reason == "Axis Massive Victory" and "met" in out.breakdown["no-exit-plt"]
    edge = next(h for h in sorted(r.condition_hexes["no-exit-plt"]) if len(r.board.neighbors(h)) < 6)
    p = next(k for k in r.order if r.specs[k].side == "soviet" and r.specs[k].type == "soviet rifle platoon")
    st.memory.put("tcs.counter.steps", (r.specs[p].type,), 5)
    st.units[p].hex, st.units[p].steps_lost, st.marks["exited " + p] = None, 0, r.hid(edge)
    assert r.outcome(st).reason != "Axis Massive Victory"               # an intact platoon got out
    for h in r.condition_hexes["kb"]:
        st.control[h] = "soviet"
    bn = [k for k in r.order if r.specs[k].battalion == r.specs[p].battalion]
    for k in bn:
        st.memory.put("tcs.counter.steps", (r.specs[k].type,), 5)
        st.units[k].hex, st.units[k].steps_lost, st.marks["exited " + k] = None, 0, r.hid(edge)
    for h in r.condition_parts["two"][0]:                               # Potrolovo only: one village
        st.control[h] = "soviet"
    out = r.outcome(st)
    assert out.breakdown.get("before shifts", out.reason) == "Soviet Minor Victory"
    assert "not met" in out.breakdown["two"] and "(needs 2)" in out.breakdown["two"]
    for h in r.condition_parts["two"][1]:                               # and Mondolovo: two
        st.control[h] = "soviet"
    out = r.outcome(st)
    assert out.breakdown.get("before shifts", out.reason) == "Soviet Major Victory"


def test_scenario_2_each_released_axis_reserve_company_credits_a_hex_of_krasni_bor():
    from engine.rulesets.tcs.victory import condition_met
    r = rules_n("2-assault-of-the-guards")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    kb5 = next(c for c in r.scenario.conditions if c.id == "kb5")
    res = st.sheets["Sp-reserve"]
    assert res.reserve and "8-II-262:MG1" in res.units                 # the listed reserves wait on their sheet
    kb = sorted(r.condition_hexes["kb5"])
    for h in kb[:3]:
        st.control[h] = "soviet"
    ok, why = condition_met(r, st, kb5)
    assert not ok and "3 hexes + 0 credited" in why
    res.reserve, res.implemented = False, True                          # the reserve check released it
    ok, why = condition_met(r, st, kb5)
    assert ok and "+ 10 credited" in why                                # 10 companies on the sheet
    st.control = {}
    ok, _why = condition_met(r, st, kb5)
    assert ok                                                           # 0 held + 10 credited >= 5
    assert not condition_met(rules_n("4-melee-in-krasni-bor"), st, next(
        c for c in rules_n("4-melee-in-krasni-bor").scenario.conditions if c.id == "kb50"))[1].count("credited")


def test_1_10j_scenarios_1_to_3_start_with_the_set_ups_orders_as_sheets():
    r = rules_n("3-assault-the-line")
    st = r.initial_state(1)
    sov = {s.id: s for s in st.sheets.values() if s.side == "soviet"}
    assert set(sov) == {"43-attack", "63Gd-attack", "72-attack", "armour-attack"}
    assert all(s.implemented and s.type == "attack" for s in sov.values())
    assert st.units["1-269-63Gd:1Co-P1"].sheet == "63Gd-attack"
    assert st.sheets["Sp-prepared"].implemented and st.sheets["Sp-prepared"].type == "prepared_defense"
    assert st.units["1-I-262:P1"].sheet == "Sp-prepared"
    assert st.sheets["Sp-reserve"].reserve and not st.sheets["Sp-reserve"].implemented


def test_2_1f_the_looting_limit_is_map_data_and_bounds_looting_units_sheets(tmp_path):
    r = rules_n("4-melee-in-krasni-bor")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    P = r.board.parse_hex
    limit = r.board.areas["looting limit"].hexes
    assert P("B43.18") in limit                                          # second trench line B38.18 + 5
    assert not bw.beyond_limit(r, P("B43.18")) and bw.beyond_limit(r, P("B44.18"))
    looter, free = "1-269-63Gd:1Co-P1", "1-270-63Gd:1Co-P1"              # 1-270 already on its follow-on
    assert looter in r.bw_looting and free not in r.bw_looting
    st.units[looter].sheet = ""
    del st.sheets["63Gd-released"]                                        # room for one more 63Gd sheet (2.1b)
    far = A.NewSheet("L1", "attack", "63Gd", (looter,), ("B45.18",), ())
    refused(lambda: r.check_new_sheet(st, far, "soviet"), "BW 2.1f")
    assert r.check_new_sheet(st, A.NewSheet("L2", "attack", "63Gd", (looter,), ("B42.18",), ()), "soviet")
    assert r.check_new_sheet(st, A.NewSheet("L3", "attack", "63Gd", (free,), ("B45.18",), ()), "soviet")
    st.sheets["L3"] = r.check_new_sheet(st, A.NewSheet("L3", "attack", "63Gd", (free,), ("B45.18",), ()), "soviet")
    refused(lambda: r.check_assign(st, looter, "L3", "soviet"), "BW 2.1f")        # 2.5b: joining a deep sheet
    st.units[looter].sheet = "63Gd-follow-on"                                     # its follow-on implements:
    st.sheets["63Gd-follow-on"].implemented = True                                # looting is over
    assert bw.sheet_problem(r, st, [looter], [P("B45.18")]) is None
    src = (ROOT / "scenarios" / "black-wednesday-1-turning-the-left.toml").read_text()
    p = tmp_path / "s1far.toml"
    p.write_text(src.replace('objective = ["B16.31"]', 'objective = ["B30.31"]', 1)
                 .replace('"../maps/', f'"{ROOT}/maps/'))
    from engine.errors import BadFile
    with pytest.raises(BadFile) as e:                                          # an at-start sheet, scenario 1
        rules_for_path(p)
    assert "BW 2.1f" in str(e.value) and "B30.31" in str(e.value)


def test_1_3b_vehicles_in_a_trench_hex_are_in_open_terrain_on_their_own_area_fire_roll():
    from engine.rulesets.tcs.procs import area_attack, point_fire
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    t = next(h for h in sorted(r.trench) if "wire" not in r.board.features_of(h)
             and "el bastion" not in r.board.features_of(h))
    for k, u in st.units.items():
        if u.hex == t:
            u.hex = None
    tank, inf = "1-RB:KV1", "1-269-63Gd:1Co-P1"
    put(r, st, tank, r.hid(t))
    put(r, st, inf, r.hid(t))
    m = st.memory
    key = terrain_key(r.board, t)
    m.put("tcs.terrain.combat", (key,), "Partly Protective")
    m.put("tcs.terrain.fire_shift", ("Partly Protective",), -1)
    m.put("tcs.terrain.fire_shift", ("Open",), 0)
    m.put("tcs.area_fire_column", ("6",), 8)
    for col in range(1, 21):
        m.put("tcs.area_fire", (str(col), "7"), "-")
    events, need = run_proc(r, st, area_attack, [3, 4, 3, 4], 6, t, "a test battery")
    assert need is None
    fires = [e.data["column"] for e in events if e.kind == "fire"]
    assert fires == [5, 8]             # the platoon: 8 - 1 (class) - 2 (trench, 1.3a); the tank: Open, no trench
    assert [b for b in r.scenario.fire_shifts if b.feature == "trench"][0].shift == -2
    assert bw.target_class(r, st, tank, "Partly Protective") == "Open"                # point fire (1.3b)
    assert bw.target_class(r, st, inf, "Partly Protective") == "Protective"           # 1.3a
    out = next(n for n in r.board.neighbors(t) if "trench" not in r.board.features_of(n))
    st.units[inf].hex = out
    assert bw.target_class(r, st, inf, "Partly Protective") == "Partly Protective"  # off the trench: its terrain


def test_1_10k_a_sheet_drawn_before_play_starts_with_15_weighted_turns_and_later_ones_with_none():
    r = rules_n("8-counter-attack-at-krasni-bor")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.step = r.sequence(0).index(("command", "create", "soviet"))
    tank = "IndTk:T34-13"
    events = []
    r._do_newsheet(st, A.NewSheet("T1", "attack", "armour", (tank,), ("B40.16",), ()), "soviet", events)
    assert st.sheets["T1"].weighted_turns == 15 and not st.sheets["T1"].implemented
    del st.sheets["T1"]
    st.turn = 1                                                        # play has begun
    st.step = r.sequence(1).index(("command", "create", "soviet"))
    r._do_newsheet(st, A.NewSheet("T2", "attack", "armour", (tank,), ("B40.16",), ()), "soviet", events)
    assert st.sheets["T2"].weighted_turns == 0


def test_3_2_an_axis_battalion_fires_its_batteries_together_or_they_fire_alone_never_both_in_a_turn():
    r = rules_n("3-assault-the-line")
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    bn = r.batteries["I-250"]
    assert bn.fires_as == "battalion" and bn.calibre == "105mm" and "IV-250" in r.batteries
    de = r.batteries["I-215"]                                          # its batteries come by the table (3.5)
    assert bw.battalion_problem(r, st, de)[0] == "BW 3.2"                # not until all three are released
    st.released += ["de-I-215-1", "de-I-215-2", "de-I-215-3"]
    assert bw.battalion_problem(r, st, de) is None
    assert bw.battalion_problem(r, st, bn) is None
    st.batteries_used.append("Bty2")                                   # Bty2 fires alone this turn
    assert bw.battalion_problem(r, st, bn)[0] == "BW 3.2"
    refused(lambda: bw.check(bw.mission_problem(r, st, bn, "1-I-262:P1")), "BW 3.2")
    st.batteries_used = ["I-250"]                                      # the battalion fired: its batteries wait
    assert bw.battalion_problem(r, st, r.batteries["Bty1"])[0] == "BW 3.2"
    assert bw.battalion_problem(r, st, r.batteries["Bty7"]) is None     # another battalion's battery
    r4 = rules_n("4-melee-in-krasni-bor")                              # Bty1-3 and 9: I-250 whole, III-250 not
    assert "I-250" in r4.batteries and "III-250" not in r4.batteries


def test_1_2b_a_vehicle_on_the_embankment_is_point_fired_as_a_road_movement_target():
    from engine.rulesets.tcs.procs import point_fire
    from engine.rulesets.tcs.sight import terrain_key
    r, st = fresh()
    emb = next(h for h in sorted(r.board.features) if "rr embankment" in r.board.features_of(h)
               and "trench" not in r.board.features_of(h))
    off = next(n for n in r.board.neighbors(emb) if "rr embankment" not in r.board.features_of(n)
               and "trench" not in r.board.features_of(n))
    for u in st.units.values():
        if u.hex in (emb, off):
            u.hex = None
    tank = "1-RB:KV1"
    firer = next(k for k in r.order if r.specs[k].side == "axis" and not r.specs[k].vehicle)
    put(r, st, tank, r.hid(emb))
    put(r, st, firer, r.hid(off))
    m = st.memory
    for h in (emb, off):
        m.put("tcs.terrain.combat", (terrain_key(r.board, h),), "Partly Protective")
    m.put("tcs.counter.point_fire", (r.specs[firer].type,), 5)
    for cls, res in {"Billiard": "hit", "Open": "-", "Partly Protective": "-", "Protective": "-"}.items():
        m.put("tcs.point_fire", ("5", cls, "7"), res)
    _ev, need = run_proc(r, st.copy(), point_fire, [3, 4], firer, tank)
    p = need.pending["prompt"]                           # the series' road-movement column is asked (BW 1.2b)
    assert (p.slot, p.key) == ("tcs.road_target", ("Partly Protective",))
    m.put("tcs.road_target", ("Partly Protective",), "Billiard")
    events, _need = run_proc(r, st.copy(), point_fire, [3, 4], firer, tank)
    assert [e.data["result"] for e in events if e.kind == "pointfire"] == ["hit"]   # read as Billiard
    st.units[tank].hex = off                             # off the embankment: its own terrain, no road column
    st.units[firer].hex = emb
    events, _need = run_proc(r, st.copy(), point_fire, [3, 4], firer, tank)
    assert [e.data["result"] for e in events if e.kind == "pointfire"] == ["-"]
    assert bw.target_class(r, st, firer, "Partly Protective") == "Partly Protective"   # 1.2b: vehicles only


def test_1_10b_the_soviet_player_writes_his_own_prep_log_before_play_and_it_is_fired_and_replayed(tmp_path):
    from engine.game import load_game
    from engine.scenario.newgame import new_game
    path = ROOT / "scenarios" / "black-wednesday-1-turning-the-left.toml"
    g = new_game(path, 3, ("own-prep-log",))
    r = g.rules
    hist = bw.encode_log(r, r.bw_prep)
    assert [a.text() for a in g.legal_actions()] == ["preplog " + hist]       # the only action before play
    with pytest.raises(IllegalAction) as e:
        g.play("end")
    assert e.value.rule == "BW 1.10b"
    rows = hist.split("/")
    idle = "/".join(["-," + rows[0].split(",", 1)[1]] + rows[1:])              # a gun battalion left idle
    with pytest.raises(IllegalAction) as e:
        g.play("preplog " + idle)
    assert e.value.rule == "BW 2.4"
    mine = "/".join(["B20.30," + rows[0].split(",", 1)[1]] + rows[1:])         # 0600: 122mm 1 on B20.30
    g.play("preplog " + mine)
    assert bw.prep_log(r, g.state).target("0600 10 Feb", "122mm 1") == "B20.30"
    with pytest.raises(IllegalAction) as e:                                    # fixed once written (2.4)
        g.play("preplog " + hist)
    assert e.value.rule == "BW 2.4"
    fired = []
    for _ in range(400):                           # through the Command Phase (printed results answered) to the
        evs = g.play(g.legal_actions()[0] if g.state.pending else "end")       # Soviet Action Phase (2.4e)
        fired = [(e.data["battalion"], e.data["hex"]) for e in evs if e.kind == "prep"]
        if fired:
            break
    assert fired[0] == ("122mm 1", "B20.30")       # the player's target, not the historical one
    save = tmp_path / "game.toml"
    g.save(save)
    again = load_game(save)
    assert again.hash() == g.hash()
    assert bw.prep_log(again.rules, again.state).target("0600 10 Feb", "122mm 1") == "B20.30"


def test_4_3_purely_historical_german_schedule_and_the_engineers_by_the_hospital(tmp_path):
    from engine.errors import BadFile
    from engine.maps.hexes import hex_distance
    from engine.rulesets.tcs import rules_for_scenario
    from engine.rulesets.tcs.procs import release
    from engine.rulesets.tcs.scenario import load_tcs_scenario
    from engine.rulesets.tcs.variants import apply
    path = ROOT / "scenarios" / "black-wednesday-3c-campaign.toml"
    sc = load_tcs_scenario(path)
    with pytest.raises(BadFile):
        apply(sc, ["4.3", "own-prep-log"])                 # 4.3 fires the historical Log
    sc = load_tcs_scenario(path)
    apply(sc, ["4.3"])
    hospital = sc.board.parse_hex("B53.12")
    eng = [u for u in sc.units if u.id.startswith("1-Engineer:")]
    assert eng and all(hex_distance(sc.board.parse_hex(u.hex), hospital) <= 5 for u in eng)
    assert all(u.setup_rule == "BW 4.3" for u in eng)
    r = rules_for_scenario(sc)
    st = r.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    labels = [t.label for t in r.turns]
    st.turn = labels.index("1440 10 Feb")
    _ev, _need = run_proc(r, st, release, [])
    assert "de-1-635Ost" not in st.released                # not before its time
    st.turn = labels.index("1500 10 Feb")
    events, need = run_proc(r, st, release, [])            # no dice: the schedule, not the 3.5 table
    assert need is None
    assert {"de-1-635Ost", "de-2-635Ost"} <= set(st.released) and "de-1-390" not in st.released
    st.turn = labels.index("1700 11 Feb")
    run_proc(r, st, release, [])
    assert "de-flak" in st.released and "de-102" not in st.released and "de-226" not in st.released


def test_2_2d_an_82mm_mortar_company_fires_as_its_own_battery_and_spots_only_for_itself():
    r, st = fresh()
    mor, fo = "1-269-63Gd:Mor82", "269-63Gd:FO"
    put(r, st, mor, "B40.22", morale_state="", mode="fire")
    put(r, st, fo, "B40.22", morale_state="")
    bat = r.batteries[mor]
    assert (bat.unit, bat.calibre, bat.smoke) == (mor, "82mm", False)
    assert bw.mission_problem(r, st, bat, mor) is None
    assert bw.mission_problem(r, st, bat, fo)[0] == "BW 2.2d"                          # not even an FO
    assert bw.mission_problem(r, st, bat, "269-63Gd:FO-Mor")[0] == "BW 2.2d"
    refused(lambda: r.check_mission(st, A.PlaceMission(mor, "B34.17", fo, "he"), "soviet"), "BW 2.2d")


def test_2_3d_a_120mm_mortar_company_is_spotted_by_itself_or_its_own_regiments_mortar_fo():
    r, st = fresh()
    mor = "269-63Gd:Mor120"
    for u in (mor, "269-63Gd:FO-Mor", "270-63Gd:FO-Mor", "269-63Gd:FO"):
        put(r, st, u, "B40.22", morale_state="", mode="fire")
    bat = r.batteries[mor]
    assert bw.mission_problem(r, st, bat, mor) is None
    assert bw.mission_problem(r, st, bat, "269-63Gd:FO-Mor") is None
    assert bw.mission_problem(r, st, bat, "270-63Gd:FO-Mor")[0] == "BW 2.3d"          # another regiment's
    assert bw.mission_problem(r, st, bat, "269-63Gd:FO")[0] == "BW 2.3d"              # the artillery FO


def test_2_8_soviet_mortars_fire_no_smoke_and_on_map_mortars_fire_only_in_fire_mode_once_a_phase():
    r, st = fresh()
    mor = "1-269-63Gd:Mor82"
    put(r, st, mor, "B40.22", morale_state="", mode="fire", fired=False)
    refused(lambda: r._check_battery(st, mor, "smoke", "soviet"), "BW 2.8")
    refused(lambda: r._check_battery(st, mor, "illum", "soviet"), "BW 2.8")
    assert r._check_battery(st, mor, "he", "soviet").id == mor
    assert r.pool_key(r.batteries[mor], "he") is None           # no pool in the book: its rounds are not counted
    assert r.pool_key(r.batteries["343-1"], "he") == "soviet|76mm|he"
    st.units[mor].mode = "move"
    refused(lambda: r._check_battery(st, mor, "he", "soviet"), "TCS 5.0")
    st.units[mor].mode = "fire"
    st.units[mor].hex = None
    refused(lambda: r._check_battery(st, mor, "he", "soviet"), "TCS 18.0")


def test_2_2d_a_self_spotted_82mm_mission_is_placed_without_touching_the_pools_and_marks_the_company_fired():
    r, st = fresh()
    mor = "1-269-63Gd:Mor82"
    for k, u in st.units.items():
        u.hex = None
    put(r, st, mor, "B40.22", morale_state="", mode="fire", fired=False)
    put(r, st, "5-II-262:P1", "B40.21")
    pools = dict(st.ammo)
    offers = [a for a in r._mission_offers(st, "soviet", [mor]) if a.battery == mor]
    assert offers and {a.spotter for a in offers} == {mor} and {a.ammo for a in offers} == {"he"}
    r._do_placemission(st, A.PlaceMission(mor, "B40.21", mor, "he"), "soviet", [])
    assert st.ammo == pools and st.units[mor].fired
    refused(lambda: r._check_battery(st, mor, "he", "soviet"), "TCS 18.0")                 # once a phase


def test_3_2d_any_axis_unit_spots_for_its_batteries_while_soviet_artillery_needs_an_fo():
    r, st = fresh()
    for k, u in st.units.items():
        u.hex = None
    put(r, st, "5-II-262:P1", "B40.22", morale_state="")                  # an Axis rifle platoon, no FO
    put(r, st, "1-269-63Gd:1Co-P1", "B40.21", morale_state="")            # a Soviet rifle platoon beside it
    put(r, st, "269-63Gd:FO", "B40.21", morale_state="")
    r.check_mission(st, A.PlaceMission("Bty1", "B40.21", "5-II-262:P1", "he"), "axis")     # accepted
    offers = r._mission_offers(st, "axis", ["5-II-262:P1"])
    assert A.PlaceMission("Bty1", "B40.21", "5-II-262:P1", "he") in offers
    assert r.battery_spotters(st, "Bty1", "axis") == ["5-II-262:P1"]
    refused(lambda: r.check_mission(st, A.PlaceMission("343-1", "B40.22", "1-269-63Gd:1Co-P1", "he"), "soviet"),
            "BW 2.3d")
    assert r.battery_spotters(st, "343-1", "soviet") == ["269-63Gd:FO"]


def test_3_2_an_axis_81mm_mortar_section_is_an_on_map_battery_that_may_fire_smoke():
    r, st = fresh()
    mor = next(k for k in r.order if r.specs[k].type == "spanish 81mm mortar section")
    bat = r.batteries[mor]
    assert (bat.side, bat.calibre, bat.unit, bat.smoke) == ("axis", "81mm", mor, None)
    put(r, st, mor, "B40.22", morale_state="", mode="fire", fired=False)
    assert r._check_battery(st, mor, "smoke", "axis").id == mor               # 81 mm: the series' 80 mm rule
    assert bw.mission_problem(r, st, bat, mor) is None


def test_3_1c_axis_sheets_take_size_and_the_printed_staff_modifier_asked_once():
    from engine.rulesets.tcs.proc import Ctx, Need
    from engine.rulesets.tcs.procs import implement
    r, st = fresh()
    assert r.scenario.sides["axis"].staff_asked and not r.scenario.sides["soviet"].staff_asked   # 2.1d: Soviets none
    sheet = st.sheets["Sp-relief"]
    sheet.implemented, sheet.size, sheet.weighted_turns = False, 1, 99
    with pytest.raises(Need) as need:
        implement(r, st, Ctx(r, st, [], []), "Sp-relief")
    assert (need.value.pending["prompt"].slot, need.value.pending["prompt"].key) == ("tcs.staff_modifier", ("axis",))
    st.memory.put("tcs.staff_modifier", ("axis",), 1)
    events = []
    implement(r, st, Ctx(r, st, [1, 1], events), "Sp-relief")
    assert "on row 5 " in events[-1].text                      # Spanish Command Prep 3 + size 1 + staff 1
