"""Keys typed for one question kept out of the next: an answer panel asks question after question in one place, and a
player typing fast (an answer and Return, then a few more keys, or a second Return) would have the keys that were meant
for the question just answered land in the next one, even answer it.

The panel tells the guard when a key answered a question (:meth:`answered`) and when it shows a new question
(:meth:`new_question`); the guard then drops key presses made less than :data:`GRACE_MS` after that answering key,
by the keys' own timestamps (the window system's clock, which they share), so the result does not depend on how
long the game took to ask the next question.  Keys without a timestamp (made up by a program) are never dropped.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent

GRACE_MS = 400          # less than anyone needs to read a new question; more than the gap between typed keys


class TypeAheadGuard:
    """Drops the key presses that follow the key which answered the previous question too closely."""

    def __init__(self):
        self._answered_at = 0       # the timestamp of the key press that answered the last question (0: a click)
        self._since = 0             # while non-zero: the new question drops keys pressed before this + GRACE_MS
        self.dropped = 0            # keys dropped since the question was shown

    def answered(self, event=None) -> None:
        """A question was just answered, by ``event`` (a key press) or by a click (None)."""
        self._answered_at = event.timestamp() if event is not None and event.type() == QEvent.KeyPress else 0

    def new_question(self) -> None:
        """A new question is shown: keys pressed right after the answering key belong to the old one."""
        self._since = self._answered_at
        self._answered_at = 0
        self.dropped = 0

    def drop(self, event) -> bool:
        """Whether a key press is one typed ahead for the question answered before, to be left out."""
        if event.type() != QEvent.KeyPress or not self._since:
            return False
        t = event.timestamp()
        if t and 0 <= t - self._since < GRACE_MS:
            self.dropped += 1
            return True
        self._since = 0             # a key typed for this question: the ones after it are the player's too
        return False
