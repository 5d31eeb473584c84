"""The solitaire opponent: where each machine gun lays its cone (SCW Contact 4), decided by the engine.

The decision is deterministic.  A gun under LMG fire this turn holds on the
nearest LMG firing at it and returns that fire; once laid on it, it does not
move again ("it will not move") until the rules release it: the end of the
turn (LMG fire is a record of the turn) or the loss of that LMG team.
Otherwise it swings to the nearest team that is moving (or has moved) this
turn and that a cone can reach, choosing among the bearings that hold that
team the one that holds the most teams, nearest the target's own bearing on a
tie.  The team about to move is measured at the point of its planned move
nearest the gun, so a team moving into the gun's reach is engaged however far
away its move began.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import shapely

from ...game import Event
from .cone import aim, hmg_cone
from .data import load_tables

ON_GUN = 1e-3          # inches: a point this near a gun is on it (no bearing from the gun to it)


def gun_cone(gun: dict):
    """The polygon of a gun's cone as it is laid now."""
    return _cone(tuple(gun["at"]), float(gun["bearing"]))


@functools.lru_cache(maxsize=4096)
def _cone(at: tuple[float, float], bearing: float):
    """A cone by position and bearing, kept (shapely polygons do not change): a gun's cone is asked for many
    times a move, and a computer player's simulations ask for the same few again and again."""
    h = load_tables()["hmg"]
    return hmg_cone(at, bearing, h["length"], h["width"], h["apex_width"])


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


def lay(state: dict, gun: dict, candidates: list[str], radius: float, events: list, why: str,
        at: dict[str, tuple[float, float]] | None = None) -> bool:
    """Lay ``gun`` on the nearest of the ``candidates`` teams a cone can reach; True if it was laid.

    ``at`` gives a team a position other than where it stands (the team about to move, at the point of
    its move nearest the gun).
    """
    h = load_tables()["hmg"]
    at = at or {}
    alive = [t for _, t in sorted(state["teams"].items()) if t["alive"]]
    if not alive:
        return False

    def where(tid):
        return tuple(at.get(tid, state["teams"][tid]["at"]))

    pts = np.array([where(t["id"]) for t in alive], dtype=float)
    gx, gy = gun["at"]
    order = sorted({c for c in candidates if state["teams"][c]["alive"]},
                   key=lambda c: (math.hypot(where(c)[0] - gx, where(c)[1] - gy), c))
    for tid in order:
        target = where(tid)
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


def lay_gun(state: dict, gun: dict, moving: list[str], radius: float, events: list, why: str,
            at: dict[str, tuple[float, float]] | None = None) -> bool:
    """Lay one firing gun (SCW Contact 4): held on an LMG firing at it, else on the nearest of ``moving``."""
    lmgs = [t for t in gun["lmg_fire"] if state["teams"][t]["alive"]]
    if lmgs:
        if gun.get("target") in lmgs:
            return True                      # it will not move: it holds on that LMG and returns its fire
        return lay(state, gun, lmgs, radius, events, "holds and returns the LMG's fire")
    return lay(state, gun, moving, radius, events, why, at=at)


def nearest_on_path(path, gun: dict) -> tuple[float, float]:
    """The point of a planned move nearest a gun.

    A move that ends on the gun (a close assault, SCW Bomb and Bayonet 1) is nearest it at the gun itself,
    where no bearing is defined: the team is then measured a hair back along its path, so the gun lays down
    the line the assault comes in on, as it does for the same move stopping short (SCW Contact 4)."""
    along = path.project(shapely.Point(gun["at"]))
    p = path.interpolate(along)
    if p.distance(shapely.Point(gun["at"])) < ON_GUN:
        back = along - ON_GUN * 10 if along > ON_GUN * 10 else min(path.length, along + ON_GUN * 10)
        p = path.interpolate(back)
    return (p.x, p.y)


def react(state: dict, mover: str | None, radius: float, events: list, path=None) -> None:
    """Every firing gun lays its cone before a team moves (SCW Contact 4); ``path`` is the mover's planned move."""
    moving = list(state["moving"]) + ([mover] if mover and mover not in state["moving"] else [])
    for gun in active_guns(state):
        at = {mover: nearest_on_path(path, gun)} if mover and path is not None and path.length > 0 else None
        lay_gun(state, gun, moving, radius, events, "swings to the nearest moving target", at=at)
