"""Counter backs: the reduced side of a stepped unit drawn from data, cut from a sheet's reverse, used in play."""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.scenario import edit as E
from engine.counters.art import (
    counter_faces, counter_image, counter_images_folder, counter_sheet, cut_counter_image, stripe_colour,
)
from engine.counters.sheet import CounterGrid, cut
from engine.errors import BadFile
from engine.scenario import Unit, load_scenario, parse_scenario, save_scenario, scenario_to_dict

ROOT = Path(__file__).resolve().parent.parent
S = 128


def unit(**kw) -> Unit:
    base = dict(id="ger-12-27", side="german", type="infantry", size="regiment", attack=4, defense=4, movement=8,
                division="12", regiment="27", steps=2, reduced="2-2-8")
    base.update(kw)
    return Unit(**base)


def px(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("RGBA"), dtype=int)


def rows_differing(a: Image.Image, b: Image.Image) -> set[int]:
    return set(np.nonzero((np.abs(px(a) - px(b)).sum(axis=2) > 30).any(axis=1))[0].tolist())


def test_a_stepped_unit_has_a_front_and_a_back_a_single_step_unit_only_a_front():
    assert sorted(counter_faces(unit(), S)) == ["back", "front"]
    single = unit(steps=1, reduced="")
    assert list(counter_faces(single, S)) == ["front"]
    with pytest.raises(ValueError, match="has one step: its counter has no back"):
        counter_image(single, S, face="back")
    with pytest.raises(ValueError, match="a front and a back, not 'side'"):
        counter_image(unit(), S, face="side")


def test_the_back_prints_the_reduced_values_and_a_stripe_across_the_middle():
    back = counter_image(unit(), S, face="back")
    # the same counter drawn as a front with the reduced values differs only inside the band
    as_front = counter_image(unit(attack=2, defense=2, steps=1, reduced=""), S)
    rows = rows_differing(back, as_front)
    assert rows and min(rows) >= int(0.26 * S) and max(rows) <= int(0.61 * S)
    # the band's colour at the counter's left edge, where nothing else is printed
    fill = np.array([0x8f, 0xa2, 0xb6])
    band = px(back)[int(0.3 * S):int(0.56 * S), int(0.04 * S):int(0.08 * S), :3].reshape(-1, 3)
    assert np.abs(band - np.array(stripe_colour(tuple(fill)))).max() <= 3
    front = px(counter_image(unit(), S))[int(0.3 * S):int(0.56 * S), int(0.04 * S):int(0.08 * S), :3]
    assert np.abs(front.reshape(-1, 3) - fill).max() <= 3
    # the front and the back differ in the attack (upper left) and defence (bottom), not in the movement (8 both)
    diff = np.abs(px(back) - px(counter_image(unit(), S))).sum(axis=2) > 60
    assert diff[: int(0.27 * S), : int(0.3 * S)].any() and diff[int(0.65 * S):, int(0.35 * S):int(0.65 * S)].any()
    assert not diff[: int(0.27 * S), int(0.7 * S):].any()


def test_a_dark_counter_gets_a_pale_band_and_a_pale_counter_a_dark_one():
    dark, pale = (0x1c, 0x1c, 0x1c), (0xf6, 0xf4, 0xef)
    assert sum(stripe_colour(dark)) > sum(dark) + 150
    assert sum(stripe_colour(pale)) < sum(pale) - 150


def test_reduced_values_are_read_checked_and_saved(tmp_path):
    s = load_scenario(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    uid = next(iter(s.units))
    doc = scenario_to_dict(s)
    doc["units"][0].update(steps=2, reduced="1-2-3")
    doc["scenario"]["map"] = s.map_path
    parsed = parse_scenario(doc, str(tmp_path / "x.toml"))
    assert parsed.units[uid].reduced == "1-2-3"
    save_scenario(parsed, tmp_path / "x.toml")
    assert load_scenario(tmp_path / "x.toml").units[uid].reduced == "1-2-3"
    doc["units"][0].update(reduced="1-2")
    doc["units"][1].update(reduced="1-1-1")
    with pytest.raises(BadFile) as e:
        parse_scenario(doc, "x.toml")
    text = str(e.value)
    assert f"units[0] ({uid}).reduced: expected the back's values like '2-2-5'" in text
    assert "units[1]" in text and "a unit with one step has no back" in text


def test_the_editor_refuses_a_back_for_a_unit_without_steps():
    s = E.new_scenario("t", "T", "demyansk", str(ROOT / "maps" / "demyansk.toml"),
                       [E.Side("german", "German", "#7d8ea3")])
    with pytest.raises(ValueError, match="no back"):
        E.add_unit(s, unit(steps=1))
    s = E.add_unit(s, unit())
    with pytest.raises(ValueError, match="like '2-2-5'"):
        E.update_unit(s, "ger-12-27", reduced="two")


def on_sheet(img: Image.Image) -> Image.Image:
    """A counter as it looks printed on the sheet's card (its rounded corners over the background)."""
    card = Image.new("RGBA", img.size, (214, 206, 188, 255))
    card.alpha_composite(img)
    return card


def reverse_sheet(units, size, columns, gap):
    """A sheet's reverse as scanned turned over: every counter's back behind its front, columns mirrored."""
    return counter_sheet(units, size, columns=columns, gap=gap, face="back", mirrored=True)


def test_backs_cut_from_the_reverse_of_a_sheet_match_the_generated_backs():
    units = [unit(id=f"u{i}", regiment=str(i), attack=3 + i % 4, reduced=f"{1 + i % 3}-1-8", steps=2 if i % 3 else 1)
             for i in range(12)]
    units = [replace(u, reduced="") if u.steps == 1 else u for u in units]
    size, gap, columns = 48, 6, 5
    front = counter_sheet(units, size, columns=columns, gap=gap)
    back = reverse_sheet(units, size, columns, gap)
    rows = 3
    grid = CounterGrid((gap, gap), (gap + columns * size + (columns - 1) * gap, gap + rows * size + (rows - 1) * gap),
                       columns, rows, (gap, gap))
    fronts = cut(front, grid)
    backs = cut(back, E.reverse_grid(grid, back.width))
    s = E.new_scenario("t", "T", "demyansk", str(ROOT / "maps" / "demyansk.toml"),
                       [E.Side("german", "German", "#7d8ea3")])
    for u in units:
        s = E.add_unit(s, u)
    where = E.backs_on_reverse(s, {u.id: i for i, u in enumerate(units)}, columns)
    assert sorted(where) == sorted(u.id for u in units if u.steps == 2)
    for i, u in enumerate(units):
        assert np.array_equal(px(fronts[i]), px(on_sheet(counter_image(u, size))))
        if u.steps == 2:
            assert np.array_equal(px(backs[where[u.id]]), px(on_sheet(counter_image(u, size, face="back")))), u.id


def test_cut_images_beside_a_scenario_are_found_and_the_back_shows_after_a_loss(tmp_path):
    shutil.copy(ROOT / "scenarios" / "demyansk-1-trapped.toml", tmp_path / "s.toml")
    (tmp_path / "maps").mkdir()
    s = load_scenario(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    s = replace(s, path=str(tmp_path / "s.toml"))
    folder = counter_images_folder(s)
    assert folder == tmp_path / "assets" / "demyansk-1-trapped" / "counters"
    u = next(iter(s.units.values()))
    assert cut_counter_image(folder, u, 40) is None
    folder.mkdir(parents=True)
    red = Image.new("RGBA", (80, 80), (200, 0, 0, 255))
    blue = Image.new("RGBA", (80, 80), (0, 0, 200, 255))
    red.save(folder / f"{u.id}-front.png")
    blue.save(folder / f"{u.id}-back.png")
    got = cut_counter_image(folder, u, 40)
    assert got.size == (40, 40) and tuple(px(got)[20, 20]) == (200, 0, 0, 255)
    hurt = replace(u, steps=2, losses=1)
    assert tuple(px(cut_counter_image(folder, hurt, 40))[20, 20]) == (0, 0, 200, 255)
    (folder / f"{u.id}-front.png").write_bytes(b"not a png")
    assert cut_counter_image(folder, u, 40) is None


def qimage_rgba(q) -> np.ndarray:
    """A QImage's pixels as an RGBA array (copied while the converted image is alive)."""
    conv = q.convertToFormat(q.Format.Format_RGBA8888)
    rows = np.frombuffer(conv.constBits(), dtype=np.uint8).reshape(conv.height(), conv.bytesPerLine())
    return rows[:, : conv.width() * 4].reshape(conv.height(), conv.width(), 4).copy()


def test_the_play_windows_counter_art_uses_cut_images(qtbot, tmp_path):
    from gui.scene.counterart import CounterArt

    u = unit()
    folder = tmp_path / "counters"
    folder.mkdir()
    img = counter_image(unit(id="other", attack=9), 64)
    img.save(folder / "ger-12-27-front.png")
    art = CounterArt({}, images=folder)
    q = art.render(u, 64)
    got = qimage_rgba(q)
    want = px(img).astype(np.uint8)
    opaque = want[:, :, 3] == 255
    assert np.abs(got[opaque].astype(int) - want[opaque].astype(int)).max() <= 1
    plain = CounterArt({})
    q2 = plain.render(u, 64)
    got2 = qimage_rgba(q2)
    assert np.abs(got2[opaque].astype(int) - want[opaque].astype(int)).max() > 60   # generated art otherwise
    art.shutdown()
    plain.shutdown()


def test_the_main_window_plays_with_the_scenarios_cut_images(qtbot, tmp_path):
    from gui.play.window import MainWindow

    src = ROOT / "scenarios" / "demyansk-1-trapped.toml"
    text = src.read_text(encoding="utf-8").replace('map = "../maps/demyansk.toml"',
                                                   f'map = "{(ROOT / "maps" / "demyansk.toml").as_posix()}"')
    (tmp_path / "s.toml").write_text(text, encoding="utf-8")
    win = MainWindow(cache=tmp_path / "tiles")
    qtbot.addWidget(win)
    assert win.open_file(tmp_path / "s.toml")
    assert win.map_view.art.images == tmp_path / "assets" / "demyansk-1-trapped" / "counters"
