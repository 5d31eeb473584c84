"""The play window's panels by kind of game: each kind opens with its own panels, laid out as the player left them.

A kind of game is its ruleset's family ("demyansk", "classic", "free", "tcs"). Each panel (dock) says which
kinds it belongs to. When the window switches to a game of another kind, the layout of the kind it leaves is
kept (in the settings, under ``play/panels/<kind>``), the panels of other games are hidden, and the new kind's
own layout comes back, or its default panels the first time. View > Panels lists the panels of the game open.
Panels whose content decides when they show (a pending chart question, Leros's tracks, the table tools) keep
doing so; they are listed in View > Panels while they belong to the game.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QDockWidget, QMenu

from gui.common.settings import read, settings

NO_GAME = ""


def every_game(_kind: str) -> bool:
    return True


def hex_games(kind: str) -> bool:
    """The hex-and-counter games the play window's own panels serve (not the Tactical Combat Series)."""
    return kind not in (NO_GAME, "tcs")


def tcs_games(kind: str) -> bool:
    return kind == "tcs"


def game_kind(session) -> str:
    """The kind of the game open (its ruleset's family), or NO_GAME."""
    if session is None:
        return NO_GAME
    from gui.tcs.attach import is_tcs_scenario

    scenario = getattr(session, "scenario", None)
    if is_tcs_scenario(scenario):
        return "tcs"
    return str(getattr(scenario, "ruleset", "") or getattr(getattr(session, "rules", None), "name", "") or "game")


class GamePanels:
    """Which dock belongs to which kind of game, the layout of each kind, and View > Panels."""

    def __init__(self, window, menu: QMenu | None = None, key: str = "play"):
        self.window = window
        self.key = key
        self.kind: str | None = None          # None until the window first shows a game (or no game)
        self.restored = False                  # whether the last switch brought back a remembered layout
        self._docks: list[tuple[QDockWidget, Callable[[str], bool], bool]] = []
        self._content: list[tuple[QDockWidget, Callable[[object], bool]]] = []
        self.menu = menu

    def add(self, dock: QDockWidget, belongs: Callable[[str], bool] = every_game, shown: bool = True) -> None:
        """A panel the player may close or open: ``belongs(kind)``; ``shown``: open the first time."""
        self._docks.append((dock, belongs, shown))

    def add_content(self, dock: QDockWidget, applies: Callable[[object], bool]) -> None:
        """A panel its content shows and hides (``applies(session)``: it belongs to this game)."""
        self._content.append((dock, applies))

    # ------------------------------------------------------------ switching
    def show_game(self, session) -> bool:
        """Called whenever the window shows its game: switch the panels if the kind changed; whether it did."""
        kind = game_kind(session)
        if kind == self.kind:
            return False
        self.switch(kind)
        return True

    def switch(self, kind: str) -> None:
        w = self.window
        if self.kind is not None:
            self.remember()
        self.kind = kind
        state = read(self._state_key(kind), QByteArray, "a window's panels as saved (binary data)")
        self.restored = state is not None and not state.isEmpty() and w.restoreState(state)
        for dock, belongs, shown in self._docks:
            if not belongs(kind):
                dock.hide()                     # another game's panel: never shown here
            elif not self.restored and shown:
                dock.show()
        self.fill_menu()

    def remember(self) -> None:
        """Keep the layout of the kind of game shown now (on switching away and when the window closes)."""
        if self.kind is None:
            return
        s = settings()
        s.setValue(self._state_key(self.kind), self.window.saveState())
        s.sync()

    def _state_key(self, kind: str) -> str:
        return f"{self.key}/panels/{kind or 'none'}"

    # ------------------------------------------------------------ View > Panels
    def panels(self) -> list[QDockWidget]:
        """The panels of the game open, in the order they were added."""
        kind = self.kind if self.kind is not None else NO_GAME
        session = getattr(self.window, "session", None)
        out = [d for d, belongs, _s in self._docks if belongs(kind)]
        out += [d for d, applies in self._content if session is not None and applies(session)]
        return out

    def fill_menu(self) -> None:
        if self.menu is None:
            return
        self.menu.clear()
        docks = self.panels()
        for d in docks:
            self.menu.addAction(d.toggleViewAction())
        if not docks:
            self.menu.addAction("(no game open)").setEnabled(False)
