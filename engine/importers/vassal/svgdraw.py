"""SVG counter and board art drawn to images, as VASSAL draws it (it renders SVG with Batik).

The renderer is resvg (the ``resvg-py`` binding, a wheel with no system library behind it):
it follows the SVG specification closely, draws a 50 x 50 counter in well under a
millisecond, and ships as one self-contained extension in the wheel and the bundle alike.

A module's SVG images often draw shapes kept in another SVG of the module
(``<use xlink:href="symbols.svg#s"/>``).  Batik follows such a reference into the archive;
resvg does not, so the referenced elements are copied into the image's own ``<defs>`` and
the reference made local (``#s``) before it is drawn.
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from PIL import Image

SVG_NS = "http://www.w3.org/2000/svg"
XLINK = "{http://www.w3.org/1999/xlink}href"
MAX_SVG_BYTES = 8 << 20           # one SVG image's text (the largest real counter sheets are a few hundred kB)
MAX_SVG_PIXELS = 64_000_000       # a drawn board: an 8,000 x 8,000 image at most
LIBRARY_CHARS = 32_000_000        # shapes kept from the SVG files other images borrow from
_EXTERNAL = re.compile(rb'(xlink:)?href\s*=\s*"([^"#]+\.svg)#([^"]+)"')


class SvgError(Exception):
    """An SVG image that cannot be drawn; the message says why."""


def renderer_available() -> bool:
    try:
        import resvg_py  # noqa: F401
    except ImportError:
        return False
    return True


def external_refs(data: bytes) -> set[str]:
    """The other SVG files an image draws from (``file.svg#id`` references)."""
    return {m.group(2).decode("utf-8", "replace") for m in _EXTERNAL.finditer(data)}


def _ids(root: ET.Element) -> dict[str, ET.Element]:
    return {el.get("id"): el for el in root.iter() if el.get("id")}


class Library:
    """Elements by id of the SVG files other images refer to (each file parsed once)."""

    def __init__(self, read, limit: int = LIBRARY_CHARS):
        self.read = read            # name -> bytes or None
        self.files: dict[str, dict[str, str]] = {}
        self.kept = 0
        self.limit = limit

    def elements(self, name: str) -> dict[str, str]:
        if name not in self.files and self.kept > self.limit:      # bounded: start again rather than grow
            self.files.clear()
            self.kept = 0
        if name not in self.files:
            data = self.read(name)
            found: dict[str, str] = {}
            if data is not None:
                try:
                    root = ET.fromstring(data)
                except ET.ParseError:
                    root = None
                if root is not None:
                    for i, el in _ids(root).items():
                        found[i] = ET.tostring(el, encoding="unicode")
            self.files[name] = found
            self.kept += sum(len(v) for v in found.values())
        return self.files[name]


def inline(data: bytes, library: Library) -> str:
    """The SVG text with every ``file.svg#id`` reference replaced by a copy of that element."""
    text = data.decode("utf-8", "replace")
    refs = sorted({(m.group(2).decode("utf-8", "replace"), m.group(3).decode("utf-8", "replace"))
                   for m in _EXTERNAL.finditer(data)})
    if not refs:
        return text
    defs = []
    for name, ident in refs:
        el = library.elements(name).get(ident)
        if el is not None:
            defs.append(el)
    text = re.sub(r'((?:xlink:)?href\s*=\s*")[^"#]+\.svg#', r"\1#", text)
    m = re.search(r"<svg\b[^>]*>", text)
    if m is None:
        raise SvgError("no <svg> element")
    # ElementTree writes the copied elements with ns0: prefixes; a default namespace reads them as SVG
    block = "<defs>" + "".join(defs) + "</defs>"
    block = re.sub(r"<(/?)ns\d+:", r"<\1", block)
    block = re.sub(r'\sxmlns:ns\d+="[^"]*"', "", block)
    block = re.sub(r"\sns\d+:href=", " xlink:href=", block)
    return text[:m.end()] + block + text[m.end():]


SANS = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, 'Nimbus Sans', sans-serif"
SERIF = "'DejaVu Serif', 'Liberation Serif', 'Times New Roman', Times, 'Nimbus Roman', serif"
_FAMILY_STYLE = re.compile(r"(font-family\s*:\s*)([^;\"'}]+(?:'[^']*'[^;\"}]*)*)")
_FAMILY_ATTR = re.compile(r'(font-family\s*=\s*")([^"]*)(")')


def _fallback(families: str) -> str:
    """A font family list that ends in fonts found on most systems, serif or not as the first one asks: a
    module names the fonts of its author's machine (Batik then uses Java's own), and resvg draws no text
    at all in a family it cannot find."""
    low = families.lower()
    serif = any(w in low for w in ("roman", "serif", "times", "georgia", "garamond")) and "sans" not in low
    return f"{families.strip()}, {SERIF if serif else SANS}"


def with_fallback_fonts(text: str) -> str:
    text = _FAMILY_STYLE.sub(lambda m: m.group(1) + _fallback(m.group(2)), text)
    return _FAMILY_ATTR.sub(lambda m: m.group(1) + _fallback(m.group(2)).replace('"', "'") + m.group(3), text)


def draw(data: bytes, library: Library | None = None, max_pixels: int = MAX_SVG_PIXELS) -> Image.Image:
    """An SVG image drawn at its own size as RGBA; SvgError when it cannot be."""
    if len(data) > MAX_SVG_BYTES:
        raise SvgError(f"{len(data):,} bytes of SVG (at most {MAX_SVG_BYTES:,})")
    try:
        import resvg_py
    except ImportError:
        raise SvgError("the SVG renderer (the resvg-py package) is not installed") from None
    text = inline(data, library) if library is not None else data.decode("utf-8", "replace")
    text = with_fallback_fonts(text)
    size = _declared_size(text)
    if not (size[0] * size[1] <= max_pixels):        # also an infinite or NaN size
        raise SvgError(f"{size[0]:,.0f} x {size[1]:,.0f} pixels (at most {max_pixels:,})")
    try:
        png = resvg_py.svg_to_bytes(svg_string=text)
    except (ValueError, RuntimeError) as e:
        raise SvgError(str(e).splitlines()[0][:200] if str(e) else "not an SVG image resvg can draw") from None
    png = bytes(png)
    with Image.open(io.BytesIO(png)) as im:
        img = im.convert("RGBA")
    img.info = {"png": png}       # resvg's own PNG of it: a face that is this image alone is written as it is
    return img


UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0,
         "em": 16.0, "ex": 8.0}


def _length(v: str | None) -> float | None:
    """A length in pixels as SVG reckons it (96 per inch); None for a percentage or nonsense."""
    if not v:
        return None
    m = re.match(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*$", v)
    if m is None or m.group(2) not in UNITS:
        return None
    return float(m.group(1)) * UNITS[m.group(2)]


def _declared_size(text: str) -> tuple[float, float]:
    """The size resvg draws an SVG at: its width and height, else its viewBox's, else 100 x 100."""
    m = re.search(r"<svg\b([^>]*)>", text)
    attrs = m.group(1) if m else ""
    found = dict(re.findall(r'\b(width|height|viewBox)\s*=\s*["\']([^"\']*)["\']', attrs))
    box = None
    if "viewBox" in found:
        parts = re.split(r"[\s,]+", found["viewBox"].strip())
        try:
            box = (float(parts[2]), float(parts[3])) if len(parts) == 4 else None
        except ValueError:
            box = None
    w, h = _length(found.get("width")), _length(found.get("height"))
    if box is not None and box[0] > 0 and box[1] > 0:
        if w is None and h is None:
            w, h = box
        elif w is None:
            w = h * box[0] / box[1]
        elif h is None:
            h = w * box[1] / box[0]
    return (w if w is not None else 100.0, h if h is not None else 100.0)


__all__ = ["Library", "SvgError", "draw", "external_refs", "inline", "renderer_available"]
