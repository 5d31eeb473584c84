"""The installed rulesets, one package each (``engine/rulesets/<name>/``), and what a scenario must give them.

A ruleset that plays fixed sides names them in ``SIDES`` (ids, in play order) and
``SIDE_NAMES``; a scenario for it must have exactly those sides. A ruleset that
reads its own scenario format (``rules_for_own_scenario``) is not edited as a
hex-map scenario.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class RulesetInfo:
    """What the scenario editor and the scenario checks need to know of an installed ruleset."""

    name: str
    title: str                          # the game's name (its TITLE, else its docstring up to a colon)
    sides: tuple[str, ...] | None       # the side ids it plays (None: any sides)
    side_names: dict[str, str]
    own_format: bool                    # reads its own scenario files (not hex-map scenarios)


def installed() -> list[str]:
    """The names of the installed rulesets, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def ruleset_info(name: str) -> RulesetInfo | None:
    """The ruleset called ``name``, or None when no such ruleset is installed."""
    if not name.isidentifier() or name not in installed():
        return None
    mod = importlib.import_module(f"{__name__}.{name}")
    sides = getattr(mod, "SIDES", None)
    title = getattr(mod, "TITLE", "") or (mod.__doc__ or name).strip().splitlines()[0].split(":")[0]
    return RulesetInfo(name, title, tuple(sides) if sides is not None else None,
                       dict(getattr(mod, "SIDE_NAMES", {})), hasattr(mod, "rules_for_own_scenario"))


def ruleset_module(name):
    """The ruleset package ``name`` imported, or None when ``name`` is no identifier or no such package exists
    (an import that fails inside an existing package is raised)."""
    if not isinstance(name, str) or not name.isidentifier():
        return None
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{__name__}.{name}":
            return None
        raise


def side_mismatch(name: str, sides) -> str | None:
    """Why a scenario with these side ids cannot be played under the ruleset (None: they match, or any sides do)."""
    info = ruleset_info(name)
    if info is None or info.sides is None:
        return None
    have, want = set(sides), set(info.sides)
    if have == want:
        return None
    parts = []
    if want - have:
        parts.append(f"missing {', '.join(s for s in info.sides if s not in have)}")
    if have - want:
        parts.append(f"not in the ruleset: {', '.join(sorted(have - want))}")
    return (f"the {name} ruleset plays the sides {' and '.join(info.sides)}; this scenario's sides "
            f"({', '.join(sides) or 'none'}) do not match ({'; '.join(parts)}): rename them to the ruleset's")


__all__ = ["RulesetInfo", "installed", "ruleset_info", "ruleset_module", "side_mismatch"]
