"""Benchmark: the TCS engine: the spotting and overwatch check of one move, a Command Phase, a random game.

``move_check_ms``: one unit moves one hex on a two-sheet map of 63 x 36 hexes a
sheet (4,536 hexes) with 60 enemy units in range; the check finds every enemy
unit that spots it and may fire overwatch (range, spotting range, visibility and
line of sight through the engine's vectorised viewshed).  ``command_phase_ms``: a
whole Command Phase with 12 Op Sheets rolling for implementation.  ``playout_s``:
a random game of the test scenario (the random player: every action and prompt answered at random).
"""
from __future__ import annotations

import random
import statistics
from pathlib import Path

import numpy as np

from ..charts import ChartMemory
from ..game import Game
from ..maps.board import Board
from ..maps.hexes import FLAT, hex_distance
from ..maps.tcs_sample import sheets
from ..rulesets.tcs import rules_for_path
from ..players.random import play_random
from ..rulesets.tcs.rules import TcsRules
from ..rulesets.tcs.scenario import (DEFAULT_OPTIONS, FormationSpec, SheetSpec, SideSpec, TcsScenario, UnitSpec)
from . import median_ms

DEFAULT_REPEAT = 9
SCENARIO = Path(__file__).resolve().parent.parent.parent / "scenarios" / "tcs-test.toml"


def big_board(seed: int = 7) -> Board:
    """Two 63 x 36 sheets with woods, villages and rolling ground."""
    board = Board(name="TCS bench", orientation=FLAT, sheets=sheets(63, 36))
    rng = np.random.default_rng(seed)
    hexes = board.hexes()
    pick = rng.random(len(hexes))
    hills = [(hexes[i], float(rng.uniform(20, 80))) for i in rng.choice(len(hexes), 12, replace=False)]
    for h, p in zip(hexes, pick):
        board.terrain[h] = "woods" if p < 0.12 else "village" if p < 0.16 else "clear"
        board.elevation[h] = max([0.0] + [top - 10.0 * hex_distance(h, c) for c, top in hills])
    return board


def bench_rules(board: Board, enemies: int = 60, sheets_per_side: int = 6) -> tuple[TcsRules, list[str]]:
    centre = board.parse_hex("B10.18")
    near = [h for h in board.hexes() if 2 <= hex_distance(h, centre) <= 12]
    rng = random.Random(11)
    spots = rng.sample(near, enemies)
    units = [UnitSpec("mover", "red", "rifle", "B10.18", formation="R0", mode="move")]
    units += [UnitSpec(f"r{i}", "red", "rifle", board.hex_id(rng.choice(near)), formation=f"R{i % sheets_per_side}")
              for i in range(2 * sheets_per_side)]
    units += [UnitSpec(f"e{i}", "blue", "rifle", board.hex_id(h), formation=f"B{i % sheets_per_side}")
              for i, h in enumerate(spots)]
    forms = {f"{s}{i}": FormationSpec(f"{s}{i}", side, f"{s}{i}", 2, 2)
             for s, side in (("R", "red"), ("B", "blue")) for i in range(sheets_per_side)}
    sheet_specs = [SheetSpec("OS-mover", "red", "R0", "attack", ("mover",), ("B20.18",), implemented=True)]
    for s, side, pre in (("R", "red", "r"), ("B", "blue", "e")):
        for i in range(sheets_per_side):
            members = tuple(u.id for u in units if u.formation == f"{s}{i}" and u.id != "mover")[:3]
            sheet_specs.append(SheetSpec(f"{s}-{i}", side, f"{s}{i}", ("attack", "move", "hasty_defense")[i % 3],
                                         members, ("B20.18",), weighted_turns=10 + i))
    sc = TcsScenario("<bench>", "bench", "bench", "", "0620 10 Feb", "1740 10 Feb", 1943, "red", "clear",
                     frozenset(), {"red": SideSpec("red", "Red", "soviet", 4), "blue": SideSpec("blue", "Blue", "german", 3)},
                     forms, {}, units, sheet_specs, [], {}, [], [], {}, [], [], dict(DEFAULT_OPTIONS))
    sc.board = board
    return TcsRules(sc), [u.id for u in units]


def bench_memory() -> ChartMemory:
    m = ChartMemory()
    for slot, v in (("movement", 6), ("mobility", "foot"), ("range", 14), ("firepower", 3), ("morale", 4),
                    ("steps", 5), ("point_fire", 0)):
        m.put(f"tcs.counter.{slot}", ("rifle",), v)
    for t, h, c in (("clear", 0, "Open"), ("woods", 20, "Partly Protective"), ("village", 10, "Protective")):
        m.put("tcs.terrain.height", (t,), h)
        m.put("tcs.terrain.combat", (t,), c)
        m.put("tcs.terrain.spotting", (t,), "open" if t == "clear" else "non-open")
        m.put("tcs.terrain.move", (t, "foot"), "1")
    for c in ("open", "non-open"):
        for k in ("vehicle", "non-vehicle"):
            m.put("tcs.spotting_range", (c, k), 14)
    for k in ("day", "twilight", "night"):
        m.put("tcs.turn_visibility", (k,), 60)
    m.put("tcs.weather_visibility", ("clear",), 60)
    return m


def run(args) -> list[dict]:
    repeat = getattr(args, "repeat", None) or DEFAULT_REPEAT
    board = big_board()
    rules, _ids = bench_rules(board)
    st = rules.initial_state(1, memory=bench_memory())
    dest = board.parse_hex("B11.18")
    counts = []

    def move_check():
        rules.sight.spot_cache.clear()
        rules.check_move(st, "mover", dest, "red")
        counts.append(len(rules.overwatchers(st, "mover", dest)))

    rules.overwatchers(st, "mover", dest)        # builds the sight map once
    in_range = sum(1 for k, u in st.units.items() if k.startswith("e") and hex_distance(u.hex, dest) <= 14)
    row = {"bench": "tcs", "hexes": len(board.hexes()), "enemy_in_range": in_range,
           "move_check_ms": median_ms(move_check, repeat * 5), "overwatchers": counts[-1]}

    def command_phase():
        s = rules.initial_state(2, memory=bench_memory())
        g = Game(rules, 2)
        g.state = s
        while rules.current(g.state)[0] == "command":
            acts = [a for a in rules.legal_actions(g.state) if a.text().startswith("implement")]
            g.play(acts[0] if acts else "end")
    row["command_phase_ms"] = median_ms(command_phase, repeat)
    row["op_sheets"] = len(rules.scenario.op_sheets) - 1
    test_rules = rules_for_path(SCENARIO)
    seeds = iter(range(1000))
    actions = []

    def playout():
        seed = next(seeds)
        g = Game(test_rules, seed, str(SCENARIO))
        play_random(g, seed)
        actions.append(len(g.log))
    row["playout_s"] = round(median_ms(playout, max(3, repeat // 3)) / 1000.0, 3)
    row["playout_actions"] = statistics.median(actions)
    return [row]
