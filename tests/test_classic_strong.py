"""The strong player of the classic rules: its decisions in small positions of River Crossing, whole games, saved
games and cancelling.  The positions use only the units named (the others wait off the map)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Game, load_game, load_rules, replay
from engine.players.classic_strong import StrongClassic, evaluate, strong_for
from engine.rulesets.classic.bot import play_out
from engine.rulesets.demyansk import actions as A

ROOT = Path(__file__).resolve().parent.parent
SCEN = str(ROOT / "scenarios" / "classic-river-crossing.toml")


@pytest.fixture(scope="module")
def rules():
    return load_rules(SCEN)


def position(rules, phase: str, where: dict[str, str], turn: int = 1):
    """River Crossing with only the units of ``where`` on the map (the others due, off it), at ``phase``."""
    st = rules.initial_state(1)
    st.turn, st.phase = turn, phase
    for uid, u in st.units.items():
        if uid in where:
            u.hex, u.status = rules.board.parse_hex(where[uid]), "map"
        else:
            u.hex, u.status = None, "due"
    rules._begin_phase(st, [])
    return st


def play_phase(rules, st, player):
    """Let ``player`` act until the phase changes; the state then."""
    key = (st.turn, st.phase)
    for _ in range(100):
        if (st.turn, st.phase) != key or st.over:
            return st
        st, _ = rules.apply(st, player.choose(rules, st))
    raise AssertionError("the phase did not end")


def test_takes_the_attack_that_wins_the_game(rules):
    # Last turn, Blue combat: Red's garrison (2-5) alone in Neustadt A14.09 (town, -2 columns); Blue's rifles (4-4)
    # and tanks (6-4) beside it: 10 against 5 is +5, the town takes two columns, combined arms gives one back and
    # being out of supply one more away: +3, where four of the six rolls take the hex (DS, DS, DE, DE) and two
    # push the garrison back two hexes (DR, DS): Blue advances into Neustadt and holds it at the end.
    st = position(rules, "Blue combat", {"b-1": "A13.09", "b-4": "A13.10", "r-4": "A14.09"}, turn=6)
    assert rules.outcome(st) is None and evaluate(rules, st, "blue") < 0      # as it stands, Red wins
    bot = StrongClassic("blue")
    first = bot.choose(rules, st)
    assert first == A.Declare("r-4", ("b-1", "b-4"))
    assert rules.odds(st, "r-4", ("b-1", "b-4")).label == "+3"
    assert bot.last_reason.startswith("+3, expected gain ") and bot.last_reason.endswith("may win the game as it stands")
    st, _ = rules.apply(st, first)
    assert bot.choose(rules, st) == A.Resolve("r-4")
    st.preset_dice = [6]                                                        # DE at +3
    st, _ = rules.apply(st, A.Resolve("r-4"))
    assert st.units["r-4"].status == "eliminated"
    advance = bot.choose(rules, st)                                             # into the hex it emptied
    assert isinstance(advance, A.Advance) and advance.unit in ("b-1", "b-4")
    while not st.over:
        st, _ = rules.apply(st, bot.choose(rules, st) if rules.units_to_act(st) or st.pending else A.EndPhase())
    out = rules.outcome(st)
    assert out.winner == "blue" and out.breakdown["level"] == "major"


def test_does_not_attack_at_the_worst_columns_into_woods_with_nothing_to_gain(rules):
    # Turn 3, Blue combat: Red's screen (3-4) in the woods of A12.08, Blue's rifles (4-4) beside it in the clear,
    # out of supply: 4 against 4 is 0, the woods and the lack of supply take a column each: -2, where Blue loses
    # the unit or a step or is pushed back on four rolls in six, and only a 6 pushes the screen back.
    st = position(rules, "Blue combat", {"b-2": "A11.08", "r-1": "A12.08", "r-4": "A15.09"}, turn=3)
    legal = [a for a in rules.legal_actions(st) if isinstance(a, A.Declare)]
    assert legal == [A.Declare("r-1", ("b-2",))]
    assert rules.odds(st, "r-1", ("b-2",)).label == "-2"
    bot = StrongClassic("blue")
    gain, _ = bot.battle_gain(rules, st, legal[0])
    assert gain < 0
    assert bot.choose(rules, st) == A.EndPhase()


def test_moves_onto_an_objective_hex_and_holds_it(rules):
    # Turn 5, Blue movement: the rifles on the road at A12.09 reach Neustadt's empty A14.09 (it stops there, in the
    # zone of control of the garrison in A15.09); the tanks already in Neustadt's A15.08 (beside the garrison)
    # never leave it.
    st = position(rules, "Blue movement", {"b-1": "A12.09", "b-4": "A15.08", "r-4": "A15.09"}, turn=5)
    bot = StrongClassic("blue")
    first = bot.choose(rules, st)
    assert first == A.Move("b-1", "A14.09", "A12.09")
    assert bot.last_reason.startswith("holds Neustadt")
    after = play_phase(rules, st, bot)
    assert rules.map.hex_id(after.units["b-4"].hex) == "A15.08"
    assert rules.map.hex_id(after.units["b-1"].hex) == "A14.09"


def test_its_own_retreat_goes_to_the_best_hex(rules):
    # Blue's rifles and tanks push Red's screen out of A13.09 (DR: two hexes).  Of its nine retreats, four pass an
    # enemy zone of control (a step lost, 7.2); it goes into Neustadt, beside its garrison.
    st = position(rules, "Blue combat", {"b-1": "A12.09", "b-2": "A13.10", "r-3": "A13.09", "r-4": "A15.09"}, turn=4)
    events: list = []
    rules._result(st, "r-3", ("b-1", "b-2"), "DR", events)
    p = st.pending[0]
    assert p["kind"] == "retreat" and p["unit"] == "r-3" and len(p["options"]) == 9
    bot = StrongClassic("red")
    values = {a.to: evaluate(rules, rules.apply(st, a)[0], "red") for a in rules.legal_actions(st)}
    choice = bot.choose(rules, st)
    assert isinstance(choice, A.Retreat) and values[choice.to] == max(values.values())
    assert choice.to in ("A15.08", "A15.09") and choice.to not in p["dirty"]
    assert all(values[d] < values[choice.to] for d in p["dirty"])
    assert bot.last_reason == "the best of 9 choices"


def test_the_evaluation_counts_the_objective_strength_and_danger(rules):
    base = position(rules, "Blue movement", {"b-1": "A12.09", "r-4": "A15.09"}, turn=5)
    there = position(rules, "Blue movement", {"b-1": "A14.09", "r-4": "A15.09"}, turn=5)
    assert evaluate(rules, there, "blue") > evaluate(rules, base, "blue") + 20      # Neustadt held: a major victory
    assert evaluate(rules, there, "red") == -evaluate(rules, there, "blue")
    lone = position(rules, "Blue movement", {"b-1": "A05.05", "r-1": "A12.05"}, turn=2)
    pair = position(rules, "Blue movement", {"b-1": "A05.05", "b-2": "A05.06", "r-1": "A12.05"}, turn=2)
    assert evaluate(rules, pair, "blue") > evaluate(rules, lone, "blue")           # more strength on the map
    # Blue's rifles beside Red's screen and its tanks (9 against 4 at +5: always DE) are in danger
    safe = position(rules, "Red movement", {"b-2": "A10.08", "r-1": "A12.08", "r-5": "A12.07"}, turn=4)
    close = position(rules, "Red movement", {"b-2": "A11.08", "r-1": "A12.08", "r-5": "A12.07"}, turn=4)
    assert evaluate(rules, close, "red") > evaluate(rules, safe, "red")


def test_cancel_stops_the_thinking_between_two_battles(rules):
    st = position(rules, "Blue combat", {"b-1": "A13.09", "b-4": "A13.10", "b-2": "A14.08", "r-4": "A14.09"}, turn=6)
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 1

    class Counting(StrongClassic):
        tried = 0

        def battle_gain(self, *args, **kw):
            Counting.tried += 1
            return super().battle_gain(*args, **kw)

    assert len(rules.declarations(st)) == 7
    bot = Counting("blue", cancel=cancel)
    bot.choose(rules, st)
    assert Counting.tried == 1 and len(asked) == 2               # one battle tried, then it stopped
    full = Counting("blue")
    Counting.tried = 0
    full.plan_battles(rules, st)
    assert Counting.tried == 5                # without cancel: the 7 legal battles, at most two groups a column


def test_preset_dice_are_rolled_first_and_kept_out_of_the_saved_state(rules):
    st = position(rules, "Blue combat", {"b-1": "A13.09", "r-4": "A14.09"}, turn=2)
    assert "preset_dice" not in rules.state_to_dict(st)
    st, _ = rules.apply(st, A.Declare("r-4", ("b-1",)))
    st.preset_dice = [2]
    assert rules.state_to_dict(st)["preset_dice"] == [2]
    rng = st.rng
    after, events = rules.apply(st, A.Resolve("r-4"))
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["dice"] == [2] and after.rng == rng and after.preset_dice == []
    assert "preset_dice" not in rules.state_to_dict(after)


def test_a_strong_game_reaches_the_end_and_replays_by_hash(rules, tmp_path):
    game = Game(rules, 7, SCEN)
    players = {s: strong_for(rules, s) for s in rules.sides}
    play_out(rules, game, players)
    assert game.is_over() and game.outcome().winner in ("blue", "red")
    assert replay(rules, 7, game.actions_text(), SCEN).hash() == game.hash()
    reasons = [players[s].player.last_reason for s in rules.sides]
    assert all(reasons)
    out = subprocess.run([sys.executable, "-m", "engine", "play", SCEN, "--bot", "strong", "--seed", "2", "--explain"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("turn 1 Blue combat: attack r-2 by ") and ", expected gain " in line for line in lines)
    assert lines[-2].startswith("winner: ") and lines[-1].startswith("state hash: ")
    out = subprocess.run([sys.executable, "-m", "engine", "play", SCEN, "--bot", "blue=strong,red=baseline", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["over"]


def test_a_saved_game_with_the_strong_player_loads_for_classic(rules, tmp_path):
    from engine.computer import ComputerSides, bot_for, has_strong
    from engine.errors import BadFile

    assert has_strong("classic")
    ok = ComputerSides.from_save("g.toml", {"computer": {"sides": ["red"], "bot": "strong",
                                                        "options": {"budget": 2, "min_gain": 0.1}}}, "classic", 0)
    assert ok.bot == "strong" and ok.options == {"budget": 2, "min_gain": 0.1}
    with pytest.raises(BadFile) as e:
        ComputerSides.from_save("g.toml", {"computer": {"sides": ["red"], "bot": "strong",
                                                       "options": {"corridor": 1}}}, "classic", 0)
    assert [p.key for p in e.value.problems] == ["computer.options.corridor"]
    f = bot_for(rules, "red", ok.options, bot="strong")
    assert f.player.budget == 2 and f.fork().player is not f.player
    game = Game(rules, 3, SCEN)
    game.computer = ok
    game.play(A.EndPhase())
    path = tmp_path / "g.toml"
    game.save(path)
    again = load_game(path)
    assert again.computer == ok and again.hash() == game.hash()
