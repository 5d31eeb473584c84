"""Every procedure of the skirmish rules with fixed dice, asserting the seed's own numbers."""
import pytest

from engine.rulesets.scw import procedures as P


def test_the_average_die_has_faces_2_3_3_4_4_5():
    assert [P.average_die_face(f) for f in range(1, 7)] == [2, 3, 3, 4, 4, 5]


# ---------------------------------------------------------------- SCW Advance

def test_bravado_8_roll_10_moves_6_inches():
    a = P.advance(8, (4, 6))
    assert (a.rate, a.bravado, a.casualties, a.pinned) == (6.0, 8, 0, False)


def test_a_roll_at_or_below_bravado_moves_full_rate():
    assert P.advance(8, (4, 4)).rate == 8.0
    assert P.advance(7, (1, 2)).rate == 7.0


def test_an_odd_double_costs_a_figure_and_an_even_double_does_not():
    assert P.advance(8, (3, 3)).casualties == 1
    assert P.advance(8, (5, 5)).casualties == 1
    assert P.advance(8, (1, 1)).casualties == 1
    assert P.advance(8, (2, 2)).casualties == 0
    assert P.advance(8, (4, 4)).casualties == 0
    assert P.advance(8, (2, 3)).casualties == 0


# ---------------------------------------------------------------- SCW Under Fire

def test_under_fire_the_excess_is_lost_from_bravado_for_good():
    a = P.advance(8, (4, 6), under_fire=True)
    assert (a.rate, a.bravado) == (6.0, 6)
    assert "Bravado 8 -> 6" in a.text


def test_under_fire_any_double_costs_a_figure():
    assert P.advance(8, (2, 2), under_fire=True).casualties == 1
    assert P.advance(8, (4, 4), under_fire=True).casualties == 1


def test_under_fire_bravado_0_pins():
    a = P.advance(3, (6, 5), under_fire=True)
    assert (a.rate, a.bravado, a.pinned) == (0.0, 0, True)


def test_moving_into_a_cone_or_band_throw_below_bravado_or_lose_a_figure():
    assert P.cone_entry(8, (3, 4)).casualties == 0
    assert P.cone_entry(8, (4, 4)).casualties == 1  # equal is not below
    assert P.cone_entry(8, (6, 5)).casualties == 1


def test_covering_fire_is_added_to_the_bravado_the_throw_is_compared_with():
    a = P.advance(8, (4, 6), under_fire=True, covering=2)
    assert (a.rate, a.bravado) == (8.0, 8)
    a = P.advance(8, (5, 6), under_fire=True, covering=2)
    assert (a.rate, a.bravado) == (7.0, 7)
    assert P.advance(8, (1, 2), covering=3).rate == 8.0  # never above full rate


# ---------------------------------------------------------------- SCW Take Cover

def test_pressing_on_equal_or_below_with_the_modifiers():
    t = P.press_on(6, (3, 4), {"leader with the team": 1})
    assert t.passed and t.target == 7 and t.casualties == 0
    t = P.press_on(6, (4, 4), {"leader with the team": 1, "close range": -2})
    assert not t.passed and t.target == 5 and t.casualties == 1  # any double: another casualty
    t = P.press_on(6, (3, 4), {"LMG covering fire": 2, "effective range": -1})
    assert t.passed and t.target == 7 and t.casualties == 0  # 7 is equal: presses on


def test_in_cover_under_fire_only_odd_doubles_cost_a_figure():
    assert P.cover_casualty((3, 3)).casualties == 1
    assert P.cover_casualty((4, 4)).casualties == 0
    assert P.cover_casualty((1, 2)).casualties == 0


def test_leaving_cover_throw_beneath_bravado_with_the_modifiers():
    r = P.leave_cover(6, (3, 3), {"leader with the team": 1}, in_cone=True)
    assert r.passed and r.target == 7
    r = P.leave_cover(6, (4, 4), {}, in_cone=False)
    assert not r.passed
    r = P.leave_cover(6, (4, 4), {"outside the cone": 3}, in_cone=False)
    assert r.passed and r.target == 9


def test_failing_to_leave_cover_costs_a_bravado_level_and_pins_inside_a_cone_only():
    r = P.leave_cover(6, (5, 6), {}, in_cone=True)
    assert (r.passed, r.bravado, r.pinned) == (False, 5, True)
    r = P.leave_cover(6, (6, 6), {"outside the cone": 3}, in_cone=False)
    assert (r.passed, r.bravado, r.pinned) == (False, 5, False)


# ---------------------------------------------------------------- SCW Rallying

def test_rally_bravado_6_plus_1_is_7_scored_6_rallied():
    assert P.rally(6, (2, 4), {"rally": 1}).passed
    assert not P.rally(6, (3, 4), {"rally": 1}).passed


def test_the_commissar_adds_one_and_rallies_at_minus_one_after_shooting():
    assert P.rally(6, (3, 4), {"rally": 1, "commissar": 1}).passed
    assert not P.rally(6, (3, 3), {"rally": 1, "commissar rallying": -1}).passed
    assert P.commissar_shoots(1) and not P.commissar_shoots(2) and not P.commissar_shoots(6)


# ---------------------------------------------------------------- SCW Leader Casualties

def test_a_natural_leader_on_1_or_0_of_a_d10():
    assert P.natural_leader(1) and P.natural_leader(10)
    assert not any(P.natural_leader(d) for d in range(2, 10))


def test_the_natural_leader_comes_from_the_first_team_nearest_first_to_throw_a_6():
    order = ["T2", "T1", "T3"]
    assert P.natural_leader_team(order, [6]) == "T2"
    assert P.natural_leader_team(order, [3, 5, 6]) == "T3"
    assert P.natural_leader_team(order, [1, 2, 3, 4, 6]) == "T1"  # round again
    assert P.natural_leader_team(order, [1, 2]) is None


def test_a_leader_is_the_casualty_on_a_1():
    assert P.leader_hit(1) and not P.leader_hit(2)


# ---------------------------------------------------------------- SCW Covering Fire

@pytest.mark.parametrize("d6, base", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_lmg_covering_fire_table(d6, base):
    assert P.lmg_covering(d6, 1, False, False).bonus == base + 1  # +1 per covering LMG


def test_lmg_covering_fire_modifiers():
    c = P.lmg_covering(4, 2, True, True)
    assert c.bonus == 2 + 1 + 2 + 1
    assert "+1 leader directing" in c.text and "+2 per LMG" in c.text


@pytest.mark.parametrize("avd, base", [(2, 1), (3, 1), (4, 1), (5, 2)])
def test_rifle_covering_fire_table(avd, base):
    assert P.rifle_covering(avd, 1, False).bonus == base


def test_rifle_covering_fire_modifiers():
    assert P.rifle_covering(5, 4, True).bonus == 2 + 2 + 1
    assert P.rifle_covering(3, 3, False).bonus == 1 + 1


# ---------------------------------------------------------------- SCW Silencing

def test_lmg_silencing_range_5_scored_11_costs_the_gun_2_bravado():
    lost, text = P.silencing_fire(5.0, (5, 6))
    assert lost == 2 and "6.0 over" in text


def test_silencing_fire_at_or_under_the_range_has_no_effect_and_under_3_over_costs_nothing():
    assert P.silencing_fire(5.0, (2, 3))[0] == 0
    assert P.silencing_fire(9.0, (4, 4))[0] == 0
    assert P.silencing_fire(5.0, (3, 4))[0] == 0  # 2 over
    assert P.silencing_fire(3.0, (6, 6))[0] == 3  # 9 over: silenced at once


def test_grenades_silence_on_4_to_6():
    assert [P.grenade(d) for d in range(1, 7)] == [False, False, False, True, True, True]


def test_a_silenced_gun_reopens_under_its_bravado():
    assert P.reopens(5, (2, 2)).passed
    assert not P.reopens(5, (2, 3)).passed


def test_a_one_on_the_charge_costs_an_additional_figure():
    assert P.assault_ones((1, 4)) == 1 and P.assault_ones((1, 1)) == 1 and P.assault_ones((2, 6)) == 0


# ---------------------------------------------------------------- SCW At 'em with Bomb and Bayonet

def test_close_assault_needs_the_gun_within_the_unmodified_bravado():
    assert P.can_close_assault(8.0, 8) and not P.can_close_assault(8.1, 8)


@pytest.mark.parametrize("d10, result", [(1, "repulsed"), (2, "stiff_fight"), (3, "stiff_fight"), (4, "empty"),
                                         (6, "empty"), (7, "surrender"), (8, "surrender"), (9, "dead"),
                                         (10, "dead")])
def test_the_close_assault_table(d10, result):
    a = P.close_assault(d10, 0, prisoners_d6=4)
    assert a.result == result
    assert a.attackers_killed == (result == "repulsed") and a.captured == (result != "repulsed")
    assert a.prisoners == (4 if result == "surrender" else 0)


def test_the_assault_gains_one_per_bravado_the_gun_has_lost():
    assert P.close_assault(1, 2).result == "stiff_fight"
    assert P.close_assault(6, 2).result == "surrender"
    assert P.close_assault(9, 3).score == 10


def test_moors_and_legionnaires_take_no_prisoners():
    a = P.close_assault(7, 0, defenders_surrender=False, prisoners_d6=5)
    assert a.result == "dead" and a.prisoners == 0
