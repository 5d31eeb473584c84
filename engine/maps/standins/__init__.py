"""Stand-in map sheets for games whose printed maps the project cannot ship.

Each module builds a board from what a rulebook says (the hexes its scenarios
name, the features its rules describe) and places everything else plausibly;
the map file's ``notes`` say which is which.  ``python -m engine.maps.standins
[FOLDER]`` writes every stand-in map and its re-digitised twin.
"""
