"""Demyansk 6, 6.1 to 6.6, 8.1, 8.2: announcing battles, odds columns, shifts and every CRT result."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.demyansk.actions import Declare, EnterResult, Resolve
from engine.rulesets.demyansk.combat import battle_odds
from test_demyansk_fixtures import board, rules, state_in, unit

# 0505's neighbours: 0404 0405 0504 0506 0604 0605
HQ = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)   # every Soviet in command


def odds(r, st, d, *att):
    return battle_odds(r, st, d, att)


def refused(r, st, action):
    with pytest.raises(IllegalAction) as e:
        r.apply(st, action)
    return e.value


def test_6_odds_drop_fractions_16_to_4_is_4_1_and_15_to_4_is_3_1():
    r = rules([HQ, unit("d", "german", "1-4-6", "0505"), unit("a", "soviet", "8-4-4", "0504"),
               unit("b", "soviet", "8-4-4", "0604"), unit("c", "soviet", "7-4-4", "0605")])
    st = state_in(r, "soviet-combat")
    assert odds(r, st, "d", "a", "b").label == "4:1"
    assert odds(r, st, "d", "a", "c").label == "3:1"


def test_6_below_1_1_is_refused_and_above_6_1_is_6_1():
    r = rules([HQ, unit("d", "german", "1-5-6", "0505"), unit("a", "soviet", "4-4-4", "0504"),
               unit("b", "soviet", "40-4-4", "0604")])
    st = state_in(r, "soviet-combat")
    e = refused(r, st, Declare("d", ("a",)))
    assert e.rule == "Demyansk 6" and "below 1:1" in e.message
    o = odds(r, st, "d", "b")
    assert o.ratio == 8 and o.label == "6:1"


def test_6_each_unit_attacks_once_each_enemy_is_attacked_once_and_only_adjacent():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("d2", "german", "1-2-6", "0405"),
               unit("a", "soviet", "4-4-4", "0504"), unit("b", "soviet", "4-4-4", "0604"),
               unit("far", "soviet", "4-4-4", "0808")])
    st = state_in(r, "soviet-combat")
    st, _ = r.apply(st, Declare("d", ("a",)))
    assert "only once" in refused(r, st, Declare("d", ("b",))).message
    assert "only once" in refused(r, st, Declare("d2", ("a",))).message
    assert "not adjacent" in refused(r, st, Declare("d2", ("far",))).message


def test_6_all_battles_are_announced_before_any_is_resolved():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("d2", "german", "1-2-6", "0303"),
               unit("a", "soviet", "4-4-4", "0504"), unit("b", "soviet", "4-4-4", "0403")])
    st = state_in(r, "soviet-combat", dice=[2])
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, _ = r.apply(st, Resolve("d"))
    e = refused(r, st, Declare("d2", ("b",)))
    assert e.rule == "Demyansk 6" and "announced before" in e.message


def test_6_1_woods_doubles_infantry_only():
    b = board({"0505": "woods"})
    r = rules([HQ, unit("inf", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504")], board=b)
    st = state_in(r, "soviet-combat")
    assert odds(r, st, "inf", "a").defense == 4
    r = rules([HQ, unit("gun", "german", "2-2-6", "0505", type="assault_gun"), unit("a", "soviet", "8-4-4", "0504")],
              board=b)
    assert odds(r, state_in(r, "soviet-combat"), "gun", "a").defense == 2


def test_6_1_river_doubles_only_if_every_attacker_is_across_it():
    b = board(rivers=[("0505", "0504"), ("0505", "0604")])
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "4-4-4", "0504"),
               unit("b", "soviet", "4-4-4", "0604"), unit("c", "soviet", "4-4-4", "0605")], board=b)
    st = state_in(r, "soviet-combat")
    assert odds(r, st, "d", "a", "b").defense == 4
    assert odds(r, st, "d", "a", "b", "c").defense == 2


def test_6_1_the_total_modification_is_at_most_triple():
    b = board({"0505": "rough"}, features={"0505": {"fortification"}}, rivers=[("0505", "0504")])
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "12-4-4", "0504")], board=b)
    o = odds(r, state_in(r, "soviet-combat"), "d", "a")
    assert (o.multiplier, o.defense, o.label) == (3, 6, "2:1")


def test_6_2_fortification_doubles_germans_until_a_soviet_unit_enters_it():
    b = board(features={"0505": {"fortification"}})
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504")], board=b)
    st = state_in(r, "soviet-combat")
    assert odds(r, st, "d", "a").defense == 4
    st.forts_lost.append(b.parse_hex("0505"))
    assert odds(r, st, "d", "a").defense == 2
    r = rules([HQ, unit("s", "soviet", "1-2-6", "0505"), unit("g", "german", "8-4-4", "0504")], board=b)
    assert odds(r, state_in(r, "german-combat"), "s", "g").defense == 2   # Germans only


def test_6_3_town_and_city_double_and_a_city_ignores_dr():
    b = board({"0505": "city", "0303": "town"})
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "16-4-4", "0504")], board=b)
    st = state_in(r, "soviet-combat", dice=[1])      # 4:1, die 1: DR1
    assert odds(r, st, "d", "a").label == "4:1"
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, ev = r.apply(st, Resolve("d"))
    assert st.units["d"].hex == b.parse_hex("0505") and any("6.3" in e.text for e in ev)
    r = rules([HQ, unit("t", "german", "1-2-6", "0303"), unit("a", "soviet", "8-4-4", "0304")], board=b)
    assert odds(r, state_in(r, "soviet-combat"), "t", "a").defense == 4


def test_6_4_combined_arms_raise_the_odds_by_one():
    r = rules([HQ, unit("d", "soviet", "1-8-6", "0505"), unit("i", "german", "4-4-6", "0504"),
               unit("m", "german", "4-3-6", "0604", type="mechanized")])
    st = state_in(r, "german-combat")
    o = odds(r, st, "d", "i", "m")
    assert o.ratio == 1 and o.label == "2:1" and "6.4" in o.shift
    assert odds(r, st, "d", "i").shift is None


def test_6_5_divisional_integrity_raises_the_odds_not_cumulatively_and_is_lost_with_a_unit():
    r = rules([HQ, unit("d", "soviet", "1-10-6", "0505"),
               unit("j1", "german", "7-6-8", "0504", type="light_infantry", division="5J"),
               unit("j2", "german", "7-6-8", "0604", type="light_infantry", division="5J"),
               unit("m1", "german", "10-9-8", "0404", type="motorized", division="18M"),
               unit("m2", "german", "10-9-8", "0405", type="motorized", division="18M")])
    st = state_in(r, "german-combat")
    o = odds(r, st, "d", "j1", "j2")
    assert o.ratio == 1 and o.label == "2:1" and "6.5" in o.shift
    assert odds(r, st, "d", "j1").shift is None
    both = odds(r, st, "d", "j1", "j2", "m1", "m2")      # integrity and combined arms: +1 only
    assert both.ratio == 3 and both.label == "4:1"
    st.units["m2"].status = "eliminated"
    o = odds(r, st, "d", "j1", "m1")
    assert "6.4" in o.shift                                # 18M has lost its integrity
    st.units["j2"].status = "eliminated"
    assert not r.has_integrity(st, "5J")


def test_8_1_soviets_outside_command_radius_attack_at_half_strength_rounded_up():
    q = unit("q", "soviet", "0-1-3", "0101", type="headquarters")
    r = rules([q, unit("d", "german", "1-1-6", "0808"), unit("a", "soviet", "5-4-4", "0807")])
    st = state_in(r, "soviet-combat")
    o = odds(r, st, "d", "a")
    assert o.attack == 3 and any("8.1" in m for m in o.modifiers)


def test_8_1_hq_has_no_attack_strength():
    r = rules([unit("q", "soviet", "0-1-3", "0504", type="headquarters"), unit("d", "german", "1-1-6", "0505")])
    assert refused(r, state_in(r, "soviet-combat"), Declare("d", ("q",))).rule == "Demyansk 8.1"


def battle(dice, att="4-4-4", dfn="1-2-6", extra=(), board_=None):
    """Soviet a (0504) attacks German d (0505) with the dice given; returns (rules, state after resolve, events)."""
    units = [HQ, unit("d", "german", dfn, "0505"), unit("a", "soviet", att, "0504"), *extra]
    r = rules(units, board=board_) if board_ else rules(units)
    st = state_in(r, "soviet-combat", dice=dice)
    st, _ = r.apply(st, Declare("d", ("a",) + tuple(u.id for u in extra if u.side == "soviet")))
    st, ev = r.apply(st, Resolve("d"))
    return r, st, ev


def test_6_6_crt_at_2_1_die_1_ar1_die_2_ne_die_3_ex():
    r, st, ev = battle([2])
    assert [e.data.get("result") for e in ev if e.kind == "result"] == ["NE"] and not st.pending
    r, st, ev = battle([1])
    assert [e.data.get("result") for e in ev if e.kind == "result"] == ["AR1"]
    r, st, ev = battle([3])
    assert st.units["d"].status == "eliminated" and st.units["a"].status == "eliminated"   # 4 >= 2


def test_6_6_ex_eliminates_only_attackers_at_least_as_strong_as_the_modified_defence():
    extra = (unit("b", "soviet", "3-4-4", "0604"),)
    r, st, ev = battle([3], att="4-4-4", dfn="1-4-6", extra=extra)       # 7:4 is 1:1, die 3: EX
    assert st.units["d"].status == "eliminated"
    assert st.units["a"].status == "eliminated" and st.units["b"].status == "map"


def test_6_6_de_eliminates_the_defender_and_one_attacker_may_advance():
    r, st, ev = battle([5, 4], att="12-4-4")               # 6:1, die 5: blank; the chart says DE
    st, ev = r.apply(st, EnterResult("DE"))
    assert st.units["d"].status == "eliminated" and st.units["d"].destroyed_in_combat
    assert st.pending == [{"kind": "advance", "side": "soviet", "hex": r.board.parse_hex("0505"),
                           "attackers": ["a"], "options": ["a", "none"]}]
    st, ev = r.apply(st, r.parse_action("advance a"))
    assert r.map.hex_id(st.units["a"].hex) == "0505" and not st.pending


def test_6_6_dr_results_make_the_defender_retreat_that_many_hexes():
    r, st, ev = battle([1], att="8-4-4", dfn="1-2-6")        # 4:1, die 1: DR1
    p = st.pending[0]
    assert (p["kind"], p["side"], p["unit"], p["hexes"]) == ("retreat", "german", "d", 1)
    assert p["options"] == ["0405", "0506", "0605"]       # not 0404/0604: in a's zone of control


def test_6_6_a_blank_cell_asks_for_the_printed_chart_result():
    r, st, ev = battle([5], att="8-4-4")                     # 4:1, die 5: blank in the rulebook
    p = st.pending[0]
    assert p["kind"] == "result" and p["side"] == "soviet" and p["die"] == 5 and p["column"] == "4:1"
    assert any(e.kind == "blank-cell" for e in ev)
    prompt = r.chart_prompt(st)
    assert (prompt.slot, prompt.key) == ("demyansk.crt", ("4-1", "5"))
    assert r.why_idle(st, "a").rule == "Demyansk 6.6"
    assert [s.show() for s in prompt.steps] == ["attack 8 (a) against defence 2, ratio 4:1 (Demyansk 6)",
                                                "odds column 4-1 (Demyansk 6)", "die rolled 5 (Demyansk 6)"]
    assert [a.text() for a in r.legal_actions(st)][:2] == ["chart demyansk.crt [4-1][5] = AR1",
                                                           "chart demyansk.crt [4-1][5] = AR2"]
    st, ev = r.apply(st, r.parse_action("chart demyansk.crt [4-1][5] = DE"))
    assert st.units["d"].status == "eliminated"
    assert st.pending[0]["kind"] == "advance" and st.pending[0]["options"] == ["a", "none"]
    assert st.charts.get("demyansk.crt", ("4-1", "5")) == "DE"          # remembered for the rest of the game


def test_6_6_a_blank_cell_answered_once_is_not_asked_again_in_the_same_game():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504"),
               unit("e", "german", "1-2-6", "0908"), unit("b", "soviet", "8-4-4", "0907")])
    st = state_in(r, "soviet-combat", dice=[5, 5])                 # both battles: 4:1, die 5, a blank cell
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, _ = r.apply(st, Declare("e", ("b",)))
    st, _ = r.apply(st, Resolve("d"))
    with pytest.raises(IllegalAction, match="Demyansk 6.6: 'XX' is not a result of Combat Results Table"):
        r.apply(st, r.parse_action("chart demyansk.crt [4-1][5] = XX"))
    st, ev = r.apply(st, r.parse_action("chart demyansk.crt [4-1][5] = NE"))
    assert [e.text for e in ev if e.kind == "entered"] == ["result NE entered from the printed chart"]
    st, ev = r.apply(st, Resolve("e"))
    assert not st.pending and r.chart_prompt(st) is None
    assert [e.data["result"] for e in ev if e.kind == "result"] == ["NE"]
    assert any(e.kind == "remembered" and "entered earlier in this game: NE" in e.text for e in ev)


def test_6_6_the_old_result_form_still_answers_a_blank_cell_but_is_not_remembered():
    r, st, ev = battle([5], att="8-4-4")
    st, ev = r.apply(st, EnterResult("DE"))
    assert st.units["d"].status == "eliminated" and not st.charts.cells
    assert "charts" not in r.state_to_dict(st)


def test_6_6_ar_makes_every_attacker_retreat():
    extra = (unit("b", "soviet", "2-4-4", "0604"),)
    r, st, ev = battle([1], att="2-4-4", dfn="1-4-6", extra=extra)    # 4:4 is 1:1, die 1: AR2
    assert [(p["unit"], p["hexes"]) for p in st.pending] == [("a", 2), ("b", 2)]
    # two hexes from 0504, never through the German zone of control (0404, 0405, 0506, 0605)
    assert st.pending[0]["options"] == ["0303", "0304", "0402", "0502", "0602", "0703", "0704", "0705"]


def test_6_6_the_crt_data_marks_the_cells_the_rulebook_leaves_blank():
    from engine.rulesets.demyansk.tables import load_tables
    t = load_tables()
    blank = [(die, col) for die in range(1, 7) for col in range(1, 7) if t.crt(die, col) == ""]
    assert blank == [(4, 4), (4, 5), (4, 6)] + [(d, c) for d in (5, 6) for c in range(1, 7)]
    assert [t.crt(1, c) for c in range(1, 7)] == ["AR2", "AR1", "EX", "DR1", "DR2", "DR3"]


def test_a_malformed_tables_file_names_the_cell(tmp_path):
    from engine.errors import BadFile
    from engine.rulesets.demyansk.tables import TABLES_FILE, load_tables
    bad = tmp_path / "tables.toml"
    bad.write_text(TABLES_FILE.read_text().replace('["AR2", "AR1", "EX",  "DR1"', '["AR2", "AR9", "EX",  "DR1"'))
    with pytest.raises(BadFile) as e:
        load_tables(bad)
    assert "crt.rows[0][1]" in str(e.value) and "'AR9'" in str(e.value)
