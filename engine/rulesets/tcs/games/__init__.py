"""Games built on the TCS series engine: each game's own rules and data in modules of its own (Black Wednesday, Leros)."""
