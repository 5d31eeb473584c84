"""The TCS docks of the play window, by their old home: each now lives in a module of its own (``base``: the dock
every one of them is; ``clock``, ``opsheets``, ``artillery``, ``pending``)."""
from .artillery import ArtilleryDock
from .base import ColumnScroll, TcsDock
from .clock import ClockDock
from .opsheets import UNIT_MIME, OpSheetsDock, SheetTree, UnitList
from .pending import MANY_CHOICES, PendingDock

__all__ = ["MANY_CHOICES", "UNIT_MIME", "ArtilleryDock", "ClockDock", "ColumnScroll", "OpSheetsDock", "PendingDock",
           "SheetTree", "TcsDock", "UnitList"]
