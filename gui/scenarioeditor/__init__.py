"""The scenario editor: a mode of Sandtable's window that writes ``scenarios/*.toml``."""
from .window import ScenarioEditor

__all__ = ["ScenarioEditor"]
