"""Each TCS game's own data and small modules on the series engine (Black Wednesday, ...)."""
