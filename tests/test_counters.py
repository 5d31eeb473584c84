"""Counter art from unit data (Demyansk 2.1): colours, type symbol, size marks, where each value is printed."""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.counters.art import DEFAULT_COLOURS, colours_for, counter_image, counter_png, counter_sheet
from engine.scenario import UNIT_TYPES, Unit, load_scenario

ROOT = Path(__file__).resolve().parent.parent
S = 128


def unit(**kw) -> Unit:
    base = dict(id="ger-12-27", side="german", type="infantry", size="regiment", attack=4, defense=4,
                movement=8, branch="army", division="12", regiment="27")
    base.update(kw)
    return Unit(**base)


def px(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("RGB"), dtype=int)


def rgb(c: str) -> np.ndarray:
    return np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)])


def region(a: np.ndarray, x0, y0, x1, y1) -> np.ndarray:
    s = a.shape[0]
    return a[int(y0 * s):int(y1 * s), int(x0 * s):int(x1 * s)]


def changed(a: Image.Image, b: Image.Image) -> np.ndarray:
    """Where two counters differ, as a boolean mask."""
    return np.abs(px(a) - px(b)).sum(axis=2) > 60


@pytest.mark.parametrize("side,branch", sorted(DEFAULT_COLOURS))
def test_colours_follow_2_1_per_army_and_branch(side, branch):
    fill, ink = DEFAULT_COLOURS[(side, branch)]
    img = px(counter_image(unit(side=side, branch=branch), S))
    corner = region(img, 0.05, 0.88, 0.12, 0.92).reshape(-1, 3)
    assert np.abs(corner - rgb(fill)).max() <= 6
    digits = region(img, 0.38, 0.68, 0.62, 0.9).reshape(-1, 3)
    assert (np.abs(digits - rgb(ink)).sum(axis=1) < 40).sum() > 80   # the defence is printed in the lettering colour


def test_the_rulebook_colours_in_words():
    names = {k: v for k, v in DEFAULT_COLOURS.items()}
    r, g, b = rgb(names[("soviet", "guards")][0])
    assert r > 150 and g < 90 and b < 90                               # Guards red
    assert rgb(names[("soviet", "navy")][0]).min() > 230                # Navy white ...
    r, g, b = rgb(names[("soviet", "navy")][1])
    assert r > 150 and g < 90                                           # ... with red lettering
    assert rgb(names[("german", "ss")][0]).max() < 40                   # SS black ...
    assert rgb(names[("german", "ss")][1]).min() > 230                  # ... with white lettering
    r, g, b = rgb(names[("german", "army")][0])
    assert b > r and b > g                                              # army grey-blue
    r, g, b = rgb(names[("german", "luftwaffe")][0])
    assert max(r, g, b) - min(r, g, b) < 10                             # Luftwaffe grey


def test_a_scenarios_branch_colours_win_over_the_defaults():
    s = load_scenario(ROOT / "scenarios" / "demyansk-1-trapped.toml")
    u = s.units["sov-nb-154"]
    assert colours_for(u, s.sides["soviet"]) == (s.sides["soviet"].branches["navy"].fill,
                                                s.sides["soviet"].branches["navy"].text)


@pytest.mark.parametrize("field,value,where", [
    ("attack", 9, (0.0, 0.0, 0.35, 0.3)),       # upper left
    ("movement", 3, (0.65, 0.0, 1.0, 0.3)),     # upper right
    ("defense", 7, (0.3, 0.65, 0.7, 1.0)),      # bottom
    ("size", "division", (0.35, 0.12, 0.65, 0.28)),   # the size mark above the symbol
    ("division", "30", (0.0, 0.25, 0.22, 0.65)),      # division number on the left side
    ("regiment", "46", (0.78, 0.25, 1.0, 0.65)),      # regiment number on the right side
    ("type", "armored", (0.27, 0.27, 0.73, 0.6)),     # the symbol box
])
def test_each_value_is_printed_where_2_1_puts_it(field, value, where):
    a = counter_image(unit(), S)
    b = counter_image(replace(unit(), **{field: value}), S)
    diff = changed(a, b)
    inside = region(diff, *where).sum()
    assert inside > 20
    assert diff.sum() - inside == 0, f"changing {field} changed pixels outside {where}"


def symbol_mask(t: str) -> np.ndarray:
    img = px(counter_image(unit(type=t), S))
    return np.abs(region(img, 0.3, 0.3, 0.7, 0.57) - rgb(DEFAULT_COLOURS[("german", "army")][1])).sum(axis=2) < 200


def test_every_unit_type_has_its_own_symbol():
    masks = {t: symbol_mask(t) for t in UNIT_TYPES}
    for i, a in enumerate(UNIT_TYPES):
        for b in UNIT_TYPES[i + 1:]:
            assert (masks[a] != masks[b]).sum() > 15, f"{a} and {b} look alike"


def test_mechanized_is_infantry_and_armour_together():
    inf, arm, mech = symbol_mask("infantry"), symbol_mask("armored"), symbol_mask("mechanized")
    both = inf | arm
    assert (both & mech).sum() / (both | mech).sum() > 0.9


@pytest.mark.parametrize("size", [8, 24, 63, 128, 257, 600])
def test_a_counter_is_drawn_at_the_size_asked(size):
    img = counter_image(unit(), size)
    assert img.size == (size, size) and img.mode == "RGBA"


def test_large_counters_are_drawn_not_scaled_up():
    """The box outline at 512 px changes from paper to ink within a pixel or two."""
    s = 512
    img = px(counter_image(unit(type="armored"), s))
    fill, ink = rgb(DEFAULT_COLOURS[("german", "army")][0]), rgb(DEFAULT_COLOURS[("german", "army")][1])
    row = img[int(0.45 * s), int(0.2 * s):int(0.36 * s)]
    between = [p for p in row if np.abs(p - fill).sum() > 30 and np.abs(p - ink).sum() > 30]
    assert len(between) <= 4
    assert (np.abs(row - ink).sum(axis=1) < 30).sum() >= 0.02 * s      # a solid line, not a smear


def test_png_bytes_are_cached_and_decode_to_the_counter():
    u = unit(side="soviet", branch="guards", type="infantry", size="division", division="", regiment="7 Gd")
    a = counter_png(u, 64)
    assert counter_png(u, 64) is a
    img = Image.open(io.BytesIO(a))
    assert img.size == (64, 64)
    assert np.array_equal(px(img), px(counter_image(u, 64)))


def test_too_small_a_counter_is_refused():
    with pytest.raises(ValueError, match="at least 8 pixels"):
        counter_image(unit(), 4)


def test_every_counter_of_both_scenarios_draws_on_one_sheet():
    s = load_scenario(ROOT / "scenarios" / "demyansk-2-campaign.toml")
    sheet = counter_sheet(s.units.values(), 32, s.sides, columns=12)
    assert sheet.size == (12 * 32 + 13 * 6, 9 * 32 + 10 * 6)


def test_a_sheet_of_a_scenarios_counters_from_the_command_line(tmp_path, capsys):
    from engine.counters.art import main

    out = tmp_path / "sheet.png"
    assert main([str(ROOT / "scenarios" / "demyansk-1-trapped.toml"), str(out), "24"]) == 0
    assert Image.open(out).size == (12 * 24 + 13 * 6, 9 * 24 + 10 * 6)
    assert main([str(tmp_path / "none.toml"), str(out)]) == 1
    assert "file not found" in capsys.readouterr().err
    assert main(["only-one-argument"]) == 2


def test_a_sides_own_colour_colours_its_counters_when_its_branch_has_none():
    from engine.counters.art import colours_for
    from engine.scenario import Side, Unit

    blue = Side("blue", "Blue", "#3050c0")
    red = Side("red", "Red", "#f0d040")
    unit = lambda side: Unit(id="u", side=side, type="infantry", size="regiment", attack=3, defense=4, movement=5)
    assert colours_for(unit("blue"), blue) == ("#3050c0", "#f4f4f4")     # light lettering on a dark fill
    assert colours_for(unit("red"), red) == ("#f0d040", "#141414")
    assert colours_for(unit("german"), Side("german", "German", "")) == ("#8fa2b6", "#101418")   # 2.1's own
