"""Counter faces: a piece's basic image with its active layers drawn on top, as VASSAL draws them.

Each image is centred on the piece (top-left at ``-w/2 + xOff, -h/2 + yOff``, integer
halves), the basic image first, then each layer from the innermost outward.  A face is
padded to a square with transparency, so Sandtable can draw it at any counter size.
"""
from __future__ import annotations

import io
from collections import OrderedDict

from PIL import Image

from engine.errors import BadFile

from . import svgdraw
from .archive import IMAGE_FILE_LIMIT, Archive
from .pieces import Piece

MAX_COUNTER_SIDE = 2048       # counter art bigger than this is not counter art; refused
MAX_LAYER_OFFSET = MAX_COUNTER_SIDE // 2    # a layer drawn further from the piece's centre is left out
CACHE_PIXELS = 16_000_000     # decoded images kept for reuse (64 MB; the least recently used go first)


class Faces:
    """Decodes each counter image once and composes faces from them."""

    def __init__(self, arc: Archive):
        self.arc = arc
        self.cache: OrderedDict[str, Image.Image | None] = OrderedDict()
        self.cached_pixels = 0
        self.problems: dict[str, str] = {}      # image name -> why it could not be used
        self.svg_drawn: set[str] = set()        # SVG images drawn
        self.names: dict[int, str] = {}         # id of a decoded PNG image -> its entry (for copying it whole)
        self.drawn: dict[int, bytes] = {}       # id of a drawn SVG image -> resvg's PNG of it (written as it is)
        self.library = svgdraw.Library(self._svg_source)

    def _svg_source(self, name: str) -> bytes | None:
        """Another SVG file of the module that an SVG image draws from (by its name under images/)."""
        entry = self.arc.image_entry(name.rsplit("/", 1)[-1])
        if entry is None:
            return None
        try:
            return self.arc.read(entry, svgdraw.MAX_SVG_BYTES)
        except BadFile:
            return None

    def image(self, name: str) -> Image.Image | None:
        if name in self.cache:
            self.cache.move_to_end(name)
            return self.cache[name]
        img = None
        entry = self.arc.image_entry(name)
        if entry is None:
            self.problems[name] = "missing:"
        elif entry.lower().endswith(".svg"):
            try:
                data = self.arc.read(entry, IMAGE_FILE_LIMIT)
                img = svgdraw.draw(data, self.library, MAX_COUNTER_SIDE * MAX_COUNTER_SIDE)
                if max(img.size) > MAX_COUNTER_SIDE:
                    raise svgdraw.SvgError(f"{img.size[0]} x {img.size[1]} pixels (at most {MAX_COUNTER_SIDE} "
                                           f"for a counter)")
                self.svg_drawn.add(name)
                png = img.info.pop("png", None)
                if png:
                    self.drawn[id(img)] = png
            except svgdraw.SvgError as e:
                self.problems[name] = f"svg:{e}"
                img = None
            except BadFile as e:
                self.problems[name] = f"cannot be read ({e.problems[0].message})"
        else:
            try:
                info = self.arc.zip.getinfo(entry)
                if info.file_size > IMAGE_FILE_LIMIT:
                    raise OSError(f"{info.file_size:,} bytes (at most {IMAGE_FILE_LIMIT:,} for a counter image)")
                with Image.open(io.BytesIO(self.arc.read(entry, IMAGE_FILE_LIMIT))) as im:
                    if max(im.size) > MAX_COUNTER_SIDE:
                        raise OSError(f"{im.size[0]} x {im.size[1]} pixels (at most {MAX_COUNTER_SIDE} for a counter)")
                    img = im.convert("RGBA")
            except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
                self.problems[name] = f"cannot be read ({e})"
            except BadFile as e:          # the archive's entry is damaged
                self.problems[name] = f"cannot be read ({e.problems[0].message})"
        if img is not None and entry.lower().endswith(".png"):
            self.names[id(img)] = entry
        self.cache[name] = img
        self.cached_pixels += img.width * img.height if img is not None else 0
        while self.cached_pixels > CACHE_PIXELS and len(self.cache) > 1:
            _, old = self.cache.popitem(last=False)
            self.names.pop(id(old), None)
            self.drawn.pop(id(old), None)
            self.cached_pixels -= old.width * old.height if old is not None else 0
        return img

    def compose(self, piece: Piece, levels: dict[int, int | None] | None = None) -> Image.Image | None:
        """The face with each layer at its current level, or at ``levels[layer index]`` when given."""
        parts = []
        base = self.image(piece.image) if piece.image else None
        if base is not None:
            parts.append((base, 0, 0))
        for k, layer in enumerate(piece.layers):
            lv = layer.level if levels is None or k not in levels else levels[k]
            if lv is None or lv >= len(layer.images) or not layer.images[lv]:
                continue
            img = self.image(layer.images[lv])
            if img is None:
                continue
            if max(abs(layer.x_off), abs(layer.y_off)) > MAX_LAYER_OFFSET:
                self.problems.setdefault(layer.images[lv], f"drawn {layer.x_off}, {layer.y_off} px from the piece's "
                                                           f"centre (at most {MAX_LAYER_OFFSET}); left out")
                continue
            if layer.scale != 1.0 and layer.scale > 0:
                if max(img.width, img.height) * layer.scale > MAX_COUNTER_SIDE:
                    self.problems.setdefault(layer.images[lv], f"scaled by {layer.scale:g} past {MAX_COUNTER_SIDE} "
                                                               f"pixels; left out")
                    continue
                size = (max(1, round(img.width * layer.scale)), max(1, round(img.height * layer.scale)))
                img = img.resize(size, Image.Resampling.LANCZOS)
            parts.append((img, layer.x_off, layer.y_off))
        if not parts:
            return None
        top, tdx, tdy = parts[-1]
        name = self.names.get(id(top))
        drawn = self.drawn.get(id(top)) if name is None else None   # an SVG image as resvg drew it
        if ((name is not None or drawn is not None) and top.width == top.height and tdx == 0 and tdy == 0
                and all(im.width <= top.width and im.height <= top.height and dx == 0 and dy == 0
                        for im, dx, dy in parts[:-1])
                and (len(parts) == 1 or top.getextrema()[3][0] == 255)):
            face = top.copy() if len(parts) > 1 else top
            # the face is this PNG of the module, or this SVG as drawn, as it stands: written, not encoded again
            face.info = {"source": name} if name is not None else {"png": drawn}
            return face
        boxes = [(-(im.width // 2) + dx, -(im.height // 2) + dy, im) for im, dx, dy in parts]
        left = min(x for x, _, _ in boxes)
        top = min(y for _, y, _ in boxes)
        right = max(x + im.width for x, _, im in boxes)
        bottom = max(y + im.height for _, y, im in boxes)
        side = max(right - left, bottom - top)
        canvas = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        ox = (side - (right - left)) // 2 - left
        oy = (side - (bottom - top)) // 2 - top
        for x, y, im in boxes:
            canvas.alpha_composite(im, (x + ox, y + oy))
        return canvas


def flip_layer(piece: Piece) -> int | None:
    """The layer that turns the counter over: the outermost one with exactly two levels."""
    for k in range(len(piece.layers) - 1, -1, -1):
        if len([i for i in piece.layers[k].images if i]) >= 1 and len(piece.layers[k].images) == 2:
            return k
    return None


def faces_of(faces: Faces, piece: Piece) -> dict[str, Image.Image]:
    """``front`` (as it stands), ``back`` (the flip layer's other level) and ``state-N`` for every level
    of a layer of three or more levels."""
    out = {}
    front = faces.compose(piece)
    if front is None:
        return out
    out["front"] = front
    k = flip_layer(piece)
    if k is not None:
        cur = piece.layers[k].level
        other = 1 if cur in (None, 0) else 0
        if cur is None:      # an inactive flip layer: the front shows no level, the back shows the first
            other = 0
        back = faces.compose(piece, {k: other})
        if back is not None and back.tobytes() != front.tobytes():
            out["back"] = back
    for k, layer in enumerate(piece.layers):
        if len(layer.images) >= 3:
            for lv in range(len(layer.images)):
                img = faces.compose(piece, {k: lv})
                if img is not None:
                    out[f"state-{k + 1}-{lv + 1}"] = img
    return out


__all__ = ["Faces", "faces_of", "flip_layer"]
