"""The computer at the table: when the game waits for a side it plays, it asks the engine's bot and plays its answer.

One action at a time on a timer, through the session's ``play`` like a
player's own action, so the map shows each move.  The bot thinks in a worker
thread (``_Thinker``) on a copy of the state, so the window stays responsive
while the strong player plans; Pause tells it to stop thinking and its answer,
if one still comes, is dropped, as is one that comes after the game changed.
Which side the game waits for, and what the bot does, are the engine's
(``engine.computer``); this module only keeps time.
"""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from engine.charts import pending_chart_prompt
from engine.computer import BASELINE, bot_for, fork, side_to_act


def reason_of(bot) -> str:
    """The one-line reason a bot gave for its last decision (the strong player's ``last_reason``), or ""."""
    player = getattr(bot, "player", None)
    return str(getattr(player, "last_reason", "") or "")


class _Thinker(QThread):
    """One decision of a bot, off the GUI thread: ``done`` carries the action (or the error) and the log's
    length it was asked at."""

    done = Signal(object, object, int, str)   # action or None, error text or None, log length, the bot's reason

    def __init__(self, bot, state, log_length: int, side: str = "", parent=None):
        super().__init__(parent)
        self.bot, self.state, self.log_length, self.side = bot, state, log_length, side

    def run(self) -> None:
        try:
            action = self.bot(self.state)
        except (ValueError, KeyError, IndexError) as e:
            self.done.emit(None, str(e), self.log_length, "")
            return
        self.done.emit(action, None, self.log_length, reason_of(self.bot))

STEP_MS = 250          # between two of the computer's actions, so each can be seen on the map


class ComputerPlayer(QObject):
    """Plays the ``sides`` given for a session; ``acted`` after each action, ``stopped`` with the reason if it cannot."""

    acted = Signal(str)          # the text of the action just played
    stopped = Signal(str)        # why it stopped playing (a refusal of the bot's action, a bot that failed)

    thinking = Signal(bool)      # the bot started (True) or stopped (False) thinking in its worker thread

    def __init__(self, session, sides, step_ms: int = STEP_MS, parent=None, options: dict | None = None,
                 bot: str = BASELINE):
        super().__init__(parent)
        self.session = session
        self.sides = frozenset(sides)
        self.options = dict(options or {})      # the bot's options (engine.computer.bot_options)
        self.bot = bot                          # which computer player: "baseline" or "strong" (engine.computer)
        self._cancel = threading.Event()        # set: the bot in the worker stops thinking
        self._thinker: _Thinker | None = None
        self.paused = False
        self.last_problem = ""
        self._bots: dict = {}
        self._played_to = len(session.game.log)    # the log's length after the computer's last action
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(step_ms)
        self._timer.timeout.connect(self.think)
        session.changed.connect(self._changed)
        session.table_holder = self.holding     # the person's own actions wait while the computer plays
        self.schedule()

    def holding(self) -> str | None:
        """The side the computer is playing now, not paused (the person may not act for it), or None."""
        if self.paused or not self.to_play():
            return None
        return self.side_to_act()

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
            self._cancel.set()                  # the bot stops thinking; its answer, if it comes, is dropped
        else:
            self.schedule()

    def schedule(self) -> None:
        """Start the timer for the next action if the computer is to play and not paused."""
        if not self.paused and self.to_play() and not self._timer.isActive() and not self.is_thinking():
            self._timer.start()

    def stop(self) -> None:
        """Stop for good (a new game replaces this one)."""
        self._timer.stop()
        self.sides = frozenset()
        if getattr(self.session, "table_holder", None) == self.holding:
            self.session.table_holder = None
        self._cancel.set()
        if self._thinker is not None:
            self._thinker.wait(10000)           # a worker thread never outlives its player
        try:
            self.session.changed.disconnect(self._changed)
        except (RuntimeError, TypeError):
            pass
        # the worker's last signals may still be queued: whatever they carry, the window that listened to this
        # player may be gone by the time they arrive (a window closed while the computer thought)
        self.blockSignals(True)

    def busy(self) -> bool:
        """Whether an action is due (its timer runs) or the bot is thinking."""
        return self._timer.isActive() or self.is_thinking()

    def is_thinking(self) -> bool:
        return self._thinker is not None and self._thinker.isRunning()

    def _bot(self, side: str):
        if side not in self._bots:
            self._bots[side] = bot_for(self.session.rules, side, self.options, bot=self.bot,
                                       cancel=self._cancel.is_set)
        return self._bots[side]

    def think(self) -> bool:
        """Ask the bot for the side to act in a worker thread; its answer is played when it comes (``_thought``).
        Whether it started thinking."""
        if self.paused or not self.to_play() or self.is_thinking():
            return False
        side = self.side_to_act()
        try:
            bot = self._bot(side)
        except (ValueError, TypeError) as e:
            return self._give_up(f"the computer cannot play {side}: {e}")
        self._cancel.clear()
        # the worker thinks with a copy of the bot's memory, adopted only if its answer is played: an answer
        # dropped as stale leaves the bot as if it had never been asked, so the computer's choices are the
        # headless bot's whatever the timing
        self._thinker = _Thinker(fork(bot), self.session.state.copy(), len(self.session.game.log), side,
                                 parent=self)
        self._thinker.done.connect(self._thought)
        self._thinker.finished.connect(self._finished)
        self._thinker.start()
        self.thinking.emit(True)
        return True

    def _thought(self, action, error, log_length: int, why: str = "") -> None:
        if self.paused or self._cancel.is_set() or log_length != len(self.session.game.log) or not self.to_play():
            return                              # paused, or the game changed meanwhile: this answer is stale
        if action is None:
            self._give_up(f"the computer cannot choose for {self.side_to_act()}: {error}")
            return
        thinker = self.sender()
        if isinstance(thinker, _Thinker) and thinker.side and self._bots.get(thinker.side) is not None:
            self._bots[thinker.side] = thinker.bot          # the copy that chose this action, with its memory
        self._play(action, why)

    def _finished(self) -> None:
        thinker = self.sender()
        if thinker is self._thinker:
            self._thinker = None
        if thinker is not None:
            thinker.deleteLater()
        self.thinking.emit(False)
        if self.sides:
            self.schedule()

    def step(self) -> bool:
        """Play the bot's next action for the side to act now, in this thread, if the computer plays it; whether
        one was played (the timer's way is ``think``, off this thread)."""
        if self.paused or not self.to_play():
            return False
        side = self.side_to_act()
        try:
            bot = self._bot(side)
        except (ValueError, TypeError) as e:
            return self._give_up(f"the computer cannot play {side}: {e}")
        try:
            action = bot(self.session.state)
        except (ValueError, KeyError, IndexError) as e:        # a bot with no answer: hand the game back
            return self._give_up(f"the computer cannot choose for {side}: {e}")
        return self._play(action, reason_of(bot))

    def _play(self, action, why: str = "") -> bool:
        text = action.text()
        self._played_to = len(self.session.game.log) + 1
        result = self.session.play(text, by_computer=True, why=why)
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
