"""Terrain suggested from a few painted hexes, hexside lines from a sample of one, as undoable session steps."""
from __future__ import annotations

import numpy as np
import pytest

from engine.bench.digitise_terrain import (hexside_counts, hexside_figures, pick_examples, scan_accuracy, small_scan,
                                           terrain_accuracy)
from engine.maps.mapedit import MapEdit
from engine.maps.mapfile import dumps_map, load_map
from engine.maps.scanset import make_scan
import engine.maps.suggest as suggest_module
from engine.maps.hexes import Hex, hexside
from engine.maps.suggest import (DRIFT_CONFIDENCE, FEATURE_NAMES, LOW_CONFIDENCE, SAMPLE_RADIUS, SAMPLE_RINGS,
                                 SIDE_ACCEPT, SuggestError, _disc_offsets, _fine_marks, _gather, _road_points,
                                 _short_runs_halved,
                                 _to_image, _to_paint, board_hexsides, hex_features, load_image, rgb_to_lab,
                                 suggest_hexsides, suggest_terrain)


@pytest.fixture(scope="module")
def crossing():
    board = load_map("maps/crossing.toml")
    return board, {"A": load_image(board.image_path(board.sheets[0]))}


@pytest.fixture(scope="module")
def scan11():
    return make_scan(11)                                  # a drawing style the project's map art does not use


def test_terrain_of_a_generated_scan_from_five_percent_of_its_hexes(scan11):
    scan = scan11
    board, sheet = scan.board, scan.sheet
    truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
    examples = pick_examples(truth, 0.05, 11)
    assert len(examples) <= 0.06 * len(truth) + len(set(truth.values()))
    got = suggest_terrain(board, {"A": np.asarray(scan.image)}, examples, targets=list(truth))
    right = [got.terrain[h][0] == truth[h] for h in got.terrain]
    assert len(right) == len(truth) - len(examples)
    assert np.mean(right) >= 0.97                         # measured 0.981 (213 hexes from 11 painted)
    sure = [r for h, r in zip(got.terrain, right) if got.terrain[h][1] >= LOW_CONFIDENCE]
    # above the review line (0.9) a suggestion is wrong about once in ten at worst: here 3 of 196, at 0.91-0.93
    assert len(sure) >= 0.85 * len(right) and np.mean(sure) >= 0.97


@pytest.mark.parametrize("seed, least", [(16, 0.93), (12, 0.78)])
def test_one_odd_example_no_longer_carries_a_terrain_off(seed, least):
    """Scans of the set where a terrain with one example grabbed another's hexes (seed 16: 22 clear hexes
    suggested as lake, 0.82 right; seed 12: 24 woods hexes as town, 0.63): the classes now grow from their
    surest hexes outwards. (Seed 12 was 0.914 before roads were left out of a hex's look, 0.804 since: its one
    woods example has a few small trees, and which woods hexes first teach the town decides.)"""
    scan = make_scan(seed)
    board, sheet = scan.board, scan.sheet
    truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
    examples = pick_examples(truth, 0.05, seed, [sheet.numbering.parse(i) for i in scan.covered])
    assert not set(examples) & {sheet.numbering.parse(i) for i in scan.covered}
    got = suggest_terrain(board, {"A": np.asarray(scan.image)}, examples, targets=list(truth))
    assert np.mean([got.terrain[h][0] == truth[h] for h in got.terrain]) >= least    # measured 0.942 and 0.804


def test_the_starting_terrain_counted_is_suggested_again_not_kept_at_full_confidence(crossing):
    """A new map filled with clear, three woods and town hexes painted, the starting terrain counted (the
    editor's tick): every unpainted hex is classified from the scan like any other, so its woods are
    suggested as woods, and no suggestion claims certainty (they were all kept clear at 1.0, 27 woods
    among them)."""
    board, images = crossing
    truth = dict(board.terrain)
    b = load_map("maps/crossing.toml")
    painted = {h: t for h, t in pick_examples(truth, 0.1, 5).items() if t in ("woods", "town")}
    b.terrain = {**{h: "clear" for h in b.hexes()}, **painted}
    got = suggest_terrain(b, images, dict(b.terrain), fixed=set(painted))
    assert set(got.terrain) == set(b.hexes()) - set(painted)
    woods = [h for h in got.terrain if truth[h] == "woods"]
    assert sum(got.terrain[h][0] == "woods" for h in woods) >= 0.9 * len(woods)      # measured 27 of 27
    clear = [h for h in got.terrain if truth[h] == "clear"]
    assert sum(got.terrain[h][0] == "clear" for h in clear) >= 0.95 * len(clear)     # measured 150 of 150
    assert max(c for _t, c in got.terrain.values()) < 1.0


def test_confidence_is_the_share_right_on_scans_never_tuned_on():
    """Five scans the tuning never used (seeds 100-104 of the set): the suggestions at 0.9 or more are right
    at least nine times in ten, and the mean confidence is within 0.05 of the share right."""
    rows = []
    for seed in range(100, 105):
        scan = make_scan(seed)
        board, sheet = scan.board, scan.sheet
        truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
        examples = pick_examples(truth, 0.05, seed, [sheet.numbering.parse(i) for i in scan.covered])
        got = suggest_terrain(board, {"A": np.asarray(scan.image)}, examples, targets=list(truth))
        rows += [(t == truth[h], c) for h, (t, c) in got.terrain.items()]
    right = np.array([r for r, _c in rows], dtype=float)
    conf = np.array([c for _r, c in rows])
    assert right[conf >= 0.9].mean() >= 0.9
    assert abs(conf.mean() - right.mean()) <= 0.05
    assert conf.max() < 1.0


def test_terrain_of_a_project_scan_and_its_review_list(crossing):
    board, images = crossing
    truth = dict(board.terrain)
    examples = pick_examples(truth, 0.05, 0)
    got = suggest_terrain(board, images, examples)
    assert set(got.terrain) == set(board.hexes()) - set(examples)
    assert np.mean([got.terrain[h][0] == truth[h] for h in got.terrain]) >= 0.97     # measured 1.0
    low = got.low_confidence()
    assert [got.terrain[h][1] for h in low] == sorted(got.terrain[h][1] for h in low)
    assert all(got.terrain[h][1] < LOW_CONFIDENCE for h in low)


def test_no_painted_hex_is_refused_in_words(crossing):
    board, images = crossing
    with pytest.raises(SuggestError, match="paint a few hexes"):
        suggest_terrain(board, images, {})


def test_a_missing_scan_is_named():
    with pytest.raises(SuggestError, match="nowhere.png: the scan does not exist"):
        load_image("maps/nowhere.png")


def test_the_river_is_found_from_one_of_its_hexsides(crossing):
    board, images = crossing
    river = sorted(s for s, fs in board.hexsides.items() if "river" in fs)
    sample = river[len(river) // 2]
    b = load_map("maps/crossing.toml")
    b.hexsides = {sample: {"river"}}                      # one hexside marked by hand
    got = suggest_hexsides(b, images, "river", [sample])
    found = set(got.above(SIDE_ACCEPT))
    rest = set(river) - {sample}
    assert len(found & rest) >= 0.9 * len(rest)           # measured 23 of 24
    assert sample not in got.sides
    # the scan's other blue lines along hexsides (the lake's shore, the set-up area's border) were 34 more at
    # 0.7 when the inks alone decided; with the line's look across learnt, 1
    assert len(found - rest) <= 3


def test_a_zone_border_in_the_rivers_blue_is_not_lifted_on_its_inks_alone(crossing):
    """The river's first hexside marked, at the map's edge: the set-up area's border, printed in a blue like
    the river's along six hexsides, was lifted on its inks where the look saw it 0.17-0.33; lifted alone only
    within 0.2 of the threshold, one is (as before the lifts reached 0.25 under it on a line)."""
    board, images = crossing
    river = sorted(s for s, fs in board.hexsides.items() if "river" in fs)
    b = load_map("maps/crossing.toml")
    b.hexsides = {river[0]: {"river"}}
    found = set(suggest_hexsides(b, images, "river", [river[0]]).above(SIDE_ACCEPT))
    assert len(found & set(river)) == 23                                 # of 24 left
    assert len(found - set(river)) <= 1                                 # measured 1 (6 lifted)


def test_a_ridge_is_found_from_one_of_its_hexsides_by_its_look_across():
    """Scan 7 of the set: a ridge (a brown line with ticks to one side) among hills and rough ground in browns
    of their own. Its inks alone found 2 of its 13 other hexsides among 17 suggested; its look across the
    line, learnt against the ordinary hexside's, finds them."""
    scan = make_scan(7)
    got = hexside_figures([scan])
    assert got["ridge_recall"] >= 0.85 and got["ridge_precision"] >= 0.8      # measured 0.923 and 0.857
    assert got["river_recall"] >= 0.85 and got["river_precision"] >= 0.85     # measured 0.875 and 1.0


def test_the_inks_lift_only_a_hexside_that_goes_on_a_line():
    """Scans 39 (pastel, a ridge among lakes) and 33 (vivid) of the set: hexsides that showed the ridge's inks
    but that the learnt look half saw were lifted to the threshold one by one, 11 on scan 39 and 4 on scan 33,
    none a ridge, each with no other hexside found at either end. Lifted now only where the line goes on from
    a hexside found (or with the inks nearly end to end): none; the rivers of both scans are still found,
    whole or all but one (8 of 8, 31 of 32), none wrong."""
    for seed in (39, 33):                               # measured 1.0 and 1.0 (0.313 and 0.429 lifted alone)
        got = hexside_figures([make_scan(seed)])
        assert got["ridge_precision"] == 1.0, seed
        assert got["ridge_recall"] >= 0.7, seed           # measured 0.714 and 0.75, as before
        assert got["river_recall"] >= 0.95 and got["river_precision"] == 1.0, seed


def test_terrain_of_a_faded_scan_from_a_few_painted_hexes():
    """Scan 6 of the set is drawn in the faded palette (woods, rough, hills and clear a few L* apart, every hex
    tinted on its own): 16 hexes painted, one or more of each terrain, none under a counter."""
    scan = make_scan(6)
    assert scan.style.palette == "faded"
    board, sheet = scan.board, scan.sheet
    truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
    examples = pick_examples(truth, 0.05, 6, [sheet.numbering.parse(i) for i in scan.covered])
    assert len(examples) == 16 and set(examples.values()) == set(truth.values())
    got = suggest_terrain(board, {"A": np.asarray(scan.image)}, examples, targets=list(truth))
    right = {h: got.terrain[h][0] == truth[h] for h in got.terrain}
    assert np.mean(list(right.values())) >= 0.93                       # measured 0.951 of 308
    for terrain in ("woods", "rough", "marsh", "town", "hills"):        # the marks tell them apart: 0.98-1.0
        assert np.mean([r for h, r in right.items() if truth[h] == terrain]) >= 0.95, terrain
    sure = [r for h, r in right.items() if got.terrain[h][1] >= LOW_CONFIDENCE]
    assert len(sure) >= 0.8 * len(right) and np.mean(sure) >= 0.96     # measured 262 at 0.977


def test_a_border_between_two_fills_is_not_taken_for_the_ridge_marked_on_one():
    """Scan 2 of the set: the ridge marked lies between a clear hex and a lake. Its look across learnt whole,
    the lake's blue on one side came with it and 36 of the scan's 36 other clear-lake borders, none a ridge,
    were suggested as ridges; with the fills either side taken out and the line's own look asked for too,
    5."""
    scan = make_scan(2)
    board = scan.board
    ridges = {s for s, fs in board.hexsides.items() if "ridge" in fs}
    sample = hexside(Hex(4, 5), Hex(4, 6))
    assert sample in ridges and {board.terrain[sample.a], board.terrain[sample.b]} == {"clear", "lake"}
    borders = [s for s in board_hexsides(board) if s not in ridges
               and {board.terrain[s.a], board.terrain[s.b]} == {"clear", "lake"}]
    assert len(borders) == 36
    kept, board.hexsides = board.hexsides, {sample: {"ridge"}}
    try:
        got = suggest_hexsides(board, {"A": np.asarray(scan.image)}, "ridge", [sample])
    finally:
        board.hexsides = kept
    found = set(got.above(SIDE_ACCEPT))
    assert len(found & set(borders)) <= 8                               # measured 5 of 36
    assert len(found - ridges) <= 12                                    # measured 10 (45 before)


def _suggest_on_scan(scan, feature, samples, rejected=()):
    board = scan.board
    kept, board.hexsides = board.hexsides, {s: {feature} for s in samples}
    try:
        return suggest_hexsides(board, {"A": np.asarray(scan.image)}, feature, samples, rejected=rejected)
    finally:
        board.hexsides = kept


@pytest.mark.parametrize("seed, feature, sample, rejected, hits, wrong, left, lost", [
    # scan 51 (seeds 0-59): four hexsides in a hills area taken for ridges, their hex lines in the ridge's brown
    # (five before the sample's inks were asked of a suggestion's line)
    (51, "ridge", hexside(Hex(8, 1), Hex(9, 1)), hexside(Hex(15, 8), Hex(16, 8)), 6, 4, 0, 0),
    # scan 7: eight hexsides taken for walls (eleven before the sample's inks were asked of a suggestion's line);
    # one rejected, one is left
    (7, "wall", hexside(Hex(-2, 5), Hex(-1, 4)), hexside(Hex(11, 11), Hex(12, 10)), 7, 8, 1, 0),
])
def test_one_rejected_hexside_removes_the_wrong_suggestions_that_look_like_it(seed, feature, sample, rejected,
                                                                              hits, wrong, left, lost):
    """The person turns down one wrong suggestion: the hexsides that look like it go with it, the true ones
    found stay."""
    scan = make_scan(seed)
    truth = {s for s, fs in scan.board.hexsides.items() if feature in fs}
    assert sample in truth and rejected not in truth
    before = set(_suggest_on_scan(scan, feature, [sample]).above(SIDE_ACCEPT))
    assert rejected in before
    assert (len(before & truth), len(before - truth)) == (hits, wrong)
    got = _suggest_on_scan(scan, feature, [sample], [rejected])
    after = set(got.above(SIDE_ACCEPT))
    assert rejected not in got.sides
    assert len(before & truth - after) == lost                         # the true ones found stay
    assert len(after - truth) == left


def test_a_rejected_hexside_is_never_suggested():
    """Even a hexside drawn like the sample, when the person rejects it; a hexside both marked and rejected
    counts as marked."""
    scan = make_scan(51)
    sample = hexside(Hex(8, 1), Hex(9, 1))
    first = _suggest_on_scan(scan, "ridge", [sample])
    surest = sorted(first.sides, key=first.sides.get, reverse=True)[:3]
    assert all(first.sides[s] >= SIDE_ACCEPT + 0.05 for s in surest)   # measured 0.48-0.59
    got = _suggest_on_scan(scan, "ridge", [sample], surest)
    assert not set(surest) & set(got.sides)
    again = _suggest_on_scan(scan, "ridge", [sample], [sample])
    assert again.sides == first.sides


def test_a_second_sample_unlike_the_first_does_not_carry_the_suggestion_off():
    """Scan 33: the ridge marked, then a missed ridge hexside that a river runs along too. The two samples'
    looks averaged found none of the ridge's other hexsides and 31 river hexsides; the second sample now
    teaches a look of its own, which only lifts what the first look half sees."""
    scan = make_scan(33)
    truth = {s for s, fs in scan.board.hexsides.items() if "ridge" in fs}
    first, second = hexside(Hex(-4, 10), Hex(-3, 9)), hexside(Hex(-4, 9), Hex(-4, 10))
    assert scan.board.hexsides[second] == {"ridge", "river"}
    one = set(_suggest_on_scan(scan, "ridge", [first]).above(SIDE_ACCEPT))
    two = set(_suggest_on_scan(scan, "ridge", [first, second]).above(SIDE_ACCEPT))
    assert len(one & truth) == len(two & truth) == 3                   # of 3 left
    assert len(two - truth) <= 10                                       # measured 9 (31 averaged)


def test_the_bench_with_two_corrections():
    """Scan 51: one mark, then two corrections, each a wrong suggestion rejected or, with none left, a missed
    hexside marked."""
    one = hexside_figures([make_scan(51)])
    corrected = hexside_figures([make_scan(51)], corrections=2)
    assert one["ridge_precision"] < 0.65 and corrected["ridge_precision"] == 1.0    # measured 0.6 (6 of 10)
    assert corrected["ridge_recall"] >= one["ridge_recall"]
    assert corrected["river_recall"] == corrected["river_precision"] == 1.0
    assert corrected["wall_recall"] == corrected["wall_precision"] == 1.0             # 0.833 and 0.833 with one mark


def test_suggestions_are_undoable_and_never_saved(crossing):
    board, images = crossing
    truth = dict(board.terrain)
    b = load_map("maps/crossing.toml")
    b.terrain.clear()
    ed = MapEdit(b)
    for h, t in pick_examples(truth, 0.05, 1).items():
        ed.paint(h, t)
    painted = dict(b.terrain)
    assert ed.examples() == painted
    saved = dumps_map(b)
    got = suggest_terrain(b, images, ed.examples())
    ed.suggest_terrain(got.terrain)
    assert len(ed.suggested) == len(b.hexes()) - len(painted)
    assert dumps_map(b) == saved                          # pending suggestions are no part of the map
    # half of them accepted (on this scan every suggestion is above the review line, 0.985 or more)
    sure = sorted(ed.suggested)[::2]
    ed.accept_suggested(sure)
    assert all(b.terrain[h] == got.terrain[h][0] for h in sure)
    assert len(ed.suggested) == len(got.terrain) - len(sure)
    assert ed.undo().startswith("accept")
    assert b.terrain == painted and len(ed.suggested) == len(got.terrain)
    assert ed.undo().startswith("suggest")
    assert ed.suggested == {} and b.terrain == painted
    ed.redo()
    ed.redo()
    assert all(b.terrain[h] == got.terrain[h][0] for h in sure)
    h = next(iter(ed.suggested))
    ed.paint(h, "town")                                    # painting a suggested hex decides it by hand
    assert h not in ed.suggested and h in ed.painted and b.terrain[h] == "town"


def test_a_partly_done_map_opened_again_learns_from_its_terrain_and_each_hex_painted_since():
    """The crossing map saved with ten hexes painted and the rest without terrain, opened again: those ten teach;
    one more painted by hand adds to them instead of leaving it alone (every painted hex would be clear)."""
    truth = dict(load_map("maps/crossing.toml").terrain)
    b = load_map("maps/crossing.toml")
    b.terrain.clear()
    earlier = pick_examples(truth, 0.05, 2)
    b.terrain.update(earlier)
    ed = MapEdit(b)
    assert ed.examples() == earlier
    h = next(h for h in sorted(truth) if h not in earlier and truth[h] == "clear")
    ed.paint(h, "clear")
    assert ed.examples() == {**earlier, h: "clear"} and len(set(ed.examples().values())) == 4


def test_the_bench_figures_of_one_scan(scan11):
    terrain = terrain_accuracy([scan11])
    assert terrain["terrain_accuracy"] == round(terrain["scans"][0]["accuracy"], 4) >= 0.97      # measured 0.995
    sides = hexside_figures([scan11])
    assert sides["river_scans"] == sides["wall_scans"] == sides["ridge_scans"] == 1
    assert sides["river_recall"] >= 0.95 and sides["river_precision"] >= 0.95          # measured 1.0 and 1.0
    assert sides["wall_recall"] >= 0.85 and sides["wall_precision"] >= 0.95            # measured 0.889 and 1.0
    assert scan11.board.hexsides and all(len(fs) for fs in scan11.board.hexsides.values())   # truth left as it was


def test_one_terrain_painted_or_no_calibrated_grid_is_refused_in_words(crossing):
    board, images = crossing
    woods = [h for h, t in board.terrain.items() if t == "woods"][:3]
    with pytest.raises(SuggestError, match="every painted hex is woods: paint a few hexes of each other terrain"):
        suggest_terrain(board, images, {h: "woods" for h in woods})
    b = load_map("maps/crossing.toml")
    b.sheets[0].transform = type(b.sheets[0].transform)()       # the identity: a grid never fitted to the scan
    examples = pick_examples(dict(b.terrain), 0.05, 0)
    with pytest.raises(SuggestError, match="calibrate the grid on the scan first"):
        suggest_terrain(b, images, examples)
    river = next(s for s, fs in b.hexsides.items() if "river" in fs)
    with pytest.raises(SuggestError, match="calibrate the grid"):
        suggest_hexsides(b, images, "river", [river])
    with pytest.raises(SuggestError, match="no scan to read from"):
        suggest_terrain(board, {}, examples)


def test_a_terrain_with_one_example_does_not_swallow_another_in_the_last_unsure_steps():
    """Scan 324 of the test set (pastel, one rough example, stipple): when the least sure hexes taught the classes
    too, rough took 16 woods and 6 clear hexes in the last steps (0.736 right); their surest 60 % only: 0.918."""
    figures = scan_accuracy(make_scan(324))
    wrong = [t for t, right, _c in figures["rows"] if not right]
    assert figures["accuracy"] > 0.9
    assert wrong.count("woods") <= 8


def test_the_editor_names_the_hexes_whose_painting_would_teach_most():
    """Scan 55 of the set, one hex of each terrain and 3 % painted at random: its one clear example misleads,
    and 133 of its 134 clear hexes are suggested as rough (0.500 right). The six hexes the editor asks for are
    unpainted whole hexes none of them under a counter; among the first three (those that stand for most
    hexes no painted one is like) a clear hex of the kind no painted one shows (suggested as rough); painted,
    they take the scan to 0.982 right."""
    scan = make_scan(55)
    board, sheet = scan.board, scan.sheet
    truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
    hidden = {sheet.numbering.parse(i) for i in scan.covered}
    image = {"A": np.asarray(scan.image)}
    examples = pick_examples(truth, 0.03, 55, hidden)
    got = suggest_terrain(board, image, examples, targets=list(truth), ask=6, ask_among=list(truth))
    assert len(got.to_paint) == 6 and len(set(got.to_paint)) == 6
    assert not set(got.to_paint) & (set(examples) | hidden) and set(got.to_paint) <= set(truth)
    assert any(truth[h] == "clear" and got.terrain[h][0] == "rough" for h in got.to_paint[:3])
    before = np.mean([got.terrain[h][0] == truth[h] for h in got.terrain])
    painted = {**examples, **{h: truth[h] for h in got.to_paint}}
    again = suggest_terrain(board, image, painted, targets=list(truth))
    after = np.mean([again.terrain[h][0] == truth[h] for h in again.terrain])
    assert before < 0.6 and after > 0.95                   # measured 0.500 and 0.982
    assert not suggest_terrain(board, image, examples, targets=list(truth)).to_paint    # only when asked


def test_the_asked_protocol_paints_five_percent_and_skips_hexes_under_counters():
    """Scan 341 (231 whole hexes): its one town example lies under a town's name; at random 0.840 right (the
    town hexes taken for clear and woods), partly where the editor asks 0.986."""
    scan = make_scan(341)
    got = scan_accuracy(scan, asked=True)
    plain = scan_accuracy(scan)
    assert got["labelled"] <= plain["labelled"]            # the same 5 %, less any hex a counter hid
    assert got["accuracy"] > 0.98 and plain["accuracy"] < 0.85    # measured 0.986 and 0.840


def test_painting_where_the_editor_asks_rescues_scans_whose_one_example_misleads():
    """Scan 5386 (172 hexes whole) with its 5 % at random gets 0.767 right: its clear hexes are each tinted
    apart, so that colour tells little within the map, and the woods hexes with a few trees are taken for
    rough, whose one example is a stipple of dots (35 of 37 woods hexes); the same number painted, part of them
    where the editor asks, 0.971.
    Scan 2310 (98 hexes whole): one hex of each of its seven terrains spends the 5 %, and its town hexes are
    taken for rough (0.802); one round of the hexes the editor asks gets 0.966."""
    scan = make_scan(5386)
    plain, asked = scan_accuracy(scan), scan_accuracy(scan, asked=True)
    assert plain["labelled"] == asked["labelled"] == 9
    assert plain["accuracy"] < 0.8 and asked["accuracy"] > 0.95            # measured 0.767 and 0.971
    scan = make_scan(2310)
    plain, once = scan_accuracy(scan, asked=True), scan_accuracy(scan, asked="one_round")
    assert plain["labelled"] == 7 and once["labelled"] == 9
    assert plain["accuracy"] < 0.85 and once["accuracy"] > 0.95            # measured 0.802 and 0.966


def test_the_hexes_to_paint_are_weighed_by_how_a_terrain_varies_not_by_a_misled_fit():
    """Scan 4962 (209 hexes whole): its one clear example, chosen at random, misleads the fit (63 clear hexes
    taken for lake). Weighed by that fit's own measure, the hexes asked for were three town, two hills and two
    woods, no clear one, and partly asked it ended at 0.555 right; weighed by the neighbours' spread, a plain
    clear hex is among them, 0.957."""
    scan = make_scan(4962)
    plain, asked = scan_accuracy(scan), scan_accuracy(scan, asked=True)
    assert plain["labelled"] == asked["labelled"]
    assert asked["accuracy"] > 0.93                        # measured 0.957 (0.555 weighed by the fit's measure)
    assert plain["accuracy"] > 0.95                        # measured 0.981: the same suggestions at random


def test_a_suggestion_the_steps_drifted_to_from_the_first_fit_is_listed_for_review(monkeypatch):
    """Scan 196 (210 whole hexes, 5 % painted): the refitted steps change the first fit's terrain on 7 hexes,
    all of them wrongly (the map's two town hexes taught by one example, and the steps take rough hexes for
    town), all 7 at 0.9 or more by their margin. Each differs from the first fit's own class or lay far from
    every class at the first fit (its neighbours decided it): they are at most DRIFT_CONFIDENCE sure and on the
    review list, and 0.995 of the suggestions left above it are right (0.959 without the cap)."""
    scan = make_scan(196)
    board, sheet = scan.board, scan.sheet
    truth = {h: board.terrain[h] for h in (sheet.numbering.parse(i) for i in scan.whole)}
    hidden = [sheet.numbering.parse(i) for i in scan.covered]
    image = {"A": np.asarray(scan.image.convert("RGB"))}
    examples = pick_examples(truth, 0.05, 196, hidden)
    first = suggest_terrain(board, image, examples, targets=list(truth), rounds=0)
    got = suggest_terrain(board, image, examples, targets=list(truth))
    drifted = [h for h in got.terrain if got.terrain[h][0] != first.terrain[h][0]]
    assert len(drifted) >= 6                                                                   # measured 7
    assert all(got.terrain[h][1] <= DRIFT_CONFIDENCE < LOW_CONFIDENCE for h in drifted)
    wrong = [h for h in got.terrain if got.terrain[h][0] != truth[h]]
    assert sum(h in wrong for h in drifted) >= 6                                               # measured 7
    above = [h for h in got.terrain if got.terrain[h][1] >= LOW_CONFIDENCE]
    assert np.mean([got.terrain[h][0] == truth[h] for h in above]) > 0.985                    # measured 0.995
    assert sum(h in above for h in wrong) <= 1                                                 # measured 1
    monkeypatch.setattr(suggest_module, "DRIFT_CONFIDENCE", 1.0)
    uncapped = suggest_terrain(board, image, examples, targets=list(truth))
    assert sum(uncapped.terrain[h][1] >= LOW_CONFIDENCE for h in wrong if h in drifted) >= 6  # measured 7
    sure = [h for h in uncapped.terrain if uncapped.terrain[h][1] >= LOW_CONFIDENCE]
    assert np.mean([uncapped.terrain[h][0] == truth[h] for h in sure]) < 0.97                 # measured 0.959


def test_a_scan_is_small_when_five_percent_of_it_is_fewer_than_its_terrains():
    """Scan 463 (99 whole hexes, five terrains): 5 % is 5 hexes, one of each terrain, not small; scan 2199 (78
    whole hexes, five terrains): 5 % is 4 hexes, fewer than its terrains, small (its one of each is past 5 %)."""
    assert not scan_accuracy(make_scan(463))["small"]
    small = scan_accuracy(make_scan(2199))
    assert small["small"] and small["labelled"] == 5 and small["hexes"] == 78
    assert small_scan({(q, 0): t for q, t in enumerate(["clear"] * 57 + ["woods", "rough", "hills"])})
    assert not small_scan({(q, 0): t for q, t in enumerate(["clear"] * 57 + ["woods", "rough"])})


@pytest.mark.parametrize("seed, before", [(680, 0.341), (763, 0.455), (1705, 0.659)])
def test_a_road_through_the_one_example_of_a_terrain_no_longer_carries_it_off(seed, before):
    """Small scans whose one example of a terrain has a road drawn through it: the road's ink made the terrain
    look like its road, and the hexes of that terrain were taken for another (680: 81 of its 90 clear hexes
    taken for rough; 1705: 15 hills hexes for rough). The road is now left out of a hex's look."""
    got = scan_accuracy(make_scan(seed), asked=True)["accuracy"]
    assert got > 0.96 and got > before + 0.3       # measured 0.992, 1.0, 0.965


def test_a_road_is_left_out_of_the_marks_read_at_every_pixel():
    """A hex of plain ground (sRGB 230) with a road drawn from its centre along one spoke and one dot beside:
    read at every pixel, the road is a blob and a share of the disc; with that spoke known to carry a road,
    only the dot is left. Told the road runs along another spoke, the road stays."""
    image = np.full((200, 200, 3), 230, dtype=np.uint8)
    image[99:102, 100:150] = 60                           # the road, from the centre to the right
    image[70:73, 85:88] = 60                              # a dot, off the road
    angles = np.radians(np.arange(6) * 60.0)
    spokes = 46.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)     # image pixels to a hex size
    ground = rgb_to_lab(np.array([[230, 230, 230]], dtype=np.uint8))[:, 0]
    centre = np.array([[100.0, 100.0]])

    def read(roads):
        share, blobs, deep_share, deep_blobs = (float(f[0]) for f in _fine_marks(
            image, 40.0, centre, ground, None if roads is None else np.array([roads]), spokes))
        return share, blobs, deep_share, deep_blobs

    plain = read(None)
    assert plain[1] == plain[3] == 2 and plain[0] > 0.015            # the road and the dot
    on_road = read([True, False, False, False, False, False])
    assert on_road[1] == on_road[3] == 1 and 0 < on_road[0] < 0.003  # the dot alone
    elsewhere = read([False, True, False, False, False, False])
    assert elsewhere[1] == elsewhere[3] == 2 and elsewhere[0] > 0.015


def test_a_road_across_the_one_example_of_a_terrain_no_longer_counts_in_its_marks():
    """Scan 2523 (120 hexes whole), its 5 % at random: its one hills example has a road across it (and a river
    beside it). Read at every pixel, the road was a long blob and a share of the hex's ink, and 31 of the 34
    hills hexes were taken for clear (0.693 right); with the road left out, 1.000."""
    assert scan_accuracy(make_scan(2523))["accuracy"] > 0.95


def test_a_road_drawn_through_hexes_is_left_out_of_their_look():
    """On generated scans (seeds 3-11: roads centre to centre in 54 hexes) and the Demyansk map (its roads in
    95 hexes), the sample points on the road are left out of nearly every hex it crosses and of few others
    (woods whose trees line up along a spoke, a town's blocks)."""
    road_hexes = other_hexes = found = wrong = 0
    cases = []
    for seed in range(3, 12):
        scan = make_scan(seed)
        hexes = [scan.sheet.numbering.parse(i) for i in scan.whole]
        cases.append((scan.board, scan.sheet, np.asarray(scan.image.convert("RGB")), hexes))
    board = load_map("maps/demyansk.toml")
    cases.append((board, board.sheets[0], load_image(board.image_path(board.sheets[0])), board.hexes()))
    for board, sheet, image, hexes in cases:
        on_road = {h for s in board.links.get("road", ()) for h in (s.a, s.b)}
        offsets = _disc_offsets(SAMPLE_RADIUS, SAMPLE_RINGS)
        centres = np.array([board.center(h) for h in hexes], dtype=float)
        rgb, valid = _gather(image, _to_image(sheet.transform, centres[:, None, :] + offsets[None]))
        left_out = _road_points(board, sheet.transform, image, hexes, centres, offsets, rgb_to_lab(rgb), valid)
        for h, out in zip(hexes, left_out.any(axis=1)):
            road_hexes += h in on_road
            other_hexes += h not in on_road
            found += bool(out) and h in on_road
            wrong += bool(out) and h not in on_road
    assert road_hexes == 149 and found >= 0.9 * road_hexes            # measured 137 of 149
    assert wrong <= 0.01 * other_hexes                                  # measured 9 of 2,506


def test_the_first_hex_asked_for_stands_for_a_mass_no_painted_hex_is_like_not_a_lone_odd_one():
    """21 features: 100 hexes about one painted hex, 50 about a point nobody painted, 5 lone ones further off
    still. The first hex asked for is one of the 50; with a measure rounded off positive (one eigenvalue a
    hair under zero) the same, and nothing fails."""
    rng = np.random.default_rng(3)
    near = rng.normal(0.0, 1.0, (100, 21))
    mass = rng.normal(0.0, 1.0, (50, 21)) + 8.0
    lone = rng.normal(0.0, 1.0, (5, 21)) * 0.1 + np.array([[-30.0], [30.0], [-40.0], [40.0], [50.0]])
    features = np.concatenate([near, mass, lone])
    conf = np.full(len(features), 0.95)
    among = np.arange(1, len(features))
    first = _to_paint(features, conf, [0], among, 2)[0]
    assert 100 <= first < 150
    w, v = np.linalg.eigh(np.eye(21))
    w[-1] = -1e-12
    assert 100 <= _to_paint(features, conf, [0], among, 2, (v * w) @ v.T)[0] < 150


def _runs(edges: list[tuple[int, int]], edge_corners: set[int] = frozenset()) -> np.ndarray:
    """Hexsides as pairs of corners, every corner but those of ``edge_corners`` met by two more hexsides (the
    inside of a map: three hexsides meet at a corner)."""
    out = list(edges)
    for c in sorted({c for e in edges for c in e} - set(edge_corners)):
        out += [(c, 1000 + c), (c, 2000 + c)]
    return np.array(out, dtype=np.int64)


def test_a_short_run_not_joined_to_a_sample_counts_half():
    """Step 6 of docs/terrain-suggestion.md: two hexsides suggested alone are no line (a hill's ring touching
    a hexside here and there); three are, and so are two joined to the sample, two that go on through
    hexsides showing the line's inks, and two that run off the map."""
    corners = _runs([(0, 1), (1, 2),                     # 0, 1: two alone
                     (10, 11), (11, 12), (12, 13),       # 2-4: three
                     (20, 21), (21, 22), (22, 23),       # 5: suggested, 6 and 7 show the inks
                     (30, 31), (31, 32),                 # 8: suggested, 9: the sample
                     (40, 41), (41, 42)],                # 10, 11: two, one end on the map's edge
                    edge_corners={42})
    n = len(corners)
    score = np.zeros(n)
    score[[0, 1, 2, 3, 4, 5, 8, 10, 11]] = 0.6
    joining = np.zeros(n, dtype=bool)
    joining[[6, 7]] = True
    got = _short_runs_halved(score, corners, joining, [9])
    assert list(got[:12]) == [0.3, 0.3, 0.6, 0.6, 0.6, 0.6, 0, 0, 0.6, 0, 0.6, 0.6]
    assert not got[12:].any()


def test_a_ridge_through_woods_is_not_taken_for_every_woods_edge():
    """Scan 1384: the ridge marked runs between two woods hexes. Learnt against the map's average hexside, its
    woods came with the ridge and 32 other hexsides were suggested, most of them woods edges (3 ridges of 6
    found); learnt against plain hexsides between fills like its own, 3."""
    hit, want, got, _n = hexside_counts([make_scan(1384)])["ridge"]
    assert want == 6 and hit >= 3                                       # measured 3
    assert got - hit <= 5                                               # measured 3 (32 before)


def test_a_river_drawn_a_pixel_off_its_hexside_is_found():
    """Scan 1200: its river was found on 14 of its 36 hexsides; with the strips' colour smoothed across the
    line (a line's colour a pixel to one side reads the same), 23, none wrong."""
    hit, want, got, _n = hexside_counts([make_scan(1200)])["river"]
    assert want == 36 and hit >= 20 and got == hit                      # measured 23 and 23


def test_a_line_in_colours_the_map_shows_everywhere_is_found_by_its_look():
    """Scan 2503 (pastel): the ridge's brown is along more than an eighth of the ordinary hexsides, so no ink is
    the line's alone. The sample was refused ("looks like any other hexside"); the learnt look alone finds the
    ridge's 8 other hexsides and nothing else."""
    assert hexside_counts([make_scan(2503)])["ridge"] == [8, 8, 8, 1]


@pytest.mark.parametrize("seed, before", [(2257, 0), (2336, 0)])
def test_a_look_blind_to_its_own_sample_is_left_out(seed, before):
    """A ridge a pixel or two wide with its ticks: the look of the line alone scored the marked hexside itself
    near nothing and held every other ridge hexside under the threshold (none of 10 and of 7 found). Left out
    for hexsides whose line is the sample's colour, every ridge hexside is found and nothing else."""
    counts = hexside_counts([make_scan(seed)])["ridge"]
    hit, want, got = counts[:3]
    assert hit == want == got and hit > before + 6          # measured 10 of 10 and 7 of 7, none wrong


def test_the_marks_shape_tells_stipple_from_a_contour_and_from_trees():
    """Three hexes of the River Crossing grid drawn on plain paper: 60 dots a pixel or two across (rough's
    stipple), a contour ring two pixels wide (a hill), seven blobs a sixth of a hex across (trees). Read round
    each dark point, a dot is dark alone, the ring one way and its opposite, a tree all round: measured
    solidity 0.24, 0.32, 0.73 and line share 0.17, 0.50, 0.40."""
    from PIL import Image, ImageDraw
    board = load_map("maps/crossing.toml")
    sheet = board.sheets[0]
    size = sheet.transform.scale
    img = Image.new("RGB", Image.open(board.image_path(sheet)).size, (236, 230, 214))
    d = ImageDraw.Draw(img)
    hexes = sorted(board.hexes())[30:33]
    cx = [_to_image(sheet.transform, np.array([board.center(h)], dtype=float))[0] for h in hexes]
    rng = np.random.default_rng(1)
    for _ in range(60):
        x, y = cx[0] + rng.uniform(-0.55, 0.55, 2) * size
        d.ellipse([x - 1, y - 1, x + 1, y + 1], fill=(90, 70, 50))
    x, y = cx[1]
    d.ellipse([x - 0.45 * size, y - 0.35 * size, x + 0.45 * size, y + 0.35 * size], outline=(120, 80, 40), width=2)
    for _ in range(7):
        x, y = cx[2] + rng.uniform(-0.45, 0.45, 2) * size
        d.ellipse([x - 0.09 * size, y - 0.09 * size, x + 0.09 * size, y + 0.09 * size], fill=(60, 100, 60))
    f = hex_features(board, {sheet.id: np.asarray(img)}, hexes)
    # read at every pixel, the dots are dozens of blobs, the ring none (one blob less one hole), the trees a
    # few (those inside the disc read, touching ones as one)
    blobs = f[:, FEATURE_NAMES.index("ink blobs")]
    assert blobs[0] >= 20 and abs(blobs[1]) <= 1 and 2 <= blobs[2] <= 7             # measured 26, 0, 3
    assert f[0, FEATURE_NAMES.index("ink")] < f[2, FEATURE_NAMES.index("ink")]      # the trees cover most
    solid, line = f[:, FEATURE_NAMES.index("mark solidity")], f[:, FEATURE_NAMES.index("mark lines")]
    dots, ring, trees = range(3)
    assert solid[trees] > 2 * solid[dots] and solid[trees] > 2 * solid[ring]
    assert line[ring] > 2 * line[dots] and line[ring] > line[trees]


@pytest.mark.parametrize("seed, before", [(182, 0.756), (163, 0.716), (1895, 0.669), (1947, 0.816)])
def test_a_feature_most_hexes_share_one_value_of_no_longer_swamps_the_rest(seed, before):
    """Small scans, one painted hex of each terrain, the rest where the editor asks. A feature such as the marks'
    radius takes one value in most hexes (a map mostly clear) and spreads far in a few terrains: scaled by its
    median deviation alone it counted many times over, and one untypical example (182: a hill with a small
    contour, its 15 hills hexes taken for rough) carried a terrain off. Now a feature's spread is at least 0.8
    of its standard deviation, and the marks' shape is read."""
    got = scan_accuracy(make_scan(seed), asked=True)["accuracy"]
    assert got > 0.85 and got > before + 0.04         # measured 0.942, 0.963, 0.992, 0.862


def test_a_hex_far_from_every_terrain_is_surer_when_its_own_look_points_where_its_neighbours_do():
    """A hex far from every terrain (a river's ink across it, a counter over it) takes the terrain of most of
    its neighbours. On the tuning scans that was right 0.90 of the time when the hex's own nearest terrain was
    the neighbours' too, and 0.59 when it was another; both were said 0.73 (on a real map's 791 hexes, 80 went
    to the review list, 59 of them such hexes whose look agreed). Two such hexes in a field of plain ones: one
    whose look leans the neighbours' way, one whose look leans the other terrain's."""
    from engine.maps.suggest import OUTLIER_AGREE, OUTLIER_CONFIDENCE, classify

    rng = np.random.default_rng(5)
    side = 20                                           # a 20 x 20 field: woods on the left, clear on the right
    rows = [(i, j) for i in range(side) for j in range(side)]
    woods = np.array([j < side // 2 for i, j in rows])
    feats = rng.normal(0.0, 1.0, (len(rows), 4))
    feats[~woods, 0] += 12.0
    index = {ij: n for n, ij in enumerate(rows)}
    neighbours = [[index[(i + di, j + dj)] for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if (i + di, j + dj) in index] for i, j in rows]
    agree, against = index[(5, 3)], index[(12, 4)]     # both deep in the woods
    feats[agree] = [0.5, 40.0, 0.0, 0.0]                # far off, but nearer woods
    feats[against] = [12.0, 40.0, 0.0, 0.0]             # far off, and nearer clear
    labels = {index[(0, 0)]: "woods", index[(19, 2)]: "woods", index[(0, 19)]: "clear", index[(19, 15)]: "clear"}
    classes, best, conf, odd, _metric = classify(feats, labels, neighbours=neighbours)
    assert odd[agree] and odd[against]
    assert classes[best[agree]] == "woods" and classes[best[against]] == "woods"     # the neighbours decide both
    assert conf[against] == OUTLIER_CONFIDENCE == 0.59
    assert OUTLIER_AGREE[0][1] <= conf[agree] <= OUTLIER_AGREE[-1][1] and conf[agree] > conf[against] + 0.2


def _dense_rivers(seed: int):
    """A scan of the test set with wavy rivers (blue, a dark core) drawn along every third column boundary: about
    one hexside in four a river, as on a published map thick with rivers. The scan, its rivers and the hexside
    marked (the middle one)."""
    from PIL import ImageDraw

    from engine.maps.scanset import make_scan
    scan = make_scan(seed, hex_px=60.0, rotation=0.0, counters=0, labels=False)
    board, sheet = scan.board, scan.sheet
    image = scan.image.convert("RGB")
    draw = ImageDraw.Draw(image)
    columns = sorted({h.q for h in board.hexes()})[::3]
    rivers = {hexside(h, n) for h in board.hexes() if h.q in columns
              for n in (Hex(h.q + 1, h.r), Hex(h.q + 1, h.r - 1)) if n in board}
    rivers &= set(board_hexsides(board))
    for s in rivers:
        a, b = np.array(board.layout.hexside_segment(s), dtype=float)
        t = np.linspace(0.0, 1.0, 24)[:, None]
        across = np.array([a[1] - b[1], b[0] - a[0]]) / np.linalg.norm(b - a)
        line = [tuple(p) for p in _to_image(sheet.transform, a + (b - a) * t + across * 0.09 * np.sin(2 * np.pi * t))]
        draw.line(line, fill=(40, 110, 220), width=7)
        draw.line(line, fill=(10, 10, 30), width=2)
    board.hexsides = {}
    return board, sheet, np.asarray(image), rivers, sorted(rivers)[len(rivers) // 2]


@pytest.mark.parametrize("seed, before, now", [(4, 20, 64), (8, 23, 137)])
def test_rivers_along_one_hexside_in_four_are_found_though_their_blue_is_common(monkeypatch, seed, before, now):
    """On a published board (The Longest Day, board F) rivers run along about one hexside in five, so their
    blue covers more of the average hexside than LINE_COMMON allows a line's ink and was taken for a colour the
    whole map shows: from one marked river, 0.57 of them were found. A colour the rare inks leave out, on the
    line and seldom beside it, on few hexsides and along most of the sample, is now the line's too (that board:
    0.83). Here the same on two scans of the test set with wavy rivers drawn on them."""
    board, sheet, image, rivers, sample = _dense_rivers(seed)
    truth = rivers - {sample}
    got = set(suggest_hexsides(board, {sheet.id: image}, "river", [sample]).above(SIDE_ACCEPT))
    assert len(got) == now and len(got & truth) >= 0.7 * len(truth) and len(got & truth) >= 0.89 * len(got)
    import engine.maps.suggest as suggest
    monkeypatch.setattr(suggest, "LINE_DENSE", 0.0)                  # the rare inks alone, as before
    old = set(suggest_hexsides(board, {sheet.id: image}, "river", [sample]).above(SIDE_ACCEPT))
    assert len(old) == before and len(old & truth) < 0.3 * len(truth)
