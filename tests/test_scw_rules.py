"""The skirmish ruleset on the framework's contract, with dice thrown by hand (fixed) for each procedure."""
import math

import pytest

from engine.errors import IllegalAction
from engine.rulesets.scw import rules_for_path
from engine.rulesets.scw.enemy import active_guns, gun_cone
from engine.rulesets.scw.rules import ScwRules
from engine.maps.table import bearing_to, footprint

SCENARIO = "scenarios/scw-platoon-attack.toml"
COMPANY = "scenarios/scw-company-attack.toml"
RULES = rules_for_path(SCENARIO)


def quiet(seed=1, rules=RULES):
    """A fresh game whose cards are all turned and empty, so only the guns a test adds are on the table."""
    s = rules.initial_state(seed)
    for c in s["cards"].values():
        c["revealed"], c["picture"] = True, False
    return s


def add_gun(s, cid, at, bearing, lost=0, silenced=False, rules=RULES):
    c = s["cards"][cid]
    c.update(at=list(at), facing=bearing, front=list(at), picture=True, revealed=True)
    g = rules.gun_from_card(c)
    g.update(lost=lost, lost_since_open=lost, silenced=silenced)
    s["guns"][cid] = g
    return g


def put(s, tid, at):
    s["teams"][tid]["at"] = list(at)
    for ld in s["leaders"].values():
        if ld["team"] == tid:
            ld["at"] = list(at)


def order(s, text, dice=(), rules=RULES):
    """Play one order with the dice given; every die given must be used."""
    s = dict(s)
    s["hand_dice"] = list(dice)
    new, events = rules.apply(s, text)
    assert new["hand_dice"] == [], f"dice left over: {new['hand_dice']}"
    return new, events


def texts(events, kind=None):
    return [e.text for e in events if kind is None or e.kind == kind]


# ---------------------------------------------------------------- set-up

def test_the_platoon_deploys_on_the_base_line_and_six_cards_lie_face_down():
    s = RULES.initial_state(5)
    teams = s["teams"]
    assert [(t["kind"], t["figures"]) for t in teams.values()] == [
        ("rifle", 3), ("rifle", 4), ("lmg", 3), ("rifle", 4), ("lmg", 3)]
    assert all(t["at"][1] == 46.0 and t["bravado"] == 8 for t in teams.values())
    assert s["leaders"]["L1"]["team"] == "T1" and s["start_figures"] == 17
    cards = list(s["cards"].values())
    assert len(cards) == 6 and not any(c["revealed"] for c in cards)
    assert sum(c["picture"] for c in cards) >= 1
    assert len({c["face"] for c in cards}) == 6
    assert len({c["position"] for c in cards}) == 6
    assert not RULES.crowded([c["position"] for c in cards])
    hidden = RULES.view(s)
    assert all(c["face"] is None and c["picture"] is None for c in hidden["cards"].values())
    assert "rng" not in hidden


def test_the_same_seed_deals_the_same_cards_and_another_seed_may_not():
    a, b = RULES.initial_state(11), RULES.initial_state(11)
    assert a == b
    deals = {tuple(c["face"] for c in RULES.initial_state(k)["cards"].values()) for k in range(8)}
    assert len(deals) == 8


def test_the_player_may_lay_the_cards_never_three_within_4_inches():
    rules = rules_for_path(SCENARIO, "player-cards")
    s = rules.initial_state(2)
    assert s["phase"] == "setup" and rules.current_side(s) == "defender"
    s, _ = order(s, "place C1 farmhouse-door", rules=rules)
    s, _ = order(s, "place C2 farmhouse-corner", rules=rules)
    with pytest.raises(IllegalAction) as e:
        order(s, "place C3 farmhouse-yard", rules=rules)
    assert e.value.rule == "SCW Scenario 2" and "4 inches" in e.value.message
    assert "farmhouse-yard" not in [a.position for a in rules.legal_actions(s)]
    with pytest.raises(IllegalAction):
        order(s, "move T1 12,40", rules=rules)
    for cid, pos in (("C3", "copse-west"), ("C4", "crest-left"), ("C5", "chapel-door"), ("C6", "ridge-rear")):
        s, ev = order(s, f"place {cid} {pos}", rules=rules)
    assert s["phase"] == "turn" and "turn 1 begins" in texts(ev)


# ---------------------------------------------------------------- SCW Advance and Under Fire

def test_bravado_8_roll_10_moves_6_inches_on_the_table():
    s = quiet()
    put(s, "T2", (24.0, 40.0))
    s, ev = order(s, "move T2 24,32", dice=(4, 6))
    assert s["teams"]["T2"]["at"] == [24.0, 34.0]
    assert s["teams"]["T2"]["bravado"] == 8  # out of any cone: no loss
    assert any("4+6" in t for t in texts(ev, "roll"))


def test_an_odd_double_costs_a_figure_out_of_the_cone():
    s = quiet()
    s, ev = order(s, "move T2 24,40", dice=(3, 3))
    assert s["teams"]["T2"]["figures"] == 3 and s["pending"] is None


def test_moving_into_the_cone_loses_bravado_by_the_excess_and_tests_the_entry():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 30.0))
    s, ev = order(s, "move T2 36,24", dice=(4, 6, 2, 3))
    t = s["teams"]["T2"]
    assert t["at"] == [36.0, 24.0] and t["bravado"] == 6 and t["figures"] == 4
    assert any("moves into the cone of C1" in x and "no loss" in x for x in texts(ev, "cone_entry"))


def test_failing_the_entry_throw_costs_a_figure_and_offers_press_on_or_cover():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 30.0))
    s, ev = order(s, "move T2 36,24", dice=(2, 3, 5, 4))
    assert s["teams"]["T2"]["figures"] == 3
    assert s["pending"] == {"kind": "press_on", "team": "T2"}
    assert [a.text() for a in RULES.legal_actions(s)] == ["press-on T2", "take-cover T2"]
    with pytest.raises(IllegalAction):
        order(s, "move T4 48,40")
    pressed, ev = order(s, "press-on T2", dice=(3, 4))
    assert pressed["pending"] is None and not pressed["teams"]["T2"]["cover"]
    assert any("needing 8 or less" in x for x in texts(ev, "press_on"))  # long range: no modifier
    covered, _ = order(s, "take-cover T2")
    assert covered["teams"]["T2"]["cover"]


def test_press_on_modifiers_leader_and_close_range():
    s = quiet()
    add_gun(s, "C1", (36.0, 30.0), 90.0)
    put(s, "T1", (36.0, 40.0))
    s, ev = order(s, "move T1 36,35", dice=(2, 2, 1, 2))  # a double under fire: a casualty
    assert s["pending"]["team"] == "T1"
    s, ev = order(s, "press-on T1", dice=(4, 4))  # 8 against 8 + 1 leader - 2 close = 7: takes cover
    assert s["teams"]["T1"]["cover"]
    msg = texts(ev, "press_on")[0]
    assert "+1 leader with the team" in msg and "-2 close range" in msg and "a double" in msg


def test_a_move_into_a_closer_range_band_tests_again():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 26.0))  # long range, in the cone
    s, ev = order(s, "move T2 36,20", dice=(2, 2, 3, 3))
    assert any("effective range band" in x for x in texts(ev, "cone_entry"))
    assert s["teams"]["T2"]["figures"] == 3  # the double under fire; the band throw of 6 is below 8
    s2 = quiet()
    add_gun(s2, "C1", (36.0, 10.0), 90.0)
    put(s2, "T2", (36.0, 26.0))
    s2, ev = order(s2, "move T2 36.5,27", dice=(1, 2))  # within the long band: no further throw
    assert texts(ev, "cone_entry") == []


def test_bravado_0_under_fire_pins():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 26.0))
    s["teams"]["T2"]["bravado"] = 2
    s, ev = order(s, "move T2 36,25", dice=(6, 5))
    t = s["teams"]["T2"]
    assert t["bravado"] == 0 and t["pinned"] and t["at"] == [36.0, 26.0]
    s, _ = order(s, "end")
    with pytest.raises(IllegalAction) as e:
        order(s, "move T2 36,25")
    assert e.value.rule == "SCW Under Fire 1"


def test_teams_in_overlapping_cones_test_for_each_cone():
    s = quiet()
    add_gun(s, "C1", (30.0, 10.0), 90.0)
    add_gun(s, "C2", (42.0, 10.0), 90.0)
    put(s, "T2", (36.0, 26.0))
    # both guns swing onto the mover, catching it; one throw to move and lose Bravado, a second throw
    # for the second cone, then an entry throw for each cone
    s, ev = order(s, "move T2 36,22", dice=(4, 5, 5, 4, 1, 2, 1, 3))
    assert {g["target"] for g in s["guns"].values()} == {"T2"}
    assert len(texts(ev, "advance")) == 1 and len(texts(ev, "under_fire")) == 1
    assert s["teams"]["T2"]["bravado"] == 5  # 9 against 8, then 9 against 7
    assert s["teams"]["T2"]["at"] == [36.0, 22.0]
    assert len(texts(ev, "cone_entry")) == 2


# ---------------------------------------------------------------- SCW Contact

def _card_ahead(s, cid, front_y, picture):
    c = s["cards"][cid]
    c.update(revealed=False, picture=picture, face="KH" if picture else "7S", at=[36.0, front_y - 1.75],
             facing=90.0, front=[36.0, front_y], position="test")


@pytest.mark.parametrize("stop, revealed", [(27.9, True), (28.1, False)])
def test_a_team_coming_within_18_inches_of_the_front_edge_centre_turns_the_card(stop, revealed):
    s = quiet()
    _card_ahead(s, "C3", 10.0, picture=False)
    put(s, "T2", (36.0, 34.0))
    s, ev = order(s, f"move T2 36,{stop}", dice=(1, 2))
    assert s["cards"]["C3"]["revealed"] is revealed
    assert s["guns"] == {}


def test_a_picture_card_becomes_a_gun_laid_on_the_moving_team():
    s = quiet()
    _card_ahead(s, "C3", 10.0, picture=True)
    put(s, "T2", (32.0, 30.0))
    s, ev = order(s, "move T2 33,24", dice=(1, 2))
    g = s["guns"]["C3"]
    assert "a machine gun" in " ".join(texts(ev, "revealed"))
    assert gun_cone(g).intersects(footprint(tuple(s["teams"]["T2"]["at"])))


def test_the_gun_swings_to_the_nearest_moving_target():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (26.0, 22.0))
    put(s, "T4", (48.0, 30.0))
    s, _ = order(s, "move T2 26,21", dice=(1, 2))
    assert s["guns"]["C1"]["target"] == "T2"
    s, ev = order(s, "move T4 47,27", dice=(1, 2))  # T2 moved this turn and is nearer
    g = s["guns"]["C1"]
    assert g["target"] == "T2"
    s2, _ = order(s, "end")
    put(s2, "T4", (40.0, 20.0))
    s2, ev = order(s2, "move T4 40,21", dice=(1, 2))  # a new turn: only T4 is moving
    assert s2["guns"]["C1"]["target"] == "T4"
    assert any("swings to the nearest moving target" in x for x in texts(ev, "traverse"))


def test_under_lmg_fire_the_gun_holds_and_returns_that_fire():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (44.0, 18.0))  # LMG, 11.3 inches from the gun
    put(s, "T2", (30.0, 22.0))
    s, ev = order(s, "fire T3 C1", dice=(1, 2))
    g = s["guns"]["C1"]
    assert g["target"] == "T3" and g["lmg_fire"] == ["T3"]
    held = g["bearing"]
    s, ev = order(s, "move T2 30,21", dice=(1, 2))
    assert s["guns"]["C1"]["bearing"] == held and s["guns"]["C1"]["target"] == "T3"


# ---------------------------------------------------------------- SCW Silencing

def test_lmg_fire_at_range_5_scoring_11_costs_the_gun_2_bravado_and_3_silences_it():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (36.0, 15.0))
    put(s, "T5", (33.0, 14.0))
    s, ev = order(s, "fire T3 C1", dice=(5, 6))
    g = s["guns"]["C1"]
    assert g["lost"] == 2 and not g["silenced"] and RULES._gun_bravado(g) == 6
    s, ev = order(s, "fire T5 C1", dice=(4, 6))  # 10 at 5 inches: 5 over, one more
    assert s["guns"]["C1"]["silenced"] and active_guns(s) == []
    assert any("silenced" in x for x in texts(ev, "silenced"))


def test_only_an_lmg_fires_to_silence_and_only_within_12_inches():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 15.0))
    with pytest.raises(IllegalAction) as e:
        order(s, "fire T2 C1")
    assert e.value.rule == "SCW Silencing 1"
    put(s, "T3", (36.0, 22.5))
    with pytest.raises(IllegalAction) as e:
        order(s, "fire T3 C1")
    assert "12" in e.value.message


def test_grenades_from_cover_silence_and_the_bayonet_charge_captures_the_gun():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 12.5))
    s["teams"]["T2"]["cover"] = True
    s, ev = order(s, "grenade T2 C1", dice=(4,))
    assert s["guns"]["C1"]["silenced"] and s["pending"]["kind"] == "bayonet"
    # leave cover at 8 + 3 (no cone now) + 2 (bayonet): 9 passes; the gun throws 9, not under 8: silent;
    # the close assault throws 9: defenders dead
    s, ev = order(s, "bayonet T2", dice=(4, 5, 4, 5, 9))
    assert any("+2 with the bayonet" in x for x in texts(ev, "leave_cover"))
    assert s["guns"]["C1"]["captured"] and s["teams"]["T2"]["at"] == [36.0, 10.0]
    assert s["outcome"] == {"winner": "attacker", "reason": "every enemy machine-gun position is taken"}


def test_grenades_need_cover_and_3_inches():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 12.5))
    with pytest.raises(IllegalAction) as e:
        order(s, "grenade T2 C1")
    assert "from cover" in e.value.message
    put(s, "T2", (36.0, 13.5))
    s["teams"]["T2"]["cover"] = True
    with pytest.raises(IllegalAction) as e:
        order(s, "grenade T2 C1")
    assert e.value.rule == "SCW Silencing 6"


def test_the_gun_reopening_on_the_charge_costs_more_for_every_one_thrown():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 12.5))
    s["teams"]["T2"]["cover"] = True
    s, _ = order(s, "grenade T2 C1", dice=(6,))
    # leave 3+3; the gun throws 2+2 under 8: open fire; caught in the cone: 1+3 (a one: +1),
    # entry 1+1 (a double is not a loss here, but below 8; a one: +1); press on 2+3; assault 10
    s, ev = order(s, "bayonet T2", dice=(3, 3, 2, 2, 1, 3, 1, 1, 2, 3, 10))
    assert any("opens fire again" in x for x in texts(ev, "reopen"))
    assert s["teams"]["T2"]["figures"] == 2
    assert s["guns"]["C1"]["captured"]


def test_movement_in_a_silenced_guns_close_range_may_make_it_open_up():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0, lost=3, silenced=True)
    put(s, "T2", (36.0, 22.0))
    # advance 1+2; the gun's Bravado is 8 - 3 = 5: 2+2 opens up; T2 caught: 1+2, then entry 2+1
    s, ev = order(s, "move T2 36,15", dice=(1, 2, 2, 2, 1, 2, 2, 1))
    g = s["guns"]["C1"]
    assert not g["silenced"] and g["target"] == "T2"
    assert any("T2 caught in the cone of C1" in x for x in texts(ev, "roll"))
    s2 = quiet()
    add_gun(s2, "C1", (36.0, 10.0), 90.0, lost=3, silenced=True)
    put(s2, "T2", (36.0, 22.0))
    s2, ev = order(s2, "move T2 36,15", dice=(1, 2, 3, 3))
    assert s2["guns"]["C1"]["silenced"]


# ---------------------------------------------------------------- SCW At 'em with Bomb and Bayonet

def test_close_assault_with_the_guns_lost_bravado_added():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0, lost=2)
    put(s, "T2", (36.0, 17.0))  # 7 inches: reachable with Bravado 8
    # advance 1+2 in the cone (no double), into the close band 1+2, close assault 5 + 2 lost = 7:
    # surrender, 4 prisoners
    s, ev = order(s, "assault T2 C1", dice=(1, 2, 1, 2, 5, 4))
    assert any("= 7" in x and "4 prisoners" in x for x in texts(ev, "assault"))
    assert s["guns"]["C1"]["captured"] and s["guns"]["C1"]["prisoners"] == 4


def test_a_close_assault_needs_the_gun_within_the_unmodified_bravado():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 18.5))
    with pytest.raises(IllegalAction) as e:
        order(s, "assault T2 C1")
    assert e.value.rule == "SCW Bomb and Bayonet 1"


def test_a_close_assault_thrown_back_kills_the_attackers():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 14.0))
    s, ev = order(s, "assault T2 C1", dice=(1, 2, 1))
    assert not s["teams"]["T2"]["alive"] and not s["guns"]["C1"]["captured"]


def test_a_stiff_fight_costs_a_figure_unless_thrown_under_bravado():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 14.0))
    s, ev = order(s, "assault T2 C1", dice=(1, 2, 2, 4, 5))
    assert s["teams"]["T2"]["figures"] == 3 and s["guns"]["C1"]["captured"]


# ---------------------------------------------------------------- SCW Take Cover

def test_leaving_cover_inside_a_cone_and_failing_pins():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 20.0))
    s["teams"]["T2"]["cover"] = True
    s, ev = order(s, "leave T2", dice=(4, 5))
    t = s["teams"]["T2"]
    assert (t["bravado"], t["pinned"], t["cover"]) == (7, True, True)


def test_leaving_cover_outside_a_cone_gets_plus_3_and_then_the_team_moves():
    s = quiet()
    put(s, "T2", (24.0, 40.0))
    s["teams"]["T2"]["cover"] = True
    with pytest.raises(IllegalAction) as e:
        order(s, "move T2 24,36")
    assert e.value.rule == "SCW Take Cover 5"
    s, ev = order(s, "leave T2", dice=(5, 5))  # 10 below 8 + 3
    assert not s["teams"]["T2"]["cover"]
    s, ev = order(s, "move T2 24,36", dice=(1, 2))
    assert s["teams"]["T2"]["at"] == [24.0, 36.0]


def test_teams_in_cover_in_a_cone_lose_a_figure_on_an_odd_double_each_turn():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T2", (36.0, 20.0))
    put(s, "T4", (36.5, 22.0))
    s["teams"]["T2"]["cover"] = True
    s["teams"]["T4"]["cover"] = True
    s, ev = order(s, "end", dice=(3, 3, 4, 4))
    assert s["teams"]["T2"]["figures"] == 3 and s["teams"]["T4"]["figures"] == 4
    assert s["turn"] == 2


# ---------------------------------------------------------------- SCW Covering Fire

def test_lmg_covering_fire_helps_the_teams_moving_in_that_guns_cone():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (36.0, 15.0))  # LMG at close range
    put(s, "T5", (43.0, 18.0))
    put(s, "T2", (36.0, 26.0))
    s, ev = order(s, "cover C1 T3,T5", dice=(3,))  # +2, +2 for two LMGs, +1 close: +5
    assert s["covering"]["C1"]["bonus"] == 5
    with pytest.raises(IllegalAction) as e:
        order(s, "cover C1 T2")
    assert e.value.rule == "SCW Covering Fire 3"
    s, ev = order(s, "move T2 36,18", dice=(6, 6, 1, 2))  # 12 against 8 + 5: full rate, no loss
    t = s["teams"]["T2"]
    assert t["at"] == [36.0, 18.0] and t["bravado"] == 8 and t["figures"] == 3  # the double still hits
    assert s["guns"]["C1"]["target"] == "T3"  # the gun holds on the LMGs firing at it


def test_rifle_and_lmg_covering_fire_are_not_given_in_the_same_turn():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    add_gun(s, "C2", (20.0, 10.0), 90.0)
    put(s, "T2", (36.0, 18.0))
    put(s, "T3", (20.0, 18.0))
    s, _ = order(s, "cover C1 T2", dice=(5,))  # rifles: 5 on the average die -> +2
    assert s["covering"]["C1"]["bonus"] == 2
    with pytest.raises(IllegalAction) as e:
        order(s, "cover C2 T3")
    assert "rifle teams already give covering fire" in e.value.message


def test_covering_fire_comes_before_any_move():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    put(s, "T3", (36.0, 20.0))
    s, _ = order(s, "move T1 12,44", dice=(1, 2))
    with pytest.raises(IllegalAction) as e:
        order(s, "cover C1 T3")
    assert "before any team moves" in e.value.message


# ---------------------------------------------------------------- SCW Rallying and Leader Casualties

def test_rallying_a_team_at_bravado_0_gives_it_the_average_die_as_bravado():
    s = quiet()
    s["teams"]["T2"].update(bravado=0, pinned=True)
    put(s, "T2", (14.0, 44.0))
    s, ev = order(s, "rally L1 T2", dice=(4, 3, 5))  # temporary 4; 3+5=8 under 8+1
    t = s["teams"]["T2"]
    assert not t["pinned"] and t["bravado"] == 4
    assert s["leaders"]["L1"]["team"] == "T2"


def test_a_failed_rally_leaves_the_team_pinned_and_only_one_rally_a_turn():
    s = quiet()
    s["teams"]["T2"].update(bravado=3, pinned=True)
    put(s, "T2", (14.0, 44.0))
    s, ev = order(s, "rally L1 T2", dice=(5, 4))  # 9 is not below 9
    assert s["teams"]["T2"]["pinned"]
    with pytest.raises(IllegalAction):
        order(s, "rally L1 T2")


def test_leaders_are_hit_only_in_turns_they_use_their_modifiers():
    s = quiet()
    s, ev = order(s, "move T1 12,44", dice=(3, 3))  # an odd double; L1 has used no modifier
    assert s["teams"]["T1"]["figures"] == 2 and s["leaders"]["L1"]["alive"]
    s = quiet()
    s["teams"]["T1"]["cover"] = True
    s, _ = order(s, "leave T1", dice=(2, 3))  # +1 leader used
    s, ev = order(s, "move T1 12,44", dice=(3, 3, 1))  # the casualty: 1 on the d6 is the leader
    assert not s["leaders"]["L1"]["alive"] and s["teams"]["T1"]["figures"] == 3
    assert s["fallen"][0]["leader"] == "L1"
    # next turn: 0 on the d10 gives a natural leader; the nearest team (T1) throws first
    s, ev = order(s, "end", dice=(10, 2, 6))
    nat = [ld for ld in s["leaders"].values() if ld["rank"] == "natural"]
    assert len(nat) == 1 and nat[0]["team"] == "T2"
    s["teams"]["T4"]["pinned"] = True
    with pytest.raises(IllegalAction) as e:
        order(s, f"rally {nat[0]['id']} T4")
    assert e.value.rule == "SCW Leader Casualties 3"


def test_no_natural_leader_on_2_to_9():
    s = quiet()
    s["fallen"] = [{"leader": "L1", "at": [12.0, 46.0], "turn": 1}]
    s["leaders"]["L1"]["alive"] = False
    s, ev = order(s, "end", dice=(5,))
    assert "no natural leader comes forward" in texts(ev)


def test_the_commissar_shoots_a_commander_who_fails_to_rally_and_then_rallies_at_minus_1():
    rules = rules_for_path(COMPANY)
    s = quiet(rules=rules)
    assert len(s["teams"]) == 16 and {"CO", "CM", "L1", "L2", "L3"} <= set(s["leaders"])
    coy = next(t for t in s["teams"].values() if t["name"] == "Coy HQ")
    victim = next(t for t in s["teams"].values() if t["name"] == "1 Pl 1 Sec rifles")
    victim.update(pinned=True, bravado=4)
    put(s, victim["id"], (coy["at"][0] + 3, coy["at"][1]))
    s, ev = order(s, f"rally CO {victim['id']}", dice=(5, 5, 1), rules=rules)  # 10 vs 8+1+1: fails
    assert any("+1 commissar" in x for x in texts(ev, "rally"))
    assert not s["leaders"]["CO"]["alive"] and s["leaders"]["CM"]["may_rally"]
    s, _ = order(s, "end", rules=rules)
    s, ev = order(s, f"rally CM {victim['id']}", dice=(4, 3), rules=rules)  # 7 vs 8+1-1
    assert "-1 commissar rallying" in texts(ev, "rally")[0] and not s["teams"][victim["id"]]["pinned"]


# ---------------------------------------------------------------- refusals, victory

def test_refusals_name_the_rule():
    s = quiet()
    with pytest.raises(IllegalAction) as e:
        order(s, "move T2 24,30")
    assert e.value.rule == "SCW Advance 1" and "8 inches" in e.value.message
    with pytest.raises(IllegalAction) as e:
        order(s, "move T2 24,49")
    assert "off the 72 x 48 inch table" in e.value.message
    with pytest.raises(IllegalAction) as e:
        order(s, "move T9 1,1")
    assert "no team 'T9'" in e.value.message
    with pytest.raises(IllegalAction) as e:
        order(s, "charge T2")
    assert "unknown order" in e.value.message
    with pytest.raises(IllegalAction) as e:
        order(s, "move T2 24")
    assert "expected 'move team x,y'" in e.value.message


def test_the_attack_is_broken_below_half_its_figures():
    s = quiet()
    for tid in ("T2", "T4"):
        s["teams"][tid].update(alive=False, figures=0)
    s["teams"]["T1"]["figures"] = 1  # 1 + 3 + 3 = 7 of 17
    s, ev = order(s, "end")
    assert s["outcome"]["winner"] == "defender" and "7 of 17" in s["outcome"]["reason"]
    with pytest.raises(IllegalAction):
        order(s, "end")


def test_the_attack_is_broken_when_every_team_is_pinned_and_no_leader_can_rally():
    s = quiet()
    for t in s["teams"].values():
        t["pinned"] = True
    s["leaders"]["L1"]["alive"] = False
    s, _ = order(s, "end")
    assert "no leader is left to rally" in s["outcome"]["reason"]


def test_the_attack_is_broken_when_the_last_turn_ends():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    s["turn"] = 20
    s, ev = order(s, "end")
    assert s["outcome"]["winner"] == "defender" and "turn 20" in s["outcome"]["reason"]


# ---------------------------------------------------------------- what a table view asks

def test_a_dragged_team_shows_where_the_guns_would_lay_without_changing_the_game():
    s = quiet()
    add_gun(s, "C1", (36.0, 10.0), 90.0)
    before = {k: v for k, v in s.items()}
    left = RULES.preview_guns(s, "T2", (28.0, 22.0))["C1"]
    right = RULES.preview_guns(s, "T2", (44.0, 22.0))["C1"]
    assert left["target"] == right["target"] == "T2"
    assert left["bearing"] > 90.0 > right["bearing"]  # the cone follows the team across the table
    assert left["cone"].distance(footprint((28.0, 22.0)).centroid) <= 1.0
    assert set(left["bands"]) == {"close", "effective", "long"}
    assert s == before and s["guns"]["C1"]["bearing"] == 90.0
    assert RULES.allowance(s, "T2") == 8.0
    s["teams"]["T2"]["cover"] = True
    assert RULES.allowance(s, "T2") == 0.0


def test_leaders_join_teams_within_their_bravado_and_the_commissar_goes_with_the_commander():
    s = quiet()
    assert "join L1 T2" not in [a.text() for a in RULES.legal_actions(s)]  # 12 inches away
    put(s, "T2", (18.0, 44.0))
    assert "join L1 T2" in [a.text() for a in RULES.legal_actions(s)]
    with pytest.raises(IllegalAction) as e:
        order(s, "join L1 T3")
    assert "moves at most 8 inches" in e.value.message
    s, _ = order(s, "join L1 T2")
    assert s["leaders"]["L1"]["team"] == "T2"
    with pytest.raises(IllegalAction):
        order(s, "join L1 T1")
    rules = rules_for_path(COMPANY)
    c = quiet(rules=rules)
    hq = c["leaders"]["CO"]["team"]
    put(c, "T15", (c["teams"][hq]["at"][0] - 5.0, 44.0))
    near = min((t for t in c["teams"].values() if t["id"] != hq),
               key=lambda t: math.dist(t["at"], c["teams"][hq]["at"]))
    c, ev = order(c, f"join CO {near['id']}", rules=rules)
    assert c["leaders"]["CO"]["team"] == c["leaders"]["CM"]["team"] == near["id"]


def test_an_order_to_any_point_reads_back_exactly_so_the_log_replays():
    from engine.rulesets.scw.actions import Move, parse_order

    m = Move("T2", 24.123456789012345, 39.000000001)
    assert parse_order(m.text()) == m
    assert Move("T2", 24.0, 39.5).text() == "move T2 24,39.5"
    assert parse_order("cover C1 T3,T5").to_dict() == {"verb": "cover", "gun": "C1", "teams": ["T3", "T5"]}
    assert RULES.action_from_dict(parse_order("cover C1 T3,T5").to_dict()) == parse_order("cover C1 T3,T5")


def test_a_team_standing_on_a_gun_is_not_offered_a_charge_it_cannot_make():
    """SCW Bomb and Bayonet 1: a charge is a move to the gun.  A bayonet charge stopped on the gun's position
    (pinned by a gun turned over on the way, then rallied) leaves the team there with the gun not taken: no
    move is left to charge with, so the charge is not offered; every order offered is one the rules accept."""
    s = quiet(4)
    add_gun(s, "C2", (40.0, 20.0), 90.0, lost=1, silenced=True)
    put(s, "T2", (40.0, 20.0))
    legal = RULES.legal_actions(s)
    assert not any(a.verb == "assault" and a.team == "T2" for a in legal)
    with pytest.raises(IllegalAction) as e:
        RULES.apply(s, "assault T2 C2")
    assert "already there" in str(e.value)
    for a in legal:
        RULES.apply(s, a)
