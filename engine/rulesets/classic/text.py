"""How the classic rules word things: the scenario's rule numbers in refusals, whole numbers as whole."""
from __future__ import annotations


def cite(rule: str) -> str:
    """``Rule 7.2 (scenario)``: the scenario's own rule number, as refusals cite it."""
    return f"Rule {rule} (scenario)" if rule else ""


def n_(x: float):
    """A whole number shown as one (10, not 10.0)."""
    return int(x) if float(x).is_integer() else x
