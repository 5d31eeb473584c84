"""``python -m engine.maps.standins [MAPS_FOLDER [TWINS_FOLDER]]``: write every stand-in map and its re-digitised twin.

The stand-ins go to ``maps/`` and the twins (the same ids on other geometry
and art, for tests) to ``tests/data/redigitised/`` by default.  The same
code always writes the same files.
"""
from __future__ import annotations

import sys
from pathlib import Path

from engine.maps.standins import blackwednesday, leros
from engine.maps.standins.common import write_map, write_standin
from engine.maps.standins.redigitise import PX_PER_HEX, SEED, TURN_DEGREES, redigitised

GAMES = (blackwednesday, leros)


def write_all(maps: Path, twins: Path) -> list[Path]:
    """Write each game's stand-in into ``maps`` and its re-digitised twin into ``twins``."""
    paths = []
    twins.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        paths += write_standin(game, maps)
        twin = redigitised(game.build_board())
        paths += write_map(twin, game.printed(twin), twins, game.STEM, PX_PER_HEX, colours=64, seed=SEED,
                           turn_degrees=TURN_DEGREES)
    return paths


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    root = Path(__file__).resolve().parents[3]
    maps = Path(argv[0]) if argv else root / "maps"
    twins = Path(argv[1]) if len(argv) > 1 else root / "tests" / "data" / "redigitised"
    for path in write_all(maps, twins):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
