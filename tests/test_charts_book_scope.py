"""The owner's chart book scoped as the printed material is, never lost, and the values a scenario needs before play.

Black Wednesday and Leros print their own Terrain Effects Charts and counters: a value one game takes
(clear terrain is Open in Black Wednesday) is never read, refused or overwritten by the other (Leros 1.1d
prints clear as Partly Protective).  A bad or contradicting cell is set aside and named, never the whole
book; a book of the previous version is migrated without losing a value.  The test values are made up.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.charts import (ChartAnswer, ChartBook, ChartConflict, ChartKeeper, answer_from_book, book_attribution,
                           chart_scope, count_filled, needs_of, pending_chart_prompt, value_reader)
from engine.fileio import read_toml
from engine.rulesets.tcs import rules_for_path
from engine.scenario.newgame import new_game

ROOT = Path(__file__).resolve().parent.parent
BW4 = ROOT / "scenarios" / "black-wednesday-4-melee-in-krasni-bor.toml"
LEROS1 = ROOT / "scenarios" / "leros-1-curtain-rises.toml"


def book_for(rules, path) -> ChartBook:
    return ChartBook(rules.charts, path, chart_scope(rules), book_attribution("tcs")).load()


def made_up(slot, key):
    """A plausible test value from the slot's domain (not a printed value): foot mobility, mid-range numbers."""
    d = slot.domain
    if slot.id == "tcs.counter.mobility":
        return "foot"
    if d.is_range:
        return max(d.min, min(d.max, (d.min + d.max) // 4 or 1))
    return d.values[min(1, len(d.values) - 1)]


def fill_all(rules, book, state=None) -> int:
    """Enter a made-up value for every value the scenario needs (the form's work), until nothing new is needed."""
    n = 0
    while True:
        value = value_reader(rules.charts, state, book)
        blank = [x for x in needs_of(rules, state, value) if value(x.slot, x.key) is None]
        if not blank:
            return n
        for x in blank:
            n += book.record(x.slot, x.key, made_up(rules.charts[x.slot], x.key))


def advance(game, keeper):
    """Play (ending each step) until a question the owner's book does not hold is asked; that prompt."""
    for _ in range(3000):
        keeper.play_known(game)
        p = pending_chart_prompt(game.rules, game.state)
        if p is not None or game.rules.current(game.state)[0] == "action":
            return p
        acts = game.legal_actions()
        end = [a for a in acts if a.text() == "end"]
        game.play(end[0] if end else acts[0])
    return None


def test_needs_list_every_counter_terrain_and_table_value_of_black_wednesday_4():
    rules = rules_for_path(BW4)
    needs = needs_of(rules)
    types = {u.type for u in rules.scenario.units}
    counters = {(n.row, n.column) for n in needs if n.section == "counters" and n.before_play}
    assert {t for t, _ in counters} == types                        # one row per unit type, reinforcements too
    for t in types:
        assert {c for r, c in counters if r == t} >= {"movement", "mobility", "range", "firepower", "morale", "steps",
                                                      "point fire"}
    assert {n.row for n in needs if n.section == "terrain"} >= set(rules.terrains)
    assert {n.slot for n in needs if n.section == "tables" and n.before_play} == {
        "tcs.turn_visibility", "tcs.weather_visibility", "tcs.spotting_range"}
    assert {n.slot for n in needs if not n.before_play} >= {"bw.weather", "bw.air_sortie", "tcs.bn_morale_reduction"}
    assert len({(n.slot, n.key) for n in needs}) == len(needs)      # each value once, not once per unit
    # no mobility known yet: the movement costs wait for it; once the counters say foot, foot costs are needed
    assert not any(n.slot == "tcs.terrain.move" and n.before_play for n in needs)
    book = ChartBook(rules.charts, None, chart_scope(rules))
    for t in types:
        book.record("tcs.counter.mobility", (t,), "foot")
    value = value_reader(rules.charts, None, book)
    moves = [n for n in needs_of(rules, None, value) if n.slot == "tcs.terrain.move" and n.before_play]
    assert {n.key[1] for n in moves} == {"foot"} and {n.key[0] for n in moves} == set(rules.terrains) | {"road"}


@pytest.mark.parametrize("scenario", [BW4, LEROS1, ROOT / "scenarios" / "black-wednesday-6c-campaign.toml",
                                      ROOT / "scenarios" / "leros-c5-campaign.toml"])
def test_a_book_filled_from_the_needs_list_answers_every_question_before_the_first_action_phase(scenario, tmp_path):
    game = new_game(str(scenario), 1, ())
    book = book_for(game.rules, tmp_path / "tcs.toml")
    fill_all(game.rules, book)
    assert count_filled(needs_of(game.rules, None, value_reader(game.rules.charts, None, book)),
                        value_reader(game.rules.charts, None, book)).missing == 0
    keeper = ChartKeeper(book, save=False)
    asked = []
    while (p := advance(game, keeper)) is not None:     # a question the form did not cover: the test fails below
        asked.append((p.slot, p.key))
        game.play(ChartAnswer(p.slot, p.key, p.choices[0]))
    assert game.rules.current(game.state)[0] == "action"
    assert asked == [] and keeper.from_book > 0


def test_black_wednesday_and_leros_keep_their_own_terrain_and_counters_in_one_book(tmp_path):
    path = tmp_path / "tcs.toml"
    bw, leros = rules_for_path(BW4), rules_for_path(LEROS1)
    assert (chart_scope(bw), chart_scope(leros)) == ("black-wednesday", "leros")
    a = book_for(bw, path)
    a.record("tcs.terrain.combat", ("clear",), "Open")               # made up for the test
    a.record("tcs.spotting_range", ("open", "vehicle"), 20)          # a series chart: shared
    a.save()
    b = book_for(leros, path)
    assert b.problems == []                                           # nothing refused, nothing set aside
    assert b.lookup("tcs.terrain.combat", ("clear",)) == "Partly Protective"    # Leros 1.1d's own
    assert b.lookup("tcs.spotting_range", ("open", "vehicle")) == 20
    b.record("tcs.terrain.combat", ("village",), "Protective")
    b.save()
    doc = read_toml(path)
    assert doc["format"] == 2
    assert doc["games"]["black-wednesday"]["charts"]["tcs.terrain.combat"] == {"clear": "Open"}
    assert doc["games"]["leros"]["charts"]["tcs.terrain.combat"] == {"village": "Protective"}
    assert doc["charts"]["tcs.spotting_range"] == {"open": {"vehicle": 20}}
    assert book_for(bw, path).lookup("tcs.terrain.combat", ("clear",)) == "Open"


def test_two_windows_sharing_a_book_keep_each_others_cells(tmp_path):
    path = tmp_path / "tcs.toml"
    a, b = book_for(rules_for_path(BW4), path), book_for(rules_for_path(LEROS1), path)
    a.record("tcs.terrain.height", ("city",), 20)
    a.save()
    b.record("tcs.terrain.height", ("village",), 10)
    b.save()                                    # b read the file before a wrote it: a's cell is kept
    a.record("tcs.counter.morale", ("soviet rifle platoon",), 4)
    a.save()
    doc = read_toml(path)
    assert doc["games"]["black-wednesday"]["charts"]["tcs.terrain.height"] == {"city": 20}
    assert doc["games"]["black-wednesday"]["charts"]["tcs.counter.morale"] == {"soviet rifle platoon": 4}
    assert doc["games"]["leros"]["charts"]["tcs.terrain.height"] == {"village": 10}


def test_a_bad_cell_is_set_aside_and_named_and_the_rest_of_the_book_is_kept(tmp_path):
    path = tmp_path / "tcs.toml"
    path.write_text('format = 2\n[charts."tcs.spotting_range".open]\nvehicle = 20\n"non-vehicle" = 12\n'
                    '[games.leros.charts."tcs.terrain.combat"]\nclear = "Open"\nvillage = "Protective"\n'
                    '[games.leros.charts."tcs.terrain.height"]\nvillage = "tall"\n')
    book = book_for(rules_for_path(LEROS1), path)
    assert book.lookup("tcs.spotting_range", ("open", "vehicle")) == 20
    assert book.lookup("tcs.terrain.combat", ("village",)) == "Protective"
    assert book.lookup("tcs.terrain.combat", ("clear",)) == "Partly Protective"
    text = "\n".join(map(str, book.problems))
    assert f"{path}: games.leros.charts.tcs.terrain.combat['clear']: set aside: the published value is " \
           "'Partly Protective', not 'Open'" in text
    assert f"{path}: games.leros.charts.tcs.terrain.height['village']: set aside: 'tall' is not a result" in text
    book.record("tcs.terrain.height", ("village",), 10)
    book.save()
    again = book_for(rules_for_path(LEROS1), path)
    assert again.lookup("tcs.terrain.height", ("village",)) == 10
    assert {(s.slot, s.key, s.value) for s in again.set_aside} == {("tcs.terrain.combat", ("clear",), "Open"),
                                                                    ("tcs.terrain.height", ("village",), "tall")}
    again.discard(again.set_aside[0])
    again.save()
    assert len(book_for(rules_for_path(LEROS1), path).set_aside) == 1


def test_a_file_that_cannot_be_read_is_kept_aside_at_the_first_save(tmp_path):
    path = tmp_path / "tcs.toml"
    path.write_text('format = 2\n[charts."tcs.spotting_range"\n')
    book = book_for(rules_for_path(BW4), path)
    assert book.unreadable is not None and str(path) in str(book.problems[0])
    book.record("tcs.spotting_range", ("open", "vehicle"), 20)
    book.save()
    assert (tmp_path / "tcs.damaged.toml").read_text() == 'format = 2\n[charts."tcs.spotting_range"\n'
    assert book_for(rules_for_path(BW4), path).lookup("tcs.spotting_range", ("open", "vehicle")) == 20


def test_a_conflicting_answer_in_play_is_refused_with_the_books_value(tmp_path):
    game = new_game(str(BW4), 1, ())
    book = book_for(game.rules, tmp_path / "tcs.toml")
    fill_all(game.rules, book)
    for k in [("open", "vehicle"), ("open", "non-vehicle"), ("non-open", "vehicle"), ("non-open", "non-vehicle")]:
        book.correct("tcs.spotting_range", k, None)
    book.correct("tcs.spotting_range", ("open", "vehicle"), 20)
    keeper = ChartKeeper(book, save=False)
    p = advance(game, keeper)
    assert (p.slot, p.key) == ("tcs.spotting_range", ("open", "non-vehicle"))
    book.record("tcs.spotting_range", ("open", "non-vehicle"), 20)    # entered meanwhile, in the chart editor
    n = len(game.log)
    with pytest.raises(ChartConflict) as e:
        keeper.answer(game, 10)
    assert "20" in str(e.value) and "10" in str(e.value) and len(game.log) == n     # nothing played
    assert answer_from_book(p, book).value == 20


def test_a_book_of_the_previous_version_is_migrated_without_losing_a_value(tmp_path):
    path = tmp_path / "tcs.toml"
    old = ('format = 1\n[charts."tcs.terrain.combat"]\nclear = "Open"\n"peat bog" = "Partly Protective"\n'
           'castle = "Protective"\n'
           '[charts."tcs.counter.morale"]\n"soviet rifle platoon" = 4\n"british 2pdr at gun" = 3\n'
           '[charts."bw.weather".clear]\n"7" = "overcast"\n'
           '[charts."tcs.spotting_range".open]\nvehicle = 20\n')
    path.write_text(old)
    bw = rules_for_path(BW4)
    assert "soviet rifle platoon" in {u.type for u in bw.scenario.units}
    leros = rules_for_path(LEROS1)
    assert "british 2pdr at gun" in {u.type for u in leros.scenario.units}
    book = book_for(bw, path)
    assert book.lookup("tcs.terrain.combat", ("peat bog",)) == "Partly Protective"   # only Black Wednesday's map
    assert book.lookup("tcs.counter.morale", ("soviet rifle platoon",)) == 4
    assert book.lookup("bw.weather", ("clear", "7")) == "overcast"
    assert book.lookup("tcs.spotting_range", ("open", "vehicle")) == 20              # the series' stays shared
    assert book.lookup("tcs.terrain.combat", ("clear",)) is None                     # both maps have clear terrain
    assert [(s.slot, s.key, s.value) for s in book.set_aside] == [("tcs.terrain.combat", ("clear",), "Open")]
    assert "which game's printed chart it came from cannot be known" in str(book.problems[0])
    book.save()
    assert (tmp_path / "tcs.format-1.toml").read_text() == old                      # the old file, as it was
    doc = read_toml(path)
    assert doc["games"]["leros"]["charts"]["tcs.terrain.combat"] == {"castle": "Protective"}
    assert doc["games"]["leros"]["charts"]["tcs.counter.morale"] == {"british 2pdr at gun": 3}
    assert doc["set_aside"][0]["value"] == "Open"
    b = book_for(leros, path)
    assert b.lookup("tcs.counter.morale", ("british 2pdr at gun",)) == 3 and b.migrated == 0
    # the owner says the set-aside clear value was Black Wednesday's
    again = book_for(bw, path)
    again.restore(again.set_aside[0])
    assert again.lookup("tcs.terrain.combat", ("clear",)) == "Open" and again.set_aside == []


def test_validate_checks_a_games_own_cells_even_when_the_book_has_no_series_chart(tmp_path, capsys):
    from engine.cli import main

    p = tmp_path / "tcs.toml"
    p.write_text('format = 2\n[games.black-wednesday.charts."tcs.counter.firepower"]\n"soviet rifle platoon" = 124\n')
    assert main(["validate", str(p)]) == 1
    out = capsys.readouterr().out
    assert f"{p}: games.black-wednesday.charts.tcs.counter.firepower['soviet rifle platoon']: 124 is not a result" \
           in out
