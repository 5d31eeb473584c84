"""The charts in the play window: the prompt dock, the owner's chart answering what it holds, and the Charts menu.

After every action (:meth:`PlayCharts.update`, called from the window's refresh)
the owner's chart answers the pending prompt when it holds the cell (logged as
"(owner's chart)"); otherwise the prompt dock asks, and the answer typed is
played and written into the owner's chart.  All of it goes through the
engine's :class:`ChartKeeper`; nothing here knows a rule.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction

from engine.charts import (BadChartValue, ChartConflict, ChartKeeper, chart_scope, chart_slots_of, count_filled,
                           needs_of, pending_chart_prompt, value_reader)
from engine.errors import IllegalAction

from .banner import BookBanner
from .promptpanel import ChartPromptDock
from .shelf import charts_folder, owner_book


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
        self.form = None                    # the printed values form (gui/charts/valuesform.py), while open
        self._offered_for = None            # the game the form was last offered for (once a game)
        self.banner = BookBanner(window)    # the owner's book's problems, where the player looks
        # a book edited with another program while this one runs is read again when it changed on disk: checked
        # when the window comes back to the front and before the book answers after each action
        self._activation = _OnActivate(window, self._window_activated)

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
            book = owner_book(name, slots, self.folder, chart_scope(s.rules)) if slots is not None else None
            self.keeper = ChartKeeper(book)
        elif self.keeper.book is not None and self.keeper.book.reread_if_changed():
            self.window.statusBar().showMessage(f"Your chart book changed on disk and was read again: "
                                                f"{self.keeper.book.path}", 10000)
        self.show_book_problems()
        return self.keeper

    def _window_activated(self) -> None:
        """The window is in front again: the owner may have edited the book's file meanwhile."""
        if self.keeper is not None and self.window.session is not None and not self._busy:
            self.update()

    def show_book_problems(self) -> None:
        """The owner's book's set-aside cells, an unreadable file, copies kept: in the banner (or no banner)."""
        book = self.keeper.book if self.keeper is not None else None
        self.book_problem = self.banner.show_book(book)

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
        self.offer_form()
        self._busy = True
        s.blockSignals(True)    # one redraw and one autosave for the whole chain, not one per answer read
        try:
            played = keeper.play_known(s.game, self._play_marked)
        finally:
            s.blockSignals(False)
            self._busy = False
        if played:
            self.last_played = played
            slots = chart_slots_of(s.rules)
            said = "Read from your chart: " + "; ".join(
                f"{a.value} in {slots[a.slot].cell_text(a.key)}" if slots is not None and a.slot in slots else a.text()
                for a in played)
            events = [e.text for entry in s.game.log[-len(played):] for e in entry.events]
            # after the message of the action that asked (the window shows its own once this returns)
            QTimer.singleShot(0, self.window, lambda: (self.window.statusBar().showMessage(said, 15000),
                                                       self.window.combat.show_result([said] + events)))
            s.changed.emit()        # the pieces, the panels and the autosave, once
            return
        prompt = pending_chart_prompt(s.rules, s.state) if not s.game.is_over() else None
        note = "Your chart book has a problem: see the banner above the map." if self.book_problem else ""
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
            QTimer.singleShot(0, self.window, lambda: self.window.resizeDocks(
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

    # ------------------------------------------------------------ the printed values form, before play
    def offer_form(self) -> bool:
        """Offer the form once a game, when its scenario needs printed values the owner's book does not hold yet."""
        s = self.window.session
        if s is None or s.game is self._offered_for or self.window.viewing_past is not None or s.game.is_over():
            return False
        self._offered_for = s.game
        book = self.keeper.book if self.keeper is not None else None
        if book is None:
            return False
        value = value_reader(book.slots, s.state, book)
        needs = needs_of(s.rules, s.state, value)
        if not needs or count_filled(needs, value).missing == 0:
            return False
        QTimer.singleShot(0, self.window, self.open_form)    # after the window has shown the game it opened
        return True

    def open_form(self):
        """The printed values form for the game in the window (Charts > Printed values…); None when it has none."""
        from .valuesform import ValuesForm

        s = self.window.session
        keeper = self._keeper()
        if s is None or keeper is None or keeper.book is None or not needs_of(s.rules, s.state):
            self.window.statusBar().showMessage("This game reads no printed values of your own", 8000)
            return None
        if self.form is not None:
            self.form.raise_()
            return self.form
        title = getattr(getattr(s, "scenario", None), "name", "") or ""
        # Not deleted on closing: Qt deleting the dialog under its Python wrapper left a cycle that the garbage
        # collector later tripped over (a crash); a closed form is kept, a child of the window, until the next
        # one replaces it or the window goes.
        self._closed_form = None
        self.form = ValuesForm(s.rules, s.state, keeper.book, self.window, title)
        self.form.changed.connect(self._form_changed)
        self.form.finished.connect(self._form_closed)
        self.form.show()
        self.form.raise_()
        return self.form

    def _form_changed(self) -> None:
        self.show_book_problems()
        self.update()                 # the question pending may be answered by the value just typed

    def _form_closed(self, _result=0) -> None:
        self._closed_form, self.form = self.form, None
        if self.editor is not None:
            self.editor.changed.emit()
        self.window._show_play()

    # ------------------------------------------------------------ the chart editor, import and export
    def open_editor(self):
        from .editor import ChartEditor

        name, _ = self.chart_set()
        game = chart_scope(self.window.session.rules) if self.window.session is not None else ""
        if self.editor is None:
            self.editor = ChartEditor(folder=self.folder, parent=self.window)
            self.editor.setWindowFlag(Qt.Window)
            self.editor.resize(900, 620)
            self.editor.changed.connect(self._book_edited)
        if name:
            self.editor.show_set(name, game)
        self.editor.show()
        self.editor.raise_()
        return self.editor

    def _book_edited(self) -> None:
        self.keeper = None            # the book is shared; a fresh keeper reads it as it is now
        self.update()


class _OnActivate(QObject):
    """Calls back when its window is activated (a child of the window: it goes with it)."""

    def __init__(self, window, callback):
        super().__init__(window)
        self._callback = callback
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:        # noqa: N802 (Qt's name)
        if event.type() == QEvent.WindowActivate:
            self._callback()
        return False


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
    window.chart_values_act = QAction("&Printed values for this game…", window, triggered=charts.open_form)
    window.chart_values_act.setToolTip("Every counter, terrain and table value the scenario reads, in one form "
                                       "(paste from a spreadsheet, CSV import and export)")
    menu.addActions([window.chart_values_act, window.chart_editor_act, window.chart_import_act,
                     window.chart_export_act])
    return charts


__all__ = ["PlayCharts", "attach_charts", "charts_folder"]
