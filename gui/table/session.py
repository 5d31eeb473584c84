"""A skirmish in progress for the table view: the engine's game, its orders, refusals and log, as Qt signals."""
from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from engine.errors import IllegalAction
from engine.game import Event, Game, load_game
from engine.rulesets.scw import rules_for_path

from .words import event_line


class TableSession(QObject):
    """The game behind the table view; every answer it gives is the engine's."""

    changed = Signal()                 # the state moved on (an order, undo or redo)
    refused = Signal(str, str)         # rule, message: an order the rules forbid
    happened = Signal(list)            # the events of the order just played

    def __init__(self, game: Game, path: Path, parent=None):
        super().__init__(parent)
        self.game = game
        self.rules = game.rules
        self.path = Path(path)
        self.table = self.rules.table
        self.last_refusal = ""
        self.saved_from: Path | None = None     # the saved game this session was read from, if any
        self.computer = game.computer           # who the computer plays (engine.computer.ComputerSides), or None
        self._by_computer: set[int] = set(game.computer.played) if game.computer is not None else set()
        self._reasons: dict[int, str] = dict(game.computer.reasons) if game.computer is not None else {}
        # ^ log entry (from 1) -> the computer's reason for it (a saved game keeps them)
        self.mark_saved()                        # a new game has nothing to save; a saved one is in its file

    @classmethod
    def new(cls, scenario: str | Path, seed: int | None = None, parent=None) -> "TableSession":
        """A new game of a skirmish scenario (a fresh seed unless one is given)."""
        seed = random.SystemRandom().randrange(1 << 31) if seed is None else seed
        rules = rules_for_path(scenario)
        return cls(Game(rules, seed, str(scenario)), Path(scenario), parent)

    @classmethod
    def saved(cls, path: str | Path, parent=None) -> "TableSession":
        """A saved skirmish: its scenario, seed and log replayed."""
        game = load_game(path)
        return cls(game, Path(game.scenario_path or path), parent)

    # ------------------------------------------------------------ questions
    @property
    def state(self) -> dict:
        return self.game.state

    def view(self) -> dict:
        """What the attacking player may see (face-down cards hidden)."""
        return self.rules.view(self.game.state)

    def allowance(self, team: str) -> float:
        return self.rules.allowance(self.game.state, team)

    def preview(self, team: str, at: tuple[float, float]) -> dict:
        """Where the guns would lay with ``team`` dragged to ``at`` (inches)."""
        return self.rules.preview_guns(self.game.state, team, at)

    def gun_bravado(self, gun: dict) -> int:
        return self.rules.gun_bravado(gun)

    def legal_orders(self) -> list:
        return self.rules.legal_actions(self.game.state)

    def orders_for(self, team: str | None) -> list:
        """The legal orders other than moves that name ``team`` (or name no team, like ``end``)."""
        out = []
        for a in self.legal_orders():
            if a.verb == "move":
                continue
            names = [getattr(a, "team", None), getattr(a, "leader", None)] + list(getattr(a, "teams", ()))
            if team is None or team in names or not any(names):
                out.append(a)
        return out

    def turn_text(self) -> str:
        s = self.game.state
        if s["outcome"]:
            who = "The attackers win" if s["outcome"]["winner"] == "attacker" else "The defenders hold"
            return f"{who}: {s['outcome']['reason']}"
        if s["phase"] == "setup":
            return "Set-up: lay the cards face down on the defensive positions"
        if s["pending"]:
            return f"Turn {s['turn']} of {s['last_turn']}: a decision is owed"
        return f"Turn {s['turn']} of {s['last_turn']}: the attacker's orders"

    def log_lines(self) -> list[str]:
        """Every order and what it caused, every throw in words; the computer's orders marked, with its reason."""
        out = []
        for n, entry in enumerate(self.game.log, start=1):
            who = "[computer] " if n in self._by_computer else ""
            out.append(f"{n}. {who}{entry.action.text()}")
            if n in self._reasons:
                out.append(f"    why: {self._reasons[n]}")
            out += [event_line(e) for e in entry.events]
        return out

    # ------------------------------------------------------------ the computer
    def play(self, text: str, by_computer: bool = False, why: str = "") -> list[Event] | str:
        """Play an order in its text form (``by_computer``: the computer's, ``why`` its reason in one line, shown
        in the log); the events, or the refusal in words (it is reported as any refusal is)."""
        events = self.order(text, by_computer=by_computer, why=why)
        return events if events is not None else self.last_refusal

    def set_computer(self, sides, options: dict | None = None, bot: str = "baseline") -> None:
        """The sides the computer plays from now on, and with which player (none: the player plays both)."""
        from engine.computer import ComputerSides

        self.computer = ComputerSides(tuple(sorted(sides)), bot, options=dict(options or {})) if sides else None

    # ------------------------------------------------------------ orders
    def order(self, action, by_computer: bool = False, why: str = "") -> list[Event] | None:
        """Play an order; a refusal is reported with its rule and nothing changes (None)."""
        try:
            events = self.game.play(action)
        except IllegalAction as e:
            self.last_refusal = str(e)
            self.refused.emit(e.rule, e.message)
            return None
        self.last_refusal = ""
        n = len(self.game.log)
        self._by_computer.discard(n)
        self._reasons.pop(n, None)
        if by_computer:
            self._by_computer.add(n)
            if why:
                self._reasons[n] = why
        self.happened.emit(events)
        self.changed.emit()
        return events

    def undo(self) -> bool:
        if not self.game.can_undo():
            return False
        self.game.undo()
        self.changed.emit()
        return True

    def redo(self) -> bool:
        if not self.game.can_redo():
            return False
        events = self.game.redo()
        self.happened.emit(events)
        self.changed.emit()
        return True

    def mark_saved(self) -> None:
        """The game as it stands is in a file of the user's (the autosave does not count)."""
        self._saved_actions = [e.action for e in self.game.log]

    def forget_saved(self) -> None:
        """No file of the user's holds the game (it came from the autosave)."""
        self._saved_actions = []

    def unsaved(self) -> bool:
        """Whether the game has orders (or undos) that no file of the user's holds."""
        return [e.action for e in self.game.log] != self._saved_actions

    def save(self, path: str | Path) -> None:
        """Write the saved game (scenario, seed, orders, and who the computer plays with the orders it gave)
        atomically."""
        from dataclasses import replace

        n = len(self.game.log)
        self.game.computer = (replace(self.computer, played=tuple(sorted(i for i in self._by_computer if i <= n)),
                                      reasons={i: why for i, why in sorted(self._reasons.items())
                                               if i <= n and i in self._by_computer})
                              if self.computer is not None else None)
        self.game.save(path)
