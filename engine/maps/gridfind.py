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

from engine.errors import BadFile, Problem, excerpt
from engine.maps.board import Affine
from engine.maps.hexes import FLAT, POINTY, SQRT3, Hex, Layout

GRID_MAX_PIXELS = 300_000_000     # a 22 x 34 inch sheet scanned at 400 dpi is 120 megapixels
# The search's peak memory, measured: about 3.15 bytes a pixel on the brightness it works on (a JPEG decodes its
# brightness alone), and 1.5 more for each band of a colour image decoded whole first (a 70-megapixel RGB PNG
# peaked at 532 MB, a 120-megapixel one at 880 MB, a 298-megapixel JPEG at 937 MB).  An image that would need
# more than the budget is refused before it is decoded, so a search stays under 1 GB.
MEMORY_BUDGET = 950_000_000
SEARCH_BYTES_PER_PIXEL = 3.15
DECODE_BYTES_PER_BAND = 1.5
COARSE_REGION = 4096              # the middle of the scan looked at for the coarse lattice, full-resolution pixels
COARSE_SIDE = 1024                # ... averaged down to at most this many pixels a side
HEX_PX_RANGE = (16.0, 400.0)      # centre-to-centre distances looked for, full-resolution pixels
FINE_REGION = 1024                # ... and the middle at full resolution, for small hexes and thin lines
LOCAL_FITS = 8                    # the likeliest lattices fitted near the middle to choose among them
MIN_CONFIDENCE = 0.6              # below this the grid is not proposed


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


# ---------------------------------------------------------------- numbering the found grid

@dataclass(frozen=True)
class FoundSheet:
    """The found grid as a sheet: its hexes printed whole, numbered from the top-left one.

    ``origin``: lattice hex (in the proposal's lattice) of the first column's top hex;
    ``first_shifted``: whether the first column (flat) or row (pointy) sits half a
    hex down (right) of the next; ``cols``/``rows``: how many; ``transform``: the
    proposal's transform moved so that ``origin`` is lattice hex ``(0, 0)``.
    """

    orientation: str
    origin: tuple[int, int]
    first_shifted: bool
    cols: int
    rows: int
    transform: Affine
    hexes: tuple = ()             # the whole hexes kept, relative to ``origin`` (which is (0, 0) here)


def found_sheet(prop: GridProposal) -> FoundSheet:
    """The found grid's whole hexes as a rectangle of columns and rows, numbered from its top-left hex.

    Flat hexes: the top whole hex of the leftmost column is the first column's top
    hex; pointy: the leftmost whole hex of the top row.  Whole hexes above (left
    of) that rectangle's top row (first column) are left out.
    """
    if not prop.found:
        raise ValueError("no grid was found")
    from engine.maps.hexes import Hex
    from engine.maps.numbering import NumberingScheme

    hexes = [Hex(q, r) for q, r in prop.whole]
    if not hexes:
        raise ValueError("no hex of the found grid is printed whole on the image")
    lay = Layout(prop.orientation)
    flat = prop.orientation == FLAT
    # flat: columns are q, rows run down (y); pointy: rows are r, columns run right (x)
    across = [hx.q if flat else hx.r for hx in hexes]
    down = np.array([lay.hex_to_pixel(hx)[1 if flat else 0] for hx in hexes])
    step = SQRT3                                     # centre to centre along a column (flat) / row (pointy)
    across = np.array(across)
    # a hex at the frame found whole by a hair's breadth must not start a line of its own: lines at the edges
    # with few whole hexes (under a third of the usual) are left out
    for _ in range(2):
        low = float(down.min())
        index = np.floor((down - low) / step + 1e-6).astype(int)
        keep = np.ones(len(hexes), bool)
        for key in (across, index):
            values, counts = np.unique(key, return_counts=True)
            enough = counts >= max(1, 0.3 * float(np.median(counts)))
            lo, hi = values[np.argmax(enough)], values[len(enough) - 1 - np.argmax(enough[::-1])]
            keep &= (key >= lo) & (key <= hi)
        hexes = [hx for hx, k in zip(hexes, keep) if k]
        across, down = across[keep], down[keep]
    low = float(down.min())
    first = int(across.min())
    index = np.floor((down - low) / step + 1e-6).astype(int)
    # the first line's first hex: the one of that column (row) within a step of the lowest centre
    if flat:
        r0 = math.ceil((low - 1e-6) / SQRT3 - first / 2.0)
        h0 = Hex(first, r0)
        shifted = lay.hex_to_pixel(h0)[1] > low + 1e-6
    else:
        q0 = math.ceil((low - 1e-6) / SQRT3 - first / 2.0)
        h0 = Hex(q0, first)
        shifted = lay.hex_to_pixel(h0)[0] > low + 1e-6
    cols = int(across.max()) - first + 1
    rows = int(index.max()) + 1
    if not flat:
        cols, rows = rows, cols
    T = prop.transform
    cx, cy = lay.hex_to_pixel(h0)
    moved = Affine(T.a, T.b, T.a * cx + T.b * cy + T.c, T.d, T.e, T.d * cx + T.e * cy + T.f)
    kept = tuple((hx.q - h0.q, hx.r - h0.r) for hx in hexes)
    return FoundSheet(prop.orientation, (h0.q, h0.r), bool(shifted), int(cols), int(rows), moved, kept)


_TCS_ID = __import__("re").compile(r"^([A-Za-z]+)(\d{1,3})\.(\d{1,3})$")
_CLASSIC_ID = __import__("re").compile(r"^(\d{2})(\d{2})$")


def parse_origin_id(text: str) -> tuple[str, str, int, int]:
    """A printed id for the top-left hex: ``(numbering, sheet letter, column, row)``.

    ``"0101"`` (classic: two digits of column, two of row) or ``"A01.01"`` (TCS);
    ValueError says what was expected.
    """
    t = text.strip()
    m = _TCS_ID.match(t)
    if m:
        return "tcs", m.group(1), int(m.group(2)), int(m.group(3))
    m = _CLASSIC_ID.match(t)
    if m:
        return "classic", "A", int(m.group(1)), int(m.group(2))
    raise ValueError(f"{excerpt(text)} is not a hex id: expected four digits like 0101 (column 01, row 01) "
                     "or a TCS id like A01.01")


def grid_board(prop: GridProposal, image: str, *, origin_id: str = "0101", shifted: str | None = None,
               name: str = "Untitled"):
    """A new map (a Board of one sheet) for a scan from its found grid; the found sheet's first hex (the first
    column's top hex) is ``origin_id`` (``shifted`` as in :func:`sheet_numbering`).

    Every hex is clear, as a new map in the map editor; ``image`` is the sheet's
    image as the map file will name it.  BadHexId or ValueError for a bad id.
    """
    from engine.maps.mapedit import SheetSpec, new_board
    from engine.maps.numbering import NumberingScheme

    style, letter, _col, _row = parse_origin_id(origin_id)
    numbering = NumberingScheme(style=style, sheet=letter, orientation=prop.orientation, col_digits=2, row_digits=2)
    ns, anchor = sheet_numbering(prop, numbering, origin_id, shifted)
    if style == "classic" and (ns.first_col + ns.cols > 100 or ns.first_row + ns.rows > 100):
        raise ValueError(f"{ns.cols} columns and {ns.rows} rows from {origin_id} need more than two digits each: "
                         "give a TCS id like A01.01")
    spec = SheetSpec(id=letter, image=image, cols=ns.cols, rows=ns.rows, numbering=style, first_col=ns.first_col,
                     first_row=ns.first_row, shifted=ns.shifted, origin=(0, 0))
    board = new_board(name, prop.orientation, [spec])
    T = prop.transform
    cx, cy = Layout(prop.orientation).hex_to_pixel(Hex(*anchor))
    board.sheets[0].transform = Affine(T.a, T.b, T.a * cx + T.b * cy + T.c, T.d, T.e, T.d * cx + T.e * cy + T.f)
    return board


def sheet_numbering(prop: GridProposal, numbering, top_left_id: str, shifted: str | None = None):
    """A sheet's numbering resized to the found grid, the found sheet's first hex being ``top_left_id``.

    ``numbering`` (a NumberingScheme) gives the style, sheet letter, digits, row
    direction and lattice origin to keep.  ``shifted`` (``"even"``/``"odd"``):
    which printed columns (flat) or rows (pointy) sit half a hex down (right),
    as printed on the map; None takes the found sheet's first column (row) as
    the first one, shifted if it sits lower (further right) than the next.  The
    orientation, columns, rows and first numbers come from the found grid's
    whole hexes.  Returns the numbering and the found lattice's hex that is the
    numbering's first column and top row (hex ``(0, 0)`` of the proposal being
    the found sheet's first hex).  Raises BadHexId for an id the numbering
    cannot read, ValueError when columns or rows would number below 0.
    """
    import dataclasses

    from engine.errors import BadHexId

    fs = found_sheet(prop)
    flat = fs.orientation == FLAT
    probe = dataclasses.replace(numbering, first_col=0, first_row=0, cols=999, rows=999, origin=(0, 0),
                                orientation=fs.orientation, row_direction="down")
    text = top_left_id.strip()
    try:
        col, row = probe.hex_to_colrow(probe.parse(text))
    except BadHexId as e:
        raise BadHexId(f"{excerpt(text)} is not a hex id of sheet {numbering.sheet} ({e})") from None
    if shifted is None:
        lead = col if flat else row
        shifted = "even" if (lead % 2 == 0) == fs.first_shifted else "odd"
    big = 999
    up = numbering.row_direction == "up"
    # the found sheet's first hex is lattice hex (0, 0) and bears the typed column and row
    ns0 = dataclasses.replace(numbering, orientation=fs.orientation, first_col=col, cols=big, rows=big,
                              first_row=row - (big - 1) if up else row, shifted=shifted, origin=(0, 0))
    colrows = [ns0.hex_to_colrow(Hex(q, r)) for q, r in fs.hexes]
    cmin, cmax = min(c for c, _ in colrows), max(c for c, _ in colrows)
    rmin, rmax = min(r for _, r in colrows), max(r for _, r in colrows)
    if cmin < 0 or rmin < 0:
        raise ValueError(f"with {text} on the highlighted hex, the sheet's {'columns' if cmin < 0 else 'rows'} "
                         "would be numbered below 0")
    ns = dataclasses.replace(numbering, orientation=fs.orientation, first_col=cmin, first_row=rmin,
                             cols=cmax - cmin + 1, rows=rmax - rmin + 1, shifted=shifted)
    anchor = ns0.colrow_to_hex(cmin, rmax if up else rmin)
    return ns, (anchor.q, anchor.r)


def grid_clicks(prop: GridProposal, numbering, anchor: tuple[int, int] = (0, 0),
                count: int = 5) -> list[tuple[str, tuple[float, float]]]:
    """Calibration points from a found grid, for a numbering and anchor made by :func:`sheet_numbering`: the ids
    and image centres of whole hexes at the sheet's four corners and its middle, as if clicked."""
    lay = Layout(prop.orientation)
    top = numbering.colrow_to_hex(numbering.first_col, numbering.top_row)
    pts = []
    for q, r in prop.whole:
        h = Hex(q - anchor[0] + top.q, r - anchor[1] + top.r)
        if numbering.contains(h):
            pts.append((numbering.format(h), prop.transform.apply(*lay.hex_to_pixel(Hex(q, r)))))
    if len(pts) < 3:
        return pts
    uv = np.array([p[1] for p in pts])
    mid = uv.mean(axis=0)
    picks = [int(np.argmin(uv[:, 0] + uv[:, 1])), int(np.argmax(uv[:, 0] - uv[:, 1])),
             int(np.argmax(uv[:, 0] + uv[:, 1])), int(np.argmin(uv[:, 0] - uv[:, 1])),
             int(np.argmin(np.hypot(*(uv - mid).T)))]
    out = []
    for i in picks[:count]:
        if pts[i] not in out:
            out.append(pts[i])
    return [(hid, (round(float(u), 3), round(float(v), 3))) for hid, (u, v) in out]


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
    if not (prop.found and prop.confidence >= min_confidence) and prop.details.get("searched"):
        # light lines on a dark map, or a tile board's light gaps between dark tiles: the same search on the
        # negative; the surer of the two is kept
        other = _search(grey, invert=True)
        if other.found and (not prop.found or other.confidence > prop.confidence):
            prop = other
    prop.image_size = (w, h)
    if prop.found and prop.confidence < min_confidence:
        prop = GridProposal(False, reason=_doubt(prop, min_confidence), confidence=prop.confidence,
                            image_size=(w, h), details=prop.details)
    prop.seconds = time.perf_counter() - t0
    return prop


def _search(grey: np.ndarray, invert: bool = False) -> GridProposal:
    """The search on ``grey``'s dark lines (``invert``: on its light ones)."""
    prop = _search_lines(grey, invert)
    prop.details["searched"] = True
    if invert:
        prop.details["light_lines"] = True
    return prop


def _search_lines(grey: np.ndarray, invert: bool) -> GridProposal:
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
    lattices = []
    for coarse, f, _origin in levels:
        lattices += _lattices(coarse, f)
    if not lattices:
        return GridProposal(False, reason="no hex lines found: the image shows no regular hexagonal pattern")
    img = _Sampler(grey, invert)
    folds = [_Fold(_thin_dark(coarse), f, origin) for coarse, f, origin in levels]
    tried = []
    for lat in lattices:
        for A in _related(lat["A"]):
            tried += _placements(folds, A)
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
    for c in distinct[:LOCAL_FITS]:
        fit = _fit(img, c["M"], c["t"], c["orientation"], whole=False)
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
                fit = _fit(img, c["M"], c["t"], c["orientation"], whole=False)
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
    if others:
        details["runner_up_px"] = round(fitted_px(others[0]), 1)
        details["runner_up_orientation"] = others[0][1]["orientation"]
    return _finish(img, M0, t0, best["orientation"], margin, details)


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
    }


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


# ---------------------------------------------------------------- coarse lattice

def _coarse(grey: np.ndarray, region: int = COARSE_REGION, side: int = COARSE_SIDE):
    """The middle of the scan (up to ``region`` pixels square), averaged down to at most ``side`` pixels a side;
    returns (array, factor, (x0, y0) of the region)."""
    h, w = grey.shape
    rw, rh = min(w, region), min(h, region)
    f = max(1, math.ceil(max(rw, rh) / side))
    rw, rh = rw // f * f, rh // f * f
    x0, y0 = (w - rw) // 2, (h - rh) // 2
    region = grey[y0:y0 + rh, x0:x0 + rw]
    small = region.reshape(rh // f, f, rw // f, f).sum(axis=(1, 3), dtype=np.uint32).astype(np.float32) / (f * f)
    return small, f, (x0, y0)


def _filter(a: np.ndarray, size: int, fn) -> np.ndarray:
    """A separable square max or min filter (``fn`` = np.maximum or np.minimum) of odd ``size``."""
    r = size // 2
    out = a.copy()
    for axis in (0, 1):
        src = out
        acc = src.copy()
        n = src.shape[axis]
        for d in range(1, r + 1):
            lo = [slice(None)] * 2
            hi = [slice(None)] * 2
            lo[axis], hi[axis] = slice(0, n - d), slice(d, n)
            acc[tuple(lo)] = fn(acc[tuple(lo)], src[tuple(hi)])
            acc[tuple(hi)] = fn(acc[tuple(hi)], src[tuple(lo)])
        out = acc
    return out


def _thin_dark(coarse: np.ndarray, size: int = 5, cap: float = 90.0) -> np.ndarray:
    """Dark marks thinner than ``size`` pixels (lines, text, dots): the black top-hat, closing minus image.

    Capped at its ``cap`` percentile, so that a few very dark marks (tree symbols, text) count no more than
    the faint but long hex lines."""
    closed = _filter(_filter(coarse, size, np.maximum), size, np.minimum)
    marks = closed - coarse
    top = float(np.percentile(marks[::3, ::3], cap))
    return np.minimum(marks, max(top, 1e-6))


def _lattices(coarse: np.ndarray, f: int) -> list[dict]:
    """Candidate hex lattices from the autocorrelation of the scan's thin dark marks, most likely first.

    Each is ``{"A": 2 x 2 (columns: two neighbour steps, full-resolution pixels), "strength": ...}``.
    """
    h, w = coarse.shape
    x = _thin_dark(coarse)
    x = x - x.mean()
    win = np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)
    ph, pw = _fast_size(h + h // 2), _fast_size(w + w // 2)     # padded: shifts up to half the side do not wrap
    F = np.fft.rfft2(x * win, s=(ph, pw))
    ac = np.fft.irfft2(np.abs(F) ** 2, s=(ph, pw))
    ac = np.fft.fftshift(ac)
    cy, cx = ph // 2, pw // 2
    ac = ac / max(ac[cy, cx], 1e-9)
    # the window shrinks the overlap of long shifts: undo that with the window's own autocorrelation (separable)
    wy = _autocorr_1d(np.hanning(h), ph)
    wx = _autocorr_1d(np.hanning(w), pw)
    wac = np.outer(wy, wx)
    rmax = min(HEX_PX_RANGE[1] / f, 0.3 * min(h, w))
    rmin = max(HEX_PX_RANGE[0] / f, 3.0)
    R = int(math.ceil(rmax)) + 2
    sub = ac[cy - R:cy + R + 1, cx - R:cx + R + 1] / np.maximum(wac[cy - R:cy + R + 1, cx - R:cx + R + 1], 0.05)
    yy, xx = np.mgrid[-R:R + 1, -R:R + 1]
    rr = np.hypot(xx, yy)
    loc = np.ones_like(sub, dtype=bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                loc &= sub >= np.roll(np.roll(sub, dy, 0), dx, 1)
    half = (yy > 0) | ((yy == 0) & (xx > 0))
    cand = np.argwhere(loc & half & (rr >= rmin) & (rr <= rmax) & (sub > 0.02))
    if len(cand) == 0:
        return []
    vals = sub[cand[:, 0], cand[:, 1]]
    # a clean, computer-drawn grid has a peak of nearly the same height at every lattice vector in reach (hundreds
    # of them): the strongest sixty alone may all be long ones, so the shortest of the strong peaks are kept too
    strong_peaks = np.flatnonzero(vals >= 0.5 * vals.max())
    shortest = strong_peaks[np.argsort(rr[cand[strong_peaks, 0], cand[strong_peaks, 1]])[:40]]
    top = cand[np.unique(np.concatenate([np.argsort(-vals)[:60], shortest]))]
    peaks = []
    for iy, ix in top:
        py, px = _subpixel(sub, iy, ix)
        peaks.append((np.array([px - R, py - R]), float(sub[iy, ix])))

    def value(v):
        ix, iy = int(round(v[0])) + R, int(round(v[1])) + R
        if not (1 <= ix < 2 * R and 1 <= iy < 2 * R):
            return 0.0
        return float(sub[iy - 1:iy + 2, ix - 1:ix + 2].max())

    triples = []
    for i, (v1, s1) in enumerate(peaks):
        for v2, s2 in peaks:
            if v2 is v1:
                continue
            l1, l2 = np.hypot(*v1), np.hypot(*v2)
            if not 0.9 < l1 / l2 < 1.11:
                continue
            cross = v1[0] * v2[1] - v1[1] * v2[0]
            ang = math.degrees(math.atan2(abs(cross), float(v1 @ v2)))
            if abs(ang - 60.0) > 7.0 or cross <= 0:
                continue
            s3 = value(v2 - v1)
            strength = min(s1, s2, s3)
            if strength <= 0.02:
                continue
            triples.append({"A": np.column_stack([v1, v2]) * f, "strength": strength, "radius": (l1 + l2) / 2 * f})
    if not triples:
        return []
    best = max(t["strength"] for t in triples)
    strong = [t for t in triples if t["strength"] >= 0.6 * best]
    strong.sort(key=lambda t: t["radius"])
    out = []
    for t in strong + sorted(triples, key=lambda t: -t["strength"]):
        if not any(abs(t["radius"] / o["radius"] - 1) < 0.03 for o in out):
            out.append(t)
    return out[:4]


def _fast_size(n: int) -> int:
    """The smallest size at least ``n`` made of the factors 2, 3 and 5 (quick for the FFT)."""
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def _autocorr_1d(v: np.ndarray, size: int) -> np.ndarray:
    """A window's autocorrelation, centred in ``size`` samples and 1 at zero shift."""
    f = np.fft.rfft(v, size)
    a = np.fft.fftshift(np.fft.irfft(np.abs(f) ** 2, size))
    return a / a[size // 2]


def _subpixel(N, iy, ix):
    """A peak's position to a fraction of a bin (a parabola through each axis's three values)."""
    h, w = N.shape

    def para(a, b, c):
        den = a - 2 * b + c
        return 0.0 if abs(den) < 1e-12 else 0.5 * (a - c) / den
    dy = para(N[(iy - 1) % h, ix], N[iy, ix], N[(iy + 1) % h, ix])
    dx = para(N[iy, (ix - 1) % w], N[iy, ix], N[iy, (ix + 1) % w])
    return iy + max(-0.5, min(0.5, dy)), ix + max(-0.5, min(0.5, dx))


def _related(A: np.ndarray) -> list[np.ndarray]:
    """A lattice (columns: neighbour steps) and the lattices its hexagonal ring of peaks might also belong to:
    the grid a third of its area (its steps the ring's corners), and half its size; and the grids three and four
    times its area."""
    v1, v2 = A[:, 0], A[:, 1]
    return [A,
            np.column_stack([(v1 + v2) / 3, (2 * v2 - v1) / 3]),
            A / 2,
            np.column_stack([v1 + v2, 2 * v2 - v1]),
            A * 2]


def _finer(M: np.ndarray, orient: str) -> list[np.ndarray]:
    """The two lattices finer than a fitted one whose edges its edges could lie on: half its size, and a third
    of its area turned by 30 degrees (as columns of neighbour steps)."""
    lay = Layout(orient)
    Lq, Lr = np.array(lay.axial_to_point(1, 0)), np.array(lay.axial_to_point(0, 1))
    A = M @ np.column_stack([Lq, Lr])
    v1, v2 = A[:, 0], A[:, 1]
    return [A / 2, np.column_stack([(v1 + v2) / 3, (2 * v2 - v1) / 3])]


def _placements(folds: list, A: np.ndarray, floor: float = 0.5) -> list[dict]:
    """A lattice placed by each fold (its score over ``floor``), tagged with the fold's index."""
    out = []
    for i, fold in enumerate(folds):
        c = _place(fold, A)
        if c is not None and c["score"] > floor:
            c["fold"] = i
            out.append(c)
    return out


def _same_lattice(a: dict, b: dict) -> bool:
    return abs(a["hex_px"] / b["hex_px"] - 1) < 0.03 and a["orientation"] == b["orientation"]


# ---------------------------------------------------------------- placing a lattice

def _orient(A: np.ndarray):
    """Orientation and the matrix M (lattice plane -> pixels, no offset) of a lattice (columns: neighbour steps)."""
    a1, a2 = A[:, 0], A[:, 1]
    vecs = sorted([a1, a2, a1 - a2, a1 + a2], key=lambda v: np.hypot(*v))[:3]
    nbrs = vecs + [-v for v in vecs]
    angles = np.array([math.atan2(v[1], v[0]) for v in nbrs])
    # flat hexes have neighbours at 30, 90, 150 degrees (y down); pointy at 0, 60, 120
    off = math.degrees(np.angle(np.mean(np.exp(1j * angles * 6))) / 6)      # mean angle mod 60, in (-30, 30]
    orient = POINTY if abs(off) < 15 else FLAT
    lay = Layout(orient)
    if orient == FLAT:
        want_q, want_r = (math.cos(math.radians(30)), math.sin(math.radians(30))), (0.0, 1.0)
    else:
        want_q, want_r = (1.0, 0.0), (math.cos(math.radians(60)), math.sin(math.radians(60)))

    def nearest(d):
        return max(nbrs, key=lambda v: (v @ np.array(d)) / np.hypot(*v))
    Pq, Pr = nearest(want_q), nearest(want_r)
    Lq, Lr = lay.axial_to_point(1, 0), lay.axial_to_point(0, 1)
    L = np.array([[Lq[0], Lr[0]], [Lq[1], Lr[1]]])
    M = np.column_stack([Pq, Pr]) @ np.linalg.inv(L)
    return orient, M


def _place(fold: "_Fold", A: np.ndarray) -> dict | None:
    """The best offset of a candidate lattice (by folding the thin dark marks onto one cell), orientation, score."""
    if abs(np.linalg.det(A)) < 1e-9:
        return None
    orient, M = _orient(A)
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    if not HEX_PX_RANGE[0] * 0.9 <= hex_px <= HEX_PX_RANGE[1] * 1.1:
        return None
    score, t = fold.best_offset(M, orient)
    return {"score": score, "t": t, "M": M, "orientation": orient, "hex_px": hex_px}


class _Fold:
    """The coarse image's thin dark marks, folded onto one cell of a candidate lattice."""

    BINS = 32

    def __init__(self, marks: np.ndarray, f: int, origin):
        h, w = marks.shape
        step = 2 if h * w > 300_000 else 1
        ys, xs = np.mgrid[0:h:step, 0:w:step]
        self.vals = marks[::step, ::step].ravel().astype(np.float64)
        # coarse pixel centres in full-resolution pixels, about their mean
        x = (xs.ravel() * f + (f - 1) / 2.0 + origin[0]).astype(np.float64)
        y = (ys.ravel() * f + (f - 1) / 2.0 + origin[1]).astype(np.float64)
        self.base = np.array([x.mean(), y.mean()])
        self.x, self.y = x - self.base[0], y - self.base[1]
        self.f = f

    def best_offset(self, M: np.ndarray, orient: str):
        """The edge score and hex centre of the best offset: edges where the folded marks form a ridge."""
        lay = Layout(orient)
        Lq, Lr = np.array(lay.axial_to_point(1, 0)), np.array(lay.axial_to_point(0, 1))
        P = M @ np.column_stack([Lq, Lr])            # pixel steps of q and r
        hex_coarse = math.sqrt(abs(np.linalg.det(M))) * SQRT3 / self.f
        n = int(min(40, max(16, hex_coarse / 1.5)))
        base = self.base
        Pi = np.linalg.inv(P)
        fq = self.x * Pi[0, 0] + self.y * Pi[0, 1]
        fr = self.x * Pi[1, 0] + self.y * Pi[1, 1]
        iq = (np.floor(fq * n).astype(np.int64)) % n
        ir = (np.floor(fr * n).astype(np.int64)) % n
        idx = iq * n + ir
        sums = np.bincount(idx, weights=self.vals, minlength=n * n)
        counts = np.bincount(idx, minlength=n * n)
        C = (sums / np.maximum(counts, 1)).reshape(n, n)
        # labels printed in every hex fold into a blob far darker than the lines: cap it at the lines' level
        C = np.minimum(C, np.percentile(C, 85))
        spread = C.std()
        if spread < 1e-9:
            return 0.0, base
        # the ridge of each of the three edge directions: the folded marks on a line minus a little either side
        L = np.column_stack([Lq, Lr])
        Li = np.linalg.inv(L)
        corners = np.array([lay.corner_offset(i) for i in range(6)])
        delta = max(0.1, 1.6 * self.f / (math.sqrt(abs(np.linalg.det(M)))))   # lattice units, about 1.6 coarse pixels
        ridges = []
        for i in range(3):
            a, b = corners[i], corners[i + 1]
            nrm = np.array([(b - a)[1], -(b - a)[0]])
            nrm /= np.hypot(*nrm)
            v = Li @ (delta * nrm) * n                  # the step across the edge, in bins
            ridges.append(C - 0.5 * (_shifted(C, v) + _shifted(C, -v)))
        # hex (0, 0)'s edge points in bins of the cell; the score of every offset at once, by rolling
        stack = []
        for i in range(6):
            a, b = corners[i], corners[(i + 1) % 6]
            for lam in (0.1, 0.25, 0.4, 0.6, 0.75, 0.9):
                bi = np.rint(Li @ (a + lam * (b - a)) * n).astype(int)
                stack.append(np.roll(ridges[i % 3], (-bi[0], -bi[1]), axis=(0, 1)))
        # most of the edge must lie on a ridge, not a few points of it on something dark
        vals = np.percentile(np.array(stack), 35, axis=0)
        k = np.unravel_index(int(np.argmax(vals)), vals.shape)
        score = float(vals[k] / spread)
        off = (np.array(k, float) + 0.5) / n
        t = base + P @ off
        return score, t


def _shifted(C: np.ndarray, v) -> np.ndarray:
    """``C`` read at ``(i + v0, j + v1)``, wrapping round, bilinear."""
    i0, j0 = int(math.floor(v[0])), int(math.floor(v[1]))
    fi, fj = v[0] - i0, v[1] - j0
    r = lambda di, dj: np.roll(C, (-(i0 + di), -(j0 + dj)), axis=(0, 1))   # noqa: E731
    return ((1 - fi) * ((1 - fj) * r(0, 0) + fj * r(0, 1)) + fi * ((1 - fj) * r(1, 0) + fj * r(1, 1)))


def _edge_points(M, t, orient, centre, reach_px, limit=None, rng=None, along=(0.25, 0.5, 0.75)):
    """Points on predicted hex edges within ``reach_px`` of ``centre``: positions (n x 2), unit normals, lattice coords."""
    lay = Layout(orient)
    Mi = np.linalg.inv(M)
    cx, cy = Mi @ (np.asarray(centre) - t)
    hc = lay.pixel_to_hex(float(cx), float(cy))
    scale = math.sqrt(abs(np.linalg.det(M)))
    rad = int(reach_px / (scale * SQRT3)) + 2
    # the three edges a hex owns (the other three belong to its neighbours)
    corners = np.array([lay.corner_offset(i) for i in range(6)])
    own = [(0, 1), (1, 2), (2, 3)]
    qs, rs = np.meshgrid(np.arange(-rad, rad + 1), np.arange(-rad, rad + 1))
    qs, rs = qs.ravel(), rs.ravel()
    keep = np.abs(qs + rs) <= rad
    qs, rs = qs[keep] + hc.q, rs[keep] + hc.r
    if orient == FLAT:
        cxs, cys = 1.5 * qs, SQRT3 * (rs + qs / 2.0)
    else:
        cxs, cys = SQRT3 * (qs + rs / 2.0), 1.5 * rs
    centres = np.column_stack([cxs, cys])
    pix = centres @ M.T + t
    d = np.hypot(*(pix - centre).T)
    sel = d <= reach_px
    centres = centres[sel]
    if limit is not None and len(centres) > limit:
        idx = (rng or np.random.default_rng(0)).choice(len(centres), limit, replace=False)
        centres = centres[idx]
    pts, normals = [], []
    for i, j in own:
        a, b = corners[i], corners[j]
        edge = b - a
        nrm = np.array([edge[1], -edge[0]])
        # the normal in the image: the transpose-inverse carries normals
        nimg = Mi.T @ nrm
        nimg = nimg / np.hypot(*nimg)
        for lam in along:
            p = a + lam * edge
            pts.append(centres + p)
            normals.append(np.repeat(nimg[None, :], len(centres), 0))
    lat = np.vstack(pts)
    return lat @ M.T + t, np.vstack(normals), lat


def _edge_score(img: "_Sampler", pts, nrm, hex_px: float) -> float:
    """How much darker the scan is on predicted edge points than a little off them, against its spread."""
    ok = img.inside(pts, 4)
    if ok.sum() < 30:
        return 0.0
    pts, nrm = pts[ok], nrm[ok]
    w = max(2.0, 0.08 * hex_px)
    on = img.sample(pts)
    off = (img.sample(pts + nrm * w) + img.sample(pts - nrm * w)) / 2
    diff = off - on                    # positive where a dark line is
    return float(np.mean(diff) / (np.std(diff) + 1.0))


# ---------------------------------------------------------------- the fit

def _fit(img: "_Sampler", M, t, orient, whole: bool = True, centre=None, reach: float | None = None):
    """Robust least-squares fit of the transform to the printed lines, spreading from the middle of the scan.

    ``whole=False``: only the middle (a few hexes around it), returning the edge score there instead of the
    statistics of the whole scan.
    """
    h, w = img.shape
    centre = np.array([w / 2.0, h / 2.0]) if centre is None else np.asarray(centre, float)
    scale = math.sqrt(abs(np.linalg.det(M)))
    hex_px = scale * SQRT3
    reach = max(5 * hex_px, 300.0) if reach is None else reach
    full = max(math.hypot(u - centre[0], v - centre[1]) for u in (0, w) for v in (0, h))
    rng = np.random.default_rng(1)
    window = max(3.0, min(0.16 * hex_px, 12.0))
    rounds = 0
    while True:
        for _ in range(3 if rounds == 0 else 2):
            pts, nrm, lat = _edge_points(M, t, orient, centre, reach, limit=400, rng=rng)
            ok = img.inside(pts, window + 3)
            pts, nrm, lat = pts[ok], nrm[ok], lat[ok]
            if len(pts) < 40:
                return None
            delta, strength = _line_offsets(img, pts, nrm, window)
            good = np.isfinite(delta)
            if good.sum() < 30:
                return None
            dM, dt = _solve(lat[good], nrm[good], delta[good], strength[good])
            M = M + dM
            t = t + dt
            window = max(3.0, window * 0.7)
        rounds += 1
        if not whole:
            pts, nrm, _ = _edge_points(M, t, orient, centre, reach, limit=400, rng=rng, along=(0.2, 0.35, 0.5, 0.65, 0.8))
            return M, t, _edge_score(img, pts, nrm, hex_px)
        if reach >= full:
            break
        reach *= 2
    return M, t, _stats(img, M, t, orient)


def _line_offsets(img: "_Sampler", pts, nrm, window: float):
    """For each point and normal: where the darkest line is along the normal within ``window`` (NaN: none), and its strength."""
    step = max(0.5, window / 10)
    steps = np.arange(-math.ceil(window), math.ceil(window) + step / 2, step)
    P = pts[:, None, :] + nrm[:, None, :] * steps[None, :, None]
    vals = img.sample(P.reshape(-1, 2)).reshape(len(pts), len(steps))
    # smooth a little along the profile
    k = np.array([0.25, 0.5, 0.25])
    sm = vals.copy()
    sm[:, 1:-1] = vals[:, :-2] * k[0] + vals[:, 1:-1] * k[1] + vals[:, 2:] * k[2]
    i = np.argmin(sm[:, 1:-1], axis=1) + 1
    rows = np.arange(len(pts))
    a, b, c = sm[rows, i - 1], sm[rows, i], sm[rows, i + 1]
    den = a - 2 * b + c
    frac = np.where(np.abs(den) > 1e-6, 0.5 * (a - c) / np.where(np.abs(den) > 1e-6, den, 1.0), 0.0)
    frac = np.clip(frac, -0.5, 0.5)
    pos = steps[i] + frac * step
    # the line's depth against the profile's ends
    depth = np.minimum(sm[:, :2].mean(axis=1), sm[:, -2:].mean(axis=1)) - b
    # a thick line's bottom is flat, and its darkest point wanders over it with the noise: its middle is halfway
    # between where the profile crosses half the line's depth on either side of the darkest point
    n = sm.shape[1]
    thr = b + 0.5 * depth
    below = sm < thr[:, None]
    idx = np.broadcast_to(np.arange(n), sm.shape)
    left_out = np.maximum.accumulate(np.where(~below, idx, -1), axis=1)[rows, i]          # last sample above, left
    right_out = np.minimum.accumulate(np.where(~below, idx, n)[:, ::-1], axis=1)[:, ::-1][rows, i]
    both = (left_out >= 0) & (right_out < n) & (right_out - left_out > 3)
    lo_a, lo_b = sm[rows, np.clip(left_out, 0, n - 1)], sm[rows, np.clip(left_out + 1, 0, n - 1)]
    hi_a, hi_b = sm[rows, np.clip(right_out - 1, 0, n - 1)], sm[rows, np.clip(right_out, 0, n - 1)]
    with np.errstate(divide="ignore", invalid="ignore"):
        xl = np.clip(left_out, 0, n - 1) + np.clip((lo_a - thr) / (lo_a - lo_b), 0, 1)
        xr = np.clip(right_out - 1, 0, n - 1) + np.clip((thr - hi_a) / (hi_b - hi_a), 0, 1)
    mid = steps[0] + 0.5 * (xl + xr) * step
    pos = np.where(both & np.isfinite(mid), mid, pos)
    noise = np.median(np.abs(np.diff(vals, axis=1)), axis=1) + 1.0
    strength = depth / noise
    edge_hit = (i <= 1) | (i >= len(steps) - 2)
    pos = np.where((strength > 2.0) & ~edge_hit, pos, np.nan)
    return pos, strength


def _solve(lat, nrm, delta, strength):
    """Least squares for the change of M and t that moves each predicted edge point by ``delta`` along its normal."""
    x, y = lat[:, 0], lat[:, 1]
    nx, ny = nrm[:, 0], nrm[:, 1]
    # delta = nx * (dA*x + dB*y + dC) + ny * (dD*x + dE*y + dF)
    G = np.column_stack([nx * x, nx * y, nx, ny * x, ny * y, ny])
    wts = np.minimum(strength, 10.0)
    res = delta.copy()
    sol = np.zeros(6)
    for _ in range(4):
        sol = _weighted_lstsq(G, res, wts)
        r = delta - G @ sol
        s = 1.4826 * np.median(np.abs(r)) + 0.3
        # Tukey's biweight: points far off the fit (labels, counters, rivers) stop counting
        u = r / (4.0 * s)
        wts = np.minimum(strength, 10.0) * np.where(np.abs(u) < 1, (1 - u ** 2) ** 2, 0.0)
    dM = np.array([[sol[0], sol[1]], [sol[3], sol[4]]])
    dt = np.array([sol[2], sol[5]])
    return dM, dt


def _stats(img: "_Sampler", M, t, orient) -> dict:
    """How well the final fit sits on the printed lines: over the scan and region by region."""
    h, w = img.shape
    centre = np.array([w / 2.0, h / 2.0])
    hex_px = math.sqrt(abs(np.linalg.det(M))) * SQRT3
    pts, nrm, lat = _edge_points(M, t, orient, centre, math.hypot(w, h), limit=3000, rng=np.random.default_rng(2),
                                 along=(0.2, 0.35, 0.5, 0.65, 0.8))
    window = max(2.5, min(0.12 * hex_px, 6.0))
    ok = img.inside(pts, window + 3)
    pts, nrm = pts[ok], nrm[ok]
    edge_score = _edge_score(img, pts, nrm, hex_px)
    delta, strength = _line_offsets(img, pts, nrm, window)
    found = np.isfinite(delta)
    dabs = np.abs(np.nan_to_num(delta, nan=99.0))
    close = found & (dabs <= 1.5)
    # region by region (tiles of a few hexes): where the predicted edges find lines that agree on one local
    # shift, the grid is printed there; that shift (0 where the fit is right) is how far off the fit is there
    tile = max(4 * hex_px, min(w, h) / 12)
    # which of the three edge directions each point is on
    dirs = np.unique(np.round(nrm, 6), axis=0)
    kinds = np.argmax(np.abs(nrm @ dirs.T), axis=1) if len(dirs) else np.zeros(len(nrm), int)
    # whole tiles across the image (no thin strip along an edge, where a frame line can pass for the grid)
    tw, th = w / max(1, round(w / tile)), h / max(1, round(h / tile))
    tx = (pts[:, 0] // tw).astype(int)
    ty = (pts[:, 1] // th).astype(int)
    keys = tx * 100000 + ty
    shifts = []
    lined = np.zeros(len(pts), bool)
    for k in np.unique(keys):
        m = keys == k
        fm = m & found
        if fm.sum() < 18 or fm.sum() < 0.4 * m.sum():
            continue
        shift, inliers = _local_shift(nrm[fm], delta[fm], kinds[fm])
        if inliers < 0.4:
            continue                  # lines there, but not the grid's (a frame, a table, text, a river)
        lined |= m
        shifts.append(float(np.hypot(*shift)))
    regions = len(shifts)
    # a fit that is off (a wrong size, turn or stretch) is off over a stretch of the scan, growing towards an
    # edge: the second worst region says so as well as the worst; one odd region alone (a table's ruled
    # lines that happen to run along the grid's) does not
    shifts.sort(reverse=True)
    region_err = shifts[1] if len(shifts) >= 6 else (shifts[0] if shifts else 99.0)
    if not lined.any():
        return {"confirmed": 0.0, "region_err": 99.0, "regions": 0, "edges_used": 0,
                "edge_score": round(edge_score, 4), "extent": (0.0, 0.0, float(w), float(h))}
    confirmed = float(close[lined].mean())
    lp = pts[lined]
    extent = (float(lp[:, 0].min()), float(lp[:, 1].min()), float(lp[:, 0].max()), float(lp[:, 1].max()))
    return {"confirmed": round(confirmed, 4), "region_err": round(region_err, 4), "regions": regions,
            "edges_used": int(lined.sum()), "edge_score": round(edge_score, 4), "extent": extent}


def _weighted_lstsq(G: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The weighted least-squares solution of ``G x = y`` by its normal equations (zero where they are singular)."""
    Gw = G * w[:, None]
    A = G.T @ Gw
    b = Gw.T @ y
    try:
        return np.linalg.solve(A + np.eye(len(A)) * 1e-9 * max(1.0, float(np.trace(A))), b)
    except np.linalg.LinAlgError:
        return np.zeros(G.shape[1])


def _local_shift(nrm, delta, kinds):
    """The one shift (2-vector) that best explains the offsets ``delta`` seen along normals ``nrm``, robustly,
    and the least share, over the three edge directions, of offsets within a pixel of it (a frame or a table
    line explains one direction only)."""
    w = np.ones(len(delta))
    s = np.zeros(2)
    for _ in range(4):
        s = _weighted_lstsq(nrm, delta, w)
        r = delta - nrm @ s
        u = r / 2.0
        w = np.where(np.abs(u) < 1, (1 - u ** 2) ** 2, 0.0)
    ok = np.abs(delta - nrm @ s) <= 1.0
    shares = [float(ok[kinds == k].mean()) if (kinds == k).sum() >= 5 else 0.0 for k in range(3)]
    return s, min(shares)


# ---------------------------------------------------------------- sampling

class _Sampler:
    """Bilinear samples of a grey image at arbitrary points."""

    def __init__(self, grey: np.ndarray, invert: bool = False):
        self.g = grey
        self.shape = grey.shape
        self.invert = invert

    def inside(self, pts, margin: float = 1.0) -> np.ndarray:
        h, w = self.shape
        return ((pts[:, 0] >= margin) & (pts[:, 0] < w - 1 - margin)
                & (pts[:, 1] >= margin) & (pts[:, 1] < h - 1 - margin))

    def sample(self, pts) -> np.ndarray:
        h, w = self.shape
        x = np.clip(pts[:, 0], 0, w - 1.001)
        y = np.clip(pts[:, 1], 0, h - 1.001)
        x0 = x.astype(np.int64)
        y0 = y.astype(np.int64)
        fx = (x - x0).astype(np.float32)
        fy = (y - y0).astype(np.float32)
        g = self.g
        a = g[y0, x0].astype(np.float32)
        b = g[y0, x0 + 1].astype(np.float32)
        c = g[y0 + 1, x0].astype(np.float32)
        d = g[y0 + 1, x0 + 1].astype(np.float32)
        v = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
        return 255.0 - v if self.invert else v


__all__ = ["GridProposal", "find_grid", "find_grid_from_clicks", "load_grey", "NoImage", "MIN_CONFIDENCE", "GRID_MAX_PIXELS", "FoundSheet",
           "found_sheet", "parse_origin_id", "grid_board", "sheet_numbering", "grid_clicks"]
