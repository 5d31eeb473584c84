"""Zones of control (Demyansk 4): every unit controls its six neighbours, enemy-occupied ones too."""
from __future__ import annotations

from engine.maps.hexes import Hex
from .state import ON_MAP, State
from .units import GERMAN, SOVIET


def _cache(st: State) -> dict:
    c = st.__dict__.get("_cache")
    if c is None:
        c = st.__dict__["_cache"] = {}
    return c


def forget(st: State) -> None:
    """Drop what was worked out from the positions (call after any unit changes hex or status)."""
    st.__dict__.pop("_cache", None)


def occupants(st: State) -> dict[Hex, list[str]]:
    c = _cache(st)
    occ = c.get("occ")
    if occ is None:
        occ = c["occ"] = st.occupant_map()
    return occ


def side_hexes(rules, st: State, side: str) -> set[Hex]:
    """Hexes holding a unit of one side."""
    c = _cache(st)
    key = ("hexes", side)
    out = c.get(key)
    if out is None:
        out = c[key] = {u.hex for uid, u in st.units.items()
                        if u.status == ON_MAP and rules.specs[uid].side == side}
    return out


def zoc(rules, st: State, side: str, into_forts: bool = False) -> set[Hex]:
    """Hexes in the zone of control of ``side``'s units (4).

    Demyansk 6.2: Soviet zones of control do not extend into fortification
    hexes that no Soviet unit has entered; ``into_forts=True`` ignores that
    (used for German units that are not infantry, which 6.2 does not exempt).
    """
    c = _cache(st)
    key = ("zoc", side, into_forts)
    out = c.get(key)
    if out is None:
        nb = rules.map.neighbors
        out = set()
        for h in side_hexes(rules, st, side):
            out.update(nb[h])
        if side == SOVIET and not into_forts:
            lost = set(st.forts_lost)
            out -= {f for f in rules.map.forts if f not in lost}
        c[key] = out
    return out


def enemy_zoc_for(rules, st: State, uid: str) -> set[Hex]:
    """The enemy zone of control as it applies to one unit's movement (4, 5.2, 6.2)."""
    spec = rules.specs[uid]
    if spec.side == GERMAN:
        infantry = rules.is_infantry(uid)
        return zoc(rules, st, SOVIET, into_forts=not infantry)
    return zoc(rules, st, GERMAN)
