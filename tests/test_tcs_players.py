"""The TCS computer players (engine/players/tcs_player.py) in small positions of Black Wednesday 4 and Leros 3,
with the TEST chart books of tests/bw_book.py and tests/leros_book.py (made-up values, not the printed ones):
an Op Sheet written toward a victory hex, a fire at the best target, a move that breaches wire, each with its
reason; the players never read the enemy's Op Sheets; strong-strong play replays to the same hash."""
from __future__ import annotations

from pathlib import Path


from engine.computer import STRONG, bot_for, has_baseline, has_strong, players_for, side_to_act
from engine.game import Game
from engine.maps.hexes import hex_distance
from engine.players.tcs_player import TcsPlayer
from engine.rulesets.tcs import actions as A
from engine.rulesets.tcs import rules_for_path

from bw_book import SCENARIO as BW4, bw_memory
from leros_book import leros_memory

ROOT = Path(__file__).resolve().parent.parent
LEROS3 = ROOT / "scenarios" / "leros-3-night-melee.toml"


def bw_game(seed: int = 4) -> Game:
    rules = rules_for_path(BW4)
    g = Game(rules, seed, str(BW4))
    g.state = rules.initial_state(seed, memory=bw_memory())
    return g


def to_step(g: Game, step: str, side: str) -> None:
    for _ in range(400):
        st = g.state
        if st.pending:
            p = st.pending[0]
            g.play(f"choose {p['what']} {p['options'][0]}" if p["kind"] == "choice" else g.legal_actions()[0])
            continue
        if g.rules.current(st)[1:] == (step, side):
            return
        g.play("end")
    raise AssertionError(f"never reached {step} of {side}")


def test_the_tcs_has_a_baseline_and_a_strong_player_and_the_side_to_act_is_the_rules_own():
    assert has_baseline("tcs") and has_strong("tcs")
    assert players_for("tcs") == ["strong", "baseline", "random"]
    g = bw_game()
    assert side_to_act(g.rules, g.state) == g.rules.acting_side(g.state)


def test_a_formation_with_free_units_gets_an_op_sheet_toward_the_nearest_victory_hex_it_must_take():
    g = bw_game()
    to_step(g, "create", "soviet")
    st = g.state.copy()
    unit = "1-270-63Gd:1Co-P1"
    sheet = st.sheets[st.units[unit].sheet]
    for k in sheet.units:                    # the sheet's units freed: a formation with no orders
        st.units[k].sheet = ""
    del st.sheets[sheet.id]
    player = TcsPlayer("soviet")
    a = player.choose(g.rules, st)
    assert isinstance(a, A.NewSheet) and a.type == "attack" and a.formation == "63Gd"
    free = [k for k in g.rules.order if g.rules.specs[k].formation == "63Gd" and st.units[k].hex is not None
            and not st.units[k].sheet]
    assert set(a.units) == set(free)
    start = st.units[free[0]].hex
    goals = player.open_goals(g.rules, st)
    obj = g.rules.hex(a.objective[0])
    assert obj in g.rules.condition_hexes["kb50"] | g.rules.condition_hexes["bastion"]
    assert hex_distance(start, obj) == min(hex_distance(start, h) for h in goals)
    assert a.route[-1] == a.objective[0]
    assert f"toward {a.objective[0]}" in player.last_reason and "TCS 6.8" in player.last_reason
    g.rules.check_new_sheet(st, a, "soviet")         # the rules accept it


def test_the_fire_is_at_the_hex_with_the_most_enemy_units_the_firer_may_fire_at():
    g = bw_game()
    to_step(g, "action", "soviet")
    st = g.state
    player = TcsPlayer("soviet")
    a = player.choose(g.rules, st)
    assert isinstance(a, A.Fire) and a.kind == "area"
    legal = [x for x in g.legal_actions() if isinstance(x, A.Fire) and x.kind == "area"]
    assert a in legal

    def count(hid):
        h = g.rules.hex(hid)
        return sum(1 for k, u in st.units.items() if u.hex == h and g.rules.specs[k].side == "axis")
    assert count(a.target) == max(count(x.target) for x in legal if x.units == a.units)
    assert f"{count(a.target)} enemy units there" in player.last_reason


def test_the_strong_player_masses_the_fire_of_every_unit_in_range_of_its_target():
    g = bw_game()
    to_step(g, "action", "soviet")
    player = TcsPlayer("soviet", STRONG)
    a = player.choose(g.rules, g.state)
    assert isinstance(a, A.Fire) and len(a.units) > 1
    single = {x.units[0] for x in g.legal_actions() if isinstance(x, A.Fire) and x.kind == "area"
              and x.target == a.target}
    assert set(a.units) == single and "mass their fire" in player.last_reason
    g.play(a)                                        # the rules accept the massed fire


def test_the_players_never_read_the_enemys_op_sheets():
    g = bw_game()
    to_step(g, "action", "soviet")
    st = g.state

    class Sealed(dict):
        def __init__(self, d, side):
            super().__init__(d)
            self.side = side

        def get(self, k, default=None):
            v = dict.get(self, k, default)
            assert v is None or v.side == self.side, f"read the enemy's sheet {k}"
            return v

        def __getitem__(self, k):
            v = dict.__getitem__(self, k)
            assert v.side == self.side, f"read the enemy's sheet {k}"
            return v

        def values(self):
            raise AssertionError("listed every side's sheets")
    for level in ("baseline", STRONG):
        player = TcsPlayer("soviet", level)
        for _ in range(5):
            work = st.copy()
            work.sheets = Sealed(st.sheets, "soviet")
            a = player.choose(g.rules, work)
            assert a is not None
            st = g.rules.apply(st, a)[0] if not isinstance(a, A.End) else st


def test_a_unit_sent_across_wire_breaches_it_with_the_move_and_says_so():
    from engine.rulesets.tcs.games.black_wednesday_rules import breach_state

    g = bw_game()
    to_step(g, "action", "soviet")
    st = g.state
    rules = g.rules
    wire = [h for h in rules.board.hexes() if "wire" in rules.board.features_of(h)]
    assert wire, "Black Wednesday's map has wire hexes (BW 1.4)"
    # a Soviet rifle platoon with orders, in Move mode next to a wire hex, its objective beyond it
    uid = "1-270-63Gd:1Co-P1"
    for w in wire:
        if breach_state(st, rules, w) == "full" or rules.units_at(st, w):
            continue
        for n in rules.board.neighbors(w):
            if rules.units_at(st, n) or "wire" in rules.board.features_of(n):
                continue
            beyond = [b for b in rules.board.neighbors(w) if hex_distance(b, n) == 2]
            if not beyond:
                continue
            work = st.copy()
            work.units[uid].hex, work.units[uid].mode = n, "move"
            s = work.sheets[work.units[uid].sheet]
            s.objective, s.route = [beyond[0]], []
            try:
                rules.check_move(work, uid, w, "soviet")
            except Exception:
                continue
            player = TcsPlayer("soviet")
            player.moded[("fire", work.turn, work.step)] = {}
            for k, u in work.units.items():              # nothing else to do: the others have fired
                if rules.specs[k].side == "soviet" and k != uid:
                    u.fired, u.mode = True, "fire"
            a = player.choose(rules, work)
            if isinstance(a, A.Move) and a.unit == uid and rules.hex(a.to) == w:
                assert "Breach the wire" in player.last_reason and "BW 1.4b" in player.last_reason
                after = rules.apply(work, a)[0]
                while after.pending and after.pending[0].get("what") == "overwatch":
                    after = rules.apply(after, A.Choose("overwatch", "pass"))[0]
                # BW 1.4b: the move is the breach, the wire's marker goes up a level, all its MA spent
                assert breach_state(after, rules, w) in ("partial", "full") != breach_state(work, rules, w)
                assert after.units[uid].mp_used == rules.ma(after, uid)
                return
    raise AssertionError("no wire hex was breached")


def _play(g: Game, bots: dict, limit: int) -> None:
    for _ in range(limit):
        if g.is_over():
            return
        side = side_to_act(g.rules, g.state)
        g.play(bots[side](g.state))


def test_a_strong_strong_opening_of_black_wednesday_4_replays_to_the_same_hash():
    g = bw_game(7)
    bots = {s: bot_for(g.rules, s, bot=STRONG) for s in g.rules.side_ids}
    _play(g, bots, 420)                              # the set-up's placements (164) first, then the opening
    assert any(e.action.text().startswith("place ") for e in g.log)
    assert any(e.action.text().startswith("move ") for e in g.log)
    again = bw_game(7)                               # the same scenario, seed and book, the log replayed
    for text in g.actions_text():
        again.play(text)
    assert again.hash() == g.hash() and again.state.turn == g.state.turn


def test_a_strong_strong_game_of_leros_3_plays_to_its_end_and_replays_to_the_same_hash():
    rules = rules_for_path(LEROS3)
    g = Game(rules, 5, str(LEROS3))
    g.state = rules.initial_state(5, memory=leros_memory(rules))
    bots = {s: bot_for(rules, s, bot=STRONG) for s in rules.side_ids}
    _play(g, bots, 5000)
    assert g.is_over() and g.outcome().reason
    again = Game(rules, 5, str(LEROS3))
    again.state = rules.initial_state(5, memory=leros_memory(rules))
    for text in g.actions_text():
        again.play(text)
    assert again.hash() == g.hash()


def test_play_runs_leros_3_headless_with_the_strong_and_baseline_players_and_the_save_validates(tmp_path, capsys):
    import json

    from engine.cli import main
    from leros_book import write_book

    book = write_book(tmp_path)
    save = tmp_path / "leros3.toml"
    assert main(["play", str(LEROS3), "--bot", "german=strong,british=baseline", "--charts", str(book),
                 "--seed", "3", "--save", str(save), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["over"] and out["players"] == {"german": "strong", "british": "baseline"}
    assert main(["validate", str(save)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["play", str(LEROS3), "--bot", "german"]) == 1      # every side needs a player
    assert "headless TCS play needs a player for every side" in capsys.readouterr().err


def test_the_strong_player_sends_a_garrison_to_a_victory_hex_it_holds_empty_with_the_enemy_near():
    """Leros 5.2a: a feature is the side's that occupies or last passed through it, so an empty Mt. Meraviglia is
    lost to the first German who walks in; the strong British send the nearest units with orders to hold it (three
    with the enemy within 6 hexes), and leave the units attacking Mt. Appetici to their attack."""
    rules = rules_for_path(LEROS3)
    g = Game(rules, 5, str(LEROS3))
    g.state = rules.initial_state(5, memory=leros_memory(rules))
    to_step(g, "action", "british")
    st = g.state.copy()
    mera = rules.hex("B43.15")
    assert st.control.get(mera) == "british" and not rules.units_at(st, mera)
    st.units["2-Pio-1"].hex = rules.hex("B43.20")           # a German five hexes from the hill
    assert hex_distance(st.units["2-Pio-1"].hex, mera) == 5
    player = TcsPlayer("british", STRONG)
    guards = player._guards(rules, st)
    sent = sorted(k for k, h in guards.items() if h == mera)
    assert len(sent) == 3
    for k in sent:
        assert hex_distance(st.units[k].hex, mera) <= 10 and rules.has_orders(st, k)
        assert st.sheets[st.units[k].sheet].id != "B-ATT"       # the attack on Mt. Appetici keeps its units
        assert player._target(rules, st, k) == mera
    a = None
    for _ in range(60):                                        # its fires first, then the garrison's orders
        a = player.choose(rules, st)
        if isinstance(a, A.SetMode) and a.unit in sent:
            break
        st = rules.apply(st, a)[0]
        while st.pending:
            st = rules.apply(st, player.choose(rules, st))[0]
    assert isinstance(a, A.SetMode) and a.mode == "move"
    assert "to hold B43.15" in player.last_reason and "TCS 5.0" in player.last_reason
    baseline = TcsPlayer("british")
    assert baseline._target(rules, st, sent[0]) is None          # the baseline keeps its defence where it is


def test_the_strong_axis_sends_units_to_stand_in_el_bastion_and_the_strong_soviets_sweep_krasni_bor():
    """BW 4's victory: the Axis wins with a Spanish unit in El Bastion (the "bastion" condition denied) and 50 or
    more Krasni Bor hexes; the Soviets need fewer than 50 Axis hexes there (a hex is the side's that last
    occupied or passed through it: BW 5.0).  The strong Axis sends the nearest units with orders into El Bastion;
    the strong Soviets send each unit with attack orders to a different empty Axis hex to take nearby."""
    g = bw_game()
    rules = g.rules
    to_step(g, "action", "soviet")
    bastion = rules.condition_hexes["bastion"]
    axis = TcsPlayer("axis", STRONG)
    assert axis.must_occupy(rules) == set(bastion)
    st = g.state.copy()
    guards = axis._guards(rules, st)
    for h in bastion:
        sent = [k for k, x in guards.items() if x == h]
        assert sent, f"nobody sent to {rules.hid(h)}"
        for k in sent:
            assert rules.specs[k].side == "axis" and hex_distance(st.units[k].hex, h) <= 10
        assert axis._target(rules, st, sent[0]) == h
        assert "denies the enemy a victory condition" in axis._why_going(rules, st, sent[0], h)
    base = TcsPlayer("axis")._guards(rules, st)                  # the baseline: one unit to each, nothing more
    assert sorted(base.values()) == sorted(bastion) and all(h in bastion for h in base.values())
    soviet = TcsPlayer("soviet", STRONG)
    kb = rules.condition_hexes["kb50"]
    st = g.state.copy()
    unit = "1-270-63Gd:1Co-P1"
    u = st.units[unit]
    empty = sorted(h for h in kb if st.control.get(h) == "axis" and not rules.units_at(st, h))
    edge = next(h for h in empty if any(n not in kb and not rules.units_at(st, n) for n in rules.board.neighbors(h)))
    u.hex = next(n for n in rules.board.neighbors(edge) if n not in kb and not rules.units_at(st, n))
    tgt = soviet._target(rules, st, unit)
    assert tgt in kb and st.control.get(tgt) == "axis" and hex_distance(u.hex, tgt) == 1
    others = [k for k in rules.order if rules.specs[k].side == "soviet" and st.units[k].hex is not None
              and st.units[k].sheet and k != unit][:5]
    for k in others:                                  # a second unit beside it is sent to another hex
        st.units[k].hex = u.hex
        t2 = soviet._target(rules, st, k)
        assert t2 != tgt
    assert "one step in" in soviet._why_going(rules, st, unit, tgt)


def test_the_strong_player_assaults_with_every_unit_next_to_the_hex_together_and_says_so():
    """TCS 15.0: units in Move mode next to an enemy hex may assault it together.  Four Soviet platoons beside a
    Spanish hex: the strong player assaults with all four at once (its odds by firepower, 1.5 to 1 needed); the
    baseline weighs one unit at a time."""
    g = bw_game()
    rules = g.rules
    to_step(g, "action", "soviet")
    st = g.state.copy()
    target = st.units["7-II-262:P2"].hex
    attackers = [k for k in rules.order if st.units[k].sheet == "63Gd-released"
                 and "Co-P" in k][:4]
    spots = [n for n in rules.board.neighbors(target) if not rules.units_at(st, n)]
    assert len(attackers) == 4 and len(spots) >= 2
    for i, k in enumerate(attackers):
        u = st.units[k]
        u.hex, u.mode, u.fired, u.moved = spots[i % 2], "move", False, False
    for k, u in st.units.items():                   # nothing else to do this phase
        if rules.specs[k].side == "soviet" and k not in attackers:
            u.fired, u.mode = True, "fire"
    defenders = [k for k, u in st.units.items() if u.hex == target]
    player = TcsPlayer("soviet", STRONG)
    a = player.choose(rules, st)
    assert isinstance(a, A.Assault) and set(a.units) == set(attackers) and rules.hex(a.hex) == target, \
        (a.text(), player.last_reason, defenders)
    assert "4 units together" in player.last_reason and "TCS 15.0" in player.last_reason
    rules.check_assault(st, a, "soviet")
    b = TcsPlayer("soviet").choose(rules, st)
    assert not isinstance(b, A.Assault) or len(b.units) == 1, b.text()


def test_the_strong_player_keeps_an_attack_sheet_whose_objective_is_taken_while_hexes_to_take_lie_empty():
    """TCS 6.10 lets a side complete a sheet, and a new one waits on the Command Prep Table (6.9): completing the
    Guards' sheet once B45.18 was taken left them without orders for the rest of a game.  The strong player keeps
    the sheet while empty Krasni Bor hexes remain to take (its units go on to them) and completes it once none is
    left; the baseline completes it when its objective is taken (kept too, it left the strong Axis 7 wins and 3
    draws in 10 games instead of 10 wins)."""
    g = bw_game()
    rules = g.rules
    to_step(g, "review", "soviet")
    st = g.state.copy()
    s = st.sheets["63Gd-released"]
    for h in s.objective:
        st.control[h] = "soviet"
    assert any(a.text().startswith(f"complete {s.id}") for a in rules.legal_actions(st))
    base = TcsPlayer("soviet")
    a = base.choose(rules, st)
    assert a.text().startswith(f"complete {s.id}") and "its objective is taken" in base.last_reason
    strong = TcsPlayer("soviet", STRONG)
    b = strong.choose(rules, st)
    assert not b.text().startswith(f"complete {s.id}"), strong.last_reason
    unit = next(k for k in s.units if st.units[k].hex is not None)
    work = st.copy()
    work.units[unit].hex = s.objective[0]
    tgt = strong._target(rules, work, unit)
    assert tgt is not None and tgt in rules.condition_hexes["kb50"] and work.control.get(tgt) != "soviet"
    done = st.copy()                                  # every hex to take is the Soviets': the sheet is complete
    for h in strong.goals(rules)[0]:
        done.control[h] = "soviet"
    c = TcsPlayer("soviet", STRONG).choose(rules, done)
    assert c.text().startswith(f"complete {s.id}")
