"""Every kind of file the program reads, damaged on purpose: only the project's own errors, each naming the file.

Hypothesis mutates real files (the shipped maps, scenarios and skirmish table,
saved games of both rulesets, a counter sheet, the window's recent-files list
and a tile cache index): flipped bytes, keys renamed or deleted, values
nested deep, huge or odd numbers, values of the wrong type.  Each damaged file
goes through ``validate``, the engine's loader for its kind and (for a sample)
the window's open path.  Any exception that is not a SandtableError fails the
test, as does a problem that names no file or a refusal that does not name
the damaged one.
"""
from __future__ import annotations

import io
import os
import random
import shutil
from pathlib import Path

import pytest
import tomli
import tomli_w
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.commands.validate import check_file
from engine.errors import BadFile, SandtableError

ROOT = Path(__file__).resolve().parent.parent
# The suite runs a fixed sample (derandomized, so it is the same on every run); set SANDTABLE_FUZZ_EXAMPLES
# to explore further with fresh random examples, e.g. SANDTABLE_FUZZ_EXAMPLES=500.
EXPLORE = os.environ.get("SANDTABLE_FUZZ_EXAMPLES")
FUZZ = settings(max_examples=int(EXPLORE or 25), deadline=None, derandomize=not EXPLORE,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# ---------------------------------------------------------------- the files, in a folder laid out like the project's

@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    """A copy of the project's data where damaged files can sit beside the real ones they refer to."""
    base = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(ROOT / "maps", base / "maps")
    shutil.copytree(ROOT / "scenarios", base / "scenarios")
    from engine.game import Game, load_rules

    files = {"map": base / "maps" / "demo.toml", "demyansk map": base / "maps" / "demyansk.toml",
             "table": base / "maps" / "scw-table.toml",
             "scenario": base / "scenarios" / "demyansk-1-trapped.toml",
             "skirmish scenario": base / "scenarios" / "scw-platoon-attack.toml"}
    pick = random.Random(5)
    for kind, scen in (("save", files["scenario"]), ("skirmish save", files["skirmish scenario"])):
        game = Game(load_rules(str(scen)), 11, str(scen))
        for _ in range(8):
            game.play(pick.choice(game.legal_actions()))
        game.save(base / "scenarios" / f"{kind.replace(' ', '-')}.toml")
        files[kind] = base / "scenarios" / f"{kind.replace(' ', '-')}.toml"
    from PIL import Image

    sheet = Image.new("RGB", (120, 80), (200, 190, 170))
    sheet.save(base / "sheet.png")
    files["counter sheet"] = base / "sheet.png"
    (base / "recent.toml").write_text(tomli_w.dumps({"files": [str(files["map"]), str(files["scenario"])]}))
    files["recent files"] = base / "recent.toml"
    (base / "pyramid.toml").write_text(tomli_w.dumps({"format": 2, "width": 600, "height": 400, "tile": 512,
                                                      "ext": "jpg", "levels": [[600, 400, 2, 1]]}))
    files["tile index"] = base / "pyramid.toml"
    return files


# ---------------------------------------------------------------- mutations

def _paths(doc, prefix=()) -> list[tuple]:
    out = []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out.append(prefix + (k,))
        out += _paths(v, prefix + (k,))
    return out


def _parent(doc, path):
    for k in path[:-1]:
        doc = doc[k]
    return doc


ODD_VALUES = [10 ** 30, -10 ** 30, 2 ** 63, -1, 0, 10 ** 9, float("inf"), float("-inf"), float("nan"), 1e308,
              "", "x" * 5000, "0000", "../../etc/passwd", "\u00e9\u4e2d", True, [], {}, [[[]]], {"a": {"b": 1}},
              [1, "a", 2.5], "A99.99", "9999"]


def deep(n: int):
    v = 1
    for _ in range(n):
        v = [v]
    return v


@st.composite
def toml_mutation(draw, data: bytes):
    """A damaged version of a TOML file: its text with bytes flipped, or its document with a key renamed,
    deleted, or given a deep, huge, odd or wrongly typed value."""
    how = draw(st.sampled_from(["flip", "rename", "delete", "value", "nest"]))
    if how == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(out) - 1))
            out[i] = draw(st.integers(0, 255))
        return bytes(out)
    doc = tomli.loads(data.decode("utf-8"))
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    parent = _parent(doc, path)
    key = path[-1]
    if how == "rename" and isinstance(parent, dict):
        parent[key + draw(st.sampled_from(["_", "2", "s", "X"]))] = parent.pop(key)
    elif how == "delete":
        del parent[key]
    elif how == "nest":
        parent[key] = deep(draw(st.integers(50, 390)))
    else:
        parent[key] = draw(st.sampled_from(ODD_VALUES))
    try:
        return tomli_w.dumps(doc).encode("utf-8")
    except (TypeError, ValueError, RecursionError):     # a value TOML cannot write: write the text by hand
        return data + f"\nx_{len(path)} = {'[' * 3000}{']' * 3000}\n".encode()


@st.composite
def image_mutation(draw, data: bytes):
    out = bytearray(data)
    how = draw(st.sampled_from(["flip", "cut", "header"]))
    if how == "cut":
        return bytes(out[: draw(st.integers(0, len(out) - 1))])
    if how == "header":           # the size fields of the PNG header, its checksum made good: huge or zero sizes
        import struct
        import zlib

        w, h = draw(st.sampled_from([(0xFFFFFFFF, 1), (0, 0), (65536, 65536), (20_000, 20_000), (12_000, 1)]))
        out[16:24] = struct.pack(">II", w, h)
        out[29:33] = struct.pack(">I", zlib.crc32(bytes(out[12:29])) & 0xFFFFFFFF)
        return bytes(out)
    for _ in range(draw(st.integers(1, 6))):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
    return bytes(out)


# ---------------------------------------------------------------- what must hold

def refused_naming(e: BadFile, path: Path) -> None:
    assert e.problems, "a BadFile with no problem"
    assert all(p.file for p in e.problems), [str(p) for p in e.problems]
    assert any(Path(p.file).name == path.name or str(path) in p.message for p in e.problems), \
        [str(p) for p in e.problems]


def through_validate(path: Path) -> None:
    kind, problems = check_file(str(path))
    if problems:
        refused_naming(BadFile(problems), path)


def through_loader(kind: str, path: Path) -> None:
    from engine.game import Game, load_game, load_rules

    try:
        if kind in ("map", "demyansk map"):
            from engine.maps.mapfile import load_map

            load_map(path)
        elif kind == "table":
            from engine.maps.table import load_table

            load_table(path)
        elif kind in ("scenario", "skirmish scenario"):
            if kind == "scenario":
                from engine.scenario import load_scenario

                load_scenario(path)
            else:
                from engine.rulesets.scw import load_scw_scenario

                load_scw_scenario(path)
            Game(load_rules(str(path)), 1, str(path))
        elif kind in ("save", "skirmish save"):
            load_game(path)
    except BadFile as e:
        refused_naming(e, path)
    except SandtableError:
        pass


def write(world, kind: str, data: bytes) -> Path:
    original = world[kind]
    p = original.with_name(f"fuzzed-{original.name}")
    p.write_bytes(data)
    return p


TOML_KINDS = ["map", "demyansk map", "table", "scenario", "skirmish scenario", "save", "skirmish save"]


@pytest.mark.parametrize("kind", TOML_KINDS)
def test_damaged_files_through_validate_and_the_engine_loaders(world, kind):
    data = world[kind].read_bytes()

    @FUZZ
    @given(toml_mutation(data))
    def check(damaged):
        p = write(world, kind, damaged)
        through_validate(p)
        through_loader(kind, p)

    check()


def test_damaged_counter_sheets_are_refused_naming_the_file(world):
    from engine.counters.sheet import open_sheet

    data = world["counter sheet"].read_bytes()

    @FUZZ
    @given(image_mutation(data))
    def check(damaged):
        p = write(world, "counter sheet", damaged)
        try:
            open_sheet(p).close()
        except BadFile as e:
            refused_naming(e, p)

    check()


def test_a_damaged_recent_files_list_or_tile_index_is_started_afresh(world, qtbot, tmp_path):
    from gui.play.window import MainWindow
    from gui.scene.tiles import Pyramid

    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "a.toml", recent=world["recent files"])
    qtbot.addWidget(win)
    recent = world["recent files"].read_bytes()
    index = world["tile index"].read_bytes()

    @FUZZ
    @given(toml_mutation(recent), toml_mutation(index))
    def check(bad_recent, bad_index):
        world["recent files"].write_bytes(bad_recent)
        assert all(isinstance(p, Path) for p in win.recent_files())
        win._fill_recent()
        world["tile index"].write_bytes(bad_index)
        found = Pyramid.load(world["tile index"].parent)
        assert found is None or isinstance(found, Pyramid)

    check()


@pytest.mark.parametrize("kind", ["map", "table", "scenario", "skirmish scenario", "save", "skirmish save"])
def test_damaged_files_through_the_window_open_path(world, kind, qtbot, tmp_path, monkeypatch):
    from gui.play.window import MainWindow

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "a.toml")
    qtbot.addWidget(win)
    data = world[kind].read_bytes()

    @settings(FUZZ, max_examples=max(5, FUZZ.max_examples // 3))
    @given(toml_mutation(data))
    def check(damaged):
        p = write(world, kind, damaged)
        win.last_error = ""
        if not win.open_file(p):
            assert p.name in win.last_error, win.last_error
        if getattr(win, "table_window", None) is not None:
            win.table_window.close()
            win.table_window = None

    check()


# ---------------------------------------------------------------- what the fuzzing found, pinned

def test_a_table_point_that_is_not_a_finite_number_is_a_problem_not_a_geometry_error(world, tmp_path):
    from engine.maps.table import load_table

    text = world["table"].read_text()
    for bad, key in (("[nan, 10.0]", "pieces[0].polygon[0]"), ("[1e400, 10.0]", "pieces[0].polygon[0]")):
        p = world["table"].with_name("odd-table.toml")
        p.write_text(text.replace("[8.0, 10.0]", bad, 1))
        with pytest.raises(BadFile) as e:
            load_table(p)
        assert [pr.key for pr in e.value.problems] == [key] and e.value.problems[0].file == str(p)
    doc = tomli.loads(text)
    doc["points"] = 3
    p.write_text(tomli_w.dumps(doc))
    with pytest.raises(BadFile, match="points: expected an array of tables"):
        load_table(p)


def test_a_skirmish_scenario_with_odd_variants_or_a_missing_table_names_the_scenario(world):
    from engine.rulesets.scw import load_scw_scenario

    doc = tomli.loads(world["skirmish scenario"].read_text())
    p = world["skirmish scenario"].with_name("odd-skirmish.toml")
    p.write_text(tomli_w.dumps({**doc, "variants": 7}))
    with pytest.raises(BadFile, match="variants: expected tables"):
        load_scw_scenario(p)
    p.write_text(tomli_w.dumps({**doc, "scenario": {**doc["scenario"], "table": "gone.toml"}}))
    with pytest.raises(BadFile) as e:
        load_scw_scenario(p)
    assert (e.value.problems[0].file, e.value.problems[0].key) == (str(p), "scenario.table")


def test_file_names_the_system_refuses_are_bad_files_not_os_errors(tmp_path, qtbot):
    from engine.fileio import read_toml
    from gui.play.window import MainWindow

    with pytest.raises(BadFile, match="not a file name"):
        read_toml(str(tmp_path / "a\x00b.toml"))
    with pytest.raises(BadFile, match="cannot read the file"):
        read_toml(tmp_path / ("x" * 5000))
    recent = tmp_path / "recent.toml"
    recent.write_text(tomli_w.dumps({"files": ["x" * 5000, "a\x00b", str(recent)]}))
    win = MainWindow(cache=tmp_path / "cache", autosave=tmp_path / "a.toml", recent=recent)
    qtbot.addWidget(win)
    assert win.recent_files() == [recent]


# ---------------------------------------------------------------- VASSAL modules, the settings file, TCS options

VASSAL_ODD = ["1e999", "-1e999", "nan", "inf", "0", "-1", "0.000001", "1e308", "99999999999", "", "x" * 5000, "A",
              "true", "../../etc/passwd", "-0", "1,2", "$gridLocation$$row$", "3.5", "1e-300", "-99999", "ZZZ", " ",
              "\u00e9\u4e2d", "12345678901234567890123", "0x10"]


@pytest.fixture(scope="module")
def vassal_module(tmp_path_factory) -> bytes:
    from test_vassal_import import module_with_setups

    return module_with_setups(tmp_path_factory.mktemp("vmod")).read_bytes()


def _entries(data: bytes) -> dict[str, bytes]:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zipped(entries: dict[str, bytes]) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in entries.items():
            z.writestr(n, d)
    return buf.getvalue()


@st.composite
def vassal_mutation(draw, data: bytes):
    """A damaged module: an attribute of its build file given an odd value or removed, its piece definitions'
    text flipped, or its ZIP structure cut, flipped, missing an entry or holding odd ones."""
    import re

    how = draw(st.sampled_from(["attribute", "attribute", "drop attribute", "text", "piece", "piece", "cut", "flip",
                                "entry"]))
    entries = _entries(data)
    build = entries["buildFile.xml"].decode("utf-8")
    attrs = list(re.finditer(r'(\w+)="([^"]*)"', build))
    if how in ("attribute", "drop attribute"):
        m = draw(st.sampled_from(attrs))
        value = "" if how == "drop attribute" else draw(st.sampled_from(VASSAL_ODD))
        new = "" if how == "drop attribute" else f'{m.group(1)}="{value}"'
        entries["buildFile.xml"] = (build[:m.start()] + new + build[m.end():]).encode("utf-8")
        return _zipped(entries)
    if how == "piece":          # one field of a piece definition (traits and states, ';'-separated) made odd
        from xml.sax.saxutils import escape

        slots = list(re.finditer(r"(<VASSAL\.build\.widget\.PieceSlot[^>]*>)([^<]*)(<)", build))
        m = draw(st.sampled_from(slots))
        fields = m.group(2).split(";")
        i = draw(st.integers(0, len(fields) - 1))
        fields[i] = escape(draw(st.sampled_from(VASSAL_ODD + ["\\", "\\\\;", "emb2", "piece", "prototype"])))
        entries["buildFile.xml"] = (build[:m.start(2)] + ";".join(fields) + build[m.end(2):]).encode("utf-8")
        return _zipped(entries)
    if how == "text":
        b = bytearray(entries["buildFile.xml"])
        for _ in range(draw(st.integers(1, 6))):
            b[draw(st.integers(0, len(b) - 1))] = draw(st.sampled_from(b";/\\,\t<>&\"0123456789x\x1b"))
        entries["buildFile.xml"] = bytes(b)
        return _zipped(entries)
    if how == "cut":
        return data[: draw(st.integers(0, len(data) - 1))]
    if how == "flip":
        b = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            b[draw(st.integers(0, len(b) - 1))] = draw(st.integers(0, 255))
        return bytes(b)
    change = draw(st.sampled_from(["drop", "rename", "empty", "junk image", "dir", "odd name"]))
    name = draw(st.sampled_from(sorted(entries)))
    if change == "drop":
        del entries[name]
    elif change == "rename":
        entries[name + "x"] = entries.pop(name)
    elif change == "empty":
        entries[name] = b""
    elif change == "junk image":
        entries[name] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(draw(st.lists(st.integers(0, 255), max_size=40)))
    elif change == "dir":
        entries[name + "/"] = b""
    else:
        entries[draw(st.sampled_from(["images/../../x.png", "/abs.png", "images/" + "n" * 300 + ".png"]))] = b"x"
    return _zipped(entries)


def test_damaged_vassal_modules_are_refused_or_imported_never_another_error(vassal_module, tmp_path):
    from engine.importers.vassal.importer import import_module

    n = iter(range(10 ** 6))

    @settings(FUZZ, max_examples=max(5, FUZZ.max_examples // 2))
    @given(vassal_mutation(vassal_module))
    def check(damaged):
        i = next(n)
        p = tmp_path / f"m{i}.vmod"
        p.write_bytes(damaged)
        out = tmp_path / f"out{i}"
        try:
            result = import_module(p, out)
        except BadFile as e:
            refused_naming(e, p)
            assert not out.exists() or not any(out.iterdir())         # a refused import writes nothing
        else:
            assert result.report.is_file() and (out / "import-record.toml").is_file()
        assert not [q for q in tmp_path.iterdir() if ".import-" in q.name]     # no staging left behind

    check()


SETTINGS_VALUES = ["a, b", "@ByteArray(xyz)", "@ByteArray()", "@Rect(1 2 3 4)", "@Size(3 4)", "@Point(1 2)",
                   "@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x1)", "@Invalid()", "12", "true", "x" * 5000, "\"", "\\0",
                   "@Variant(garbage)", "/", "..", "a\\nb", "@DateTime(x)", ""]


@pytest.mark.filterwarnings("ignore")
def test_a_damaged_settings_file_falls_back_key_by_key(qtbot, tmp_path, monkeypatch, capsys):
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QMainWindow

    import gui.common.settings as S

    win = QMainWindow()
    qtbot.addWidget(win)
    S.remember_folder(tmp_path / "x.toml")
    S.save_window(win, "play")
    ini = Path(S.settings().fileName())
    good = ini.read_bytes()
    keys = ["[files]\nlast_folder", "[play]\ngeometry", "[play]\nstate", "[skirmish]\ngeometry"]

    @FUZZ
    @given(st.lists(st.tuples(st.sampled_from(keys), st.sampled_from(SETTINGS_VALUES)), min_size=1, max_size=3),
           st.sampled_from(["keep", "flip", "append"]), st.binary(max_size=30))
    def check(pairs, how, noise):
        monkeypatch.setattr(S, "_problems", {})
        text = good + b"".join(f"\n{k}={v}\n".encode() for k, v in pairs)
        if how == "flip" and noise:
            b = bytearray(text)
            b[len(b) // 2] = noise[0]
            text = bytes(b)
        elif how == "append":
            text += noise
        ini.write_bytes(text)
        folder = S.last_folder()
        assert folder is None or folder.is_dir()
        assert isinstance(S.restore_window(win, "play", QSize(640, 480)), bool)
        S.restore_window(win, "skirmish", QSize(640, 480))
        assert all(str(ini) in m for m in S.problems())
        S.remember_folder(tmp_path / "y.toml")           # and the file is still written to
        assert S.last_folder() == tmp_path

    check()
    capsys.readouterr()


TCS_OPTION_VALUES = ODD_VALUES + ["black_wednesday", "leros", "kursk", "../x", "historical", "any", "fo",
                                  ["B16.26", 7], ["Gale"], ["4.2", "4.99"], 3, 99, 100, 1, -5, 2.5, False]


def test_tcs_scenarios_with_odd_options_are_refused_or_load(tmp_path):
    from engine.errors import SandtableError
    from engine.game import Game, load_rules
    from engine.rulesets.tcs.scenario import DEFAULT_OPTIONS

    src = ROOT / "scenarios" / "tcs-test.toml"
    doc = tomli.loads(src.read_text())
    doc["scenario"]["map"] = str(ROOT / "maps" / "tcs-test.toml")
    keys = list(DEFAULT_OPTIONS) + ["stacking", "options", "x" * 300]

    @FUZZ
    @given(st.one_of(st.dictionaries(st.sampled_from(keys), st.one_of(st.sampled_from(TCS_OPTION_VALUES),
                                                                     st.integers(), st.lists(st.text(max_size=8),
                                                                                             max_size=4)),
                                     min_size=1, max_size=4),
                     st.sampled_from([5, "x", [1, 2], True, [], {"a": {"b": 1}}])))
    def check(options):
        p = tmp_path / "tcs-odd.toml"
        try:
            p.write_text(tomli_w.dumps({**doc, "options": options}))
        except (TypeError, ValueError):
            return                  # a value TOML cannot write
        through_validate(p)
        try:
            game = Game(load_rules(str(p)), 1, str(p))
            for _ in range(3):
                acts = game.legal_actions()
                if not acts:
                    break
                game.play(acts[0])
        except BadFile as e:
            refused_naming(e, p)
        except SandtableError:
            pass

    check()
