"""The classic rules, each with a concrete position of River Crossing (scenarios/classic-river-crossing.toml) and
the asserted result; refusals cite the scenario's own rule numbers."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadFile, IllegalAction
from engine.game import Game, load_rules

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios" / "classic-river-crossing.toml"


@pytest.fixture(scope="module")
def rules():
    return load_rules(str(SCEN))


def position(rules, phase: str, where: dict[str, str | None], turn: int = 1, supply: bool = True):
    """The opening with some units put elsewhere (None: eliminated), at the start of ``phase`` (``supply=False``:
    every unit counted in supply, to look at one rule at a time)."""
    st = rules.initial_state(1)
    st.turn, st.phase = turn, phase
    for uid, hid in where.items():
        u = st.units[uid]
        if hid is None:
            u.hex, u.status = None, "eliminated"
        else:
            u.hex, u.status = rules.board.parse_hex(hid), "map"
    rules._begin_phase(st, [])
    if not supply:
        for u in st.units.values():
            u.out_of_supply = False
    return st


def dest(rules, st, uid) -> dict[str, float]:
    return {rules.map.hex_id(h): c for h, c in rules.reach(st, uid).destinations.items()}


def test_rule_4_costs_by_class_roads_and_the_river(rules):
    st = position(rules, "Blue movement", {})
    d = dest(rules, st, "b-1")                        # foot, MA 4, on the road at A03.05
    assert d["A08.07"] == 2.5                          # five road hexes at 1/2 MP, the river bank by the bridge
    assert d["A03.06"] == 1 and d["A04.06"] == 1.5     # clear next door; by the town on the road, then clear
    b3 = dest(rules, st, "b-3")                        # A05.09: woods next door (A05.08 is woods: 2 MP for foot)
    assert b3["A05.08"] == 2
    tanks = dest(rules, st, "b-4")                     # tracked: woods 3 MP, no river crossing but by the bridge
    assert "A08.05" in tanks and "A09.06" not in tanks and "A09.07" not in tanks   # the east bank: the bridge is held


def test_rule_4_3_tracked_units_cross_the_river_only_by_the_bridge(rules):
    st = position(rules, "Blue movement", {"b-4": "A08.07", "r-2": "A12.05"})
    d = dest(rules, st, "b-4")
    assert d["A09.08"] == 0.5                          # along the road over the bridge
    assert d["A09.07"] == 1.5                          # across the river only by way of the bridge
    st = position(rules, "Blue movement", {"b-4": "A07.04", "b-1": "A07.03"})
    assert "A08.04" not in dest(rules, st, "b-4")      # across the river, the bridge out of reach
    assert dest(rules, st, "b-1")["A08.03"] == 4       # foot: rough 2 + river 2
    g = Game(rules, 1)
    g.state = st
    with pytest.raises(IllegalAction) as e:
        g.play("move b-4 A07.04-A08.04")
    assert e.value.rule == "Rule 4 (scenario)"
    assert e.value.message == "crossing the river is prohibited to tracked units"


def test_rule_4_a_unit_may_always_move_one_hex(rules):
    st = position(rules, "Blue movement", {"b-1": "A06.08"})   # foot, MA 4; supply out of range halves nothing here
    st.units["b-1"].steps_lost = 1                             # its back: 2-2-4
    assert dest(rules, st, "b-1")["A05.08"] == 2


def test_rule_5_zones_of_control_stop_cost_to_leave_and_not_across_the_river(rules):
    st = position(rules, "Blue movement", {"b-1": "A10.05", "r-1": "A11.05"}, supply=False)
    d = dest(rules, st, "b-1")                 # b-1 starts next to r-1: leaving costs 2 MP more (rule 5)
    assert d["A09.05"] == 3                    # clear 1 + 2 to leave
    # from one enemy ZOC hex straight into another is refused; A10.04 (next to r-1 too) is reached around,
    # by A09.05: 3, then 1 more
    blocked = {rules.map.hex_id(h): why for h, why in rules.reach(st, "b-1").blocked.items()}
    assert blocked["A10.04"] == "Rule 5 (scenario): a unit leaving an enemy zone of control may not enter another"
    assert d["A10.04"] == 4
    g = Game(rules, 1)
    g.state = st
    with pytest.raises(IllegalAction) as e:
        g.play("move b-1 A10.05-A12.05")                # beyond r-1: a unit entering a zone of control stops
    assert e.value.rule == "Rule 4 (scenario)" and "enters an enemy zone of control stops" in e.value.message
    # the bridge guard at A09.08 exerts no zone of control across the river: A08.08 is free to pass
    st2 = position(rules, "Blue movement", {"b-1": "A08.10"})
    zone = rules.enemy_zoc(st2, "blue")
    assert rules.board.parse_hex("A08.08") not in zone and rules.board.parse_hex("A08.07") not in zone
    assert rules.board.parse_hex("A10.08") in zone and rules.board.parse_hex("A09.07") in zone


def test_rule_5_2_stacking_by_points(rules):
    st = position(rules, "Blue movement", {"b-4": "A04.05", "b-1": "A03.05"})
    # limit 3 points: a tank battalion is 2, infantry 1.  b-2 may join b-4 (3), the engineers then may not.
    assert "A04.05" in dest(rules, st, "b-2")
    st.units["b-2"].hex = rules.board.parse_hex("A04.05")
    rules.forget(st)
    assert "A04.05" not in dest(rules, st, "b-5")
    g = Game(rules, 1)
    g.state = st
    with pytest.raises(IllegalAction) as e:
        g.play("move b-5 A05.05-A04.05")
    assert e.value.rule == "Rule 5.2 (scenario)"


def test_rule_6_differential_columns_terrain_shift_caps_and_other_shifts(rules):
    st = position(rules, "Blue combat", {"b-1": "A10.08", "b-4": "A10.07", "b-5": "A08.08"}, supply=False)
    # r-2 (defence 4) on clear A09.08; b-1 (4) and b-4 tanks (6): 10 - 4 = +6, above +5: the +5 column;
    # combined arms +1 cannot go further right
    o = rules.odds(st, "r-2", ("b-1", "b-4"))
    assert (o.attack, o.defense, o.label) == (10, 4, "+5")
    assert any("combined arms +1" in m for m in o.modifiers)
    o2 = rules.odds(st, "r-2", ("b-1",))              # 4 - 4 = 0: the "0" column
    assert o2.label == "0" and o2.shift == 0
    o4 = rules.odds(st, "r-2", ("b-1", "b-5"))        # 6 - 4 = +2, the engineers +1; not every attacker across
    assert o4.label == "+3"
    o3 = rules.odds(st, "r-2", ("b-5",))              # 2 - 4 = -2; across the river -1 (rule 4.3), engineers +1
    assert o3.label == "-2" and o3.shift == 0
    assert any("across river -1" in m for m in o3.modifiers) and any("engineers" in m for m in o3.modifiers)


def test_rule_6_3_town_shifts_are_capped_at_two(rules):
    st = position(rules, "Blue combat", {"b-1": "A14.09", "b-2": "A14.08", "b-3": "A16.09"}, supply=False)
    # r-4 (defence 5) in Neustadt town A15.09: 12 - 5 = +7 -> +5; town -2 -> +3
    o = rules.odds(st, "r-4", ("b-1", "b-2", "b-3"))
    assert (o.attack, o.defense) == (12, 5) and o.label == "+3"


def test_rule_6_below_the_lowest_column_is_the_lowest_and_a_unit_attacks_once(rules):
    st = position(rules, "Blue combat", {"b-5": "A14.09"}, supply=False)
    o = rules.odds(st, "r-4", ("b-5",))                # 2 - 5 = -3, below the lowest: the lowest (-2); town -2
    assert o.label == "-2" and o.column == 1
    st = position(rules, "Blue combat", {"b-5": "A10.08", "r-3": "A11.08"}, supply=False)
    g = Game(rules, 1)
    g.state = st
    g.play("attack r-2 by b-5")
    with pytest.raises(IllegalAction) as e:
        g.play("attack r-3 by b-5")
    assert e.value.rule == "Rule 6 (scenario)" and "attacks once" in e.value.message


def result(rules, st, code, defender, attackers):
    new = st.copy()
    events = []
    rules._result(new, defender, tuple(attackers), code, events)
    return new, [e.text for e in events]


def test_rule_7_results_defined_in_data(rules):
    st = position(rules, "Blue combat", {"b-1": "A10.08", "b-4": "A10.07"})
    new, ev = result(rules, st, "DE", "r-2", ("b-1", "b-4"))
    assert new.units["r-2"].status == "eliminated" and "r-2 eliminated" in ev
    assert new.pending[0]["kind"] == "advance"                  # rule 7.3: the hex is empty, attackers may advance
    assert {a.text() for a in rules.legal_actions(new)} == {"advance b-1", "advance b-4", "advance none"}
    new, ev = result(rules, st, "DS", "r-2", ("b-1",))          # a step and a retreat of one hex
    assert new.units["r-2"].steps_lost == 1 and new.pending[0]["kind"] == "retreat"
    assert new.pending[0]["options"] and all(o != "A09.08" for o in new.pending[0]["options"])
    # a step loss falls on the unit with the most steps left, the first in the scenario's order on a tie
    new, ev = result(rules, st, "AS", "r-2", ("b-1", "b-4"))
    assert new.units["b-1"].steps_lost == 1 and new.units["b-4"].steps_lost == 0
    new, ev = result(rules, st, "EX", "r-2", ("b-1", "b-4"))    # exchange: the defender goes, 4 attack lost
    assert new.units["r-2"].status == "eliminated"
    assert new.units["b-1"].status == "eliminated" and new.units["b-4"].status == "map"
    new, ev = result(rules, st, "AE", "r-2", ("b-1",))
    assert new.units["b-1"].status == "eliminated"


def test_rule_7_2_retreat_through_an_enemy_zone_of_control_costs_a_step(rules):
    st = position(rules, "Red combat", {"b-1": "A10.09", "r-3": "A10.10", "b-2": "A11.11", "b-3": "A09.11",
                                        "b-5": "A11.10"})
    new, _ = result(rules, st, "DR", "r-3", ("b-1",))
    p = new.pending[0]
    assert p["kind"] == "retreat" and p["unit"] == "r-3"
    assert p["dirty"] and set(p["dirty"]) <= set(p["options"])
    hid = p["dirty"][0]
    g = Game(rules, 1)
    g.state = new
    g.play(f"retreat r-3 {hid}")
    assert g.state.units["r-3"].steps_lost == 1


def test_rule_8_out_of_supply_halves_movement_and_shifts_attacks(rules):
    st = position(rules, "Blue movement", {"b-1": "A13.05", "r-1": "A11.05", "r-2": "A12.03", "r-3": "A12.07"})
    # b-1 is eight hexes or more from the west edge with Red across its line: out of supply (range 8)
    st2 = position(rules, "Blue movement", {"b-1": "A16.02"})
    assert st2.units["b-1"].out_of_supply
    assert rules.allowance(st2, "b-1") == 2           # 4 x 1/2
    assert not position(rules, "Blue movement", {}).units["b-1"].out_of_supply
    st3 = position(rules, "Blue combat", {"b-1": "A16.02", "r-4": "A16.03"})
    o = rules.odds(st3, "r-4", ("b-1",))
    assert any("out of supply -1" in m for m in o.modifiers)
    assert st.units["b-2"].out_of_supply is False


def test_rule_9_reinforcements_enter_on_their_turn_at_their_edge(rules):
    g = Game(rules, 1)
    with pytest.raises(IllegalAction) as e:
        g.play("enter b-6 A01.05")
    assert e.value.rule == "Rule 9 (scenario)" and "arrives on turn 2" in e.value.message
    for _ in range(6):
        g.play("end")
    assert g.state.turn == 2 and g.state.phase == "Blue reinforcement"
    with pytest.raises(IllegalAction) as e:
        g.play("enter b-6 A05.05")
    assert "may not enter at A05.05" in e.value.message
    g.play("enter b-6 A01.05")
    assert g.state.on_map("b-6")


def test_the_phases_come_in_order_and_who_acts(rules):
    g = Game(rules, 1)
    seen = [g.state.phase]
    for _ in range(6):
        g.play("end")
        seen.append(g.state.phase)
    assert seen == ["Blue reinforcement", "Blue movement", "Blue combat", "Red reinforcement", "Red movement",
                    "Red combat", "Blue reinforcement"]
    g2 = Game(rules, 1)
    g2.play("end")
    with pytest.raises(IllegalAction) as e:
        g2.play("move r-1 A09.03-A10.03")
    assert e.value.rule == "Rule 3 (scenario)" and "Blue's phase" in e.value.message


# ---------------------------------------------------------------- bad tables

def bad_copy(tmp_path, old: str, new: str) -> tuple[Path, str]:
    text = SCEN.read_text().replace("../maps/crossing.toml", str(ROOT / "maps" / "crossing.toml"))
    assert old in text
    text = text.replace(old, new, 1)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    return path, text


def problems(path) -> list[str]:
    with pytest.raises(BadFile) as e:
        load_rules(str(path))
    return [str(p) for p in e.value.problems]


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if fragment in line)


def test_a_crt_row_of_the_wrong_length_is_refused_with_file_line_and_columns(tmp_path):
    path, text = bad_copy(tmp_path, '["AS", "AR", "AR", "EX", "DR", "DR", "DS", "DE"],', '["AS", "AR", "AR"],')
    msgs = problems(path)
    line = line_of(text, '["AS", "AR", "AR"],')
    assert any(m.startswith(f"{path}:{line}: rules.crt.rows[1]: the row for a roll of 2 has 3 cells; expected 8, "
                            "one per column (-2, -1, 0, +1, +2, +3, +4, +5)") for m in msgs), msgs


def test_a_result_not_defined_is_refused_with_the_defined_results(tmp_path):
    path, text = bad_copy(tmp_path, '["AR", "NE", "DR", "DR", "DS", "DS", "DE", "DE"],',
                          '["AR", "NE", "DR", "D2", "DS", "DS", "DE", "DE"],')
    msgs = problems(path)
    line = line_of(text, '"D2"')
    assert any(m.startswith(f"{path}:{line}: rules.crt.rows[3]: column +1: the result 'D2' is not defined in "
                            "[results] (results: NE, AE, AS, AR, EX, DR, DS, DE)") for m in msgs), msgs


def test_a_terrain_missing_from_the_tec_is_refused_with_the_rows_and_the_maps_terrains(tmp_path):
    rough = "[rules.terrain.rough]\nmp = { foot = 2, tracked = 4 }\nshift = -1\nrule = \"6.3\"\n"
    path, text = bad_copy(tmp_path, rough, "")
    msgs = problems(path)
    assert any(": rules.terrain: the map's terrain 'rough' is missing from the terrain effects chart (rows: clear, "
               "woods, town; the map's terrains: clear, rough, town, woods)" in m for m in msgs), msgs
    assert any(m.startswith(f"{path}:{line_of(text, '[rules.terrain.clear]')}:") for m in msgs), msgs


def test_other_bad_keys_name_what_is_allowed(tmp_path):
    path, _ = bad_copy(tmp_path, 'method = "differential"', 'method = "ratio"')
    assert any("rules.combat.method: 'ratio' is not one of: odds, differential" in m for m in problems(path))
    path, _ = bad_copy(tmp_path, 'mp = { foot = 2, tracked = 3 }', 'mp = { foot = 2 }')
    assert any("rules.terrain.woods.mp: no cost for the movement class 'tracked'" in m for m in problems(path))
    path, _ = bad_copy(tmp_path, '[rules.unit_types.engineer]\nclass = "foot"',
                       '[rules.unit_types.engineer]\nclass = "hover"')
    assert any("rules.unit_types.engineer.class: 'hover' is not one of: foot, tracked" in m for m in problems(path))


def test_rule_4_a_traced_path_costs_what_its_own_hexes_cost(rules):
    g = Game(rules, 1)
    g.play("end")
    events = g.play("move b-4 A02.05-A03.06-A04.06-A05.07-A06.07-A07.08-A08.08")
    assert "(6 MP)" in events[0].text                      # six clear hexes, not the road's cheaper 4
    g.undo()
    with pytest.raises(IllegalAction) as e:
        g.play("move b-1 A03.05-A04.06-A05.07")            # A03.05 and A04.06 are not adjacent
    assert e.value.rule == "Rule 4 (scenario)" and "not adjacent" in e.value.message
    with pytest.raises(IllegalAction) as e:
        g.play("move b-5 A05.05-A06.05-A07.05-A08.05-A08.06-A08.07")   # 5 clear hexes off the road: 5 MP
    assert e.value.message == "the path costs 5 MP by A08.07, more than b-5's movement allowance of 4"
    g.play("move b-5 A05.05-A06.05-A07.05-A08.05-A08.06")       # 4 MP: within the allowance


def test_the_victory_conditions_stand_during_play(rules):
    st = position(rules, "Blue movement", {"b-1": "A15.08", "r-4": None})
    rows = {s.name: s for s in rules.standing(st)}
    assert rows["neustadt"].leader == "blue" and rows["neustadt"].rule == "10"
    assert rows["Verdict if the game ended now"].leader == "blue"
    assert ("judged", "at the end of turn 6 (now turn 1)") in rows["Verdict if the game ended now"].figures
    assert rules.standing(position(rules, "Blue movement", {}))[-1].leader == "red"     # otherwise: Red, minor


def test_rule_6_odds_round_down_up_or_to_the_nearest_column_and_below_the_lowest_is_refused_or_the_lowest():
    import dataclasses

    rules = load_rules(str(ROOT / "scenarios" / "demyansk-1-classic.toml"))    # odds 1-1 .. 6-1
    cfg = rules.cfg
    labels = lambda xs: [cfg.columns[i] if i >= 0 else "refused" for i in map(rules._column, xs)]  # noqa: E731
    assert labels([0.9, 1.5, 2.4, 2.6, 9.0]) == ["refused", "1-1", "2-1", "2-1", "6-1"]
    try:
        rules.cfg = dataclasses.replace(cfg, rounding="up")
        assert labels([0.9, 1.5, 2.0, 2.4]) == ["1-1", "2-1", "2-1", "3-1"]
        rules.cfg = dataclasses.replace(cfg, rounding="nearest")
        assert labels([0.4, 0.6, 2.4, 2.6]) == ["refused", "1-1", "2-1", "3-1"]
        rules.cfg = dataclasses.replace(cfg, below="lowest")
        assert labels([0.2]) == ["1-1"]
    finally:
        rules.cfg = cfg


def test_the_play_window_is_told_who_may_act_why_a_unit_is_idle_and_what_the_phase_asks(rules):
    st = position(rules, "Blue movement", {})
    assert rules.units_to_act(st) == {"b-1", "b-2", "b-3", "b-4", "b-5"}
    assert rules.guidance(st) == "Blue moves its units; Next phase: Blue combat."
    why = rules.why_idle(st, "r-1")
    assert why.rule == "Rule 3 (scenario)"
    assert why.message == "this is the Blue movement phase: r-1 has nothing to do now; it moves in Red movement"
    st.units["b-1"].moved = True
    assert rules.why_idle(st, "b-1").message == "b-1 has already moved this phase"
    st = position(rules, "Blue combat", {})
    assert rules.units_to_act(st) == set()                  # nobody is next to a Red unit at the start
    why = rules.why_idle(st, "b-1")
    assert why.rule == "Rule 3 (scenario)"
    assert why.message == "this is the Blue combat phase: b-1 has nothing to do now; it moves in Blue movement"
