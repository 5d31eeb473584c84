"""The play window: ``window.py`` (the main window), ``session.py`` (a game in play: the engine's session, the log,
autosave), its panels (phase bar and log, battle, victory, table, the per-kind panel switch) and the game library.
It may import ``engine``, ``gui.common``, ``gui.scene`` and ``gui.charts``; the TCS parts (``gui.tcs``) attach to
it through ``gui.tcs.attach``."""
