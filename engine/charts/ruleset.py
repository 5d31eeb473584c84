"""What a ruleset offers about its printed charts, asked the same way by every controller.

A ruleset package (``engine.rulesets.<name>``) may offer ``chart_slots() -> ChartSet``:
the printed charts its rules read.  Its bound rules may offer
``chart_prompt(state) -> ChartPrompt | None``: the chart question the game waits for
now.  Neither is required; a ruleset without charts simply has none.
"""
from __future__ import annotations

import pkgutil
import re
from pathlib import Path
from typing import Any

from ..rulesets import ruleset_module
from .prompt import ChartAnswer, ChartPrompt, answer_words
from .slots import ChartSet, ChartSlot

COUNTER_AXIS = "unit type"       # the open axis of a counter manifest's slots (a counter's values by unit type)


def pending_chart_prompt(rules: Any, state: Any) -> ChartPrompt | None:
    """The chart question the game waits for now, or None (also for rules that never ask one)."""
    ask = getattr(rules, "chart_prompt", None)
    return ask(state) if ask is not None else None


def chart_answer_words(rules: Any, action: Any) -> str | None:
    """A chart answer played in a game of ``rules`` in words (what was read off which chart), or None for any other
    action (or a ruleset without charts)."""
    if not isinstance(action, ChartAnswer):
        return None
    slots = chart_slots_of(rules)
    return answer_words(slots, action) if slots is not None else None


def chart_scope(rules: Any) -> str:
    """The game whose own printed charts a bound ruleset reads ('' when its charts are all one set's)."""
    own = getattr(rules, "chart_scope", None)
    return own() if callable(own) else ""


def game_scope(game: str, scenario_id: str) -> str:
    """The owner's book's name for a game's own charts: the scenario's game (``Black Wednesday`` ->
    ``black-wednesday``), or its id for a scenario of the program's own."""
    slug = re.sub(r"[^a-z0-9]+", "-", game.lower()).strip("-")
    return slug or scenario_id


def book_attribution(name: str):
    """The ruleset package's ``book_attribution()``: which games a cell of an unscoped (format 1) book can belong
    to, for its migration; None when the ruleset has no games of its own."""
    offer = getattr(ruleset_module(name), "book_attribution", None)
    return offer() if offer is not None else None


def ruleset_chart_slots(name: str) -> ChartSet | None:
    """The chart slots the ruleset package ``name`` offers, or None if it offers none (or does not exist)."""
    offer = getattr(ruleset_module(name), "chart_slots", None)
    return offer() if offer is not None else None


def chart_slots_of(rules: Any) -> ChartSet | None:
    """The chart slots a bound ruleset reads: its own ``chart_slots()`` if it has one, else its package's."""
    own = getattr(rules, "chart_slots", None)
    if callable(own):
        return own()
    return ruleset_chart_slots(getattr(rules, "name", ""))


def rulesets_with_charts() -> dict[str, ChartSet]:
    """Every shipped ruleset that offers chart slots, by name (for the chart editor)."""
    import engine.rulesets as pkg

    out = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.ispkg:
            slots = ruleset_chart_slots(info.name)
            if slots is not None and slots.slots:
                out[info.name] = slots
    return out


def book_file(folder: str | Path, chart_set: str) -> Path:
    """Where the owner's entries for a chart set are kept under a data folder: ``charts/<chart set>.toml``."""
    return Path(folder) / "charts" / f"{chart_set}.toml"


def is_counter_slot(slot: ChartSlot) -> bool:
    """A counter manifest's slot: one open axis named ``unit type`` (``tcs.counter.morale``)."""
    return len(slot.axes) == 1 and slot.axes[0].open and slot.axes[0].name == COUNTER_AXIS


def counter_slots(slots: ChartSet | None) -> list[ChartSlot]:
    """The counter manifest's slots of a chart set, in the set's order."""
    return [s for s in slots if is_counter_slot(s)] if slots is not None else []


def chart_set_of_file(path, sets: dict[str, ChartSet]) -> str | None:
    """The chart set (a name of ``sets``) whose charts a chart file names most, or None when it names none of any
    set's or cannot be read: an exported book of the TCS charts is the ``tcs`` set's, whichever set is shown."""
    from ..fileio import read_toml

    try:
        doc = read_toml(path)
    except Exception:       # noqa: BLE001 (a file that cannot be read is the import's to report)
        return None
    if not isinstance(doc, dict):
        return None
    named: set[str] = set()
    tables = [doc.get("charts")] + [g.get("charts") for g in (doc.get("games") or {}).values() if isinstance(g, dict)]
    for t in tables:
        if isinstance(t, dict):
            named.update(str(k) for k in t)
    best = max(sets, key=lambda n: sum(1 for c in named if c in sets[n]), default=None)
    return best if best is not None and any(c in sets[best] for c in named) else None
