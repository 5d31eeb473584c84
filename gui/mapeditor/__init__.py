"""The map editor: turn scans into a map file (calibration, terrain, hexsides, names, obstacles, contours, checks)."""
from .editor import MapEditor

__all__ = ["MapEditor"]
