"""TCS Action phases: modes, movement, stacking, spotting, overwatch, fire, morale, assault, clean-up."""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import IllegalAction
from engine.rulesets.tcs.sight import spotted_hexes
from tcs_fixtures import advance, filled_memory, new_game, where

ANS = {"tcs.bn_morale_reduction": 0, "tcs.air_sortie": 0, "tcs.barrage_values": 6, "tcs.area_fire_column": 2,
       "tcs.area_fire": "-"}


def at_red_action(**kw):
    g = new_game(**kw)
    advance(g, "action", "red", answers=ANS)
    return g


def put(g, uid, hexid, **state):
    u = g.state.units[uid]
    u.hex = g.rules.board.parse_hex(hexid)
    for k, v in state.items():
        setattr(u, k, v)


def answer(g, slot, value):
    p = g.state.pending[0]
    assert p["kind"] == "chart" and p["prompt"].slot == slot, p
    return g.play(f"chart {slot} " + "".join(f"[{k}]" for k in p["prompt"].key) + f" = {value}")


def test_values_legality_needs_are_asked_before_the_artillery_phase_once_each():
    mem = filled_memory(blank=[("tcs.counter.range", ("at gun",)), ("tcs.terrain.move", ("village", "tracked"))])
    g = new_game(memory=mem)
    advance(g, "implement", "red")               # the Command Phase needs neither
    assert not g.state.pending
    while not g.state.pending or g.state.pending[0]["prompt"].slot == "tcs.bn_morale_reduction":
        if g.state.pending:
            answer(g, "tcs.bn_morale_reduction", 0)
        else:
            g.play("end")
    p = g.state.pending[0]["prompt"]
    assert (p.slot, p.key) == ("tcs.counter.range", ("at gun",)) and where(g)[0] == "artillery"
    assert "Counter: range[at gun] for AT-1 (at gun): enter the printed result" == p.text()
    g.play("chart tcs.counter.range [at gun] = 8")
    assert g.state.pending[0]["prompt"].key == ("village", "tracked")
    g.play("chart tcs.terrain.move [village][tracked] = 2")
    assert not g.state.pending or g.state.pending[0]["kind"] == "choice"   # the initiative, nothing asked twice


def test_5_0_only_units_in_move_mode_move_and_entering_move_mode_costs_half_the_allowance():
    g = at_red_action()
    with pytest.raises(IllegalAction, match="TCS 5.0: 1-3 is in Fire mode"):
        g.play("move 1-3 B04.05")
    g.play("mode 1-3 move")
    assert g.state.units["1-3"].mp_used == Fraction(3)          # half of 6
    with pytest.raises(IllegalAction, match="TCS 6.0: 1-3 has no implemented Op Sheet"):
        g.play("move 1-3 B04.05")


def test_5_0_movement_costs_come_from_the_terrain_chart_with_roads_and_prohibited_terrain():
    g = at_red_action()
    g.play("move T-1 B02.05")                                     # along the road: 0.5 tracked
    assert g.state.units["T-1"].mp_used == Fraction(1, 2)
    put(g, "T-1", "B02.06")
    with pytest.raises(IllegalAction, match="TCS 5.0: woods is prohibited terrain for tracked units"):
        g.play("move T-1 B03.06")
    g.play("move 1-2 B03.06")                                     # foot: 1 in woods
    assert g.state.units["1-2"].mp_used == Fraction(1)
    g.state.units["1-2"].mp_used = Fraction(6)
    with pytest.raises(IllegalAction, match="has 0 MPs left"):
        g.play("move 1-2 B03.07")


def test_stacking_limit_is_scenario_data_and_forward_observers_do_not_count():
    g = at_red_action()
    put(g, "1-3", "B02.05")
    put(g, "M-1", "B02.05")
    put(g, "FO-R", "B02.05")
    g.play("move 1-1 B02.05")                                     # 3 units and an FO
    with pytest.raises(IllegalAction, match="stacking.*more than 3 units"):
        g.play("move 1-2 B02.05")


def test_11_0_spotting_range_by_target_terrain_and_visibility_and_los_from_the_engine():
    g = at_red_action()
    put(g, "B-1", "B06.05")                                       # clear: open, non-vehicle 6
    put(g, "1-3", "B02.05")
    assert g.rules.board.parse_hex("B06.05") in spotted_hexes(g.rules, g.state, "red", "1-3")
    put(g, "B-1", "B04.07")                                       # woods: non-open, 2 hexes
    assert spotted_hexes(g.rules, g.state, "red", "1-3") == set()
    put(g, "1-3", "B04.06")
    assert g.rules.board.parse_hex("B04.07") in spotted_hexes(g.rules, g.state, "red", "1-3")


def test_12_0_overwatch_is_triggered_by_movement_and_the_overwatcher_fires_area_fire():
    g = at_red_action()
    g.play("move 1-1 B03.04")
    p = g.state.pending[0]
    assert p["what"] == "overwatch" and p["side"] == "blue" and p["options"] == ["AT-1", "pass"]
    g.state.preset_dice = [3, 4]
    g.play("choose overwatch AT-1")
    answer(g, "tcs.area_fire_column", 1)
    ev = answer(g, "tcs.area_fire", "-")
    assert any("AT-1 at B03.04: column 1, roll 7: -" in e.text for e in ev)
    assert g.state.units["AT-1"].fired and not g.state.pending            # AT-1 has fired: no one else can


def test_9_0_point_fire_hits_a_vehicle_and_the_at_roll_kills_a_step():
    g = at_red_action()
    g.state.preset_dice = [5, 5, 4, 4]
    g.play("move T-1 B02.05")
    put(g, "T-1", "B07.06")
    g.state.units["T-1"].mp_used = Fraction(0)
    g.play("move T-1 B08.06")
    assert g.state.pending[0]["options"] == ["AT-1", "B-1", "pass"]
    g.play("choose overwatch AT-1")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.point_fire" and p.key == ("7", "Open", "10")
    answer(g, "tcs.point_fire", "hit")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.at" and p.key == ("4", "1", "8") and "AT 8 - armour 4 = +4" in p.text()
    answer(g, "tcs.at", "K")
    assert g.state.units["T-1"].steps_lost == 1
    assert g.state.pending[0]["options"] == ["B-1", "pass"]
    g.play("choose overwatch pass")
    assert not g.state.pending


def test_8_0_area_fire_shows_its_column_and_shifts_and_a_step_loss_brings_a_morale_check_and_syr_retreat():
    g = at_red_action()
    board = g.rules.board
    board.features[board.parse_hex("B04.07")] = {"trench"}
    put(g, "B-1", "B04.07")
    put(g, "1-3", "B04.06")
    g.state.preset_dice = [6, 6, 3, 3]
    g.play("fire 1-3 at B04.07")
    answer(g, "tcs.area_fire_column", 9)
    p = g.state.pending[0]["prompt"]
    assert p.key == ("6", "12")
    assert p.text() == ("Area Fire Table[6][12] for fire by 1-3 at B04.07: column 9 (firepower 3) (TCS 8.0), "
                        "-1 Partly Protective target (TCS 8.0), -2 trench (BW 1.3a), roll 12: enter the printed result")
    answer(g, "tcs.area_fire", "1")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.morale" and p.key == ("5", "6")          # morale 3 + 1 step + battalion morale 1
    answer(g, "tcs.morale", "SYR")
    answer(g, "tcs.syr_retreat", 2)
    c = g.state.pending[0]
    assert c["what"] == "retreat" and c["side"] == "blue" and "B06.07" in c["options"]
    g.play("choose retreat B06.07")
    b1 = g.state.units["B-1"]
    assert board.hex_id(b1.hex) == "B06.07" and b1.morale_state == "suppressed" and b1.steps_lost == 1
    assert g.state.bn_losses["KG"] == 1 and g.state.units["1-3"].fired
    with pytest.raises(IllegalAction, match="TCS 8.0: 1-3 has fired this phase"):
        g.play("fire 1-3 at B06.07")


def test_a_filled_cell_is_read_without_asking_and_surrender_eliminates():
    mem = filled_memory()
    mem.put("tcs.area_fire_column", ("3",), 4)
    mem.put("tcs.area_fire", ("4", "7"), "M")
    mem.put("tcs.morale", ("4", "2"), "X")
    g = at_red_action(memory=mem)
    put(g, "B-1", "B04.05")
    put(g, "1-3", "B03.05")
    g.state.preset_dice = [3, 4, 1, 1]
    events = g.play("fire 1-3 at B04.05")
    assert not g.state.pending
    assert g.state.units["B-1"].hex is None
    assert any("B-1 is eliminated: it surrenders" in e.text for e in events)


def test_8_0_sfa_is_refused_to_unassigned_units_causes_no_step_loss_and_shifts_morale_right():
    g = at_red_action()
    put(g, "B-1", "B04.05")
    put(g, "1-3", "B03.05")
    with pytest.raises(IllegalAction, match="unassigned units may not fire SFAs"):
        g.play("sfa 1-3 at B04.05")
    g.state.units["1-3"].sheet = "R2"
    g.state.preset_dice = [2, 2, 3, 3]
    g.play("sfa 1-3 at B04.05")
    answer(g, "tcs.area_fire_column", 3)
    answer(g, "tcs.area_fire", "2")
    p = g.state.pending[0]["prompt"]
    assert p.key == ("6", "6") and "+2 suppressive fire" in p.text()   # morale 3 + bn 1 + 2
    answer(g, "tcs.morale", "P")
    assert g.state.units["B-1"].steps_lost == 0 and g.state.units["B-1"].morale_state == "paralyzed"


def test_13_0_paralyzed_units_neither_move_nor_change_mode_and_recover_a_level_at_clean_up():
    g = at_red_action()
    g.state.units["1-1"].morale_state = "paralyzed"
    g.state.units["1-2"].morale_state = "suppressed"
    with pytest.raises(IllegalAction, match="TCS 13.0: 1-1 is paralyzed"):
        g.play("move 1-1 B03.04")
    with pytest.raises(IllegalAction, match="paralyzed and cannot change mode"):
        g.play("mode 1-1 fire")
    advance(g, "review", "red", answers=ANS)
    assert g.state.units["1-1"].morale_state == "suppressed" and g.state.units["1-2"].morale_state == ""


def test_15_0_an_assault_fires_both_ways_and_the_assault_table_evicts_the_defenders():
    g = at_red_action()
    put(g, "B-1", "B05.05")
    put(g, "1-1", "B04.05")
    put(g, "1-2", "B04.04")
    with pytest.raises(IllegalAction, match="TCS 15.0: 1-3 must be in Move mode"):
        g.play("assault 1-3 B05.05")
    g.state.preset_dice = [1, 1, 1, 1, 6, 6]
    g.play("assault 1-1+1-2 B05.05")
    # firepower 6 of the attackers: its column was answered at the 1700 barrage (strength 6), so not asked again
    p = g.state.pending[0]["prompt"]
    assert p.key == ("2", "2") and p.text().startswith("Area Fire Table[2][2] for fire by 1-1+1-2 at B05.05")
    answer(g, "tcs.area_fire", "-")
    answer(g, "tcs.area_fire_column", 2)            # firepower 3 of B-1 firing back: [2][2] is known now
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.assault" and p.key == ("assault", "2:1", "12")     # 10 steps against 5
    answer(g, "tcs.assault", "E")
    assert g.state.units["B-1"].hex is None
    assert g.rules.hid(g.state.units["1-1"].hex) == "B05.05"


def test_15_0_an_overrun_is_one_vehicle_into_open_ground_and_costs_movement_points():
    g = at_red_action()
    put(g, "B-1", "B04.05")
    put(g, "T-1", "B03.05")
    with pytest.raises(IllegalAction, match="an overrun is made by one vehicle"):
        g.play("overrun 1-1 B04.05")
    g.state.preset_dice = [1, 1, 1, 1, 2, 2]
    g.play("overrun T-1 B04.05")
    assert g.state.units["T-1"].mp_used == Fraction(7, 2)           # 3 for the overrun, 1/2 along the road
    answer(g, "tcs.area_fire_column", 3)
    answer(g, "tcs.area_fire", "-")
    answer(g, "tcs.area_fire_column", 2)
    answer(g, "tcs.area_fire", "-")
    p = g.state.pending[0]["prompt"]
    assert p.key[0] == "overrun"
    events = answer(g, "tcs.assault", "R")
    assert g.state.units["T-1"].morale_state == "suppressed" and g.state.units["B-1"].hex is not None
    said = [e.text for e in events if e.kind == "assault"]       # the result in words, not its letter alone
    assert said == ["overrun on B04.05: 1:2, roll 4: R (repulsed: the assaulting units stay where they were, "
                    "suppressed)"], said


def test_17_1_step_losses_raise_battalion_morale_which_adds_to_morale_columns():
    g = at_red_action()
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import lose_steps
    st = g.state.copy()
    lose_steps(g.rules, st, Ctx(g.rules, st, [], []), "1-1", 3)
    lose_steps(g.rules, st, Ctx(g.rules, st, [], []), "1-2", 2)
    assert st.bn_losses["1-Bn"] == 5 and st.battalions["1-Bn"] == 1     # a level per 5 steps (option)
    lose_steps(g.rules, st, Ctx(g.rules, st, [], []), "1-1", 2)
    assert st.units["1-1"].hex is None                                   # 5 of 5 steps: eliminated


def test_initiative_is_rolled_again_on_ties_and_the_winner_chooses_who_goes_first():
    g = new_game()
    advance(g, "create", "blue", answers=ANS)
    g.state.preset_dice = [4, 3, 3, 5, 2]         # Bn morale 4; artillery initiative 3-3 tie, then 5-2
    g.play("end")
    answer(g, "tcs.bn_morale_reduction", 0)
    c = g.state.pending[0]
    assert c["what"] == "initiative" and c["side"] == "red" and c["options"] == ["red", "blue"]
    g.play("choose initiative blue")
    assert g.state.order == ["blue", "red"]
    assert where(g)[1:] == ("sorties", "blue") or where(g)[2] == "blue"


def test_the_game_ends_after_the_last_turn_with_objective_points():
    g = new_game()
    g.state.control[g.rules.board.parse_hex("B08.07")] = "red"
    for _ in range(2000):
        if g.is_over():
            break
        if g.state.pending:
            p = g.state.pending[0]
            if p["kind"] == "choice":
                g.play(f"choose {p['what']} {p['options'][-1]}")
            else:
                g.play(f"chart {p['prompt'].slot} " + "".join(f"[{k}]" for k in p["prompt"].key)
                       + f" = {p['prompt'].choices[0]}")
        else:
            g.play("end")
    out = g.outcome()
    assert g.is_over() and out.breakdown["points"] == {"red": 2, "blue": 1} and out.winner == "red"
    assert g.rules.turns[g.state.turn].label == "1900 10 Feb"


def test_11_0_a_map_features_height_is_asked_once_and_then_blocks_line_of_sight():
    from engine.rulesets.tcs import TcsRules, load_tcs_scenario
    from tcs_fixtures import SCENARIO
    sc = load_tcs_scenario(SCENARIO)
    wall = sc.board.parse_hex("B04.05")
    sc.board.features[wall] = {"embankment"}
    g = new_game(rules=TcsRules(sc))
    answers = dict(ANS)
    answers["tcs.terrain.height"] = 80                    # BW's railroad embankment is 80 m
    advance(g, "action", "red", answers=answers)
    assert g.state.memory.get("tcs.terrain.height", ("embankment",)) == 80
    put(g, "1-3", "B02.05")
    put(g, "B-1", "B06.05")
    assert g.rules.board.parse_hex("B06.05") not in spotted_hexes(g.rules, g.state, "red", "1-3")
    put(g, "B-1", "B02.02")                              # a line that does not cross it
    assert g.rules.board.parse_hex("B02.02") in spotted_hexes(g.rules, g.state, "red", "1-3")
    g.state.memory.cells["tcs.terrain.height"][("embankment",)] = 0     # (never changes in play: a test)
    g.rules.sight.spot_cache.clear()
    put(g, "B-1", "B06.05")
    assert g.rules.board.parse_hex("B06.05") in spotted_hexes(g.rules, g.state, "red", "1-3")
