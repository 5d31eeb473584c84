"""Terrain effects, movement costs, visibility, spotting and line of sight for the TCS.

Every number comes from a chart slot (the Terrain Effects Chart, the Spotting
Range Table, the Turn Record and Weather Tracks, the counter manifest) through
the game's chart memory; line of sight is the engine's own (engine/los) with
the TCS heights of the terrain slot and the markers on the map.
"""
from __future__ import annotations

from fractions import Fraction

from ...los.rules import DEFAULT_LOS_RULES, KindRule
from ...los.query import sight_map
from ...los.viewshed import viewshed
from ...maps.hexes import Hex, hex_distance
from .proc import chart_value

MOBILITIES = ("foot", "tracked", "wheeled")


def terrain_key(board, h: Hex) -> str:
    return board.terrain.get(h) or "clear"


def counter(rules, st, slot: str, uid: str):
    """A counter value of a unit's type from the manifest (None while blank)."""
    return chart_value(rules, st, f"tcs.counter.{slot}", (rules.specs[uid].type,))


def movement_cost(rules, st, uid: str, frm: Hex, to: Hex) -> tuple[Fraction | None, str]:
    """MPs to enter ``to`` from ``frm`` (TCS 5.0, Terrain Effects Chart); None and the reason if prohibited."""
    mob = counter(rules, st, "mobility", uid) or "foot"
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


class Sight:
    """Line of sight on the board with the TCS heights the game knows, and the markers that block it."""

    def __init__(self, rules):
        self.rules = rules
        self._maps: dict = {}
        self.spot_cache: dict = {}

    def sight_map(self, st):
        heights = tuple(sorted((t, chart_value(self.rules, st, "tcs.terrain.height", (t,)) or 0)
                               for t in self.rules.los_kinds))
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
        """Which of ``targets`` have a clear line of sight from ``frm`` within ``limit`` hexes (one vectorised pass)."""
        if not targets:
            return set()
        near = [h for h in targets if hex_distance(frm, h) <= limit]
        if not near:
            return set()
        out = {h for h in near if h == frm}
        others = [h for h in near if h != frm]
        if others:
            vs = viewshed(self.sight_map(st), frm, markers=self.markers(st) or None, visibility_limit=limit,
                          targets=others)
            out |= set(vs.visible) & set(others)
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


def spotted_hexes(rules, st, side: str, observer: str) -> set[Hex]:
    """Hexes holding an enemy unit that ``observer`` spots (one vectorised sight pass; remembered per position)."""
    o = st.units[observer].hex
    enemies = tuple(sorted((k, u.hex) for k, u in st.units.items()
                           if u.hex is not None and rules.specs[k].side != side))
    key = (o, enemies, tuple((m.id, m.level) for m in st.markers), st.turn, st.weather,
           sum(len(c) for c in st.memory.cells.values()))
    cache = rules.sight.spot_cache
    if key in cache:
        return cache[key]
    ranges = {k: spotting_range(rules, st, k) for k, _h in enemies}
    far = max(ranges.values(), default=0)
    seen = rules.sight.visible_from(st, o, sorted({h for _k, h in enemies}), far) if far else set()
    out = {h for k, h in enemies if h in seen and hex_distance(o, h) <= ranges[k]}
    if len(cache) > 4096:
        cache.clear()
    cache[key] = out
    return out


__all__ = ["MOBILITIES", "Sight", "counter", "enemy_hexes", "movement_cost", "spotted_hexes", "spotters",
           "spotting_range", "terrain_key", "visibility"]
