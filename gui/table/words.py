"""The log of a skirmish in words: each order, then what it caused, every throw of the dice spelled out."""
from __future__ import annotations

from engine.game import Event

DICE = {"D6": "a six-sided die", "D10": "a ten-sided die", "AvD": "an average die",
        "2D6": "two six-sided dice", "2AvD": "two average dice"}
ENEMY = ("traverse", "revealed", "reopen", "cover_fire")   # what the enemy does on its own (SCW Contact 4)


def roll_words(e: Event) -> str:
    """A throw in words, like ``T2 advances: two average dice show 4 and 5 (9)``."""
    faces = [int(f) for f in e.data.get("faces", [])]
    dice = DICE.get(e.data.get("dice", ""), e.data.get("dice", "dice"))
    shown = " and ".join(str(f) for f in faces)
    total = f" ({sum(faces)})" if len(faces) > 1 else ""
    verb = "shows" if len(faces) == 1 else "show"
    return f"{e.data.get('why', '')}: {dice} {verb} {shown}{total}"


def event_line(e: Event) -> str:
    """One event as a log line: throws marked as dice, the enemy's own actions marked as the enemy's."""
    if e.kind == "roll":
        return f"    Dice: {roll_words(e)}"
    if e.kind in ENEMY:
        return f"    Enemy: {e.text}"
    if e.kind == "outcome":
        return f"    GAME OVER: {e.text}"
    return f"    {e.text}"


def enemy_lines(events: list[Event]) -> list[str]:
    """The enemy's own actions among an order's events, in the order they happened."""
    return [e.text for e in events if e.kind in ENEMY]


def enemy_places(events: list[Event], state: dict) -> list[tuple[float, float]]:
    """Where on the table the enemy acted (the gun or card each of its actions names), once each, in order."""
    out: list[tuple[float, float]] = []
    for e in events:
        if e.kind not in ENEMY:
            continue
        gid = e.data.get("gun") if isinstance(e.data.get("gun"), str) else e.data.get("card")
        thing = state["guns"].get(gid) or state["cards"].get(gid)
        if thing is not None and thing.get("at") and tuple(thing["at"]) not in out:
            out.append(tuple(thing["at"]))
    return out
