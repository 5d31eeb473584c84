"""What a scenario offers a new game (its variants and sides) and the game started from a choice of them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.game import Game, load_rules, own_format_ruleset


@dataclass(frozen=True)
class VariantOffer:
    """One variant a scenario offers: its id (as saved games record it), its name and what it changes."""

    id: str
    name: str
    text: str = ""


@dataclass(frozen=True)
class SideOffer:
    """One side of a scenario and who may play it: ``fixed`` is "" (the player chooses), "me" or "computer"."""

    id: str
    name: str
    fixed: str = ""


@dataclass(frozen=True)
class ScenarioOffer:
    """A scenario file's name, variants and sides, as a new game offers them."""

    path: str
    name: str
    variants: tuple[VariantOffer, ...]
    sides: tuple[SideOffer, ...]
    ruleset: str = ""               # the rules it is played with (which computer players know them)


def scenario_offer(path: str | Path) -> ScenarioOffer:
    """The variants and sides of a scenario file (BadFile, naming the file, if it cannot be read)."""
    path = str(path)
    own = own_format_ruleset(path, "load_own_scenario")
    offer = own_format_ruleset(path, "scenario_offer")
    if offer is not None:
        return offer(path)          # a ruleset with its own format that says its own sides (the TCS)
    if own is not None:
        sc = own(path)
        variants = tuple(VariantOffer(vid, str(v.get("name", vid)), str(v.get("text", "")))
                         for vid, v in (sc.variants or {}).items())
        # the skirmish: the player leads the attack, or watches the computer lead it; the defenders' guns are
        # played by the rules themselves, and the defenders' one decision is where the cards lie (with a
        # variant that has them laid by a player, cards = "player")
        sides = (SideOffer("attacker", "The attackers"),
                 SideOffer("defender", "The defenders (the cards, where a player lays them)"))
        return ScenarioOffer(path, sc.name, variants, sides, str(getattr(sc, "ruleset", "") or ""))
    from engine.scenario import load_scenario

    sc = load_scenario(path)
    variants = tuple(VariantOffer(v.id, v.name, v.text) for v in sc.variants)
    sides = tuple(SideOffer(s.id, s.name) for s in sc.sides.values())
    return ScenarioOffer(path, sc.name, variants, sides, str(getattr(sc, "ruleset", "") or ""))


def new_game(path: str | Path, seed: int, variants: tuple[str, ...] = ()) -> Game:
    """A new game of a scenario with the variants chosen, as ``python -m engine play`` starts one."""
    return Game(load_rules(str(path), tuple(variants)), int(seed), str(path), tuple(variants))
