"""VASSAL piece definitions: the trait chain, prototypes, names, images and layers.

A definition is an AddPiece command ``+/<id>/<type>/<state>``.  The type is the trait chain,
outermost trait first, each trait's text escaped one level deeper (TAB between traits, ``;``
inside one); the state runs parallel to it.  The innermost trait is the basic piece
``piece;cloneKey;deleteKey;image;name`` whose state is ``map;x;y;gpid;...``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import seqenc
from .buildfile import MAX_COORDINATE

# VASSAL's own trait ids (BasicCommandEncoder's decorator factories); anything else is a module's custom class
VISUAL = ("emb2", "emb", "label", "rotate", "obs", "hide", "nonRect", "nonRect2", "footprint", "markmoved",
          "border", "matPiece")
BEHAVIOUR = ("mark", "prototype", "piece", "clone", "delete", "globalkey", "macro", "report", "immob", "sendto",
             "return", "replace", "placemark", "submenu", "button", "restrict", "propertysheet", "PROP", "setprop",
             "AreaOfEffect", "calcProp", "DYNPROP", "translate", "cargo", "deselect", "trigger", "restrictcmd",
             "attach", "comment", "playSound", "locmsg", "countermsg", "globalhotkey", "setpropAttach",
             "deck", "stack", "multiloc", "hideCmd", "menuSeparator", "track", "rotate2", "globalcmd", "wide",
             "PieceCounter", "PlaceDYNPROP", "globalSetProp")


@dataclass
class Layer:
    """One ``emb2``/``emb`` layer: its images (one per level), level names and the level shown."""

    name: str
    images: list[str]
    levels: list[str]
    value: int                    # > 0: showing level value-1; <= 0: inactive
    x_off: int = 0
    y_off: int = 0
    scale: float = 1.0
    follow: bool = False
    index: int = 0                # its place in the (expanded) trait chain, outermost 0

    @property
    def level(self) -> int | None:
        return self.value - 1 if 0 < self.value <= len(self.images) else None


@dataclass
class Piece:
    """A piece as it looks: the basic image at the bottom, then each layer outward."""

    name: str
    image: str
    layers: list[Layer] = field(default_factory=list)      # innermost first (drawing order)
    gpid: str = ""
    map: str = ""
    x: int = 0
    y: int = 0
    notes: list[str] = field(default_factory=list)         # what cannot come across
    tags: list[str] = field(default_factory=list)          # its prototypes' names and its markers' values

    def display_name(self) -> str:
        """The name VASSAL shows: level names ``+ text`` add a suffix, ``text +`` a prefix."""
        name = self.name
        for layer in self.layers:
            lv = layer.level
            if lv is None or lv >= len(layer.levels):
                continue
            ln = layer.levels[lv]
            if ln.startswith("+"):
                name = name + ln[1:]
            elif ln.endswith("+"):
                name = ln[:-1] + name
        return name.strip()


class PieceError(ValueError):
    """A definition that cannot be read; the message says what was expected."""


def split_command(text: str) -> tuple[str, str, str]:
    """The id, type and state of an AddPiece command ``+/id/type/state``."""
    parts = seqenc.split(text.strip(), "/")
    if len(parts) < 3 or parts[0] != "+":
        raise PieceError(f"expected an AddPiece command '+/id/type/state', found {text.strip()[:60]!r}")
    return parts[1], parts[2], parts[3] if len(parts) > 3 else ""


def chain(text: str | None) -> list[str]:
    """The traits of a type or state chain, outermost first."""
    out = []
    while text is not None:
        parts = seqenc.split(text, "\t")     # a trait and the rest of the chain, unescaped one level
        out.append(parts[0])
        text = parts[1] if len(parts) > 1 else None
    return out


def trait_id(t: str) -> str:
    return t.split(";", 1)[0]


def expand(types: list[str], states: list[str], prototypes: dict[str, str], seen: tuple = (),
           used: list[str] | None = None) -> tuple[list, list, list]:
    """Replace every ``prototype;NAME`` by the named prototype's traits (less its basic piece), recursively;
    the names expanded are added to ``used``."""
    out_t, out_s, notes = [], [], []
    for i, t in enumerate(types):
        s = states[i] if i < len(states) else ""
        if trait_id(t) != "prototype":
            out_t.append(t)
            out_s.append(s)
            continue
        fields = seqenc.split(t, ";")
        name = fields[1] if len(fields) > 1 else ""
        if "$" in name:
            notes.append(f"prototype name {name!r} is worked out while VASSAL runs (not expanded)")
            continue
        if name in seen:
            notes.append(f"prototype {name!r} includes itself (expanded once)")
            continue
        if name not in prototypes:
            notes.append(f"prototype {name!r} is not defined in the module")
            continue
        try:
            _, ptype, pstate = split_command(prototypes[name])
        except PieceError as e:
            notes.append(f"prototype {name!r}: {e}")
            continue
        pt, ps = chain(ptype), chain(pstate)
        if used is not None:
            used.append(name)
        if pt and trait_id(pt[-1]) == "piece":
            pt, ps = pt[:-1], ps[:len(pt) - 1]
        et, es, en = expand(pt, ps, prototypes, seen + (name,), used)
        out_t.extend(et)
        out_s.extend(es + [""] * (len(et) - len(es)))
        notes.extend(en)
    return out_t, out_s, notes


def _int(v: str, default: int = 0) -> int:
    try:
        x = float(v)
        return int(x) if abs(x) <= MAX_COORDINATE else default
    except (TypeError, ValueError):
        return default


def _float(v: str, default: float = 1.0) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return default
    return x if math.isfinite(x) else default


def layer_of(t: str, s: str) -> Layer:
    tid = trait_id(t)
    f = seqenc.split(t[len(tid) + 1:], ";")
    get = (lambda i: f[i] if i < len(f) else "")
    value = _int(s.split(";")[0] if s else "", 1)
    if tid == "emb2":
        images = seqenc.split(get(15), ",") if get(15) else []
        levels = seqenc.split(get(16), ",") if get(16) else []
        return Layer(get(18) or "layer", images, levels + [""] * (len(images) - len(levels)), value,
                     _int(get(13)), _int(get(14)), _float(get(30), 1.0) or 1.0, get(21) == "true")
    # the old format: activate, command, up key, up command, down key, down command, x, y, then image,name pairs
    images, levels = [], []
    for pair in f[8:]:
        p = seqenc.split(pair, ",")
        images.append(p[0] if p else "")
        levels.append(p[1] if len(p) > 1 else "")
    return Layer("layer", images, levels, value, _int(get(6)), _int(get(7)))


def read_piece(text: str, prototypes: dict[str, str], fallback_name: str = "") -> Piece:
    """A piece from its AddPiece command, prototypes expanded."""
    _, ptype, pstate = split_command(text)
    types, states = chain(ptype), chain(pstate)
    used: list[str] = []
    types, states, notes = expand(types, states, prototypes, used=used)
    if not types or trait_id(types[-1]) != "piece":
        raise PieceError(f"the trait chain does not end in a basic piece ('piece;...'), found "
                         f"{(types[-1] if types else '')[:40]!r}")
    basic = seqenc.split(types[-1], ";")
    image = basic[3] if len(basic) > 3 else ""
    name = basic[4] if len(basic) > 4 else ""
    bstate = seqenc.split(states[-1], ";") if len(states) >= len(types) and states[-1] else []
    piece = Piece(name or fallback_name, image, gpid=bstate[3] if len(bstate) > 3 else "",
                  map=bstate[0] if bstate and bstate[0] != "null" else "",
                  x=_int(bstate[1]) if len(bstate) > 1 else 0, y=_int(bstate[2]) if len(bstate) > 2 else 0,
                  notes=list(notes))
    label = piece.name or fallback_name or "a piece"
    states = states + [""] * (len(types) - len(states))
    piece.tags = list(used)
    for t, s in zip(types, states):
        if trait_id(t) == "mark":          # mark;KEY with the value in its state (or after the key, in old modules)
            piece.tags.extend(v for v in (seqenc.split(s, ",") if s else []) if v)
    for i in range(len(types) - 2, -1, -1):
        t, s = types[i], states[i]
        tid = trait_id(t)
        if tid in ("emb2", "emb"):
            layer = layer_of(t, s)
            layer.index = i
            piece.layers.append(layer)
            if layer.follow:
                piece.notes.append(f"{label}: layer {layer.name!r} follows a property while VASSAL runs "
                                   f"(imported at its saved level)")
        elif tid == "label":
            piece.notes.append(f"{label}: text drawn while VASSAL runs (a 'label' trait) is not in the images")
        elif tid == "rotate":
            piece.notes.append(f"{label}: rotation (a 'rotate' trait) is not imported; drawn unrotated")
        elif tid not in VISUAL and tid not in BEHAVIOUR:
            piece.notes.append(f"{label}: trait {tid!r} is not one of VASSAL's own (a custom Java class); skipped")
    return piece
