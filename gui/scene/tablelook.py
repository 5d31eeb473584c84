"""How a counter looks at the table: face down (a blank), its back up, its step-loss and text markers.

The ruleset says how each counter is shown (``rules.looks(state)``: the free
table and the classic rules); this module only dresses the scenario's unit so
that the counter art draws it that way, under its own picture key (the blank and the markers are drawn by
``gui.scene.counterart``).
"""
from __future__ import annotations


class DressedUnit:
    """A scenario unit as the table shows it; every other attribute is the unit's own (its id above all)."""

    def __init__(self, unit, look):
        self._unit = unit
        self.look = look
        self.blank = bool(look.hidden)
        if look.back and not look.hidden:
            from engine.counters.art import reduced_values

            self.attack, self.defense, self.movement = reduced_values(unit)
        parts = [unit.id, "down" if look.hidden else "back" if look.back else "front"]
        if not look.hidden:
            parts += [f"-{look.steps_lost}" if look.steps_lost else "", *look.markers]
        self.art_key = "|".join(parts)

    def __getattr__(self, name):
        return getattr(self._unit, name)


def dressed(unit, look):
    """The unit dressed by its look, or the unit itself when it is plainly face up."""
    return DressedUnit(unit, look) if look is not None else unit
