"""Games built on the TCS series engine: each game's own rules and data in a module of its own."""
