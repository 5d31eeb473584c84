"""Dice for the skirmish, drawn from the generator kept in the game state; every throw is an event."""
from __future__ import annotations

from ...game import Event, next_die
from .data import load_tables


def throw(state: dict, events: list, kind: str, why: str) -> tuple[int, ...]:
    """Throw ``D6``, ``D10`` (0 read as 10), ``AvD``, ``2D6`` or ``2AvD`` and log it.

    Faces waiting in ``state["hand_dice"]`` (dice thrown by hand at the table
    and typed in, or set by a test) are used first, in order; then the game's
    generator throws.
    """
    count, die = (2, kind[1:]) if kind.startswith("2") else (1, kind)
    faces = []
    for _ in range(count):
        if state.get("hand_dice"):
            faces.append(int(state["hand_dice"].pop(0)))
            continue
        if die == "D10":
            face, state["rng"] = next_die(state["rng"], 10)
        else:
            face, state["rng"] = next_die(state["rng"], 6)
            if die == "AvD":
                face = load_tables().average_die[face - 1]
        faces.append(face)
    shown = "+".join(str(f) for f in faces)
    events.append(Event("roll", f"{why}: {kind} {shown}", {"dice": kind, "faces": faces, "why": why}))
    return tuple(faces)


def shuffle(state: dict, items: list) -> list:
    """A Fisher-Yates shuffle driven by the game's generator (setting up the cards)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state["rng"] = next_die(state["rng"], i + 1)
        out[i], out[j - 1] = out[j - 1], out[i]
    return out
