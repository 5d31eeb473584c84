"""Leros on the TCS engine: sea movement, parachute assaults, surrender, weather, victory and the scenarios,
each with fixed dice (``state.preset_dice``) and the printed cells an owner would type (``state.memory``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import IllegalAction
from engine.maps.hexes import hex_distance
from engine.rulesets.tcs import rules_for_path
from engine.rulesets.tcs.games import leros as L
from engine.rulesets.tcs.games.leros_rules import LerosRules, LerosState, parse_leros
from engine.rulesets.tcs.proc import Ctx, Need
from engine.rulesets.tcs.scenario import load_tcs_scenario

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios"
ALL = sorted(p.name for p in SCEN.glob("leros-*.toml"))


@pytest.fixture(scope="module")
def s1():
    return rules_for_path(SCEN / "leros-1-curtain-rises.toml")


@pytest.fixture(scope="module")
def s2():
    return rules_for_path(SCEN / "leros-2-drop-zone.toml")


def fresh(rules, dice=()):
    st = rules.initial_state(1)
    st.pending, st.setup = [], []            # past the set-up phase
    st.preset_dice = list(dice)
    for typ in {s.type for s in rules.scenario.units}:
        st.memory.put("tcs.counter.steps", (typ,), 5)
    return st


def ctx_for(rules, st, inputs=()):
    return Ctx(rules, st, list(inputs), [])


# ---------------------------------------------------------------- the scenarios

@pytest.mark.parametrize("name", ALL)
def test_each_leros_scenario_loads_with_its_tracks_and_victory(name):
    sc = load_tcs_scenario(SCEN / name)
    rules = rules_for_path(SCEN / name)
    assert isinstance(rules, LerosRules)
    st = rules.initial_state(3)
    assert isinstance(st, LerosState)
    assert sc.leros["victory"]["features"]
    # every unit is on the map or in a box, a boat or a Ju-52
    for uid, u in st.units.items():
        assert (u.hex is not None) != (uid in st.leros.boxed), uid
    assert len(ALL) == 9


def test_scenario_1_sets_the_invasion_fleet_in_box_a_and_the_paratroops_in_air_box_b(s1):
    st = s1.initial_state(1)
    loaded = {b.id: b for b in st.leros.boats.values() if b.load}
    assert {b.lz for b in loaded.values()} == {3, 4, 5, 13}
    assert all(b.box == "A" for b in loaded.values())
    assert loaded["MFP-5"].load == ["Kust-Co-1", "Kust-Co-2", "Kust-Co-3"]
    planes = [p for p in st.leros.planes.values() if p.load]
    assert len(planes) == 5 and {p.box for p in planes} == {"air-B"} and {p.dz for p in planes} == {"B34.25"}
    assert st.leros.boxed["4-I-FJ-MG1"] == "athens" and st.leros.boxed["3-Arty-1"] == "kos"
    assert s1.charts["leros.sea_box"].known[("german", "13")] == "A"


def test_scenario_2_drop_zones_are_chosen_before_the_british_set_up(s2):
    st = s2.initial_state(1)
    assert {p.dz for p in st.leros.planes.values() if p.load} == {"B34.25"}
    assert s2.scenario.options["illum_always_scatters"] and s2.scenario.sides["british"].max_implemented == 2
    assert s2.scenario.sides["german"].max_implemented == 3 and s2.scenario.sides["german"].command_prep == 3


def test_a_bad_leros_section_is_refused_with_its_key(tmp_path):
    text = (SCEN / "leros-2-drop-zone.toml").read_text()
    bad = text.replace('dz = "B34.25"', 'dz = "B99.99"', 1).replace('kind = "features_held"', 'kind = "whatever"')
    p = tmp_path / "bad.toml"
    p.write_text(bad.replace('"../maps/leros.toml"', f'"{ROOT / "maps" / "leros.toml"}"'))
    with pytest.raises(Exception) as e:
        load_tcs_scenario(p)
    msg = str(e.value)
    assert "leros.planes[0].dz" in msg and "leros.victory.kind" in msg


# ---------------------------------------------------------------- 1.2 sea movement

def test_1_2_a_landing_from_embarkation_through_a_storm_to_an_abort_and_home(s1):
    """Embark at Kos for Landing Zone 7 (box C on the track), a storm holds the boat on a 4 and lets it go on a
    5, coastal gunfire of total 3 rolls 7: abort, so each platoon loses a step, and the boat sails home."""
    st = fresh(s1, dice=[4, 5, 3, 4])
    st.memory.put("leros.boat_loading", ("Barge",), 3)
    st.memory.put("leros.sea_box", ("german", "7"), "B")
    for letter in "ABCDEFGHIJKLM":
        st.memory.put("leros.battery_summary", ("7", letter), 2 if letter == "D" else 1 if letter == "E" else 0)
    st.memory.put("leros.coastal_gunfire", ("3", "7"), "abort")
    st.leros.boats = {"Barge-10": st.leros.boats["Barge-10"]}       # this boat alone on the track
    c = ctx_for(s1, st)
    L.embark(s1, st, c, "Barge-10", ["13-16-1", "8-II-16-MG1"], 7, "german")
    b = st.leros.boats["Barge-10"]
    assert b.box == "A" and st.leros.boxed["13-16-1"] == "boat"
    st.weather = "Storm"
    L.sea_movement(s1, st, ctx_for(s1, st), "german")            # rolls 4: held (1.4d)
    assert b.box == "A"
    L.sea_movement(s1, st, ctx_for(s1, st), "german")            # rolls 5: advances to B, its zone's box
    assert b.box == "B" and b.waited
    st.weather = "Normal"
    c = ctx_for(s1, st)
    L.sea_movement(s1, st, c, "german")                          # Approach box, gunfire 3 + 4 = 7: abort
    assert b.box == "approach" and b.returning
    assert st.units["13-16-1"].steps_lost == 1 and st.units["8-II-16-MG1"].steps_lost == 1
    assert st.units["13-16-1"].hex is None and any("aborts" in e.text for e in c.events)
    L.sea_movement(s1, st, ctx_for(s1, st), "german")            # 1.2h: home the turn after
    assert b.box == "D" and b.returning
    for _ in range(4):
        L.sea_movement(s1, st, ctx_for(s1, st), "german")
    assert b.box == "kos" and not b.load and st.leros.boxed["13-16-1"] == "kos"


def test_1_2_f_a_boat_lands_its_load_in_move_mode_with_its_op_sheet_implemented(s1):
    st = fresh(s1, dice=[1, 1])
    st.leros.boats = {"MFP-5": st.leros.boats["MFP-5"]}
    b = st.leros.boats["MFP-5"]                                     # Kust-Co for Landing Zone 5, box A
    for letter in "ABCDEFGHIJKLM":
        st.memory.put("leros.battery_summary", ("5", letter), 1 if letter == "G" else 0)
    st.memory.put("leros.coastal_gunfire", ("1", "2"), "-")
    L.sea_movement(s1, st, ctx_for(s1, st), "german")              # already in its box: it waits to land
    assert b.waited
    coast = [s1.hid(h) for h in L.lz_hexes(s1.board, 5) if "coast" in s1.board.features_of(h)]
    c = ctx_for(s1, st, inputs=[1, 1, coast[0], coast[1], coast[0]])
    L.sea_movement(s1, st, c, "german")
    assert [s1.hid(st.units[u].hex) for u in ("Kust-Co-1", "Kust-Co-2", "Kust-Co-3")] == [coast[0], coast[1], coast[0]]
    assert all(st.units[u].mode == "move" and st.units[u].sheet == "G-LZ5" for u in ("Kust-Co-1", "Kust-Co-2"))
    assert st.sheets["G-LZ5"].implemented


def test_1_2_g_a_sunk_boat_takes_its_load_and_no_roll_without_fire(s1):
    st = fresh(s1, dice=[6, 6])
    st.leros.boats = {"MFP-5": st.leros.boats["MFP-5"]}
    b = st.leros.boats["MFP-5"]
    b.waited = True
    for letter in "ABCDEFGHIJKLM":
        st.memory.put("leros.battery_summary", ("5", letter), 4 if letter == "G" else 0)
    st.memory.put("leros.coastal_gunfire", ("4", "12"), "sunk")
    L.sea_movement(s1, st, ctx_for(s1, st), "german")
    assert "MFP-5" not in st.leros.boats and st.leros.boxed["Kust-Co-1"] == "dead"
    st = fresh(s1)
    st.leros.boats = {"MFP-5": st.leros.boats["MFP-5"]}
    st.leros.boats["MFP-5"].waited = True
    st.leros.batteries_lost = ["G"]
    for letter in "ABCDEFGHIJKLM":
        st.memory.put("leros.battery_summary", ("5", letter), 4 if letter == "G" else 0)
    coast = [s1.hid(h) for h in L.lz_hexes(s1.board, 5) if "coast" in s1.board.features_of(h)]
    c = ctx_for(s1, st, inputs=[coast[0]] * 3)
    L.sea_movement(s1, st, c, "german")           # battery G is out: no fire, no roll, the landing goes on
    assert st.units["Kust-Co-1"].hex is not None and any("no coastal battery" in e.text for e in c.events)


def test_1_2_g_a_blank_battery_summary_cell_asks_for_the_printed_value(s1):
    st = fresh(s1)
    st.leros.boats = {"MFP-5": st.leros.boats["MFP-5"]}
    st.leros.boats["MFP-5"].waited = True
    with pytest.raises(Need) as n:
        L.sea_movement(s1, st, ctx_for(s1, st), "german")
    p = n.value.pending["prompt"]
    assert p.slot == "leros.battery_summary" and p.key == ("5", "A")


def test_1_2_b_c_loading_points_and_heavy_loads(s1):
    st = fresh(s1)
    st.memory.put("leros.boat_loading", ("Barge",), 2)
    st.memory.put("leros.boat_heavy", ("Barge",), "no")
    with pytest.raises(IllegalAction, match="carries 2 loading points"):
        L.check_embark(s1, st, "Barge-10", ["13-16-1", "13-16-2", "8-II-16-MG1"], 6, "german", ctx_for(s1, st))
    with pytest.raises(IllegalAction) as e:
        L.check_embark(s1, st, "Barge-10", ["3-Arty-1"], 6, "german", ctx_for(s1, st))
    assert e.value.rule == "Leros 1.2c"
    with pytest.raises(IllegalAction, match="not a unit of german in the kos box"):
        L.check_embark(s1, st, "Barge-10", ["5-II-65-1"], 6, "german", ctx_for(s1, st))


def test_1_2_c_heavy_loads_unload_only_at_a_friendly_pier_and_not_in_a_storm(s1):
    st = fresh(s1)
    pier = L.piers_of(s1.board, 6)[0]
    b = st.leros.boats["Barge-10"]
    b.load, b.lz, b.box = ["3-Arty-1"], 6, "approach"
    st.leros.boxed["3-Arty-1"] = "boat"
    st.memory.put("tcs.counter.movement", ("german 105mm howitzer",), 2)
    L._land(s1, st, ctx_for(s1, st), b)                  # no friendly unit on the pier: stays aboard
    assert b.load == ["3-Arty-1"]
    st.units["5-II-65-1"].hex = pier
    st.weather = "Storm"
    L._land(s1, st, ctx_for(s1, st), b)                  # storm: stays aboard
    assert b.load == ["3-Arty-1"]
    st.weather = "Normal"
    c = ctx_for(s1, st)
    L._land(s1, st, c, b)
    assert st.units["3-Arty-1"].hex == pier and not b.load
    assert st.ammo["german|105mm|he"] == 8 and st.ammo["german|105mm|smoke"] == 2 and st.ammo["german|105mm|illum"] == 1


def test_1_2_a_boats_move_three_boxes_at_night():
    rules = rules_for_path(SCEN / "leros-1a-night-landings.toml")
    st = fresh(rules)
    st.memory.put("leros.boat_loading", ("Barge",), 3)
    st.memory.put("leros.sea_box", ("german", "9"), "D")
    st.leros.boats = {"Barge-10": st.leros.boats["Barge-10"]}
    L.embark(rules, st, ctx_for(rules, st), "Barge-10", ["13-16-1"], 9, "german")
    assert rules.turns[st.turn].kind == "night"
    L.sea_movement(rules, st, ctx_for(rules, st), "german")
    assert st.leros.boats["Barge-10"].box == "D"


# ---------------------------------------------------------------- 3.6 parachute assaults

def _directions(st):
    for i, d in enumerate(("N", "NE", "SE", "S", "SW", "NW"), start=1):
        st.memory.put("tcs.scatter_direction", (str(i),), d)


def test_3_6_a_drop_lands_one_flight_in_the_sea_one_on_the_british_and_one_near_them(s2):
    """The drop zone is a coast hex; it scatters 0 (a 1 halved).  Flight 1 drifts 0 (a 2) and lands on the sea
    side; flight 2 drifts 0 and lands on a British unit; flight 3 drifts 1 north (a 3) and lands near it,
    within 3 hexes of the British: the Parachute Loss Table's 1 step each."""
    st = fresh(s2)
    _directions(st)
    board = s2.board
    faces = {"N": 1, "NE": 2, "SE": 3, "S": 4, "SW": 5, "NW": 6}
    cands = sorted(h for h in board.hexes() if "coast" in board.features_of(h) and board.hex_id(h).startswith("B")
                   and board.terrain.get(h) != "sea")
    coast = next(h for h in cands
                 if any(L.is_all_sea(board, L._step(h, d, 1)) for d in faces)
                 and not L.is_all_sea(board, L._step(h, "N", 1))
                 and any(not L.is_all_sea(board, L._step(L._step(h, "N", 1), d, 1)) for d in faces)
                 and sum(not L.is_all_sea(board, L._step(h, d, 1)) for d in faces) >= 2)
    sea_dir = next(d for d in faces if L.is_all_sea(board, L._step(coast, d, 1)))
    land_dirs = [d for d in faces if not L.is_all_sea(board, L._step(coast, d, 1))]
    enemy_hex = L._step(coast, land_dirs[0], 1)
    brit = next(k for k in s2.order if s2.specs[k].side == "british")
    for k, u in st.units.items():            # clear the neighbourhood, then put one British unit beside the zone
        if u.hex is not None and s2.specs[k].side == "british" and hex_distance(u.hex, coast) <= 5:
            u.hex = None
    st.units[brit].hex = enemy_hex
    st.leros.drift = "N"
    planes = sorted(p for p in st.leros.planes if st.leros.planes[p].load)[:3]
    for p in planes:
        st.leros.planes[p].dz = s2.hid(coast)
        st.leros.planes[p].box = "air-execution"
    # the third flight: drift 1 north, then a direction to a land hex 2 from the British unit
    drift3 = L._step(coast, "N", 1)
    third = next(d for d in faces if not L.is_all_sea(board, L._step(drift3, d, 1))
                 and 1 <= hex_distance(L._step(drift3, d, 1), enemy_hex) <= 3)
    rng = hex_distance(L._step(drift3, third, 1), enemy_hex)
    st.memory.put("leros.parachute_loss", (str(rng),), 1)
    st.preset_dice = [1, 1, 2, faces[sea_dir], 2, faces[land_dirs[0]], 3, faces[third]]
    c = ctx_for(s2, st)
    L.parachute_assault(s2, st, c, planes)
    one, two, three = (st.leros.planes[p] for p in planes)
    lost = [u for u, where in st.leros.boxed.items() if where == "dead"]
    assert len(lost) == 4                               # flights 1 and 2, two units each
    assert any("in the sea" in e.text and "3.6h" in e.text for e in c.events)
    assert any("is destroyed (Leros 3.6f)" in e.text for e in c.events)
    landed = [u for u in st.units if st.leros.landed.get(u) == st.turn]
    assert len(landed) == 2 and all(st.units[u].hex == L._step(drift3, third, 1) for u in landed)
    assert all(st.units[u].steps_lost == 1 and st.units[u].mode == "move" for u in landed)
    assert all(p.box == "air-return-1" and not p.load for p in (one, two, three))
    assert all(s2.has_orders(st, u) for u in landed)      # 3.6i: no Op Sheet needed until the first night turn


def test_3_6_e_the_drop_zone_scatters_half_the_die_and_stays_on_land(s2):
    st = fresh(s2)
    _directions(st)
    p = next(p for p in st.leros.planes.values() if p.load)
    p.box = "air-execution"
    st.memory.put("leros.parachute_loss", ("0",), 0)
    st.preset_dice = [4, 5, 2, 1]                           # S, 5 // 2 = 2 hexes; drift 0; lands N
    for k, u in st.units.items():
        if s2.specs[k].side == "british":
            u.hex = None
    c = ctx_for(s2, st)
    L.parachute_assault(s2, st, c, [p.id])
    dz = s2.hex("B34.25")
    marker = L._step(dz, "S", 2)
    assert any(f"scatters 2 S to {s2.hid(marker)}" in e.text for e in c.events)


def test_3_6_b_j_air_movement_one_box_a_turn_and_weather_aborts_past_the_preparation_boxes(s2):
    st = fresh(s2)
    p = next(p for p in st.leros.planes.values() if p.load)
    st.weather = "Gale"
    L.air_movement(s2, st, ctx_for(s2, st))
    assert p.box == "air-C" and not p.returning                       # B to C: still preparation (3.6j)
    L.air_movement(s2, st, ctx_for(s2, st))
    assert p.box == "air-return-3" and p.returning and p.aborted      # C to D, the first facing a return box
    for _ in range(3):
        L.air_movement(s2, st, ctx_for(s2, st))
    assert p.box == "athens" and not p.load and st.leros.boxed[p.id and "1-I-FJ-1"] == "athens"
    ev = []
    L.plan_flight(s2, st, p.id, ["1-I-FJ-1"], "B34.25", ev)
    st.weather = "Normal"
    L.start_flight(s2, st, p.id, ev)
    assert p.box == "air-A"
    L.abort_flight(st, p.id, ev)                              # a self-abort in preparation: straight home
    assert p.box == "athens" and st.leros.boxed["1-I-FJ-1"] == "athens"


def test_3_6_c_d_flights_are_one_or_two_paratroop_units(s2):
    st = fresh(s2)
    p = next(p for p in st.leros.planes.values() if not p.load)
    with pytest.raises(IllegalAction, match="one or two units"):
        L.check_plan(s2, st, p.id, ["a", "b", "c"], "B34.25")
    with pytest.raises(IllegalAction, match="not a German unit in the Athens box"):
        L.check_plan(s2, st, p.id, ["Kust-Co-1"], "B34.25")


def test_3_6_c_each_company_has_one_drop_zone_and_another_company_may_have_its_own(s1):
    st = fresh(s1)
    carrier = next(p for p in st.leros.planes.values() if "1-I-FJ-3" in p.load)
    carrier.load.remove("1-I-FJ-3")                 # 1-I-FJ's third platoon waits in Athens; its company is in
    st.leros.boxed["1-I-FJ-3"] = "athens"          # the air, bound for B34.25
    with pytest.raises(IllegalAction, match="company 1-I-FJ already drops at B34.25"):
        L.check_plan(s1, st, "Ju52-6", ["1-I-FJ-3"], "B36.21")
    assert L.check_plan(s1, st, "Ju52-6", ["1-I-FJ-3"], "B34.25").id == "Ju52-6"
    # the weapons company 4-I-FJ is another company: a drop zone of its own
    assert L.check_plan(s1, st, "Ju52-6", ["4-I-FJ-MG1", "4-I-FJ-MG2"], "B36.21").id == "Ju52-6"


# ---------------------------------------------------------------- 1.3 surrender, 1.4 weather, 5.2 victory

def test_1_3_a_surrender_demand_rolls_with_a_plus_one_per_ten_counters():
    rules = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st = fresh(rules)
    n = L.counters_on_leros(rules, st, "british")
    mod = (n + 5) // 10
    st.preset_dice = [5 - mod] if 5 - mod >= 1 else [1]
    c = ctx_for(rules, st)
    assert L.surrender_allowed(rules, st, "german") == ""
    gives = L.surrender_check(rules, st, c, "german")
    assert gives == (st.preset_dice == [] and (5 - mod if 5 - mod >= 1 else 1) + mod < 6)
    assert f"+{mod} ({n} counters)" in c.events[-1].text
    st.leros.demands["german"] = 2
    assert "two demands" in L.surrender_allowed(rules, st, "german")
    assert L.surrender_tie(ctx_for(rules, st, [3])) == "british" and L.surrender_tie(ctx_for(rules, st, [4])) == "german"


def test_1_3_surrender_only_in_campaigns_and_from_0100_nov_13(s1):
    st = fresh(s1)
    assert "campaign" in L.surrender_allowed(s1, st, "german")
    c1 = rules_for_path(SCEN / "leros-c1-campaign.toml")
    assert "0100 Nov 13" in L.surrender_allowed(c1, fresh(c1), "german")


def test_1_3_the_demand_action_in_play_and_the_game_ends_with_the_turn():
    rules = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st = rules.initial_state(2, dice=[1])
    st.pending = []
    assert rules.current(st)[1] == "setup"
    st, _ev = rules.apply(st, "end")            # the German and British set-ups as written
    st, _ev = rules.apply(st, "end")
    assert rules.current(st)[1] == "review"
    from engine.rulesets.tcs.games.leros_rules import Demand
    assert Demand() in rules.legal_actions(st)
    n = L.counters_on_leros(rules, st, "british")
    st2, ev = rules.apply(st, parse_leros("demand"))
    assert st2.leros.demands["german"] == 1
    assert (st2.leros.surrendered == "british") == (1 + (n + 5) // 10 < 6)


def test_1_4_weather_effects():
    assert L.weather_effects("Normal") == {"sorties": True, "air_movement": True, "smoke_illum": True,
                                           "zones_block_los": True, "weather_limits_visibility": False,
                                           "boats_roll": False}
    assert L.weather_effects("Wind")["sorties"] and not L.weather_effects("Wind")["air_movement"]
    g, s = L.weather_effects("Gale"), L.weather_effects("Storm")
    assert not g["sorties"] and not g["smoke_illum"] and not g["zones_block_los"] and not g["boats_roll"]
    assert not s["sorties"] and s["boats_roll"]
    with pytest.raises(IllegalAction):
        L.weather_effects("Fog")


def test_1_1_terrain_facts_in_the_charts(s1):
    assert s1.charts["tcs.terrain.height"].known[("woods",)] == 5
    assert s1.charts["tcs.terrain.combat"].known[("clear",)] == "Partly Protective"
    assert s1.charts["tcs.terrain.spotting"].known[("clear",)] == "open"
    assert any(f.feature == "castle" and f.shift == -2 and f.rule == "Leros 1.1c" for f in s1.scenario.fire_shifts)
    assert s1.options["illum_always_scatters"] and s1.options["no_smoke_weather"] == ["Gale", "Storm"]


def test_5_2_a_a_multi_hex_village_needs_every_hex():
    rules = rules_for_path(SCEN / "leros-3-night-melee.toml")
    st = fresh(rules)
    town = next(f for f in rules.features if f["name"] == "Leros")["hexes"]
    assert L.feature_holder(rules, st, town) == "british"
    rules._take(st, rules.hex(town[0]), "german")
    assert L.feature_holder(rules, st, town) == ""
    for h in town:
        rules._take(st, rules.hex(h), "german")
    for k, u in st.units.items():
        if u.hex is not None and rules.hid(u.hex) in town:
            u.hex = None
    assert L.feature_holder(rules, st, town) == "german"


def test_5_2_scenario_levels_and_shifts():
    rules = rules_for_path(SCEN / "leros-3-night-melee.toml")
    st = fresh(rules)
    st.over = True
    out = rules.outcome(st)
    held = sum(1 for v in out.breakdown["features"].values() if v == "british")
    assert out.breakdown["level"] == rules.leros["victory"]["levels"][held]
    assert L.shift_level("Draw", 1) == "British Minor" and L.shift_level("British Massive", 1) == "British Massive"
    assert L.campaign_level(49) == "Strategic" and L.campaign_level(50) == "Major"
    assert L.campaign_level(101) == "Minor" and L.campaign_level(151) == "Pyrrhic"


def test_5_2_scenario_1_counts_german_captures(s1):
    st = fresh(s1)
    st.over = True
    for k, u in st.units.items():
        if s1.specs[k].side == "german":
            u.steps_lost = 0
    assert s1.outcome(st).breakdown["level"] == "British Major"      # British Minor (no 40 steps), +1 historical set-up
    st.control[s1.hex("B43.15")] = "german"
    st.control[s1.hex("B55.12")] = "german"
    for k, u in st.units.items():
        if u.hex in (s1.hex("B43.15"), s1.hex("B55.12")):
            u.hex = None
    assert s1.outcome(st).breakdown["level"] == "Draw"               # German Minor shifted one to the British


def test_2_5_the_solitaire_naval_plot_draws_two_of_five():
    st_ctx = Ctx.__new__(Ctx)
    st_ctx.inputs, st_ctx.i, st_ctx.events = [3, 6, 3, 5], 0, []
    st_ctx.st = None
    assert L.naval_solitaire_pick(st_ctx, ["B1", "B2", "B3", "B4", "B5"]) == ["B3", "B5"]
    with pytest.raises(IllegalAction):
        L.naval_solitaire_pick(st_ctx, ["B1", "B2"])
    st_ctx.inputs, st_ctx.i = [2], 0
    assert L.naval_cancelled(st_ctx)


def test_3_5_a_six_releases_the_next_reserve_group_and_locks_requests_for_24_hours():
    rules = rules_for_path(SCEN / "leros-c4-campaign.toml")
    st = fresh(rules)
    assert L.reserve_request(rules, st, ctx_for(rules, st, [5])) == 0
    assert L.reserve_request(rules, st, ctx_for(rules, st, [6])) == 3      # groups 1 and 2 are in the file
    assert st.leros.boxed["5-II-Brg-1"] == "kos"
    t0 = rules.turns[st.turn].when
    t1 = rules.turns[st.leros.reserve_lock_until].when
    assert (t1 - t0).total_seconds() == 24 * 3600


# ---------------------------------------------------------------- random play (the full games are in `make leros-playout`)

def test_random_play_of_drop_zone_leros_lands_the_paratroops_and_replays_to_the_same_hash():
    """The random bot plays scenario 2 until the first drop has landed: the Ju-52s fly in from box B, the
    drop is made at the end of the German Action Phase, and replaying the log gives the same state."""
    import random

    from engine.game import Game, replay
    path = str(SCEN / "leros-2-drop-zone.toml")
    rules = rules_for_path(path)
    game = Game(rules, 5, path)
    pick = random.Random(5)
    for _ in range(3000):
        st = game.state
        if st.leros.landed or any(w == "dead" and u in rules.leros["paratroops"] for u, w in st.leros.boxed.items()):
            break
        game.play(pick.choice(rules.legal_actions(st)))
    st = game.state
    assert not any(p.load and p.box != "athens" for p in st.leros.planes.values() if p.box == "air-execution")
    assert st.leros.landed or any(w == "dead" for w in st.leros.boxed.values())
    assert replay(rules, 5, game.actions_text(), path).hash() == game.hash()


# ---------------------------------------------------------------- rules enforced in play, each with its position

def test_1_6_trucked_heavy_weapons_move_12_mps_in_move_mode_only(s1):
    st = fresh(s1)
    assert "AA-1" in s1.leros["trucked"] and st.units["AA-1"].hex is not None
    st.units["AA-1"].mode = "move"
    assert s1.ma(st, "AA-1") == 12
    st.units["AA-1"].mode = "fire"
    assert s1.ma(st, "AA-1") == 0                       # the series' own allowance outside Move mode


def test_2_1_e_lrdg_and_sbs_act_without_an_op_sheet_and_other_units_do_not(s1):
    st = fresh(s1)
    on_sheets = {u for sh in st.sheets.values() for u in sh.units}
    assert "SBS" not in on_sheets and "LRDG" not in on_sheets
    assert s1.has_orders(st, "SBS") and s1.has_orders(st, "LRDG")
    assert "A-Kents-1" not in on_sheets and not s1.has_orders(st, "A-Kents-1")


def test_3_6_g_an_overstack_left_by_a_drop_loses_its_excess_units_at_the_end_of_the_next_german_action_phase(s2):
    from engine.rulesets.tcs.games.leros_rules import _proc_drop
    st = fresh(s2)
    limit = s2.options["stacking_units"]
    h = s2.hex("B34.25")
    germans = [k for k in s2.order if s2.specs[k].side == "german" and not s2.specs[k].fo][:limit + 2]
    for k in germans:                               # five German units in one hex
        st.units[k].hex = h
        st.leros.boxed.pop(k, None)
    for k, u in st.units.items():
        if u.hex == h and k not in germans:
            u.hex = None
    st.leros.overstack_check = st.turn + 1          # the drop was this turn: the check is next turn's
    _proc_drop(s2, st, ctx_for(s2, st))
    assert [k for k in germans if st.units[k].hex == h] == germans
    st.turn += 1
    c = ctx_for(s2, st)
    _proc_drop(s2, st, c)
    assert [k for k in germans if st.units[k].hex == h] == germans[:limit]
    assert all(st.leros.boxed.get(k) == "dead" for k in germans[limit:])
    assert sum("still overstacked (Leros 3.6g)" in e.text for e in c.events) == 2
    assert st.leros.overstack_check == -1


def test_2_7_and_4_the_historical_set_up_and_the_variants_shift_the_victory_level():
    rules = rules_for_path(SCEN / "leros-1-curtain-rises.toml")
    st = fresh(rules)
    st.over = True
    assert rules.leros["historical_setup"]
    assert rules.outcome(st).breakdown["shift"] == 1              # 2.7: one level to the British
    rules.leros["variants"] = ["4.2", "4.4"]                       # each one level to the Germans
    assert rules.outcome(st).breakdown["shift"] == -1
    rules.leros["variants"] = ["4.3", "4.5", "4.7"]                # no shift
    assert rules.outcome(st).breakdown["shift"] == 1


@pytest.mark.parametrize("name", ALL)
def test_5_1_a_no_british_unit_starts_next_to_a_german_unless_in_a_building_or_village(name):
    rules = rules_for_path(SCEN / name)
    st = rules.initial_state(1)
    german = {u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side == "german"}
    for k, u in st.units.items():
        if u.hex is None or rules.specs[k].side != "british":
            continue
        if any(hex_distance(u.hex, g) == 1 for g in german):
            assert rules.board.terrain.get(u.hex) in ("building", "village"), (k, rules.hid(u.hex))


def test_2_1_3_1_command_prep_ratings_and_op_sheet_limits_per_scenario():
    s1 = load_tcs_scenario(SCEN / "leros-1-curtain-rises.toml")
    s2 = load_tcs_scenario(SCEN / "leros-2-drop-zone.toml")
    assert (s1.sides["british"].command_prep, s1.sides["german"].command_prep) == (5, 3)     # 2.1c, 3.1c
    assert (s1.sides["british"].max_implemented, s1.sides["german"].max_implemented) == (6, 8)   # 2.1b, 3.1b
    assert (s2.sides["british"].max_implemented, s2.sides["german"].max_implemented) == (2, 3)   # one map


def test_2_2_and_3_2_one_british_battery_and_german_guns_without_rounds_until_they_land(s1):
    st = fresh(s1)
    british = [b for b, bat in s1.batteries.items() if bat.side == "british" and not bat.unit]
    assert british == ["9-FA"]                                    # 2.2 (besides the on-map mortar sections, 2.6)
    assert all(v == 0 for k, v in st.ammo.items() if k.startswith("german|"))    # 3.2b: none at the start
    assert all(st.units[g].hex is None for g in ("3-Arty-1", "3-Arty-2", "4-Arty-1", "4-Arty-2"))   # in Kos


def test_1_1_b_building_and_village_hexes_are_two_terrains_whose_values_are_asked_in_play(s1):
    from engine.rulesets.tcs.sight import terrain_key
    board = s1.board
    town = {terrain_key(board, h) for h in board.hexes() if board.terrain.get(h) in ("building", "village")}
    assert town == {"building", "village"}
    st = fresh(s1)
    for t in ("building", "village"):
        with pytest.raises(Need) as need:
            ctx_for(s1, st).cell("tcs.terrain.combat", (t,), purpose="the target's terrain")
        assert need.value.pending["kind"] == "chart" and need.value.pending["prompt"].key == (t,)
    assert ctx_for(s1, st).cell("tcs.terrain.combat", ("clear",)) == "Partly Protective"     # 1.1d, known


def test_2_1_d_no_british_staff_modifier():
    sc = load_tcs_scenario(SCEN / "leros-1-curtain-rises.toml")
    assert sc.sides["british"].staff == 0


def test_1_2_h_an_empty_boat_set_up_on_the_track_sails_home_and_is_asked_no_landing_zone(s1):
    st = fresh(s1)
    empty = [k for k, b in sorted(st.leros.boats.items()) if b.box == "A" and not b.load]
    assert empty == ["Barge-9", "I-Boat-4"]                      # scenario 1 sets them up empty in box A
    st.leros.boats = {k: st.leros.boats[k] for k in empty}
    c = ctx_for(s1, st)
    L.sea_movement(s1, st, c, "german")                          # box A is the first: home at once
    assert all(st.leros.boats[k].box == "kos" and not st.leros.boats[k].returning for k in empty)
    assert sum("is empty and sails home (Leros 1.2h)" in e.text for e in c.events) == 2


def test_2_2_the_british_battery_takes_a_mission_from_any_british_unit_that_sees_the_target(s1):
    from engine.rulesets.tcs import actions as A
    st = fresh(s1)
    st.pending = []
    british = [k for k in s1.order if s1.specs[k].side == "british" and st.units[k].hex is not None]
    spotter = british[0]
    for k, u in st.units.items():
        if k != spotter:
            u.hex = None
    german = next(k for k in s1.order if s1.specs[k].side == "german")
    near = st.units[spotter].hex
    st.units[german].hex = next(n for n in s1.board.neighbors(near))
    assert not s1.specs[spotter].fo                                    # an ordinary unit: the series lets it spot
    assert s1.battery_spotters(st, "9-FA", "british", st.units[german].hex) == [spotter]
    offers = s1._mission_offers(st, "british", [spotter])
    assert A.PlaceMission("9-FA", s1.hid(st.units[german].hex), spotter, "he") in offers


def test_2_6_each_mortar_section_is_an_on_map_battery_and_the_british_3_inch_fires_smoke_and_illum(s1):
    st = fresh(s1)
    mortars = {k: s1.batteries[k] for k in s1.order if "mortar section" in s1.specs[k].type}
    assert mortars and all(b.unit == k for k, b in mortars.items())
    brit = next(k for k, b in mortars.items() if b.side == "british" and st.units[k].hex is not None)
    assert mortars[brit].calibre == "3-inch" and mortars[brit].smoke is True
    st.units[brit].mode, st.units[brit].fired = "fire", False
    for ammo in ("he", "smoke", "illum"):                                     # 2.6: below 80 mm, yet smoke and illum
        assert s1._check_battery(st, brit, ammo, "british").id == brit
    assert s1.pool_key(mortars[brit], "smoke") is None                       # no pool for mortars: not counted
    st.units[brit].mode = "move"
    with pytest.raises(IllegalAction, match="TCS 5.0"):
        s1._check_battery(st, brit, "he", "british")
    heavy = next(k for k, b in mortars.items() if b.calibre == "120mm")
    assert s1.batteries[heavy].side == "german" and s1.batteries[heavy].smoke is None   # the series' 80 mm rule
