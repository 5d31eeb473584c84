"""The computer at the table: when the game waits for a side it plays, it asks the engine's bot and plays its answer.

One action at a time on a timer, through the session's ``play`` like a
player's own action, so the window stays responsive and the map shows each
move.  Which side the game waits for, and what the bot does, are the engine's
(``engine.computer``); this module only keeps time.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from engine.charts import pending_chart_prompt
from engine.computer import bot_for, side_to_act

STEP_MS = 250          # between two of the computer's actions, so each can be seen on the map


class ComputerPlayer(QObject):
    """Plays the ``sides`` given for a session; ``acted`` after each action, ``stopped`` with the reason if it cannot."""

    acted = Signal(str)          # the text of the action just played
    stopped = Signal(str)        # why it stopped playing (a refusal of the bot's action, a bot that failed)

    def __init__(self, session, sides, step_ms: int = STEP_MS, parent=None, options: dict | None = None):
        super().__init__(parent)
        self.session = session
        self.sides = frozenset(sides)
        self.options = dict(options or {})      # the bot's options (engine.computer.bot_options)
        self.paused = False
        self.last_problem = ""
        self._bots: dict = {}
        self._played_to = len(session.game.log)    # the log's length after the computer's last action
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(step_ms)
        self._timer.timeout.connect(self.step)
        session.changed.connect(self._changed)
        self.schedule()

    def side_to_act(self) -> str | None:
        """The side the game waits for now (the engine's answer)."""
        return side_to_act(self.session.rules, self.session.state)

    def to_play(self) -> bool:
        """Whether the game now waits for a side the computer plays (a printed chart's result is the owner's to
        read off their chart, whoever's battle it is: the chart prompt dock asks them)."""
        if pending_chart_prompt(self.session.rules, self.session.state) is not None:
            return False
        return bool(self.sides) and self.side_to_act() in self.sides

    def set_paused(self, on: bool) -> None:
        """Pause (the player may then act for any side) or carry on."""
        self.paused = bool(on)
        if self.paused:
            self._timer.stop()
        else:
            self.schedule()

    def schedule(self) -> None:
        """Start the timer for the next action if the computer is to play and not paused."""
        if not self.paused and self.to_play() and not self._timer.isActive():
            self._timer.start()

    def stop(self) -> None:
        """Stop for good (a new game replaces this one)."""
        self._timer.stop()
        self.sides = frozenset()
        try:
            self.session.changed.disconnect(self._changed)
        except (RuntimeError, TypeError):
            pass

    def busy(self) -> bool:
        return self._timer.isActive()

    def step(self) -> bool:
        """Play the bot's next action for the side to act, if the computer plays it; whether one was played."""
        if self.paused or not self.to_play():
            return False
        side = self.side_to_act()
        if side not in self._bots:
            try:
                self._bots[side] = bot_for(self.session.rules, side, self.options)
            except (ValueError, TypeError) as e:
                return self._give_up(f"the computer cannot play {side}: {e}")
        try:
            action = self._bots[side](self.session.state)
        except (ValueError, KeyError, IndexError) as e:        # a bot with no answer: hand the game back
            return self._give_up(f"the computer cannot choose for {side}: {e}")
        text = action.text()
        self._played_to = len(self.session.game.log) + 1
        result = self.session.play(text, by_computer=True)
        if not isinstance(result, list):
            self._played_to = len(self.session.game.log)
            return self._give_up(f"the rules refused the computer's {text!r}: {result}")
        self.acted.emit(text)
        return True

    def _give_up(self, why: str) -> bool:
        self.last_problem = why
        self.set_paused(True)
        self.stopped.emit(why)
        return False

    def _changed(self) -> None:
        if len(self.session.game.log) != self._played_to:
            self._bots.clear()                   # someone else changed the game (undo, redo, the player): fresh bots
            self._played_to = len(self.session.game.log)
        self.schedule()
