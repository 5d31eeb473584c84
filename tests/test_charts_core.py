"""Chart slots, the owner's book and prompts in play: the contract every chart-driven ruleset uses."""
import pytest

from engine.charts import (BadChartValue, ChartAnswer, ChartBook, ChartConflict, ChartMemory, Step,
                           accept_answer, answer_from_book, answer_words, answers, dice_labels, parse_slots,
                           prompt_for, remember_answer)
from engine.errors import BadFile, IllegalAction
from engine.fileio import read_toml as tomli_load

SLOTS = {
    "chart": [
        {"id": "t.fire", "title": "Fire Table", "rule": "T 9.1",
         "axes": [{"name": "column", "labels": ["1", "2", "3"]}, {"name": "roll", "dice": "2d6"}],
         "domain": {"values": ["-", "S", "1S", "2S"]},
         "known": {"1": {"2": "-"}}},
        {"id": "t.morale", "title": "Morale", "rule": "T 12",
         "axes": [{"name": "unit type", "open": True}],
         "domain": {"min": 0, "max": 9}},
    ]
}


def slots():
    return parse_slots(SLOTS, "slots.toml")


def test_dice_axes_read_as_printed():
    assert dice_labels("1d6") == ("1", "2", "3", "4", "5", "6")
    assert dice_labels("2d6")[0] == "2" and dice_labels("2d6")[-1] == "12"
    d66 = dice_labels("d66")
    assert len(d66) == 36 and d66[0] == "11" and d66[-1] == "66" and "17" not in d66


def test_bad_slot_file_names_the_chart_and_key():
    bad = {"chart": [{"id": "x", "title": "X", "axes": [{"name": "roll", "dice": "3q"}], "domain": {"values": ["A"]}},
                     {"id": "y", "title": "Y", "axes": [{"name": "c", "labels": ["1"]}], "domain": {"values": ["A"]},
                      "known": {"1": "B"}}]}
    with pytest.raises(BadFile) as e:
        parse_slots(bad, "s.toml")
    text = str(e.value)
    assert "s.toml: chart[0].axes[0].dice" in text
    assert "chart[1].known['1']" in text and "'B' is not a result" in text and "'A'" in text


def test_owner_book_refuses_bad_cells_and_contradictions(tmp_path):
    book = ChartBook(slots(), tmp_path / "charts.toml")
    assert book.lookup("t.fire", ("1", "2")) == "-"           # published cell
    assert book.lookup("t.fire", ("2", "7")) is None          # blank
    assert book.record("t.fire", ("2", "7"), "1S") is True
    with pytest.raises(ChartConflict) as e:
        book.record("t.fire", ("2", "7"), "2S")
    assert "'1S'" in str(e.value) and "'2S'" in str(e.value) and "Fire Table[2][7]" in str(e.value)
    with pytest.raises(BadChartValue, match="expected one of '-', 'S', '1S', '2S'"):
        book.record("t.fire", ("2", "8"), "3S")
    with pytest.raises(BadChartValue, match="roll '13' is not on the chart"):
        book.record("t.fire", ("2", "13"), "S")
    assert book.record("t.morale", ("rifle platoon",), "4") is True
    book.save()
    again = ChartBook(slots(), tmp_path / "charts.toml").load()
    assert again.lookup("t.fire", ("2", "7")) == "1S"
    assert again.lookup("t.morale", ("rifle platoon",)) == 4


def test_bad_book_file_names_file_cell_and_allowed_values(tmp_path):
    p = tmp_path / "charts.toml"
    p.write_text('format = 1\n[charts."t.fire"]\n"2" = { "7" = "9S", "14" = "S", "8" = "1S" }\n[charts."t.nope"]\n"1" = 1\n')
    with pytest.raises(BadFile) as e:                       # checking a file (validate, import): every problem
        ChartBook(slots()).parse(tomli_load(p), str(p))
    text = str(e.value)
    assert f"{p}: charts.t.fire['2']['7']: '9S' is not a result of Fire Table (expected one of" in text
    assert "roll '14' is not on the chart" in text
    assert "charts.t.nope: there is no chart 't.nope'" in text
    book = ChartBook(slots(), p).load()                     # reading the owner's book: never refused whole
    assert book.lookup("t.fire", ("2", "8")) == "1S"
    assert [(s.slot, s.key, s.value) for s in book.set_aside] == [
        ("t.fire", ("2", "7"), "9S"), ("t.fire", ("2", "14"), "S"), ("t.nope", ("1",), 1)]
    assert f"{p}: charts.t.fire['2']['7']: set aside: '9S' is not a result of Fire Table" in \
        "\n".join(map(str, book.problems))
    book.record("t.fire", ("3", "3"), "S")
    book.save()                                             # the bad cells stay in the file, set aside
    again = ChartBook(slots(), p).load()
    assert again.lookup("t.fire", ("3", "3")) == "S" and len(again.set_aside) == 3


def test_import_is_all_or_nothing(tmp_path):
    mine = ChartBook(slots(), tmp_path / "mine.toml")
    mine.record("t.fire", ("3", "5"), "S")
    theirs = ChartBook(slots(), tmp_path / "theirs.toml")
    theirs.record("t.fire", ("3", "5"), "2S")
    theirs.record("t.fire", ("3", "6"), "S")
    theirs.export(tmp_path / "export.toml")
    with pytest.raises(BadFile, match="contradicts the value already entered"):
        mine.import_file(tmp_path / "export.toml")
    assert mine.lookup("t.fire", ("3", "6")) is None
    theirs.correct("t.fire", ("3", "5"), "S")
    theirs.export(tmp_path / "export.toml")
    assert mine.import_file(tmp_path / "export.toml") == 1
    assert mine.lookup("t.fire", ("3", "6")) == "S"


def test_prompt_answer_memory_and_owner_chart():
    s = slots()
    prompt = prompt_for(s["t.fire"], ("2", "9"), (Step("column 3 (firepower 12)"), Step("-1 trench", "BW 1.3a"),
                                                  Step("roll 9")), "fire at B12.07")
    assert prompt.text() == ("Fire Table[2][9] for fire at B12.07: column 3 (firepower 12), -1 trench (BW 1.3a), "
                             "roll 9: enter the printed result")
    legal = answers(prompt)
    assert [a.value for a in legal] == ["-", "S", "1S", "2S"]
    assert ChartAnswer.parse(legal[2].text()) == legal[2]
    mem = ChartMemory()
    with pytest.raises(IllegalAction, match="T 9.1: 'X' is not a result"):
        accept_answer(s, mem, prompt, ChartAnswer("t.fire", ("2", "9"), "X"))
    with pytest.raises(IllegalAction, match=r"asked for now is Fire Table\[2\]\[9\]"):
        accept_answer(s, mem, prompt, ChartAnswer("t.fire", ("2", "8"), "S"))
    assert accept_answer(s, mem, prompt, legal[2]) == "1S"
    with pytest.raises(IllegalAction, match="entered as '1S' earlier in this game; '2S' contradicts it"):
        accept_answer(s, mem, prompt, legal[3])
    assert ChartMemory.from_dict(mem.to_dict()).get("t.fire", ("2", "9")) == "1S"
    book = ChartBook(s)
    assert answer_from_book(prompt, book) is None
    remember_answer(book, legal[2])
    auto = answer_from_book(prompt, book)
    assert auto.text() == "chart t.fire [2][9] = 1S (owner's chart)"
    assert ChartAnswer.parse(auto.text()) == auto


def test_a_chart_answer_in_words_names_the_chart_and_each_key_by_its_axis():
    s = slots()
    assert answer_words(s, ChartAnswer("t.fire", ("2", "9"), "1S")) == "Fire Table, column 2, roll 9: 1S"
    assert answer_words(s, ChartAnswer("t.morale", ("rifle_platoon",), 4, from_owner=True)) == \
        "Morale, unit type rifle platoon: 4 (read from the owner's chart)"
    unknown = ChartAnswer("t.other", ("1",), 2)
    assert answer_words(s, unknown) == unknown.text()          # a chart not in the set: its text as it is
