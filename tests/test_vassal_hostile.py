"""Hostile VASSAL modules: every one refused in words (naming the module, the entry and the key) or imported
with what could not come across in the report; never a traceback, never unbounded memory or time, never a
file of the user's overwritten or removed."""
from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from engine.cli import main as cli_main
from engine.errors import BadFile
from engine.importers.vassal import synthetic as S
BUILD_FILE_LIMIT = 64 << 20      # engine.importers.vassal.archive.BUILD_FILE_LIMIT
from engine.importers.vassal.importer import import_module
from test_vassal_import import GRID, images, module_with_setups


def plain_module(tmp_path: Path, replace: tuple[str, str] | None = None, name="m.vmod") -> Path:
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    text = m.build_file()
    if replace:
        assert replace[0] in text
        text = text.replace(*replace)
    path = tmp_path / name
    m.write(path, build_text=text)
    return path


def only_problem(e) -> tuple[str, str, str]:
    ((p),) = e.value.problems
    return p.file, p.key, p.message


GRID_KEY = "buildFile.xml: Map 'Main Map' > Board 'North' > HexGrid"


@pytest.mark.parametrize("attr,value", [("x0", "1e999"), ("y0", "-1e999"), ("x0", "nan"), ("y0", "3e12")])
def test_a_grid_origin_out_of_range_is_refused_naming_the_key(tmp_path, attr, value):
    was = f'{attr}="{GRID[attr]}"'
    path = plain_module(tmp_path, (was, f'{attr}="{value}"'))
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    file, key, msg = only_problem(e)
    assert (file, key) == (str(path), f"{GRID_KEY}.{attr}")
    assert msg == f"expected a whole number from -10,000,000 to 10,000,000, found {value!r}"
    assert not (tmp_path / "out").exists()


def test_coordinates_past_any_board_elsewhere_are_refused_or_ignored(tmp_path):
    # a zone's points, a numbering's offset and leading zeros, a piece's position in a save: bounded everywhere
    zone = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
            '<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Z" path="0,0;1e999,0;5,5"/>'
            '</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')
    path = plain_module(tmp_path, ("</VASSAL.build.module.map.boardPicker.Board>",
                                   zone + "</VASSAL.build.module.map.boardPicker.Board>"))
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e)[1] == "buildFile.xml: Map 'Main Map' > Board 'North' > Zone 'Z'.path"
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(numbering={"hLeading": "1000000000"}, **GRID))])
    images(m, 900, 700)
    m.write(path)
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e)[1:] == (f"{GRID_KEY} > HexGridNumbering.hLeading",
                                   "expected a whole number from 0 to 9, found '1000000000'")


def test_a_grid_too_fine_for_its_board_is_left_out_at_once(tmp_path):
    # dx = 0.000001 px across a 900 px board: 900 million columns (once 63 s and 3.9 GB, then MemoryError)
    path = plain_module(tmp_path, (f'dx="{GRID["dx"]}"', 'dx="0.000001"'))
    result = import_module(path, tmp_path / "out")
    assert result.maps == []
    assert ("- Map 'Main Map', board 'North': the grid is not imported: hexes 1e-06 x 64 px on a 900 x 700 board "
            "make about 900000003 x 14 hexes (a sheet has at most 999 columns and rows)") in result.lines


def test_a_board_image_claiming_a_huge_size_is_left_out(tmp_path):
    # a PNG header saying 100,000 x 100,000 (once 1.5 GB of hexes worked out before it was refused)
    png = S.png_bytes(8, 8)
    m = S.Module(boards=[("North", "huge.png", 0, 0, S.Grid(**GRID))])
    m.images["huge.png"] = png[:16] + struct.pack(">II", 100_000, 100_000) + png[24:]
    path = tmp_path / "h.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert result.maps == [] and not (tmp_path / "out" / "maps").exists()
    assert ("- Map 'Main Map', board 'North': its image is 100,000 x 100,000 pixels (at most 1,000,000,000 "
            "pixels are shown)") in result.lines


def test_the_hexes_of_one_import_are_bounded(tmp_path):
    # two boards of 40 x 120 = 4,800 hexes each may not pass a budget of 5,000: the second is left out
    from engine.importers.vassal import importer as I

    m = S.Module(boards=[("A", "", 2200, 7700, S.Grid(dx=55.0, dy=64.0, x0=30, y0=32)),
                         ("B", "", 2200, 7700, S.Grid(dx=55.0, dy=64.0, x0=30, y0=32))],
                 layout="Main MapBoardPicker\tA\t0\t0\tB\t1\t0")
    path = tmp_path / "two.vmod"
    m.write(path)
    old = I.MAX_HEXES_IMPORTED
    I.MAX_HEXES_IMPORTED = 5000
    try:
        result = import_module(path, tmp_path / "out")
    finally:
        I.MAX_HEXES_IMPORTED = old
    assert [line for line in result.lines if "board 'B'" in line] == [
        "- Map 'Main Map', board 'B': the grid is not imported: hexes 55 x 64 px on a 2200 x 7700 board make 4,840 "
        "hexes (at most 160 more on this map; a map has at most 250,000)"]


def test_a_build_file_that_unpacks_past_its_limit_is_not_read(tmp_path):
    # a zip bomb: a few hundred kilobytes that unpack to more than the build file's limit
    path = tmp_path / "bomb.vmod"
    data = b'<?xml version="1.0"?><VASSAL.build.GameModule name="B">' + b" " * BUILD_FILE_LIMIT \
        + b"</VASSAL.build.GameModule>"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", data)
    assert path.stat().st_size < 1 << 20
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e) == (str(path), "buildFile.xml", f"unpacks to {len(data):,} bytes "
                                                           f"(at most {BUILD_FILE_LIMIT:,} are read for this entry: "
                                                           f"a damaged or hostile archive)")


def test_a_build_file_of_too_many_elements_is_refused_while_it_is_read(tmp_path, monkeypatch):
    from engine.importers.vassal import buildfile

    monkeypatch.setattr(buildfile, "MAX_XML_NODES", 1000)
    path = tmp_path / "many.vmod"
    S.Module().write(path, build_text='<VASSAL.build.GameModule name="M">' + '<a x="1"/>' * 600
                     + "</VASSAL.build.GameModule>")
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e)[1:] == ("buildFile.xml", "holds more than 1,000 XML elements and attributes (the largest "
                                                    "modules hold a few hundred thousand)")


def test_entity_expansion_is_refused(tmp_path):
    lol = ('<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">'
           + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
           + ']><VASSAL.build.GameModule name="&i;"/>')
    path = tmp_path / "lol.vmod"
    S.Module().write(path, build_text=lol)
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert "is not well-formed XML" in only_problem(e)[2]


# ---------------------------------------------------------------- the folder written to

def users_folder(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "mine"
    files = {"counters/manifest.toml": b"# my own counters\n", "counters/a.png": b"not really a png",
             "manifest.toml": b"[mine]\n", "scenarios/assets/x/counters/u-front.png": b"art",
             "maps/notes.txt": b"my notes\n"}
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    return out, files


def untouched(out: Path, files: dict[str, bytes]) -> None:
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()} == files
    assert [p.name for p in out.parent.iterdir() if ".import-" in p.name] == []      # no staging left behind


def test_a_folder_of_the_users_files_is_refused_and_kept_as_it_was(tmp_path):
    out, files = users_folder(tmp_path)
    with pytest.raises(BadFile) as e:
        import_module(module_with_setups(tmp_path), out)
    assert only_problem(e) == (str(out), "", "is not empty (counters/, manifest.toml, maps/, scenarios/) and is no "
                                             "earlier import (import-record.toml is missing); the import never writes "
                                             "over files it did not write: name a new or empty folder")
    untouched(out, files)
    assert cli_main(["import", "vassal", str(module_with_setups(tmp_path)), str(out)]) == 1
    untouched(out, files)


def test_a_file_named_as_the_folder_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    out.write_text("mine")
    assert cli_main(["import", "vassal", str(module_with_setups(tmp_path)), str(out)]) == 1
    assert f"{out}: is a file, not a folder" in capsys.readouterr().err
    assert out.read_text() == "mine"


def test_importing_again_updates_the_import_and_keeps_what_the_user_added_or_changed(tmp_path):
    mod = module_with_setups(tmp_path)
    out = tmp_path / "out"
    first = import_module(mod, out)
    (scenario,) = first.scenarios
    assert (out / "import-record.toml").is_file() and scenario.parent == out / "scenarios"
    (out / "counters" / "my-note.txt").write_text("mine")         # a file of the user's beside the import's
    again = import_module(mod, out)                               # the same module again: allowed
    assert again.scenarios == first.scenarios and (out / "counters" / "my-note.txt").read_text() == "mine"
    scenario.write_text(scenario.read_text() + "\n# my change\n")   # the user edits an imported scenario
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(BadFile) as e:
        import_module(mod, out)
    assert only_problem(e) == (str(scenario), "", "was changed since the earlier import: kept (move it away, or "
                                                  "import into a new folder)")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    other = tmp_path / "other.vmod"
    m = S.Module(name="Other", boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.write(other)
    with pytest.raises(BadFile) as e:
        import_module(other, out)
    assert only_problem(e)[1:] == ("import.module", "the folder holds an import of the module 'Synthetic', not of "
                                                    "'Other': name another folder")


def test_a_new_import_moves_into_its_folder_in_one_step(tmp_path, monkeypatch):
    # a new or empty OUTDIR: the staging folder becomes it by one rename (2,400 files were moved one by one),
    # readable as any folder the user makes, with the record of every file written
    import os

    from engine.importers.vassal import outdir as O

    moved = []
    real = os.replace
    monkeypatch.setattr(O.os, "replace", lambda a, b: (moved.append(b), real(a, b)))
    mask = os.umask(0o022)
    os.umask(mask)
    for out in (tmp_path / "new", tmp_path / "empty"):
        if out.name == "empty":
            out.mkdir(mode=0o750)
        moved.clear()
        result = import_module(module_with_setups(tmp_path), out)
        # no file moved into OUTDIR one by one (the record is written there last, itself by a rename)
        assert [Path(p).name for p in moved if out in Path(p).parents] == ["import-record.toml"]
        assert out.stat().st_mode & 0o777 == (0o777 & ~mask if out.name == "new" else 0o750)
        record = O.read_record(out / "import-record.toml")
        files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        assert sorted(record.files) == [f for f in files if f != "import-record.toml"]
        assert all(O.sha256(out / rel) == digest for rel, digest in record.files.items())
        assert result.scenarios and all(p.is_file() for p in result.scenarios)
        assert [p.name for p in tmp_path.iterdir() if ".import-" in p.name] == []
    moved.clear()
    again = import_module(module_with_setups(tmp_path), tmp_path / "new")    # into an earlier import: file by file
    assert any(tmp_path / "new" in Path(p).parents for p in moved) and all(p.is_file() for p in again.scenarios)


def test_a_refused_import_writes_nothing(tmp_path):
    # the module reads, but its at-start scenario fails its check when written: nothing reaches OUTDIR
    out, files = users_folder(tmp_path)
    import shutil

    shutil.rmtree(out)
    out.mkdir()
    from engine.importers.vassal import importer as I

    def refuse(self, path, home):
        raise BadFile([])

    old = I.Importer.check_scenario
    I.Importer.check_scenario = refuse
    try:
        with pytest.raises(BadFile):
            import_module(module_with_setups(tmp_path), out)
    finally:
        I.Importer.check_scenario = old
    untouched(out, {})


def test_the_window_imports_beside_a_folder_holding_the_users_files(qtbot, tmp_path, monkeypatch):
    import gui.play.vassalimport as vi
    from playwindow import play_window

    win = play_window(qtbot, tmp_path, size=(1000, 700), monkeypatch=monkeypatch)
    monkeypatch.setattr(vi, "data_root", lambda: tmp_path / "user")
    mod = module_with_setups(tmp_path)
    taken = tmp_path / "user" / "imports" / "s"
    taken.mkdir(parents=True)
    (taken / "counters").mkdir()
    (taken / "counters" / "manifest.toml").write_text("# mine\n")
    assert win.import_vassal(mod)
    assert (taken / "counters" / "manifest.toml").read_text() == "# mine\n"
    assert (tmp_path / "user" / "imports" / "s-2" / "import-report.txt").is_file()
    assert "s-2" in win.statusBar().currentMessage()


def test_the_window_reports_a_grid_origin_out_of_range_in_words(qtbot, tmp_path, monkeypatch):
    import gui.play.vassalimport as vi
    from PySide6.QtWidgets import QMessageBox
    from playwindow import play_window

    win = play_window(qtbot, tmp_path, size=(1000, 700), monkeypatch=monkeypatch)
    monkeypatch.setattr(vi, "data_root", lambda: tmp_path / "user")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: shown.append(a[2]))
    path = plain_module(tmp_path, (f'x0="{GRID["x0"]}"', 'x0="1e999"'))
    assert not win.import_vassal(path)
    assert f"{GRID_KEY}.x0: expected a whole number from -10,000,000 to 10,000,000, found '1e999'" in shown[0]


def test_damaged_entries_and_odd_piece_values_do_not_stop_the_import(tmp_path):
    # a counter image that is no image, a layer scaled by 1e308 or drawn 1e999 px away, a save position of 1e999
    from engine.importers.vassal.importer import Importer  # noqa: F401

    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.images["junk.png"] = b"\x89PNG\r\n\x1a\n" + zlib.compress(b"x" * 100)
    far = S.layer(["star.png"], [""], x_off=5000)
    scaled = S.layer(["star.png"], [""]).replace(";1.0;", ";1e308;")
    m.slots = [("J", S.definition([S.basic("junk.png", "J")])), ("F", S.definition([far, S.basic("blue.png", "F")])),
               ("K", S.definition([scaled, S.basic("blue.png", "K")]))]
    path = tmp_path / "odd.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    text = "\n".join(result.lines)
    assert "image 'junk.png': cannot be read" in text
    assert "image 'star.png': drawn 5000, 0 px from the piece's centre (at most 1024); left out" in text
    assert result.counters == 3


# ---------------------------------------------------------------- what the fuzzing found, pinned

def test_a_board_image_of_a_png_signature_and_nothing_more_is_refused_by_name(tmp_path):
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    m.images["board.png"] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01"       # cut inside its header
    path = tmp_path / "short.vmod"
    m.write(path)
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e)[:2] == (str(path), "images/board.png")


def test_a_zip_of_a_version_python_cannot_read_is_refused(tmp_path):
    good = module_with_setups(tmp_path).read_bytes()
    at = good.rindex(b"PK\x01\x02")             # the last central directory entry: "version needed" 6.4
    path = tmp_path / "v64.vmod"
    path.write_bytes(good[:at + 6] + bytes([64, 0]) + good[at + 8:])
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e)[0] == str(path) and "zip file version 6.4" in only_problem(e)[2]


def test_a_build_file_in_an_encoding_the_parser_does_not_know_is_refused(tmp_path):
    path = tmp_path / "enc.vmod"
    S.Module().write(path, build_text='<?xml version="1.0" encoding="nan"?><VASSAL.build.GameModule name="M"/>')
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    assert only_problem(e) == (str(path), "buildFile.xml", "is not XML this program reads (unknown encoding: nan)")


def test_a_staging_folder_left_by_a_killed_import_is_removed_a_day_later(tmp_path):
    import os
    import time

    out = tmp_path / "out"
    old, recent = tmp_path / ".out.import-abc12345", tmp_path / ".out.import-def67890"
    for folder in (old, recent):
        (folder / "maps").mkdir(parents=True)
    day_ago = time.time() - 25 * 3600
    os.utime(old, (day_ago, day_ago))
    import_module(module_with_setups(tmp_path), out)
    assert not old.exists() and recent.exists()        # one in use by another import is left alone


def test_a_map_files_vassal_numbering_with_runaway_zeros_or_letters_is_refused(tmp_path):
    # h_leading = 1,000,000,000 once meant a billion turns of a loop for each label; h_off of a million letters
    # a label a million characters long
    from engine.maps.mapfile import load_map

    for options, message in (("h_leading = 1000000000", "VASSAL h_leading must be from 0 to 9, not 1000000000"),
                             ('h_type = "A", h_off = 26000000', "VASSAL h_off must be from -10000 to 10000, "
                                                                "not 26000000"),
                             ('sep = "' + "-" * 100 + '"', "VASSAL sep must be at most 8 characters, not 100")):
        path = tmp_path / "m.toml"
        path.write_text(f'[map]\nformat = 1\n\n[[sheets]]\nid = "a"\nnumbering = "vassal"\ncols = 3\nrows = 3\n'
                        f'vassal = {{ {options} }}\n')
        with pytest.raises(BadFile) as e:
            load_map(path)
        assert ("sheets[0].vassal", message) in {(p.key, p.message) for p in e.value.problems}


@pytest.mark.parametrize("head", ['width="1000000" height="1000000"', 'viewBox="0 0 900000 900000"',
                                  'width="300in" height="300in"', 'width="1e308" height="1e308"',
                                  'width="100%" height="100%" viewBox="0 0 1e7 1e7"'])
def test_an_svg_counter_of_enormous_size_is_refused_before_it_is_drawn(tmp_path, head):
    from engine.importers.vassal import svgdraw

    svg = f'<svg xmlns="http://www.w3.org/2000/svg" {head}><rect width="10" height="10"/></svg>'.encode()
    with pytest.raises(svgdraw.SvgError, match="at most"):
        svgdraw.draw(svg, max_pixels=2048 * 2048)


def test_the_shapes_kept_from_borrowed_svg_files_are_bounded():
    from engine.importers.vassal import svgdraw

    big = b'<svg xmlns="http://www.w3.org/2000/svg"><defs>' + b"".join(
        b'<rect id="r%d" width="1" height="1"/>' % i for i in range(2000)) + b"</defs></svg>"
    lib = svgdraw.Library(lambda name: big, limit=100_000)
    for k in range(40):
        assert "r7" in lib.elements(f"sheet{k}.svg")
        assert lib.kept <= 100_000 + 2 * len(big)
    assert len(lib.files) < 40
