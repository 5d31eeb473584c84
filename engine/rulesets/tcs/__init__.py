"""The Tactical Combat Series: the series engine that Black Wednesday and Leros build on.

A game runs the series' sequence of play as steps (``TcsRules.sequence``):
Command Phase (review Op Sheets, weighted turns, implementation rolls, reserve
checks, adding units, new Op Sheets; battalion morale and weather on full-hour
turns), Aircraft & Artillery Phase (initiative, sorties, pre-plotted barrages,
missions, adjustment and execution, lifting barrages), Action Phases
(initiative, then each side's phase) and Clean-up.  ``TcsRules.clock(state)``
names where the game is; ``acting_side(state)`` who must act.

Printed charts and counter values are chart slots (``charts.toml``); a blank cell
that play needs becomes a pending :class:`engine.charts.ChartPrompt`, answered by
a :class:`engine.charts.ChartAnswer` and remembered in ``state.memory``.

Actions and their text forms (``parse_action`` reads them, ``text()`` writes them):

- ``end``: end the current step for the acting side
- ``chart SLOT [KEY]... = VALUE``: the printed result a pending prompt asks for
- ``choose WHAT VALUE``: a pending decision (``initiative``, ``retreat``, ``overwatch``; Black Wednesday's
  ``trench``, ``commissar``, ``battalion``, ``return``, ``consolidate``)
- ``complete SHEET`` / ``cancel SHEET``: Command step 1
- ``implement SHEET``: Command step 3 (Command Prep Table)
- ``reserve SHEET``: Command step 4
- ``assign UNIT SHEET``: Command step 5
- ``opsheet ID TYPE FORMATION units U+U objective HEX,HEX [route HEX-HEX-...]``: Command step 6
- ``airstrike HEX``: a sortie attacks
- ``mission BATTERY HEX by SPOTTER he|smoke|illum [continuous]``, ``lift MARKER``: artillery;
  ``plot HEX``: a game's plotted super-heavy fire (BW 4.7 Dora)
- ``mode UNIT move|fire``, ``move UNIT HEX`` (one hex; overwatch may answer),
  ``fire U+U at HEX``, ``sfa U+U at HEX``, ``pointfire UNIT at TARGET``,
  ``assault U+U HEX``, ``overrun UNIT HEX``, ``exit UNIT`` (from a map-edge hex, BW 5.0): Action phases

Queries for the panels: ``clock``, ``acting_side``, ``sequence``, ``current``,
``turn_info`` (clock, weather, visibility), ``ammunition``,
``op_sheet_geometry`` (objective and route as shapely geometry), ``unit_status``,
``overwatchers``, ``why_idle``; moves are one hex each, so ``legal_actions`` lists every destination.
What a unit may do and why not, and a fire's working before its roll: ``explain.py`` (``why_not``,
``fire_preview``, ``unit_options``, ``action_label``).

Pending entries in ``state.pending``: ``{"kind": "chart", "prompt": ChartPrompt}`` or
``{"kind": "choice", "what", "side", "options", "text"}``.
"""
from __future__ import annotations

from pathlib import Path

from .rules import TcsRules
from .scenario import TcsScenario, load_tcs_scenario
from . import games  # noqa: F401  (the games register their own sections and rules with the series)

__all__ = ["TcsRules", "TcsScenario", "book_attribution", "chart_slots", "load_own_scenario", "load_tcs_scenario", "rules_for_own_scenario",
           "rules_for_path", "rules_for_scenario", "scenario_offer"]

# The TCS reads its own scenario format: ``validate`` and ``load_rules`` find these by scenario.ruleset.
load_own_scenario = load_tcs_scenario


def chart_slots():
    """The series' chart slots (``charts.toml``): the ruleset contract of ``engine.charts.ruleset``."""
    from ...charts import load_slots
    from .rules import CHARTS

    return load_slots(CHARTS)


def book_attribution():
    """Which game's own printed chart a cell of an owner's book written before charts were kept per game
    (format 1) can be: ``attribute(chart, key) -> [game, ...]`` (the contract of ``engine.charts.book``)."""
    from .catalogue import attribute

    return attribute


def rules_for_path(path: str | Path, variants: tuple[str, ...] = ()) -> TcsRules:
    from .variants import apply

    sc = load_tcs_scenario(path)
    apply(sc, variants)             # the game's variants chosen for a new game (Leros 4.0, BW 4.0)
    return rules_for_scenario(sc)


def rules_for_own_scenario(path: str | Path, variants: tuple[str, ...] = ()) -> TcsRules:
    """The rules bound to a TCS scenario file with its ``variants`` (the hook ``engine.game.load_rules`` looks for)."""
    return rules_for_path(path, tuple(variants))


def scenario_offer(path: str | Path):
    """The scenario's name, the variants its game offers and its sides as a new game offers them (any side may be
    the player's)."""
    from ...scenario.newgame import ScenarioOffer, SideOffer
    from .variants import offered

    sc = load_tcs_scenario(path)
    return ScenarioOffer(str(path), sc.name, offered(sc), tuple(SideOffer(s.id, s.name) for s in sc.sides.values()),
                         "tcs")


def rules_for_scenario(scenario) -> TcsRules:
    if isinstance(scenario, TcsScenario):
        if getattr(scenario, "leros", None):       # a Leros scenario: the game's own rules (games/leros_rules.py)
            from .games.leros_rules import LerosRules
            return LerosRules(scenario)
        return TcsRules(scenario)
    return rules_for_path(getattr(scenario, "path", scenario))
