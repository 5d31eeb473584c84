"""What the classic rules need from the board, worked out once: neighbours, entry costs by class, hexsides, roads."""
from __future__ import annotations

from .config import Config


class MapInfo:
    """The board as the terrain effects chart reads it."""

    def __init__(self, board, cfg: Config):
        self.board = board
        self.hexes = board.hexes()
        self.on_map = set(self.hexes)
        self.neighbors = {h: tuple(board.neighbors(h)) for h in self.hexes}
        self.kinds = {}
        for h in self.hexes:
            ks = [board.terrain_of(h) or "clear"]
            ks += sorted(f for f in board.features_of(h) if f in cfg.terrain)
            self.kinds[h] = tuple(k for k in ks if k in cfg.terrain)
        self.cost: dict[str, dict] = {}
        self.prohibited: dict[str, frozenset] = {}
        for c in cfg.classes:
            cost, banned = {}, set()
            for h in self.hexes:
                rows = [cfg.terrain[k] for k in self.kinds[h]]
                if any(c in r.prohibited for r in rows):
                    banned.add(h)
                    continue
                cost[h] = max((r.mp.get(c, 0.0) for r in rows), default=1.0)
            self.cost[c], self.prohibited[c] = cost, frozenset(banned)
        # hexside features of the chart, both ways
        self.sides: dict[tuple, tuple] = {}
        for s, feats in board.hexsides.items():
            rows = tuple(cfg.hexside[f] for f in sorted(feats) if f in cfg.hexside)
            if rows:
                self.sides[(s.a, s.b)] = rows
                self.sides[(s.b, s.a)] = rows
        self.road: dict[str, dict[tuple, float]] = {c: {} for c in cfg.classes}
        for name, per_class in cfg.roads.items():
            for s in board.links.get(name, ()):
                for c, mp in per_class.items():
                    for pair in ((s.a, s.b), (s.b, s.a)):
                        old = self.road[c].get(pair)
                        self.road[c][pair] = mp if old is None else min(old, mp)
        self.no_zoc_into = frozenset(h for h in self.hexes if any(cfg.terrain[k].blocks_zoc for k in self.kinds[h]))
        self.no_zoc_across = frozenset(p for p, rows in self.sides.items() if any(r.blocks_zoc for r in rows))
        self._ids = {}
        # per class: each hex's neighbours with the MP to step into them (prohibited steps left out)
        self.edges: dict[str, dict] = {
            c: {h: tuple((n, x) for n in self.neighbors[h] for x in (self.step(c, h, n),) if x is not None)
                for h in self.hexes}
            for c in cfg.classes}
        # the same by hex number (the searches run on small integers: hashing hexes dominated their time)
        self.index = {h: i for i, h in enumerate(self.hexes)}
        # by hex number: the hexes a unit's zone of control reaches from each hex (not into terrain or across
        # hexsides that block it), worked out once for the map
        self.izoc = [tuple(self.index[n] for n in self.neighbors[h]
                           if n not in self.no_zoc_into and (h, n) not in self.no_zoc_across) for h in self.hexes]
        self.iedges = {c: [tuple((self.index[n], x) for n, x in e[h]) for h in self.hexes]
                       for c, e in self.edges.items()}

    def hex_id(self, h) -> str:
        s = self._ids.get(h)
        if s is None:
            s = self._ids[h] = self.board.hex_id(h)
        return s

    def step(self, cls: str, h, n) -> float | None:
        """MP to move from ``h`` into the adjacent ``n`` for a movement class; None when it may not (prohibited).

        Along a road the road's cost replaces the terrain's and the hexside's
        (a road crossing a river is a bridge: a choice, see docs/classic-rules.md).
        """
        if n in self.prohibited[cls]:
            return None
        road = self.road[cls].get((h, n))
        if road is not None:
            return road
        extra = 0.0
        for r in self.sides.get((h, n), ()):
            if cls in r.prohibited:
                return None
            extra += r.mp.get(cls, 0.0)
        return self.cost[cls][n] + extra


    def why_not(self, cls: str, h, n) -> str:
        """Why a step that ``step`` refuses is refused: the terrain entered, or the hexside crossed."""
        if n in self.prohibited[cls]:
            return f"{'/'.join(self.kinds[n])} is prohibited to {cls} units"
        banned = [r.name for r in self.sides.get((h, n), ()) if cls in r.prohibited]
        return f"crossing the {'/'.join(banned)} is prohibited to {cls} units"
