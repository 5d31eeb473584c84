"""The panels that take an answer: the button always in view, a long range of numbers typed and checked, Return
enters, and a long list is chosen from by typing (the chart prompt panel and the TCS question panel)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMainWindow

from engine.charts.prompt import ChartPrompt, Step
from gui.charts.promptpanel import ChartPromptDock
from gui.tcs.panels import PendingDock

WORKING = tuple(Step(f"step {i} of a long working, with words enough to wrap in a narrow column", "TCS 8.0")
                for i in range(12))


def prompt(choices, slot="tcs.test", key=("day",)):
    return ChartPrompt(slot, key, "Turn Record Track: visibility", WORKING, "visibility for day turns",
                       tuple(choices))


@pytest.fixture
def dock(qtbot):
    win = QMainWindow()
    qtbot.addWidget(win)
    d = ChartPromptDock(win)
    win.addDockWidget(Qt.RightDockWidgetArea, d)
    win.resize(900, 360)                    # a short column: the working and the choices do not fit
    win.show()
    qtbot.waitExposed(win)
    got = []
    d.answered.connect(got.append)
    d.got, d.host = got, win          # the window lives as long as the dock
    return d


def in_view(dock, widget) -> bool:
    """Whether the whole of ``widget`` lies inside the dock as shown (not scrolled or cut off below its edge)."""
    top = widget.mapTo(dock, QPoint(0, 0))
    bottom = widget.mapTo(dock, QPoint(0, widget.height()))
    return widget.isVisible() and top.y() >= 0 and bottom.y() <= dock.height()


def test_a_long_list_of_results_scrolls_and_the_button_stays_in_view(dock, qtbot):
    dock.show_prompt(prompt([f"R{i}" for i in range(60)]))
    qtbot.wait(10)
    assert dock.choices.isVisible() and dock.content.height() > dock.height()      # more than the dock shows
    assert in_view(dock, dock.answer_btn)


def test_a_long_range_of_numbers_is_typed_with_its_range_shown_and_return_enters_it(dock, qtbot):
    dock.show_prompt(prompt(range(0, 41)))
    qtbot.wait(10)
    assert dock.number.isVisible() and not dock.buttons and not dock.choices.isVisible()
    assert dock.number_hint.text() == "A whole number from 0 to 40; Return enters it."
    assert in_view(dock, dock.answer_btn) and in_view(dock, dock.number) and in_view(dock, dock.number_hint)
    assert dock.choice_texts() == [str(i) for i in range(41)]
    qtbot.keyClicks(dock.number, "17")
    qtbot.keyClick(dock.number, Qt.Key_Return)
    assert dock.got == [17]


def test_a_number_outside_the_range_is_refused_in_words_and_nothing_is_entered(dock, qtbot):
    dock.show_prompt(prompt(range(1, 61)))
    qtbot.keyClicks(dock.number, "abc")          # not a number: never typed in
    assert dock.number.text() == ""
    qtbot.keyClick(dock.number, Qt.Key_Return)
    assert dock.refusal.text() == "Type the number printed in the cell: a whole number from 1 to 60"
    qtbot.keyClicks(dock.number, "0")
    qtbot.keyClick(dock.number, Qt.Key_Return)
    assert dock.refusal.text() == "'0' is not a whole number from 1 to 60" and dock.got == []
    dock.number.clear()
    qtbot.keyClicks(dock.number, "60")
    dock.answer_btn.click()
    assert dock.got == [60]


def test_a_few_results_are_buttons_and_return_enters_the_one_clicked(dock, qtbot):
    dock.show_prompt(prompt(["-", "1S", "2S", "S", "P"]))
    assert [b.text() for b in dock.buttons] == ["-", "1S", "2S", "S", "P"] and not dock.number.isVisible()
    b = dock.buttons[2]
    qtbot.mouseClick(b, Qt.LeftButton)
    qtbot.keyClick(b, Qt.Key_Return)
    assert dock.got == ["2S"]
    dock.buttons[4].setFocus()                # the keyboard on a result (Tab): Return enters that one
    qtbot.keyClick(dock.buttons[4], Qt.Key_Return)
    assert dock.got == ["2S", "P"]


def test_a_long_list_is_chosen_from_by_typing_and_return(dock, qtbot):
    dock.show_prompt(prompt([f"A{i}" for i in range(30)] + [f"B{i}" for i in range(30)]))
    assert dock.pick.isVisible() and dock.pick.hasFocus() or dock.pick.isVisible()
    qtbot.keyClicks(dock.pick, "b1")
    assert dock.choices.currentItem().text() == "B1"
    qtbot.keyClicks(dock.pick, "7")
    assert dock.choices.currentItem().text() == "B17"
    qtbot.keyClick(dock.pick, Qt.Key_Return)
    assert dock.got == ["B17"]
    dock.pick.clear()
    qtbot.keyClicks(dock.pick, "z")
    assert dock.refusal.text() == "No result of this chart begins with 'z'"


def test_the_question_panel_takes_a_typed_answer_among_many_with_return(qtbot):
    win = QMainWindow()
    qtbot.addWidget(win)
    d = PendingDock(win)
    win.addDockWidget(Qt.LeftDockWidgetArea, d)
    win.show()
    played = []
    d.act.connect(played.append)
    d.host = win
    hexes = [f"B{c:02d}.{r:02d}" for c in range(3, 6) for r in range(1, 7)]      # 18 hexes to retreat to
    pending = {"kind": "choice", "what": "retreat", "side": "red", "text": "Where does 1-1 retreat?",
               "options": hexes}
    d.show_pending(pending, [f"choose retreat {h}" for h in hexes], {})
    assert d.pick_box.isVisibleTo(d) and not d.buttons
    edit = d.many.lineEdit()
    edit.clear()
    qtbot.keyClicks(edit, "B04.0")
    qtbot.keyClicks(edit, "5")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert played == ["choose retreat B04.05"]
    edit.setText("B09.09")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert played == ["choose retreat B04.05"] and d.refusal.text().startswith("'B09.09' is not one of the answers")


def test_a_second_typed_prompt_shown_while_the_first_is_answered_takes_its_own_return(dock, qtbot):
    """As in play: the answer is played at once and the next cell is asked in the same panel before the Return
    that entered the first one is over; typing and Return answer the second as well."""
    second = prompt(range(1, 61), slot="tcs.weather_visibility", key=("clear",))
    dock.answered.connect(lambda v: dock.show_prompt(second) if len(dock.got) == 1 else None)
    dock.show_prompt(prompt(range(1, 61)))
    qtbot.keyClicks(dock.number, "20")
    qtbot.keyClick(dock.number, Qt.Key_Return)
    assert dock.got == [20] and dock.prompt is second and dock.number.text() == ""
    qtbot.keyClicks(dock.number, "60")
    qtbot.keyClick(dock.number, Qt.Key_Return)
    assert dock.got == [20, 60]


def test_a_question_among_many_answers_chooses_none_for_the_player_so_return_alone_plays_nothing(qtbot):
    """Leros 1.2f, 3.6g: units landing one after another are each asked their coastal hex; had the first hex been
    chosen in advance, Return after Return would stack them all there, to be eliminated for overstacking."""
    win = QMainWindow()
    qtbot.addWidget(win)
    d = PendingDock(win)
    win.addDockWidget(Qt.LeftDockWidgetArea, d)
    win.show()
    played = []
    d.act.connect(played.append)
    coast = [f"C{c:02d}.{r:02d}" for c in range(10, 13) for r in range(1, 7)]
    for unit in ("2-KO:A", "2-KO:B"):
        what = f"where {unit} lands in Landing Zone 3"
        for _shown in range(2):             # the window shows a question again on each refresh
            d.show_pending({"kind": "choice", "what": "landing", "side": "british", "text": what, "options": coast},
                           [f"choose landing {h}" for h in coast], {})
            assert d.pick_box.isVisibleTo(d) and d.many.currentIndex() == -1 and d.many.currentText() == ""
        qtbot.keyClick(d.many.lineEdit(), Qt.Key_Return)
        assert played == [] and d.refusal.text() == "Type or pick an answer"
    qtbot.keyClicks(d.many.lineEdit(), "C11.0")
    d.show_pending({"kind": "choice", "what": "landing", "side": "british", "text": what, "options": coast},
                   [f"choose landing {h}" for h in coast], {})
    assert d.many.currentText() == "C11.0"          # what the player typed survives a refresh
    qtbot.keyClicks(d.many.lineEdit(), "4")
    qtbot.keyClick(d.many.lineEdit(), Qt.Key_Return)
    assert played == ["choose landing C11.04"]


def press(widget, key, text="", at=0):
    """A key press (and release) as the window system sends it, stamped ``at`` ms on its clock."""
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    for kind in (QKeyEvent.KeyPress, QKeyEvent.KeyRelease):
        ev = QKeyEvent(kind, key, Qt.NoModifier, text)
        ev.setTimestamp(at)
        QApplication.sendEvent(widget, ev)


def type_at(widget, text, at):
    for i, ch in enumerate(text):
        press(widget, getattr(Qt, f"Key_{ch.upper()}", Qt.Key_Period), ch, at + 40 * i)
    press(widget, Qt.Key_Return, "\r", at + 40 * len(text))


def test_keys_typed_ahead_for_a_cell_are_left_out_of_the_next_cell_asked(dock, qtbot):
    """A fast typist enters 20 and Return, and a 5 and a Return follow at once: they were meant for the first cell
    (a key bounced, a Return pressed twice) and must not answer the second; what is typed after it has been asked
    answers it."""
    second = prompt(range(1, 61), slot="tcs.weather_visibility", key=("clear",))
    dock.answered.connect(lambda v: dock.show_prompt(second) if len(dock.got) == 1 else None)
    dock.show_prompt(prompt(range(1, 61)))
    type_at(dock.number, "20", 10_000)                  # Return at 10,080
    assert dock.got == [20] and dock.prompt is second
    type_at(dock.number, "5", 10_150)                   # 70 ms after that Return: typed ahead
    assert dock.got == [20] and dock.number.text() == ""
    assert dock.refusal.text() == "Left out 2 key(s) pressed before this cell was asked"
    type_at(dock.number, "60", 12_000)
    assert dock.got == [20, 60]


def test_keys_typed_ahead_for_a_question_are_left_out_of_the_next_question(qtbot):
    win = QMainWindow()
    qtbot.addWidget(win)
    d = PendingDock(win)
    win.addDockWidget(Qt.LeftDockWidgetArea, d)
    win.show()
    played = []
    coast = [f"C{c:02d}.{r:02d}" for c in range(10, 13) for r in range(1, 7)]

    def ask(unit):
        d.show_pending({"kind": "choice", "what": "landing", "side": "british",
                        "text": f"where {unit} lands in Landing Zone 3", "options": coast},
                       [f"choose landing {h}" for h in coast], {})

    d.act.connect(lambda t: (played.append(t), ask("2-KO:B") if len(played) == 1 else None))
    ask("2-KO:A")
    edit = d.many.lineEdit()
    type_at(edit, "C11.04", 5_000)                      # Return at 5,240
    assert played == ["choose landing C11.04"]
    type_at(edit, "C1", 5_300)                          # the rest of a burst: left out, Return answers nothing
    assert played == ["choose landing C11.04"] and d.many.currentText() == ""
    assert d.refusal.text() == "Left out 3 key(s) pressed before this question was asked"
    type_at(edit, "C12.02", 7_000)
    assert played == ["choose landing C11.04", "choose landing C12.02"]
