"""Boards and map files: the hex lattice, numbering, sheets, terrain, editing, gridless tables, map art."""
