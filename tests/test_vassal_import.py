"""Importing VASSAL modules: synthetic modules written by the tests from the documented format.

Hex centres are checked against VASSAL's formula (restated here, independently of the
importer) on every hex whose centre is on the board, and labels against VASSAL's
numbering rules, exactly.
"""
from __future__ import annotations

import math
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from engine.cli import main as cli_main
from engine.errors import BadFile
from engine.importers.vassal import seqenc
from engine.importers.vassal import synthetic as S
from engine.importers.vassal.importer import import_module
from engine.importers.vassal.saves import commands, deobfuscate
from engine.maps.mapfile import load_map
from engine.scenario import load_scenario


# ---------------------------------------------------------------- VASSAL's rules, restated for the checks

def vassal_centre(dx, dy, x0, y0, sideways, nx, ny):
    x = int(dx * nx + x0)
    y = int(dy * ny + y0) if nx % 2 == 0 else int(dy * ny + int(dy / 2) + y0)
    return (y, x) if sideways else (x, y)


def part(v, kind, leading):
    s = "-" if v < 0 else ""
    v = abs(v)
    if kind == "A":
        return s + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 26] * (v // 26 + 1)
    digits = str(v)
    width = leading + 1
    return s + digits.rjust(max(width, len(digits)), "0")


def vassal_label(o, W, H, dx, dy, sideways, nx, ny):
    cmax, rmax = math.floor(W / dy + 0.5), math.floor(H / dx + 0.5)
    col, row = nx, ny
    if not sideways:
        if o.get("hDescend"):
            col = cmax - nx
        if o.get("vDescend"):
            row = rmax - ny
        down = o.get("vDescend")
    else:
        if o.get("vDescend"):
            col = rmax - nx
        if o.get("hDescend"):
            row = cmax - ny
        down = o.get("hDescend")
    if o.get("stagger", True) and nx % 2:
        row += -1 if down else 1
    c = part(col + o.get("hOff", 1), o.get("hType", "N"), o.get("hLeading", 1))
    r = part(row + o.get("vOff", 1), o.get("vType", "N"), o.get("vLeading", 1))
    return c + o.get("sep", "") + r if o.get("first", "H") == "H" else r + o.get("sep", "") + c


def options(o: dict) -> dict:
    """HexGridNumbering attributes as the build file writes them."""
    return {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in o.items()}


# ---------------------------------------------------------------- modules

BLUE, PALE, YELLOW = (40, 60, 200, 255), (150, 170, 235, 255), (250, 230, 0, 255)


def images(m: S.Module, w: int, h: int) -> None:
    m.images["board.png"] = S.png_bytes(w, h)
    m.images["blue.png"] = S.counter_png(48, BLUE)
    m.images["blue-back.png"] = S.counter_png(48, PALE)
    m.images["star.png"] = S.counter_png(20, YELLOW)


def grid_module(tmp_path: Path, grid: S.Grid, w: int = 900, h: int = 700, **kw) -> Path:
    m = S.Module(boards=[("North", "board.png", w, h, grid)], **kw)
    images(m, w, h)
    path = tmp_path / "grid.vmod"
    m.write(path)
    return path


GRIDS = [
    ("flat default", dict(sideways=False, dx=55.0, dy=64.0, x0=30, y0=32), {}),
    ("flat, columns from 0, no stagger, negative x0", dict(sideways=False, dx=55.42562584220407, dy=64.0, x0=-19,
                                                            y0=32), {"hOff": 0, "vOff": 1, "stagger": False}),
    ("flat, both descending, letters, separator, row first", dict(sideways=False, dx=60.3, dy=69.7, x0=13, y0=7),
     {"hDescend": True, "vDescend": True, "hType": "A", "sep": "-", "first": "V", "vLeading": 2}),
    ("flat oblong, stagger and descending rows", dict(sideways=False, dx=48.0, dy=70.0, x0=20, y0=40),
     {"vDescend": True, "hOff": 3, "vOff": 0, "hLeading": 2}),
    ("pointy (sideways) oblong", dict(sideways=True, dx=124.0, dy=140.0, x0=101, y0=15), {}),
    ("pointy, descending across, letters down", dict(sideways=True, dx=52.0, dy=60.0, x0=35, y0=28),
     {"hDescend": True, "vType": "A", "vOff": 0, "sep": ".", "stagger": True}),
    ("pointy, descending down, no stagger", dict(sideways=True, dx=50.5, dy=58.3, x0=-10, y0=30),
     {"vDescend": True, "stagger": False, "hLeading": 0, "vLeading": 0, "sep": "/"[:0] + "_"}),
]


@pytest.mark.parametrize("name,g,num", GRIDS, ids=[x[0] for x in GRIDS])
def test_every_hex_centre_and_label(tmp_path, name, g, num):
    W, H = 900, 700
    mod = grid_module(tmp_path, S.Grid(numbering=options(num), **g), W, H)
    result = import_module(mod, tmp_path / "out")
    board = load_map(result.maps[0])
    (sheet,) = board.sheets
    assert board.orientation == ("pointy" if g["sideways"] else "flat")
    checked = 0
    for nx in range(-3, 40):
        for ny in range(-3, 40):
            exact = x, y = vassal_centre(g["dx"], g["dy"], g["x0"], g["y0"], g["sideways"], nx, ny)
            if not (0 <= x < W and 0 <= y < H) or min(g["dx"] * nx + g["x0"], g["dy"] * ny + g["y0"]) < 0:
                continue
            label = vassal_label(num, W, H, g["dx"], g["dy"], g["sideways"], nx, ny)
            h = board.parse_hex(label)
            assert board.hex_id(h) == label
            u, v = board.to_image(sheet, *board.center(h))
            assert abs(u - exact[0]) <= 1.0 and abs(v - exact[1]) <= 1.0, (label, (u, v), exact)
            checked += 1
    assert checked >= 20
    # every hex of the sheet carries a VASSAL label of a raw hex
    assert len(set(board.hex_id(h) for h in board.hexes())) == len(board.hexes())


def test_labels_spelled_as_vassal_does(tmp_path):
    # numbers get leading zeros below 10**leading; letters repeat (0 A, 26 AA, 27 BB); odd columns stagger
    g = dict(sideways=False, dx=20.0, dy=24.0, x0=10, y0=12)
    mod = grid_module(tmp_path, S.Grid(numbering={"hType": "A", "hOff": "0", "vLeading": "1"}, **g), 1100, 300)
    board = load_map(import_module(mod, tmp_path / "out").maps[0])
    (sheet,) = board.sheets
    at = {board.hex_id(h): board.to_image(sheet, *board.center(h)) for h in board.hexes()}
    assert at["A01"] == pytest.approx((10, 12), abs=1)          # raw (0, 0)
    assert at["B02"] == pytest.approx((30, 24), abs=1)          # raw (1, 0): odd column, half a hex lower, row + 1
    assert at["AA01"] == pytest.approx((530, 12), abs=1)        # raw (26, 0)
    assert at["BB02"] == pytest.approx((550, 24), abs=1)        # raw (27, 0)
    assert "A00" not in at or at["A00"][1] < 0


def test_ambiguous_numbering_is_refused_with_its_reason(tmp_path):
    # 101 columns of hexes with no separator: "10100" is column 10 row 100 and column 101 row 0
    mod = grid_module(tmp_path, S.Grid(dx=10.0, dy=12.0, x0=5, y0=6), 1100, 1300)
    result = import_module(mod, tmp_path / "out")
    assert result.maps == []
    text = (tmp_path / "out" / "import-report.txt").read_text()
    assert "the grid is not imported: two hexes get the label" in text


# ---------------------------------------------------------------- pieces

def layered(name="Inf A", state="1", proto=None):
    traits = ([f"prototype;{proto}"] if proto else []) + \
             [S.layer(["", "blue-back.png"], ["", "+ (reduced)"], "Flip"), S.basic("blue.png", name)]
    states = ([""] if proto else []) + [state, "null;0;0;1;0"]
    return S.definition(traits, states)


def test_escaping_nested_definitions():
    inner = ["emb2;a;b", "mark;Type;x\\y", "piece;;;img.png;Name; with /slash"]
    text = seqenc.join_chain(inner)
    # each trait's tab gets one more backslash than the one before (only the tab is escaped)
    assert seqenc.join_chain(["a", "b", "c", "d"]) == "a\tb\\\tc\\\\\td"
    from engine.importers.vassal.pieces import chain
    assert chain(text) == inner
    assert seqenc.split("a\\;b;'\\c';;", ";") == ["a;b", "\\c", "", ""]
    assert seqenc.split("", ";") == [""]
    items = ["x;y", "\\lead", "'q'", "", "t"]
    assert seqenc.split(seqenc.join(items, ";"), ";") == items


def _split_by_vassals_rules(text: str, delim: str) -> list[str]:
    """SequenceEncoder's decoding done character by character, to hold the fast split to."""
    out, buf, i = [], [], 0
    while i <= len(text):
        if i == len(text) or text[i] == delim:
            if i < len(text) and buf and buf[-1] == "\\" and i > 0 and text[i - 1] == "\\":
                buf[-1] = delim
                i += 1
                continue
            item = "".join(buf)
            out.append(item[1:-1] if len(item) > 1 and item[0] == "'" and item[-1] == "'" else item)
            buf = []
        else:
            buf.append(text[i])
        i += 1
    return out


def test_split_without_escapes_agrees_with_vassals_rules():
    import random

    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice("ab;,'\\\t") for _ in range(rng.randrange(0, 14)))
        for delim in (";", ",", "\t"):
            assert seqenc.split(text, delim) == _split_by_vassals_rules(text, delim), (text, delim)


def test_pieces_prototypes_layers_and_names(tmp_path):
    g = S.Grid()
    m = S.Module(boards=[("North", "board.png", 600, 500, g)])
    images(m, 600, 500)
    m.prototypes["Marked"] = S.definition(["mark;Side;Blue", "label;;;;Ctrl L;;;;", S.basic("", "")])
    m.prototypes["Unit"] = S.definition(["prototype;Marked", S.layer(["star.png"], ["Star"], "Star", follow=True),
                                         S.basic("", "")])
    m.slots = [("Inf; 1/2", layered("Inf; 1/2", proto="Unit")), ("Reduced", layered("Tank", state="2")),
               ("Odd", S.definition(["xyz.custom;1", S.basic("blue.png", "Odd")]))]
    path = tmp_path / "p.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    import tomllib
    man = tomllib.loads((tmp_path / "out" / "counters" / "manifest.toml").read_text())
    by = {p["name"]: p for p in man["pieces"]}
    assert set(by) == {"Inf; 1/2", "Tank (reduced)", "Odd"}
    inf = by["Inf; 1/2"]
    assert inf["category"] == ["Units"] and inf["front"] and inf["back"]
    folder = tmp_path / "out" / "counters"
    front = Image.open(folder / inf["front"]).convert("RGBA")
    back = Image.open(folder / inf["back"]).convert("RGBA")
    c = front.width // 2
    assert front.getpixel((c, c)) == YELLOW            # the prototype's star layer is drawn over the counter
    assert front.getpixel((2, 2)) == BLUE              # the basic image at the bottom
    assert back.getpixel((2, 2)) == PALE               # the flip layer's other level
    assert result.counters == 3
    report = (tmp_path / "out" / "import-report.txt").read_text()
    assert "text drawn while VASSAL runs" in report
    assert "follows a property while VASSAL runs" in report
    assert "trait 'xyz.custom' is not one of VASSAL's own" in report


# ---------------------------------------------------------------- set-ups

GRID = dict(sideways=False, dx=55.0, dy=64.0, x0=30, y0=32)


def centre(nx, ny):
    return vassal_centre(GRID["dx"], GRID["dy"], GRID["x0"], GRID["y0"], False, nx, ny)


def label(nx, ny):
    return vassal_label({}, 900, 700, GRID["dx"], GRID["dy"], False, nx, ny)


def module_with_setups(tmp_path, **kw) -> Path:
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))], **kw)
    images(m, 900, 700)
    m.slots = [("Inf A", layered())]
    x, y = centre(3, 4)
    m.stacks = [S.setup_stack("by point", "North", [("Inf A", layered("Inf A"))], x, y),
                S.setup_stack("by label", "North", [("Inf B", layered("Inf B")), ("Inf C", layered("Inf C"))],
                              location="0708", use_grid=True),
                S.setup_stack("beside", "North", [("Inf D", layered("Inf D"))], 2000, 40)]
    path = tmp_path / "s.vmod"
    m.write(path)
    return path


def units_of(path):
    sc = load_scenario(path)
    return {u.name: u.hex for u in sc.units.values()}, sc


def test_at_start_stacks_become_a_scenario(tmp_path):
    result = import_module(module_with_setups(tmp_path), tmp_path / "out")
    (path,) = result.scenarios
    units, sc = units_of(path)
    assert units == {"Inf A": label(3, 4), "Inf B": "0708", "Inf C": "0708", "Inf D": "box:off-grid"}
    assert sc.ruleset == "free"
    assert cli_main(["validate", str(path)]) == 0
    from engine.rulesets.free.rules import FreeRules
    from engine.rulesets.free.state import IN_BOX, ON_MAP

    rules = FreeRules.from_scenario(sc)
    st = rules.initial_state(1)
    ids = {u.name: u.id for u in sc.units.values()}
    assert st.units[ids["Inf D"]].status == IN_BOX and st.units[ids["Inf D"]].box == "off-grid"
    assert st.units[ids["Inf A"]].status == ON_MAP and rules.hex_id(st.units[ids["Inf A"]].hex) == label(3, 4)
    assert (path.parent / "assets" / sc.id / "counters" / f"{ids['Inf A']}-front.png").is_file()


def piece(pid, name, mapname, x, y):
    return (pid, [S.layer(["", "blue-back.png"], ["", "+ (reduced)"]), S.basic("blue.png", name)],
            ["1", f"{mapname};{x};{y};1;0"])


@pytest.mark.parametrize("encoding", ["plain", "VCSK", "VOBS"])
def test_saves_in_each_encoding(tmp_path, encoding):
    x1, y1 = centre(2, 3)
    xs, ys = centre(5, 5)
    text = S.save_text("Main Map", [piece("p1", "One", "Main Map", x1, y1), piece("p2", "Two", "null", 0, 0),
                                    piece("p3", "Three", "null", 0, 0), piece("p4", "Four", "Elsewhere", 10, 10)],
                       layout="Main MapBoardPicker\tNorth\t0\t0", stacks=[("s1", xs, ys, ["p2", "p3"])])
    save = S.save_file(text, encoding)
    mod = module_with_setups(tmp_path, setups=[("Opening", "opening.vsav")], files={"opening.vsav": save})
    result = import_module(mod, tmp_path / "out")
    opening = next(p for p in result.scenarios if "opening" in p.name)
    units, _ = units_of(opening)
    assert units == {"One": label(2, 3), "Two": label(5, 5), "Three": label(5, 5), "Four": "box:off-grid"}


def test_log_moves_are_replayed(tmp_path):
    x1, y1 = centre(2, 3)
    x2, y2 = centre(6, 2)
    text = S.save_text("Main Map", [piece("p1", "One", "Main Map", x1, y1), piece("p2", "Two", "Main Map", x1, y1)],
                       log=[f"M/p1/Main Map/{x2}/{y2}/null/Main Map/{x1}/{y1}/null/me", "-/p2"])
    vlog = tmp_path / "game.vlog"
    vlog.write_bytes(S.save_file(text, "VCSK", key=0x11))
    result = import_module(module_with_setups(tmp_path), tmp_path / "out", saves=[vlog])
    game = next(p for p in result.scenarios if "game" in p.name)
    units, _ = units_of(game)
    assert units == {"One": label(6, 2)}


def test_deobfuscation_vectors():
    # 'a' ^ 0x58 = 0x39, 'b' -> 0x3a, 'c' -> 0x3b; UTF-8 'é' (c3 a9) -> 9b f1
    assert deobfuscate(b"!VCSK58393a3b") == "abc"
    assert deobfuscate(b"!VCSK58393A3B") == "abc"
    assert deobfuscate(b"!VCSK589bf1") == "é"
    assert deobfuscate(b"VOBS\x58" + bytes([0x39, 0x3A, 0x3B])) == "abc"
    assert deobfuscate("plain é".encode()) == "plain é"
    nested = seqenc.join(["begin_save", seqenc.join(["+/a/x/y", "+/b/x/y"], "\x1b"), "end_save"], "\x1b")
    assert commands(nested) == ["begin_save", "+/a/x/y", "+/b/x/y", "end_save"]


# ---------------------------------------------------------------- broken modules

def problems(excinfo):
    return [(p.file, p.key, p.message) for p in excinfo.value.problems]


def test_missing_board_image(tmp_path):
    m = S.Module(boards=[("North", "missing.png", 900, 700, S.Grid())])
    path = tmp_path / "m.vmod"
    m.write(path)
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    ((file, key, msg),) = problems(e)
    assert file == str(path) and key == "images/missing.png" and "Board 'North'" in msg
    assert not (tmp_path / "out").exists()          # nothing written


def test_bad_xml(tmp_path):
    path = tmp_path / "x.vmod"
    S.Module().write(path, build_text="<VASSAL.build.GameModule><oops></VASSAL.build.GameModule>")
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    ((file, key, msg),) = problems(e)
    assert file == str(path) and key == "buildFile.xml" and "not well-formed XML (line 1" in msg


def test_grid_with_zero_spacing(tmp_path):
    path = grid_module(tmp_path, S.Grid(dx=0.0))
    with pytest.raises(BadFile) as e:
        import_module(path, tmp_path / "out")
    ((file, key, msg),) = problems(e)
    assert key == "buildFile.xml: Map 'Main Map' > Board 'North' > HexGrid.dx" and "more than 0" in msg


def test_truncated_and_missing_archives(tmp_path):
    good = grid_module(tmp_path, S.Grid())
    cut = tmp_path / "cut.vmod"
    cut.write_bytes(good.read_bytes()[:300])
    with pytest.raises(BadFile) as e:
        import_module(cut, tmp_path / "out")
    assert "not a readable ZIP archive" in problems(e)[0][2]
    with pytest.raises(BadFile) as e:
        import_module(tmp_path / "none.vmod", tmp_path / "out")
    assert problems(e)[0][2] == "file not found"
    nobuild = tmp_path / "nobuild.vmod"
    with zipfile.ZipFile(nobuild, "w") as z:
        z.writestr("moduledata", "<data/>")
    with pytest.raises(BadFile) as e:
        import_module(nobuild, tmp_path / "out")
    assert problems(e)[0][1] == "buildFile.xml"


def test_custom_classes_and_other_grids_are_reported(tmp_path):
    m = S.Module(boards=[("North", "board.png", 600, 500, S.Grid()), ("Chart", "", 300, 300, None)],
                 layout="Main MapBoardPicker\tNorth\t0\t0\tChart\t1\t0",
                 extra_xml='<com.example.CustomWidget name="Odd"/>')
    images(m, 600, 500)
    path = tmp_path / "c.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    text = result.report.read_text()
    assert "custom component com.example.CustomWidget 'Odd'" in text
    assert "board 'Chart': no grid" in text
    assert len(load_map(result.maps[0]).sheets) == 1


def test_command_line(tmp_path, capsys):
    mod = module_with_setups(tmp_path)
    assert cli_main(["import", "vassal", str(mod), str(tmp_path / "out")]) == 0
    assert "Scenario synthetic-at-start: 4 pieces, 3 on hexes, 1 in off-map boxes" in capsys.readouterr().out
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(b"not a zip")
    assert cli_main(["import", "vassal", str(bad), str(tmp_path / "out2")]) == 1
    assert f"{bad}: not a readable ZIP archive" in capsys.readouterr().err


def test_a_huge_board_is_copied_not_decoded(tmp_path):
    # a 30,000 x 20,000 board: only its header is read (the pixels are never decoded, the file is copied)
    png = S.png_bytes(8, 8)
    huge = png[:16] + __import__("struct").pack(">II", 30_000, 20_000) + png[24:]
    m = S.Module(boards=[("Huge", "huge.png", 0, 0, S.Grid(dx=300.0, dy=346.0, x0=150, y0=173,
                                                               numbering={"sep": "."}))])
    m.images["huge.png"] = huge
    path = tmp_path / "h.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    board = load_map(result.maps[0])
    assert (tmp_path / "out" / "maps" / board.sheets[0].image).read_bytes() == huge
    ns = board.sheets[0].numbering
    assert (ns.cols, ns.rows) == (100, 59)        # rows -1 to 57: odd columns start half a hex higher
    assert board.hex_id(board.hexes()[-1]) == vassal_label({"sep": "."}, 30_000, 20_000, 300.0, 346.0, False, 99, 57)
    assert board.hex_id(board.hexes()[-1]) == "100.59"


def test_two_boards_side_by_side_and_zones(tmp_path):
    grid = S.Grid(**GRID)
    zone = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
            '<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Dead pile" path="0,0;120,0;120,100;0,100" '
            'locationFormat="$name$" useParentGrid="false"/>'
            f'{grid.xml()}</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')

    class Zoned(S.Grid):
        def xml(self):
            return zone

    m = S.Module(boards=[("West", "board.png", 900, 700, grid), ("East", "board.png", 900, 700, Zoned(**GRID))],
                 layout="Main MapBoardPicker\tWest\t0\t0\tEast\t1\t0")
    images(m, 900, 700)
    x, y = centre(3, 4)
    m.stacks = [S.setup_stack("w", "West", [("A", layered("A"))], x, y),
                S.setup_stack("e", "East", [("B", layered("B"))], x, y),
                S.setup_stack("z", "East", [("C", layered("C"))], 50, 50),
                S.setup_stack("map", "", [("D", layered("D"))], 900 + x, y)]       # map coordinates: on East
    path = tmp_path / "two.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    board = load_map(result.maps[0])
    assert [s.id for s in board.sheets] == ["west", "east"]
    assert board.boxes["dead-pile"].name == "Dead pile"
    units, _ = units_of(result.scenarios[0])
    assert units == {"A": f"west-{label(3, 4)}", "B": f"east-{label(3, 4)}", "C": "box:dead-pile",
                     "D": f"east-{label(3, 4)}"}
    for sid in ("west", "east"):
        sheet = board.sheet(sid)
        u, v = board.to_image(sheet, *board.center(board.parse_hex(f"{sid}-{label(3, 4)}")))
        assert abs(u - x) <= 1 and abs(v - y) <= 1


def test_vassal_numbering_options_are_checked_in_map_files(tmp_path):
    text = ('[map]\nformat = 1\n\n[[sheets]]\nid = "a"\nnumbering = "vassal"\ncols = 3\nrows = 3\n'
            'vassal = { h_type = "Q", stagger = "yes" }\n\n[[sheets]]\nid = "b"\nnumbering = "classic"\ncols = 3\n'
            'rows = 3\nfirst_col = 10\nvassal = { sep = "." }\n')
    path = tmp_path / "m.toml"
    path.write_text(text)
    with pytest.raises(BadFile) as e:
        load_map(path)
    found = {(p.key, p.message) for p in e.value.problems}
    assert ("sheets[0].vassal.stagger", "expected true or false, found a string") in found
    assert ("sheets[1].vassal", 'only numbering = "vassal" has VASSAL options') in found


def test_only_free_play_starts_units_in_boxes(tmp_path):
    from engine.scenario.load import parse_scenario

    doc = {"scenario": {"id": "x", "name": "x", "ruleset": "classic", "map": "m.toml", "first_turn": 1,
                        "last_turn": 2, "first_side": "a"},
           "sides": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
           "units": [{"id": "u", "side": "a", "type": "infantry", "size": "battalion", "attack": 1, "defense": 1,
                      "movement": 1, "hex": "box:dead"}],
           "deployments": [{"id": "d", "side": "a", "order": 1, "area": "all", "units": ["u"]}]}
    with pytest.raises(BadFile) as e:
        parse_scenario(doc, str(tmp_path / "x.toml"))
    assert any(p.key == "units[0] (u).hex" and "only free-play scenarios" in p.message for p in e.value.problems)
    # many (an imported set-up's off-map pieces under the classic rules): one line, not one per unit
    doc["units"] = [dict(doc["units"][0], id=f"u{k}") for k in range(40)]
    doc["deployments"][0]["units"] = [f"u{k}" for k in range(40)]
    with pytest.raises(BadFile) as e:
        parse_scenario(doc, str(tmp_path / "x.toml"))
    assert [(p.key, p.message) for p in e.value.problems] == [
        ("units", "40 units start in an off-map box (u0, u1, u2, u3, u4, u5 and 34 more): only free-play scenarios "
                  "(ruleset \"free\") do; place them on the map or take them out of the scenario")]


# ---------------------------------------------------------------- every board, SVG art, honest reports

def three_boards(tmp_path, layout="", **kw) -> S.Module:
    m = S.Module(boards=[(n, "board.png", 900, 700, S.Grid(**GRID)) for n in ("A", "B", "C")], layout=layout, **kw)
    images(m, 900, 700)
    m.slots = [("Inf A", layered())]
    return m


def test_a_board_picker_with_no_default_gives_one_map_per_board_and_a_set_up_opens_its_own(tmp_path):
    x, y = centre(3, 4)
    text = S.save_text("Main Map", [piece("p1", "One", "Main Map", x, y)], layout="Main MapBoardPicker\tB\t0\t0")
    m = three_boards(tmp_path, setups=[("On B", "b.vsav")], files={"b.vsav": S.save_file(text)})
    m.stacks = [S.setup_stack("on A", "A", [("Inf A", layered("Inf A"))], x, y),
                S.setup_stack("on C", "C", [("Inf C", layered("Inf C"))], x, y)]
    path = tmp_path / "three.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert sorted(p.name for p in result.maps) == ["main-map-a.toml", "main-map-b.toml", "main-map-c.toml"]
    for p in result.maps:
        assert len(load_map(p).sheets) == 1
    on_b = next(p for p in result.scenarios if "on-b" in p.name)
    units, sc = units_of(on_b)
    assert units == {"One": label(3, 4)}
    assert Path(sc.map_path).name == "main-map-b.toml"
    # the at-start stacks open the first board: the piece of board C is not put on board A
    start = next(p for p in result.scenarios if "at-start" in p.name)
    units, sc = units_of(start)
    assert units == {"Inf A": label(3, 4), "Inf C": "box:off-grid"}
    report = "\n".join(result.lines)
    assert "3 boards to choose from and no default layout: one map for each board ('A', 'B', 'C')" in report
    assert f"needs board 'B' (maps/main-map-b.toml)" in report
    assert cli_main(["validate", str(on_b)]) == 0


def test_board_picker_rows_and_columns_make_one_map_of_sheets(tmp_path):
    m = three_boards(tmp_path, layout="Main MapBoardPicker\tA\t0\t0\tB\t1\t0\tC\t0\t1")
    xa, ya = centre(3, 4)
    # a save with the same layout: a piece on C (row 1, below A) and one on B (column 1, right of A)
    text = S.save_text("Main Map", [piece("p1", "Below", "Main Map", xa, 700 + ya),
                                    piece("p2", "Right", "Main Map", 900 + xa, ya)],
                       layout="Main MapBoardPicker\tA\t0\t0\tB\t1\t0\tC\t0\t1")
    m.setups = [("Grid", "g.vsav")]
    m.files = {"g.vsav": S.save_file(text)}
    path = tmp_path / "rows.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert [p.name for p in result.maps] == ["main-map.toml"]
    board = load_map(result.maps[0])
    assert [s.id for s in board.sheets] == ["a", "b", "c"]
    units, sc = units_of(next(p for p in result.scenarios if "grid" in p.name))
    assert units == {"Below": f"c-{label(3, 4)}", "Right": f"b-{label(3, 4)}"}
    # C lies below A and B right of A in hex space too: no two sheets share a hex, and C's rows follow A's
    assert all(len(board.sheets_of(h)) == 1 for h in board.hexes())
    of = {sid: [h for h in board.hexes() if board.sheets_of(h)[0].id == sid] for sid in "abc"}
    assert min(board.center(h)[1] for h in of["c"]) > max(board.center(h)[1] for h in of["a"])
    assert min(board.center(h)[0] for h in of["b"]) > max(board.center(h)[0] for h in of["a"])
    for sid in ("a", "c"):
        u, v = board.to_image(board.sheet(sid), *board.center(board.parse_hex(f"{sid}-{label(3, 4)}")))
        assert abs(u - xa) <= 1 and abs(v - ya) <= 1


SYMBOLS = (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
           b'<defs><rect id="s" width="40" height="40" x="0" y="0" style="fill:#2850c8;stroke:none"/></defs></svg>')
COUNTER_SVG = (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" '
               b'xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">'
               b'<use x="0" y="0" xlink:href="symbols.svg#s"/>'
               b'<circle cx="20" cy="20" r="6" style="fill:#fae600"/></svg>')


def test_svg_counters_are_drawn_with_the_shapes_they_borrow(tmp_path):
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.images["symbols.svg"] = SYMBOLS
    m.images["unit.svg"] = COUNTER_SVG
    m.slots = [(f"Unit {k}", S.definition([S.basic("unit.svg", f"Unit {k}")], ["null;0;0;1;0"])) for k in range(3)]
    path = tmp_path / "svg.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    face = Image.open(tmp_path / "out" / "counters" / "unit-0-front.png").convert("RGBA")
    assert face.size == (40, 40)
    assert face.getpixel((3, 3)) == (0x28, 0x50, 0xC8, 255)       # the borrowed square
    assert face.getpixel((20, 20)) == (0xFA, 0xE6, 0x00, 255)     # the counter's own circle
    report = "\n".join(result.lines)
    assert "SVG" not in report.split("Not imported:")[1]
    assert "Counter art: 1 SVG image drawn" in report


def test_an_svg_that_cannot_be_drawn_is_reported_once_for_all_its_uses(tmp_path):
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.images["bad.svg"] = b"<svg this is not"
    m.images["bad2.svg"] = b"<svg neither"
    m.slots = [(f"U{k}", S.definition([S.basic(f"bad{'' if k % 2 else '2'}.svg", f"U{k}")], ["null;0;0;1;0"]))
               for k in range(6)]
    path = tmp_path / "badsvg.vmod"
    m.write(path)
    report = import_module(path, tmp_path / "out").lines
    bad = [line for line in report if "SVG" in line]
    assert len(bad) == 1 and bad[0].startswith("- 2 SVG images cannot be drawn: 'bad.svg'"), bad


def test_an_unnumbered_grid_says_its_labels_are_sandtables_choice(tmp_path):
    result = import_module(grid_module(tmp_path, S.Grid(**GRID, numbering=None)), tmp_path / "out")
    line = next(x for x in result.lines if x.startswith("Map 'Main Map', board 'North'"))
    assert "labels of Sandtable's own choice" in line and "checked both ways" not in line
    numbered = import_module(grid_module(tmp_path / "n" if (tmp_path / "n").mkdir() is None else None,
                                         S.Grid(**GRID)), tmp_path / "out2")
    assert "every label checked both ways" in next(x for x in numbered.lines if x.startswith("Map 'Main Map'"))


def test_a_bad_set_up_is_named_by_module_and_entry(tmp_path):
    mod = module_with_setups(tmp_path, setups=[("Broken", "scenario_5.sav")], files={"scenario_5.sav": b"nonsense"})
    report = "\n".join(import_module(mod, tmp_path / "out").lines)
    assert "pre-defined set-up 'Broken': s.vmod: scenario_5.sav: not a readable ZIP archive" in report
    assert "/tmp" not in report and "setup.vsav" not in report


def test_a_vassal_2_save_is_its_command_text(tmp_path):
    x, y = centre(2, 3)
    text = S.save_text("Main Map", [piece("p1", "One", "Main Map", x, y)])
    mod = module_with_setups(tmp_path, setups=[("Old", "old.sav")], files={"old.sav": text.encode()})
    result = import_module(mod, tmp_path / "out")
    units, _ = units_of(next(p for p in result.scenarios if "old" in p.name))
    assert units == {"One": label(2, 3)}
    # a set-up of board picks only (The Longest Day's scenario_5.sav) says so
    empty = S.save_text("Main Map", []).encode()
    mod = module_with_setups(tmp_path / "e" if (tmp_path / "e").mkdir() is None else None,
                             setups=[("Empty", "empty.sav")], files={"empty.sav": empty})
    result = import_module(mod, tmp_path / "out2")
    line = next(x for x in result.lines if "synthetic-empty" in x)
    assert line.startswith("Scenario synthetic-empty: the set-up places no piece")


def test_grid_kinds_are_named_and_each_board_listed_once(tmp_path):
    # a square grid in a zoned grid beside the zones' highlighter (which is no grid)
    square = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
              '<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="50" dy="50"/>'
              '<VASSAL.build.module.map.boardPicker.board.mapgrid.ZonedGridHighlighter/>'
              '</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')
    light = '<VASSAL.build.module.map.HighlightLastMoved color="255,0,0"/>'

    class Raw(S.Grid):
        def __init__(self, text):
            super().__init__()
            self.text = text

        def xml(self):
            return self.text

    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID)), ("Chart", "", 300, 300, Raw(square))],
                 layout="Main MapBoardPicker\tNorth\t0\t0\tChart\t1\t0", extra_xml="")
    images(m, 900, 700)
    path = tmp_path / "kinds.vmod"
    m.write(path, m.build_file().replace("</VASSAL.build.module.map.BoardPicker>",
                                         f"</VASSAL.build.module.map.BoardPicker>{light}"))
    report = import_module(path, tmp_path / "out").lines
    chart = [x for x in report if "board 'Chart'" in x]
    assert chart == ["- Map 'Main Map', board 'Chart': a square grid (only hex grids become map sheets; its pieces "
                     "go to an off-map box)"], chart
    assert not any("Highlight" in x for x in report)


def test_validate_of_an_imported_map_says_once_how_many_hexes_lack_terrain(tmp_path, capsys):
    result = import_module(grid_module(tmp_path, S.Grid(**GRID)), tmp_path / "out")
    (path,) = result.maps
    hexes = len(load_map(path).hexes())
    assert cli_main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{path}: warning: terrain: {hexes:,} hexes have no terrain (0100, 0101, 0102, ...); paint them in "
                   f"the map editor (python -m gui.mapeditor grid.toml) before playing classic rules".replace(
                       "grid.toml", path.name),
                   f"{path}: ok (map), 1 warning(s)"]


def test_pieces_take_the_sides_of_the_module_roster(tmp_path):
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))], sides=["Allies", "Germans"])
    images(m, 900, 700)
    m.prototypes = {"Unit (Allied)": S.definition([S.basic("", "")], [""]),
                    "Unit (German)": S.definition([S.basic("", "")], [""])}
    marker = "mark;Nationality"
    m.slots = [("Ami", layered("Ami", proto="Unit (Allied)")), ("Jerry", layered("Jerry", proto="Unit (German)")),
               ("Tommy", S.definition([marker, S.basic("blue.png", "Tommy")], ["Allies", "null;0;0;1;0"])),
               ("Rock", S.definition([S.basic("star.png", "Rock")], ["null;0;0;1;0"]))]
    x, y = centre(3, 4)
    m.stacks = [S.setup_stack("s", "North", m.slots, x, y)]
    # a save's pieces carry their traits expanded and no palette id: known by their look in the palette
    text = S.save_text("Main Map", [("p1", [S.basic("blue.png", "Tommy")], ["Main Map;%d;%d;;" % (x, y)])])
    m.setups = [("Saved", "saved.vsav")]
    m.files = {"saved.vsav": S.save_file(text)}
    path = tmp_path / "sides.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    start = load_scenario(next(p for p in result.scenarios if "at-start" in p.name))
    assert [(s.id, s.name) for s in start.sides.values()] == [("allies", "Allies"), ("germans", "Germans"),
                                                               ("pieces", "Pieces (no side)")]
    assert {u.name: u.side for u in start.units.values()} == {"Ami": "allies", "Jerry": "germans", "Tommy": "allies",
                                                              "Rock": "pieces"}
    saved = load_scenario(next(p for p in result.scenarios if "saved" in p.name))
    assert {u.name: u.side for u in saved.units.values()} == {"Tommy": "allies"}
    assert [s.id for s in saved.sides.values()] == ["allies", "germans"]
    report = "\n".join(result.lines)
    assert "sides from the module's roster: 2 Allies, 1 Germans; 1 pieces left with no side" in report
    assert "'Rock'" in report


def test_a_board_offered_alone_whose_image_is_missing_leaves_the_others_be(tmp_path):
    m = three_boards(tmp_path)
    m.boards[1] = ("B", "lost.png", 900, 700, S.Grid(**GRID))
    path = tmp_path / "lost.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert sorted(p.name for p in result.maps) == ["main-map-a.toml", "main-map-c.toml"]
    assert ("- Map 'Main Map', board 'B': lost.vmod: images/lost.png: missing: the image of Map 'Main Map' > "
            "Board 'B' (its 'image' attribute names it)") in result.lines


def test_what_many_pieces_lack_is_one_line_naming_them(tmp_path):
    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.slots = [(f"Gun {k}", S.definition(["rotate;6;];[;Rotate CW;Rotate CCW", S.basic("blue.png", f"Gun {k}")],
                                         ["0", "null;0;0;1;0"])) for k in range(12)]
    path = tmp_path / "rot.vmod"
    m.write(path)
    lines = [x for x in import_module(path, tmp_path / "out").lines if "rotat" in x]
    assert lines == ["- 12 pieces: rotation (a 'rotate' trait) is not imported; drawn unrotated ('Gun 0', 'Gun 1', "
                     "'Gun 2', 'Gun 3', 'Gun 4', 'Gun 5', 'Gun 6', 'Gun 7' and 4 more)"], lines


def test_svg_text_in_a_font_this_machine_lacks_is_drawn_in_one_it_has():
    from engine.importers.vassal import svgdraw

    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><rect width="60" height="30" fill="white"/>'
           b'<text x="4" y="22" style="font-size:20px;font-family:No Such Font Condensed;fill:black">888</text></svg>')
    im = svgdraw.draw(svg).convert("L")
    dark = sum(1 for x in range(60) for y in range(30) if im.getpixel((x, y)) < 100)
    assert dark > 60          # three figures' strokes (with no fallback resvg draws no text at all: 0)


def test_an_svg_board_is_drawn_to_the_sheets_image(tmp_path):
    m = S.Module(boards=[("North", "board.svg", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.images["board.svg"] = (b'<svg xmlns="http://www.w3.org/2000/svg" width="900" height="700">'
                             b'<rect width="900" height="700" fill="#4f7d2c"/>'
                             b'<rect x="0" y="0" width="450" height="350" fill="#c7901c"/></svg>')
    path = tmp_path / "svgboard.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    board = load_map(result.maps[0])
    (sheet,) = board.sheets
    assert sheet.image.endswith(".png")
    with Image.open(result.maps[0].parent / sheet.image) as im:
        assert im.size == (900, 700)
        assert im.convert("RGB").getpixel((10, 10)) == (0xC7, 0x90, 0x1C)
        assert im.convert("RGB").getpixel((800, 600)) == (0x4F, 0x7D, 0x2C)
    assert "Map 'Main Map', board 'North': its SVG image drawn, 900 x 700 pixels" in result.lines


def test_a_reversed_board_keeps_its_pieces_on_the_hexes_vassal_names(tmp_path):
    m = three_boards(tmp_path, layout="Main MapBoardPicker\tA\t0\t0\tB/rev\t1\t0")
    x, y = centre(3, 4)
    # on the reversed board B a board point (x, y) is at map point (900 + 900 - x, 700 - y)
    text = S.save_text("Main Map", [piece("p1", "Turned", "Main Map", 900 + 900 - x, 700 - y)],
                       layout="Main MapBoardPicker\tA\t0\t0\tB/rev\t1\t0")
    m.setups = [("Rev", "rev.vsav")]
    m.files = {"rev.vsav": S.save_file(text)}
    path = tmp_path / "rev.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert [s.id for s in load_map(result.maps[0]).sheets] == ["a", "b"]
    units, _ = units_of(next(p for p in result.scenarios if "rev" in p.name))
    assert units == {"Turned": f"b-{label(3, 4)}"}
    assert any("board 'B': reversed in VASSAL's layout" in x for x in result.lines)


def test_a_hex_grid_held_by_a_zone_becomes_the_sheet_numbered_on_the_zones_size(tmp_path):
    # a board with no grid of its own: a zone holds a pointy grid whose rows count down from the zone's bottom
    # (VASSAL counts a zone's descending axis on the zone's bounding box, not the board); a second zone holds a
    # square grid (a box), and a point in no zone has no grid at all
    W, H = 1200, 1000
    zone_box = (12, 34, 1081, 760)
    g = dict(sideways=True, dx=97.7, dy=112.4, x0=21, y0=24)
    num = {"vDescend": True, "stagger": True, "hOff": 0, "vOff": 0}
    hexes = S.Grid(numbering=options(num), **g)
    left, top, right, bottom = zone_box
    zoned = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
             '<VASSAL.build.module.map.boardPicker.board.mapgrid.ZonedGridHighlighter/>'
             f'<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="map" useParentGrid="false" '
             f'path="{left},{top};{right},{top};{right},{bottom};{left},{bottom}" locationFormat="$gridLocation$">'
             f'{hexes.xml()}</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>'
             '<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Track" useParentGrid="false" '
             'path="1090,40;1190,40;1190,700;1090,700" locationFormat="$name$">'
             '<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="100" dy="80"/>'
             '</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>'
             '</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')

    class Zoned(S.Grid):
        def xml(self):
            return zoned

    m = S.Module(boards=[("Map", "board.png", W, H, Zoned())])
    images(m, W, H)
    cx, cy = vassal_centre(g["dx"], g["dy"], g["x0"], g["y0"], True, 3, 2)
    m.stacks = [S.setup_stack("hex", "Map", [("A", layered("A"))], cx, cy),
                S.setup_stack("track", "Map", [("B", layered("B"))], 1100, 100),
                S.setup_stack("nowhere", "Map", [("C", layered("C"))], 600, 900)]
    path = tmp_path / "zone.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    assert any("(the hex grid of its zone 'map'): sheet" in x for x in result.lines), result.lines
    board = load_map(result.maps[0])
    (sheet,) = board.sheets
    assert board.orientation == "pointy"
    zw, zh = right - left, bottom - top
    want = vassal_label(num, zw, zh, g["dx"], g["dy"], True, 3, 2)
    assert want != vassal_label(num, W, H, g["dx"], g["dy"], True, 3, 2)      # the zone's size matters here
    units, _ = units_of(result.scenarios[0])
    assert units == {"A": want, "B": "box:track", "C": "box:off-grid"}
    u, v = board.to_image(sheet, *board.center(board.parse_hex(want)))
    assert abs(u - cx) <= 1 and abs(v - cy) <= 1
    # the sheet holds the hexes of the zone only: none of its centres lies below the zone
    for h in board.hexes():
        x, y = board.to_image(sheet, *board.center(h))
        assert y < bottom + 1, (board.hex_id(h), x, y)


def test_a_zone_with_a_hex_grid_of_its_own_beside_the_boards_grid_is_a_box(tmp_path):
    # the board's grid is the sheet; a zone's own (different) hex grid cannot share it: its pieces go to its box,
    # not to the board grid's hex under them
    other = S.Grid(dx=30.0, dy=34.0, x0=5, y0=5)
    zoned = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
             '<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="Inset" useParentGrid="false" '
             'path="600,400;900,400;900,700;600,700" locationFormat="$gridLocation$">'
             f'{other.xml()}</VASSAL.build.module.map.boardPicker.board.mapgrid.Zone>'
             f'{S.Grid(**GRID).xml()}</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')

    class Zoned(S.Grid):
        def xml(self):
            return zoned

    m = S.Module(boards=[("North", "board.png", 900, 700, Zoned())])
    images(m, 900, 700)
    x, y = centre(3, 4)
    m.stacks = [S.setup_stack("a", "North", [("A", layered("A"))], x, y),
                S.setup_stack("b", "North", [("B", layered("B"))], 700, 500)]
    path = tmp_path / "inset.vmod"
    m.write(path)
    result = import_module(path, tmp_path / "out")
    units, _ = units_of(result.scenarios[0])
    assert units == {"A": label(3, 4), "B": "box:inset"}
    assert any("zone 'Inset' has a hex grid of its own" in x for x in result.lines), result.lines


def test_an_imported_scenario_switched_to_the_classic_rules_names_its_units_without_values(tmp_path):
    # VASSAL counters carry their values only in their art: every imported unit is 0-0-0, and Check said "ready
    # to play" under the classic rules, where such units fight 0 against 0 at the best odds
    from engine.scenario import edit as E

    (path,) = import_module(module_with_setups(tmp_path), tmp_path / "out").scenarios
    s = load_scenario(path)
    board = load_map(Path(path).parent / s.map_path) if not Path(s.map_path).is_absolute() else load_map(s.map_path)
    assert [p for p in E.check(s, board) if p.key == "units"] == []          # free play: values are not used
    s = E.set_ruleset(s, "classic")
    (problem,) = [p for p in E.check(s, board) if p.key == "units"]
    assert problem.message == ("4 units have attack, defence and movement 0: type each unit's printed values on the "
                               "Order of battle page (the classic rules move and fight by them): inf-a, inf-b, inf-c, "
                               "inf-d")
    for uid in ("inf-a", "inf-b", "inf-c"):
        s = E.update_unit(s, uid, attack=4, defense=4, movement=2)
    (problem,) = [p for p in E.check(s, board) if p.key == "units"]
    assert problem.message.startswith("1 unit has attack, defence and movement 0: ") and problem.message.endswith(
        ": inf-d")
    s = E.update_unit(s, "inf-d", attack=1, defense=2, movement=3)
    assert [p for p in E.check(s, board) if p.key == "units"] == []


def test_an_svg_face_as_it_stands_is_written_as_resvg_drew_it(tmp_path):
    # drawn, decoded, then encoded again by Pillow: 600 SVG faces spent 0.15 s of CPU being encoded twice
    import resvg_py

    from engine.importers.vassal import svgdraw

    m = S.Module(boards=[("North", "board.png", 900, 700, S.Grid(**GRID))])
    images(m, 900, 700)
    m.images["front.svg"] = (b'<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" '
                             b'height="48" fill="#204080"/></svg>')
    m.images["back.svg"] = (b'<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><rect width="48" '
                            b'height="48" fill="#e0c020"/></svg>')
    m.images["small.svg"] = (b'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" '
                             b'cy="12" r="10" fill="#c03030"/></svg>')
    flip = S.definition([S.layer(["", "back.svg"], ["", "+ (reduced)"], "Flip"), S.basic("front.svg", "Unit")],
                        ["1", "null;0;0;1;0"])
    badged = S.definition([S.layer(["small.svg"], [""], "Badge"), S.basic("front.svg", "Badged")], ["1", "null;0;0;2;0"])
    m.slots = [("Unit", flip), ("Badged", badged)]
    path = tmp_path / "svg.vmod"
    m.write(path)
    import_module(path, tmp_path / "out")
    counters = tmp_path / "out" / "counters"

    def drawn(name):
        return bytes(resvg_py.svg_to_bytes(svg_string=svgdraw.with_fallback_fonts(m.images[name].decode())))

    assert (counters / "unit-front.png").read_bytes() == drawn("front.svg")
    assert (counters / "unit-back.png").read_bytes() == drawn("back.svg")     # an opaque layer over the front
    face = Image.open(counters / "badged-front.png").convert("RGBA")       # a small layer over it: composed
    assert face.getpixel((24, 24))[:3] == (0xC0, 0x30, 0x30) and face.getpixel((2, 2))[:3] == (0x20, 0x40, 0x80)
