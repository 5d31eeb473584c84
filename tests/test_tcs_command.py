"""TCS turn track, chart slots and the Command Phase (Op Sheets, weighted turns, Command Prep Table)."""
from __future__ import annotations

import dataclasses

import pytest

from engine.charts import ChartAnswer, ChartBook, ChartConflict, load_slots
from engine.errors import BadFile, IllegalAction
from engine.rulesets.tcs import TcsRules, load_tcs_scenario
from engine.rulesets.tcs.clock import parse_clock, turn_track
from engine.rulesets.tcs.rules import CHARTS
from tcs_fixtures import SCENARIO, advance, new_game, where


# ---------------------------------------------------------------- the turn track

@pytest.mark.parametrize("start,end,turns", [
    ("0600 10 Feb", "0940 10 Feb", 12), ("1000 10 Feb", "1540 10 Feb", 18), ("1600 10 Feb", "0200 11 Feb", 15),
    ("0600 10 Feb", "1700 11 Feb", 82), ("0640 12 Nov", "1240 12 Nov", 19), ("0200 13 Nov", "0500 13 Nov", 4),
    ("0400 16 Nov", "1740 16 Nov", 38)])
def test_turn_track_20_minute_days_and_hourly_nights_match_the_scenario_lengths(start, end, turns):
    assert len(turn_track(parse_clock(start, 1943), parse_clock(end, 1943))) == turns


def test_turn_track_names_clock_times_and_knows_day_twilight_night_and_full_hours():
    track = turn_track(parse_clock("1700 10 Feb", 1943), parse_clock("1900 10 Feb", 1943), frozenset({"1740"}))
    assert [t.label for t in track] == ["1700 10 Feb", "1720 10 Feb", "1740 10 Feb", "1800 10 Feb", "1900 10 Feb"]
    assert [t.kind for t in track] == ["day", "day", "twilight", "night", "night"]
    assert [t.full_hour for t in track] == [True, False, False, True, True]
    with pytest.raises(ValueError, match="not a turn on the track"):
        parse_clock("1810 10 Feb", 1943)


def test_visibility_is_the_lesser_of_the_turn_and_weather_limits():
    from engine.rulesets.tcs.sight import visibility
    g = new_game()
    st = g.state
    assert visibility(g.rules, st) == 20                 # day 20, clear weather 60
    st.memory.put("tcs.weather_visibility", ("fog",), 3)
    st.weather = "fog"
    assert visibility(g.rules, st) == 3                  # BW 1.8: the lesser limit


# ---------------------------------------------------------------- the chart slots

def test_the_slot_file_ships_the_command_prep_table_and_leaves_everything_else_blank():
    slots = load_slots(CHARTS)
    prep = slots["tcs.command_prep"]
    assert prep.known[("1", "1")] == "61" and prep.known[("8", "11")] == "46" and prep.known[("6", "1")] == "-"
    assert not any(k[0] == "9" for k in prep.known)                      # row 9 is the owner's
    assert slots["tcs.command_prep_thresholds"].known[("attack", "11")] == 61
    assert slots["tcs.terrain.height"].known == {("woods",): 20, ("forest",): 20}
    shipped = {s.id for s in slots if s.known}
    assert shipped == {"tcs.command_prep", "tcs.command_prep_thresholds", "tcs.terrain.height"}
    for sid in ("tcs.area_fire", "tcs.point_fire", "tcs.at", "tcs.morale", "tcs.spotting_range", "tcs.terrain.move",
                "tcs.artillery_adjustment", "tcs.barrage_values", "tcs.scatter_direction", "tcs.syr_retreat",
                "tcs.assault", "bw.weather", "tcs.air_sortie", "leros.coastal_gunfire", "leros.parachute_loss",
                "tcs.counter.morale"):
        assert sid in slots
    assert slots["tcs.counter.morale"].axes[0].open


def test_a_bad_entry_in_an_owners_tcs_chart_is_refused_with_the_cell_and_allowed_values(tmp_path):
    from engine.charts import BadChartValue
    book = ChartBook(load_slots(CHARTS), tmp_path / "charts.toml")
    with pytest.raises(BadChartValue, match=r"Morale Table\[3\]\[7\].*one of '-', 'S', 'P', 'SYR', 'X'"):
        book.record("tcs.morale", ("3", "7"), "Q")
    with pytest.raises(BadChartValue, match="column '14' is not on the chart"):
        book.record("tcs.morale", ("14", "7"), "S")
    with pytest.raises(BadChartValue, match="no chart 'tcs.crt'"):
        book.record("tcs.crt", ("1",), "S")
    book.record("tcs.morale", ("3", "7"), "S")
    with pytest.raises(ChartConflict, match="already holds 'S'; 'P' contradicts it"):
        book.record("tcs.morale", ("3", "7"), "P")


# ---------------------------------------------------------------- Command Phase

def test_command_phase_steps_come_in_order_for_both_sides():
    g = new_game()
    seen = []
    while where(g)[0] == "command":
        seen.append(where(g)[1:])
        if g.state.pending:
            g.play("chart tcs.bn_morale_reduction [1][" + g.state.pending[0]["prompt"].key[1] + "] = 0")
            continue
        g.play("end")
    assert [s for s, _ in seen] == ["review", "review", "implement", "implement", "reserve", "reserve", "add", "add",
                                    "create", "create", "bn_morale"]
    assert seen[0][1] == "red" and seen[1][1] == "blue"


def test_6_9d_weighted_turns_accrue_3_unassigned_2_at_night_1_after_fire_and_x3_for_vehicle_sheets():
    g = new_game()
    st = g.state
    st.sheets["R2"].weighted_turns = 0
    st.units["1-3"].fired_turn = False
    advance(g, "implement", "red")
    assert g.state.sheets["R2"].weighted_turns == 3                     # unassigned
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import accrue
    st = g.state.copy()
    st.units["1-3"].fired_turn = True
    accrue(g.rules, st, Ctx(g.rules, st, [], []))
    assert st.sheets["R2"].weighted_turns == 4                          # fired upon: 1
    st.turn = 3                                                          # 1800: night
    accrue(g.rules, st, Ctx(g.rules, st, [], []))
    assert st.sheets["R2"].weighted_turns == 6                          # night: 2
    st.sheets["R2"].units = ["T-1"]
    st.units["T-1"].sheet = ""
    st.turn = 0
    accrue(g.rules, st, Ctx(g.rules, st, [], []))
    assert st.sheets["R2"].weighted_turns == 15                         # vehicle sheet: 3 x 3


def test_6_9f_implementation_reads_the_column_from_weighted_turns_the_row_from_prep_and_needs_the_entry():
    g = new_game()
    advance(g, "implement", "red")
    assert g.state.sheets["R2"].weighted_turns == 8      # 5 + 3: hasty defense column 3 (6 <= 8 < 9)
    g.state.preset_dice = [6, 2]
    events = g.play("implement R2")
    assert "rolled 62 against 63 on row 4 column 3: not implemented" in events[-1].text
    with pytest.raises(IllegalAction, match="TCS 6.9f.*already had|has had its implementation roll"):
        g.play("implement R2")
    g.undo()
    g.state.preset_dice = [6, 3]
    g.play("implement R2")
    assert g.state.sheets["R2"].implemented and g.state.units["1-3"].sheet == "R2"


def test_6_9f_row_9_is_asked_once_and_remembered_and_a_bad_answer_is_refused():
    sc = load_tcs_scenario(SCENARIO)
    sc.sides["red"] = dataclasses.replace(sc.sides["red"], command_prep=9)
    g = new_game(rules=TcsRules(sc))
    advance(g, "implement", "red")
    g.state.preset_dice = [1, 1]
    g.play("implement R2")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.command_prep" and p.key == ("9", "3")
    assert "column 3 (8 weighted turns, hasty defense) (TCS 6.9f)" in p.text() and "roll 11" in p.text()
    assert [a.value for a in g.legal_actions()][:2] == ["-", "11"]
    with pytest.raises(IllegalAction, match="is not a result of Command Prep Table"):
        g.play("chart tcs.command_prep [9][3] = 99")
    with pytest.raises(IllegalAction, match="asked for now is Command Prep Table"):
        g.play("chart tcs.command_prep [9][4] = 66")
    with pytest.raises(IllegalAction, match="waits for a printed result"):
        g.play("end")
    g.play("chart tcs.command_prep [9][3] = 23")
    assert not g.state.sheets["R2"].implemented               # 11 < 23
    assert g.state.memory.get("tcs.command_prep", ("9", "3")) == "23"
    ans = {"tcs.bn_morale_reduction": 0, "tcs.air_sortie": 0, "tcs.barrage_values": 6, "tcs.area_fire_column": 2,
           "tcs.area_fire": "-"}
    advance(g, "review", "red", answers=ans)
    advance(g, "implement", "red", answers=ans)
    assert g.rules.turns[g.state.turn].label == "1720 10 Feb"
    g.state.sheets["R2"].weighted_turns = 8
    g.state.preset_dice = [2, 4]
    events = g.play("implement R2")
    assert not g.state.pending                                # never asked again in this game
    assert "rolled 24 against 23" in events[-1].text and g.state.sheets["R2"].implemented


def test_an_answer_from_the_owners_chart_is_used_and_a_contradicting_answer_is_refused_by_the_book(tmp_path):
    from engine.charts import answer_from_book, remember_answer
    sc = load_tcs_scenario(SCENARIO)
    sc.sides["red"] = dataclasses.replace(sc.sides["red"], command_prep=9)
    rules = TcsRules(sc)
    book = ChartBook(rules.charts, tmp_path / "charts.toml")
    book.record("tcs.command_prep", ("9", "3"), "31")
    g = new_game(rules=rules)
    advance(g, "implement", "red")
    g.state.preset_dice = [2, 4]
    g.play("implement R2")
    ans = answer_from_book(g.state.pending[0]["prompt"], book)
    assert ans.text() == "chart tcs.command_prep [9][3] = 31 (owner's chart)"
    events = g.play(ans)
    assert "against 31" in events[-1].text and not g.state.sheets["R2"].implemented
    with pytest.raises(ChartConflict):
        remember_answer(book, ChartAnswer("tcs.command_prep", ("9", "3"), "41"))


def test_6_7b_formation_and_side_limits_refuse_more_op_sheets():
    g = new_game()
    advance(g, "create", "red")
    offers = [a.text() for a in g.legal_actions() if a.text().startswith("opsheet")]
    # one sheet per type for the formation's units on no sheet, aimed at the nearest objective
    assert offers[0] == ("opsheet OS1 prepared_defense 1-Bn units 1-3+FO-R+M-1 objective B08.07 "
                         "route B03.05-B04.05-B05.06-B06.06-B07.07-B08.07") and len(offers) == 4
    with pytest.raises(IllegalAction, match="TCS 6.8.*not a unit of red|is not in"):
        g.play("opsheet OS9 attack 1-Bn units B-1 objective B08.07")
    g.play("opsheet OS9 attack 1-Bn units 1-3 objective B08.07 route B03.05-B05.06-B08.07")
    assert g.state.sheets["OS9"].route[-1] == g.rules.board.parse_hex("B08.07")
    with pytest.raises(IllegalAction, match="TCS 6.7b.*already has 3 Op Sheets"):
        g.play("opsheet OS10 move 1-Bn units 1-3 objective B08.07")


def test_6_11_and_6_13_completing_a_sheet_frees_its_units_and_units_are_added_to_sheets():
    g = new_game()
    g.play("complete R1")
    assert "R1" not in g.state.sheets and g.state.units["1-1"].sheet == ""
    with pytest.raises(IllegalAction, match="TCS 6.11"):
        g.play("complete R2")
    advance(g, "add", "red")
    assert "assign 1-1 R2" in [a.text() for a in g.legal_actions()]
    g.play("assign 1-1 R2")
    assert "1-1" in g.state.sheets["R2"].units
    with pytest.raises(IllegalAction, match="TCS 6.13.*already on R2"):
        g.play("assign 1-1 R2")


def test_6_14d_a_reserve_sheet_is_released_on_its_check():
    g = new_game()
    advance(g, "reserve", "blue")
    assert [a.text() for a in g.legal_actions()] == ["reserve B2", "end"]
    g.state.preset_dice = [5]
    g.play("reserve B2")
    assert g.state.pending[0]["prompt"].slot == "tcs.reserve_check"
    g.play("chart tcs.reserve_check [5] = released")
    assert g.state.sheets["B2"].implemented and not g.state.sheets["B2"].reserve


def test_17_1d_battalion_morale_is_reduced_on_full_hour_turns_only():
    g = new_game()
    advance(g, "create", "blue")
    g.state.preset_dice = [4]
    g.play("end")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.bn_morale_reduction" and p.key == ("1", "4")
    g.play("chart tcs.bn_morale_reduction [1][4] = 1")
    assert g.state.battalions["KG"] == 0
    assert "bn_morale" not in [s for _p, s, _w in g.rules.sequence(1)]   # 1720 is not a full hour


def test_a_tcs_scenario_with_bad_values_is_refused_naming_the_key(tmp_path):
    text = SCENARIO.read_text().replace('start = "1700 10 Feb"', 'start = "1710 10 Feb"') \
        .replace('units = ["1-3"]', 'units = ["1-9"]').replace('hex = "B13.04"', 'hex = "Z13.04"') \
        .replace('table = "tcs.air_sortie"', 'table = "tcs.air_sorties"') \
        .replace('units = ["B-1", "AT-1", "B-2", "FO-B"]', 'units = ["1-1", "AT-1"]') \
        .replace('map = "../maps/tcs-test.toml"',
                                                             f'map = "{SCENARIO.parent.parent / "maps" / "tcs-test.toml"}"')
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(BadFile) as e:
        load_tcs_scenario(p)
    got = {x.key: x.message for x in e.value.problems}
    assert "not a turn on the track" in got["scenario.start"] and "no unit '1-9'" in got["op_sheets[1].units"]
    assert got["op_sheets[2].units"] == "1-1 is a unit of red, not blue"
    assert got["air[0].table"].startswith("no chart 'tcs.air_sorties'")
    assert "'Z13.04' is not a hex id of this map" in got["units[7].hex"]


def test_7_0a_the_hourly_weather_roll_reads_the_games_table_and_changes_visibility():
    from engine.rulesets.tcs.sight import visibility
    sc = load_tcs_scenario(SCENARIO)
    sc.weather_table = "bw.weather"
    g = new_game(rules=TcsRules(sc))
    assert [s for _p, s, _w in g.rules.sequence(0)][11:13] == ["bn_morale", "weather"]
    assert "weather" not in [s for _p, s, _w in g.rules.sequence(1)]      # 1720: not a full hour
    advance(g, "create", "blue")
    g.state.preset_dice = [4, 5, 4]
    g.play("end")
    g.play("chart tcs.bn_morale_reduction [1][4] = 0")
    p = g.state.pending[0]["prompt"]
    assert (p.slot, p.key) == ("bw.weather", ("clear", "9")) and p.text().startswith("Black Wednesday Weather Table")
    g.play("chart bw.weather [clear][9] = fog")
    assert g.state.weather == "fog"
    p = g.state.pending[0]["prompt"]                 # the artillery phase needs fog's visibility limit
    assert (p.slot, p.key) == ("tcs.weather_visibility", ("fog",))
    g.play("chart tcs.weather_visibility [fog] = 4")
    assert visibility(g.rules, g.state) == 4


def test_op_sheets_give_their_objective_and_route_as_map_geometry():
    g = new_game()
    objective, route = g.rules.op_sheet_geometry(g.state, "R1")
    lay = g.rules.board.layout
    assert objective.geom_type == "Point" and objective.coords[0] == lay.hex_to_pixel(g.rules.board.parse_hex("B08.07"))
    assert route.geom_type == "LineString" and len(route.coords) == 3
    area, none = g.rules.op_sheet_geometry(g.state, "B1")
    assert area.geom_type in ("Polygon", "MultiPolygon") and none is None
    assert area.area == pytest.approx(2 * lay.polygon(g.rules.board.parse_hex("B08.07")).area)
    assert g.rules.unit_status(g.state, "1-1") == {"hex": "B02.04", "mode": "move", "morale": "good order",
                                                   "steps_lost": 0, "steps": 5, "sheet": "R1", "fired": False,
                                                   "mp_used": "0"}


def test_the_clock_and_ammunition_as_the_panels_show_them():
    g = new_game()
    info = g.rules.turn_info(g.state)
    assert info == {"clock": "1700 10 Feb", "kind": "day", "full_hour": True, "turn": 1, "turns": 5,
                    "weather": "clear", "visibility": 20, "phase": "command", "step": "review", "side": "red",
                    "order": []}
    assert g.rules.ammunition(g.state, "red") == {("122mm", "he"): 4, ("122mm", "illum"): 1, ("122mm", "smoke"): 1,
                                                  ("82mm", "he"): 6, ("82mm", "illum"): 0, ("82mm", "smoke"): 2}


def test_a_bad_owners_chart_file_for_the_tcs_is_refused_naming_the_file_the_cell_and_the_allowed_values(tmp_path):
    from engine.charts import open_book
    p = tmp_path / "charts.toml"
    p.write_text('format = 1\n[charts."tcs.morale"]\n"3" = { "7" = "Q" }\n"14" = { "7" = "S" }\n'
                 '[charts."tcs.crt"]\n"1" = "x"\n[charts."tcs.command_prep"]\n"1" = { "1" = "62" }\n'
                 '[charts."tcs.area_fire"]\n"3" = "M"\n', encoding="utf-8")
    from engine.charts import ChartBook
    from engine.fileio import read_toml

    with pytest.raises(BadFile) as e:                  # checking the file (validate): refused, every problem named
        ChartBook(load_slots(CHARTS)).parse(read_toml(p), str(p))
    book = open_book(load_slots(CHARTS), p)             # the owner's book in play: the bad cells set aside, named
    for problems, prefix in ((e.value.problems, ""), (book.problems, "set aside: ")):
        got = {(x.key, x.message.removeprefix(prefix).split(" (")[0]) for x in problems}
        assert all(x.file == str(p) for x in problems)
        assert ("charts.tcs.morale['3']['7']", "'Q' is not a result of Morale Table") in got
        assert any(k == "charts.tcs.morale['14']['7']" for k, _m in got)
        assert any(k.startswith("charts.tcs.crt") for k, _m in got)
        assert ("charts.tcs.command_prep['1']['1']", "the published value is '61', not '62'") in got
        assert any(k == "charts.tcs.area_fire['3']" for k, _m in got)      # wrong shape: one axis short
    assert len(book.set_aside) == 5                     # kept in the file, not used
