"""Small Demyansk boards built in code for the rules tests, and checks of the boards themselves."""
from __future__ import annotations

from engine.maps.board import Area, Board, Sheet
from engine.game import Game
from engine.maps.hexes import hexside
from engine.maps.numbering import NumberingScheme
from engine.rulesets.demyansk import DemyanskRules, UnitSpec

COLS, ROWS = 10, 8


def board(terrain: dict[str, str] | None = None, rivers: list[tuple[str, str]] = (), features=None,
          pocket: list[str] | None = None, cols: int = COLS, rows: int = ROWS) -> Board:
    """A flat-top board of ``cols`` x ``rows`` clear hexes numbered ``0101``.., with the terrain given."""
    ns = NumberingScheme(style="classic", cols=cols, rows=rows)
    b = Board(name="test", sheets=[Sheet("A", ns)])
    for h in b.hexes():
        b.terrain[h] = "clear"
    for hid, t in (terrain or {}).items():
        b.terrain[b.parse_hex(hid)] = t
    for hid, feats in (features or {}).items():
        b.features[b.parse_hex(hid)] = set(feats)
    for a, c in rivers:
        b.hexsides.setdefault(hexside(b.parse_hex(a), b.parse_hex(c)), set()).add("river")
    if pocket:
        b.areas["pocket"] = Area("pocket", "area", {b.parse_hex(h) for h in pocket})
    return b


def unit(uid: str, side: str, values: str, at: str | None = None, type: str = "infantry", **kw) -> UnitSpec:
    """A counter like ``unit("g1", "german", "4-4-8", "0505")``."""
    a, d, m = (int(x) for x in values.split("-"))
    return UnitSpec(uid, side, type, a, d, m, setup=at, **kw)


def rules(units, turns: int = 10, **kw) -> DemyanskRules:
    b = kw.pop("board", None) or board()
    return DemyanskRules(b, list(units), turns, **kw)


def state_in(r: DemyanskRules, phase: str, dice=(), turn: int = 1, seed: int = 1):
    """A fresh state moved to a phase of a turn, with dice entered at the table."""
    st = r.initial_state(seed, list(dice))
    st.turn = turn
    st.phase = phase
    r._begin_phase(st, [])
    return st


def hexes(r: DemyanskRules, hs) -> list[str]:
    return sorted(r.map.hex_id(h) for h in hs)


def test_small_board_has_its_edges_and_terrain():
    b = board({"0303": "woods"}, rivers=[("0303", "0304")], pocket=["0505"])
    r = rules([unit("g", "german", "1-1-1", "0101")], board=b)
    assert len(r.map.hexes) == COLS * ROWS
    assert hexes(r, r.map.edges["west"]) == [f"01{row:02d}" for row in range(1, ROWS + 1)]
    assert hexes(r, r.map.edges["north"]) == [f"{c:02d}01" for c in range(1, COLS + 1)]
    assert r.map.terrain_mp(b.parse_hex("0303")) == 2
    assert r.map.crosses_river(b.parse_hex("0304"), b.parse_hex("0303"))


def test_a_game_starts_in_the_german_reinforcement_phase_of_turn_1():
    r = rules([unit("g", "german", "1-1-1", "0101")])
    g = Game(r, seed=3)
    assert (g.state.turn, g.state.phase) == (1, "german-reinforcement")
