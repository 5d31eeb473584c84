"""The charts in the play window: the prompt dock, the owner's chart answering what it holds, and the Charts menu.

After every action (:meth:`PlayCharts.update`, called from the window's refresh)
the owner's chart answers the pending prompt when it holds the cell (logged as
"(owner's chart)"); otherwise the prompt dock asks, and the answer typed is
played and written into the owner's chart.  All of it goes through the
engine's :class:`ChartKeeper`; nothing here knows a rule.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction

from engine.charts import BadChartValue, ChartConflict, ChartKeeper, chart_slots_of, pending_chart_prompt
from engine.errors import BadFile, IllegalAction

from .promptpanel import ChartPromptDock
from .shelf import charts_folder, owner_book, problems_text


class PlayCharts:
    """The owner's chart for the game in a window: its keeper, the prompt dock, the chart editor."""

    def __init__(self, window, folder: Path | None = None):
        self.window = window
        self.folder = folder
        self.dock = ChartPromptDock(window)
        window.addDockWidget(Qt.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.dock.answered.connect(self.answer)
        self.keeper: ChartKeeper | None = None
        self._rules = None
        self._busy = False
        self.book_problem = ""
        self.last_played: list = []
        self.editor = None

    # ------------------------------------------------------------ the owner's book for the game's rules
    def chart_set(self):
        """``(name, slots)`` of the game's charts, or ``(None, None)`` when its rules read none."""
        s = self.window.session
        if s is None:
            return None, None
        slots = chart_slots_of(s.rules)
        return (s.rules.name, slots) if slots is not None and slots.slots else (None, None)

    def _keeper(self) -> ChartKeeper | None:
        s = self.window.session
        if s is None:
            return None
        if self.keeper is None or self._rules is not s.rules:
            self._rules = s.rules
            name, slots = self.chart_set()
            book = None
            self.book_problem = ""
            if slots is not None:
                try:
                    book = owner_book(name, slots, self.folder)
                except BadFile as e:        # the game goes on; answers are not written into a file we cannot read
                    self.book_problem = f"Your chart file cannot be read, so answers are not kept in it:\n" \
                                        f"{problems_text(e, 5)}"
            self.keeper = ChartKeeper(book)
        return self.keeper

    # ------------------------------------------------------------ after each action
    def update(self) -> None:
        """Play what the owner's chart holds, then show the question still pending (or hide the dock)."""
        s = self.window.session
        if self._busy:
            return
        if s is None or self.window.viewing_past is not None:
            self.dock.show_prompt(None)
            return
        keeper = self._keeper()
        self._busy = True
        try:
            played = keeper.play_known(s.game, self._play_marked)
        finally:
            self._busy = False
        if played:
            self.last_played = played
            slots = chart_slots_of(s.rules)
            said = "Read from your chart: " + "; ".join(
                f"{a.value} in {slots[a.slot].cell_text(a.key)}" if slots is not None and a.slot in slots else a.text()
                for a in played)
            events = [e.text for entry in s.game.log[-len(played):] for e in entry.events]
            # after the message of the action that asked (the window shows its own once this returns)
            QTimer.singleShot(0, lambda: (self.window.statusBar().showMessage(said, 15000),
                                          self.window.combat.show_result([said] + events)))
            self.window._show_play()
            return
        prompt = pending_chart_prompt(s.rules, s.state) if not s.game.is_over() else None
        note = self.book_problem
        tip = ""
        if prompt is not None and keeper.book is not None and not note:
            note = f"Your answer is kept in your chart (charts/{keeper.book.path.name} in your data folder), " \
                   "so this cell is asked once."
            tip = str(keeper.book.path)
        if keeper.problem:
            note = f"{note}\nYour chart's value was refused: {keeper.problem}".strip()
        was_shown = self.dock.isVisible()
        self.dock.show_prompt(prompt, note, tip)
        if prompt is not None and not was_shown:       # room for the whole working and every result
            QTimer.singleShot(0, lambda: self.window.resizeDocks(
                [self.dock], [self.dock.content.sizeHint().height() + 30], Qt.Vertical))

    def _play_marked(self, answer):
        """Play an answer read from the owner's chart; marked like the computer's, so the player's undo takes it back
        with the action that asked (else it would be answered again at once)."""
        result = self.window.session.play(answer.text(), by_computer=True)
        if not isinstance(result, list):
            raise IllegalAction(result.rule, result.message)
        return result

    def answer(self, value) -> bool:
        """Play the result the player read off the printed chart; a refusal is shown with its reason."""
        s = self.window.session
        keeper = self._keeper()
        if s is None or keeper is None:
            return False

        def play(answer):
            result = s.play(answer.text())
            if not isinstance(result, list):
                raise IllegalAction(result.rule, result.message)
            return result

        try:
            events = keeper.answer(s.game, value, play)
        except ChartConflict as e:
            self.dock.show_refusal(f"Refused: your chart holds {e.old!r} in {e.cell}; {e.new!r} contradicts it. "
                                   "Correct it in Charts > Chart editor if the first entry was wrong.")
            self.window.last_refusal = str(e)
            return False
        except (BadChartValue, IllegalAction) as e:
            self.dock.show_refusal(f"Refused: {e}")
            self.window.last_refusal = str(e)
            return False
        except OSError as e:
            self.window.show_error("Cannot write your chart", f"{keeper.book.path}: {e.strerror or e}")
            events = []
        self.window.combat.show_result([e.text for e in events])
        self.window.statusBar().showMessage(s.log_lines()[-1], 10000)
        return True

    # ------------------------------------------------------------ the chart editor, import and export
    def open_editor(self):
        from .editor import ChartEditor

        name, _ = self.chart_set()
        if self.editor is None:
            self.editor = ChartEditor(folder=self.folder, parent=self.window)
            self.editor.setWindowFlag(Qt.Window)
            self.editor.resize(900, 620)
            self.editor.changed.connect(self._book_edited)
        if name:
            self.editor.show_set(name)
        self.editor.show()
        self.editor.raise_()
        return self.editor

    def _book_edited(self) -> None:
        self.keeper = None            # the book is shared; a fresh keeper reads it as it is now
        self.update()


def attach_charts(window, folder: Path | None = None) -> PlayCharts:
    """Add the chart prompt dock and the Charts menu to the play window."""
    charts = PlayCharts(window, folder)
    bar = window.menuBar()
    menu = bar.addMenu("&Charts")
    help_act = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
    if help_act is not None:                 # before Help, as menus usually are
        bar.insertMenu(help_act, menu)
    window.chart_editor_act = QAction("Chart &editor…", window, triggered=charts.open_editor)
    window.chart_editor_act.setToolTip("Type the cells of your printed charts (a grid per chart; paste from a "
                                       "spreadsheet)")
    window.chart_import_act = QAction("&Import charts…", window,
                                      triggered=lambda: charts.open_editor().import_dialog())
    window.chart_export_act = QAction("E&xport charts…", window,
                                      triggered=lambda: charts.open_editor().export_dialog())
    menu.addActions([window.chart_editor_act, window.chart_import_act, window.chart_export_act])
    return charts


__all__ = ["PlayCharts", "attach_charts", "charts_folder"]
