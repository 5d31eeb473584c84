"""Counter art drawn from unit data (Demyansk 2.1): colours per army and branch, the NATO
type symbol, the unit size above it, attack upper left, movement upper right, defence at
the bottom, the division's number on the left side and the regiment's on the right.

A unit with two or more steps has a back, its reduced side: the reduced values from its
``reduced`` data ("2-2-5"), and a pale band across the middle of the counter (the
conventional reduced-strength stripe), so the side showing is plain at a glance.

Counters are drawn at the size asked for (at a few times that size, then reduced, for
smooth edges), never scaled up from a small bitmap, so they are crisp at any zoom.  They
are made on demand and cached in memory rather than shipped as image files.
"""
from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.fileio import is_file

# Demyansk 2.1: Soviet army brown, Guards red, Navy white with red lettering; German
# army grey-blue, Luftwaffe grey, Waffen SS black with white lettering.
DEFAULT_COLOURS: dict[tuple[str, str], tuple[str, str]] = {
    ("soviet", "army"): ("#a5764a", "#140c04"),
    ("soviet", "guards"): ("#c0392b", "#140404"),
    ("soviet", "navy"): ("#f6f4ef", "#c0392b"),
    ("german", "army"): ("#8fa2b6", "#101418"),
    ("german", "luftwaffe"): ("#a9abad", "#101010"),
    ("german", "ss"): ("#1c1c1c", "#f4f4f4"),
}
FALLBACK = ("#d8d0bc", "#1a1a1a")

# Demyansk 2.1 symbol summary: battalion I, regiment III, brigade X, division XX, army XXXX.
SIZE_MARKS = {"battalion": "I", "regiment": "III", "brigade": "X", "division": "XX", "corps": "XXX",
              "army": "XXXX"}
SUPERSAMPLE = 4


def colours_for(unit, side=None) -> tuple[str, str]:
    """(fill, lettering) of a unit: the scenario side's branch colours, else the side's own colour (as chosen in
    the scenario editor), else 2.1's defaults."""
    branch = getattr(unit, "branch", None) or getattr(unit, "army", None) or "army"
    if side is not None:
        b = getattr(side, "branches", {}).get(branch)
        if b is not None:
            return (b.fill, b.text)
        colour = getattr(side, "colour", "")
        if _hex_rgb(colour) is not None:
            return (colour, lettering_for(colour))
    return DEFAULT_COLOURS.get((unit.side, branch), DEFAULT_COLOURS.get((unit.side, "army"), FALLBACK))


def _hex_rgb(colour: str) -> tuple[int, int, int] | None:
    """``#rrggbb`` as numbers (None for anything else)."""
    if not isinstance(colour, str) or len(colour) != 7 or colour[0] != "#":
        return None
    try:
        return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return None


def lettering_for(fill: str) -> str:
    """Dark lettering on a light counter, light on a dark one."""
    r, g, b = _hex_rgb(fill) or (200, 200, 200)
    return "#141414" if 0.299 * r + 0.587 * g + 0.114 * b >= 128 else "#f4f4f4"


FACES = ("front", "back")


def has_back(unit) -> bool:
    """A counter with two or more steps has a reduced side printed on its back."""
    return (getattr(unit, "steps", 1) or 1) >= 2


def counter_image(unit, size_px: int, side=None, colours: tuple[str, str] | None = None,
                  face: str = "front") -> Image.Image:
    """The counter of a unit as an RGBA image ``size_px`` square: its ``front`` or its reduced ``back``."""
    if size_px < 8:
        raise ValueError(f"a counter needs at least 8 pixels, not {size_px}")
    fill, ink = colours or colours_for(unit, side)
    return _draw(_face_of(unit, face), int(size_px), fill, ink)


def counter_faces(unit, size_px: int, side=None) -> dict[str, Image.Image]:
    """``{"front": …}``, and ``"back"`` too for a unit with steps."""
    return {f: counter_image(unit, size_px, side, face=f) for f in (FACES if has_back(unit) else FACES[:1])}


def counter_png(unit, size_px: int, side=None, face: str = "front") -> bytes:
    """The counter as PNG bytes, cached (a unit's data and colours fix its picture)."""
    return _png(_face_of(unit, face), int(size_px), colours_for(unit, side))


def counter_sheet(units, size_px: int, sides=None, columns: int = 10, gap: int = 6, face: str = "front",
                  mirrored: bool = False) -> Image.Image:
    """Counters in rows on a neutral background, like a sheet of die-cut counters.

    ``face="back"`` draws the sheet's reverse: each unit's back (a unit without
    steps shows its front there, as a single-sided counter's blank back would be
    of no use); ``mirrored`` puts each counter where it falls when the sheet is
    turned over (column ``c`` prints at ``columns - 1 - c``).
    """
    units = list(units)
    rows = max(1, math.ceil(len(units) / columns))
    w = columns * size_px + (columns + 1) * gap
    h = rows * size_px + (rows + 1) * gap
    sheet = Image.new("RGBA", (w, h), (214, 206, 188, 255))
    for i, u in enumerate(units):
        side = (sides or {}).get(u.side)
        img = counter_image(u, size_px, side, face=face if face == "front" or has_back(u) else "front")
        col = i % columns
        if mirrored:
            col = columns - 1 - col
        x = gap + col * (size_px + gap)
        y = gap + (i // columns) * (size_px + gap)
        sheet.alpha_composite(img, (x, y))
    return sheet


def counter_images_folder(scenario) -> Path | None:
    """Where a scenario's cut counter images are: ``assets/<scenario id>/counters`` beside its file."""
    path, sid = getattr(scenario, "path", ""), getattr(scenario, "id", "")
    if not path or not sid:
        return None
    return Path(path).resolve().parent / "assets" / sid / "counters"


def cut_counter_image(folder, unit, size_px: int) -> Image.Image | None:
    """A unit's cut image at ``size_px`` square (``<unit>-front.png``, or ``-back.png`` once it has lost a
    step and a back was cut), or None when none was cut or it cannot be read."""
    if folder is None:
        return None
    folder = Path(folder)
    names = [f"{unit.id}-front.png"]
    if (getattr(unit, "losses", 0) or 0) > 0:
        names.insert(0, f"{unit.id}-back.png")
    for name in names:
        path = folder / name
        if is_file(path):
            try:
                with Image.open(path) as im:
                    return im.convert("RGBA").resize((size_px, size_px), Image.Resampling.LANCZOS)
            except OSError:
                return None
    return None


def reduced_values(unit) -> tuple[int, int, int]:
    """The back's attack, defense and movement: the unit's ``reduced`` data ("2-2-5"), else its front's."""
    text = getattr(unit, "reduced", "") or ""
    if text:
        a, d, m = (int(x) for x in text.split("-"))
        return a, d, m
    return unit.attack, unit.defense, unit.movement


def _face_of(unit, face: str) -> "_Face":
    if face not in FACES:
        raise ValueError(f"a counter has a front and a back, not {face!r}")
    f = _Face.of(unit)
    if face == "back":
        if not has_back(unit):
            raise ValueError(f"{unit.id} has one step: its counter has no back")
        f.attack, f.defense, f.movement = reduced_values(unit)
        f.reduced = True
    return f


# ---------------------------------------------------------------- drawing

class _Face:
    """What is printed on a counter, taken from any unit-like object."""

    __slots__ = ("type", "size", "attack", "defense", "movement", "left", "right", "label", "reduced")

    def __init__(self, type, size, attack, defense, movement, left, right, label, reduced=False):
        self.type, self.size = type, size
        self.attack, self.defense, self.movement = attack, defense, movement
        self.left, self.right, self.label = left, right, label
        self.reduced = reduced

    @classmethod
    def of(cls, unit) -> "_Face":
        right = getattr(unit, "regiment", "") or ""
        if not right and not getattr(unit, "division", ""):
            right = unit.id.split("-", 1)[-1]
        return cls(unit.type, getattr(unit, "size", "") or "", unit.attack, unit.defense, unit.movement,
                   getattr(unit, "division", "") or "", right, right)

    def key(self) -> tuple:
        return (self.type, self.size, self.attack, self.defense, self.movement, self.left, self.right, self.reduced)


@lru_cache(maxsize=2048)
def _png_cached(key: tuple, size_px: int, colours: tuple[str, str]) -> bytes:
    face = _Face(*key[:7], key[6], key[7])
    buf = io.BytesIO()
    _draw(face, size_px, *colours).save(buf, format="PNG")
    return buf.getvalue()


def _png(face: _Face, size_px: int, colours: tuple[str, str]) -> bytes:
    return _png_cached(face.key(), size_px, tuple(colours))


@lru_cache(maxsize=64)
def _font(px: int, bold: bool = True):
    names = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf") if bold else ("DejaVuSans.ttf",)
    for name in names:
        try:
            return ImageFont.truetype(name, max(1, px))
        except OSError:
            continue
    return ImageFont.load_default(size=max(1, px))


def _rgb(c: str) -> tuple[int, int, int]:
    c = c.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def _shade(rgb, k: float) -> tuple[int, int, int]:
    if k >= 0:
        return tuple(int(v + (255 - v) * k) for v in rgb)
    return tuple(int(v * (1 + k)) for v in rgb)


def _draw(face: _Face, size_px: int, fill: str, ink: str) -> Image.Image:
    ss = max(1, min(SUPERSAMPLE, 1024 // size_px))   # antialiasing, within a bounded drawing size
    s = size_px * ss
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    base, text = _rgb(fill), _rgb(ink)
    r = s * 0.07
    # the die-cut square with a bevel: lighter top-left edge, darker bottom-right
    d.rounded_rectangle([0, 0, s - 1, s - 1], radius=r, fill=_shade(base, -0.35))
    d.rounded_rectangle([0, 0, s - 1 - s * 0.025, s - 1 - s * 0.025], radius=r, fill=_shade(base, 0.3))
    d.rounded_rectangle([s * 0.02, s * 0.02, s - 1 - s * 0.02, s - 1 - s * 0.02], radius=r * 0.8, fill=base)
    if face.reduced:
        # the reduced side: a band across the middle, paler than a dark counter or darker than a pale one
        d.rectangle([s * 0.02, s * 0.27, s - 1 - s * 0.02, s * 0.6], fill=stripe_colour(base))

    lw = max(1, round(s * 0.028))
    # attack upper left, movement upper right (2.1)
    _text(d, (s * 0.17, s * 0.16), str(face.attack), _font(round(s * 0.22)), text)
    _text(d, (s * 0.83, s * 0.16), str(face.movement), _font(round(s * 0.22)), text)
    # the unit size above the symbol
    mark = SIZE_MARKS.get(face.size, "")
    if mark:
        font = _font(round(s * 0.13))
        if font.getlength(mark) > s * 0.36:          # XXXX must clear the values on either side
            font = _font(max(1, int(s * 0.13 * s * 0.36 / font.getlength(mark))))
        _text(d, (s * 0.5, s * 0.21), mark, font, text)
    # the NATO symbol
    box = (s * 0.29, s * 0.29, s * 0.71, s * 0.58)
    _symbol(d, face, box, text, base, lw, s)
    # division number on the left side, regiment or brigade number on the right (2.1)
    if face.left:
        _side_text(img, face.left, (s * 0.145, s * 0.435), s, text, angle=90)
    if face.right:
        _side_text(img, face.right, (s * 0.855, s * 0.435), s, text, angle=90)
    d = ImageDraw.Draw(img)
    # defence at the bottom
    _text(d, (s * 0.5, s * 0.78), str(face.defense), _font(round(s * 0.27)), text)
    if ss > 1:
        img = img.resize((size_px, size_px), Image.Resampling.LANCZOS)
    return img


def stripe_colour(base: tuple[int, int, int]) -> tuple[int, int, int]:
    """The reduced-side band's colour for a counter's fill."""
    lum = 0.299 * base[0] + 0.587 * base[1] + 0.114 * base[2]
    return _shade(base, 0.55) if lum < 150 else _shade(base, -0.28)


def _text(d: ImageDraw.ImageDraw, xy, text: str, font, colour) -> None:
    d.text(xy, text, font=font, fill=colour, anchor="mm")


def _side_text(img: Image.Image, text: str, centre, s: float, colour, angle: int) -> None:
    """A short id written along a side of the counter, reading bottom to top."""
    px = round(s * 0.105)
    font = _font(px)
    length = font.getlength(text)
    limit = s * 0.46
    if length > limit:
        font = _font(max(1, int(px * limit / length)))
        length = font.getlength(text)
    w, h = int(length + px), int(px * 1.6)
    strip = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(strip).text((w / 2, h / 2), text, font=font, fill=colour, anchor="mm")
    strip = strip.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
    img.alpha_composite(strip, (int(centre[0] - strip.width / 2), int(centre[1] - strip.height / 2)))


def _symbol(d: ImageDraw.ImageDraw, face: _Face, box, ink, base, lw: int, s: float) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    t = face.type

    def cross():
        d.line([(x0, y0), (x1, y1)], fill=ink, width=lw)
        d.line([(x0, y1), (x1, y0)], fill=ink, width=lw)

    def oval():
        d.rounded_rectangle([x0 + w * 0.17, y0 + h * 0.24, x1 - w * 0.17, y1 - h * 0.24], radius=h * 0.26,
                            outline=ink, width=lw)

    if t == "headquarters":
        # the staff descends from the box's lower-left corner
        d.line([(x0, y0), (x0, y1 + h * 0.55)], fill=ink, width=lw)
        _text(d, (cx, cy), "HQ", _font(round(h * 0.48)), ink)
    elif t in ("infantry", "light_infantry", "naval_infantry", "airborne", "mechanized", "motorized"):
        cross()
        if t == "mechanized":
            oval()
        elif t == "motorized":
            d.line([(cx, y0), (cx, y1)], fill=ink, width=lw)
        elif t == "light_infantry":
            # light (jaeger) troops: a small peak at the foot of the cross
            d.polygon([(cx - w * 0.16, y1), (cx + w * 0.16, y1), (cx, y1 - h * 0.42)], fill=ink)
        elif t == "naval_infantry":
            _anchor(d, (cx, y1 - h * 0.3), h * 0.5, ink, lw)
        elif t == "airborne":
            # the canopy: two small arcs across the bottom of the box
            aw = w * 0.22
            for sgn in (-1, 1):
                ax = cx + sgn * aw * 0.5
                d.arc([ax - aw / 2, y1 - h * 0.34, ax + aw / 2, y1 - h * 0.02], 180, 360, fill=ink, width=lw)
    elif t == "armored":
        oval()
    elif t == "assault_gun":
        oval()
        rr = h * 0.1
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=ink)
    elif t == "engineer":
        # the bridge: a bar with three legs
        top, bottom = cy - h * 0.14, cy + h * 0.16
        left, right = cx - w * 0.26, cx + w * 0.26
        d.line([(left, top), (right, top)], fill=ink, width=lw)
        for x in (left, cx, right):
            d.line([(x, top), (x, bottom)], fill=ink, width=lw)
    elif t == "military_police":
        _text(d, (cx, cy), "MP", _font(round(h * 0.5)), ink)
    elif t == "antiaircraft":
        # the dome across the box
        d.arc([x0 + w * 0.08, y0 + h * 0.3, x1 - w * 0.08, y1 + h * 0.62], 180, 360, fill=ink, width=lw)
    d.rectangle([x0, y0, x1, y1], outline=ink, width=lw)


def _anchor(d: ImageDraw.ImageDraw, centre, size: float, ink, lw: int) -> None:
    cx, cy = centre
    top, bottom = cy - size / 2, cy + size / 2
    d.line([(cx, top + size * 0.12), (cx, bottom)], fill=ink, width=lw)
    d.line([(cx - size * 0.22, top + size * 0.3), (cx + size * 0.22, top + size * 0.3)], fill=ink, width=lw)
    d.ellipse([cx - size * 0.08, top - size * 0.05, cx + size * 0.08, top + size * 0.12], outline=ink, width=lw)
    d.arc([cx - size * 0.38, bottom - size * 0.5, cx + size * 0.38, bottom + size * 0.02], 20, 160, fill=ink,
          width=lw)


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.counters.art SCENARIO OUT.png [SIZE]``: every counter of a scenario on one sheet."""
    import sys

    from engine.errors import BadFile
    from engine.fileio import atomic_write_bytes
    from engine.scenario import load_scenario

    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (2, 3) or (len(argv) == 3 and not argv[2].isdigit()):
        print("usage: python -m engine.counters.art SCENARIO OUT.png [SIZE]", file=sys.stderr)
        return 2
    try:
        scenario = load_scenario(argv[0])
    except BadFile as e:
        for p in e.problems:
            print(p, file=sys.stderr)
        return 1
    size = int(argv[2]) if len(argv) == 3 else 72
    units = list(scenario.units.values())
    sheet = counter_sheet(units, size, scenario.sides, columns=12)
    stepped = [u for u in units if has_back(u)]
    if stepped:       # the backs of stepped units, in a row of their own below the fronts
        backs = counter_sheet(stepped, size, scenario.sides, columns=12, face="back")
        both = Image.new("RGBA", (sheet.width, sheet.height + backs.height), (214, 206, 188, 255))
        both.alpha_composite(sheet, (0, 0))
        both.alpha_composite(backs, (0, sheet.height))
        sheet = both
    buf = io.BytesIO()
    sheet.save(buf, format="PNG")
    atomic_write_bytes(argv[1], buf.getvalue())
    print(argv[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
