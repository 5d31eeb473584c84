"""Small VASSAL modules, saves and logs written from the documented format.

They are made for the tests and the import benchmark: every file is produced here, none is
copied from a real module.  Images are solid colours; a big board image is written in
strips so it never sits in memory whole.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from . import seqenc
from .saves import obfuscate

GRID = "VASSAL.build.module.map.boardPicker.board."


def png_bytes(width: int, height: int, rgba=(200, 180, 120, 255)) -> bytes:
    """A solid-colour PNG of any size, written row by row (a 10,000 x 7,000 image costs a few MB)."""
    row = b"\x00" + bytes(rgba) * width
    comp = zlib.compressobj(6)
    parts = []
    chunk_rows = max(1, (1 << 22) // len(row))
    for start in range(0, height, chunk_rows):
        parts.append(comp.compress(row * min(chunk_rows, height - start)))
    parts.append(comp.flush())
    data = b"".join(parts)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def counter_png(size: int, rgba, mark=None) -> bytes:
    from PIL import Image, ImageDraw

    im = Image.new("RGBA", (size, size), rgba)
    if mark is not None:
        ImageDraw.Draw(im).rectangle([size // 4, size // 4, size * 3 // 4, size * 3 // 4], fill=mark)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def basic(image: str, name: str) -> str:
    return seqenc.join(["piece", "", "", image, name], ";")


def layer(images: list[str], levels: list[str], name: str = "Step", follow: bool = False,
          x_off: int = 0, y_off: int = 0) -> str:
    """An ``emb2`` layer trait with its images (one per level) and level names."""
    f = [""] * 33
    f[13], f[14] = str(x_off), str(y_off)
    f[15] = seqenc.join(images, ",")
    f[16] = seqenc.join(levels, ",")
    f[18] = name
    f[21] = "true" if follow else "false"
    f[30] = "1.0"
    return "emb2;" + seqenc.join(f, ";")


def definition(traits: list[str], states: list[str] | None = None, pid: str = "null") -> str:
    """An AddPiece command ``+/id/type/state`` (traits outermost first, the basic piece last)."""
    states = states if states is not None else [""] * (len(traits) - 1) + ["null;0;0;0;0"]
    return seqenc.join(["+", pid, seqenc.join_chain(traits), seqenc.join_chain(states)], "/")


@dataclass
class Grid:
    sideways: bool = False
    dx: float = 55.0
    dy: float = 64.0
    x0: int = 30
    y0: int = 32
    numbering: dict = field(default_factory=dict)   # attribute -> value of HexGridNumbering

    def xml(self) -> str:
        num = ""
        if self.numbering is not None:
            attrs = " ".join(f"{k}={quoteattr(str(v))}" for k, v in self.numbering.items())
            num = f"<{GRID}mapgrid.HexGridNumbering {attrs}/>"
        return (f'<{GRID}HexGrid sideways="{str(self.sideways).lower()}" dx="{self.dx}" dy="{self.dy}" '
                f'x0="{self.x0}" y0="{self.y0}" snapTo="true">{num}</{GRID}HexGrid>')


@dataclass
class Module:
    """A module to write: one map of boards, a palette, prototypes, at-start stacks, set-ups."""

    name: str = "Synthetic"
    map_name: str = "Main Map"
    boards: list[tuple[str, str, int, int, Grid | None]] = field(default_factory=list)  # name, image, w, h, grid
    layout: str = ""                      # the BoardPicker <setup> text
    slots: list[tuple[str, str]] = field(default_factory=list)             # (entry name, definition)
    prototypes: dict[str, str] = field(default_factory=dict)
    stacks: list[str] = field(default_factory=list)                        # SetupStack XML
    images: dict[str, bytes] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)                 # other entries (set-ups)
    setups: list[tuple[str, str]] = field(default_factory=list)            # (name, file)
    sides: list[str] = field(default_factory=lambda: ["Blue", "Red"])
    extra_xml: str = ""
    build_name: str = "buildFile.xml"

    def board_xml(self) -> str:
        out = []
        for name, image, w, h, grid in self.boards:
            size = f' width="{w}" height="{h}"' if not image else ""
            out.append(f'<VASSAL.build.module.map.boardPicker.Board name={quoteattr(name)} image={quoteattr(image)}'
                       f'{size} reversible="false">{grid.xml() if grid else ""}'
                       f'</VASSAL.build.module.map.boardPicker.Board>')
        return "".join(out)

    def build_file(self) -> str:
        setup = f"<setup>{escape(self.layout)}</setup>" if self.layout else ""
        protos = "".join(f'<VASSAL.build.module.PrototypeDefinition name={quoteattr(n)}>{escape(t)}'
                         f'</VASSAL.build.module.PrototypeDefinition>' for n, t in self.prototypes.items())
        slots = "".join(f'<VASSAL.build.widget.PieceSlot entryName={quoteattr(n)} gpid="{i + 1}" width="60" '
                        f'height="60">{escape(t)}</VASSAL.build.widget.PieceSlot>'
                        for i, (n, t) in enumerate(self.slots))
        roster = "".join(f"<entry>{escape(s)}</entry>" for s in self.sides)
        setups = "".join(f'<VASSAL.build.module.PredefinedSetup name={quoteattr(n)} file={quoteattr(f)} '
                         f'useFile="true" isMenu="false"/>' for n, f in self.setups)
        return (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
                f'<VASSAL.build.GameModule name={quoteattr(self.name)} version="1.0" VassalVersion="3.7.0">'
                f'<VASSAL.build.module.PlayerRoster>{roster}</VASSAL.build.module.PlayerRoster>'
                f'<VASSAL.build.module.PrototypesContainer>{protos}</VASSAL.build.module.PrototypesContainer>'
                f'<VASSAL.build.module.PieceWindow name="Pieces"><VASSAL.build.widget.ListWidget entryName="Units">'
                f'{slots}</VASSAL.build.widget.ListWidget></VASSAL.build.module.PieceWindow>'
                f'<VASSAL.build.module.Map mapName={quoteattr(self.map_name)} edgeWidth="0" edgeHeight="0">'
                f'<VASSAL.build.module.map.BoardPicker>{setup}{self.board_xml()}'
                f'</VASSAL.build.module.map.BoardPicker>{"".join(self.stacks)}</VASSAL.build.module.Map>'
                f'{setups}{self.extra_xml}</VASSAL.build.GameModule>')

    def write(self, path, build_text: str | None = None) -> None:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(self.build_name, build_text if build_text is not None else self.build_file())
            z.writestr("moduledata", f'<?xml version="1.0"?><data version="1"><version>1.0</version>'
                                     f'<VassalVersion>3.7.0</VassalVersion><name>{escape(self.name)}</name></data>')
            for name, data in self.images.items():
                z.writestr("images/" + name, data)
            for name, data in self.files.items():
                z.writestr(name, data)


def setup_stack(name: str, board: str, slots: list[tuple[str, str]], x: int = 0, y: int = 0,
                location: str = "", use_grid: bool = False) -> str:
    inner = "".join(f'<VASSAL.build.widget.PieceSlot entryName={quoteattr(n)} gpid="0">{escape(t)}'
                    f'</VASSAL.build.widget.PieceSlot>' for n, t in slots)
    return (f'<VASSAL.build.module.map.SetupStack name={quoteattr(name)} owningBoard={quoteattr(board)} '
            f'x="{x}" y="{y}" location={quoteattr(location)} useGridLocation="{str(use_grid).lower()}">'
            f'{inner}</VASSAL.build.module.map.SetupStack>')


def save_text(map_name: str, pieces: list[tuple[str, list[str], list[str]]], layout: str = "",
              stacks: list[tuple[str, int, int, list[str]]] = (), log: list[str] = ()) -> str:
    """A save's command text: AddPiece for each (id, traits, states), stacks (id, x, y, children), the
    board layout, then ``LOG`` entries (moves) as a log holds them."""
    ESC = "\x1b"
    adds = [seqenc.join(["+", pid, seqenc.join_chain(t), seqenc.join_chain(s)], "/") for pid, t, s in pieces]
    for sid, x, y, kids in stacks:
        adds.append(seqenc.join(["+", sid, "stack", seqenc.join([map_name, str(x), str(y), *kids, "@@0"], ";")], "/"))
    cmds = ["begin_save", seqenc.join(adds, ESC)]
    if layout:
        cmds.append(layout)
    cmds.append("end_save")
    cmds += ["LOG\t" + c for c in log]
    return seqenc.join(cmds, ESC)


def save_file(text: str, encoding: str = "VCSK", key: int = 0x5A) -> bytes:
    """A .vsav/.vlog archive holding ``savedGame`` in the given encoding (``plain``, ``VCSK``, ``VOBS``)."""
    data = text.encode("utf-8") if encoding == "plain" else obfuscate(text, key, encoding)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", data)
        z.writestr("savedata", '<?xml version="1.0"?><data version="1"><description>a test save</description></data>')
    return buf.getvalue()
