"""Demyansk 6.7 (and 4): retreats chosen by the owner, their exact options, off-map removal, elimination, advance."""
from __future__ import annotations

from engine.rulesets.demyansk.actions import Declare, Resolve
from test_demyansk_fixtures import board, rules, state_in, unit

HQ = unit("hq", "soviet", "0-1-4", "1001", type="headquarters", command_radius=20)


def options(r, st, uid, n):
    return r.retreat_options(st, uid, n)


def test_6_7_retreat_goes_away_ignoring_terrain_and_avoiding_enemy_zoc():
    b = board({"0506": "rough", "0405": "woods"})
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "4-4-4", "0504"),
               unit("z", "soviet", "4-4-4", "0705")], board=b)
    st = state_in(r, "soviet-combat")
    # 0605 is in z's zone; 0404 and 0604 in a's: only 0405 and 0506 remain, terrain ignored
    assert options(r, st, "d", 1) == ["0405", "0506"]
    assert options(r, st, "d", 2) == ["0305", "0306", "0406", "0507", "0606"]   # each step one hex further


def test_6_7_a_friendly_unit_negates_enemy_zoc_for_retreat_but_may_not_be_the_end():
    with_friend = [HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "4-4-4", "0504"),
                   unit("z", "soviet", "4-4-4", "0506"), unit("f", "german", "1-2-6", "0404")]
    r = rules(with_friend)
    st = state_in(r, "soviet-combat")
    assert "0404" not in options(r, st, "d", 1)            # may not end on the friendly unit
    assert options(r, st, "d", 2) == ["0304", "0305"]      # through 0404, in a's zone but held by f
    r2 = rules(with_friend[:-1])
    assert options(r2, state_in(r2, "soviet-combat"), "d", 2) == []


def test_6_7_no_legal_retreat_eliminates_the_unit():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504"),
               unit("b", "soviet", "1-4-4", "0606"), unit("c", "soviet", "1-4-4", "0406")])
    st = state_in(r, "soviet-combat", dice=[1])            # 4:1, die 1: DR1
    assert options(r, st, "d", 1) == []
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, ev = r.apply(st, Resolve("d"))
    assert st.units["d"].status == "eliminated" and st.units["d"].destroyed_in_combat
    assert any("no legal retreat" in e.text for e in ev)


def test_6_7_off_the_map_only_when_it_is_the_only_route_and_not_destroyed():
    r = rules([HQ, unit("d", "german", "1-2-6", "0101"), unit("a", "soviet", "8-4-4", "0201"),
               unit("b", "soviet", "1-4-4", "0103")])
    st = state_in(r, "soviet-combat", dice=[1])            # 4:1, die 1: DR1
    assert options(r, st, "d", 1) == ["off"]
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, ev = r.apply(st, Resolve("d"))
    assert st.units["d"].status == "off-map" and not st.units["d"].destroyed_in_combat
    r2 = rules([HQ, unit("d", "german", "1-2-6", "0102"), unit("a", "soviet", "8-4-4", "0202")])
    assert "off" not in options(r2, state_in(r2, "soviet-combat"), "d", 1)


def test_6_7_the_owner_chooses_the_retreat_and_a_wrong_choice_is_refused():
    r = rules([HQ, unit("d", "german", "1-2-6", "0505"), unit("a", "soviet", "8-4-4", "0504")])
    st = state_in(r, "soviet-combat", dice=[1])
    st, _ = r.apply(st, Declare("d", ("a",)))
    st, _ = r.apply(st, Resolve("d"))
    assert [a.text() for a in r.legal_actions(st)] == ["retreat d 0405", "retreat d 0506", "retreat d 0605"]
    try:
        r.apply(st, r.parse_action("retreat d 0404"))
        raise AssertionError("refusal expected")
    except Exception as e:
        assert getattr(e, "rule", "") == "Demyansk 6.7"
    st, _ = r.apply(st, r.parse_action("retreat d 0506"))
    assert r.map.hex_id(st.units["d"].hex) == "0506"
    assert st.pending[0]["kind"] == "advance" and st.pending[0]["side"] == "soviet"
    st, _ = r.apply(st, r.parse_action("advance none"))
    assert r.map.hex_id(st.units["a"].hex) == "0504" and not st.pending


def test_6_7_advance_after_combat_by_one_attacker_into_a_fortification_takes_it():
    b = board(features={"0505": {"fortification"}})
    r = rules([HQ, unit("d", "german", "1-1-6", "0505"), unit("a", "soviet", "8-4-4", "0504"),
               unit("c", "soviet", "8-4-4", "0604")], board=b)
    st = state_in(r, "soviet-combat", dice=[1])     # 16 against 2: 6:1 (8:1), die 1: DR3
    st, _ = r.apply(st, Declare("d", ("a", "c")))
    st, _ = r.apply(st, Resolve("d"))
    while st.pending and st.pending[0]["kind"] == "retreat":
        st, _ = r.apply(st, r.legal_actions(st)[0])
    assert st.pending[0]["options"] == ["a", "c", "none"]
    st, _ = r.apply(st, r.parse_action("advance c"))
    assert r.map.hex_id(st.units["c"].hex) == "0505"
    assert b.parse_hex("0505") in st.forts_lost          # 6.2: no longer a fortification
