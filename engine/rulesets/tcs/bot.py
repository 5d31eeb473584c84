"""The Tactical Combat Series' baseline player (Black Wednesday, Leros): ``engine/players/tcs_player.py`` at its
baseline level.  The side to act is the rules' own (``acting_side``: a pending question's side first)."""
from __future__ import annotations

BOT_OPTIONS: dict[str, type] = {}


def bot_for(rules, side: str, **options):
    from ...players.tcs_player import baseline_for

    return baseline_for(rules, side, **options)


def side_to_act_in(rules, state) -> str | None:
    """The side whose decision the game waits for (the engine's ``acting_side``); None when over."""
    if rules.is_over(state):
        return None
    return rules.acting_side(state)
