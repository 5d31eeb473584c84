"""What a TCS unit may do and why not, and a fire's working before its roll, in concrete positions (explain.py)."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.tcs.explain import action_label, fire_preview, unit_options, why_idle, why_not
from test_tcs_action import answer, at_red_action, put


def test_8_0_a_target_out_of_range_says_its_distance_and_the_range():
    g = at_red_action()
    put(g, "B-1", "B08.05")                      # clear, 5 hexes from 1-3 (in Fire mode at B03.05, range 4)
    e = why_not(g.rules, g.state, "1-3", "area", "B08.05")
    assert (e.rule, e.message) == ("TCS 8.0", "B08.05 is 5 hexes from 1-3, beyond its range of 4 (5 > 4)")
    assert str(why_not(g.rules, g.state, "1-3", "sfa", "B08.05")) == \
        "TCS 6.0: 1-3 is unassigned: unassigned units may not fire SFAs"     # checked before the range


def test_11_0_a_blocked_line_of_sight_names_the_hex_that_blocks_it():
    g = at_red_action()
    put(g, "1-3", "A01.09")
    put(g, "B-1", "A04.08")                      # 3 hexes, in clear: in range and spotting range, behind a village
    e = why_not(g.rules, g.state, "1-3", "area", "A04.08")
    assert e.rule == "TCS 11.0"
    assert e.message == ("1-3 spots no enemy unit in A04.08: no line of sight from A01.09 to A04.08: "
                         "village in A03.09 blocks it")
    # the engine refuses the fire with the same words
    with pytest.raises(IllegalAction) as refused:
        g.play("fire 1-3 at A04.08")
    assert str(refused.value) == str(e)


def test_11_0_a_target_beyond_its_spotting_range_says_how_far_it_is_spotted():
    g = at_red_action()
    put(g, "B-1", "B04.07")                      # woods: non-open, spotted at 2 hexes at most
    put(g, "1-3", "B02.05")
    e = why_not(g.rules, g.state, "1-3", "area", "B04.07")
    assert e.rule == "TCS 11.0" and "are spotted at 2 hexes at most (3 > 2" in e.message, e


def test_5_0_a_unit_in_move_mode_is_not_in_fire_mode():
    g = at_red_action()
    put(g, "B-1", "B03.04")                      # next to 1-1 (Move mode, at B02.04)
    e = why_not(g.rules, g.state, "1-1", "area", "B03.04")
    assert (e.rule, e.message) == ("TCS 5.0", "1-1 is in Move mode; only units in Fire mode fire")


def test_6_0_a_unit_with_no_implemented_op_sheet_says_so():
    g = at_red_action()
    g.play("mode 1-3 move")
    e = why_not(g.rules, g.state, "1-3", "move", "B04.05")
    assert (e.rule, e.message) == ("TCS 6.0", "1-3 has no implemented Op Sheet to carry out")
    assert why_not(g.rules, g.state, "1-1", "move", "B03.04") is None         # 1-1 carries out R1


def test_8_0_a_unit_that_has_fired_says_so_and_others_wait_for_their_phase():
    g = at_red_action()
    put(g, "B-1", "B04.05")
    put(g, "1-3", "B03.05")
    g.state.preset_dice = [3, 4]
    g.play("fire 1-3 at B04.05")
    answer(g, "tcs.area_fire_column", 2)
    answer(g, "tcs.area_fire", "-")
    e = why_not(g.rules, g.state, "1-3", "area", "B04.05")
    assert (e.rule, e.message) == ("TCS 8.0", "1-3 has fired this phase")
    e = why_not(g.rules, g.state, "B-1", "area", "B03.05")
    assert e.rule == "TCS sequence of play" and "in their own Action phase; it is now 1700 10 Feb" in e.message


def test_fire_preview_gives_the_column_and_each_shift_with_its_rule_as_the_fire_then_asks():
    g = at_red_action()
    board = g.rules.board
    board.features[board.parse_hex("B04.07")] = {"trench"}
    put(g, "B-1", "B04.07")
    put(g, "1-3", "B04.06")
    pv = fire_preview(g.rules, g.state, ["1-3"], "B04.07")
    assert pv.legal and pv.columns == [] and "Area Fire Table: column heading[3]" in pv.blank   # asked when fired
    g.state.memory.put("tcs.area_fire_column", ("3",), 9)
    g.state.memory.put("tcs.area_fire", ("6", "5"), "1")
    pv = fire_preview(g.rules, g.state, ["1-3"], "B04.07")
    assert [s.show() for s in pv.lines] == [
        "1-3: 1 hex to B04.07, range 4 (1 ≤ 4) (TCS 8.0)",
        "1-3 spots the enemy in B04.07: line of sight clear (TCS 11.0)",
        "1-3: firepower 3 (counter)",
        "column 9 (firepower 3, Area Fire Column Table) (TCS 8.0)",
        "-1 Partly Protective target (TCS 8.0)",
        "-2 trench (BW 1.3a)",
        "column 6 on the Area Fire Table, roll 2d6 (TCS 8.0)"]
    assert pv.columns == [6] and pv.results == {5: "1"} and pv.action == "fire 1-3 at B04.07"
    g.state.preset_dice = [6, 6]
    g.play(pv.action)                              # the fire itself reads the same column
    assert g.state.pending[0]["prompt"].key == ("6", "12")


def test_fire_preview_of_a_refused_fire_carries_the_refusal_and_its_working():
    g = at_red_action()
    put(g, "B-1", "B08.05")
    pv = fire_preview(g.rules, g.state, "1-3", "B08.05")
    assert not pv.legal and str(pv.refusal) == "TCS 8.0: B08.05 is 5 hexes from 1-3, beyond its range of 4 (5 > 4)"
    assert pv.lines[0].show() == "1-3: 5 hexes to B08.05, range 4 (5 > 4) (TCS 8.0)"


def test_point_fire_preview_reads_the_point_fire_and_at_tables_keys():
    g = at_red_action()
    put(g, "T-1", "B08.06")
    g.play("end")                                  # Red's phase is over: Blue's (AT-1 in Fire mode at B09.06)
    while g.state.pending:
        p = g.state.pending[0]
        g.play(f"choose {p['what']} {p['options'][0]}") if p["kind"] == "choice" else answer(g, p["prompt"].slot, 0)
    pv = fire_preview(g.rules, g.state, "AT-1", "T-1", "point")
    assert pv.legal, pv.refusal
    assert [s.show() for s in pv.lines[2:]] == [
        "AT-1: point fire 7 (counter)",
        "column 7, Open target on the Point Fire Table, roll 2d6 (TCS 9.0)",
        "on a hit, AT roll: AT 8 - armour 4 = +4, range 1 (TCS 9.0)"]


def test_unit_options_list_the_legal_actions_in_words_and_the_refused_ones_with_their_reason():
    g = at_red_action()
    put(g, "B-1", "B04.05")                       # next to 1-3 (Fire mode, B03.05)
    opts = {o.label: o for o in unit_options(g.rules, g.state, "1-3")}
    mode = opts["Change to Move mode (costs half its movement allowance: 3 of 6 MPs)"]
    assert mode.legal and mode.action == "mode 1-3 move"
    assert opts["Area fire at B04.05 (B-1)"].action == "fire 1-3 at B04.05"
    sfa = opts["Suppressive fire (SFA) at B04.05 (B-1)"]
    assert str(sfa.reason) == "TCS 6.0: 1-3 is unassigned: unassigned units may not fire SFAs"
    g.state.units["1-3"].sheet = "R2"
    sfa = {o.label: o for o in unit_options(g.rules, g.state, "1-3")}["Suppressive fire (SFA) at B04.05 (B-1)"]
    assert sfa.legal and sfa.action == "sfa 1-3 at B04.05"
    assert str(opts["Move"].reason) == "TCS 5.0: 1-3 is in Fire mode; only units in Move mode move"
    assert str(opts["Area fire at B09.06 (AT-1)"].reason).endswith("beyond its range of 4 (6 > 4)")
    assault = opts["Assault B04.05"]
    assert not assault.legal and assault.reason.rule == "TCS 15.0"
    assert action_label(g.rules, g.state, g.rules.parse_action("pointfire AT-1 at T-1")) == "AT-1: point fire at T-1 in B01.05"


def test_why_idle_says_why_a_unit_can_do_nothing():
    g = at_red_action()
    g.state.units["1-3"].morale_state = "paralyzed"
    e = why_idle(g.rules, g.state, "1-3")
    assert e.message.startswith("1-3 can do nothing now: it may not move (TCS 5.0: 1-3 is in Fire mode")
    assert "it may not fire at B08.07, the nearest enemy (TCS 13.0: 1-3 is paralyzed and cannot fire)" in e.message
    assert "it may not change to move mode (TCS 13.0: 1-3 is paralyzed and cannot change mode)" in e.message
    assert g.rules.why_idle(g.state, "1-1") is None                   # 1-1 may move
    assert g.rules.why_idle(g.state, "B-1").rule == "TCS sequence of play"


def test_every_action_has_words_for_the_lists_with_its_rule_where_a_game_adds_its_own():
    from pathlib import Path

    from engine.rulesets.tcs import rules_for_path

    g = at_red_action()
    words = {t: action_label(g.rules, g.state, g.rules.parse_action(t)) for t in (
        "mode 1-3 move", "sfa 1-3 at B08.07", "assault 1-1+1-2 B03.04", "mission Bty-1 B08.07 by FO-R smoke",
        "airstrike B08.07", "end")}
    assert words == {"mode 1-3 move": "1-3: change to Move mode (costs half its movement allowance: 3 of 6 MPs)",
                     "sfa 1-3 at B08.07": "1-3: suppressive fire (SFA) at B08.07 (B-1)",
                     "assault 1-1+1-2 B03.04": "1-1+1-2: assault B03.04",
                     "mission Bty-1 B08.07 by FO-R smoke": "Fire mission: Bty-1 on B08.07, smoke, spotted by FO-R",
                     "airstrike B08.07": "Air strike on B08.07", "end": "End this step"}
    leros = rules_for_path(Path(__file__).resolve().parent.parent / "scenarios" / "leros-1-curtain-rises.toml")
    st = leros.initial_state(3)
    assert action_label(leros, st, leros.parse_action("plan J1 A+B dz B12.05")) == "Load A+B in J1 to drop on B12.05"
    assert action_label(leros, st, leros.parse_action("demand")) == "Demand the enemy's surrender (Leros 1.3)"


def bw4_at_soviet_action():
    """Black Wednesday 4 at its first Soviet Action Phase, played with the TEST chart book (not printed values)."""
    from bw_book import SCENARIO, bw_memory
    from engine.game import Game
    from engine.rulesets.tcs import rules_for_path

    r = rules_for_path(SCENARIO)
    g = Game(r, 4, str(SCENARIO))
    g.state = r.initial_state(4, memory=bw_memory())
    while r.current(g.state)[1:] != ("action", "soviet"):
        p = g.state.pending
        if p:
            assert p[0]["kind"] == "choice", p[0]["prompt"].text()        # the book answers every printed value
            g.play(f"choose {p[0]['what']} soviet")
        else:
            g.play("end")
    return g


def test_black_wednesday_4_fire_at_the_front_and_into_krasni_bor_in_words():
    g = bw4_at_soviet_action()
    r, st = g.rules, g.state
    assert str(why_not(r, st, "1-269-63Gd:2Co-P1", "area", "B34.13")) == \
        "TCS 8.0: B34.13 is 6 hexes from 1-269-63Gd:2Co-P1, beyond its range of 4 (6 > 4)"
    pv = fire_preview(r, st, "2-269-63Gd:2Co-P1", "B34.13")                  # from B30.15, 4 hexes, in the open
    assert pv.legal and pv.columns == [3] and "no column shift" in [s.text for s in pv.lines]
    st.units["2-269-63Gd:2Co-P1"].hex = r.hex("B39.15")                       # two hexes from B41.15, a building
    assert str(why_not(r, st, "2-269-63Gd:2Co-P1", "area", "B41.15")) == (
        "TCS 11.0: 2-269-63Gd:2Co-P1 spots no enemy unit in B41.15: no line of sight from B39.15 to B41.15: "
        "building in B40.16/B40.15 blocks it")                                   # along their hexside
    st.units["2-269-63Gd:2Co-P1"].hex = r.hex("B40.15")                       # next to it
    pv = fire_preview(r, st, "2-269-63Gd:2Co-P1", "B41.15")
    assert pv.legal, pv.refusal
    assert [s.show() for s in pv.lines[3:]] == ["column 3 (firepower 3, Area Fire Column Table) (TCS 8.0)",
                                                "-2 Protective target (TCS 8.0)",
                                                "column 1 on the Area Fire Table, roll 2d6 (TCS 8.0)"]
    opts = {o.label: o for o in unit_options(r, st, "2-269-63Gd:2Co-P1")}
    assert opts["Area fire at B41.15 (" + ", ".join(k for k in r.units_at(st, r.hex("B41.15"))) + ")"].legal


def test_bw_1_4b_a_platoon_next_to_wire_is_offered_its_breach_and_an_mg_company_is_refused_it():
    g = bw4_at_soviet_action()
    r, st = g.rules, g.state
    label = "Breach the wire in B33.17 (BW 1.4b: all its remaining MPs, from where it began the phase)"
    opts = {o.label: o for o in unit_options(r, st, "1-270-63Gd:3Co-P1")}    # at B32.18, in Fire mode
    assert str(opts[label].reason) == "TCS 5.0: 1-270-63Gd:3Co-P1 is in Fire mode; only units in Move mode move"
    g.play("mode 1-270-63Gd:3Co-P1 move")
    breach = {o.label: o for o in unit_options(r, g.state, "1-270-63Gd:3Co-P1")}[label]
    assert breach.legal and breach.action == "move 1-270-63Gd:3Co-P1 B33.17"
    g.play("mode 1-270-63Gd:MG move")
    mg = {o.label: o for o in unit_options(r, g.state, "1-270-63Gd:MG")}[label]
    assert mg.reason.rule == "BW 1.4a" and "only infantry and cavalry breach" in mg.reason.message


def test_12_0_a_unit_that_may_fire_overwatch_offers_it_in_its_menu():
    g = at_red_action()
    g.play("move 1-1 B03.04")                     # AT-1 may fire overwatch (the engine's own overwatch test)
    opts = unit_options(g.rules, g.state, "AT-1")
    assert opts[0].label == "Fire overwatch: 1-1 entered B03.04: overwatch fire by which unit?"
    assert opts[0].action == "choose overwatch AT-1"
    assert all(not o.legal and o.reason.message.startswith("the game waits for an answer first") for o in opts[1:])
