"""Finding a scan's hex grid from its printed lines: orientation, size, turn, stretch and offset.

``find_grid(image)`` returns a :class:`GridProposal`: the sheet's transform in the
map format's own terms (lattice plane of hexes of size 1 to image pixels, with
hex ``(0, 0)`` on the found sheet's first hex), the orientation, the hex size,
the turn and stretch read from it, the hexes printed whole, and a confidence;
or, when no grid can be trusted, ``found = False`` with the reason in plain
words.  The method, in short (docs/grid-detection.md has it in full):

1. *Coarse lattice*: the autocorrelation (numpy's FFT) of the thin dark marks of
   the scan's middle, averaged down, has peaks on the lattice of hex centres;
   three of one length 60 degrees apart are a candidate.
2. *Offset*: the marks folded onto one cell of each candidate show the hex
   edges as ridges; the offset whose edges lie on them gives the centres.
3. *Fit*: short profiles across the predicted edges at full resolution find the
   printed lines; a robust least-squares fit of the transform's six numbers,
   spreading from the middle, puts the grid on them.
4. *Check*: edges found, region-by-region agreement, edge contrast, the margin
   over the next likeliest lattice and the hexes found whole give the
   confidence; below the threshold nothing is proposed.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.errors import BadFile, Problem
from engine.maps.board import Affine
from engine.maps.gridfit import _best_offset, _confirmed_within, _fit, _line_offsets, _Sampler
from engine.maps.gridlattice import (COARSE_REGION, COARSE_SIDE, HEX_PX_RANGE, _coarse, _finer, _Fold, _lattices,
                                     _orient, _placements, _related, _same_lattice, _thin_dark)
from engine.maps.gridsheet import found_sheet
from engine.maps.hexes import FLAT, SQRT3, Hex, Layout

GRID_MAX_PIXELS = 300_000_000     # a 22 x 34 inch sheet scanned at 400 dpi is 120 megapixels
# The search's peak memory, measured: about 3.15 bytes a pixel on the brightness it works on (a JPEG decodes its
# brightness alone), and 1.5 more for each band of a colour image decoded whole first (a 70-megapixel RGB PNG
# peaked at 532 MB, a 120-megapixel one at 880 MB, a 298-megapixel JPEG at 937 MB).  An image that would need
# more than the budget is refused before it is decoded, so a search stays under 1 GB.
MEMORY_BUDGET = 950_000_000
SEARCH_BYTES_PER_PIXEL = 3.15
DECODE_BYTES_PER_BAND = 1.5
FINE_REGION = 1024                # the middle of the scan at full resolution, for small hexes and thin lines
LOCAL_FITS = 8                    # the likeliest lattices fitted near the middle to choose among them
MIN_CONFIDENCE = 0.6              # below this the grid is not proposed
SURE_FIRST = 0.95                 # a first search this sure is kept without searching the negative and again
STRONG_CONFIRMED = 0.7            # edges found across the scan above which a coarser grid on the same centres is no rival
WIDE_LINES = (0.40, 0.45)         # lines this wide (a share of the hex side) are doubtful, then no printed hex lines:
                                  # the fill of smaller hexes between light lines, read as dark lines of a coarser grid


@dataclass
class GridProposal:
    """What :func:`find_grid` found.

    ``transform``: lattice plane (hexes of size 1, ``orientation``) to image
    pixels, ``[a, b, c, d, e, f]`` as a sheet's ``transform`` in a map file,
    with lattice hex ``(0, 0)`` on a hex centre.  ``hex_px``: mean distance
    between neighbouring centres.  ``rotation``: degrees the grid is turned
    anticlockwise as seen; ``stretch``: how much longer the image's vertical
    scale is than its horizontal (0.02 = 2 %).  ``extent``: the bounding box
    of the image region where the printed lines were found.
    """

    found: bool
    reason: str = ""
    orientation: str | None = None
    transform: Affine | None = None
    hex_px: float = 0.0
    rotation: float = 0.0
    stretch: float = 0.0
    confidence: float = 0.0
    image_size: tuple[int, int] = (0, 0)
    extent: tuple[float, float, float, float] | None = None
    seconds: float = 0.0
    details: dict = field(default_factory=dict)
    whole: tuple = ()             # lattice hexes (q, r) printed whole: six edges found, inside the image

    def to_dict(self) -> dict:
        d = {"found": self.found, "confidence": round(self.confidence, 3),
             "image_size": list(self.image_size), "seconds": round(self.seconds, 3)}
        if not self.found:
            d["reason"] = self.reason
            return d
        d.update(orientation=self.orientation, transform=[round(v, 6) for v in self.transform.as_list()],
                 hex_px=round(self.hex_px, 3), rotation=round(self.rotation, 4), stretch=round(self.stretch, 5),
                 extent=[round(v, 1) for v in self.extent] if self.extent else None)
        d["checks"] = {k: self.details[k] for k in ("confirmed", "region_err", "margin", "whole_hexes")
                       if k in self.details}
        return d

    def centre(self, q: int, r: int) -> tuple[float, float]:
        """The image pixel of lattice hex ``(q, r)``'s centre."""
        x, y = Layout(self.orientation).axial_to_point(q, r)
        return self.transform.apply(x, y)


class NoImage(BadFile):
    """An image that cannot be searched for a grid (missing, unreadable, too large)."""


# ---------------------------------------------------------------- loading

def load_grey(source) -> np.ndarray:
    """A scan as 8-bit grey pixels; ``source`` is a path, a PIL image or an array.  BadFile names a bad file."""
    from PIL import Image

    if isinstance(source, np.ndarray):
        a = source
        if a.ndim == 3:
            a = a[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
        return np.ascontiguousarray(a, dtype=np.uint8) if a.dtype == np.uint8 else np.clip(a, 0, 255).astype(np.uint8)
    if isinstance(source, Image.Image):
        return np.asarray(source.convert("L"))
    path = Path(source)
    name = str(path)
    if not path.is_file():
        raise NoImage([Problem(name, "", "no such image file" if not path.exists() else "not a file")])
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            # Pillow's guard is a global: raised to this reader's own limit for good, never set to None or put
            # back, so a search in one thread and a read in another cannot leave it unset or too low
            limit = Image.MAX_IMAGE_PIXELS
            if limit is not None and limit < GRID_MAX_PIXELS:
                Image.MAX_IMAGE_PIXELS = GRID_MAX_PIXELS
            im = Image.open(path)
            with im:
                w, h = im.size
                if w * h > GRID_MAX_PIXELS:
                    raise NoImage([Problem(name, "", f"the image is {w:,} x {h:,} pixels ({w * h / 1e6:,.0f} megapixels); "
                                                     f"grids are looked for in images up to "
                                                     f"{GRID_MAX_PIXELS // 1_000_000} megapixels")])
                bands = 1 if im.format == "JPEG" else len(im.getbands())    # a JPEG decodes its brightness alone
                per_pixel = SEARCH_BYTES_PER_PIXEL + (DECODE_BYTES_PER_BAND * bands if bands > 1 else 0)
                if w * h * per_pixel > MEMORY_BUDGET:
                    colour_limit = MEMORY_BUDGET / (SEARCH_BYTES_PER_PIXEL + DECODE_BYTES_PER_BAND * bands)
                    raise NoImage([Problem(name, "", f"the image is {w:,} x {h:,} pixels in {bands} bands ({im.mode}); "
                                                     f"grids are looked for in such images up to "
                                                     f"{colour_limit / 1e6:,.0f} megapixels, in greyscale images or "
                                                     f"JPEGs up to {GRID_MAX_PIXELS // 1_000_000} (save the scan "
                                                     f"as greyscale or as JPEG)")])
                if im.format == "JPEG":
                    im.draft("L", im.size)       # decode the brightness only
                im.load()
                grey = np.asarray(im if im.mode == "L" else im.convert("L"))
    except NoImage:
        raise
    except Image.DecompressionBombError as e:      # past twice the guard: Pillow refuses before the size is known
        import re

        m = re.search(r"\((\d+) pixels\)", str(e))
        size = f"{int(m.group(1)) / 1e6:,.0f} megapixels" if m else "too many pixels"
        raise NoImage([Problem(name, "", f"the image is {size}; grids are looked for in images up to "
                                         f"{GRID_MAX_PIXELS // 1_000_000} megapixels")]) from None
    except (OSError, SyntaxError, ValueError) as e:
        raise NoImage([Problem(name, "", f"not an image that can be read ({e})")]) from None
    except MemoryError:
        raise NoImage([Problem(name, "", "the image is too large to decode in the memory available")]) from None
    return grey


# ---------------------------------------------------------------- the search

def find_grid(source, *, min_confidence: float = MIN_CONFIDENCE) -> GridProposal:
    """Find the hex grid printed on a scan (a path, a PIL image or an array); see the module's docstring."""
    t0 = time.perf_counter()
    grey = load_grey(source)
    h, w = grey.shape
    prop = _search(grey)
    # light lines on a dark map, or a tile board's light gaps between dark tiles: the same search on the negative;
    # then both again with every likely lattice also placed from the lines at full resolution (lines as wide as
    # the fold's top-hat, thin lines round large hexes, a tile board's gaps); the surest of them is kept. A first
    # search proposed with some doubt (under SURE_FIRST) has the negative searched too: a tile board's dark tiles
    # can line up into a coarser grid of wide 'lines' (a pointy board of 19 px hexes read as flat 67 px ones at
    # 0.80) that its light gaps show surely wrong
    for invert, refine in ((True, False), (False, True), (True, True)):
        sure = max(SURE_FIRST, min_confidence) if not refine else min_confidence
        if (prop.found and prop.confidence >= sure) or not prop.details.get("searched"):
            break
        other = _search(grey, invert=invert, refine=refine)
        if other.found and (not prop.found or other.confidence > prop.confidence):
            prop = other
    prop.image_size = (w, h)
    if prop.found and prop.confidence < min_confidence:
        prop = GridProposal(False, reason=_doubt(prop, min_confidence), confidence=prop.confidence,
                            image_size=(w, h), details=prop.details)
    prop.seconds = time.perf_counter() - t0
    return prop


def _search(grey: np.ndarray, invert: bool = False, refine: bool = False) -> GridProposal:
    """The search on ``grey``'s dark lines (``invert``: on its light ones; ``refine``: each lattice also placed
    from the lines at full resolution)."""
    prop = _search_lines(grey, invert, refine)
    prop.details["searched"] = True
    if invert:
        prop.details["light_lines"] = True
    return prop


def _search_lines(grey: np.ndarray, invert: bool, refine: bool = False) -> GridProposal:
    h, w = grey.shape
    if min(h, w) < 64:
        return GridProposal(False, reason=f"the image is too small ({w} x {h} pixels) to hold a hex grid")
    if float(grey[::7, ::7].std()) < 1.0:
        return GridProposal(False, reason="the image is blank: no hex lines")
    # the lattice is looked for at two scales: the middle of the scan averaged down (large hexes, and a wide view
    # over labels and terrain), and a smaller middle at full resolution (small hexes, and thin lines that
    # averaging down would blur into the paper or alias into a moire)
    levels = []
    for region, side in ((COARSE_REGION, COARSE_SIDE), (FINE_REGION, FINE_REGION)):
        coarse, f, origin = _coarse(grey, region, side)
        if invert:
            coarse = 255.0 - coarse
        if levels and f == levels[0][1]:
            continue
        levels.append((coarse, f, origin))
    # marks thinner than 5 pixels, capped at their 90th percentile; on the second look also up to 7 (4-6 px lines,
    # softened, fill a 5-pixel top-hat), and capped at the 99.5th (1 px lines round large hexes are under 1 % of
    # the pixels: capped at the 90th, they count no more than the paper's grain)
    size = 7 if refine else 5
    lattices = []
    for coarse, f, _origin in levels:
        lattices += _lattices(coarse, f, size)
        if refine:
            lattices += _lattices(coarse, f, 5, cap=99.5)
    if not lattices:
        return GridProposal(False, reason="no hex lines found: the image shows no regular hexagonal pattern")
    img = _Sampler(grey, invert)
    folds = [_Fold(_thin_dark(coarse, size), f, origin) for coarse, f, origin in levels]
    tried = []
    for lat in lattices:
        for A in _related(lat["A"]):
            # the second look places every lattice from the lines itself, so a poor fold does not drop it
            tried += _placements(folds, A, floor=-1e9 if refine else 0.5)
    tried.sort(key=lambda c: -c["score"])
    # one candidate a lattice and fold (the folds of the two scales can place one lattice differently)
    distinct = []
    for c in tried:
        if not any(_same_lattice(c, o) and c["fold"] == o["fold"] for o in distinct):
            distinct.append(c)
    if not distinct:
        return GridProposal(False, reason="no hex lines found: a regular pattern shows, but no hex edges lie along it",
                            details={"candidates": len(tried)})
    # each of the likeliest lattices is fitted to the printed lines near the middle; the one whose edges sit on
    # the lines best wins and is then fitted across the whole scan
    local = []
    for c in distinct[:LOCAL_FITS * (2 if refine else 1)]:
        fit = _local_fit(img, c, refine)
        if fit is not None:
            local.append((fit[2], c, fit))
    if not local:
        return GridProposal(False, reason="the hex lines found could not be followed across the scan (too faint or broken)")
    local.sort(key=lambda x: -x[0])
    # a grid twice (or sqrt 3 times) the printed one's size has half its edges on printed lines, and can win
    # when the printed one was placed badly: the finer lattices inside the winner are tried too, and a finer one
    # whose edges sit on lines as well wins
    for _ in range(2):
        best_share, best, (M0, t0, _) = local[0]
        finer = []
        for A in _finer(M0, best["orientation"]):
            for c in _placements(folds, A, floor=-1e9):
                fit = _local_fit(img, c, refine)
                if fit is not None and fit[2] >= 0.8 * best_share and c["hex_px"] >= HEX_PX_RANGE[0] * 0.9:
                    finer.append((fit[2], c, fit))
        if not finer:
            break
        finer.sort(key=lambda x: -x[0])
        local = [finer[0]] + [x for x in local if x[1]["hex_px"] < 0.9 * best["hex_px"]]
    best_share, best, (M0, t0, _) = local[0]
    # the next likeliest grid: another size or orientation (the same lattice placed by the other fold, or fitted
    # from another start, is the same grid)
    def fitted_px(x):
        return math.sqrt(abs(np.linalg.det(x[2][0]))) * SQRT3

    others = [x for x in local[1:] if x[1]["orientation"] != best["orientation"]
              or abs(fitted_px(x) / fitted_px(local[0]) - 1) > 0.03]
    runner_up = others[0][0] if others else 0.0
    # how clearly it beats the next likeliest grid: by its edges on the lines near the middle, or by the
    # marks folded onto its cell
    fold_runner = max((c["score"] for c in distinct if not _same_lattice(c, best)), default=0.0)
    margin = max(best_share / max(runner_up, 0.1), best["score"] / max(fold_runner, 0.1))
    details = {"score": round(best["score"], 3), "runner_up": round(runner_up, 3), "margin": round(margin, 3)}
    # a coarser grid whose hex centres all lie on the winner's (twice its size, or turned and larger) has some
    # of its edges on the winner's lines; when the winner's own edges are found across the scan (checked in
    # _finish), the lines its extra edges find are printed, and that coarser grid is no rival
    rivals = [x for x in others if not _coarser_on(x[2][0], x[1]["orientation"], M0, best["orientation"])]
    details["margin_finest"] = round(max(best_share / max(rivals[0][0] if rivals else 0.0, 0.1),
                                         best["score"] / max(fold_runner, 0.1)), 3)
    if others:
        details["runner_up_px"] = round(fitted_px(others[0]), 1)
        details["runner_up_orientation"] = others[0][1]["orientation"]
    return _finish(img, M0, t0, best["orientation"], margin, details)


def _coarser_on(Mc, orient_c: str, M: np.ndarray, orient: str) -> bool:
    """Whether the lattice of ``Mc`` is a coarser one whose hex centres lie on those of ``M``'s (its neighbour
    steps whole steps of ``M``'s, to a tenth of a step)."""
    lay, lay_c = Layout(orient), Layout(orient_c)
    P = M @ np.column_stack([lay.axial_to_point(1, 0), lay.axial_to_point(0, 1)])
    Pc = Mc @ np.column_stack([lay_c.axial_to_point(1, 0), lay_c.axial_to_point(0, 1)])
    if abs(np.linalg.det(Pc)) < 1.5 * abs(np.linalg.det(P)):
        return False
    steps = np.linalg.solve(P, Pc)
    return bool(np.abs(steps - np.round(steps)).max() < 0.1)


def _local_fit(img: "_Sampler", c: dict, refine: bool = False):
    """A placed lattice fitted to the lines near the middle, from the fold's offset (``refine``: and from the offset
    whose edges sit darkest at full resolution; the fit whose edges sit on the lines better); None: no lines."""
    fits = [_fit(img, c["M"], c["t"], c["orientation"], whole=False)]
    if refine:
        t, _ = _best_offset(img, c["M"], c["t"], c["orientation"])
        fits.append(_fit(img, c["M"], t, c["orientation"], whole=False))
    fits = [f for f in fits if f is not None]
    return max(fits, key=lambda f: f[2]) if fits else None


def _finish(img: "_Sampler", M0, t0, orient: str, margin: float, details: dict, centre=None,
            reach: float | None = None) -> GridProposal:
    """Fit a placed lattice across the whole scan, check it, and make the proposal (found, with its confidence)."""
    h, w = img.shape
    fit = _fit(img, M0, t0, orient, centre=centre, reach=reach)
    if fit is None:
        return GridProposal(False, reason="the hex lines found could not be followed across the scan (too faint or broken)",
                            details=details)
    M, t, stats = fit
    if details.get("from_clicks"):
        stats["whole_needed"] = 4.0        # the person showed where the hexes are: a few whole ones suffice
    # hex (0, 0) on the centre nearest the middle of the found lines
    lay = Layout(orient)
    ex = stats["extent"]
    mid = np.array([(ex[0] + ex[2]) / 2, (ex[1] + ex[3]) / 2])
    x, y = np.linalg.solve(M, mid - t)
    hq = lay.pixel_to_hex(float(x), float(y))
    t = t + M @ np.array(lay.hex_to_pixel(hq))
    whole = _whole_hexes(img, M, t, orient)
    stats["whole_hexes"] = len(whole)
    if whole:
        corners = np.array([lay.corner_offset(i) for i in range(6)])
        cs = np.array([lay.hex_to_pixel(Hex(q, r)) for q, r in whole])
        allc = (cs[:, None, :] + corners[None, :, :]).reshape(-1, 2) @ M.T + t
        ex = (float(allc[:, 0].min()), float(allc[:, 1].min()), float(allc[:, 0].max()), float(allc[:, 1].max()))
    if (whole and stats.get("confirmed", 0.0) < STRONG_CONFIRMED and details.get("margin_finest", 0.0) > margin):
        # the edges found where the grid is printed (the hexes found whole and those among them), not over the paper
        # round it: a board of a few hexes on a small scan has a margin, a title and a frame in every region checked
        # (a tile board of 9 columns on 375 x 237 px: 93 % of its edges found on the board, 12 % round it, 70 % in all)
        cpx = cs @ M.T + t
        box = (float(cpx[:, 0].min()), float(cpx[:, 1].min()), float(cpx[:, 0].max()), float(cpx[:, 1].max()))
        stats["confirmed_printed"] = round(_confirmed_within(img, M, t, orient, box), 4)
    # the search works in array indices (a pixel's centre is its index); the map format counts from the
    # pixels' corners, as the map view and the project's map art do (a pixel's centre is at index + 0.5)
    t = t + 0.5
    ex = tuple(v + 0.5 for v in ex)
    transform = Affine(float(M[0, 0]), float(M[0, 1]), float(t[0]), float(M[1, 0]), float(M[1, 1]), float(t[1]))
    row1, row2 = np.hypot(*M[0]), np.hypot(*M[1])
    # M = diag(1, 1 + stretch) * turn * scale: the first row is scale * (cos, sin)
    rotation = math.degrees(math.atan2(M[0, 1], M[0, 0]))
    stretch = row2 / row1 - 1.0
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    if max(stats.get("confirmed", 0.0), stats.get("confirmed_printed", 0.0)) >= STRONG_CONFIRMED \
            and "margin_finest" in details:
        margin = max(margin, details["margin_finest"])
        details = {**details, "margin": round(margin, 3)}
    stats["hex_px"] = hex_px                  # the lines' width is judged against the hex's side
    conf = _confidence(stats, margin)
    details = {**details, **{k: v for k, v in stats.items() if k != "extent"}}
    details["whole_hexes"] = len(whole)
    details["hex_px"] = round(math.sqrt(abs(np.linalg.det(M))) * SQRT3, 2)
    details["orientation"] = orient
    if not whole:
        conf = 0.0
    prop = GridProposal(True, orientation=orient, transform=transform, hex_px=hex_px, rotation=rotation,
                        stretch=stretch, confidence=conf, extent=tuple(float(v) for v in ex), details=details,
                        whole=tuple(whole), image_size=(w, h))
    if whole:
        # lattice hex (0, 0) on the found sheet's first hex (the first column's top hex), as a map file has it
        fs = found_sheet(prop)
        q0, r0 = fs.origin
        prop.transform = fs.transform
        prop.whole = tuple((q - q0, r - r0) for q, r in whole)
    return prop


def _whole_hexes(img: "_Sampler", M, t, orient) -> list[tuple[int, int]]:
    """Hexes printed whole: inside the image, and a line found along (nearly) every one of their six edges."""
    h, w = img.shape
    lay = Layout(orient)
    Mi = np.linalg.inv(M)
    qs, rs = [], []
    for u, v in ((0, 0), (w, 0), (0, h), (w, h)):
        q, r = lay.point_to_axial(*(Mi @ (np.array([u, v], float) - t)))
        qs.append(q)
        rs.append(r)
    qa, qb = int(math.floor(min(qs))) - 1, int(math.ceil(max(qs))) + 1
    ra, rb = int(math.floor(min(rs))) - 1, int(math.ceil(max(rs))) + 1
    span = qb - qa
    Q, R = np.meshgrid(np.arange(qa, qb + 1), np.arange(ra - span, rb + span + 1), indexing="ij")
    Q, R = Q.ravel(), R.ravel()
    if orient == FLAT:
        cx, cy = 1.5 * Q, SQRT3 * (R + Q / 2.0)
    else:
        cx, cy = SQRT3 * (Q + R / 2.0), 1.5 * R
    corners = np.array([lay.corner_offset(i) for i in range(6)])
    cen = np.column_stack([cx, cy])
    cpix = (cen[:, None, :] + corners[None, :, :]) @ M.T + t            # (n, 6, 2)
    inside = ((cpix[..., 0] >= 2) & (cpix[..., 0] <= w - 3) & (cpix[..., 1] >= 2) & (cpix[..., 1] <= h - 3)).all(axis=1)
    Q, R, cen = Q[inside], R[inside], cen[inside]
    if len(Q) == 0:
        return []
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    along = (0.3, 0.5, 0.7) if len(Q) < 30000 else (0.5,)
    window = max(2.5, min(0.12 * hex_px, 6.0))
    hits = np.zeros((len(Q), 6))
    for i in range(6):
        a, b = corners[i], corners[(i + 1) % 6]
        nrm = Mi.T @ np.array([(b - a)[1], -(b - a)[0]])
        nrm = nrm / np.hypot(*nrm)
        for lam in along:
            p = (cen + a + lam * (b - a)) @ M.T + t
            delta, _ = _line_offsets(img, p, np.repeat(nrm[None, :], len(p), 0), window)
            hits[:, i] += np.isfinite(delta) & (np.abs(np.nan_to_num(delta, nan=99.0)) <= 1.5)
    edges_found = (hits >= max(1, len(along) - 1)).sum(axis=1)
    keep = edges_found >= 5
    return [(int(q), int(r)) for q, r in zip(Q[keep], R[keep])]


def _doubt(prop: GridProposal, min_confidence: float) -> str:
    """Why a grid that was fitted is not proposed, in words: what was seen, from its weakest check."""
    d = prop.details
    px = d.get("hex_px", prop.hex_px)
    kind = f"{d.get('orientation', prop.orientation)}-top hexes {px:.0f} px apart"
    sure = f"(confidence {prop.confidence:.2f} below {min_confidence:.2f})"
    parts = _confidence_parts(d, d.get("margin", 0.0))
    weakest = min(parts, key=parts.get)
    if weakest == "margin" and d.get("runner_up_px"):
        a, b = sorted([px, d["runner_up_px"]])
        return (f"hex lines found, but the spacing is ambiguous between {a:.0f} and {b:.0f} px {sure}: "
                "click the centres of two neighbouring hexes to decide")
    if d.get("confirmed", 0) < 0.2:
        return (f"no hex grid lies along the lines seen (the likeliest, {kind}, finds a line along "
                f"{d.get('confirmed', 0):.0%} of its edges) {sure}; the hex lines may be too faint or hidden: "
                "click the centres of two neighbouring hexes")
    if weakest == "confirmed":
        return (f"{kind} fit some of the lines, but only {d.get('confirmed', 0):.0%} of their edges find a line "
                f"{sure}; the lines may be too faint, broken or hidden: click the centres of two neighbouring hexes")
    if weakest == "line_width":
        return (f"{kind} were seen, but their 'lines' are {d.get('line_px', 0):.0f} px wide, "
                f"{_line_share(d):.0%} of a hex side: more likely the fill of smaller hexes than printed lines "
                f"{sure}; click the centres of two neighbouring hexes")
    if weakest == "region_err":
        return (f"{kind} fit the lines near the middle but drift off them elsewhere (by {d.get('region_err', 0):.1f} "
                f"px) {sure}: click the centres of two neighbouring hexes")
    if weakest in ("edges_used", "whole_hexes"):
        return (f"{kind} were seen, but too few of them are printed whole ({d.get('whole_hexes', 0)}) to be sure "
                f"{sure}: click the centres of two neighbouring hexes")
    return (f"{kind} were seen, but their lines are too faint against the picture {sure}: click the centres of "
            "two neighbouring hexes")


def _confidence_parts(stats: dict, margin: float) -> dict:
    return {
        "confirmed": min(1.0, max(0.0, (stats.get("confirmed", 0.0) - 0.35) / 0.15)),
        "region_err": min(1.0, max(0.0, (1.3 - stats.get("region_err", 99.0)) / 0.5)),
        "margin": min(1.0, max(0.0, (margin - 1.2) / 0.4)),
        "edges_used": min(1.0, stats.get("edges_used", 0) / 150.0),
        "edge_score": min(1.0, max(0.0, stats.get("edge_score", 0.0) / 0.3)),
        "whole_hexes": min(1.0, stats.get("whole_hexes", 0) / stats.get("whole_needed", 12.0)),
        "line_width": min(1.0, max(0.0, (WIDE_LINES[1] - _line_share(stats)) / (WIDE_LINES[1] - WIDE_LINES[0]))),
    }


def _line_share(stats: dict) -> float:
    """The lines' measured width as a share of the hex side (0 when not measured)."""
    px, line = stats.get("hex_px"), stats.get("line_px")
    return float(line) / (float(px) / SQRT3) if px and line else 0.0


def find_grid_from_clicks(source, a, b, *, min_confidence: float = MIN_CONFIDENCE) -> GridProposal:
    """The grid through two clicked points, the centres of two neighbouring hexes (image points in the map
    format's terms), fitted to the printed lines across the scan.

    What a refused search asks for: the clicks decide the size, turn, orientation and offset that the search
    could not be sure of; the fit and its checks are the search's own (a fit that finds no lines is still
    refused, with the reason)."""
    t0 = time.perf_counter()
    grey = load_grey(source)
    h, w = grey.shape
    p, q = np.asarray(a, float) - 0.5, np.asarray(b, float) - 0.5
    v = q - p
    if math.hypot(*v) < HEX_PX_RANGE[0] * 0.5:
        return GridProposal(False, reason=f"the two points are {math.hypot(*v):.0f} px apart: click the centres of "
                                          "two neighbouring hexes", image_size=(w, h))
    c, s_ = math.cos(math.radians(60)), math.sin(math.radians(60))
    A = np.column_stack([v, [c * v[0] - s_ * v[1], s_ * v[0] + c * v[1]]])
    orient, M = _orient(A)
    best = None
    for invert in (False, True):
        # the fit starts from the two hexes clicked (a click a pixel or two off a small hex's centre is a turn or
        # a scale a few per cent off: right there, wrong five hexes away) and spreads from them
        prop = _finish(_Sampler(grey, invert), M, p.copy(), orient, 2.0, {"from_clicks": True, "light_lines": invert},
                       centre=(p + q) / 2, reach=2.5 * math.hypot(*v))
        if prop.found and (best is None or not best.found or prop.confidence > best.confidence):
            best = prop
        elif best is None:
            best = prop
    prop = best
    prop.image_size = (w, h)
    if prop.found and prop.confidence < min_confidence:
        prop = GridProposal(False, reason="no grid through the two points fits the printed lines: "
                                          + _doubt(prop, min_confidence).split(":")[0],
                            confidence=prop.confidence, image_size=(w, h), details=prop.details)
    prop.seconds = time.perf_counter() - t0
    return prop


def _confidence(stats: dict, margin: float) -> float:
    """0-1: how surely the fit is the printed grid.  Every factor must be good; the weakest decides: the
    predicted edges that found their line, the worst regions' shift off the fit (pixels), the margin over the
    next likeliest grid, the edges in the regions where lines are, how much darker the edges are than beside
    them, and the hexes printed whole with all their edges."""
    return float(min(_confidence_parts(stats, margin).values()))


__all__ = ["GridProposal", "find_grid", "find_grid_from_clicks", "load_grey", "NoImage", "MIN_CONFIDENCE", "GRID_MAX_PIXELS"]
