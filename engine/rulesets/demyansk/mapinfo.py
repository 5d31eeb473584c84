"""What the Demyansk rules need to know about the board, worked out once per game."""
from __future__ import annotations

from engine.maps.board import Board
from engine.maps.hexes import Hex
from .tables import Tables

# Names the map file uses for the areas the rules refer to (a map may omit the
# edges: they are then the first/last columns and rows of the sheets).
POCKET_AREA = "pocket"
EDGE_AREAS = {"west": "west-edge", "east": "east-edge", "north": "north-edge", "south": "south-edge"}


class MapInfo:
    """Neighbours, terrain, costs, rivers, edges, fortifications and the pocket of one board."""

    def __init__(self, board: Board, tables: Tables):
        self.board = board
        self.tables = tables
        self.hexes: list[Hex] = board.hexes()
        on = set(self.hexes)
        self.on_map = on
        self.neighbors: dict[Hex, tuple[Hex, ...]] = {h: tuple(board.neighbors(h)) for h in self.hexes}
        self.kinds: dict[Hex, frozenset[str]] = {}
        for h in self.hexes:
            kinds = set(board.features_of(h))
            t = board.terrain_of(h)
            kinds.add(t if t else "clear")
            self.kinds[h] = frozenset(k for k in kinds if k in tables.terrain or k == "clear")
        self.river: set = {side for side, feats in board.hexsides.items() if "river" in feats}
        self.river_pairs: set[tuple[Hex, Hex]] = {(s.a, s.b) for s in self.river} | {(s.b, s.a) for s in self.river}
        self.forts = frozenset(h for h in self.hexes if "fortification" in self.kinds[h])
        self.cities = frozenset(h for h in self.hexes if "city" in self.kinds[h])
        self.airfields = frozenset(h for h in self.hexes if "airfield" in self.kinds[h])
        self.prohibited = frozenset(h for h in self.hexes
                                    if any(tables.terrain.get(k, {}).get("prohibited") for k in self.kinds[h]))
        self.edges = {name: self._edge(name) for name in EDGE_AREAS}
        area = board.areas.get(POCKET_AREA)
        self.pocket: frozenset[Hex] = frozenset(area.hexes) if area else frozenset()
        self.west_of_pocket = self._west_of(self.pocket)
        self.mp = {h: self._terrain_mp(h, False) for h in self.hexes}
        self.mp_light = {h: self._terrain_mp(h, True) for h in self.hexes}
        self._ids: dict[Hex, str] = {}

    def _west_of(self, area: frozenset[Hex]) -> frozenset[Hex]:
        """Hexes left of an area's westernmost hex in their row (9.3 special rule 2)."""
        if not area or not self.board.sheets:
            return frozenset()
        ns = self.board.sheets[0].numbering
        first: dict[int, int] = {}
        for h in area:
            col, row = ns.hex_to_colrow(h)
            first[row] = min(first.get(row, col), col)
        default = min(first.values())
        out = set()
        for h in self.hexes:
            col, row = ns.hex_to_colrow(h)
            if col < first.get(row, default):
                out.add(h)
        return frozenset(out)

    def _edge(self, name: str) -> frozenset[Hex]:
        area = self.board.areas.get(EDGE_AREAS[name])
        if area and area.hexes:
            return frozenset(area.hexes)
        out = set()
        for sh in self.board.sheets:
            ns = sh.numbering
            for h in ns.hexes():
                col, row = ns.hex_to_colrow(h)
                if ((name == "west" and col == ns.first_col) or (name == "east" and col == ns.first_col + ns.cols - 1)
                        or (name == "north" and row == ns.top_row)
                        or (name == "south" and row == ns.bottom_row)):
                    out.add(h)
        return frozenset(out)

    def hex_id(self, h: Hex) -> str:
        s = self._ids.get(h)
        if s is None:
            s = self._ids[h] = self.board.hex_id(h)
        return s

    def terrain_mp(self, h: Hex, light_infantry: bool = False) -> int:
        """MP to enter a hex (5, TEC): the dearest of its terrain; 8.3 light infantry pay 1 for woods."""
        return (self.mp_light if light_infantry else self.mp)[h]

    def _terrain_mp(self, h: Hex, light_infantry: bool) -> int:
        cost = 1
        for k in self.kinds[h]:
            mp = self.tables.terrain.get(k, {}).get("mp", 1)
            if k == "woods" and light_infantry:
                mp = 1
            cost = max(cost, mp)
        return cost

    def crosses_river(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self.river_pairs

    def terrain_name(self, h: Hex) -> str:
        return "/".join(sorted(self.kinds[h]))
