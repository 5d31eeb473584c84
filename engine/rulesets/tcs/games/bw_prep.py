"""Black Wednesday's Preparatory Barrage Log (BW 2.4): the Log as data, checked, edited and fired.

``load_prep_log()`` reads a Log file (``bw_prep_log.toml`` is the historical one) into a :class:`PrepLog`:
the battalions, and for each turn the missions (battalion, target hex).  ``problems(board)`` lists every
way a Log breaks 2.4 (a target off the map, a Katyusha mission on a turn the Log does not give the
Katyushas, a gun battalion without a target on a turn of the Program); ``shoot(die)`` is 2.4d's Good or
Bad Shoot; ``to_doc()`` is the file the Prep Log editor writes.  The Log is fired by
``bw_prep_fire.prep_fire`` as the first thing in each Soviet Action Phase (2.4e).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ....errors import BadFile, Problem
from ....fileio import read_toml, write_toml

FILE = Path(__file__).with_name("bw_prep_log.toml")
HISTORICAL = "historical"


@dataclass(frozen=True)
class PrepLog:
    battalions: tuple[tuple[str, str], ...]                 # (id, calibre)
    turns: dict[str, tuple[tuple[str, str], ...]]           # clock -> ((battalion, hex), ...)
    settings: dict

    def calibre(self, battalion: str) -> str:
        return dict(self.battalions)[battalion]

    def katyusha_turns(self) -> list[str]:
        kat = {b for b, c in self.battalions if c == "katyusha"}
        return [t for t, ms in self.turns.items() if any(b in kat for b, _h in ms)]

    def allowed_katyusha_turns(self) -> list[str]:
        """BW 2.4: the Katyushas fire only on the turns the printed Log gives them."""
        return list(self.settings.get("katyusha_turns", self.katyusha_turns()))

    def target(self, clock: str, battalion: str) -> str:
        return next((h for b, h in self.turns.get(clock, ()) if b == battalion), "")

    def check(self, board) -> list[str]:
        bad = []
        for t, ms in self.turns.items():
            for b, h in ms:
                try:
                    board.parse_hex(h)
                except Exception as e:  # noqa: BLE001 - the message names the hex
                    bad.append(f"{t} {b}: {e}")
        return bad

    def problems(self, board) -> list[str]:
        """Everything that breaks BW 2.4 in this Log, one message each (empty: the Log may be fired)."""
        bad = self.check(board)
        allowed = set(self.allowed_katyusha_turns())
        for t, ms in self.turns.items():
            given = {b for b, _h in ms}
            for b, c in self.battalions:
                if c == "katyusha":
                    if b in given and t not in allowed:
                        bad.append(f"{t} {b}: the Katyushas fire only on {', '.join(sorted(allowed))} (BW 2.4, 2.4g)")
                elif b not in given:
                    bad.append(f"{t} {b}: each gun battalion fires every turn of the Prep (BW 2.4)")
        return bad

    def only(self, battalions) -> "PrepLog":
        """The columns a scenario uses (BW 2.4: scenarios 1 and 2 use a subset of the Log)."""
        keep = set(battalions)
        return replace(self, battalions=tuple(x for x in self.battalions if x[0] in keep),
                       turns={t: tuple(m for m in ms if m[0] in keep) for t, ms in self.turns.items()})

    def with_target(self, clock: str, battalion: str, hex_id: str) -> "PrepLog":
        """The Log with one box filled ("" empties it): what the Prep Log editor changes."""
        order = [b for b, _c in self.battalions]
        row = {b: h for b, h in self.turns.get(clock, ())}
        row[battalion] = hex_id
        turns = dict(self.turns)
        turns[clock] = tuple((b, row[b]) for b in order if row.get(b))
        return replace(self, turns=turns)

    def shoot(self, die: int) -> str:
        """BW 2.4d: one die a mission; Good Shoot from ``good_shoot_from`` up, Bad below; it always lands."""
        return "good" if die >= int(self.settings["good_shoot_from"]) else "bad"

    def to_doc(self) -> dict:
        """The Log as a file (the format ``load_prep_log`` reads)."""
        return {"log": dict(self.settings),
                "battalions": [{"id": b, "calibre": c} for b, c in self.battalions],
                "turns": {t: [self.target(t, b) for b, _c in self.battalions] for t in self.turns}}

    def save(self, path: str | Path) -> None:
        write_toml(path, self.to_doc())


def load_prep_log(path: str | Path = FILE) -> PrepLog:
    doc = read_toml(path)
    raw_bats, raw_turns, settings = doc.get("battalions", []), doc.get("turns", {}), doc.get("log", {})
    if not isinstance(raw_bats, list) or not all(isinstance(b, dict) and isinstance(b.get("id"), str)
                                                 and isinstance(b.get("calibre"), str) for b in raw_bats):
        raise BadFile([Problem(str(path), "battalions", "expected [[battalions]] tables, each with an id and a "
                                                        "calibre (strings): is this a Prep Log?")])
    for key, v in (("turns", raw_turns), ("log", settings)):
        if not isinstance(v, dict):
            raise BadFile([Problem(str(path), key, f"expected a table ([{key}]): is this a Prep Log?")])
    bats = tuple((b["id"], b["calibre"]) for b in raw_bats)
    turns = {}
    for clock, row in raw_turns.items():
        if not isinstance(row, list) or len(row) != len(bats) or not all(isinstance(h, str) for h in row):
            raise BadFile([Problem(str(path), f"turns.{clock}",
                                   f"expected {len(bats)} entries, one a battalion (a hex id or \"\")")])
        turns[clock] = tuple((bats[i][0], h) for i, h in enumerate(row) if h)
    log = PrepLog(bats, turns, dict(settings))
    good = log.settings.get("good_shoot_from")
    if not isinstance(good, int) or isinstance(good, bool) or not 1 <= good <= 7:
        raise BadFile([Problem(str(path), "log.good_shoot_from", ("missing" if good is None else f"got {good!r}"[:80])
                               + " (expected the lowest Good Shoot die, 4: a whole number from 1 to 7)")])
    return log


def scenario_prep_log(rules) -> PrepLog | None:
    """The Log a scenario fires (its ``prep_log`` option: "historical" or a file beside the scenario), cut to the
    scenario's ``prep_battalions`` and checked against its map; None when the scenario has no Prep."""
    name = rules.options.get("prep_log", "")
    if not name:
        return None
    path = FILE if name == HISTORICAL else Path(rules.scenario.path).parent / name
    if not path.exists():
        raise BadFile([Problem(rules.scenario.path, "options.prep_log", f"no Prep Log file {str(path)!r}")])
    log = load_prep_log(path)
    if rules.options.get("prep_battalions"):
        log = log.only(rules.options["prep_battalions"])
    bad = log.problems(rules.board)
    if bad:
        raise BadFile([Problem(str(path), "turns", b) for b in bad])
    return log
