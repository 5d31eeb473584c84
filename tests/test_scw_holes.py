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


# ---------------------------------------------------------------- SCW Under Fire 3 for every order that moves a team

def test_an_assault_stopped_short_in_the_close_band_throws_for_the_band_as_the_same_move_does():
    """From 8 inches (effective) a throw of 11 against Bravado 8 stops the charge at 3 inches (close): the assault
    and a plain move to the same point both throw below Bravado 5 for the new band, and the gun stays laid on the
    team (it used to swing to bearing 0, measured at the gun itself, and the band went untested)."""
    results = []
    for text in ("assault T2 C1", "move T2 36,13"):
        s = quiet()
        add_gun(s, "C1", (36.0, 10.0), 90.0)
        put(s, "T2", (36.0, 18.0))
        s, ev = order(s, text, dice=(6, 5, 1, 2))
        assert s["teams"]["T2"]["at"] == [36.0, 13.0] and s["guns"]["C1"]["bearing"] == 90.0
        assert texts(ev, "traverse") == []
        results.append([x for x in texts(ev, "cone_entry")])
    assert results[0] == results[1] == ["T2 moves into the close range band of C1: threw 1+2=3 needing below 5: "
                                        "no loss"]


def test_a_bayonet_charge_into_another_guns_cone_throws_for_it():
    """SCW Silencing 8 with Under Fire 3: the charge from 3 inches onto the silenced gun at C1 runs into the cone of
    the gun at C2; that gun swings onto the charge and the team throws for entering its cone before the assault."""
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    add_gun(s, "C2", (50.0, 9.0), 180.0)         # its cone reaches 11.6 inches up the line at x = 36, not 13
    put(s, "T2", (36.0, 13.0))
    s["teams"]["T2"]["cover"] = True
    s, _ = order(s, "grenade T2 C1", dice=(5,))
    # leave cover 1+2, C1 stays silent on 6+6, the cone of C2 entered 1+2, close assault 9: gun captured
    s, ev = order(s, "bayonet T2", dice=(1, 2, 6, 6, 1, 2, 9))
    assert texts(ev, "cone_entry") == ["T2 moves into the cone of C2: threw 1+2=3 needing below 8: no loss"]
    assert s["guns"]["C2"]["target"] == "T2" and s["guns"]["C1"]["captured"]
