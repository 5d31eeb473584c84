"""The map on screen, shared by every window that shows one (the play window, the map editor, the scenario editor):
the map view, its layers (scan tiles, grid, counters, sheets, move overlay, line-of-sight tool), the tile pyramid of a
scan and counter art. It may import ``engine`` and ``gui.common``; never a window package (``gui.play``,
``gui.table``, ``gui.mapeditor``, ``gui.scenarioeditor``)."""
