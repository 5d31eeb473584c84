"""The TCS legal-action listing's shortcuts give what the rules' own checks give.

The listing remembers sight lines, judges a mission's battery and spotter once for all targets and reads a
hex index built per listing; these tests hold it to the plain checks on positions of a real Black Wednesday
game (scenario 2: FOs, batteries and hundreds of units).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.los.viewshed import viewshed
from engine.players.random import RandomPlayer
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs import rules_for_path
from engine.rulesets.tcs import sight as S
from engine.rulesets.tcs.rules import _ok

ROOT = Path(__file__).resolve().parent.parent
PATH = ROOT / "scenarios" / "black-wednesday-2-assault-of-the-guards.toml"


@pytest.fixture(scope="module")
def positions():
    """Every position of a seeded random game of scenario 2 up to its second Missions step of a side with an FO
    on the map and targets."""
    rules = rules_for_path(PATH)
    game = Game(rules, 3, str(PATH))
    player = RandomPlayer(3)
    seen, missions = [game.state], 0
    while not game.is_over() and missions < 2:
        game.play(player.choose(game.legal_actions()))
        seen.append(game.state)
        st = game.state
        side = rules.current(st)[2]
        if not st.pending and rules.current(st)[1] == "missions" and rules._enemy_hexes(st, side) and \
                any(rules.specs[k].fo and rules.specs[k].side == side and u.hex for k, u in st.units.items()):
            missions += 1
    return rules, seen


def test_the_listing_is_the_same_with_cold_caches(positions):
    """A listing read through remembered sight lines and views equals one from a fresh ruleset."""
    rules, states = positions
    fresh = rules_for_path(PATH)
    for st in states[::7] + states[-3:]:
        assert [a.text() for a in rules.legal_actions(st)] == [a.text() for a in fresh.legal_actions(st)]


def test_mission_offers_are_the_missions_check_mission_accepts_in_the_same_order(positions):
    rules, states = positions
    st = states[-1].copy()
    phase, step, side = rules.current(st)
    assert step == "missions"
    own = [k for k in rules.order if rules.specs[k].side == side and st.units[k].hex is not None]
    # one FO walks up to the enemy's line (beside an enemy unit): it sees some targets, the others see none
    fo = next(k for k in own if rules.specs[k].fo)
    taken = {u.hex for u in st.units.values()}
    st.units[fo].hex = next(n for e in rules._enemy_hexes(st, side) for n in rules.board.neighbors(e)
                            if n in rules.board and n not in taken)
    brute = []
    for b in rules.scenario.batteries:
        if b.side != side:
            continue
        for sp in [u for u in own if rules.specs[u].fo or u == b.unit]:
            for h in rules._enemy_hexes(st, side):
                for ammo in ("he", "smoke", "illum"):
                    a = A.PlaceMission(b.id, rules.hid(h), sp, ammo)
                    if _ok(lambda: rules.check_mission(st, a, side)):
                        brute.append(a.text())
    offers = [a.text() for a in rules._mission_offers(st, side, own)]
    assert offers == brute and len(offers) > 0


def test_remembered_sight_lines_agree_with_each_line_judged_alone(positions, monkeypatch):
    """visible_from over many targets (remembered, and forgotten past the bound) = one viewshed per target."""
    rules, states = positions
    st = states[-1]
    sight = S.Sight(rules)
    monkeypatch.setattr(S, "LINES_KEPT", 40)      # forget often: the answers must not change
    observers = sorted({u.hex for u in st.units.values() if u.hex is not None})[::25]
    targets = sorted({u.hex for u in st.units.values() if u.hex is not None})
    sm = sight.sight_map(st)
    for o in observers:
        got = sight.visible_from(st, o, targets, 20)
        alone = {h for h in targets if S.hex_distance(o, h) <= 20 and
                 (h == o or h in viewshed(sm, o, markers=sight.markers(st) or None, visibility_limit=20,
                                          targets=[h]).visible)}
        assert got == alone
        assert sight.visible_from(st, o, targets, 20) == got          # asked again: from memory


def test_games_played_one_after_another_with_one_ruleset_are_the_games_of_fresh_rulesets():
    """The sight caches live on the ruleset: a game after others (with other chart answers for the counters,
    spotting and heights) plays exactly as it does with a ruleset of its own."""
    from engine.players.random import play_random
    from tcs_fixtures import SCENARIO

    shared = rules_for_path(SCENARIO)
    for seed in range(3):
        one = Game(shared, seed, str(SCENARIO))
        play_random(one, seed)
        alone = Game(rules_for_path(SCENARIO), seed, str(SCENARIO))
        play_random(alone, seed)
        assert one.actions_text() == alone.actions_text() and one.hash() == alone.hash()
