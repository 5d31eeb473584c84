"""Skirmish positions a hostile reading found: the cone brought to bear on a team moving into reach, range
bands measured to the team's centre at both ends of a move, a gun holding on an LMG, a gun revealed mid-move."""
from test_scw_rules import RULES, _card_ahead, add_gun, order, put, quiet, texts


# ---------------------------------------------------------------- SCW Contact 4, Under Fire 1 and 3

def test_a_team_moving_from_20_to_12_inches_straight_at_a_gun_is_under_fire_and_enters_its_cone():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 0.0)            # laid across the table, away from the team
    put(s, "T2", (36.0, 30.0))                     # 20 inches: out of any cone's reach when it starts
    s, ev = order(s, "move T2 36,22", dice=(1, 2, 3, 3))
    assert s["guns"]["C1"]["target"] == "T2" and s["teams"]["T2"]["at"] == [36.0, 22.0]
    assert "in the cone of C1" in texts(ev, "advance")[0]
    assert any("moves into the cone of C1" in x for x in texts(ev, "cone_entry"))


def test_the_same_move_started_at_18_5_inches_is_treated_alike():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 0.0)
    put(s, "T2", (36.0, 28.5))
    s, ev = order(s, "move T2 36,22", dice=(1, 2, 3, 3))
    assert "in the cone of C1" in texts(ev, "advance")[0]
    assert any("moves into the cone of C1" in x for x in texts(ev, "cone_entry"))


def test_a_team_moving_past_out_of_reach_is_not_engaged():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 0.0)
    put(s, "T2", (30.0, 34.0))                     # its nearest point stays beyond 19 inches
    s, ev = order(s, "move T2 24,34", dice=(1, 2))
    assert "in the cone" not in texts(ev, "advance")[0] and texts(ev, "cone_entry") == []


# ---------------------------------------------------------------- range bands, one measure

def test_stepping_back_from_12_5_inches_never_enters_the_effective_band():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 22.5))                     # centre 12.5 in: long range, footprint reaching 11.5
    s, ev = order(s, "move T2 36,23", dice=(1, 2))
    assert texts(ev, "cone_entry") == []


def test_stepping_in_from_12_5_to_11_5_inches_enters_the_effective_band():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 22.5))
    s, ev = order(s, "move T2 36,21.5", dice=(1, 2, 3, 3))
    assert any("effective range band" in x for x in texts(ev, "cone_entry"))


# ---------------------------------------------------------------- SCW Contact 4: held on the LMG

def test_a_gun_under_lmg_fire_does_not_move_for_later_moves_until_the_turn_ends():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (44.0, 18.0))                     # LMG, 11.3 inches from the gun
    put(s, "T1", (52.0, 14.0))
    put(s, "T2", (30.0, 40.0))
    s, _ = order(s, "fire T3 C1", dice=(1, 2))
    held = s["guns"]["C1"]["bearing"]
    assert s["guns"]["C1"]["target"] == "T3"
    s, ev = order(s, "move T1 48,17", dice=(1, 2))       # next to the LMG, outside the cone laid on it
    s, ev2 = order(s, "move T2 30,36", dice=(1, 2))      # an unrelated move: a re-aimed cone would hold T1 too
    assert s["guns"]["C1"]["bearing"] == held and texts(ev, "traverse") == texts(ev2, "traverse") == []
    assert "in the cone" not in texts(ev, "advance")[0]
    s, _ = order(s, "end")                          # the turn releases it: it swings to the next mover
    put(s, "T2", (36.0, 30.0))
    s, ev = order(s, "move T2 36,25", dice=(1, 2, 1, 2))
    assert s["guns"]["C1"]["target"] == "T2"


def test_a_gun_whose_lmg_is_wiped_out_lays_on_the_next_lmg_firing_at_it():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (44.0, 18.0))
    put(s, "T5", (28.0, 18.0))
    s, _ = order(s, "fire T3 C1", dice=(1, 2))
    s, _ = order(s, "fire T5 C1", dice=(1, 2))
    assert s["guns"]["C1"]["target"] == "T3"        # it holds on the first
    s["teams"]["T3"]["alive"] = False
    put(s, "T2", (36.0, 40.0))
    s, ev = order(s, "move T2 36,36", dice=(1, 2))
    assert s["guns"]["C1"]["target"] == "T5"


# ---------------------------------------------------------------- SCW Contact 1: a gun revealed mid-move

def test_a_team_that_turns_up_a_gun_whose_cone_holds_it_throws_as_moving_into_the_cone():
    s = quiet()
    _card_ahead(s, "C3", 10.0, picture=True)
    put(s, "T2", (32.0, 30.0))
    s, ev = order(s, "move T2 33,24", dice=(1, 2, 5, 4, 4, 5))
    assert "C3" in s["guns"] and s["guns"]["C3"]["target"] == "T2"
    assert any("caught in the cone of C3" in x for x in texts(ev, "roll"))
    assert s["teams"]["T2"]["bravado"] == 7         # 9 against 8 under fire: one Bravado lost
    assert len(texts(ev, "cone_entry")) == 1        # the entry throw: 9, not below 7
    assert s["teams"]["T2"]["figures"] == 3 and s["pending"] == {"kind": "press_on", "team": "T2"}


def test_a_revealed_gun_laid_on_a_nearer_moving_team_costs_the_team_that_turned_it_nothing():
    s = quiet()
    _card_ahead(s, "C3", 10.0, picture=True)       # front edge at 36,10; the gun will stand at 36,8.25
    put(s, "T4", (20.0, 8.25))                     # moved earlier this turn: 16 inches from the gun
    s["moving"] = ["T4"]
    put(s, "T2", (36.0, 30.0))
    s, ev = order(s, "move T2 36,27.5", dice=(1, 2))   # 17.5 inches from the front edge: the card turns
    assert s["guns"]["C3"]["target"] == "T4"
    assert texts(ev, "cone_entry") == [] and s["teams"]["T2"]["bravado"] == 8
