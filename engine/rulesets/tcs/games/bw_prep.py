"""Black Wednesday's Preparatory Barrage Log (BW 2.4): the historical Log as data, checked against the map.

``load_prep_log()`` reads ``bw_prep_log.toml`` into a :class:`PrepLog`: the battalions, and for each turn
the missions (battalion, target hex) with the Katyusha turns apart.  ``check(board)`` lists every target that
is not on the map.  ``shoot(die)`` is 2.4d's Good or Bad Shoot.  Firing the Log in play is not built yet.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ....errors import BadFile, Problem
from ....fileio import read_toml

FILE = Path(__file__).with_name("bw_prep_log.toml")


@dataclass(frozen=True)
class PrepLog:
    battalions: tuple[tuple[str, str], ...]                 # (id, calibre)
    turns: dict[str, tuple[tuple[str, str], ...]]           # clock -> ((battalion, hex), ...)
    settings: dict

    def katyusha_turns(self) -> list[str]:
        kat = {b for b, c in self.battalions if c == "katyusha"}
        return [t for t, ms in self.turns.items() if any(b in kat for b, _h in ms)]

    def check(self, board) -> list[str]:
        bad = []
        for t, ms in self.turns.items():
            for b, h in ms:
                try:
                    board.parse_hex(h)
                except Exception as e:  # noqa: BLE001 - the message names the hex
                    bad.append(f"{t} {b}: {e}")
        return bad

    def shoot(self, die: int) -> str:
        """BW 2.4d: one die a mission; Good Shoot from ``good_shoot_from`` up, Bad below; it always lands."""
        return "good" if die >= int(self.settings["good_shoot_from"]) else "bad"


def load_prep_log(path: str | Path = FILE) -> PrepLog:
    doc = read_toml(path)
    bats = tuple((b["id"], b["calibre"]) for b in doc.get("battalions", []))
    turns = {}
    for clock, row in doc.get("turns", {}).items():
        if len(row) != len(bats):
            raise BadFile([Problem(str(path), f"turns.{clock}", f"expected {len(bats)} entries, one a battalion")])
        turns[clock] = tuple((bats[i][0], h) for i, h in enumerate(row) if h)
    return PrepLog(bats, turns, dict(doc.get("log", {})))
