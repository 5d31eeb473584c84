"""The scenario editor's Check balance: the engine's balance command in the background, its progress, its report
beside the previous one, and Stop."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess

from engine.cli import main
from engine.scenario import edit as E
from scenarioeditorwindow import scenario_editor

ROOT = Path(__file__).resolve().parent.parent
RIVER = ROOT / "scenarios" / "classic-river-crossing.toml"


@pytest.fixture
def editor(qtbot, tmp_path_factory):
    return scenario_editor(qtbot, tmp_path_factory.mktemp("tiles"))


def cli_summary(path, games, capsys) -> dict:
    assert main(["balance", str(path), "--games", str(games), "--bots", "baseline,baseline", "--seed", "1",
                 "--jobs", "1", "--json"]) == 0
    return json.loads(capsys.readouterr().out.splitlines()[-1])


def rows(page) -> dict:
    t = page.table
    return {t.topLevelItem(i).text(0): [t.topLevelItem(i).text(c) for c in range(1, 5)]
            for i in range(t.topLevelItemCount())}


def test_check_balance_plays_in_the_background_and_shows_the_change_a_new_set_up_makes(editor, qtbot, tmp_path,
                                                                                        capsys):
    ed = editor
    assert ed.open_scenario(RIVER)
    path = tmp_path / "river.toml"
    assert ed.save(path)
    page = ed.balance
    assert page.choose(("baseline", "baseline"))
    seen = []
    page.run.progress.connect(lambda done, games: seen.append((done, games)))
    with qtbot.waitSignal(page.run.finished, timeout=120_000):
        assert ed.check_balance() is True
        assert not page.check_btn.isEnabled() and page.stop_btn.isEnabled()     # the window answers meanwhile
    assert ed.tabs.currentWidget() is page
    assert seen == [(n, 20) for n in range(1, 21)]
    assert page.bar.value() == 20 and page.check_btn.isEnabled()
    first = cli_summary(path, 20, capsys)
    shown = rows(page)
    for side, row in first["sides"].items():
        name = "draws" if side == "draw" else f"{side} wins"
        lo, hi = row["ci95"]
        assert shown[name][:3] == [str(row["wins"]), f"{100 * row['rate']:.0f} %", f"{100 * lo:.0f}–{100 * hi:.0f} %"]
        assert shown[name][3] == ""                                   # no previous check yet
    assert "20 games, baseline on both sides" in page.headline.text()
    levels = ", ".join(f"{k} {v}" for k, v in first["levels"].items())
    assert f"Victory levels: {levels}." in page.detail.text()          # the classic conditions' levels

    # the designer takes a unit away from one side, checks again, and sees the figures before beside the new ones
    red = sorted(uid for uid, u in ed.scenario.units.items() if u.side == "red")
    assert ed.edit(lambda s: E.remove_units(s, red[:2]), "remove two red units")
    with qtbot.waitSignal(page.run.finished, timeout=120_000):
        assert ed.check_balance() is True
    assert not ed.dirty                                                 # it saved the change before playing
    second = cli_summary(path, 20, capsys)
    shown = rows(page)
    for side, row in second["sides"].items():
        name = "draws" if side == "draw" else f"{side} wins"
        assert shown[name][0] == str(row["wins"])
        assert shown[name][3] == f"{100 * first['sides'][side]['rate']:.0f} %"
    assert second["sides"]["red"]["wins"] <= first["sides"]["red"]["wins"]
    (now, parts), (before, old) = page.bars.rows                      # the two checks as bars, in side colours
    assert (now, before) == ("this check", "previous check")
    assert [(n, round(20 * share)) for n, share, _ in parts] == [("blue", second["sides"]["blue"]["wins"]),
                                                                   ("red", second["sides"]["red"]["wins"]),
                                                                   ("draws", second["sides"]["draw"]["wins"])]
    assert [round(20 * share) for _, share, _ in old] == [first["sides"][k]["wins"] for k in ("blue", "red", "draw")]
    assert [c for _, _, c in parts] == [ed.scenario.sides["blue"].colour, ed.scenario.sides["red"].colour,
                                        page.bars.DRAW]


def test_stop_ends_the_games_and_reports_nothing(editor, qtbot, tmp_path):
    ed = editor
    assert ed.open_scenario(RIVER)
    assert ed.save(tmp_path / "river.toml")
    page = ed.balance
    assert page.choose(("baseline", "baseline"))
    page.games.setValue(1000)
    with qtbot.waitSignal(page.run.progress, timeout=120_000):
        assert page.check() is True
    assert page.run.running()
    page.stop()
    assert not page.run.running() and page.check_btn.isEnabled() and not page.stop_btn.isEnabled()
    assert page.headline.text().startswith("Stopped after") and page.table.topLevelItemCount() == 0
    assert page.summary is None
    # closing the editor while a check plays stops it too
    with qtbot.waitSignal(page.run.progress, timeout=120_000):
        assert page.check() is True
    process = page.run.process
    ed.close()
    assert process.state() == QProcess.NotRunning and not page.run.running()


def test_a_scenario_without_rules_or_with_problems_is_not_played(editor, tmp_path):
    ed = editor
    assert ed.balance.check() is False
    assert ed.last_message == "Open a scenario or start a new one on a map first"
    assert ed.open_scenario(RIVER)
    assert ed.save(tmp_path / "river.toml")
    assert ed.edit(lambda s: E.update_unit(s, "b-1", hex="9999"), "a hex off the map")
    assert [p.key for p in ed.check()] == ["units.b-1.hex"]
    assert ed.balance.check() is False
    assert ed.last_message == "fix the problems before checking the balance"
    assert not ed.balance.run.running() and ed.tabs.currentIndex() == 4
    assert ed.open_scenario(ROOT / "scenarios" / "free-demo.toml")
    assert ed.scenario.ruleset == "free"
    assert ed.balance.check() is False
    assert ed.last_message.startswith("a scenario without rules has no winner")


def test_a_run_that_fails_says_why_in_words(editor, qtbot, tmp_path):
    ed = editor
    assert ed.open_scenario(RIVER)
    path = tmp_path / "river.toml"
    assert ed.save(path)
    path.unlink()                               # the file is gone behind the editor's back
    page = ed.balance
    assert page.choose(("baseline", "baseline"))
    with qtbot.waitSignal(page.run.failed, timeout=120_000) as got:
        assert page.check() is True
    assert "river.toml" in got.args[0]
    assert "Traceback" not in got.args[0]
    assert page.headline.text() == "The check could not be run" and page.check_btn.isEnabled()
    assert ed.last_message.startswith("Check balance\nthe balance check failed: ")


def test_a_ruleset_with_only_the_random_player_offers_no_check(editor, monkeypatch, tmp_path):
    # every ruleset the editor edits has a baseline player today; one with only the random player (as the TCS
    # games have) is refused in words rather than run
    from gui.scenarioeditor import balancepage

    ed = editor
    assert ed.open_scenario(RIVER)
    assert ed.save(tmp_path / "river.toml")
    assert [ed.balance.players.itemData(i) for i in range(ed.balance.players.count())][-1] == ("baseline",
                                                                                               "baseline")
    monkeypatch.setattr(balancepage, "players_for", lambda ruleset: ["random"])
    assert ed.balance.check() is False
    assert ed.balance.players.count() == 0
    assert ed.last_message.startswith("the computer has no player for the classic rules that plays to win")
    assert not ed.balance.run.running()


def test_a_tcs_scenarios_check_reads_the_owners_chart_book(monkeypatch, tmp_path, qtbot):
    import gui.charts.shelf as shelf
    from gui.scenarioeditor.balancepage import BalanceRun, owner_charts
    from leros_book import write_book

    leros3 = Path(__file__).resolve().parent.parent / "scenarios" / "leros-3-night-melee.toml"
    monkeypatch.setattr(shelf, "charts_folder", lambda: tmp_path)
    assert owner_charts(str(leros3)) is None                 # no book kept: the games' players answer
    book = write_book(tmp_path)                              # the TEST book, where the owner's is kept
    assert owner_charts(str(leros3)) == book
    run = BalanceRun()
    run.start(str(leros3), ("strong", "baseline"), 1, 1, jobs=1)
    args = run.process.arguments()
    run.stop()
    assert args[args.index("--charts") + 1] == str(book) and args[args.index("--bots") + 1] == "strong,baseline"
