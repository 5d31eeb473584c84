"""The standing of each victory condition during play (Demyansk 9.2, 9.3, general conditions) on concrete positions."""
from __future__ import annotations

from pathlib import Path

from engine.game import Game, load_rules
from engine.maps.hexes import hex_distance
from engine.rulesets.demyansk.state import ELIMINATED, ON_MAP
from engine.rulesets.demyansk.victory import victory_points
from engine.rulesets.demyansk.zoc import side_hexes, zoc
from test_demyansk_fixtures import rules, state_in, unit

ROOT = Path(__file__).resolve().parent.parent

# A pocket unit at 0805 walled off from the west by Soviet units in column 6 (their zones of control close the gaps).
WALL = [unit("p", "german", "3-4-7", "0805", pocket=True),
        *[unit(f"s{i}", "soviet", "4-5-7", f"06{i:02d}") for i in range(1, 9, 2)]]


def assert_free_line(r, st, ids):
    """Each hex after the first is free of Soviet units and zones of control; steps are adjacent; it ends on the west edge."""
    hs = [r.map.board.parse_hex(h) for h in ids]
    blocked = side_hexes(r, st, "soviet") | zoc(r, st, "soviet")
    assert all(hex_distance(a, b) == 1 for a, b in zip(hs, hs[1:]))
    assert not blocked & set(hs[1:])
    assert hs[-1] in r.map.edges["west"]


def test_9_2_an_open_line_now_is_shown_with_its_hexes():
    r = rules([unit("p", "german", "3-4-7", "0805", pocket=True), unit("s", "soviet", "4-5-7", "0601")])
    st = state_in(r, "german-movement")
    [s] = r.standing(st)
    assert (s.name, s.rule, s.leader) == ("Open line to the west", "Demyansk 9.2", "german")
    assert s.hexes[0] == "0805" and s.hexes[-1].startswith("01") and len(s.hexes) == 8   # 7 columns west: 8 hexes
    assert_free_line(r, st, s.hexes)
    figures = dict(s.figures)
    assert figures["pocket units with a free line to the west"] == "1"
    assert figures["line"].startswith("8 hexes from p: 0805-")


def test_9_2_a_walled_pocket_has_no_line_and_the_soviet_leads():
    r = rules(WALL)
    st = state_in(r, "german-movement")
    [s] = r.standing(st)
    assert s.leader == "soviet" and s.hexes == ()
    assert dict(s.figures)["pocket units with a free line to the west"] == "0"
    assert "no free line" in s.summary


def test_9_2_breaking_the_wall_opens_the_line_through_the_gap():
    r = rules(WALL)
    st = state_in(r, "german-movement")
    for uid in ("s3", "s5"):                  # two Soviet units gone: a gap in column 6 round row 4
        st.units[uid].status = ELIMINATED
        st.units[uid].hex = None
    from engine.rulesets.demyansk.zoc import forget

    forget(st)
    [s] = r.standing(st)
    assert s.leader == "german"
    assert_free_line(r, st, s.hexes)
    assert any(h.startswith("06") for h in s.hexes)   # it crosses column 6 where the wall was


def test_9_3_the_schedule_so_far_line_by_line():
    r = rules([unit("g1", "german", "3-4-7", "0305"), unit("g2", "german", "3-4-7", "0505"),
               unit("pz", "german", "6-4-8", "0707", type="panzer"), unit("s", "soviet", "4-5-7", "0901")],
              victory="points")
    st = state_in(r, "soviet-movement", turn=3)
    st.units["g2"].status, st.units["g2"].hex, st.units["g2"].destroyed_in_combat = ELIMINATED, None, True
    st.front_failures = [1, 2]
    [s] = r.standing(st)
    f = dict(s.figures)
    assert (s.name, s.rule) == ("Victory points", "Demyansk 9.3")
    assert f["Soviet: infantry destroyed (1 each)"] == "1"
    assert f["Soviet: turns without a continuous front (1 each)"] == "2"
    assert f["German: units in or west of the front (2 each)"] == "4"       # g1 and pz both have a free line
    assert s.leader == "german" and s.summary.startswith("German 4, Soviet 3: German leads by 1")
    assert f["judged"] == "at the end of turn 10 (now turn 3)"


def test_9_3_standing_of_scenario_ii_at_its_start_matches_the_end_of_game_count():
    r = load_rules(str(ROOT / "scenarios" / "demyansk-2-campaign.toml"))
    g = Game(r, 1)
    [s] = r.standing(g.state)
    on_map = [uid for uid, u in g.state.units.items() if u.status == ON_MAP and r.specs[uid].side == "german"]
    west = int(dict(s.figures)["German: units in or west of the front (2 each)"])
    assert west % 2 == 0 and 0 < west // 2 <= len(on_map)
    out = victory_points(r, g.state)                  # what the end of the game would count on this state
    assert s.summary.startswith(f"German {out.breakdown['german total']}, Soviet {out.breakdown['soviet total']}")


def test_scenario_i_standing_at_the_start_is_a_real_free_line_or_none():
    r = load_rules(str(ROOT / "scenarios" / "demyansk-1-trapped.toml"))
    st = Game(r, 1).state
    [s] = r.standing(st)
    if s.leader == "german":
        assert_free_line(r, st, s.hexes)
        assert s.hexes[0] in {r.map.hex_id(st.units[u].hex) for u in r.pocket_units if st.units[u].status == ON_MAP}
    else:
        assert s.hexes == () and dict(s.figures)["pocket units with a free line to the west"] == "0"


def _conditions_rules(tmp_path):
    from test_reinforcements_variable import MAP, SCENARIO

    path = tmp_path / "variable.toml"
    path.write_text(SCENARIO.format(map=MAP), encoding="utf-8")
    return load_rules(str(path))


def test_general_conditions_are_judged_on_the_current_state(tmp_path):
    r = _conditions_rules(tmp_path)
    g = Game(r, 1)
    hold, verdict = r.standing(g.state)
    assert hold.name == "hold" and hold.leader == "german" and hold.summary.startswith("met for german")
    assert verdict.leader == "german" and "minor victory" in verdict.summary
    st = g.state.copy()
    st.units["g-1"].hex = r.board.parse_hex("0505")            # the German leaves 0707
    hold, verdict = r.standing(st)
    assert hold.leader is None and dict(hold.figures)["met"] == "no"
    assert verdict.leader == "soviet" and dict(verdict.figures)["level"] == "minor"
