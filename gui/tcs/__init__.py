"""The Tactical Combat Series in the play window: clock, Op Sheets, artillery and question panels, map marks."""
from .attach import TcsPlay, counter_art, is_tcs_path, is_tcs_scenario, load_tcs, open_saved, session_class

__all__ = ["TcsPlay", "counter_art", "is_tcs_path", "is_tcs_scenario", "load_tcs", "open_saved", "session_class"]
