"""The strong Demyansk player's decisions in small positions, and its games against the baseline."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.maps.hexes import hex_distance, hex_neighbors
from engine.players.match import play_game, summarise, wilson
from engine.players.strong import StrongDemyansk, corridor, evaluate, strong_for
from engine.rulesets.demyansk import actions as A
from engine.rulesets.demyansk.charts import CRT
from engine.rulesets.demyansk.state import ELIMINATED, OFF_MAP, ON_MAP
from engine.rulesets.demyansk.supply import linked_to_west
from engine.rulesets.demyansk.zoc import forget
from engine.scenario.newgame import new_game

ROOT = Path(__file__).resolve().parent.parent
TRAPPED = ROOT / "scenarios" / "demyansk-1-trapped.toml"


def position(phase: str, turn: int, where: dict[str, str]):
    """Scenario I's rules with only the units of ``where`` on the map (the rest gone off it), at ``phase``."""
    game = new_game(TRAPPED, 1)
    rules = game.rules
    st = game.state.copy()
    for uid, u in st.units.items():
        if uid in where:
            u.hex, u.status = rules.board.parse_hex(where[uid]), ON_MAP
        else:
            u.hex, u.status = None, OFF_MAP
        u.moved = u.out_of_command = False
    st.turn, st.phase, st.battles, st.pending, st.resolving = turn, phase, [], [], False
    st.pocket_supplied, st.pocket_attack_limit = True, None
    forget(st)
    return rules, st


def open_clear_hex(rules, col_from: int = 3, col_to: int = 9):
    """A clear hex whose neighbours are all clear and on the map, with no river between (west of the pocket)."""
    m = rules.map
    for h in sorted(m.neighbors, key=lambda h: (h.q, h.r)):
        hid = m.hex_id(h)
        if not col_from <= int(hid[:2]) <= col_to or m.kinds[h] != {"clear"}:
            continue
        ns = hex_neighbors(h)
        if all(n in m.on_map and m.kinds.get(n) == {"clear"} and not m.crosses_river(n, h) for n in ns):
            return h
    raise AssertionError("no open clear hex on the map")


def play_phase_to_end(rules, st, choose):
    """Let ``choose`` act until the game is over; the final state."""
    for _ in range(500):
        if st.over:
            return st
        st, _ = rules.apply(st, choose(st))
    raise AssertionError("the game did not end")


def test_takes_a_free_six_to_one_that_wins_the_game():
    # Scenario I, last turn, Soviet combat: the one pocket unit left, the MP (1-2), stands linked to the west
    # edge (9.2: the German wins as things stand).  Three Soviet units beside it make 22 against 2: 6:1, where
    # no result can hurt the attacker, and the owner's chart (entered earlier in this game) gives DE on 4-6.
    rules, _ = position("soviet-combat", 10, {})
    p = open_clear_hex(rules)
    ring = hex_neighbors(p)
    attackers = ("sov-7gd", "sov-rb-14", "sov-rb-127")
    for k in range(6):
        where = {"ger-mp": rules.map.hex_id(p)}
        where.update({a: rules.map.hex_id(ring[(k + i) % 6]) for i, a in enumerate(attackers)})
        rules, st = position("soviet-combat", 10, where)
        if linked_to_west(rules, st, p):
            break
    else:
        raise AssertionError("no placement leaves the MP linked")
    for die in (4, 5, 6):
        st.charts.put(CRT, ("6-1", str(die)), "DE")
    assert corridor(rules, st)[0] == 0                    # linked now: the German would win as things stand
    bot = StrongDemyansk("soviet")
    first = bot.choose(rules, st)
    assert isinstance(first, A.Declare) and first.defender == "ger-mp"
    assert set(first.attackers) <= set(attackers)           # the fewest units that make 6:1 (15 against 2)
    assert rules.odds(st, "ger-mp", first.attackers).column == 6
    assert bot.last_reason.startswith("6:1, expected gain") and bot.last_reason.endswith("may cut the open line")
    # then it resolves it; on a 4 the MP is destroyed and the Soviet wins at the end of the turn
    st, _ = rules.apply(st, first)
    assert bot.choose(rules, st) == A.Resolve("ger-mp")
    st.preset_dice = [4]
    st, _ = rules.apply(st, A.Resolve("ger-mp"))
    assert st.units["ger-mp"].status == ELIMINATED
    end = play_phase_to_end(rules, st, strong_for(rules, "soviet"))
    assert rules.outcome(end).winner == "soviet"


def test_does_not_attack_at_one_to_one_into_a_city_with_nothing_to_gain():
    # German combat: a Soviet naval brigade (5-2) holds Staraya Russa (0706: a city, doubled, ignores DR, 6.3);
    # the only German unit beside it is a 5-5 regiment: 5 against 4, 1:1.  An EX costs the regiment too
    # (its 5 is at least the defence of 4), an AR only pushes it back, no DR counts in the city: nothing to gain.
    rules, st = position("german-combat", 4, {"sov-nb-42": "0706", "ger-329-551": "0707"})
    assert rules.map.board.parse_hex("0706") in rules.map.cities
    legal = [a for a in rules.legal_actions(st) if isinstance(a, A.Declare)]
    assert [a.text() for a in legal] == ["attack sov-nb-42 by ger-329-551"]
    assert rules.odds(st, "sov-nb-42", ("ger-329-551",)).column == 1
    bot = StrongDemyansk("german")
    gain, _ = bot.battle_gain(rules, st, legal[0])
    assert gain < 0
    assert bot.choose(rules, st) == A.EndPhase()


def test_does_not_attack_at_one_to_one_into_a_fortification_with_nothing_to_gain():
    # Soviet combat: a German 4-4 regiment in a fortification of the pocket's perimeter (doubled, 6.2) and the
    # Guards 8-10 beside it: 8 against 8, 1:1; an EX destroys both, the Guards worth more.  Another pocket
    # regiment stands linked to the west far away, so the regiment in the fortification decides nothing.
    rules, _ = position("soviet-combat", 3, {})
    fort = sorted(rules.map.forts, key=lambda h: (h.q, h.r))[0]
    beside = next(n for n in rules.map.neighbors[fort] if rules.map.kinds[n] == {"clear"})
    rules, st = position("soviet-combat", 3, {"ger-12-27": rules.map.hex_id(fort), "sov-7gd": rules.map.hex_id(beside),
                                              "ger-12-48": "0305"})
    assert corridor(rules, st)[0] == 0
    odds = rules.odds(st, "ger-12-27", ("sov-7gd",))
    assert odds.column == 1 and odds.defense == 8
    bot = StrongDemyansk("soviet")
    assert bot.choose(rules, st) == A.EndPhase()


def test_the_soviet_shuts_an_open_corridor_to_the_pocket_before_any_other_move():
    # Scenario I, Soviet movement: the pocket's last unit, the MP, has two Soviet units beside it (at two of
    # its neighbours with one between), so only the far side stays free of their zones of control and the
    # pocket is linked to the west through it.  A third Soviet unit three hexes out can step into that gap.
    rules, _ = position("soviet-movement", 5, {})
    p = open_clear_hex(rules, 4, 9)
    ring = hex_neighbors(p)
    gap = ring[4]
    outward = [n for n in hex_neighbors(gap) if hex_distance(n, p) == 2]
    far = [n for n in hex_neighbors(outward[0]) if hex_distance(n, p) == 3]
    hid = rules.map.hex_id
    where = {"ger-mp": hid(p), "sov-7gd": hid(ring[0]), "sov-rb-14": hid(ring[2]), "sov-rb-127": hid(far[0])}
    rules, st = position("soviet-movement", 5, where)
    assert corridor(rules, st)[0] == 0                    # linked through the free side
    bot = StrongDemyansk("soviet")
    move = bot.choose(rules, st)
    assert isinstance(move, A.Move) and move.unit == "sov-rb-127"
    after, _ = rules.apply(st, move)
    assert corridor(rules, after)[0] > 0                   # the pocket is cut off again
    assert bot.last_reason == "shuts the corridor to the pocket"


def test_the_evaluation_prefers_the_pocket_linked_and_its_side_stronger():
    rules, st = position("german-movement", 5, {"ger-12-27": "0305"})
    linked = evaluate(rules, st, "german")
    assert evaluate(rules, st, "soviet") == -linked
    ring = [rules.map.hex_id(n) for n in hex_neighbors(rules.board.parse_hex("0305"))]
    soviets = ["sov-7gd", "sov-23", "sov-33", "sov-26", "sov-130", "sov-170"]
    rules, cut = position("german-movement", 5, {"ger-12-27": "0305", **dict(zip(soviets, ring))})
    assert corridor(rules, cut)[0] > 0 and evaluate(rules, cut, "german") < linked


def test_wilson_interval():
    lo, hi = wilson(75, 100)
    assert round(lo, 3) == 0.657 and round(hi, 3) == 0.825
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_a_strong_game_is_legal_to_the_end_and_replays_by_hash():
    r = play_game(str(TRAPPED), 3, {"german": "strong", "soviet": "baseline"})
    assert r.winner in ("german", "soviet") and r.turns == 10 and r.phase_seconds["strong"]
    summary = summarise(str(TRAPPED), ("strong", "baseline"), [r], ["german", "soviet"])
    assert summary["players"]["strong"]["as german"]["games"] == 1
    assert summary["sides"][r.winner]["wins"] == 1


def test_a_saved_game_names_the_strong_player_and_its_options(tmp_path):
    from engine.computer import ComputerSides
    from engine.errors import BadFile

    ok = ComputerSides.from_save("g.toml", {"computer": {"sides": ["soviet"], "bot": "strong",
                                                        "options": {"budget": 2}}}, "demyansk", 0)
    assert ok.bot == "strong" and ok.options == {"budget": 2}
    with pytest.raises(BadFile) as e:
        ComputerSides.from_save("g.toml", {"computer": {"sides": ["blue"], "bot": "strong"}}, "free", 0)
    assert [p.key for p in e.value.problems] == ["computer.bot"] and "'baseline'" in str(e.value)


def _corridor_by_hexes(rules, st):
    """The corridor search as first written, on the engine's hex sets with one heap of (cost, hex number) pairs:
    the numbered-map version must give the same cost and the same hexes."""
    import heapq

    from engine.rulesets.demyansk.zoc import side_hexes, zoc

    hexes = sorted((h for h in rules.map.neighbors if h not in rules.map.prohibited), key=lambda h: (h.q, h.r))
    idx = {h: i for i, h in enumerate(hexes)}
    nb = [[idx[n] for n in rules.map.neighbors[h] if n in idx] for h in hexes]
    west = sorted(idx[h] for h in rules.map.edges["west"] if h in idx)
    pockets = {idx[st.units[u].hex] for u in rules.pocket_units if st.units[u].status == ON_MAP}
    if not pockets:
        return 999, []
    cost = [0] * len(hexes)
    for h in zoc(rules, st, "soviet"):
        if h in idx:
            cost[idx[h]] = 1
    for h in side_hexes(rules, st, "soviet"):
        cost[idx[h]] = 3
    for i in pockets:
        cost[i] = 0
    dist, prev = [1 << 30] * len(hexes), [-1] * len(hexes)
    for i in west:
        dist[i] = cost[i]
    heap = [(dist[i], i) for i in west]
    heapq.heapify(heap)
    while heap:
        d, i = heapq.heappop(heap)
        if d != dist[i]:
            continue
        if i in pockets:
            path = [i]
            while prev[path[-1]] >= 0:
                path.append(prev[path[-1]])
            return d, [hexes[j] for j in reversed(path)]
        for n in nb[i]:
            if d + cost[n] < dist[n]:
                dist[n], prev[n] = d + cost[n], i
                heapq.heappush(heap, (d + cost[n], n))
    return 999, []


@pytest.mark.parametrize("scenario", ["demyansk-1-trapped.toml", "demyansk-2-campaign.toml"])
def test_the_numbered_map_gives_the_engines_evaluation_corridor_and_west_region(scenario):
    # Every 7th position of the first five turns of a game, the baseline German against the strong Soviet
    # (units destroyed, forts entered, the pocket cut and joined): the evaluation on the numbered map equals
    # the one on the engine's hex sets (9.3 points through victory_points), the corridor equals the first heap
    # search's, the west region supply.west_region's; in every third Soviet movement position the move found
    # to lengthen the corridor most (or to leave it dearest) is the one found by trying each move with the engine.
    from engine.computer import bot_for, side_to_act
    from engine.players.strong import _evaluate_slow, _longest_after, _view, fast_west_region
    from engine.rulesets.demyansk.supply import west_region

    game = new_game(ROOT / "scenarios" / scenario, 2)
    rules = game.rules
    bots = {"german": bot_for(rules, "german"), "soviet": strong_for(rules, "soviet")}
    checked, shut, values = 0, 0, set()
    for n in range(2000):
        if game.is_over() or game.state.turn > 5:
            break
        st = game.state
        if n % 7 == 0:
            fresh = st.copy()                        # no cache: each figure worked out from the positions
            for side in ("german", "soviet"):
                assert evaluate(rules, st, side) == _evaluate_slow(rules, fresh.copy(), side)
            got = corridor(rules, st)
            assert got == _corridor_by_hexes(rules, fresh.copy())
            values.add((got[0], evaluate(rules, st, "german")))
            assert fast_west_region(rules, fresh) == west_region(rules, fresh.copy())
            checked += 1
        gap, path = corridor(rules, st)
        if st.phase == "soviet-movement" and not st.pending and path and n % 3 == 0:
            # the Soviet move that lengthens the corridor most (above -1: the dearest move), each move tried
            # with the engine
            near = set(path).union(*(rules.map.neighbors[h] for h in path))
            moves = [a for a in rules.legal_actions(st) if isinstance(a, A.Move) and rules.hex(a.to) in near]
            longer = {a: _corridor_by_hexes(rules, rules.apply(st, a)[0])[0] for a in moves}
            for above in (gap, -1):
                best = None
                for a in moves:
                    if longer[a] > above and (best is None or (longer[a], best[1].text()) > (best[0], a.text())):
                        best = (longer[a], a)
                assert _longest_after(rules, st, _view(rules, st), above, path, moves) == best
                shut += best is not None
        game.play(bots[side_to_act(rules, st)](st))
    assert checked > 20 and len(values) > 10 and shut > 5


def test_the_strong_german_fills_a_fortification_the_engine_says_it_can_still_hold_before_ending_movement():
    # Demyansk 6.2: strong-strong seed 8 of scenario II once reached this German movement phase and ended it
    # with 2710 empty although ger-32-4 could still hold it; the engine refused the end and the game stopped
    from engine.game import replay
    campaign = ROOT / "scenarios" / "demyansk-2-campaign.toml"
    actions = (ROOT / "tests" / "data" / "demyansk-2-seed-8-garrison.txt").read_text().split("\n")
    game = new_game(campaign, 8)
    for text in [a for a in actions if a]:
        game.play(text)
    rules = game.rules
    assert game.state.phase == "german-movement" and "2710 is empty" in rules.garrison_shortfall(game.state)
    german = strong_for(rules, "german")
    turn = game.state.turn
    for _ in range(60):
        if game.state.phase != "german-movement":
            break
        game.play(german(game.state))                  # never refused: the end comes only once 6.2 allows it
    assert (game.state.turn, game.state.phase) != (turn, "german-movement")
    fort = rules.hex("2710")
    assert any(u.hex == fort and rules.specs[k].side == "german" for k, u in game.state.units.items()
               if u.status == ON_MAP)                     # held when the phase ended


def test_the_strong_german_never_moves_a_unit_the_garrison_needs_even_while_the_front_is_broken():
    # Demyansk 6.2: strong-strong seed 39 of scenario II reached this German movement phase of turn 8 (the front
    # broken) and moved ger-ir-368 out of 1715, which the garrison needed; the engine refused it and the game stopped
    campaign = ROOT / "scenarios" / "demyansk-2-campaign.toml"
    actions = [a for a in (ROOT / "tests" / "data" / "demyansk-2-seed-39-garrison.txt").read_text().split("\n") if a]
    game = new_game(campaign, 39)
    for text in actions:
        game.play(text)
    rules = game.rules
    assert (game.state.turn, game.state.phase) == (8, "german-movement")
    german = strong_for(rules, "german")
    for _ in range(80):
        if game.state.phase != "german-movement":
            break
        game.play(german(game.state))                  # every move legal, the garrison kept (6.2)
    assert game.state.phase != "german-movement"
