"""Terrain effects, movement costs, visibility, spotting and line of sight for the TCS.

Every number comes from a chart slot (the Terrain Effects Chart, the Spotting
Range Table, the Turn Record and Weather Tracks, the counter manifest) through
the game's chart memory; line of sight is the engine's own (engine/los) with
the TCS heights of the terrain slot and the markers on the map.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from ...los.rules import DEFAULT_LOS_RULES, KindRule
from ...los.query import sight_map
from ...los.viewshed import viewshed
from ...maps.hexes import Hex, hex_distance
from .proc import chart_value

MOBILITIES = ("foot", "tracked", "wheeled")
SPOTTING_SLOTS = ("tcs.terrain.spotting", "tcs.spotting_range", "tcs.turn_visibility", "tcs.weather_visibility")
LINES_KEPT = 400_000                # sight lines Sight remembers at most (about 40 MB)


def terrain_key(board, h: Hex) -> str:
    return board.terrain.get(h) or "clear"


def counter(rules, st, slot: str, uid: str):
    """A counter value of a unit's type from the manifest (None while blank)."""
    return chart_value(rules, st, f"tcs.counter.{slot}", (rules.specs[uid].type,))


def movement_cost(rules, st, uid: str, frm: Hex, to: Hex) -> tuple[Fraction | None, str]:
    """MPs to enter ``to`` from ``frm`` (TCS 5.0, Terrain Effects Chart); None and the reason if prohibited."""
    mob = None
    if rules.game is not None and hasattr(rules.game, "mobility"):      # BW 1.11a: towed guns move on Foot MPs
        mob = rules.game.mobility(rules, uid)
    mob = mob or counter(rules, st, "mobility", uid) or "foot"
    road = rules.board.has_link("road", frm, to)
    key = "road" if road else terrain_key(rules.board, to)
    v = chart_value(rules, st, "tcs.terrain.move", (key, mob))
    if v is None:
        return None, f"the Terrain Effects Chart has no {mob} cost for {key} yet"
    if v == "P":
        return None, f"TCS 5.0: {key} is prohibited terrain for {mob} units (Terrain Effects Chart)"
    return Fraction(v).limit_denominator(3), ""


def visibility(rules, st) -> int:
    """The lesser of the Turn Record Track's and the Weather Track's limits (BW 1.8)."""
    kind = rules.turns[st.turn].kind
    a = chart_value(rules, st, "tcs.turn_visibility", (kind,)) or 60
    b = chart_value(rules, st, "tcs.weather_visibility", (st.weather,)) or 60
    return min(int(a), int(b))


def spotting_range(rules, st, uid: str, at: Hex | None = None) -> int:
    """How far a unit is spotted (Spotting Range Table), within visibility; illum lights the night (TCS 18.0)."""
    h = at if at is not None else st.units[uid].hex
    cls = chart_value(rules, st, "tcs.terrain.spotting", (terrain_key(rules.board, h),)) or "non-open"
    rng = chart_value(rules, st, "tcs.spotting_range", (cls, "vehicle" if rules.specs[uid].vehicle else "non-vehicle")) or 1
    vis = visibility(rules, st)
    if rules.turns[st.turn].kind != "day" and any(m.kind == "illum" and hex_distance(m.hex, h) <= rules.options["illum_radius"]
                                                  for m in st.markers):
        vis = int(chart_value(rules, st, "tcs.turn_visibility", ("day",)) or vis)
    return max(1, min(int(rng), vis))


def spotting_ranges(rules, st, placed) -> dict[str, int]:
    """``spotting_range`` of each (unit, hex) in ``placed`` at once: the same values, each chart cell read once
    per terrain, vehicle class and lighting rather than once per unit."""
    vis = visibility(rules, st)
    night = rules.turns[st.turn].kind != "day"
    illums = [m.hex for m in st.markers if m.kind == "illum"] if night else []
    radius = rules.options["illum_radius"] if illums else 0
    memo: dict = {}
    out = {}
    for uid, h in placed:
        lit = bool(illums) and any(hex_distance(m, h) <= radius for m in illums)
        key = (terrain_key(rules.board, h), rules.specs[uid].vehicle, lit)
        r = memo.get(key)
        if r is None:
            cls = chart_value(rules, st, "tcs.terrain.spotting", (key[0],)) or "non-open"
            rng = chart_value(rules, st, "tcs.spotting_range", (cls, "vehicle" if key[1] else "non-vehicle")) or 1
            v = int(chart_value(rules, st, "tcs.turn_visibility", ("day",)) or vis) if lit else vis
            r = memo[key] = max(1, min(int(rng), v))
        out[uid] = r
    return out


class Sight:
    """Line of sight on the board with the TCS heights the game knows, and the markers that block it."""

    def __init__(self, rules):
        self.rules = rules
        self._maps: dict = {}
        self.spot_cache: dict = {}
        # (heights, markers, observer hex) -> {target hex: clear?}: a sight line is judged once per map state
        # (the viewshed judges each line on its own, so a remembered line is the same as a recomputed one)
        self._lines: dict = {}
        self._judged = 0                     # lines remembered in _lines
        self.views: dict = {}                # enemy_view's views, by what they depend on
        self.view_ids = itertools.count(1)

    def heights(self, st) -> tuple:
        """(kind, height) of everything that may block sight, as the game knows them now."""
        memo = self.rules.scope_memo(st)
        if memo is not None and "heights" in memo:
            return memo["heights"]
        out = tuple(sorted((t, chart_value(self.rules, st, "tcs.terrain.height", (t,)) or 0)
                           for t in self.rules.los_kinds))
        if memo is not None:
            memo["heights"] = out
        return out

    def sight_map(self, st, heights: tuple | None = None):
        heights = heights if heights is not None else self.heights(st)
        sm = self._maps.get(heights)
        if sm is None:
            base = self.rules.los_base or DEFAULT_LOS_RULES
            kinds = dict(base.kinds)
            for t, hgt in heights:
                if not (t in kinds and (kinds[t].protective or kinds[t].always)):
                    kinds[t] = KindRule(float(hgt), rule="Terrain Effects Chart")
            kinds["smoke"] = KindRule(always=True, rule="TCS 18.0 smoke")
            kinds["barrage"] = KindRule(always=True, rule="TCS 18.0 attack zone")
            los = base.with_options(kinds=kinds)
            sm = self._maps[heights] = sight_map(self.rules.board, los)
        return sm

    def markers(self, st) -> dict:
        out: dict = {}
        zones_block = self.rules.options["attack_zones_block_los"] and \
            st.weather not in self.rules.options["no_zone_block_weather"]
        for m in st.markers:
            if m.kind == "smoke":
                for h in m.zone:
                    out.setdefault(h, []).append("smoke")
            elif m.kind == "he" and zones_block:
                for h in m.zone:
                    out.setdefault(h, []).append("barrage")
        return out

    def visible_from(self, st, frm: Hex, targets: list[Hex], limit: int) -> set[Hex]:
        """Which of ``targets`` have a clear line of sight from ``frm`` within ``limit`` hexes (one vectorised pass
        over the lines not judged before in the same heights and markers)."""
        if not targets:
            return set()
        near = [h for h in targets if hex_distance(frm, h) <= limit]
        if not near:
            return set()
        out = {h for h in near if h == frm}
        others = [h for h in near if h != frm]
        if others:
            heights = self.heights(st)
            marks = self.markers(st)
            key = (heights, tuple(sorted((h, tuple(v)) for h, v in marks.items())), frm)
            known = self._lines.get(key)
            if known is None:
                known = self._lines[key] = {}
            todo = list(dict.fromkeys(h for h in others if h not in known))
            if todo:
                self._judged += len(todo)
                if self._judged > LINES_KEPT:       # forget them all (a bound on memory, not on results)
                    self._lines.clear()
                    known = self._lines[key] = {}
                    todo = list(dict.fromkeys(others))
                    self._judged = len(todo)
                vs = viewshed(self.sight_map(st, heights), frm, markers=marks or None, visibility_limit=limit,
                              targets=todo)
                for h in todo:
                    known[h] = h in vs.visible
            out |= {h for h in others if known[h]}
        return out


def spotters(rules, st, target: str, at: Hex, side: str, candidates: list[str] | None = None) -> list[str]:
    """Units of ``side`` that spot unit ``target`` standing in ``at`` (range, visibility and LOS, TCS 11.0)."""
    rng = spotting_range(rules, st, target, at)
    pool = candidates if candidates is not None else [u for u, s in st.units.items()
                                                      if s.hex is not None and rules.specs[u].side == side]
    pool = [u for u in pool if hex_distance(st.units[u].hex, at) <= rng]
    if not pool:
        return []
    seen = rules.sight.visible_from(st, at, list({st.units[u].hex for u in pool}), rng)
    return [u for u in pool if st.units[u].hex in seen]


def enemy_hexes(rules, st, side: str) -> list[Hex]:
    return sorted({u.hex for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != side})


def enemy_view(rules, st, side: str) -> tuple:
    """What every observer of ``side`` looks at now: ``(id, farthest range, enemy hexes, hex -> range)``, the
    range of a hex the longest spotting range of the enemy units in it.  The same enemies, markers, turn,
    weather, heights and spotting cells give the same view (and id) again; inside one listing it is built once
    per side."""
    memo = rules.scope_memo(st)
    view = memo.get(("view", side)) if memo is not None else None
    if view is not None:
        return view
    enemies = tuple(sorted((k, u.hex) for k, u in st.units.items() if u.hex is not None and rules.specs[k].side != side))
    sight = rules.sight
    # everything a spotted set depends on, by value (games played one after another share these caches, and
    # their chart answers differ)
    cells = st.memory.cells
    ctx = (enemies, tuple((m.kind, m.hex, tuple(m.zone), m.level) for m in st.markers), st.turn, st.weather,
           sight.heights(st), tuple(tuple(sorted(cells.get(slot, {}).items())) for slot in SPOTTING_SLOTS))
    view = sight.views.get(ctx)
    if view is None:
        if len(sight.views) > 256:
            sight.views.clear()
        ranges = spotting_ranges(rules, st, enemies)
        at_most: dict = {}                # hex -> the longest range any enemy unit in it is spotted at
        for k, h in enemies:
            at_most[h] = max(at_most.get(h, 0), ranges[k])
        view = sight.views[ctx] = (next(sight.view_ids), max(ranges.values(), default=0), sorted(at_most), at_most)
    if memo is not None:
        memo["view", side] = view
    return view


def spotted_hexes(rules, st, side: str, observer: str) -> set[Hex]:
    """Hexes holding an enemy unit that ``observer`` spots (one vectorised sight pass; remembered per position)."""
    o = st.units[observer].hex
    vid, far, hexes, at_most = enemy_view(rules, st, side)
    key = (o, vid)
    cache = rules.sight.spot_cache
    if key in cache:
        return cache[key]
    seen = rules.sight.visible_from(st, o, hexes, far) if far else set()
    out = {h for h in seen if hex_distance(o, h) <= at_most[h]}
    if len(cache) > 4096:
        cache.clear()
    cache[key] = out
    return out


__all__ = ["MOBILITIES", "Sight", "counter", "enemy_hexes", "enemy_view", "movement_cost", "spotted_hexes", "spotters",
           "spotting_range", "spotting_ranges", "terrain_key", "visibility"]
