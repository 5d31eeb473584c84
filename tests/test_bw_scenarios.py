"""Black Wednesday's scenarios on the TCS engine: each loads, sets up from its set-up rules alone (placements
outside a unit's area refused with the rule), starts with its losses, morale, Op Sheets and artillery, brings
its reinforcements on time, and is judged by its own victory conditions with their breakdown."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.errors import BadFile, IllegalAction
from engine.game import Game
from engine.rulesets.tcs import TcsRules
from engine.rulesets.tcs.scenario import load_tcs_scenario
from engine.rulesets.tcs.setup import SetUp

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "scenarios").glob("black-wednesday-*.toml"))


@functools.lru_cache(maxsize=None)
def scenario(stem: str):
    return load_tcs_scenario(next(f for f in FILES if f.stem.startswith("black-wednesday-" + stem)))


def test_every_scenario_and_the_campaign_has_a_file():
    stems = {f.stem.split("-")[2] for f in FILES}
    assert {"1", "2", "3", "3c", "4", "5", "6", "6c", "7", "7c", "8"} <= stems


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_scenario_sets_up_from_its_set_up_rules_alone(path):
    sc = scenario(path.stem.split("-")[2] + "-")
    s = SetUp(sc)
    s.auto()
    assert not s.to_place()
    s.finish()                                   # BW 1.10f: the finished set-up's checks pass
    for uid in s.placed():
        assert s.hexes[uid] in s.area(uid)
    rules = TcsRules(s.placed_scenario())
    st = rules.initial_state(1)
    on_map = [k for k, u in st.units.items() if u.hex is not None]
    assert set(s.placed()) <= set(on_map) | set(st.waiting)


def test_1_10f_a_spanish_company_sets_up_in_its_company_or_battalion_area_and_nowhere_else():
    s = SetUp(scenario("1-"))
    s.place("1-I-262:P1", "B16.31")              # w/i 2 of B16.29
    s.place("1-I-262:P2", "B24.32")              # the battalion area, w/i 4 of B21.32
    with pytest.raises(IllegalAction) as e:
        s.place("1-I-262:P3", "B10.10")
    assert e.value.rule == "BW 1.10f" and "within 2 of B16.29" in str(e.value)


def _uncover(s, trench_hex: str, to: list[str]) -> list[str]:
    """Move every unit on or next to a hex to the hexes ``to`` (one each); the units moved."""
    from engine.maps.hexes import are_adjacent
    h = s.board.parse_hex(trench_hex)
    moved = [u for u, x in s.hexes.items() if s.specs[u].side == "axis" and (x == h or are_adjacent(x, h))]
    assert len(moved) <= len(to)
    for u, hid in zip(moved, to):
        s.place(u, hid)
    return moved


def test_1_10f_no_axis_unit_sets_up_north_of_the_wire_and_the_trench_by_the_wire_is_held():
    s = SetUp(scenario("1-"))
    with pytest.raises(IllegalAction) as e:
        s.place("1-I-262:P1", "B14.30")          # inside 1-I-262's area (w/i 2 of B16.29), north of the wire B15.30
    assert e.value.rule == "BW 1.10f" and "north of the wire" in str(e.value)
    with pytest.raises(IllegalAction) as e:
        s.finish()                               # units still to set up
    assert e.value.rule == "BW 1.10f"
    s.auto()
    s.finish()
    moved = _uncover(s, "B16.35", ["B22.32", "B22.33", "B23.32", "B23.33", "B24.32", "B24.33"])
    assert moved
    with pytest.raises(IllegalAction) as e:      # B16.35 is a trench hex by the wire in 2-I-262's area (B16.33)
        s.finish()
    assert e.value.rule == "BW 1.10f" and "B16.35" in str(e.value) and "Spanish" in str(e.value)
    s.place(moved[0], "B16.34")                  # adjacent again: the set-up may end
    s.finish()


def test_4_4_axis_free_set_up_south_of_the_trench_line_with_every_trench_hex_covered():
    from engine.rulesets.tcs.variants import apply, offered
    path = next(f for f in FILES if f.stem.startswith("black-wednesday-1-"))
    assert "4.4" in [v.id for v in offered(load_tcs_scenario(path))]
    assert "4.4" not in [v.id for v in offered(scenario("4-"))]       # scenarios 1-3 only
    sc = load_tcs_scenario(path)
    apply(sc, ["4.4"])
    s = SetUp(sc)
    s.place("1-I-262:P1", "B40.30")              # far from its company and battalion areas: free
    with pytest.raises(IllegalAction) as e:
        s.place("1-I-262:P2", "B14.30")          # north of the trench line
    assert e.value.rule == "BW 4.4"
    with pytest.raises(IllegalAction) as e:
        s.place("1-I-262:P2", "B40.10")          # south of it, but west of the railroad: not in scenario 1's play
    assert e.value.rule == "BW 4.4"
    s.auto()
    s.finish()
    _uncover(s, "B16.35", [f"B{c}.{r}" for c in (40, 41, 42) for r in range(31, 37)])
    with pytest.raises(IllegalAction) as e:
        s.finish()
    assert e.value.rule == "BW 4.4" and "B16.35" in str(e.value)
    # the new game with 4.4 starts from the engine's free set-up: every Axis unit south of the trench line in
    # play, every trench hex of scenario 1's area held or adjacent
    again = SetUp(sc)
    for u in sc.units:
        if u.hex and u.id in again.to_place():
            again.place(u.id, u.hex)
    again.finish()


def test_1_10e_soviet_battalions_mortars_and_regimental_guns_have_their_own_areas():
    s = SetUp(scenario("4-"))
    s.place("1-269-63Gd:1Co-P1", "B34.19")       # w/i 3 of B34.16
    with pytest.raises(IllegalAction) as e:
        s.place("1-269-63Gd:1Co-P2", "B29.11")   # the regiment's area is not the battalion's
    assert e.value.rule == "BW 1.10e"
    s.place("1-269-63Gd:Mor82", "B29.11")        # a mortar may use the regimental area (w/i 4 of B29.15)
    s.place("269-63Gd:IG4", "B33.13")            # a regimental gun may use a battalion's area
    with pytest.raises(IllegalAction):
        s.place("1-269-63Gd:1Co-P3", "B60.30")


def test_1_10c_d_losses_and_initial_battalion_morale_come_from_the_set_up():
    sc = scenario("4-")
    lost = sum(u.steps_lost for u in sc.units if u.battalion == "1-269-63Gd" and not u.type.endswith("mortar company"))
    assert lost == 18
    assert sc.battalions["1-269-63Gd"] == ("soviet", 1) and sc.battalions["3-269-63Gd"] == ("soviet", 2)
    assert sc.battalions["1-270-63Gd"] == ("soviet", 0)
    assert sum(u.steps_lost for u in sc.units if u.id.startswith("3-I-262:")) == 10


def test_a_unit_placed_outside_its_area_in_the_file_is_refused_on_loading(tmp_path):
    import re
    text = re.sub(r'(id = "1-I-262:P1"\n(?:.*\n){2})hex = "[^"]+"', r'\1hex = "B05.05"', FILES[0].read_text(encoding="utf-8"))
    assert 'hex = "B05.05"' in text
    p = tmp_path / "bad.toml"
    p.write_text(text.replace("../maps/", str(ROOT / "maps") + "/"), encoding="utf-8")
    with pytest.raises(BadFile) as e:
        load_tcs_scenario(p)
    assert "outside its set-up area" in str(e.value) and "BW 1.10f" in str(e.value)


def test_scenario_4_starts_with_the_follow_on_sheet_weighted_27_and_two_battalions_released():
    sc = scenario("4-")
    sheets = {s.id: s for s in sc.op_sheets}
    assert sheets["63Gd-follow-on"].weighted_turns == 27 and not sheets["63Gd-follow-on"].implemented
    assert sheets["63Gd-released"].implemented
    assert {u.split(":")[0] for u in sheets["63Gd-released"].units} == {"1-270-63Gd", "2-270-63Gd"}
    assert sc.ammo[("soviet", "76mm", "he")] == 32 and sc.ammo[("axis", "150mm", "smoke")] == 6
    assert sc.turns()[0].label == "1000 10 Feb" and sc.turns()[-1].label == "1540 10 Feb" and len(sc.turns()) == 18


def test_1_10g_reinforcements_enter_on_time_through_their_entry_area():
    sc = scenario("1-")
    rules = TcsRules(sc)
    st = rules.initial_state(3)
    entry = rules.areas.hexes("soviet_entry")
    soviets = [k for k in st.units if k.startswith("1-708-43")]
    placed = [k for k in soviets if st.units[k].hex is not None]
    assert placed and all(st.units[k].hex in entry for k in placed)
    assert st.waiting["3-Recon:P1"] == "0900 10 Feb" and st.units["3-Recon:P1"].hex is None


def test_2_7_the_14_rifle_regiment_is_released_on_11_or_12_after_i_263_has_entered():
    from engine.rulesets.tcs.procs import release
    from engine.rulesets.tcs.proc import Ctx
    sc = scenario("5-")
    rules = TcsRules(sc)
    st = rules.initial_state(1)
    assert "14-72" not in st.released and st.waiting["1-14-72:1Co-P1"] == "release 14-72"
    st.flags.append("trench:soviet")
    st.released.append("spanish-reserve")
    for k in list(st.waiting):
        if k.startswith(("3-I-263", "4-I-263")) or k.startswith(("5-II-269", "8-II-269")):
            del st.waiting[k]
            st.units[k].hex = rules.board.parse_hex("A53.14")
    events = []
    release(rules, st, Ctx(rules, st, [5, 5], events))          # 10: not yet
    assert "14-72" not in st.released
    release(rules, st, Ctx(rules, st, [6, 5], events))          # 11: released, it enters at once
    assert "14-72" in st.released
    assert st.units["1-14-72:1Co-P1"].hex in rules.areas.hexes("soviet_entry")


def test_5_0_scenario_2_victory_is_judged_with_its_breakdown():
    sc = scenario("2-")
    rules = TcsRules(sc)
    st = rules.initial_state(1)
    kb = sorted(rules.condition_hexes["kb5"])
    for h in kb[:4]:
        st.control[h] = "soviet"
    st.over = True
    out = rules.outcome(st)
    assert out.winner == "axis" and out.reason == "Axis Minor Victory"
    assert out.breakdown["kb5"].startswith("not met") and "4 hexes" in out.breakdown["kb5"]
    st.control[kb[4]] = "soviet"
    out = rules.outcome(st)
    assert out.winner == "soviet" and out.reason == "Soviet victory" and out.breakdown["kb5"].startswith("met")


def test_5_0_scenario_4_counts_conditions_for_victory_and_draw():
    sc = scenario("4-")
    rules = TcsRules(sc)
    st = rules.initial_state(1)
    st.over = True
    for h in rules.condition_hexes["kb50"]:
        st.control[h] = "soviet"
    bastion = rules.condition_hexes["bastion"]
    assert rules.outcome(st).reason == ("Draw" if any(u.hex in bastion for k, u in st.units.items()
                                                       if k.startswith("7-II-262")) else "Soviet victory")
    for k, u in st.units.items():
        if u.hex in bastion and rules.specs[k].side == "axis":
            u.hex = None
    assert rules.outcome(st).reason == "Soviet victory"


def test_5_1_campaign_shifts_one_level_per_40_axis_units_lost():
    sc = scenario("3c-")
    rules = TcsRules(sc)
    st = rules.initial_state(1)
    st.over = True
    base = rules.outcome(st)
    axis = [k for k, u in st.units.items() if rules.specs[k].side == "axis" and u.hex is not None][:40]
    for k in axis:
        st.units[k].hex = None
    out = rules.outcome(st)
    order = [lv.name for lv in sorted(sc.levels, key=lambda lv: lv.rank)]
    assert order.index(out.reason) == order.index(base.reason) + 1
    assert "40 lost" in out.breakdown["shift (axis units lost)"]


def test_1_3a_and_1_6_trench_and_el_bastion_shift_fire_left():
    sc = scenario("4-")
    shifts = {f.feature: f.shift for f in sc.fire_shifts}
    board = sc.board
    bastion = board.parse_hex("B32.06")
    assert {"trench", "el bastion"} <= board.features_of(bastion)
    assert sum(s for f, s in shifts.items() if f in board.features_of(bastion)) == -4
    assert sum(s for f, s in shifts.items() if f in board.features_of(board.parse_hex("B16.29"))) in (-2, 0)


def test_2_3c_and_3_2c_ammunition_arrives_at_0500_11_feb_in_the_campaign():
    rules = TcsRules(scenario("3c-"))
    st = rules.initial_state(1)
    before = st.ammo["soviet|76mm|he"], st.ammo.get("axis|150mm de|he", 0)
    st.turn = next(i for i, t in enumerate(rules.turns) if t.label == "0400 11 Feb")
    events = []
    rules.arrive(st, events)
    assert (st.ammo["soviet|76mm|he"], st.ammo.get("axis|150mm de|he", 0)) == before
    st.turn += 1
    rules.arrive(st, events)
    assert st.ammo["soviet|76mm|he"] == before[0] + 50 and st.ammo["soviet|122mm|smoke"] == 5
    assert st.ammo["axis|105mm|smoke"] == 20 + 60 and st.ammo["axis|150mm de|he"] == 120


def test_5_0_counters_lost_before_play_are_in_the_dead_pile_and_count_for_the_campaign_shift():
    from engine.rulesets.tcs.victory import units_lost
    rules = TcsRules(scenario("7c-"))
    st = rules.initial_state(1)
    # scenario 7: "the Ind Tank Bn has lost 8x T-34", 1-RB "Less 6x KV-I", 2-RB "Less 11x T-26", and the
    # regiments' and divisions' guns listed as lost: in the order of battle, in the dead pile from the start
    assert all(st.units[f"IndTk:T34-{i}"].hex is None and f"IndTk:T34-{i}" not in st.waiting for i in range(1, 9))
    assert st.units["IndTk:T34-9"].hex is not None
    assert units_lost(rules, st, "soviet") == 8 + 6 + 11 + 4 + 2 * 5 + 5 + 4 == 48
    st.over = True
    base = rules.outcome(st)
    assert "48 lost: 0 level(s)" in base.breakdown["shift (soviet units lost)"]
    soviet = [k for k, u in st.units.items() if rules.specs[k].side == "soviet" and u.hex is not None][:32]
    for k in soviet:                             # 32 more in play make 80: one level toward the Axis (5.1)
        st.units[k].hex = None
    out = rules.outcome(st)
    assert "80 lost: 1 level(s) toward axis" in out.breakdown["shift (soviet units lost)"]
    order = [lv.name for lv in sorted(rules.scenario.levels, key=lambda lv: lv.rank)]
    assert order.index(out.reason) == max(0, order.index(base.reason) - 1)
    four = TcsRules(scenario("4-"))
    assert units_lost(four, four.initial_state(1), "axis") == 6                 # 1-AT "Less 6x AT (37mm)"


@pytest.mark.parametrize("stem,short,turns,first", [("6c-", "6-", 70, "1000 10 Feb"), ("7c-", "7-", 52, "1600 10 Feb")])
def test_5_1_the_campaign_starts_from_scenarios_6_and_7(stem, short, turns, first):
    camp, sc = scenario(stem), scenario(short)
    rules = TcsRules(camp)
    assert len(rules.turns) == turns and rules.turns[0].label == first and rules.turns[-1].label == "1700 11 Feb"
    assert {lv.name for lv in camp.levels} >= {"Soviet Massive Victory", "Axis Massive Victory", "Draw"}
    assert camp.shifts                                                          # 5.1's 40 / 80 lost units
    assert {u.id: u.hex for u in camp.units if not (u.enters or u.release)} == \
        {u.id: u.hex for u in sc.units if not (u.enters or u.release)}          # the scenario's own set-up
    assert any(c == "0500 11 Feb" for c, *_ in camp.ammo_arrivals)              # 2.3c, 3.2c
    if stem == "7c-":                    # the German units not set up come by the 3.5 table, rolled from the start
        rel = [r for r in camp.releases if r.rule == "BW 3.5"]
        assert rel and all(r.trigger == "" for r in rel) and "de-1-635Ost" not in {r.id for r in rel}
        assert any(u.release == "de-102" for u in camp.units)


def test_scenarios_4_to_6_roll_their_reinforcements_from_the_start_and_5_sets_up_1_and_2_i_263():
    for stem in ("4-", "5-", "6-", "6c-"):
        assert all(r.trigger in ("", "entered:spanish-reserve") for r in scenario(stem).releases), stem
    five = {u.id: u for u in scenario("5-").units}
    assert five["1-I-263:P1"].setup and not five["1-I-263:P1"].release           # "already committed"
    assert five["2-I-263:P1"].setup and five["3-I-263:P1"].release == "spanish-reserve"
