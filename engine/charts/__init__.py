"""Printed charts the program cannot ship: typed slots, the owner's entries, and prompts in play."""
from .book import BadChartValue, ChartBook, ChartConflict, open_book
from .prompt import (ChartAnswer, ChartMemory, ChartPrompt, Step, accept_answer, answer_from_book, answers,
                     prompt_for, read_cell, remember_answer)
from .slots import Axis, ChartSet, ChartSlot, Domain, dice_labels, load_slots, parse_slots

__all__ = ["Axis", "BadChartValue", "ChartAnswer", "ChartBook", "ChartConflict", "ChartMemory", "ChartPrompt",
           "ChartSet", "ChartSlot", "Domain", "Step", "accept_answer", "answer_from_book", "answers",
           "dice_labels", "load_slots", "open_book", "parse_slots", "prompt_for", "read_cell", "remember_answer"]
