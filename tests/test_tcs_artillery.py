"""TCS Aircraft & Artillery phase: sorties, pre-plotted barrages, missions, spotters, adjustment, scatter, markers."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.rulesets.tcs.sight import spotted_hexes
from engine.rulesets.tcs.state import Barrage
from tcs_fixtures import advance, filled_memory, new_game, where

ANS = {"tcs.bn_morale_reduction": 0, "tcs.area_fire": "-", "tcs.morale": "-"}


def answer(g, slot, value):
    p = g.state.pending[0]
    assert p["kind"] == "chart" and p["prompt"].slot == slot, p
    return g.play(f"chart {slot} " + "".join(f"[{k}]" for k in p["prompt"].key) + f" = {value}")


def memory():
    m = filled_memory()
    m.put("tcs.air_sortie", ("11",), 0)
    m.put("tcs.barrage_values", ("122mm", "battery"), 8)
    m.put("tcs.barrage_values", ("105mm", "battalion"), 12)
    m.put("tcs.barrage_values", ("82mm", "battery"), 4)
    for fp, col in ((4, 2), (8, 4), (12, 6), (3, 2), (1, 1)):
        m.put("tcs.area_fire_column", (str(fp),), col)
    return m


def settle(g, since: int) -> list[str]:
    """Answer what the test does not look at (ANS) and return every event text since log entry ``since``."""
    while g.state.pending and g.state.pending[0]["kind"] == "chart" and g.state.pending[0]["prompt"].slot in ANS:
        answer(g, g.state.pending[0]["prompt"].slot, ANS[g.state.pending[0]["prompt"].slot])
    return [e.text for entry in g.log[since:] for e in entry.events]


def to_missions(dice_for_sorties=(1, 1)):
    g = new_game(memory=memory())
    advance(g, "create", "blue", answers=ANS)
    g.state.preset_dice = [4, 5, 3, *dice_for_sorties, 3, 4]   # Bn morale 4; initiative 5-3; sortie d66; preplot
    g.play("end")
    answer(g, "tcs.bn_morale_reduction", 0)
    g.play("choose initiative red")
    advance(g, "missions", "red", answers=ANS)
    return g


def test_25_0_sorties_are_rolled_on_the_games_table_on_clear_day_turns_only():
    g = new_game(memory=memory())
    advance(g, "create", "blue", answers=ANS)
    g.state.preset_dice = [4, 5, 3, 4, 2]
    g.play("end")
    answer(g, "tcs.bn_morale_reduction", 0)
    g.play("choose initiative red")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.air_sortie" and p.key == ("42",)                  # an 11-66 roll, tens die first
    g.play("chart tcs.air_sortie [42] = 2")
    assert g.state.sorties == 2 and where(g)[1:] == ("sorties", "red")
    assert g.legal_actions()[-1].text() == "end"
    st = g.state.copy()
    st.turn = 2                                                            # 1740: twilight
    from engine.rulesets.tcs.proc import Ctx
    from engine.rulesets.tcs.procs import sortie_roll
    ctx = Ctx(g.rules, st, [], [])
    sortie_roll(g.rules, st, ctx, "red")
    assert st.sorties == 0 and "twilight turn" in ctx.events[-1].text


def test_25_0_an_airstrike_attacks_a_spotted_enemy_hex_with_the_sortie_counters_firepower():
    g = new_game(memory=memory())
    g.state.units["FO-R"].hex = g.rules.board.parse_hex("B07.07")
    advance(g, "create", "blue", answers=ANS)
    g.state.preset_dice = [4, 5, 3, 4, 2]
    g.play("end")
    answer(g, "tcs.bn_morale_reduction", 0)
    g.play("choose initiative red")
    g.play("chart tcs.air_sortie [42] = 1")
    assert "airstrike B08.07" in [a.text() for a in g.legal_actions()]
    g.state.preset_dice = [6, 6]
    g.play("airstrike B08.07")
    answer(g, "tcs.counter.firepower", 8) if g.state.pending[0]["prompt"].slot == "tcs.counter.firepower" else None
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.area_fire" and p.key == ("4", "12") and "il-2 sortie" in p.purpose
    answer(g, "tcs.area_fire", "-")
    assert g.state.sorties == 0
    with pytest.raises(IllegalAction, match="TCS 25.0: red has no sortie available"):
        g.play("airstrike B08.07")


def test_preplotted_barrages_fire_at_their_clock_time_without_a_spotter_or_adjustment():
    g = to_missions()
    barrage = [e for entry in g.log for e in entry.events if e.kind in ("barrage", "adjust")]
    assert [e.kind for e in barrage] == ["barrage"] and "Bty-1 (122mm) barrage, strength 8" in barrage[0].text
    assert g.state.ammo["red|122mm|he"] == 3


def test_18_0_a_mission_needs_a_spotter_with_line_of_sight_ammunition_and_one_mission_a_battery():
    g = to_missions()
    g.rules._check_spotter(g.state, "1-1", g.rules.batteries["Bty-1"], "red")    # any unit spots ("spotters": "any")
    assert "1-1" in g.rules.battery_spotters(g.state, "Bty-1", "red")
    g.rules.options["spotters"] = "fo"
    try:
        with pytest.raises(IllegalAction, match="TCS 17.2: 1-1 cannot spot for Bty-1"):
            g.play("mission Bty-1 B09.06 by 1-1 he")
        assert "1-1" not in g.rules.battery_spotters(g.state, "Bty-1", "red")
    finally:
        g.rules.options["spotters"] = "any"
    import dataclasses
    g.rules.batteries["Mor-1"] = dataclasses.replace(g.rules.batteries["Mor-1"], calibre="50mm")
    g.state.ammo["red|50mm|smoke"] = 2
    with pytest.raises(IllegalAction, match="Leros 2.6.*cannot fire smoke or illum"):
        g.play("mission Mor-1 B09.06 by M-1 smoke")
    g.state.markers.append(Barrage("S9", "blue", "smoke", g.rules.board.parse_hex("B03.05"),
                                   [g.rules.board.parse_hex("B03.05")], level=2))
    g.state.units["FO-R"].hex = g.rules.board.parse_hex("B02.05")
    with pytest.raises(IllegalAction, match="BW 3.2d: FO-R has no line of sight to B07.05"):
        g.play("mission Bty-1 B07.05 by FO-R he")     # the smoke in B03.05 blocks the line
    g.state.markers.clear()
    g.play("mission Bty-1 B07.05 by FO-R he")
    assert g.state.ammo["red|122mm|he"] == 2
    with pytest.raises(IllegalAction, match="Bty-1 already fires this phase"):
        g.play("mission Bty-1 B09.06 by FO-R smoke")
    assert g.rules.pool_key(g.rules.batteries["Mor-1"], "he") is None    # an on-map 50mm with no pool: uncounted
    g.rules.batteries["Mor-1"] = dataclasses.replace(g.rules.batteries["Mor-1"], calibre="82mm")
    g.state.ammo["red|82mm|he"] = 0                                          # the scenario's 82mm pool, spent
    with pytest.raises(IllegalAction, match="no 82mm he rounds left"):
        g.play("mission Mor-1 B09.06 by M-1 he")


def test_18_0_a_good_shoot_hits_the_target_and_a_bad_shoot_scatters_by_the_diagram():
    g = to_missions()
    g.play("mission Bty-1 B09.06 by FO-R he")
    g.state.preset_dice = [2, 5, 2, 3, 3]
    g.play("end")
    p = g.state.pending[0]["prompt"]
    assert p.slot == "tcs.artillery_adjustment" and p.key == ("soviet", "7-10", "2")
    assert "10 hexes from the spotter or TRP (TCS 18.0)" in p.text()
    answer(g, "tcs.artillery_adjustment", "Bad")
    answer(g, "tcs.scatter_direction", "N")
    answer(g, "tcs.scatter_distance", 1)
    ev = [e.text for e in g.log[-1].events]
    assert "Bty-1's mission on B09.06 scatters 1 hexes N to B09.05" in ev
    settle(g, 0)
    assert [g.rules.hid(m.hex) for m in g.state.markers if m.kind == "he"] == []   # lifted at step 6


def test_18_0_a_battalion_barrage_attacks_its_whole_attack_zone_and_a_trp_sets_the_distance():
    g = to_missions()
    advance(g, "missions", "blue", answers=ANS)
    g.state.units["1-1"].hex = g.rules.board.parse_hex("B05.06")
    g.state.units["1-2"].hex = g.rules.board.parse_hex("B06.06")
    g.play("mission Bty-B B05.06 by FO-B he")
    g.state.preset_dice = [1, 2, 2, 3, 3]
    g.play("end")
    p = g.state.pending[0]["prompt"]
    assert p.key == ("german", "0-3", "1")             # 9 hexes from FO-B, 1 from the TRP at B06.06
    mark = len(g.log)
    answer(g, "tcs.artillery_adjustment", "Good")
    fired = [t for t in settle(g, mark) if t.startswith("Bty-B's barrage at")]
    assert [t.split(":")[0] for t in fired] == ["Bty-B's barrage at B05.06", "Bty-B's barrage at B06.06"]
    assert all("column 6" in t for t in fired)                         # the hex and its neighbour: one zone
    assert g.state.ammo["blue|105mm|he"] == 2


def test_18_0_smoke_blocks_line_of_sight_until_it_thins_at_clean_up_and_continuous_fire_goes_on():
    g = to_missions()
    g.play("mission Mor-1 B05.05 by FO-R smoke")
    g.play("mission Bty-1 B09.06 by FO-R he continuous")
    g.state.preset_dice = [3, 4, 1, 1]
    g.play("end")
    answer(g, "tcs.artillery_adjustment", "Good")
    answer(g, "tcs.artillery_adjustment", "Good")
    settle(g, 0)
    kinds = sorted((m.kind, m.continuous) for m in g.state.markers)
    assert kinds == [("he", True), ("smoke", False)]
    smoke = next(m for m in g.state.markers if m.kind == "smoke")
    assert smoke.level == 2
    advance(g, "action", "red", answers=ANS)
    assert any(m.kind == "he" and m.continuous for m in g.state.markers)          # not lifted with the others


def test_night_illumination_lets_units_be_spotted_as_by_day():
    g = new_game(memory=memory())
    st = g.state
    st.turn = 3                                                                   # 1800: night, visibility 2
    st.units["1-3"].hex = g.rules.board.parse_hex("B04.05")
    st.units["B-1"].hex = g.rules.board.parse_hex("B08.05")
    assert spotted_hexes(g.rules, st, "red", "1-3") == set()
    st.markers.append(Barrage("I1", "red", "illum", g.rules.board.parse_hex("B08.05"),
                              [g.rules.board.parse_hex("B08.05")]))
    assert g.rules.board.parse_hex("B08.05") in spotted_hexes(g.rules, st, "red", "1-3")


def test_18_0_attack_zones_block_line_of_sight_except_in_the_weather_the_game_names():
    g = new_game(memory=memory())
    st = g.state
    st.units["1-3"].hex = g.rules.board.parse_hex("B02.05")
    st.units["B-1"].hex = g.rules.board.parse_hex("B06.05")
    h = g.rules.board.parse_hex("B06.05")
    assert h in spotted_hexes(g.rules, st, "red", "1-3")
    zone = [g.rules.board.parse_hex("B04.05")]
    st.markers.append(Barrage("M7", "blue", "he", zone[0], zone, "Bty-B"))
    assert h not in spotted_hexes(g.rules, st, "red", "1-3")
    g.rules.options["no_zone_block_weather"] = ["gale"]
    st.weather = "gale"                                  # Leros 1.4c: in Gale attack zones do not block
    st.memory.put("tcs.weather_visibility", ("gale",), 60)
    assert h in spotted_hexes(g.rules, st, "red", "1-3")


def test_18_0_an_own_continuous_fire_barrage_can_be_lifted_at_the_missions_step():
    g = to_missions()
    st = g.state
    st.markers.append(Barrage("M9", "red", "he", g.rules.board.parse_hex("B09.06"),
                              [g.rules.board.parse_hex("B09.06")], "Bty-1", continuous=True))
    assert "lift M9" in [a.text() for a in g.legal_actions()]
    with pytest.raises(IllegalAction, match="Bty-1 already fires this phase"):
        g.play("mission Bty-1 B07.05 by FO-R he")
    g.play("lift M9")
    assert [m.id for m in g.state.markers] == ["M1"]       # the pre-plotted barrage stays until step 6
    with pytest.raises(IllegalAction, match="no Continuous Fire marker 'M9'"):
        g.play("lift M9")


def test_18_0_a_mission_whose_spotter_is_eliminated_before_it_fires_does_not_fire_and_its_round_is_spent():
    g = to_missions()
    g.play("mission Bty-1 B09.06 by 1-1 he")                 # an ordinary unit spots
    assert g.state.ammo["red|122mm|he"] == 2
    g.state.units["1-1"].hex = None                         # eliminated before the missions fire
    since = len(g.log)
    g.play("end")
    events = settle(g, since)
    assert "Bty-1's mission on B09.06 does not fire: 1-1 was eliminated (its round is spent)" in events
    assert not any(e.startswith("M") and "barrage" in e for e in events)
    assert g.state.ammo["red|122mm|he"] == 2 and g.state.missions == []
