"""Printed charts the program cannot ship: typed slots, the owner's entries, and prompts in play.

The contract between a ruleset and everything around its charts:

- A ruleset package (``engine.rulesets.<name>``) may offer ``chart_slots() -> ChartSet``:
  the printed charts its rules read, with the published cells filled in
  (Demyansk: ``demyansk.crt``; the Tactical Combat Series: its fire, morale and
  spotting tables and counter manifest).  Its bound rules may offer the same
  method when a scenario adds charts of its own.
- Its rules may offer ``chart_prompt(state) -> ChartPrompt | None``: the chart
  question the game waits for now, with the working (column, each shift with its
  rule, the roll, the purpose).  While one is pending, the legal actions are its
  :class:`ChartAnswer` s (``chart demyansk.crt [4-1][5] = DE``), and the game keeps
  each answer in its :class:`ChartMemory`, so replay never asks.
- Controllers ask :func:`pending_chart_prompt` (never the ruleset directly) and let
  a :class:`ChartKeeper` answer from the owner's :class:`ChartBook` (a file in the
  user's data folder, ``charts/<chart set>.toml`` — :func:`book_file`; the engine
  only takes its path) and record the answers the player types.
- The owner's book keeps a game's own charts (slots with ``scope = "game"``: its
  terrain chart, its counters) under the game the rules name (:func:`chart_scope`);
  a bad cell is set aside, never the whole book (:mod:`engine.charts.book`).
- Bound rules may list every value their scenario reads (``chart_needs``,
  :func:`needs_of`), so the owner can fill them in one form before play.
- Counter values are slots with one open axis named ``unit type``
  (:func:`counter_slots`), filled in the scenario editor's order of battle.
"""
from .book import BadChartValue, ChartBook, ChartConflict, SetAside, open_book
from .keeper import ChartKeeper, keeper_for
from .prompt import (ChartAnswer, ChartMemory, ChartPrompt, Step, accept_answer, answer_from_book, answer_words,
                     answers, prompt_for, read_cell, remember_answer)
from .needs import NeedCount, ValueNeed, count_filled, needs_of, value_reader
from .ruleset import (COUNTER_AXIS, book_attribution, book_file, chart_answer_words, chart_scope, chart_slots_of,
                      counter_slots, game_scope, is_counter_slot, pending_chart_prompt, ruleset_chart_slots,
                      rulesets_with_charts, chart_set_of_file)
from .slots import Axis, ChartSet, ChartSlot, Domain, dice_labels, load_slots, parse_slots

__all__ = ["Axis", "BadChartValue", "COUNTER_AXIS", "ChartAnswer", "ChartBook", "ChartConflict", "ChartKeeper",
           "ChartMemory", "ChartPrompt", "ChartSet", "ChartSlot", "Domain", "NeedCount", "SetAside", "Step",
           "ValueNeed", "accept_answer", "answer_from_book", "answer_words", "answers", "book_attribution",
           "book_file", "chart_answer_words", "chart_scope", "chart_slots_of", "count_filled", "counter_slots",
           "dice_labels", "game_scope",
           "is_counter_slot", "keeper_for", "load_slots", "needs_of", "open_book", "parse_slots",
           "pending_chart_prompt", "prompt_for", "read_cell", "remember_answer", "ruleset_chart_slots",
           "rulesets_with_charts", "chart_set_of_file", "value_reader"]
