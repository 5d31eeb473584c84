"""Terrain and hexside features suggested from a scan, learnt from a few hexes a person painted.

A calibrated board says where every hex lies on its sheet's scan. Each hex is
described by a handful of numbers read from the pixels well inside it (clear of
the printed hex lines): its colour in CIE Lab (medians, robust to the hex id,
the centre dot or a label printed over part of it), how much the colour varies,
how much of it is covered by printed marks darker than its ground (trees,
stipple, blocks, contours), where in the hex they lie and what colour they
are, and how busy its texture is and which way it runs. The hexes a person
painted teach a linear discriminant (class means and one shared, shrunk
covariance); the classes then grow outwards over every hex of the map, their
surest hexes first, refitted at each step. Every other hex gets the terrain
with the highest score (a hex far from every terrain, under a counter, that of
most of its neighbours), with a calibrated confidence: the share of suggestions
like it that were right on the tuning scans, lower where the steps drifted from
the first fit (docs/terrain-suggestion.md has the method and the figures).

Hexside features drawn as lines (rivers, walls, ridges) are suggested from a
sample of one: the look across the sample's line, along point by along point,
is learnt against the ordinary hexside's (a linear discriminant), the
hexsides found teach it again, those that make no line count half, and the
inks of the sample's line found along a hexside, but not beside it, lift one
the learnt look half sees where it goes on a line.

numpy only; no Qt (engine/ never imports it).
"""
from __future__ import annotations

import heapq
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from engine.errors import SandtableError
from engine.maps.board import Board, Sheet
from engine.maps.hexes import Hex, Hexside, hex_neighbor, hex_neighbors, hexside

MAX_IMAGE_PIXELS = 1_000_000_000   # the map view's own limit on a scan (a 40,000 x 25,000 sheet)
MIN_HEX_PX = 12.0                  # a hex fewer pixels across than this (an uncalibrated grid) is not read
SAMPLE_RADIUS = 0.66               # hex sizes from the centre: inside the inscribed circle (0.866), clear of the lines
SAMPLE_RINGS = 9                   # rings of sample points inside that radius (1 + 6 + 12 + ... points)
FINE_STEP_PX = 1.0                 # the fine texture scale: neighbouring pixels
COARSE_STEP = 0.12                 # the coarse texture scale, in hex sizes
SELF_TRAINING = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)   # the share of each class's unlabelled hexes (its
                                   # surest first) that teach it at each step; the least sure 40 % never do
LABEL_WEIGHT = 3.0                 # a painted hex counts as this many suggested ones
OUTLIER_MADS = 5.0                 # a hex this many spreads further than usual from every class is odd
OUTLIER_CONFIDENCE = 0.59          # a hex its neighbours decide against its own look: 0.594 of 1,427 right (0-299)
OUTLIER_AGREE = ((0.45, 0.80), (0.6, 0.94), (0.75, 0.98), (0.85, 0.99))   # ... and with it: by its own
                                   # confidence, the share right (0-299: under 0.5 0.80 of 210, 0.5-0.7 0.94 of
                                   # 117, 0.7-0.8 0.98 of 49, 0.8 and more all 126)
# Confidence calibrated: a suggestion's raw margin 1 - d1/d2 -> the share of suggestions with that margin that
# were right on the tuning scans (seeds 0-59 of the test set, 5 % labelled, 25,000 suggestions; bins of the
# margin made monotone). Never 1: even the surest suggestions were wrong once in a few hundred.
CALIBRATION = ((0.0, 0.397), (0.074, 0.447), (0.171, 0.561), (0.241, 0.656), (0.302, 0.768), (0.356, 0.834),
               (0.414, 0.866), (0.464, 0.927), (0.508, 0.941), (0.555, 0.965), (0.607, 0.97), (0.667, 0.981),
               (0.721, 0.989), (0.772, 0.993), (0.821, 0.995), (1.0, 0.995))
NEIGHBOUR_ALIKE = 0.95             # the share of hexes (those nearest their most alike neighbour) whose difference
                                   # from that neighbour says how a terrain varies
SCALE_FLOOR = 0.8                  # a feature's spread is at least this share of its standard deviation
LEARN_PRIOR = True                 # the self-training steps learn how common each terrain is
LOW_CONFIDENCE = 0.9               # a suggestion below this (wrong one time in ten or more) is listed for review
DRIFT_CONFIDENCE = 0.88            # a suggestion the first fit gave another terrain is at most this sure
ASK_SHARE = 0.01                   # the hexes asked for at a time: this share of the map's, ...
ASK_MIN = 3                        # ... at least this many
ASK_UNLIKE = 0.5                   # of them, this share stand for the most hexes no painted one is like (the
                                   # rest: the least sure suggestions)
ASK_REFERENCE = 2000               # hexes at most that say how many a hex stands for (a fixed spread of the map's)
ASK_ALIKE = 1.0                    # hexes nearer than this times the square root of the number of features (in
                                   # the classes' measure: about the distance of a hex from its terrain's mean)
                                   # are alike: only what is left of a distance beyond it counts
ROAD_FROM = 0.14                   # a spoke (centre to a neighbour's centre) is read from here to SAMPLE_RADIUS,
ROAD_STEPS = 10                    # ... at this many steps out,
ROAD_ACROSS = (-0.04, 0.0, 0.04)   # ... each at these offsets across it (hex sizes; the grid may be a pixel off)
ROAD_DELTA_E = 18.0                # a point this far (CIE76) from the hex's median colour is inked
ROAD_SHARE = 0.8                   # a road's spoke is inked at this share of its steps or more,
ROAD_SPREAD = 12.0                 # ... in one colour (the median distance from the ink's median under this),
ROAD_SIDES = (0.18, 0.22, 0.26)    # ... and the strips this far to either side are not inked in that colour
ROAD_SIDE_SHARE = 0.5              # ... at this share of their steps or more (hatching is)
ROAD_SAME = 18.0                   # colours this near are one ink (beside the spoke, the neighbour's spoke back)
ROAD_HALF_WIDTH = 0.1              # sample points this near a road's spoke are left out of the hex's look
ROAD_CHUNK = 1000                  # hexes read at a time (memory)
MARK_DEPTHS = (12.0, 30.0)         # a printed mark is this much darker (L*) than the hex's median
MARK_FINE_DEPTHS = (8.0, 16.0)     # the marks read at every pixel: this much darker (L*) than the hex's median
MARK_FINE_SIDE = 64                # ... read at most this many pixels across a hex (a larger one every few)
MARK_FINE_CHUNK = 256              # ... for this many hexes at a time (memory)
MARK_AROUND = (2.0, 0.04)          # a mark's shape is read this far round each of its points (pixels, hex sizes:
                                   # the larger): a stipple dot is dark alone, a contour line along one way
FEATURE_NAMES = ("L", "a", "b", "L spread", "a spread", "b spread", "L low", "L high",
                 "marks", "dark marks", "inner marks", "middle marks", "outer marks", "marks a", "marks b",
                 "fine texture", "fine texture direction", "coarse texture", "coarse texture direction",
                 "marks radius", "marks radius spread", "mark solidity", "mark lines",
                 "ink", "ink blobs", "deep ink", "deep ink blobs")

SIDE_ALONG = np.linspace(0.2, 0.8, 13)          # where along a hexside its strip is sampled (0, 1: its corners)
SIDE_ACROSS = np.linspace(-0.32, 0.32, 17)      # how far across it, in hex sizes (the line is at 0)
SIDE_BESIDE = 0.22                              # beyond this the strip shows the hexes beside the line
SIDE_LINE = 0.09                                # a line drawn along a hexside lies within this of it
LINE_DELTA_E = 12.0                             # colours nearer than this (CIE76) are taken as the same ink
SIDE_ACCEPT = 0.4                               # the threshold the map editor offers for hexsides first
SIDE_MIN_CONFIDENCE = 0.2                       # below this a hexside only touches such a line: not suggested
PATTERN_CORE = 0.29                             # the part of the strip whose look is learnt (the line, its ticks)
PATTERN_QUANTILE = 0.3                          # a hexside scores as its along points at this share from the worst
PATTERN_SHRINK = 0.2                            # the background covariance shrunk this far to its diagonal
PATTERN_ROUNDS = 2                              # rounds of learning again from the hexsides found
PATTERN_TAKE = 0.6                              # a hexside at this score or more teaches the next round
PATTERN_SPREADS = 4.0                           # a score counts in full this many spreads above the usual
PATTERN_BACKGROUND = 20000                      # along points at most that describe the ordinary hexside
PATTERN_MATCHED = 30                            # hexsides between fills most like a sample's that say how a plain
                                                # hexside between those fills looks
PATTERN_MATCH_ROWS = 300                        # hexsides found at most whose like-filled ones count in later rounds
PATTERN_MATCH_AMONG = 5000                      # hexsides at most among which the like-filled ones are looked for
SELF_MIN = 0.5                                  # a look (fills taken out, or the line alone) that scores its own
                                                # sample under this cannot see the line: it is left out, ...
COLOUR_GATE = 15.0                              # ... for a hexside whose line's colour (a*, b*) is this near the
                                                # sample's
PATTERN_SLACK = 0.15                            # the look with the fills taken out, and the line's own look, may
                                                # score this much under the whole look and not hold it down
INK_SURE = 0.7                                  # the inks' score that lifts a hexside the pattern half sees ...
INK_LIFT = 0.25                                 # ... when its pattern score is at most this under SIDE_ACCEPT
INK_LIFT_ALONE = 0.2                            # ... or on no line at most this under it, its inks' score
INK_ALONE = 0.9                                 # ... at least this
INK_JOIN = 0.4                                  # hexsides whose inks score this much join a run
INK_SHOWS = 0.1                                 # a suggestion's line shows the sample's inks along this share
INK_SHOWS_DELTA_E = 15.0                        # ... within this (CIE76), or its score falls in proportion
SHORT_RUN = 2                                   # a run of this many hexsides or fewer is not a line
LINE_CANDIDATES = 48                            # pixels of the sample's strip tried as the line's inks
COMMON_JUDGES = 600                             # hexsides that say how common a candidate ink is
LINE_COMMON = 0.12                              # an ink is the line's when it covers less than this of the
                                                # average hexside (most hexsides carry no such line)
LINE_SELF = 0.6                                 # when those inks show along less than this of the sample's
LINE_DENSE = 0.3                                # line (a map thick with rivers: their colour is common), a
LINE_ALONE = 0.25                               # colour covering less than LINE_DENSE, at most LINE_ALONE as
LINE_PRESENT = 0.3                              # much beside the line, on under LINE_PRESENT of the hexsides
                                                # and along LINE_SELF of the sample's line is the line's too
SAMPLE_LOOKS = 3                                # looks learnt at most from samples that do not look alike
SAMPLE_SLACK = 0.15                             # another sample's look scores at most this over the first's
UNLIKE_FROM = 0.25                              # a hexside this share of the way from a rejected one's look to
UNLIKE_FULL = 0.6                               # the samples' scores nothing, this share or more in full


class SuggestError(SandtableError, ValueError):
    """Suggestions cannot be made: the message says why (no scan, too few painted hexes, …)."""


# ---------------------------------------------------------------- the scan's pixels

def load_image(path: str | Path) -> np.ndarray:
    """A scan as an RGB array (height x width x 3, uint8); SuggestError names the file when it cannot be read."""
    from PIL import Image

    p = Path(path)
    if not p.is_file():
        raise SuggestError(f"{p}: the scan does not exist")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            # Pillow's guard is raised to the map view's limit for good, as the map view does (gui/scene/tiles.py),
            # never lowered and never put back: a grid search reading a scan in another thread sets and puts
            # back the same global, and two saves and restores interleaved would leave it as the other found it
            limit = Image.MAX_IMAGE_PIXELS
            if limit is not None and limit < MAX_IMAGE_PIXELS:
                Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
            with Image.open(p) as im:
                w, h = im.size
                if w * h > MAX_IMAGE_PIXELS:
                    raise SuggestError(f"{p}: the image is {w:,} x {h:,} pixels, more than Sandtable reads")
                return np.asarray(im.convert("RGB"))
    except SuggestError:
        raise
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise SuggestError(f"{p}: not an image Sandtable can read ({e})") from None


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0-255, any shape ending in 3) to CIE Lab under D65, as float32."""
    c = np.asarray(rgb, dtype=np.float32) / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    m = np.array([[0.4124564 / 0.95047, 0.3575761 / 0.95047, 0.1804375 / 0.95047],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339 / 1.08883, 0.1191920 / 1.08883, 0.9503041 / 1.08883]], dtype=np.float32)
    xyz = np.einsum("...c,rc->...r", c, m)          # einsum: a threaded BLAS is slower at this shape
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    lab = np.empty_like(f)
    lab[..., 0] = 116.0 * f[..., 1] - 16.0
    lab[..., 1] = 500.0 * (f[..., 0] - f[..., 1])
    lab[..., 2] = 200.0 * (f[..., 1] - f[..., 2])
    return lab


def _to_image(t, pts: np.ndarray) -> np.ndarray:
    """Lattice points (..., 2) to image pixels by a sheet's affine transform."""
    x, y = pts[..., 0], pts[..., 1]
    return np.stack([t.a * x + t.b * y + t.c, t.d * x + t.e * y + t.f], axis=-1)


def _gather(image: np.ndarray, uv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pixels under image points (..., 2) and whether each point lies on the image."""
    h, w = image.shape[:2]
    # pixel (i, j) covers [i, i+1) x [j, j+1): the map format's terms
    u = np.floor(uv[..., 0]).astype(np.int64)
    v = np.floor(uv[..., 1]).astype(np.int64)
    inside = (u >= 0) & (u < w) & (v >= 0) & (v < h)
    flat = np.clip(v, 0, h - 1) * w + np.clip(u, 0, w - 1)
    return np.take(image.reshape(h * w, -1), flat, axis=0), inside


def _quantiles(values: np.ndarray, valid: np.ndarray, qs: Iterable[float]) -> list[np.ndarray]:
    """Per row quantiles of ``values`` (rows x samples) over its valid samples (NaN where a row has none)."""
    x = np.where(valid, values, np.inf)
    x.sort(axis=1)
    n = valid.sum(axis=1)
    rows = np.arange(len(x))
    out = []
    for q in qs:
        idx = np.clip(np.rint(q * (n - 1)).astype(np.int64), 0, x.shape[1] - 1)
        col = x[rows, idx]
        out.append(np.where(n > 0, col, np.nan))
    return out


def _ring_of(n_points: int) -> np.ndarray:
    """The ring (1, 2, ...) of each point :func:`_disc_offsets` gives, in its order."""
    out, k = [], 1
    while len(out) < n_points:
        out += [k] * (6 * k)
        k += 1
    return np.array(out[:n_points])


def _disc_offsets(radius: float, rings: int) -> np.ndarray:
    """Sample points on concentric rings inside a disc (lattice units), the centre left out (its dot)."""
    pts = []
    for k in range(1, rings + 1):
        r = radius * k / rings
        n = 6 * k
        ang = (np.arange(n) + 0.5 * (k % 2)) * 2 * math.pi / n
        pts.append(np.stack([r * np.cos(ang), r * np.sin(ang)], axis=1))
    return np.concatenate(pts)


def calibrated_scans(board: Board, images: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The scans of the sheets whose grid is fitted to them (hexes MIN_HEX_PX or more across), by sheet id;
    SuggestError when there is none."""
    out = {sid: im for sid, im in images.items()
           if any(sh.id == sid and 2 * sh.transform.scale >= MIN_HEX_PX for sh in board.sheets)}
    if not out:
        raise SuggestError("no sheet has a scan with its grid calibrated: calibrate the grid on the scan first"
                           if images else "the map has no scan to read from")
    return out


# ---------------------------------------------------------------- what a hex looks like

def hex_features(board: Board, images: Mapping[str, np.ndarray], hexes: list[Hex]) -> np.ndarray:
    """One row of FEATURE_NAMES per hex, read from its first sheet that has a scan (NaN where none has).

    ``images`` maps a sheet id to its scan as an RGB array (see :func:`load_image`).
    """
    out = np.full((len(hexes), len(FEATURE_NAMES)), np.nan, dtype=np.float64)
    offsets = _disc_offsets(SAMPLE_RADIUS, SAMPLE_RINGS)
    by_sheet: dict[str, list[int]] = {}
    for i, h in enumerate(hexes):
        for sh in board.sheets_of(h):
            if sh.id in images:
                by_sheet.setdefault(sh.id, []).append(i)
                break
    for sid, rows in by_sheet.items():
        sheet = board.sheet(sid)
        out[rows] = _sheet_features(board, sheet, images[sid], [hexes[i] for i in rows], offsets)
    return out


def _sheet_features(board: Board, sheet: Sheet, image: np.ndarray, hexes: list[Hex], offsets: np.ndarray) -> np.ndarray:
    t = sheet.transform
    centres = np.array([board.center(h) for h in hexes], dtype=np.float64).reshape(-1, 2)
    pts = centres[:, None, :] + offsets[None, :, :]                    # lattice, hexes x samples x 2
    uv = _to_image(t, pts)
    rgb, valid = _gather(image, uv)
    lab = rgb_to_lab(rgb)
    roads = _road_spokes(board, t, image, hexes, centres, offsets, lab, valid)
    spokes = _spokes(board)
    valid = valid & ~_near_spokes(roads, offsets, spokes)
    # texture: brightness steps to a pixel one step right and one step down, at two scales
    coarse = max(2.0, COARSE_STEP * t.scale)
    lum = _luma(rgb)
    steps = []
    for step in (FINE_STEP_PX, coarse):
        right, _ = _gather(image, uv + np.array([step, 0.0]))
        down, _ = _gather(image, uv + np.array([0.0, step]))
        steps.append((np.abs(_luma(right) - lum), np.abs(_luma(down) - lum)))
    feats = []
    for ch in range(3):
        lo, med, hi = _quantiles(lab[..., ch], valid, (0.25, 0.5, 0.75))
        feats.append((ch, med, hi - lo))
    cols = [f[1] for f in feats] + [f[2] for f in feats]
    low, high = _quantiles(lab[..., 0], valid, (0.1, 0.9))
    cols += [low, high]
    # the printed marks (trees, stipple, contours, blocks): how much of the hex is darker than its ground,
    # and their colour
    med_l = feats[0][1]
    for depth in MARK_DEPTHS:
        dark = valid & (lab[..., 0] < med_l[:, None] - depth)
        cols.append(dark.sum(axis=1) / np.maximum(valid.sum(axis=1), 1))
    # where in the hex the marks lie: inner, middle and outer rings (a hill's contour ring, a town's
    # blocks in the middle, stipple or trees all over)
    dark = valid & (lab[..., 0] < med_l[:, None] - MARK_DEPTHS[0])
    ring = _ring_of(len(offsets))
    for part in np.array_split(np.arange(1, SAMPLE_RINGS + 1), 3):
        sel = np.isin(ring, part)
        cols.append(dark[:, sel].sum(axis=1) / np.maximum(valid[:, sel].sum(axis=1), 1))
    # how far from the centre the marks lie and how spread: a hill's contour is a ring (one radius), stipple
    # and trees lie all over, a town's blocks in the middle
    radius = np.hypot(offsets[:, 0], offsets[:, 1])[None, :]
    n_dark = dark.sum(axis=1)
    r_mean = np.where(dark, radius, 0).sum(axis=1) / np.maximum(n_dark, 1)
    r_sd = np.sqrt(np.maximum(np.where(dark, (radius - r_mean[:, None]) ** 2, 0).sum(axis=1) / np.maximum(n_dark, 1), 0))
    few = n_dark < 3
    r_all = float(radius.mean())
    r_all_sd = float(radius.std())
    cols_radius = [np.where(few, r_all, r_mean) / SAMPLE_RADIUS, np.where(few, r_all_sd, r_sd) / SAMPLE_RADIUS]
    for ch in (1, 2):
        m, = _quantiles(lab[..., ch], dark, (0.5,))
        cols.append(np.where(np.isnan(m), feats[ch][1], m))
    n_valid = np.maximum(valid.sum(axis=1), 1)
    for across, along in steps:                 # how busy the texture is, and how much more one way (hatching)
        h_mean = np.where(valid, across, 0).sum(axis=1) / n_valid
        v_mean = np.where(valid, along, 0).sum(axis=1) / n_valid
        cols += [h_mean + v_mean, (h_mean - v_mean) / (h_mean + v_mean + 1.0)]
    cols += cols_radius
    # the marks' shape, read at eight points round each dark one: a stipple dot is dark alone, a contour line
    # dark one way and its opposite (not at right angles), a tree or a town's block dark all round
    r = max(MARK_AROUND[0], MARK_AROUND[1] * t.scale)
    which = np.nonzero(dark)[0]                             # only the dark points are read round
    at = uv[dark]
    depth = (med_l - MARK_DEPTHS[0])[which]
    around = np.stack([rgb_to_lab(_gather(image, at + r * np.array([np.cos(a), np.sin(a)]))[0])[:, 0] < depth
                       for a in np.arange(8) * (np.pi / 4)], axis=-1)       # dark points x 8
    pair = around[:, :4] & around[:, 4:]                    # dark both ways along an axis
    line = (pair & ~np.roll(pair, 2, axis=-1)).any(axis=-1) & ~pair.all(axis=-1)
    n_marks = np.maximum(n_dark, 1)
    cols += [np.bincount(which, around.mean(axis=-1), minlength=len(hexes)) / n_marks,
             np.bincount(which, line, minlength=len(hexes)) / n_marks]
    # the roads' spokes in the image's pixels (the scan's own rotation and scale)
    ends = _to_image(t, np.array([[0.0, 0.0]] + [list(v) for v in spokes]))
    cols += _fine_marks(image, SAMPLE_RADIUS * t.scale, _to_image(t, centres), med_l,
                        roads, ends[1:] - ends[0])
    return np.stack(cols, axis=1)


_SRGB = np.arange(256, dtype=np.float64) / 255.0
_LINEAR = np.where(_SRGB > 0.04045, ((_SRGB + 0.055) / 1.055) ** 2.4, _SRGB / 12.92)
_LUMINANCE = (_LINEAR[:, None] * np.array([0.2126729, 0.7151522, 0.0721750])[None, :]).astype(np.float32).T


def _luminance_under(lightness: np.ndarray) -> np.ndarray:
    """The CIE luminance Y (white 1) of a CIE L* (``rgb_to_lab``'s inverse, for L* alone): a pixel is darker than
    an L* when its luminance is under this, and the luminance of a pixel is three look-ups."""
    f = (np.asarray(lightness, dtype=np.float64) + 16.0) / 116.0
    return np.where(f > 0.008856 ** (1 / 3), f ** 3, (f - 16.0 / 116.0) / 7.787)


def _fine_marks(image: np.ndarray, radius: float, centres: np.ndarray, ground: np.ndarray,
                roads: np.ndarray | None = None, spokes: np.ndarray | None = None) -> list[np.ndarray]:
    """The marks read at every pixel of a disc of ``radius`` pixels round each centre (image pixels), at each
    of MARK_FINE_DEPTHS under the hex's ``ground`` (its median L*): the share of the disc they cover and how
    many separate blobs they make (components less holes: the Euler number of the dark pixels, from the
    2 x 2 squares that show one, three or two diagonal dark pixels). The sample points fall on a thin line or
    a small dot only now and then; these see all of it: rough's stipple is dozens of blobs, a hill's contour
    one ring (none), a woods' trees a few. Given ``roads`` (hexes x 6, :func:`_road_spokes`) and ``spokes``
    (6 x 2: a hex size along each spoke, in image pixels), the pixels within ROAD_HALF_WIDTH of a road's
    spoke are left out: a road across a terrain's one example made the terrain look like its road."""
    stride = max(1, math.ceil(2 * radius / MARK_FINE_SIDE))
    r = math.ceil(radius / stride)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1] * stride
    disc = xx * xx + yy * yy <= radius * radius
    h, w = image.shape[:2]
    n = len(centres)
    out = [np.zeros(n) for _ in range(2 * len(MARK_FINE_DEPTHS))]
    steps = np.arange(-r, r + 1) * stride
    if roads is not None:
        # the pixels near each spoke: left out of a hex whose spoke carries a road
        size = np.linalg.norm(spokes, axis=1)                                # pixels to a hex size
        grid = np.stack([xx.ravel(), yy.ravel()], axis=1).astype(np.float64)
        width = ROAD_HALF_WIDTH * float(size.mean())
        on_spoke = _near_spokes(np.eye(6, dtype=bool), grid, spokes / size[:, None], width,
                                behind=width).reshape(6, *disc.shape)      # the road's ink round the centre too
    for lo in range(0, n, MARK_FINE_CHUNK):
        c = np.rint(centres[lo:lo + MARK_FINE_CHUNK]).astype(np.int64)
        xs, ys = c[:, 0:1] + steps[None, :], c[:, 1:2] + steps[None, :]
        inside = (((ys >= 0) & (ys < h))[:, :, None] & ((xs >= 0) & (xs < w))[:, None, :]) & disc[None]
        if roads is not None:
            part = roads[lo:lo + MARK_FINE_CHUNK]
            if part.any():
                inside &= ~(part[:, :, None, None] & on_spoke[None]).any(axis=1)
        px = image[np.clip(ys, 0, h - 1)[:, :, None], np.clip(xs, 0, w - 1)[:, None, :]]
        lum = _LUMINANCE[0][px[..., 0]] + _LUMINANCE[1][px[..., 1]] + _LUMINANCE[2][px[..., 2]]
        area = np.maximum(inside.sum(axis=(1, 2)), 1)
        for j, depth in enumerate(MARK_FINE_DEPTHS):
            under = _luminance_under(ground[lo:lo + MARK_FINE_CHUNK] - depth).astype(np.float32)
            dark = inside & (lum < under[:, None, None])
            p = np.pad(dark, ((0, 0), (1, 1), (1, 1))).astype(np.int8)
            a, b, cc, d = p[:, :-1, :-1], p[:, :-1, 1:], p[:, 1:, :-1], p[:, 1:, 1:]
            q = a + b + cc + d
            diagonal = (q == 2) & (a == d)
            # 8-connected blobs less holes (Gray's bit quads): (Q1 - Q3 - 2 QD) / 4
            euler = ((q == 1).sum(axis=(1, 2)) - (q == 3).sum(axis=(1, 2)) - 2 * diagonal.sum(axis=(1, 2))) / 4.0
            out[2 * j][lo:lo + MARK_FINE_CHUNK] = dark.sum(axis=(1, 2)) / area
            out[2 * j + 1][lo:lo + MARK_FINE_CHUNK] = euler
    return out


def _spokes(board: Board) -> np.ndarray:
    """Unit vectors (6 x 2, lattice) from a hex's centre towards its six neighbours' centres."""
    h0 = Hex(0, 0)
    c = np.array(board.center(h0))
    out = []
    for k in range(6):
        v = np.array(board.center(hex_neighbor(h0, k))) - c
        out.append(v / np.hypot(*v))
    return np.array(out)


def _road_points(board: Board, t, image: np.ndarray, hexes: list[Hex], centres: np.ndarray, offsets: np.ndarray,
                 lab: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The sample points (hexes x samples) on a line drawn from the hex's centre towards a neighbour's (a
    road, a railway), to be left out of the hex's look: a road through the one example of a terrain made
    the terrain look like its road (scan 1705 of the test set: its one hills example crossed by a road,
    15 hills hexes taken for rough). The spokes are :func:`_road_spokes`'."""
    return _near_spokes(_road_spokes(board, t, image, hexes, centres, offsets, lab, valid), offsets,
                        _spokes(board))


def _near_spokes(roads: np.ndarray, offsets: np.ndarray, spokes: np.ndarray,
                 half_width: float = ROAD_HALF_WIDTH, behind: float = 0.0) -> np.ndarray:
    """For each hex (the rows of ``roads``, hexes x 6) and each of ``offsets`` (points x 2, in the units of
    ``spokes``, 6 x 2): whether the point lies within ``half_width`` of one of the hex's road spokes, from
    ``behind`` the centre outwards."""
    normals = np.stack([-spokes[:, 1], spokes[:, 0]], axis=1)
    along = offsets @ spokes.T                                            # points x 6
    off = np.abs(offsets @ normals.T)
    near = (along > -behind) & (off < half_width)                         # points x 6
    return (roads[:, None, :] & near[None, :, :]).any(axis=2)


def _road_spokes(board: Board, t, image: np.ndarray, hexes: list[Hex], centres: np.ndarray, offsets: np.ndarray,
                 lab: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Which of each hex's six spokes (hexes x 6, in the order of :func:`_spokes`) carry a road.

    A spoke (centre to a neighbour's centre) carries a road when, most of the way out (ROAD_SHARE), it is
    inked unlike the hex's ground (ROAD_DELTA_E) in one colour (ROAD_SPREAD); the strips beside it, a fifth
    of a hex size off, are not inked in that colour (hatching, a marsh's or a lake's lines, is); and the
    neighbour's spoke back is a road in the same colour (a road goes on; a row of trees or a town's block
    does not), unless the neighbour is off the scan's hexes.
    """
    spokes = _spokes(board)
    normals = np.stack([-spokes[:, 1], spokes[:, 0]], axis=1)
    radii = np.linspace(ROAD_FROM, SAMPLE_RADIUS, ROAD_STEPS)
    ground = np.stack([_quantiles(lab[..., ch], valid, (0.5,))[0] for ch in range(3)], axis=-1)   # hexes x 3
    road = np.zeros((len(hexes), 6), dtype=bool)
    colour = np.zeros((len(hexes), 6, 3))

    def strips(rows, across: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lab colours (hexes x 6 x radii x across x 3) along each spoke, ``across`` hex sizes to its left."""
        pts = (centres[rows, None, None, None, :]
               + radii[None, None, :, None, None] * spokes[None, :, None, None, :]
               + across[None, None, None, :, None] * normals[None, :, None, None, :])
        rgb, inside = _gather(image, _to_image(t, pts))
        return rgb_to_lab(rgb), inside

    side_offsets = np.concatenate([np.array(ROAD_SIDES), -np.array(ROAD_SIDES)])
    for start in range(0, len(hexes), ROAD_CHUNK):
        rows = slice(start, start + ROAD_CHUNK)
        g = ground[rows, None, None, None, :]
        on, inside = strips(rows, np.array(ROAD_ACROSS))
        de = np.where(inside, np.linalg.norm(on - g, axis=-1), 0.0)
        # at each step out, the point across the spoke most unlike the ground (the grid may be a pixel off)
        pick = de.argmax(axis=3)
        inked = np.take_along_axis(de, pick[..., None], axis=3)[..., 0] > ROAD_DELTA_E
        col = np.take_along_axis(on, pick[..., None, None], axis=3)[:, :, :, 0, :]      # hexes x 6 x radii x 3
        med = np.median(col, axis=2)
        spread = np.median(np.linalg.norm(col - med[:, :, None, :], axis=-1), axis=2)
        found = (inked.mean(axis=2) >= ROAD_SHARE) & (spread < ROAD_SPREAD)
        some = np.nonzero(found.any(axis=1))[0]                                   # only these are read beside
        if len(some):
            beside, inside = strips(some + start, side_offsets)
            alike = (np.linalg.norm(beside - g[some], axis=-1) > ROAD_DELTA_E) & inside \
                & (np.linalg.norm(beside - med[some, :, None, None, :], axis=-1) < ROAD_SAME)
            found[some] &= alike.mean(axis=2).max(axis=2) < ROAD_SIDE_SHARE
        road[rows], colour[rows] = found, med
    # a road goes on into the neighbour: its spoke back is a road too, in the same colour
    row = {h: i for i, h in enumerate(hexes)}
    both = np.zeros_like(road)
    for i, k in zip(*np.nonzero(road)):
        j = row.get(hex_neighbor(hexes[i], int(k)))
        back = (int(k) + 3) % 6
        both[i, k] = j is None or (road[j, back] and np.linalg.norm(colour[i, k] - colour[j, back]) < ROAD_SAME)
    return both


def _luma(rgb: np.ndarray) -> np.ndarray:
    rgb = rgb.astype(np.float32)
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]


# ---------------------------------------------------------------- learning the terrains

@dataclass
class TerrainSuggestions:
    """Every suggested hex's terrain and confidence (0-1), and the hexes to review."""

    terrain: dict[Hex, tuple[str, float]] = field(default_factory=dict)
    classes: tuple[str, ...] = ()
    unreadable: tuple[Hex, ...] = ()        # hexes no scan shows (no suggestion for them)
    to_paint: tuple[Hex, ...] = ()          # the hexes whose painting would teach most, when asked for

    def low_confidence(self, below: float = LOW_CONFIDENCE) -> list[Hex]:
        """The suggested hexes whose confidence is under ``below``, least confident first."""
        return sorted((h for h, (_t, c) in self.terrain.items() if c < below), key=lambda h: (self.terrain[h][1], h))

    def above(self, threshold: float) -> dict[Hex, str]:
        """The suggestions at or above a confidence, as hex -> terrain."""
        return {h: t for h, (t, c) in self.terrain.items() if c >= threshold}


def _robust_scale(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's median and spread: its median absolute deviation, but at least SCALE_FLOOR of its
    standard deviation (a feature most hexes share one value of, and a few terrains spread far from, such as
    the marks' radius of a map mostly clear, would otherwise count its every variation many times over)."""
    med = np.nanmedian(x, axis=0)
    mad = np.nanmedian(np.abs(x - med), axis=0) * 1.4826
    spread = np.nanstd(x, axis=0)
    scale = np.maximum(np.where(mad > 1e-6, mad, np.where(spread > 1e-6, spread, 1.0)), SCALE_FLOOR * spread)
    return med, scale


def _shrunk_inverse(cov: np.ndarray, n: float, prior: np.ndarray | None = None) -> np.ndarray:
    """The inverse of a covariance estimated from ``n`` degrees of freedom, shrunk towards ``prior`` (default:
    its own diagonal)."""
    f = cov.shape[0]
    lam = f / (f + max(n, 0.0))
    target = np.diag(np.diag(cov)) if prior is None else prior
    s = (1 - lam) * cov + lam * target + 1e-3 * np.eye(f)
    return np.linalg.inv(s)


def _mahalanobis(z: np.ndarray, means: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Squared Mahalanobis distances of every row to every class mean (rows x classes)."""
    # (z - m)' S (z - m) = z'Sz - 2 z'Sm + m'Sm: one rows x features x features product, not one per class
    zs = np.einsum("nf,fg->ng", z, inv)
    ms = np.einsum("kf,fg->kg", means, inv)
    out = ((zs * z).sum(axis=1)[:, None] - 2.0 * np.einsum("nf,kf->nk", z, ms)
           + (ms * means).sum(axis=1)[None, :])
    return np.maximum(out, 0.0)


def _softmax(a: np.ndarray) -> np.ndarray:
    a = a - a.max(axis=1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=1, keepdims=True)


def _fit_classes(z: np.ndarray, rows: np.ndarray, cls: np.ndarray, weight: np.ndarray,
                 k: int, prior: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class means, the inverse of the shared covariance (shrunk towards ``prior``, default its diagonal) and
    the log class shares, from weighted rows."""
    onehot = np.zeros((len(rows), k))
    onehot[np.arange(len(rows)), cls] = weight
    per = onehot.sum(axis=0)
    means = np.einsum("nc,nf->cf", onehot, z[rows]) / np.maximum(per, 1e-9)[:, None]
    d = z[rows] - means[cls]
    n = float(weight.sum())
    # einsum, not a BLAS product: for matrices this small a threaded BLAS spends its time starting threads
    cov = np.einsum("n,nf,ng->fg", weight, d, d) / max(1.0, n - k)
    return means, _shrunk_inverse(cov, n - k, prior), np.log(np.maximum(per / max(per.sum(), 1e-9), 1e-3))


def _neighbour_spread(z: np.ndarray, ok: np.ndarray, neighbours: list[list[int]]) -> np.ndarray | None:
    """How the features vary within a terrain, learnt from the map itself: the covariance of the differences
    between each hex and its most alike neighbour (halved), over the NEIGHBOUR_ALIKE of the hexes nearest
    theirs (a hex's most alike neighbour is nearly always of its terrain; a lone hex of a terrain, whose is
    not, is left out). Every terrain counts by its hexes: a varied one (rough's stipple, a town's blocks)
    as much as a plain one. None with too few hexes."""
    d = []
    for i, ns in enumerate(neighbours):
        js = [j for j in ns if ok[j]]
        if ok[i] and js:
            diff = z[js] - z[i]
            d.append(diff[int((diff ** 2).sum(axis=1).argmin())])
    if len(d) < 2 * z.shape[1]:
        return None
    d = np.array(d)
    size = (d ** 2).sum(axis=1)
    d = d[size <= np.quantile(size, NEIGHBOUR_ALIKE)]
    return np.einsum("nf,ng->fg", d, d) / (2.0 * max(1, len(d)))


def _far(nearest: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Whether each row's squared distance to its nearest class lies OUTLIER_MADS spreads beyond the usual
    (the median over the ``ok`` rows)."""
    d1 = np.sqrt(np.maximum(nearest, 0))
    typical = np.median(d1[ok])
    spread = np.median(np.abs(d1[ok] - typical)) * 1.4826
    return d1 > typical + OUTLIER_MADS * spread


def calibrated(raw: np.ndarray) -> np.ndarray:
    """The share of suggestions with this raw margin (``1 - d1/d2``) that were right on the tuning scans
    (CALIBRATION, interpolated): a confidence of 0.9 is right about nine times in ten."""
    xs, ps = zip(*CALIBRATION)
    return np.interp(raw, xs, ps)


def ask_count(hexes: int) -> int:
    """How many hexes the editor asks the person to paint at a time on a map of ``hexes`` hexes."""
    return max(ASK_MIN, round(ASK_SHARE * hexes))


def _to_paint(features: np.ndarray, conf: np.ndarray, labelled: Iterable[int], among: np.ndarray,
              n: int, metric: np.ndarray | None = None) -> list[int]:
    """The rows of ``among`` whose painting would teach most, ``n`` of them: first (ASK_UNLIKE of them) the hexes
    that stand for the most hexes no painted one is like (a kind of hex no example shows: a second woods
    symbol, a faded part of the sheet, the plain hexes of a terrain whose one example a road crosses), each
    chosen one then counting as painted; then the least sure suggestions (``conf``).

    Like and unlike are distances between hexes in the features scaled by their spread and, given
    ``metric`` (the inverse covariance from ``classify``: how the features vary within a terrain), weighed by
    it, so that the ordinary variety within a terrain (where the trees of a woods hex fall) does not make
    a hex look new. Each hex of the first half is the one whose painting would most shorten the distances of
    a fixed spread of the map's hexes (ASK_REFERENCE at most) to their nearest painted hex, counting only
    what lies beyond ASK_ALIKE (a hex already near a painted one needs no other): a hex among many alike that
    no example shows, never a lone odd one. When no hex would shorten any, the least sure fill the list."""
    ok = ~np.isnan(features).any(axis=1)
    painted = set(int(r) for r in labelled) & set(np.flatnonzero(ok).tolist())
    labelled = np.array(sorted(painted), dtype=np.int64)
    cand = np.array([r for r in among if ok[r] and int(r) not in painted], dtype=np.int64)
    if n <= 0 or not len(cand):
        return []
    med, scale = _robust_scale(features[ok])
    z = np.where(ok[:, None], (features - med) / scale, 0.0)
    if metric is not None:                          # squared distances become the classes' Mahalanobis ones
        w, v = np.linalg.eigh((metric + metric.T) / 2)
        z = z @ (v * np.sqrt(np.clip(w, 0.0, None)))     # (a matrix rounded off positive keeps what it can)

    def dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.sqrt(np.maximum((a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T, 0.0))

    ref = z[ok]
    if len(ref) > ASK_REFERENCE:
        ref = ref[np.linspace(0, len(ref) - 1, ASK_REFERENCE).astype(int)]
    to_ref = np.zeros((len(cand), len(ref)), dtype=np.float32)
    for lo in range(0, len(cand), 1000):              # a thousand rows at a time: memory stays small
        to_ref[lo:lo + 1000] = dist(z[cand[lo:lo + 1000]], ref)
    # with nothing painted yet, every hex is as far from an example as the farthest candidate
    nearest = (dist(ref, z[labelled]).min(axis=1) if len(labelled)
               else to_ref.max(axis=0).astype(np.float64))
    alike = ASK_ALIKE * math.sqrt(z.shape[1])        # what is left of a distance beyond this counts
    nearest = np.maximum(nearest - alike, 0.0)
    to_ref = np.maximum(to_ref - alike, 0.0)
    chosen: list[int] = []
    # greedy, lazily: a hex's gain only falls as others are chosen, so one whose gain, worked out again, still
    # tops every other's last known gain is the best (the gains are worked out for every hex once)
    gain = np.zeros(len(cand))
    for lo in range(0, len(cand), 1000):
        gain[lo:lo + 1000] = np.maximum(nearest[None, :] - to_ref[lo:lo + 1000], 0.0).sum(axis=1)
    heap = [(-float(g), i) for i, g in enumerate(gain)]
    heapq.heapify(heap)
    while heap and len(chosen) < min(math.ceil(ASK_UNLIKE * n), len(cand)):
        _g, i = heapq.heappop(heap)
        now = float(np.maximum(nearest - to_ref[i], 0.0).sum())
        if heap and now < -heap[0][0]:
            heapq.heappush(heap, (-now, i))
            continue
        if now <= 0.0:
            break
        chosen.append(i)
        nearest = np.minimum(nearest, to_ref[i])
    taken = set(chosen)
    for i in np.argsort(conf[cand], kind="stable"):
        if len(chosen) >= min(n, len(cand)):
            break
        if int(i) not in taken:
            chosen.append(int(i))
            taken.add(int(i))
    return [int(cand[i]) for i in chosen]


def classify(features: np.ndarray, labels: Mapping[int, str], rounds: int | None = None,
             guesses: Mapping[int, str] | None = None,
             neighbours: list[list[int]] | None = None
             ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """The classes learnt from labelled rows, each row's class (an index), its confidence (0-1), whether it
    lies far from every class (a hex under a counter, a title) and the measure by which hexes are told apart:
    an inverse covariance in the features scaled by their spread, how the features vary within a terrain
    (the neighbours' spread, given ``neighbours``; else the classes' shared one; None with fewer than two
    classes).

    ``labels`` maps a row of ``features`` to its terrain (a hex the person painted). A linear
    discriminant with a shrunk shared covariance starts from them; then, over SELF_TRAINING steps, the
    unlabelled rows each class is surest of join it, a growing share at each step (the surest twentieth
    first, its surest 60 % at the end), and the classes are refitted: a class drifts along its own hexes instead of
    jumping to whatever is nearest its few examples. ``guesses`` are terrains not confirmed (a new map's
    starting terrain, counted when the person asks): they teach the first fit as one row each, then are
    classified like every other row, never kept because they were given. ``rounds`` (default: all)
    limits the steps.

    A row that lies far from every class (a hex under a counter, a title) takes the class most of its
    ``neighbours`` (rows, by row) have, when given. A row's confidence is the share of rows with its
    margin ``1 - d1/d2`` (its Mahalanobis distances to the nearest and the second nearest class mean)
    that were right on the tuning scans (:func:`calibrated`); a row decided by its neighbours gets
    OUTLIER_CONFIDENCE, or, when its own nearest class is the neighbours' too, OUTLIER_AGREE of its own
    confidence; one whose class differs from the first fit's (the steps drifted there) at most
    DRIFT_CONFIDENCE. Labelled rows keep their class with confidence 1; rows with NaN features get class -1.
    """
    guesses = {r: t for r, t in (guesses or {}).items() if r not in labels}
    classes = sorted(set(labels.values()) | set(guesses.values()))
    if not classes:
        raise SuggestError("paint a few hexes of each terrain first")
    n_rows = len(features)
    ok = ~np.isnan(features).any(axis=1)
    best = np.full(n_rows, -1, dtype=np.int64)
    conf = np.zeros(n_rows)
    odd = np.zeros(n_rows, dtype=bool)
    if not ok.any():
        return classes, best, conf, odd, None
    med, scale = _robust_scale(features[ok])
    z = np.where(ok[:, None], (features - med) / scale, 0.0)
    k = len(classes)
    index = {c: i for i, c in enumerate(classes)}
    lab_rows = np.array(sorted(r for r in labels if ok[r]), dtype=np.int64)
    lab_cls = np.array([index[labels[r]] for r in lab_rows], dtype=np.int64)
    if k == 1:
        best[ok] = 0
        conf[ok] = 1.0
        return classes, best, conf, odd, None
    guess_rows = np.array(sorted(r for r in guesses if ok[r]), dtype=np.int64)
    guess_cls = np.array([index[guesses[r]] for r in guess_rows], dtype=np.int64)
    first_rows = np.concatenate([lab_rows, guess_rows])
    first_cls = np.concatenate([lab_cls, guess_cls])
    # the first fit, from a few painted hexes, has too few to say how a terrain varies: the map's neighbouring
    # hexes say it (most share a terrain); the steps after it learn from the hexes they took, shrunk towards
    # it while those are few (refitted from a dozen rows alone, the measure drifted between two terrains)
    prior = _neighbour_spread(z, ok, neighbours) if neighbours is not None else None
    means, inv, _ = _fit_classes(z, first_rows, first_cls, np.ones(len(first_rows)), k, prior)
    first_maha = _mahalanobis(z, means, inv)        # the first fit's distances: its classes, and the first step's
    first_best = first_maha.argmin(axis=1)
    log_prior = np.zeros(k)
    labelled = np.zeros(n_rows, dtype=bool)
    labelled[lab_rows] = True
    free = np.flatnonzero(ok & ~labelled)
    steps = SELF_TRAINING if rounds is None else SELF_TRAINING[:max(0, rounds)]
    for step, share in enumerate(steps):
        maha = first_maha[free] if step == 0 else _mahalanobis(z[free], means, inv)
        got = (-0.5 * maha + log_prior[None, :]).argmax(axis=1)
        two = np.sort(maha, axis=1)[:, :2]
        sure = 1.0 - np.sqrt(np.maximum(two[:, 0], 0) / np.maximum(two[:, 1], 1e-12))
        take = []
        for c in range(k):
            mine = np.flatnonzero(got == c)
            if len(mine):
                take.append(mine[np.argsort(-sure[mine], kind="stable")][:max(1, int(round(share * len(mine))))])
        took = np.concatenate(take) if take else np.zeros(0, dtype=np.int64)
        rows = np.concatenate([lab_rows, free[took]])
        cls = np.concatenate([lab_cls, got[took]])
        weight = np.concatenate([np.full(len(lab_rows), LABEL_WEIGHT), np.ones(len(took))])
        for c in set(range(k)) - set(cls.tolist()):      # a class only guesses taught keeps its guesses
            mine = guess_rows[guess_cls == c]
            rows, cls = np.concatenate([rows, mine]), np.concatenate([cls, np.full(len(mine), c)])
            weight = np.concatenate([weight, np.ones(len(mine))])
        means, inv, log_prior = _fit_classes(z, rows, cls, weight, k, prior)
        if not LEARN_PRIOR:
            log_prior = np.zeros(k)
    maha = _mahalanobis(z, means, inv) if len(steps) else first_maha
    score = -0.5 * maha + log_prior[None, :]
    best[ok] = score[ok].argmax(axis=1)
    two = np.sort(maha, axis=1)[:, :2]
    raw = np.clip(1.0 - np.sqrt(np.maximum(two[:, 0], 0) / np.maximum(two[:, 1], 1e-12)), 0.0, 1.0)
    conf[ok] = calibrated(raw[ok])
    first_far = np.zeros(n_rows, dtype=bool)
    if neighbours is not None:
        # far from every class: a hex under a counter or a title; its neighbours say more than its pixels
        odd = ok & ~labelled & _far(two[:, 0], ok)
        first_far = ok & ~labelled & _far(first_maha.min(axis=1), ok)
        own = best.copy()
        for r in np.flatnonzero(odd):
            votes = np.bincount([own[j] for j in neighbours[r] if ok[j] and not odd[j]], minlength=k)
            if votes.sum():
                best[r] = int(votes.argmax())
                # its own look, though far from every terrain, may still point the neighbours' way (a hex a
                # river's ink crosses): then the neighbours are right far more often than against it
                conf[r] = (float(np.interp(conf[r], *zip(*OUTLIER_AGREE))) if best[r] == own[r]
                           else OUTLIER_CONFIDENCE)
    # the steps drifted from the first fit here, or the first fit found the hex far from every class (its
    # neighbours decided it): such suggestions are right less often than their margin says
    drifted = ok & ~odd & ((best != first_best) | first_far)
    conf[drifted] = np.minimum(conf[drifted], DRIFT_CONFIDENCE)
    best[lab_rows] = lab_cls
    conf[lab_rows] = 1.0
    # what tells a new kind of hex from the ordinary variety of a terrain is how a terrain varies, which the
    # neighbours measure from the whole map; the classes' measure, fitted to the steps, drifts with them
    if prior is not None:
        inv = np.linalg.inv(prior + 1e-3 * np.eye(prior.shape[0]))
    return classes, best, conf, odd, inv


def suggest_terrain(board: Board, images: Mapping[str, np.ndarray], examples: Mapping[Hex, str],
                    targets: Iterable[Hex] | None = None, rounds: int | None = None,
                    fixed: Iterable[Hex] | None = None, ask: int = 0,
                    ask_among: Iterable[Hex] | None = None) -> TerrainSuggestions:
    """A terrain and a confidence for every target hex (default: every hex not in ``examples``).

    ``examples`` are the hexes to learn from, hex -> terrain; ``images`` maps sheet ids to scans.
    ``fixed``: the hexes never to suggest (those the person painted); when given, the examples that are
    not fixed (a starting terrain counted as examples) are suggested too. ``ask``: how many hexes to name
    in ``to_paint``, those whose painting would teach most (``_to_paint``), among ``ask_among`` (default:
    the targets).
    """
    examples = {h: t for h, t in examples.items() if h in board and t}
    if not examples:
        raise SuggestError("paint a few hexes of each terrain first, then ask for suggestions")
    if len(set(examples.values())) < 2:
        raise SuggestError(f"every painted hex is {next(iter(examples.values()))}: paint a few hexes of each "
                           "other terrain too, so that there is something to tell apart")
    images = calibrated_scans(board, images)
    keep = examples if fixed is None else set(fixed)
    targets = [h for h in (board.hexes() if targets is None else targets) if h in board and h not in keep]
    hexes = board.hexes()                     # every hex of the board takes part in learning the classes
    row = {h: i for i, h in enumerate(hexes)}
    feats = hex_features(board, images, hexes)
    unread = np.isnan(feats).any(axis=1)
    confirmed = set(examples) if fixed is None else set(fixed)
    labels = {row[h]: t for h, t in examples.items() if not unread[row[h]] and h in confirmed}
    guesses = {row[h]: t for h, t in examples.items() if not unread[row[h]] and h not in confirmed}
    if not labels and not guesses:
        raise SuggestError("no painted hex lies on a scan")
    neighbours = [[row[n] for n in hex_neighbors(h) if n in row] for h in hexes]
    classes, best, conf, odd, metric = classify(feats, labels, rounds, guesses=guesses, neighbours=neighbours)
    out = TerrainSuggestions(classes=tuple(classes))
    unreadable = []
    for h in targets:
        i = row[h]
        if unread[i]:
            unreadable.append(h)
            continue
        c = int(best[i])
        out.terrain[h] = (classes[c], float(conf[i]))
    out.unreadable = tuple(unreadable)
    if ask > 0:
        pool = targets if ask_among is None else [h for h in ask_among if h in row and h not in keep]
        # a hex at the map's edge is often printed in part (a half hex, the margin beside it): not a good example
        inner = [h for h in pool if len(neighbours[row[h]]) == 6]
        pool = inner if len(inner) >= ask else pool
        # a hex far from every terrain is mostly under a counter, a title or a legend: its terrain does not show
        among = np.array([row[h] for h in pool if not unread[row[h]] and not odd[row[h]]], dtype=np.int64)
        out.to_paint = tuple(hexes[r] for r in _to_paint(feats, conf, labels, among, ask, metric))
    return out


# ---------------------------------------------------------------- hexside features

@dataclass
class HexsideSuggestions:
    """Hexsides that look like the sample, each with a confidence (0-1), and the feature to give them."""

    feature: str
    sides: dict[Hexside, float] = field(default_factory=dict)

    def above(self, threshold: float) -> list[Hexside]:
        return sorted(s for s, c in self.sides.items() if c >= threshold)


def board_hexsides(board: Board) -> list[Hexside]:
    """Every hexside between two hexes of the board, sorted."""
    out = set()
    for h in board.hexes():
        for n in hex_neighbors(h):
            if n in board:
                out.add(hexside(h, n))
    return sorted(out)


def hexside_strips(board: Board, images: Mapping[str, np.ndarray],
                   sides: list[Hexside]) -> tuple[np.ndarray, np.ndarray]:
    """The Lab pixels of each hexside's strip (sides x SIDE_ALONG x SIDE_ACROSS x 3) and which lie on a scan.

    The offsets across run from hex ``a``'s side to hex ``b``'s; a hexside is read from a sheet that
    holds both its hexes.
    """
    lay = board.layout
    lab = np.zeros((len(sides), len(SIDE_ALONG), len(SIDE_ACROSS), 3), dtype=np.float32)
    valid = np.zeros(lab.shape[:3], dtype=bool)
    by_sheet: dict[str, list[int]] = {}
    for i, s in enumerate(sides):
        both = {sh.id for sh in board.sheets_of(s.b)}
        for sh in board.sheets_of(s.a):
            if sh.id in images and sh.id in both:
                by_sheet.setdefault(sh.id, []).append(i)
                break
    for sid, rows in by_sheet.items():
        sheet, image = board.sheet(sid), images[sid]
        ends = np.array([lay.hexside_segment(sides[i]) for i in rows], dtype=np.float64)     # n x 2 x 2
        ca = np.array([board.center(sides[i].a) for i in rows], dtype=np.float64)
        p0, p1 = ends[:, 0], ends[:, 1]
        normal = (p0 + p1) / 2 - ca                                                          # towards hex b
        normal /= np.linalg.norm(normal, axis=1, keepdims=True)
        along = p0[:, None, :] + (p1 - p0)[:, None, :] * SIDE_ALONG[None, :, None]           # n x A x 2
        pts = along[:, :, None, :] + normal[:, None, None, :] * SIDE_ACROSS[None, None, :, None]
        uv = _to_image(sheet.transform, pts)
        rgb, inside = _gather(image, uv)
        lab[rows] = rgb_to_lab(rgb)
        valid[rows] = inside
    return lab, valid


def _coverage(near: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """For each strip (n x along x across x 3) and colour: the share of points along where a pixel across has it."""
    out = np.zeros((near.shape[0], len(colours)))
    for j, c in enumerate(colours):
        d = ((near - c) ** 2).sum(axis=-1)                          # n x A x c
        out[:, j] = (d < LINE_DELTA_E ** 2).any(axis=2).mean(axis=1)
    return out


def suggest_hexsides(board: Board, images: Mapping[str, np.ndarray], feature: str,
                     samples: Iterable[Hexside], sides: Iterable[Hexside] | None = None,
                     rejected: Iterable[Hexside] = ()) -> HexsideSuggestions:
    """The hexsides whose strip shows the inks of the samples' line (hexsides that carry ``feature``).

    The candidates are pixels near the sample hexside (within SIDE_LINE hex sizes); an ink is a
    candidate colour (within LINE_DELTA_E) that the average hexside shows along less than LINE_COMMON
    of its length, so the printed hex line and the terrain on either side, which most hexsides show,
    drop out. A hexside's confidence is the share of the points along it where a pixel across its line
    has one of the inks (1 for a hexside drawn like the sample from end to end, 0 for a plain one),
    times the share of the strip beside the line (beyond SIDE_BESIDE, on the more inked side) that
    does not (a lake's shore is blue on one side all along, a river only on its line), times how much
    nearer the sample's its look across the line is than a plain hexside's (the median colours at each
    offset, either way round; halfway or nearer counts in full): a wall and a hex line are both dark, but
    not equally wide.

    ``rejected``: hexsides the person said do not carry ``feature`` (a wrong suggestion turned down). They
    are never suggested, and they teach what the line is not: a hexside whose look across is nearer a
    rejected one's than the samples' scores low, and the inks do not lift it (steps 5 and 7 of
    docs/terrain-suggestion.md); one rejected hexside stands for the others that look like it. A hexside
    both marked and rejected counts as marked.
    """
    samples = [s for s in samples if s.a in board and s.b in board]
    if not samples:
        raise SuggestError(f"mark one hexside with {feature} first, then ask for more like it")
    images = calibrated_scans(board, images)
    every = board_hexsides(board)
    lab, valid = hexside_strips(board, images, every)
    ok = valid.all(axis=(1, 2))
    row = {s: i for i, s in enumerate(every)}
    sample_rows = [row[s] for s in samples if s in row and ok[row[s]]]
    if not sample_rows:
        raise SuggestError("no sample hexside lies on a scan")
    taken = set(samples)
    refused = {s for s in rejected if s not in taken}
    rejected_rows = sorted(row[s] for s in refused if s in row and ok[row[s]])
    ends = np.array([board.layout.hexside_segment(s) for s in every], dtype=np.float64).reshape(-1, 2, 2)
    conf = _hexside_scores(lab, ok, sample_rows, ends, rejected_rows)
    wanted = set(every) if sides is None else set(sides)
    out = HexsideSuggestions(feature)
    for s, i in row.items():
        if (s in wanted and s not in taken and s not in refused and ok[i]
                and feature not in board.hexsides.get(s, set())
                and conf[i] >= SIDE_MIN_CONFIDENCE):
            out.sides[s] = float(conf[i])
    return out


def _hexside_scores(lab: np.ndarray, ok: np.ndarray, sample_rows: list[int], ends: np.ndarray,
                    rejected_rows: Sequence[int] = ()) -> np.ndarray:
    """Each hexside's score (0-1) from its strip (``lab``, every hexside's; ``ok``: read whole), the samples'
    rows, the hexsides' ends (n x 2 x 2, where they meet) and the rows of the hexsides rejected (scored 0):
    the steps of ``suggest_hexsides``."""
    rejected_rows = [i for i in rejected_rows if i not in set(sample_rows)]
    centre = np.abs(SIDE_ACROSS) <= SIDE_LINE
    near = lab[:, :, centre]                                       # n x A x c x 3
    # the colours by the sample's line, then only those few hexsides show: the line's inks, not the
    # printed hex line or the terrain (which most hexsides show)
    px = np.unique(np.rint(near[sample_rows].reshape(-1, 3) / 3.0), axis=0) * 3.0   # alike pixels once
    if len(px) > LINE_CANDIDATES:
        px = px[np.linspace(0, len(px) - 1, LINE_CANDIDATES).astype(int)]
    judges = np.flatnonzero(ok)
    if len(judges) > COMMON_JUDGES:                                # how common an ink is, from a fixed spread
        judges = judges[np.linspace(0, len(judges) - 1, COMMON_JUDGES).astype(int)]
    cover = _coverage(near[judges], px)
    common = cover.mean(axis=0)
    # none: the line is printed in colours the map shows everywhere (a ridge's brown in a pastel palette);
    # the inks then lift nothing and the learnt look alone decides (it found 28 of 42 such ridges on four
    # scans the inks refused, 1 wrong)
    inks = common < LINE_COMMON
    mine = near[sample_rows]
    own = np.zeros(mine.shape[:2], dtype=bool)
    for c in px[inks]:
        own |= (((mine - c) ** 2).sum(axis=-1) < LINE_DELTA_E ** 2).any(axis=2)
    if own.mean() < LINE_SELF:
        # the rare inks miss most of the sample's own line: on a map where rivers run along one hexside in five
        # their blue is common too. A colour on the line and seldom beside it (not a fill), on fewer than
        # LINE_PRESENT of the hexsides (not the printed hex line) and along most of the sample, is the line's
        beside = _coverage(lab[judges][:, :, np.abs(SIDE_ACROSS) >= SIDE_BESIDE], px).mean(axis=0)
        present = (cover > 0).mean(axis=0)
        along = _coverage(mine, px).mean(axis=0)
        inks |= ((common < LINE_DENSE) & (beside < LINE_ALONE * common) & (present < LINE_PRESENT)
                 & (along >= LINE_SELF))
    colours = px[inks]
    hit = np.zeros(lab.shape[:3], dtype=bool)
    shows = np.zeros(near.shape[:3], dtype=bool)
    for c in colours:
        d2 = ((lab - c) ** 2).sum(axis=-1)
        hit |= d2 < LINE_DELTA_E ** 2
        shows |= d2[:, :, centre] < INK_SHOWS_DELTA_E ** 2
    on_line = hit[:, :, centre].any(axis=2).mean(axis=1)
    # a hexside whose line shows none of the sample's inks, near enough, is another line (a wall, a river the
    # look half sees): scored down in proportion (none when the sample's line has no inks of its own)
    ink_shows = np.clip(shows.any(axis=2).mean(axis=1) / INK_SHOWS, 0, 1) if len(colours) else np.ones(len(lab))
    # ink that fills a hex beside the hexside too is that hex's terrain (a lake's shore), not a line along it
    side_a = hit[:, :, SIDE_ACROSS <= -SIDE_BESIDE].mean(axis=(1, 2))
    side_b = hit[:, :, SIDE_ACROSS >= SIDE_BESIDE].mean(axis=(1, 2))
    conf = on_line * (1.0 - np.maximum(side_a, side_b))
    # the line's look across the hexside (its width, its inks in order): nearer the sample's than a plain one's
    core = np.abs(SIDE_ACROSS) <= SIDE_LINE + 0.04
    prof = np.median(lab[:, :, core], axis=1)                                 # n x c x 3
    flip = prof[:, ::-1]
    first = prof[sample_rows[0]]                 # each sample the way round that matches the first
    sample = np.mean([flip[r] if ((flip[r] - first) ** 2).sum() < ((prof[r] - first) ** 2).sum() else prof[r]
                      for r in sample_rows], axis=0)
    plain_p = np.median(np.concatenate([prof[ok], flip[ok]]), axis=0)
    d_s = np.minimum(np.sqrt(((prof - sample) ** 2).sum(axis=(1, 2))),
                     np.sqrt(((flip - sample) ** 2).sum(axis=(1, 2))))
    d_p = np.sqrt(((prof - plain_p) ** 2).sum(axis=(1, 2)))
    for r in rejected_rows:                      # a rejected hexside's look counts as a plain one's
        d_r = np.minimum(np.sqrt(((prof - prof[r]) ** 2).sum(axis=(1, 2))),
                         np.sqrt(((flip - prof[r]) ** 2).sum(axis=(1, 2))))
        d_p = np.minimum(d_p, d_r)
    like = np.clip(d_p / np.maximum(d_p + d_s, 1e-9), 0, 1)
    ink = conf * np.clip(2 * like, 0, 1)         # halfway between the sample's look and a plain one's: 1
    # the samples' looks: the first marked teaches one; a later sample that no look so far sees at SIDE_ACCEPT
    # teaches one of its own, up to SAMPLE_LOOKS, and lifts a hexside at most SAMPLE_SLACK over the first
    # look's score (a look learnt from one odd sample, a ridge printed under a river, finds that river)
    strips = (_chroma_blurred(lab), _chroma_blurred(_fills_taken_out(lab)))
    near = _FillNeighbours(_fills(lab), ok)
    looks, rest = [], list(dict.fromkeys(sample_rows))
    while rest and len(looks) < SAMPLE_LOOKS:
        first, rest = rest[0], rest[1:]
        look = _looks(*strips, ok, [first], rejected_rows, near)
        rest = [r for r in rest if look[0][r] < SIDE_ACCEPT]
        looks.append(look)
    pattern, unlike = looks[0]
    if len(looks) > 1:
        best = np.argmax(np.stack([p for p, _u in looks[1:]]), axis=0)
        other = np.minimum(np.choose(best, [p for p, _u in looks[1:]]), pattern + SAMPLE_SLACK)
        unlike = np.where(other > pattern, np.choose(best, [u for _p, u in looks[1:]]), unlike)
        pattern = np.maximum(pattern, other)
    pattern[rejected_rows] = 0.0                 # nor does a rejected hexside make a line with its neighbours
    corners = _corners(ends)
    pattern = _as_lines(pattern, corners, SIDE_ACCEPT)
    # the inks lift a hexside the look half sees if it goes on a line from a hexside found: joined to one, end
    # to end, through hexsides lifted (a contour or a woods edge in the same ink, which the look does not find
    # anywhere along it, is not lifted); or if its inks run nearly end to end and the look sees it within
    # INK_LIFT_ALONE (a zone's border printed in a river's blue is not)
    candidate = (ink >= INK_SURE) & (pattern >= SIDE_ACCEPT - INK_LIFT) & (pattern < SIDE_ACCEPT) & (unlike >= 1.0)
    alone = (ink >= INK_ALONE) & (pattern >= SIDE_ACCEPT - INK_LIFT_ALONE)
    grown = (pattern >= SIDE_ACCEPT) | (candidate & alone)
    while True:
        e1, e2 = _others_at_ends(corners, grown)
        new = candidate & ~grown & ((e1 > 0) | (e2 > 0))
        if not new.any():
            break
        grown |= new
    score = np.where(candidate & grown, SIDE_ACCEPT, pattern)
    # a line runs on: a run of SHORT_RUN hexsides or fewer suggested, joined to no sample (contours or stipple
    # beside a hexside here and there, a hill's ring touching it) is halved; the run goes on through the
    # hexsides where the line's inks show (a river the look finds in pieces is one run)
    return _short_runs_halved(score, corners, (ink >= INK_JOIN) & ok, sample_rows) * ink_shows


def _looks(lab: np.ndarray, unfilled_lab: np.ndarray, ok: np.ndarray, sample_rows: list[int],
           rejected_rows: Sequence[int], near: _FillNeighbours | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The learnt look of ``sample_rows`` (step 5 of ``_hexside_scores``): each hexside's score, 0-1, and how
    unlike the rejected hexsides it is, 0-1. The look is learnt on the whole strip (``lab``, its colour
    smoothed across: ``_chroma_blurred``), with the fills either side taken out (``unfilled_lab``, the same)
    and on the line alone: a hexside between two fills like the sample's, with no line like its line, must
    not pass on the fills; the whole look scores at most PATTERN_SLACK over the lower of the other two. Each
    look's score is multiplied by how unlike the rejected hexsides it finds a hexside; the lowest of the
    three is the second result. ``near``: the hexsides between like fills (``_FillNeighbours``).

    A look (with the fills taken out, or of the line alone) that scores the sample itself under SELF_MIN cannot
    see the line (a ridge a pixel wide on a small scan, its ticks making its own along points vary) and would
    hold every hexside like it under the threshold (scans 2257 and 2336: 0 of 10 and 0 of 7 ridges found with
    it; every one without it, none wrong): it is left out for the hexsides whose line is of the sample's colour
    (the darkest part of the line, a* and b* within COLOUR_GATE), so a wall or a river that the looks left
    would find is still held. When both are blind, only the blinder one is left out (the whole look alone
    found 73 hexsides in a hills area, scan 2341)."""
    whole, unlike = _pattern_scores(lab, ok, sample_rows, rejected_rows=rejected_rows, near=near)
    unfilled, unlike_u = _pattern_scores(unfilled_lab, ok, sample_rows, rejected_rows=rejected_rows, near=near)
    line, unlike_l = _pattern_scores(lab, ok, sample_rows, SIDE_LINE, rejected_rows, near=near)
    both = [(unfilled, unlike_u), (line, unlike_l)]
    strict = np.minimum(whole * unlike, np.minimum(unfilled * unlike_u, line * unlike_l) + PATTERN_SLACK)
    strict_unlike = np.minimum(unlike, np.minimum(unlike_u, unlike_l))
    own = sample_rows[0]
    seeing = [vu for vu in both if vu[0][own] >= SELF_MIN] or [max(both, key=lambda vu: vu[0][own])]
    if len(seeing) == 2:
        return strict, strict_unlike
    (kept, kept_unlike), = seeing
    relaxed = np.minimum(whole * unlike, kept * kept_unlike + PATTERN_SLACK)
    relaxed_unlike = np.minimum(unlike, kept_unlike)
    centre = np.abs(SIDE_ACROSS) <= SIDE_LINE
    prof = np.median(lab[:, :, centre], axis=1)                           # n x c x 3
    darkest = prof[np.arange(len(prof)), prof[..., 0].argmin(axis=1)]      # n x 3
    same = np.linalg.norm(darkest[:, 1:] - darkest[own, 1:], axis=1) <= COLOUR_GATE
    return np.where(same, relaxed, strict), np.where(same, relaxed_unlike, strict_unlike)


class _FillNeighbours:
    """For a hexside (either way round), the PATTERN_MATCHED hexsides read whole whose fills (``_fills``) are
    most like its own (among PATTERN_MATCH_AMONG at most, spread over the map), and which of them are the
    other way round; worked out once for each."""

    def __init__(self, fills: np.ndarray, ok: np.ndarray):
        self.rows = np.flatnonzero(ok)
        if len(self.rows) > PATTERN_MATCH_AMONG:                       # a fixed spread of the map's hexsides
            self.rows = self.rows[np.linspace(0, len(self.rows) - 1, PATTERN_MATCH_AMONG).astype(int)]
        self.a, self.b = fills[self.rows, 0], fills[self.rows, 1]
        self.fills = fills
        self._of: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def of(self, pairs: Sequence[tuple[int, bool]]) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each (row, turned), the rows of its like-filled hexsides and whether each is the other way
        round; worked out in batches for those not asked for before."""
        todo = sorted({(int(r), bool(t)) for r, t in pairs} - self._of.keys())
        k = min(PATTERN_MATCHED, len(self.rows) - 1)
        for start in range(0, len(todo), 256):
            batch = todo[start:start + 256]
            f = np.stack([self.fills[r, ::-1] if t else self.fills[r] for r, t in batch])     # B x 2 x 3
            fa, fb = f[:, None, 0], f[:, None, 1]
            same = np.linalg.norm(self.a - fa, axis=2) + np.linalg.norm(self.b - fb, axis=2)   # B x n
            other = np.linalg.norm(self.b - fa, axis=2) + np.linalg.norm(self.a - fb, axis=2)
            d = np.minimum(same, other)
            d[self.rows[None, :] == np.array([r for r, _t in batch])[:, None]] = np.inf   # not the hexside itself
            pick = np.argpartition(d, k, axis=1)[:, :k]
            turned = np.take_along_axis(other, pick, 1) < np.take_along_axis(same, pick, 1)
            for i, key in enumerate(batch):
                self._of[key] = (self.rows[pick[i]], turned[i])
        return [self._of[(int(r), bool(t))] for r, t in pairs]


def _fills(lab: np.ndarray) -> np.ndarray:
    """Each hexside's fill on either side (n x 2 x 3, Lab): the median of its strip beyond SIDE_BESIDE on
    hex ``a``'s side, then on hex ``b``'s."""
    return np.stack([np.median(lab[:, :, SIDE_ACROSS <= -SIDE_BESIDE], axis=(1, 2)),
                     np.median(lab[:, :, SIDE_ACROSS >= SIDE_BESIDE], axis=(1, 2))], axis=1)


def _chroma_blurred(lab: np.ndarray) -> np.ndarray:
    """Each strip with its colour (a*, b*) smoothed across the line ([1 2 1]), its lightness kept: a line's
    colour a pixel to one side (a river drawn wide, or a little off the hexside) reads the same."""
    out = lab.copy()
    c = np.pad(lab[..., 1:], ((0, 0), (0, 0), (1, 1), (0, 0)), mode="edge")
    out[..., 1:] = (c[:, :, :-2] + 2 * c[:, :, 1:-1] + c[:, :, 2:]) / 4
    return out


def _fills_taken_out(lab: np.ndarray) -> np.ndarray:
    """Each hexside's strip less the fill on either side (the median of the strip beyond SIDE_BESIDE on that
    side, over the whole hexside; the two fills' mean on the line): what is left is the line and its ticks,
    whatever terrains lie either side."""
    f = _fills(lab)
    a, b = f[:, 0], f[:, 1]                                                   # n x 3
    share_b = np.where(SIDE_ACROSS < 0, 0.0, np.where(SIDE_ACROSS > 0, 1.0, 0.5))
    fill = a[:, None, :] * (1 - share_b)[None, :, None] + b[:, None, :] * share_b[None, :, None]   # n x across x 3
    return lab - fill[:, None, :, :]


def _pattern_scores(lab: np.ndarray, ok: np.ndarray, sample_rows: list[int],
                    width: float = PATTERN_CORE, rejected_rows: Sequence[int] = (),
                    near: _FillNeighbours | None = None) -> tuple[np.ndarray, np.ndarray]:
    """How much each hexside's strip looks like the samples' across its line, 0-1 (1: as much as the samples),
    and how far it is from the look of every rejected hexside, 0-1 (1: all of them when none is rejected).

    Each along point's look across the line (``width`` either side, Lab, smoothed along) is one
    instance. A linear discriminant between the samples' instances and the plain hexside's weighs what
    sets the samples apart (a ridge's ticks on one side, a wall's blocks, a river's width) against what
    merely varies (the covariance of every hexside's instances). The plain hexside is the mean of the
    PATTERN_MATCHED hexsides whose fills are most like each sample's (``near``), the right way round:
    what sets a ridge drawn through woods apart from a hex line between two woods hexes is the ridge, not
    the woods (against the map's average hexside, the woods would count too, and every woods edge would
    look half like it); in later rounds, of the samples' and up to PATTERN_MATCH_ROWS hexsides found;
    with no ``near``, every hexside's mean. A hexside scores the discriminant
    of its along points at PATTERN_QUANTILE from its worst (so a line must run along most of it: a road or
    a contour crossing it does not), either way round, as a share of the samples' own; and in full only
    PATTERN_SPREADS spreads above the usual hexside's score. Each rejected hexside (the way round it looks
    most like the samples) gives a second discriminant, between the samples' instances and its own, with
    the same covariance: a hexside's along points at PATTERN_QUANTILE, as a share of the way from the
    rejected one's median to the samples', score nothing at UNLIKE_FROM and in full at UNLIKE_FULL; the
    lowest over the rejected hexsides is the second result. The hexsides found at PATTERN_TAKE or more (the
    score times the second result) teach the next of PATTERN_ROUNDS rounds with the samples (a river's
    width varies from hexside to hexside).
    """
    core = np.abs(SIDE_ACROSS) <= width
    x = lab[:, :, core].astype(np.float64)
    padded = np.pad(x, ((0, 0), (1, 1), (0, 0), (0, 0)), mode="edge")
    x = (padded[:, :-2] + 2 * padded[:, 1:-1] + padded[:, 2:]) / 4
    n, along = x.shape[:2]
    feats = x.shape[2] * 3
    fwd = x.reshape(n, along, feats)
    back = x[:, :, ::-1].reshape(n, along, feats)
    bg = np.concatenate([fwd[ok].reshape(-1, feats), back[ok].reshape(-1, feats)])
    if len(bg) > PATTERN_BACKGROUND:
        bg = bg[np.linspace(0, len(bg) - 1, PATTERN_BACKGROUND).astype(int)]
    mu = bg.mean(axis=0)
    d = bg - mu
    cov = np.einsum("nf,ng->fg", d, d) / max(1, len(bg) - 1)
    cov = ((1 - PATTERN_SHRINK) * cov + PATTERN_SHRINK * np.diag(np.diag(cov))
           + 1e-3 * np.trace(cov) / feats * np.eye(feats))
    inv = np.linalg.inv(cov)
    first = fwd[sample_rows[0]].mean(axis=0)      # each sample the way round that matches the first (a ridge's
    marked = []                                   # ticks lie on one side, whichever hex is its ``a``)
    marked_flip = []
    for r in sample_rows:
        df, db = fwd[r].mean(axis=0) - first, back[r].mean(axis=0) - first
        marked_flip.append(bool(db @ inv @ db < df @ inv @ df))
        marked.append(back[r] if marked_flip[-1] else fwd[r])
    marked = np.concatenate(marked)
    positives = marked
    fwd_mean, back_mean = fwd.mean(axis=1), back.mean(axis=1)

    def plain(rows: Sequence[int], flips: Sequence[bool]) -> np.ndarray:
        """The mean instance of the plain hexsides between fills like those of ``rows`` (each the way round
        ``flips`` says): the samples' and, of the rest, PATTERN_MATCH_ROWS at most, evenly spread."""
        if near is None or len(near) <= PATTERN_MATCHED:
            return mu
        pairs = list(zip(rows, flips))
        samples, rest = pairs[:len(sample_rows)], pairs[len(sample_rows):]
        if len(rest) > PATTERN_MATCH_ROWS:
            rest = [rest[i] for i in np.linspace(0, len(rest) - 1, PATTERN_MATCH_ROWS).astype(int)]
        out = [np.where(turned[:, None], back_mean[idx], fwd_mean[idx]).mean(axis=0)
               for idx, turned in near.of(samples + rest)]
        return np.mean(out, axis=0)

    found = np.zeros(0, dtype=np.int64)
    flip = np.zeros(n, dtype=bool)
    score = np.zeros(n)
    unlike = np.ones(n)
    negatives: list[np.ndarray] = []
    for rnd in range(PATTERN_ROUNDS + 1):
        w = inv @ (positives.mean(axis=0) - plain(list(sample_rows) + [int(i) for i in found],
                                                   marked_flip + [bool(flip[i]) for i in found]))
        a = np.einsum("naf,f->na", fwd - mu, w)
        b = np.einsum("naf,f->na", back - mu, w)
        ref = float(np.median((positives - mu) @ w))
        qa = np.quantile(a, PATTERN_QUANTILE, axis=1)
        qb = np.quantile(b, PATTERN_QUANTILE, axis=1)
        flip = qb > qa
        raw = np.maximum(qa, qb)
        med = float(np.median(raw[ok]))
        spread = float(np.median(np.abs(raw[ok] - med))) * 1.4826
        score = np.clip(np.minimum(raw / max(ref, 1e-9), (raw - med) / max(PATTERN_SPREADS * spread, 1e-9)), 0, 1)
        if rnd == 0:                              # each rejected hexside the way round it looked like the samples
            negatives = [back[r] if flip[r] else fwd[r] for r in rejected_rows]
        if negatives:
            unlike = np.ones(n)
            centre = positives.mean(axis=0)
            for neg in negatives:
                v = inv @ (centre - neg.mean(axis=0))
                lo = float(np.median(neg @ v))
                hi = float(np.median(positives @ v))
                if hi - lo <= 1e-9:
                    continue
                pv = np.where(flip[:, None], np.einsum("naf,f->na", back, v), np.einsum("naf,f->na", fwd, v))
                t = (np.quantile(pv, PATTERN_QUANTILE, axis=1) - lo) / (hi - lo)
                unlike = np.minimum(unlike, np.clip((t - UNLIKE_FROM) / (UNLIKE_FULL - UNLIKE_FROM), 0, 1))
        if rnd == PATTERN_ROUNDS:
            break
        found = np.flatnonzero(ok & (score * unlike >= PATTERN_TAKE))
        positives = np.concatenate([marked] + [back[i] if flip[i] else fwd[i] for i in found])
    return np.where(ok, score, 0.0), unlike


def _corners(ends: np.ndarray) -> np.ndarray:
    """Each hexside's two ends (n x 2 x 2, in the layout's units) as indices of the corners where hexsides meet."""
    corner: dict[tuple[int, int], int] = {}
    idx = np.zeros((len(ends), 2), dtype=np.int64)
    for i in range(len(ends)):
        for j in range(2):
            key = (round(float(ends[i, j, 0]) * 1000), round(float(ends[i, j, 1]) * 1000))
            idx[i, j] = corner.setdefault(key, len(corner))
    return idx


def _others_at_ends(corners: np.ndarray, on: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each hexside, how many other hexsides of ``on`` meet it at each of its two ends."""
    degree = np.bincount(corners[on].ravel(), minlength=int(corners.max()) + 1 if len(corners) else 0)
    return degree[corners[:, 0]] - on, degree[corners[:, 1]] - on


def _short_runs_halved(score: np.ndarray, corners: np.ndarray, joining: np.ndarray,
                       sample_rows: Sequence[int]) -> np.ndarray:
    """``score`` halved for the hexsides at SIDE_ACCEPT or more in a run of SHORT_RUN hexsides or fewer with no
    sample in it and no end on the map's edge (where the line may go on off the map): a run is hexsides joined
    end to end, among those suggested, the samples and ``joining``."""
    on = score >= SIDE_ACCEPT
    member = on | joining
    member[list(sample_rows)] = True
    rows = np.flatnonzero(member)
    if not len(rows):
        return score
    parent = np.arange(int(corners.max()) + 1)

    def root(c: int) -> int:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = int(parent[c])
        return c

    for i in rows:
        a, b = root(int(corners[i, 0])), root(int(corners[i, 1]))
        if a != b:
            parent[a] = b
    run = np.array([root(int(corners[i, 0])) for i in rows])
    size = dict(zip(*np.unique(run, return_counts=True)))
    sampled = {root(int(corners[r, 0])) for r in sample_rows}
    m1, m2 = _others_at_ends(corners, np.ones(len(corners), dtype=bool))     # the map's own hexsides
    edge = (m1 < 2) | (m2 < 2)
    sampled |= {root(int(corners[i, 0])) for i in rows if edge[i]}        # a line may go on off the map
    short = np.zeros(len(score), dtype=bool)
    short[rows] = [size[r] <= SHORT_RUN and r not in sampled for r in run]
    return np.where(on & short, score * 0.5, score)


def _as_lines(score: np.ndarray, corners: np.ndarray, threshold: float) -> np.ndarray:
    """Scores halved where the hexsides at or above ``threshold`` do not make lines: a hexside with two others
    at each of its ends (a mesh: the texture of an area, a lake's waves) or none at either (alone).
    ``corners``: each hexside's two ends as corner indices (``_corners``)."""
    on = score >= threshold
    e1, e2 = _others_at_ends(corners, on)
    odd = on & (((e1 >= 2) & (e2 >= 2)) | ((e1 == 0) & (e2 == 0)))
    return np.where(odd, score * 0.5, score)


__all__ = ["SuggestError", "load_image", "rgb_to_lab", "hex_features", "FEATURE_NAMES", "classify",
           "TerrainSuggestions", "suggest_terrain", "HexsideSuggestions", "board_hexsides", "hexside_strips",
           "suggest_hexsides", "LOW_CONFIDENCE", "SIDE_ACCEPT"]
