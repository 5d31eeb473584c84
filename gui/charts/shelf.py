"""The owner's chart books, one file per chart set in the user data folder, opened once and shared by every window."""
from __future__ import annotations

from pathlib import Path

from engine.charts import ChartBook, ChartSet, book_attribution, book_file
from engine.errors import BadFile

from gui.common.userfolders import data_root

_OPEN: dict[tuple[Path, str], ChartBook] = {}


def charts_folder() -> Path:
    """The data folder the owner's charts are kept under (``charts/<chart set>.toml`` inside it)."""
    return data_root()


def owner_book(chart_set: str, slots: ChartSet, folder: Path | None = None, game: str = "") -> ChartBook:
    """The owner's book for a chart set opened for ``game`` (its own charts and counters kept under it); empty if
    there is no file yet.  It is never refused whole: bad cells are set aside (``book.problems``).

    The same book object is handed to every window asking for the same file and game, so an
    entry made in the chart editor is used in play at once; books of two games of one set
    share the file, each saving merges with what the other wrote.
    """
    path = book_file(folder if folder is not None else charts_folder(), chart_set).absolute()
    book = _OPEN.get((path, game))
    if book is None or set(book.slots.slots) != set(slots.slots):
        book = ChartBook(slots, path, game, book_attribution(chart_set)).load()
        _OPEN[path, game] = book
    else:
        book.reread_if_changed()            # edited with another program since it was read
    return book


def forget_books() -> None:
    """Read the files again on the next request (another folder, or files changed outside the program)."""
    _OPEN.clear()


def problems_text(e, limit: int = 50) -> str:
    """Every problem of a BadFile (or a list of problems), one a line, the first ``limit`` of them."""
    problems = e.problems if isinstance(e, BadFile) else list(e)
    lines = [str(p) for p in problems[:limit]]
    if len(problems) > limit:
        lines.append(f"… and {len(problems) - limit} more")
    return "\n".join(lines)
