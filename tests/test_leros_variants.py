"""Leros 4.0 Minor Variants (and Black Wednesday's) offered by a new game and applied to the loaded scenario: each
with its concrete effect on the position, the dice or the prompt asked."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import BadFile
from engine.game import load_game, load_rules
from engine.maps.hexes import hex_distance
from engine.rulesets.tcs.games import leros as L
from engine.rulesets.tcs.games.leros_rules import _proc_sortie_roll
from engine.rulesets.tcs.proc import Ctx, Need
from engine.scenario.newgame import new_game, scenario_offer

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios"
S1 = str(SCEN / "leros-1-curtain-rises.toml")
S3 = str(SCEN / "leros-3-night-melee.toml")


def fresh(rules, dice=()):
    st = rules.initial_state(1)
    st.pending = []
    st.preset_dice = list(dice)
    return st


def test_4_0_a_leros_scenario_offers_its_variants_and_only_scenario_1_offers_4_3_and_4_4():
    s1 = [v.id for v in scenario_offer(S1).variants]
    s2 = [v.id for v in scenario_offer(SCEN / "leros-2-drop-zone.toml").variants]
    assert s1 == ["4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7"]
    assert s2 == ["4.1", "4.2", "4.5", "4.6", "4.7"]                     # Leros 4.3, 4.4: scenario 1 only
    assert scenario_offer(S1).variants[5].name == "4.6 Lt. Col. French Takes Command"
    with pytest.raises(BadFile, match="no variant '4.3' in this scenario"):
        load_rules(str(SCEN / "leros-2-drop-zone.toml"), ("4.3",))


def test_4_0_black_wednesday_offers_its_built_variants_through_the_same_mechanism():
    path = SCEN / "black-wednesday-1-turning-the-left.toml"
    assert [v.id for v in scenario_offer(path).variants] == ["4.1", "4.2", "4.3", "4.4", "own-prep-log", "4.6", "4.7"]
    late = SCEN / "black-wednesday-4-melee-in-krasni-bor.toml"           # no Prep, past the set-up: 4.3, 4.4 not
    assert [v.id for v in scenario_offer(late).variants] == ["4.1", "4.2", "4.6", "4.7"]
    rules = load_rules(str(path), ("4.6",))
    assert rules.options["variants"] == ["4.6"]
    assert rules.scenario.formations["spanish"].command_prep == 2             # BW 4.6 Grandes in Command
    assert load_rules(str(path)).options["variants"] == []


def test_4_1_and_2_3_british_beaufighters_and_the_german_table_with_the_raf_modifier():
    plain = load_rules(S1)
    assert [(a.side, a.table) for a in plain.scenario.air] == [("german", "leros.german_sorties")]   # 2.3: no RAF
    rules = load_rules(S1, ("4.1",))
    assert [(a.side, a.table, a.sortie_type) for a in rules.scenario.air] == [
        ("german", "leros.german_sorties_raf", "german stuka sortie"),
        ("british", "leros.british_sorties", "british beaufighter sortie")]
    assert load_rules(S1).scenario.air == plain.scenario.air                  # the file itself is unchanged


def test_2_3_b_the_british_roll_only_when_the_germans_roll_no_sortie():
    rules = load_rules(S1, ("4.1",))
    st = fresh(rules, [4])
    assert rules.turns[st.turn].kind == "day" and st.weather == "Normal"
    with pytest.raises(Need) as need:                                         # the German roll first, asked
        _proc_sortie_roll(rules, st, Ctx(rules, st, [], []), L.BRITISH)
    assert need.value.pending["prompt"].slot == "leros.german_sorties_raf"
    assert need.value.pending["prompt"].key == ("4",)
    st.memory.put("leros.german_sorties_raf", ("4",), 2)
    ctx = Ctx(rules, st, [4], [])
    _proc_sortie_roll(rules, st, ctx, L.BRITISH)                              # the Germans have 2: no British roll
    assert st.sorties == 0 and st.leros.german_sorties == (st.turn, 2)
    assert any("Leros 2.3b" in e.text for e in ctx.events)
    ctx = Ctx(rules, st, [], [])
    _proc_sortie_roll(rules, st, ctx, L.GERMAN)                               # the German step reuses its roll
    assert st.sorties == 2 and not [e for e in ctx.events if e.kind == "roll"]
    st2 = fresh(rules, [1, 5])
    st2.memory.put("leros.german_sorties_raf", ("1",), 0)
    st2.memory.put("leros.british_sorties", ("5",), 1)
    _proc_sortie_roll(rules, st2, Ctx(rules, st2, [], []), L.BRITISH)         # none for the Germans: the RAF rolls
    assert st2.sorties == 1 and st2.leros.german_sorties == (st2.turn, 0)


def test_4_2_the_kents_set_up_on_the_island_and_shift_victory_to_the_germans():
    rules = load_rules(S1, ("4.2",))
    kents = [u for u in rules.scenario.units if u.battalion == "Kents"]
    assert len(kents) == 14 and all(u.hex not in rules.board.boxes for u in kents)
    st = rules.initial_state(1)
    assert all(st.units[u.id].hex is not None for u in kents)
    assert not any(u in st.leros.boxed for u in ("C-Kents-1", "D-Kents-3", "Kents-Mor"))
    germans = {st.units[k].hex for k, u in st.units.items() if rules.specs[k].side == "german" and u.hex}
    for u in kents:                                                           # 5.1a: not next to a German
        h = st.units[u.id].hex
        assert rules.board.terrain.get(h) in ("building", "village") or all(hex_distance(h, g) > 1 for g in germans)
    assert any(a.side == "british" for a in rules.scenario.air)               # 4.2 includes 4.1's RAF effort
    st.over = True
    assert rules.outcome(st).breakdown["shift"] == 0                          # 2.7 historical +1, 4.2 -1


def test_4_3_a_buffs_set_up_within_five_hexes_of_a_coastal_hex_of_map_a():
    rules = load_rules(S1, ("4.3",))
    b = rules.board
    coast = [h for h in b.features if "coast" in b.features_of(h) and b.hex_id(h).startswith("A")]
    buffs = [u for u in rules.scenario.units if u.id.startswith("A-Buffs-")]
    assert [u.id for u in buffs] == ["A-Buffs-1", "A-Buffs-2", "A-Buffs-3"]
    for u in buffs:
        h = b.parse_hex(u.hex)
        assert u.hex.startswith("A") and min(hex_distance(h, c) for c in coast) <= 5


def test_4_4_the_i_10_battalion_by_the_batteries_and_in_portolago_and_st_giorgio():
    rules = load_rules(S1, ("4.4",))
    b = rules.board
    lost = set(rules.leros["batteries_lost"])
    guns = [h for n, a in b.areas.items() if n.startswith("Coastal Battery ") and n[-1] not in lost for h in a.hexes]
    towns = set(b.areas["Portolago"].hexes) | set(b.areas["St. Giorgio"].hexes)
    i10 = {u.id: b.parse_hex(u.hex) for u in rules.scenario.units if u.battalion == "I-10"}
    assert len(i10) == 11
    near = [k for k in i10 if k.startswith("1-I-10") or k.startswith("I-10-MG")]      # one company and the MGs
    assert all(min(hex_distance(i10[k], g) for g in guns) <= 3 for k in near)
    assert all(i10[k] in towns for k in i10 if k not in near)
    assert rules.scenario.battalions["I-10"] == ("british", 0)
    st = rules.initial_state(1)
    st.over = True
    assert rules.outcome(st).breakdown["shift"] == 1 - 1                      # 2.7 historical +1, 4.4 -1


def test_4_5_the_sacred_squadron_waits_in_the_samos_box():
    rules = load_rules(str(SCEN / "leros-2-drop-zone.toml"), ("4.5",))
    st = rules.initial_state(1)
    assert {u: st.leros.boxed.get(u) for u in ("Sac-Sqd-1", "Sac-Sqd-2", "Sac-Sqd-3")} == dict.fromkeys(
        ("Sac-Sqd-1", "Sac-Sqd-2", "Sac-Sqd-3"), "samos")
    assert all(st.units[u].hex is None for u in ("Sac-Sqd-1", "Sac-Sqd-2", "Sac-Sqd-3"))


def test_4_6_french_takes_command_prep_4_twelve_sheets_and_the_printed_staff_modifier_asked():
    three = load_rules(S1, ("4.6",))
    assert (three.scenario.sides["british"].command_prep, three.scenario.sides["british"].max_implemented) == (4, 12)
    one = load_rules(S3, ("4.6",))
    assert one.scenario.sides["british"].max_implemented == 4                # one-map scenario
    assert one.scenario.formations["234-Bde"].max_implemented == 4
    from engine.rulesets.tcs.procs import implement
    st = fresh(three, [3, 4])
    sheet = next(s for s in st.sheets.values() if s.side == "british")
    sheet.weighted_turns = 99                                                 # the last column, whatever the chart
    with pytest.raises(Need) as need:
        implement(three, st, Ctx(three, st, [], []), sheet.id)
    assert need.value.pending["prompt"].slot == "tcs.staff_modifier"
    assert need.value.pending["prompt"].key == ("british",)
    st.memory.put("tcs.staff_modifier", ("british",), 1)
    ctx = Ctx(three, st, [], [])
    implement(three, st, ctx, sheet.id)
    assert ctx.events[-1].text.endswith("B-PD: rolled 34 against 24 on row 5 column 11: implemented")   # 4 + 1
    st.over = True
    assert three.outcome(st).breakdown["shift"] == 0                          # 2.7 +1, 4.6 -1


def test_4_7_the_lrdg_on_its_rovers_moves_15_vehicle_mps_and_may_overrun():
    plain, rules = load_rules(S1), load_rules(S1, ("4.7",))
    assert not plain.specs["LRDG"].vehicle and rules.specs["LRDG"].vehicle
    st = fresh(rules)
    st.units["LRDG"].mode = "move"
    assert rules.ma(st, "LRDG") == 15
    st.memory.put("tcs.counter.movement", (rules.specs["SBS"].type,), 6)
    st.units["SBS"].mode = "move"
    assert rules.ma(st, "SBS") == 6                                            # other units: their counter's
    st.memory.put("tcs.counter.movement", (rules.specs["LRDG"].type,), 6)
    st.units["LRDG"].mode = "fire"
    assert rules.ma(st, "LRDG") == 6                                           # 15 only in Move mode


def test_a_new_game_with_variants_is_saved_with_them_and_replays_to_the_same_hash(tmp_path):
    game = new_game(S1, 5, ("4.1", "4.6"))
    assert game.variants == ("4.1", "4.6") and game.rules.scenario.sides["british"].command_prep == 4
    for _ in range(6):
        acts = game.legal_actions()
        if not acts:
            break
        game.play(acts[-1].text())
    game.save(tmp_path / "g.toml")
    again = load_game(tmp_path / "g.toml")
    assert again.variants == ("4.1", "4.6") and again.hash() == game.hash()
    assert again.rules.scenario.sides["british"].command_prep == 4


def test_3_1_the_german_staff_modifier_is_the_printed_one_asked_at_the_first_german_implementation():
    rules = load_rules(S1)
    assert rules.scenario.sides["german"].staff_asked and not rules.scenario.sides["british"].staff_asked  # 2.1d
    from engine.rulesets.tcs.procs import implement
    st = fresh(rules, [3, 4])
    sheet = next(s for s in st.sheets.values() if s.side == "german")
    sheet.weighted_turns = 99
    with pytest.raises(Need) as need:
        implement(rules, st, Ctx(rules, st, [], []), sheet.id)
    assert (need.value.pending["prompt"].slot, need.value.pending["prompt"].key) == ("tcs.staff_modifier", ("german",))
    st.memory.put("tcs.staff_modifier", ("german",), 1)
    ctx = Ctx(rules, st, [], [])
    implement(rules, st, ctx, sheet.id)
    assert f"row {3 + sheet.size + 1} " in ctx.events[-1].text                 # Command Prep 3 + size + staff 1
