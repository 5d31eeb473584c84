"""Games built on the TCS series engine: each game's own rules and data in modules of its own (Black Wednesday, Leros)."""

from . import leros_setup  # noqa: E402,F401  (registers the [leros] section of a scenario file with the series)
