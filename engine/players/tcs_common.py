"""What the TCS players' modules share: the two levels and how an action is named."""
from __future__ import annotations

BASELINE, STRONG = "baseline", "strong"
STRONG_OPTIONS: dict[str, type] = {"budget": float}     # the window's thinking limit: each decision here takes less


def _t(a) -> str:
    return a.text() if hasattr(a, "text") else str(a)


def _verb(a) -> str:
    return _t(a).split(" ", 1)[0]
