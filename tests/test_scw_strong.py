"""The skirmish's computer players: the strong attacker and defender (engine/players/scw_strong.py) and the
baseline defender (engine/rulesets/scw/bot.py), on real positions with the decisions they must take."""
import json

import pytest

from engine.cli import main
from engine.computer import ComputerSides, bot_for, bot_options, has_strong
from engine.errors import BadFile
from engine.game import Game, load_game, replay
from engine.players import scw_strong
from engine.players.scw_strong import StrongScw, deal_anew, seen_seed, strong_for
from engine.rulesets.scw import rules_for_path
from engine.rulesets.scw.actions import Assault, Place
from engine.rulesets.scw.bot import attacker_move, automatic_layout, defender_move
from engine.rulesets.scw.enemy import gun_cone

SCENARIO = "scenarios/scw-platoon-attack.toml"
RULES = rules_for_path(SCENARIO)
CARDS = rules_for_path(SCENARIO, "player-cards")
QUICK = {"rollouts": 12, "setup_rollouts": 24, "layouts": 6}


def last_gun_position(seed=3):
    """Seed 3 (pictures at sheepfold-wall, C2, and chapel-door, C6): every card turned, C6 taken, the gun at
    C2 down to Bravado 6 (two lost to fire), T2's four riflemen 6.5 inches south of it, out of its cone (it is
    laid on the LMG team T5 far to the east), the last turn (20), every other team has acted."""
    s = RULES.initial_state(seed)
    for c in s["cards"].values():
        c["revealed"] = True
    for cid in ("C2", "C6"):
        s["guns"][cid] = RULES.gun_from_card(s["cards"][cid])
    s["guns"]["C6"].update(captured=True, silenced=True)
    gun = s["guns"]["C2"]
    gun.update(lost=2, lost_since_open=2)
    s["turn"] = 20
    for tid in ("T1", "T3", "T4", "T5"):
        s["teams"][tid]["done"] = True
    s["teams"]["T2"]["at"] = [52.0, 16.0]
    s["teams"]["T5"]["at"] = [66.0, 22.0]
    s["teams"]["T4"]["at"] = [40.0, 30.0]
    gun["bearing"], gun["target"] = 41.76, "T5"
    return s


# ---------------------------------------------------------------- the attacker
def test_it_charges_the_last_gun_it_can_reach_rather_than_walking_past():
    s = last_gun_position()
    assert Assault("T2", "C2") in RULES.legal_actions(s)
    assert not gun_cone(s["guns"]["C2"]).dwithin(__import__("shapely").Point(s["teams"]["T2"]["at"]), 1.0)
    f = strong_for(RULES, "attacker", **QUICK)
    action = f(s)
    # the only order that can still win: a move up to the gun, covering fire or cover leave it holding out
    assert action == Assault("T2", "C2")
    assert f.player.last_reason.startswith("T2 charges the gun at C2: ")
    assert "simulated games won" in f.player.last_reason


def test_it_never_peeks_at_the_face_down_cards_or_the_dice():
    """Two games alike in all the attacker can see, unlike in the cards' faces and the generator: the strong
    attacker gives the same order with the same reason in both."""
    s = RULES.initial_state(3)
    other = json.loads(json.dumps(s))
    faces = {cid: (c["face"], c["picture"]) for cid, c in s["cards"].items()}
    ids = sorted(faces)
    for a, b in zip(ids, ids[1:] + ids[:1]):             # every face moves to the next card
        other["cards"][b]["face"], other["cards"][b]["picture"] = faces[a]
    other["rng"] = (s["rng"] * 3 + 7) % 2**64
    assert seen_seed(RULES, s) == seen_seed(RULES, other)
    one = strong_for(RULES, "attacker", every_order=True, **QUICK)     # the first order simulated too
    two = strong_for(RULES, "attacker", every_order=True, **QUICK)
    assert one(s) == two(other)
    assert one.player.last_simulations > 0 and "simulated games won" in one.player.last_reason
    assert one.player.last_reason == two.player.last_reason


def test_a_simulation_deals_the_hidden_cards_anew_and_never_moves_the_real_dice():
    s = RULES.initial_state(8)
    before = json.dumps(s, sort_keys=True)
    pictures = set()
    for k in range(40):
        sim = deal_anew(RULES, s, k)
        hidden = [c for c in sim["cards"].values() if not c["revealed"]]
        n = sum(c["picture"] for c in hidden)
        assert n >= 1                        # SCW Scenario 2: there is always at least one picture card
        pictures.add(n)
        assert sim["rng"] != s["rng"]
    assert len(pictures) > 1                 # sometimes more than one gun
    assert json.dumps(s, sort_keys=True) == before
    # what is known of the cards: five blanks turned leave the sixth a picture card for certain; a picture and
    # four blanks turned leave the sixth a picture only sometimes (the deal may hold more than one)
    assert scw_strong._picture_odds(RULES, 6, 0, 5) == [(1, 1.0)]
    odds = dict(scw_strong._picture_odds(RULES, 6, 1, 4))
    assert set(odds) == {0, 1} and 0.5 < odds[0] < 1 and abs(odds[0] + odds[1] - 1) < 1e-9


def test_cancel_stops_the_thinking_and_the_baseline_order_is_played():
    s = last_gun_position()
    s["turn"] = 6
    f = strong_for(RULES, "attacker", cancel=lambda: True)
    action = f(s)
    assert action == Assault("T2", "C2")             # the rule of thumb's order: a charge comes first
    assert f.player.last_simulations == 0 and "no time to think" in f.player.last_reason
    asked = []
    g = strong_for(RULES, "attacker", rollouts=200, cancel=lambda: len(asked) > 5 or asked.append(1))
    assert g(s) in RULES.legal_actions(s)
    assert g.player.last_simulations == 6            # asked before each simulation: six ran, the seventh stopped


def test_a_fork_keeps_its_own_memory():
    f = strong_for(CARDS, "defender", **QUICK)
    s = CARDS.initial_state(2)
    f(s)
    twin = f.fork()
    assert twin.player._layout == f.player._layout and twin.player is not f.player
    twin.player._layout.clear()
    assert f.player._layout


# ---------------------------------------------------------------- the defender
def shallowest_layout(rules):
    """The legal layout whose cards lie nearest the attackers' base line on the whole."""
    import itertools

    from shapely.geometry import Point

    line = rules.table.lines[rules.scenario.baseline]
    names = sorted(loc.name for loc in rules.table.locations_of_kind("defensive"))
    depth = {n: line.distance(Point(rules.table.location(n).at)) for n in names}
    legal = [c for c in itertools.combinations(names, 6) if not rules.crowded(list(c))]
    return min(legal, key=lambda c: (sum(depth[n] for n in c), c))


def test_the_baseline_defender_lays_the_cards_as_the_automatic_procedure_without_the_games_dice():
    s = CARDS.initial_state(6)
    rng = s["rng"]
    layout = automatic_layout(CARDS, s)
    assert len(layout) == 6 and not CARDS.crowded(layout)
    choose = bot_for(CARDS, "defender")
    for _ in range(6):
        a = choose(s)
        assert isinstance(a, Place) and a == defender_move(CARDS, s)
        s, _ = CARDS.apply(s, a)
        assert s["rng"] == rng                 # no die thrown, none drawn
    assert [c["position"] for _, c in sorted(s["cards"].items())] == layout
    assert s["phase"] == "turn"
    assert automatic_layout(CARDS, CARDS.initial_state(7)) != layout      # another game, another layout


def test_the_strong_defender_lays_a_legal_layout_the_attack_does_worse_against():
    """SCW Scenario 2: never more than two cards within 4 inches.  Its layout against the shallowest legal one
    (every card as near the attackers' base line as the rules allow), each met by the baseline attacker on the
    same 150 seeds: the attack takes its layout less often."""
    s = CARDS.initial_state(1)
    f = strong_for(CARDS, "defender", setup_rollouts=96, layouts=12)
    laid = []
    while s["phase"] == "setup":
        a = f(s)
        assert a in CARDS.legal_actions(s)
        laid.append(a.position)
        s, _ = CARDS.apply(s, a)
    assert not CARDS.crowded(laid) and len(set(laid)) == 6
    shallow = shallowest_layout(CARDS)
    assert not CARDS.crowded(list(shallow)) and set(shallow) != set(laid)

    def attack_wins(layout):
        won = 0
        for seed in range(1000, 1150):
            g = CARDS.initial_state(seed)
            for cid, pos in zip(sorted(g["cards"]), layout):
                CARDS.apply_in_place(g, Place(cid, pos))
            won += scw_strong.play_on(CARDS, g, attacker_move)["outcome"]["winner"] == "attacker"
        return won

    strong, bad = attack_wins(laid), attack_wins(shallow)
    assert strong + 8 <= bad, (strong, bad)


# ---------------------------------------------------------------- whole games, the computer's record
def test_a_strong_game_with_both_sides_to_the_end_replays_to_the_same_hash(tmp_path):
    game = Game(CARDS, 11, SCENARIO, ("player-cards",))
    choosers = {side: strong_for(CARDS, side, **QUICK) for side in ("attacker", "defender")}
    from engine.rulesets.scw.bot import side_to_act

    while not game.is_over():
        f = choosers[side_to_act(game.state)]
        game.play(f(game.state))
        assert f.player.last_reason
    assert game.outcome().winner in ("attacker", "defender")
    again = replay(CARDS, 11, game.actions_text(), SCENARIO)
    assert again.hash() == game.hash()
    game.save(tmp_path / "g.toml")
    assert load_game(tmp_path / "g.toml").hash() == game.hash()


def test_the_play_command_plays_and_explains_the_strong_skirmish_and_its_save_replays(capsys, tmp_path):
    save = tmp_path / "g.toml"
    assert main(["play", SCENARIO, "--seed", "4", "--bot", "strong", "--variant", "player-cards", "--explain",
                 "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "set-up: place C1 " in out and " - lays the cards at " in out
    assert "turn 1: " in out and "simulated games won" in out
    digest = out.split("state hash: ")[1].split()[0]
    assert load_game(save).hash() == digest
    assert main(["play", SCENARIO, "--seed", "4", "--bot", "defender=strong"]) == 1
    assert "needs --bot attacker" in capsys.readouterr().err


def test_a_saved_game_with_the_strong_computer_loads_for_the_skirmish(tmp_path):
    assert has_strong("scw") and bot_options("scw", "strong")["rollouts"] is int
    doc = {"computer": {"sides": ["attacker"], "bot": "strong", "options": {"budget": 2, "rollouts": 24}}}
    c = ComputerSides.from_save("g.toml", doc, "scw", 0)
    assert (c.sides, c.bot, c.options) == (("attacker",), "strong", {"budget": 2, "rollouts": 24})
    f = bot_for(RULES, "attacker", c.options, bot=c.bot)
    assert isinstance(f.player, StrongScw) and f.player.rollouts == 24 and f.player.budget == 2.0
    bad = {"computer": {"sides": ["attacker"], "bot": "strong", "options": {"depth": 3}}}
    with pytest.raises(BadFile) as e:
        ComputerSides.from_save("g.toml", bad, "scw", 0)
    assert "computer.options.depth" in str(e.value) and "rollouts" in str(e.value)
    with pytest.raises(ValueError):
        strong_for(RULES, "nationalists")


def test_balance_reads_the_skirmishs_sides_variants_and_turns(capsys):
    assert main(["balance", SCENARIO, "--bots", "baseline,baseline", "--games", "4", "--variant", "player-cards",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["variants"] == ["player-cards"] and summary["games"] == 4
    assert set(summary["sides"]) == {"attacker", "defender", "draw"}
    assert summary["sides"]["attacker"]["wins"] + summary["sides"]["defender"]["wins"] == 4
    assert summary["mean_turns"] >= 2
