"""Whole games on the real scenarios: random legal play with invariants, and a bot game replayed by hash."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.game import Game, load_game, load_rules, replay
from engine.rulesets.demyansk.bot import DemyanskBot, play_out
from engine.rulesets.demyansk.state import ON_MAP

ROOT = Path(__file__).resolve().parents[1]
TRAPPED = str(ROOT / "scenarios" / "demyansk-1-trapped.toml")
CAMPAIGN = str(ROOT / "scenarios" / "demyansk-2-campaign.toml")


def check_invariants(r, st):
    """What must hold in every state of every game."""
    seen = {}
    for uid, u in st.units.items():
        if u.status != ON_MAP:
            continue
        assert u.hex in r.map.on_map and u.hex not in r.map.prohibited, uid
        other = seen.get(u.hex)
        if other is not None:
            # 5.3: one unit a hex; only a parachute brigade shares one, with the German it landed on (8.2)
            assert st.units[uid].landed_on == other or st.units[other].landed_on == uid, (uid, other)
        seen[u.hex] = uid
    if st.pending:
        assert st.pending[0]["side"] in ("german", "soviet")


@pytest.mark.parametrize("path,seed", [(TRAPPED, 3), (CAMPAIGN, 4)], ids=["trapped", "campaign"])
def test_random_legal_play_keeps_the_invariants_and_replays_exactly(path, seed, tmp_path):
    r = load_rules(path)
    g = Game(r, seed, path)
    rng = random.Random(seed)
    check_invariants(r, g.state)
    while g.state.turn <= 3 and not g.is_over():
        actions = g.legal_actions()
        assert actions, f"no legal action in {g.state.phase}"
        ends = [a for a in actions if a.text() == "end"]
        action = ends[0] if ends and rng.random() < 0.25 else rng.choice(actions)
        g.play(action)
        check_invariants(r, g.state)
    again = replay(r, seed, g.actions_text(), path)
    assert again.hash() == g.hash()
    g.save(tmp_path / "random.toml")
    assert load_game(tmp_path / "random.toml").hash() == g.hash()
    n = len(g.log)
    g.undo()
    assert len(g.log) == n - 1
    g.redo()
    assert g.hash() == again.hash()


def test_scenario_ii_bot_game_finishes_all_18_turns_and_its_saved_log_replays(tmp_path):
    r = load_rules(CAMPAIGN)
    g = Game(r, 1, CAMPAIGN)
    bots = {s: DemyanskBot(s) for s in ("german", "soviet")}
    play_out(r, g, bots)
    assert g.is_over() and g.state.turn == 18
    out = g.outcome()
    b = out.breakdown
    assert b["soviet total"] == sum(b["soviet"].values()) and b["german total"] == sum(b["german"].values())
    assert out.winner == ("german" if b["german total"] > b["soviet total"] else
                          "soviet" if b["soviet total"] > b["german total"] else None)
    g.save(tmp_path / "campaign.toml")
    assert load_game(tmp_path / "campaign.toml").hash() == g.hash()


def test_scenario_i_opening_position_follows_the_set_up():
    r = load_rules(TRAPPED)
    st = r.initial_state(1)
    on = [uid for uid, u in st.units.items() if u.status == ON_MAP]
    assert len({st.units[u].hex for u in on}) == len(on)                 # 5.3
    assert all(st.units[u].hex in r.map.pocket for u in r.pocket_units)  # 9.2: inside the perimeter
    assert all(any(st.units[u].hex == f for u in on) for f in r.map.forts)   # one unit in each fortification
    assert r.turns == 10 and r.victory == "open-line"
    assert st.pocket_supplied                                            # 7.2: turn 1
    from engine.rulesets.demyansk.supply import continuous_front
    assert continuous_front(r, st)                                       # 7.3: along the start line


def test_scenario_ii_binds_its_special_rules():
    r = load_rules(CAMPAIGN)
    assert (r.turns, r.victory, r.withdrawals, r.pocket_stays_until, r.garrison_until) == (18, "points", True, 10, 10)
    assert sorted(u for u, s in r.specs.items() if s.withdraw_turn == 10) == ["ger-18mot-30", "ger-18mot-51"]
