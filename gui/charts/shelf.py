"""The owner's chart books, one file per chart set in the user data folder, opened once and shared by every window."""
from __future__ import annotations

from pathlib import Path

from engine.charts import ChartBook, ChartSet, book_file
from engine.errors import BadFile

from ..userfolders import data_root

_OPEN: dict[Path, ChartBook] = {}


def charts_folder() -> Path:
    """The data folder the owner's charts are kept under (``charts/<chart set>.toml`` inside it)."""
    return data_root()


def owner_book(chart_set: str, slots: ChartSet, folder: Path | None = None) -> ChartBook:
    """The owner's book for a chart set (empty if no file yet); BadFile when the file cannot be read.

    The same book object is handed to every window asking for the same file, so an
    entry made in the chart editor is used in play at once.
    """
    path = book_file(folder if folder is not None else charts_folder(), chart_set).absolute()
    book = _OPEN.get(path)
    if book is None or set(book.slots.slots) != set(slots.slots):
        book = ChartBook(slots, path).load()
        _OPEN[path] = book
    return book


def forget_books() -> None:
    """Read the files again on the next request (another folder, or files changed outside the program)."""
    _OPEN.clear()


def problems_text(e: BadFile, limit: int = 50) -> str:
    lines = [str(p) for p in e.problems[:limit]]
    if len(e.problems) > limit:
        lines.append(f"… and {len(e.problems) - limit} more")
    return "\n".join(lines)
