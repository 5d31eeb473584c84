"""Leros positions an independent reading of the rulebook found the engine getting wrong: SFAs off any Op Sheet
(2.1e, 3.6i), weighted turns before the paratroops arrive (3.6i), paratroops assaulted as they land (3.6i)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs.games import leros as L
from engine.rulesets.tcs.state import OpSheet
from test_leros import SCEN, ctx_for, fresh, rules_for_path


@pytest.fixture(scope="module")
def s1():
    return rules_for_path(SCEN / "leros-1-curtain-rises.toml")


def _face_off(rules, st, shooter: str, target: str):
    """Only ``shooter`` (in Fire mode) and ``target`` on the map, next to each other; values for the shooter."""
    at = st.units[shooter].hex
    for k, u in st.units.items():
        if k not in (shooter, target):
            u.hex = None
    st.leros.boxed.pop(target, None)
    st.units[target].hex = next(n for n in rules.board.neighbors(at) if not L.is_all_sea(rules.board, n))
    st.units[shooter].mode = "fire"
    for slot, v in (("range", 3), ("firepower", 4), ("point_fire", 0)):
        st.memory.put(f"tcs.counter.{slot}", (rules.specs[shooter].type,), v)
    return A.Fire("sfa", (shooter,), rules.hid(st.units[target].hex))


# ---------------------------------------------------------------- 2.1e, 3.6i: SFAs without an Op Sheet

def test_2_1_e_the_lrdg_on_no_op_sheet_fires_an_sfa_and_an_unassigned_rifle_platoon_may_not(s1):
    st = fresh(s1)
    assert not st.units["LRDG"].sheet and s1.hid(st.units["LRDG"].hex) == "B44.17"
    sfa = _face_off(s1, st, "LRDG", "5-II-65-1")
    assert s1.check_fire(st, sfa, "british") == st.units["5-II-65-1"].hex        # 2.1e: refused before
    # a British rifle platoon off its sheet in the same place is refused (TCS 6.0)
    st2 = fresh(s1)
    rifle = next(k for k in s1.order if s1.specs[k].type == "british rifle platoon" and st2.units[k].hex is not None)
    st2.units[rifle].hex, st2.units[rifle].sheet = st2.units["LRDG"].hex, ""
    sfa2 = _face_off(s1, st2, rifle, "5-II-65-1")
    with pytest.raises(IllegalAction) as e:
        s1.check_fire(st2, sfa2, "british")
    assert e.value.rule == "TCS 6.0"


def test_3_6_i_a_paratroop_platoon_fires_an_sfa_in_its_no_op_sheet_period_and_not_after(s1):
    st = fresh(s1)
    fj = "4-I-FJ-MG1"                          # in the Athens box at the start: on no Op Sheet
    assert not st.units[fj].sheet
    st.leros.boxed.pop(fj)
    st.units[fj].hex = st.units["LRDG"].hex
    st.leros.free_until[fj] = st.turn + 3       # dropped this morning: free until the first night turn
    sfa = _face_off(s1, st, fj, "LRDG")
    assert s1.check_fire(st, sfa, "german") == st.units["LRDG"].hex
    st.leros.free_until[fj] = st.turn          # the period is over and it has no sheet
    with pytest.raises(IllegalAction, match="unassigned units may not fire SFAs"):
        s1.check_fire(st, sfa, "german")


# ---------------------------------------------------------------- 3.6i: no weighted turns before arriving

def test_3_6_i_an_op_sheet_for_paratroops_in_athens_accrues_nothing_until_one_lands(s1):
    st = fresh(s1)
    units = ["4-I-FJ-MG1", "4-I-FJ-MG2", "4-I-FJ-Mor"]
    assert all(st.leros.boxed[u] == "athens" for u in units)
    st.sheets["G-PARA"] = OpSheet("G-PARA", "german", "German", "attack", list(units), [s1.hex("B43.15")], [])
    kos = [u for u in s1.order if st.leros.boxed.get(u) == "kos"][:2]       # seaborne units: no such rule
    st.sheets["G-KOS"] = OpSheet("G-KOS", "german", "German", "attack", kos, [s1.hex("B43.15")], [])
    c = ctx_for(s1, st)
    s1.procs["accrue"](s1, st, c)
    assert st.sheets["G-PARA"].weighted_turns == 0
    assert any("G-PARA: no weighted turns" in e.text and "3.6i" in e.text for e in c.events)
    assert st.sheets["G-KOS"].weighted_turns == 3
    st.leros.boxed.pop("4-I-FJ-MG1")
    st.units["4-I-FJ-MG1"].hex = s1.hex("B43.15")                               # one has landed
    s1.procs["accrue"](s1, st, ctx_for(s1, st))
    assert st.sheets["G-PARA"].weighted_turns == 3


# ---------------------------------------------------------------- 3.6i: assaulted as they land

def _landing_assault(rules, st):
    """1-I-FJ-1 (infantry) and 4-I-FJ-MG1 (a machine gun) have just dropped on a hex next to the LRDG."""
    at = st.units["LRDG"].hex
    h = next(n for n in rules.board.neighbors(at) if not L.is_all_sea(rules.board, n))
    for k, u in st.units.items():
        if k != "LRDG":
            u.hex = None
    for k in ("1-I-FJ-1", "4-I-FJ-MG1"):
        for p in st.leros.planes.values():
            if k in p.load:
                p.load.remove(k)
        st.leros.boxed.pop(k, None)
        st.units[k].hex, st.units[k].mode = h, "move"
        st.leros.landed[k] = st.turn
        st.leros.free_until[k] = st.turn + 3
    st.units["LRDG"].mode = "move"
    m = st.memory
    for typ, fp in (("lrdg section", 3), ("german parachute platoon", 5), ("german parachute hmg platoon", 6)):
        m.put("tcs.counter.firepower", (typ,), fp)
        m.put("tcs.counter.morale", (typ,), 3)
    for fp in range(0, 15):
        m.put("tcs.area_fire_column", (str(fp),), fp)
    for col in range(1, 21):
        for roll in range(2, 13):
            m.put("tcs.area_fire", (str(col), str(roll)), "-")
    for t in ("village", "building"):
        m.put("tcs.terrain.combat", (t,), "Partly Protective")
    m.put("tcs.terrain.fire_shift", ("Partly Protective",), 0)
    for odds in ("3:1", "2:1", "1:1", "1:2", "1:3"):
        for roll in range(2, 13):
            m.put("tcs.assault", ("assault", odds, str(roll)), "H")
    return h


def test_3_6_i_assaulted_as_they_land_the_machine_gun_is_eliminated_and_the_infantry_fires_at_1(s1):
    st = fresh(s1)
    h = _landing_assault(s1, st)
    st.preset_dice = [3, 4, 2, 2, 1, 1, 5, 5]
    c = ctx_for(s1, st)
    s1.procs["assault"](s1, st, c, ["LRDG"], s1.hid(h))
    assert st.units["4-I-FJ-MG1"].hex is None and st.leros.boxed["4-I-FJ-MG1"] == "dead"
    assert any("4-I-FJ-MG1 is eliminated" in e.text and "3.6i" in e.text for e in c.events)
    fires = [e.text for e in c.events if e.kind == "fire"]
    assert fires[0].startswith("LRDG at ") and "column 4," in fires[0]              # 3, +1 assault (1.7)
    assert fires[1].startswith("1-I-FJ-1 at ") and "column 1," in fires[1]      # strength 1, not its 5
    assert st.units["1-I-FJ-1"].hex == h


def test_3_6_i_at_their_next_action_phase_the_landed_units_defend_normally(s1):
    st = fresh(s1)
    h = _landing_assault(s1, st)
    st.leros.landed.clear()                     # what the next German Action Phase does (leros_phase)
    st.preset_dice = [3, 4, 2, 2, 1, 1, 5, 5]
    c = ctx_for(s1, st)
    s1.procs["assault"](s1, st, c, ["LRDG"], s1.hid(h))
    assert st.units["4-I-FJ-MG1"].hex == h
    fires = [e.text for e in c.events if e.kind == "fire"]
    assert fires[1].startswith("1-I-FJ-1+4-I-FJ-MG1 at ") and "column 11," in fires[1]


def test_3_6_i_the_next_german_action_phase_ends_the_landing(s1):
    st = fresh(s1)
    st.leros.landed["1-I-FJ-1"] = st.turn
    s1.procs["leros_phase"](s1, st, ctx_for(s1, st), "british")
    assert L.still_landing(st, "1-I-FJ-1")
    s1.procs["leros_phase"](s1, st, ctx_for(s1, st), "german")
    assert not L.still_landing(st, "1-I-FJ-1")


# ---------------------------------------------------------------- 3.6j: the first three boxes are preparation

def test_3_6_j_in_a_gale_a_flight_in_box_b_moves_on_to_c_and_a_self_abort_there_goes_straight_to_athens():
    s2 = rules_for_path(SCEN / "leros-2-drop-zone.toml")
    st = fresh(s2)
    p = next(p for p in st.leros.planes.values() if p.load)
    load = list(p.load)
    assert p.box == "air-B"                     # scenario 2 sets I-FJ up in Box B
    st.weather = "Gale"
    L.air_movement(s2, st, ctx_for(s2, st))
    assert p.box == "air-C" and p.load == load and not p.aborted       # no weather abort in preparation
    ev = []
    L.abort_flight(st, p.id, ev)                # called off in the third box: straight back to Athens
    assert p.box == "athens" and not p.load and all(st.leros.boxed[u] == "athens" for u in load)
    assert "in preparation and is back in Athens (Leros 3.6j)" in ev[0].text


def test_3_6_j_called_off_in_box_d_a_flight_crosses_to_the_return_leg():
    s2 = rules_for_path(SCEN / "leros-2-drop-zone.toml")
    st = fresh(s2)
    p = next(p for p in st.leros.planes.values() if p.load)
    p.box = "air-D"
    L.abort_flight(st, p.id, [])
    assert p.box == "air-return-3" and p.returning and p.aborted and p.load


# ---------------------------------------------------------------- 5.2b: every step lost before the start counts

def test_5_2_b_the_big_show_campaign_starts_with_the_51_british_steps_its_set_up_lists():
    """Scenario 4's British losses: Kings 5+5+4, Irish 1+1+5+9 and its battalion units 3 + 2 MG, Buffs 5+3 and
    its battalion units 3 + 2 MG, B-Kents 3 = 51 (the battalion units' 3 steps each were lost: the generator put
    them on rifle platoons only, and a battalion's own units are an MG platoon and a mortar section)."""
    c4 = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st = c4.initial_state(1)
    assert st.units["Irish-MG"].steps_lost + st.units["Irish-Mor"].steps_lost == 5
    st.over = True
    out = c4.outcome(st)
    assert out.breakdown["steps lost"]["british"] == 51
    assert out.winner == "british" and out.breakdown["level"] == "Major"     # 50-100 lost (it read Strategic)


def test_5_2_b_the_curtain_falls_campaign_counts_the_losses_its_counters_cannot_carry():
    """Scenario 5 lists 123 British steps lost; our counters carry 106 (the Kings Bn units alone lose 12 steps on an
    MG platoon and a mortar section), the file keeps the other 17 and the count takes them all."""
    c5 = rules_for_path(SCEN / "leros-c5-campaign.toml")
    assert c5.leros["losses_off_counters"] == {"british": 17}
    st = c5.initial_state(1)
    on_counters = sum(u.steps_lost for k, u in st.units.items() if c5.specs[k].side == "british")
    assert on_counters == 106
    st.over = True
    assert c5.outcome(st).breakdown["steps lost"]["british"] == 123


def test_5_2_b_a_bad_count_of_losses_off_the_counters_is_refused_with_its_key(tmp_path):
    from engine.errors import BadFile
    from engine.rulesets.tcs.scenario import load_tcs_scenario
    text = (SCEN / "leros-c5-campaign.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("losses_off_counters = { british = 17 }", 'losses_off_counters = { british = "many" }')
                   .replace('map = "../maps/leros.toml"', f'map = "{(SCEN.parent / "maps" / "leros.toml").as_posix()}"'),
                   encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_tcs_scenario(bad)
    assert "leros.losses_off_counters.british" in str(e.value)


def test_5_2_b_a_unit_destroyed_whole_counts_all_its_steps():
    """A full-strength platoon evicted by an assault (the series' eliminate) or lost at sea (Leros' own) had lost no
    step on its counter: the count takes all five of its steps (the counter value the game knows)."""
    c4 = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st = fresh(c4)
    st.over = True
    before = c4.outcome(st).breakdown["steps lost"]
    st.units["B-Kings-1"].hex = None                       # evicted: off the map, in no box
    L._destroy(st, "5-II-16-1")                             # German: its 2 lost steps become 5
    lost = c4.outcome(st).breakdown["steps lost"]
    assert lost["british"] == before["british"] + 5 and lost["german"] == before["german"] + 3


def test_5_1_f_the_companies_a_set_up_leaves_out_start_dead_and_count_all_their_steps():
    """Scenario 5's "Dead: A-Irish, 9 FA, AT Bn, Lgt AA, MG Bn": 3 + 3 + 4 + 6 + 9 = 25 counters in the dead pile;
    with five steps a counter (the values this test's book holds) the campaign counts 123 + 125 British steps.
    Scenario 4 leaves out A-Irish and the AT Bn and has 4 of 6 AA guns, 8 of 9 MGs, 2 of 3 guns in play."""
    c5 = rules_for_path(SCEN / "leros-c5-campaign.toml")
    st = fresh(c5)
    dead = [k for k in c5.order if st.leros.boxed.get(k) == "dead"]
    assert len(dead) == 25 and all(st.units[k].hex is None and c5.specs[k].side == "british" for k in dead)
    st.over = True
    assert c5.outcome(st).breakdown["steps lost"]["british"] == 123 + 25 * 5
    c4 = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st4 = c4.initial_state(1)
    assert sorted(k for k in c4.order if st4.leros.boxed.get(k) == "dead") == sorted(
        ["A-Irish-1", "A-Irish-2", "A-Irish-3", "AT-1", "AT-2", "AT-3", "AT-4", "AA-5", "AA-6", "MG-9", "9FA-3"])


# ---------------------------------------------------------------- 1.2g: a battery's hex taken by assault

def test_1_2_g_a_battery_hex_the_germans_take_by_assault_destroys_the_battery(s1):
    st = fresh(s1)
    letter, bh = sorted(L.battery_hexes(s1.board).items())[0]
    assert letter not in st.leros.batteries_lost
    brit = next(k for k in s1.order if s1.specs[k].type == "british rifle platoon" and st.units[k].hex is not None)
    ger = "5-II-65-1"
    for k, u in st.units.items():
        u.hex = None
    st.leros.boxed.pop(ger, None)
    st.units[brit].hex = bh
    st.units[ger].hex = next(n for n in s1.board.neighbors(bh) if not L.is_all_sea(s1.board, n))
    m = st.memory
    for typ in ("british rifle platoon", "german rifle platoon"):
        m.put("tcs.counter.firepower", (typ,), 2)
        m.put("tcs.counter.morale", (typ,), 3)
    for fp in range(0, 15):
        m.put("tcs.area_fire_column", (str(fp),), fp)
    for col in range(1, 21):
        for roll in range(2, 13):
            m.put("tcs.area_fire", (str(col), str(roll)), "-")
    for t in ("village", "building", "woods"):
        m.put("tcs.terrain.combat", (t,), "Partly Protective")
    m.put("tcs.terrain.fire_shift", ("Partly Protective",), 0)
    for roll in range(2, 13):
        m.put("tcs.assault", ("assault", "1:1", str(roll)), "E")
    st.preset_dice = [3, 4, 2, 2, 5, 5]
    s1.procs["assault"](s1, st, ctx_for(s1, st), [ger], s1.hid(bh))
    assert st.units[ger].hex == bh and st.units[brit].hex is None
    assert letter in st.leros.batteries_lost                  # occupied by the enemy: destroyed for good
