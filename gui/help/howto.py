"""The players' pages of Help: Getting started, and How to play each kind of game the program plays (Demyansk
Pocket, the classic rules and free play, the skirmish, the Tactical Combat Series), Markdown files beside this
module (``pages/``), written for players with the window's own words."""
from __future__ import annotations

from pathlib import Path

PAGES = Path(__file__).resolve().parent / "pages"
GETTING_STARTED = PAGES / "getting-started.md"
# kind of game -> (menu title, page); the kinds are engine.scenario.catalog.HOW_TO_PLAY's
HOW_TO_PLAY = {
    "demyansk": ("How to play Demyansk Pocket", PAGES / "how-to-play-demyansk.md"),
    "classic": ("How to play the classic rules and free play", PAGES / "how-to-play-classic.md"),
    "skirmish": ("How to play the skirmish", PAGES / "how-to-play-skirmish.md"),
    "tcs": ("How to play a TCS game", PAGES / "how-to-play-tcs.md"),
}
# the players' rules references of the games whose rules run on the series engine
PLAYERS_RULES = {"Black Wednesday": PAGES / "black-wednesday-rules.md", "Leros": PAGES / "leros-rules.md"}


def how_to_play_title(kind: str) -> str:
    """The title of a kind's How to play page ("How to play a TCS game"); "" for a kind without one."""
    return HOW_TO_PLAY[kind][0] if kind in HOW_TO_PLAY else ""


def how_to_play_page(kind: str) -> Path | None:
    return HOW_TO_PLAY[kind][1] if kind in HOW_TO_PLAY else None


def player_pages() -> list[tuple[str, Path]]:
    """Every players' page: Getting started, the How to play pages and the players' rules references."""
    return ([("Getting started", GETTING_STARTED)] + [v for v in HOW_TO_PLAY.values()]
            + [(f"{game}: the rules as the program plays them", p) for game, p in PLAYERS_RULES.items()])
