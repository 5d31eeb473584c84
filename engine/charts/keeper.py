"""The owner's chart at the table: answers it already holds are played for them, answers typed in play go into it.

Used by every controller (the command line's ``play --charts``, the play window):
after each action, :meth:`ChartKeeper.play_known` plays the owner's answer while
the game waits for a cell their chart holds; :meth:`ChartKeeper.answer` plays a
result the player reads off the printed chart and writes it into the chart
(a contradiction is refused with both values before anything is played).
The engine never looks for the owner's chart: the caller opens it from a path.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..errors import BadFile, IllegalAction, Problem
from .book import ChartBook
from .prompt import ChartAnswer, ChartPrompt, answer_from_book, remember_answer
from .ruleset import book_attribution, chart_scope, chart_slots_of, pending_chart_prompt

MAX_CHAIN = 1000          # answers played for the owner after one action (a guard; a game asks far fewer)


class ChartKeeper:
    """The owner's chart book (or none) for games in progress; counts what it answered and what was asked."""

    def __init__(self, book: ChartBook | None = None, save: bool = True):
        self.book = book
        self.save = save and book is not None and book.path is not None
        self.from_book = 0          # answers played from the owner's chart
        self.recorded = 0           # answers typed in play and written into the chart
        self.problem = ""           # why the last answer from the chart was refused by the game, if it was

    @staticmethod
    def prompt(game) -> ChartPrompt | None:
        """The chart question the game waits for now."""
        if game.is_over():
            return None
        return pending_chart_prompt(game.rules, game.state)

    def play_known(self, game, play: Callable[[ChartAnswer], Any] | None = None) -> list[ChartAnswer]:
        """Play the owner's answer while the pending prompt is a cell their chart holds; the answers played.

        ``play`` plays one action and raises IllegalAction when the game refuses it
        (default: ``game.play``).  A refusal stops the chain and is kept in ``problem``;
        the question then stays for the player.
        """
        play = play or game.play
        played: list[ChartAnswer] = []
        self.problem = ""
        for _ in range(MAX_CHAIN):
            p = self.prompt(game)
            answer = answer_from_book(p, self.book) if p is not None else None
            if answer is None:
                break
            try:
                play(answer)
            except IllegalAction as e:
                self.problem = str(e)
                break
            played.append(answer)
            self.from_book += 1
        return played

    def answer(self, game, value: Any, play: Callable[[ChartAnswer], Any] | None = None):
        """Play ``value`` as the answer to the pending prompt and write it into the owner's chart.

        Refusals, before anything is played or written: IllegalAction when nothing is
        asked; BadChartValue for a value outside the chart's results; ChartConflict
        (with both values) when the owner's chart already holds another.  Returns what
        ``play`` returns (the events).
        """
        p = self.prompt(game)
        if p is None:
            raise IllegalAction("", "no printed chart's result is asked for now")
        book = self.book if self.book is not None and p.slot in self.book.slots else None
        if book is not None:
            value = book.checked(p.slot, p.key, value)
        answer = ChartAnswer(p.slot, p.key, value)
        result = (play or game.play)(answer)
        if book is not None:
            remember_answer(book, answer)
            self.recorded += 1
            if self.save:
                book.save()
        return result


def keeper_for(rules, path: str | Path, save: bool = False) -> ChartKeeper:
    """A keeper with the owner's chart book at ``path`` for a ruleset (``play --charts``), opened for its game (its
    own charts and counters); BadFile when the file is missing or unreadable, or the ruleset reads no charts (a bad
    cell is set aside: ``keeper.book.problems``).  ``save``: write typed answers into it (bots' never are)."""
    if not Path(path).is_file():
        raise BadFile([Problem(str(path), "", "there is no such chart file")])
    slots = chart_slots_of(rules)
    if slots is None:
        raise BadFile([Problem("--charts", "", f"the {rules.name} rules read no printed charts")])
    book = ChartBook(slots, path, chart_scope(rules), book_attribution(getattr(rules, "name", ""))).load()
    if book.unreadable is not None:
        raise BadFile([book.unreadable])
    return ChartKeeper(book, save=save)
