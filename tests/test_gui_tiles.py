"""The tile pyramid: streamed band decoding, levels, the disk cache, the size cap, bad images."""
from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageFile

from gui.scene import imagebands
from gui.scene import tiles
from gui.scene.hugeimage import scan_rows, write_jpeg, write_png
from gui.scene.tiles import TILE, MapImageError, Pyramid, build_pyramid, image_digest, plan_levels


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    d = tmp_path_factory.mktemp("scans")
    return {"png": write_png(d / "scan.png", 1500, 1100), "jpg": write_jpeg(d / "scan.jpg", 1500, 1100)}


def test_levels_halve_down_to_one_tile():
    levels = plan_levels(32_000, 20_000)
    assert [(lv.width, lv.height) for lv in levels[:3]] == [(32_000, 20_000), (16_000, 10_000), (8_000, 5_000)]
    assert (levels[0].cols, levels[0].rows) == (63, 40)
    last = levels[-1]
    assert last.width <= TILE and last.height <= TILE and (last.cols, last.rows) == (1, 1)
    assert len(levels) == 7


@pytest.mark.parametrize("kind", ["png", "jpg"])
def test_bands_are_streamed_and_match_the_image(scans, kind):
    path = scans[kind]
    with Image.open(path) as im:
        assert imagebands.streams(im)
        bands = [(y, band.copy()) for y, band in imagebands.iter_bands(im, 256)]
    assert [y for y, _ in bands] == [0, 256, 512, 768, 1024]
    assert [b.height for _, b in bands] == [256, 256, 256, 256, 76]
    with Image.open(path) as whole:
        whole = whole.convert("RGB")
        for y, band in bands:
            expected = np.asarray(whole.crop((0, y, whole.width, y + band.height)))
            assert np.array_equal(np.asarray(band), expected)


def test_streaming_never_calls_a_whole_image_load(scans, tmp_path, monkeypatch):
    def refuse(self):
        raise AssertionError("the whole image was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)
    pyramid = build_pyramid(scans["jpg"], tmp_path)
    assert pyramid.width == 1500 and pyramid.height == 1100


def test_pyramid_tiles_on_disk_and_their_pixels(scans, tmp_path):
    pyramid = build_pyramid(scans["png"], tmp_path)
    assert pyramid.folder == tmp_path / "tiles" / image_digest(scans["png"])
    assert (pyramid.folder / "pyramid.toml").is_file()
    assert [(lv.cols, lv.rows) for lv in pyramid.levels] == [(3, 3), (2, 2), (1, 1)]
    for k, lv in enumerate(pyramid.levels):
        for c in range(lv.cols):
            for r in range(lv.rows):
                with Image.open(io.BytesIO(pyramid.tile_bytes(k, c, r))) as t:
                    assert t.size == (min(TILE, lv.width - c * TILE), min(TILE, lv.height - r * TILE))
    # a full-resolution tile holds the scan's pixels (JPEG tiles: within compression error)
    with Image.open(io.BytesIO(pyramid.tile_bytes(0, 2, 1))) as t:
        got = np.asarray(t.convert("RGB"), dtype=int)
    expected = scan_rows(1500, 1100, 512, 1024)[:, 1024:1500].astype(int)
    assert got.shape == expected.shape
    assert np.abs(got - expected).mean() < 4


def test_second_build_comes_from_the_cache(scans, tmp_path, monkeypatch):
    first = build_pyramid(scans["png"], tmp_path)

    def refuse(*a, **k):
        raise AssertionError("tiled again")

    monkeypatch.setattr(tiles, "_write_levels", refuse)
    again = build_pyramid(scans["png"], tmp_path)
    assert again == first
    assert Pyramid.load(first.folder) == first


def test_level_for_a_zoom():
    p = Pyramid(folder=None, width=8000, height=5000, tile=TILE, ext="jpg", levels=plan_levels(8000, 5000))
    assert p.level_for(1.0) == 0
    assert p.level_for(0.6) == 0
    assert p.level_for(0.5) == 1
    assert p.level_for(0.3) == 1
    assert p.level_for(0.2) == 2
    assert p.level_for(0.001) == len(p.levels) - 1


@pytest.mark.skipif(tiles._vips() is None, reason="libvips is not installed")
@pytest.mark.parametrize("kind", ["png", "jpg"])
def test_libvips_bands_decoded_ahead_match_the_image_and_stop_with_the_reader(scans, kind):
    """The decoder runs a band ahead into two buffers that take turns: each band handed on is still the
    image's own rows when it is read; a reader that stops early stops the decoder and closes the file."""
    import threading

    path = scans[kind]
    levels = plan_levels(1500, 1100)
    with Image.open(path) as whole:
        whole = whole.convert("RGB")
    seen = []
    for top, band in tiles._vips_bands(path, levels, lambda: False):
        expected = np.asarray(whole.crop((0, top, whole.width, top + band.height)))
        got = np.asarray(band.convert("RGB"))
        # JPEG: libvips and Pillow use different IDCTs, a level or two apart
        assert np.abs(got.astype(int) - expected).max() <= (0 if kind == "png" else 8)
        seen.append((top, band.height))
    assert seen == [(0, TILE), (TILE, TILE), (2 * TILE, 1100 - 2 * TILE)]
    bands = tiles._vips_bands(path, levels, lambda: False)
    next(bands)
    bands.close()
    assert not [t for t in threading.enumerate() if t.name == "scan decoder"]


def test_cancelled_build_leaves_no_cache_folder(scans, tmp_path):
    with pytest.raises(tiles.BuildCancelled):
        build_pyramid(scans["png"], tmp_path, cancelled=lambda: True)
    assert not any((tmp_path / "tiles").iterdir())


def test_images_above_the_cap_are_refused_with_a_message(scans, monkeypatch):
    monkeypatch.setattr(tiles, "MAP_MAX_PIXELS", 1_000_000)
    with pytest.raises(MapImageError) as e:
        tiles.open_map_image(scans["png"])
    assert "scan.png" in str(e.value) and "1,500 x 1,100" in str(e.value) and "megapixels" in str(e.value)


def test_the_guard_is_raised_for_big_scans_but_capped():
    assert Image.MAX_IMAGE_PIXELS == tiles.MAP_MAX_PIXELS == 1_000_000_000


def test_missing_and_broken_images_are_named(tmp_path):
    with pytest.raises(MapImageError, match="does not exist"):
        tiles.open_map_image(tmp_path / "nothing.png")
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a picture at all")
    with pytest.raises(MapImageError, match="bad.png: not an image"):
        build_pyramid(bad, tmp_path)


def test_a_truncated_scan_is_reported_not_half_cached(scans, tmp_path):
    data = scans["jpg"].read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(MapImageError, match="cut.jpg"):
        build_pyramid(cut, tmp_path)
    assert not any(p.name.endswith(".partial") or (p / "pyramid.toml").exists()
                   for p in (tmp_path / "tiles").iterdir())


# ---------------------------------------------------------------- greyscale, palette and 16-bit scans

@pytest.fixture(scope="module")
def plain_scans(tmp_path_factory):
    d = tmp_path_factory.mktemp("plain")
    out = {m: write_png(d / f"scan-{m.replace(';', '')}.png", 700, 530, mode=m) for m in ("L", "P", "I;16")}
    rng = np.random.default_rng(3)
    bw = Image.fromarray(rng.integers(0, 2, (530, 700)).astype(bool))
    bw.save(d / "scan-1.png")
    out["1"] = d / "scan-1.png"
    grey = Image.fromarray(rng.integers(0, 256, (530, 700)).astype(np.uint8))
    grey.save(d / "scan-L4.png", bits=4)
    out["L;4"] = d / "scan-L4.png"
    grey.convert("P").save(d / "scan-Pt.png", transparency=0)
    out["P+transparency"] = d / "scan-Pt.png"
    return out


@pytest.mark.parametrize("kind", ["L", "P", "I;16", "1", "L;4", "P+transparency"])
def test_greyscale_palette_and_16_bit_scans_are_streamed_like_colour_ones(plain_scans, kind, monkeypatch):
    path = plain_scans[kind]
    with Image.open(path) as whole:
        if whole.mode == "I;16":       # 16 bits shown in 8: the high byte
            expected = np.repeat((np.asarray(whole).astype(np.uint16) >> 8).astype(np.uint8)[..., None], 3, 2)
        else:
            expected = np.asarray(whole.convert("RGBA" if "transparency" in whole.info else "RGB"))

    def refuse(self):
        raise AssertionError("the whole image was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)
    with Image.open(path) as im:
        assert imagebands.streams(im)
        bands = [(y, band.copy()) for y, band in imagebands.iter_bands(im, 128)]
    assert [y for y, _ in bands] == [0, 128, 256, 384, 512]
    got = np.concatenate([np.asarray(b) for _, b in bands])
    assert got.shape == expected.shape and np.array_equal(got, expected)


def test_a_truncated_greyscale_scan_is_reported(plain_scans, tmp_path):
    data = plain_scans["L"].read_bytes()
    cut = tmp_path / "cut.png"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(MapImageError, match="cut.png"):
        build_pyramid(cut, tmp_path)


def test_a_truncated_colour_png_is_reported(scans, tmp_path):
    data = scans["png"].read_bytes()
    cut = tmp_path / "cut.png"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(MapImageError, match="cut.png"):
        build_pyramid(cut, tmp_path)
