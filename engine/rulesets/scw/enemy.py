"""The solitaire opponent: where each machine gun lays its cone (SCW Contact 4), decided by the engine.

The decision is deterministic: a gun under LMG fire this turn holds on the
nearest LMG firing at it and returns that fire; otherwise it swings to the
nearest team that is moving (or has moved) this turn and that a cone can
reach, choosing among the bearings that hold that team the one that holds
the most teams, nearest the target's own bearing on a tie.
"""
from __future__ import annotations

import math

import numpy as np
import shapely

from ...game import Event
from .cone import aim, hmg_cone
from .data import load_tables


def gun_cone(gun: dict):
    """The polygon of a gun's cone as it is laid now."""
    h = load_tables()["hmg"]
    return hmg_cone(tuple(gun["at"]), gun["bearing"], h["length"], h["width"], h["apex_width"])


def active_guns(state: dict) -> list[dict]:
    """Guns that are revealed, firing (not silenced) and not captured, in id order."""
    return [g for _, g in sorted(state["guns"].items()) if not g["silenced"] and not g["captured"]]


def cones_holding(state: dict, at: tuple[float, float], radius: float) -> list[dict]:
    """The active guns whose cone touches a footprint at ``at`` (SCW Bomb and Bayonet 4: each cone counts)."""
    guns = active_guns(state)
    if not guns:
        return []
    cones = np.array([gun_cone(g) for g in guns], dtype=object)
    hit = shapely.dwithin(cones, shapely.Point(at), radius)
    return [g for g, h in zip(guns, hit) if h]


def lay(state: dict, gun: dict, candidates: list[str], radius: float, events: list, why: str) -> bool:
    """Lay ``gun`` on the nearest of the ``candidates`` teams a cone can reach; True if it was laid."""
    h = load_tables()["hmg"]
    alive = [t for _, t in sorted(state["teams"].items()) if t["alive"]]
    if not alive:
        return False
    pts = np.array([t["at"] for t in alive], dtype=float)
    gx, gy = gun["at"]
    order = sorted({c for c in candidates if state["teams"][c]["alive"]},
                   key=lambda c: (math.hypot(state["teams"][c]["at"][0] - gx, state["teams"][c]["at"][1] - gy), c))
    for tid in order:
        target = tuple(state["teams"][tid]["at"])
        bearing, held = aim((gx, gy), target, pts, radius, h["length"], h["width"], h["apex_width"])
        if held < 0:
            continue
        bearing = round(bearing, 6)
        if abs(((bearing - gun["bearing"] + 180.0) % 360.0) - 180.0) > 1e-6:
            events.append(Event("traverse", f"the gun at {gun['id']} {why}: it lays on {tid} "
                                            f"(bearing {bearing:.0f}, {held} teams in the cone)",
                                {"gun": gun["id"], "bearing": bearing, "target": tid, "held": held}))
        gun["bearing"] = bearing
        gun["target"] = tid
        return True
    return False


def react(state: dict, mover: str | None, radius: float, events: list) -> None:
    """Every firing gun lays its cone before a team moves (SCW Contact 4)."""
    for gun in active_guns(state):
        lmgs = [t for t in gun["lmg_fire"] if state["teams"][t]["alive"]]
        if lmgs:
            lay(state, gun, lmgs, radius, events, "holds and returns the LMG's fire")
            continue
        moving = list(state["moving"]) + ([mover] if mover else [])
        lay(state, gun, moving, radius, events, "swings to the nearest moving target")
