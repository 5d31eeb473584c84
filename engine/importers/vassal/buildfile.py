"""The parts of a VASSAL build file an importer needs, as plain data.

Every XML element is named after the Java class of its component; components are
recognised by the class name's last part (``...boardPicker.Board`` is a board).  Elements
of classes that are not VASSAL's own (a module's custom Java) are listed in
``Module.unsupported`` with where they are, never silently dropped.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from engine.errors import BadFile, Problem
from engine.errors import excerpt
from engine.maps.numbering import VASSAL_MAX_LEADING, VASSAL_MAX_OFFSET, VassalLabels

MAP_CLASSES = ("Map", "PrivateMap", "PlayerHand", "WidgetMap")
SLOT_CLASSES = ("PieceSlot", "CardSlot")
STACK_CLASSES = ("SetupStack", "DrawPile")
# components that hold nothing an importer takes (dice, turn tracks, toolbars, ...): not reported
_ILLEGAL_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
MAX_XML_NODES = 1_000_000         # elements and attributes of one build file (about 350 MB once parsed)
MAX_COORDINATE = 10_000_000       # pixels: no board, offset or position is further out than this


@dataclass(frozen=True)
class Numbering:
    """A HexGridNumbering's options (VASSAL's attribute defaults; the board's size and the grid's ``sideways``
    complete them into ``VassalLabels``), and whether it is VASSAL's oblique numbering."""

    labels: VassalLabels = VassalLabels()
    oblique: bool = False


@dataclass
class HexGridSpec:
    sideways: bool = False
    x0: int = 0
    y0: int = 32
    dx: float = math.sqrt(3) / 2 * 64
    dy: float = 64.0
    snap: bool = True
    edges: bool = False
    corners: bool = False
    numbering: Numbering | None = None
    where: str = ""


@dataclass
class Zone:
    name: str
    points: list[tuple[int, int]]
    location_format: str = "$name$"
    grid: HexGridSpec | None = None
    use_parent: bool = False
    other_grid: str = ""

    def bounds(self) -> tuple[int, int, int, int]:
        """The polygon's bounding box (left, top, right, bottom), as Java's ``Polygon.getBounds``."""
        xs = [p[0] for p in self.points] or [0]
        ys = [p[1] for p in self.points] or [0]
        return min(xs), min(ys), max(xs), max(ys)

    def contains(self, x: float, y: float) -> bool:
        """Point in the zone's polygon (even-odd rule, as Java's Polygon)."""
        inside = False
        pts = self.points
        n = len(pts)
        for i in range(n):
            x1, y1 = pts[i]
            x2, y2 = pts[(i + 1) % n]
            if (y1 > y) != (y2 > y):
                xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                if x < xc:
                    inside = not inside
        return inside


@dataclass
class BoardSpec:
    name: str
    image: str = ""
    width: int = 0
    height: int = 0
    reversible: bool = False
    grid: HexGridSpec | None = None
    zones: list[Zone] = field(default_factory=list)
    other_grid: str = ""        # a grid kind that is not a hex grid (SquareGrid, RegionGrid, custom)
    where: str = ""
    grid_zone: Zone | None = None   # the zone whose own hex grid is ``grid`` (a board with no grid of its own)

    def zone_hex_grids(self) -> list[Zone]:
        """Zones with a hex grid of their own that is not the board's sheet (one sheet per board)."""
        return [z for z in self.zones if z.grid is not None and z is not self.grid_zone]


@dataclass
class Slot:
    """A piece definition: a palette entry, an at-start stack's piece or a prototype."""

    name: str
    text: str
    gpid: str = ""
    category: tuple[str, ...] = ()


@dataclass
class SetupStack:
    name: str
    owning_board: str = ""
    x: int = 0
    y: int = 0
    location: str = ""
    use_grid_location: bool = False
    slots: list[Slot] = field(default_factory=list)
    deck: bool = False


@dataclass
class MapSpec:
    name: str
    kind: str = "Map"
    edge: tuple[int, int] = (0, 0)
    boards: list[BoardSpec] = field(default_factory=list)
    picker_setup: str = ""
    stacks: list[SetupStack] = field(default_factory=list)

    def board(self, name: str) -> BoardSpec | None:
        return next((b for b in self.boards if b.name == name), None)


@dataclass
class Module:
    name: str = ""
    version: str = ""
    vassal_version: str = ""
    sides: list[str] = field(default_factory=list)
    maps: list[MapSpec] = field(default_factory=list)
    prototypes: dict[str, str] = field(default_factory=dict)
    palette: list[Slot] = field(default_factory=list)
    predefined: list[tuple[str, str]] = field(default_factory=list)     # (name, file in the archive)
    unsupported: list[str] = field(default_factory=list)


def cut(text: str, limit: int = 120) -> str:
    """A class name or other text from the file, shortened for the report."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"


def short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


GRID_KINDS = {"SquareGrid": "square grid", "RegionGrid": "region grid (named points)",
              "HexGrid": "hex grid", "ZonedGrid": "zoned grid"}


def grid_kind(tag: str) -> str | None:
    """What kind of grid an element of a board is, in words; None for what is no grid (a zone's highlighter,
    a board's other parts)."""
    name = short(tag)
    if not tag.startswith("VASSAL.") and "." in tag:
        return f"grid of the module's own class {cut(tag)}"
    if name in GRID_KINDS:
        return GRID_KINDS[name]
    return None


def parse_xml(data: bytes, file: str, entry: str) -> ET.Element:
    """The root element; on an XML error, strip characters XML forbids and try once more.

    The tree is built while its elements and attributes are counted: past :data:`MAX_XML_NODES` the
    file is refused before it can fill the memory (each costs a few hundred bytes once parsed).
    """
    try:
        return _parse_counted(data, file, entry)
    except (ET.ParseError, LookupError, ValueError):
        pass
    text = _ILLEGAL_XML.sub("", data.decode("utf-8", "replace"))
    try:
        return _parse_counted(text.encode("utf-8"), file, entry)
    except ET.ParseError as e:
        line, col = e.position
        raise BadFile([Problem(file, entry, f"is not well-formed XML (line {line}, column {col}: "
                                            f"{str(e).split(':')[0]})", line)]) from None
    except (LookupError, ValueError) as e:       # an encoding the parser does not know, or cannot read
        raise BadFile([Problem(file, entry, f"is not XML this program reads ({excerpt(str(e), 120)[1:-1]})")]) \
            from None


def _parse_counted(data: bytes, file: str, entry: str) -> ET.Element:
    parser = ET.XMLPullParser(events=("start",))
    nodes = 0
    root = None
    for at in range(0, len(data), 1 << 20):
        parser.feed(data[at:at + (1 << 20)])
        for _, el in parser.read_events():
            if root is None:
                root = el
            nodes += 1 + len(el.attrib)
        if nodes > MAX_XML_NODES:
            raise BadFile([Problem(file, entry, f"holds more than {MAX_XML_NODES:,} XML elements and attributes "
                                                f"(the largest modules hold a few hundred thousand)")])
    parser.close()
    for _, el in parser.read_events():
        root = root if root is not None else el
    if root is None:
        raise ET.ParseError("no element found")
    return root


class _Reader:
    def __init__(self, file: str, entry: str):
        self.file, self.entry = file, entry
        self.module = Module()

    def bad(self, key: str, message: str) -> BadFile:
        return BadFile([Problem(self.file, f"{self.entry}: {key}" if key else self.entry, message)])

    def boolean(self, el: ET.Element, name: str, default: bool) -> bool:
        v = el.get(name)
        return default if v is None or v == "" else v.strip().lower() == "true"

    def integer(self, el: ET.Element, name: str, default: int, where: str, low: int = -MAX_COORDINATE,
                high: int = MAX_COORDINATE) -> int:
        v = el.get(name)
        if v is None or v.strip() == "":
            return default
        try:
            x = float(v)
        except ValueError:
            raise self.bad(f"{where}.{name}", f"expected a whole number, found {excerpt(v)}") from None
        if not low <= x <= high:        # also infinities and NaN
            raise self.bad(f"{where}.{name}", f"expected a whole number from {low:,} to {high:,}, found {excerpt(v)}")
        return int(x)

    def number(self, el: ET.Element, name: str, default: float, where: str) -> float:
        v = el.get(name)
        if v is None or v.strip() == "":
            return default
        try:
            x = float(v)
        except ValueError:
            raise self.bad(f"{where}.{name}", f"expected a number, found {excerpt(v)}") from None
        if not math.isfinite(x) or abs(x) > MAX_COORDINATE:
            raise self.bad(f"{where}.{name}", f"expected a number from {-MAX_COORDINATE:,} to {MAX_COORDINATE:,}, "
                                              f"found {excerpt(v)}")
        return x

    # ------------------------------------------------------------ the tree
    def read(self, root: ET.Element) -> Module:
        m = self.module
        if short(root.tag) not in ("GameModule", "BasicModule", "ModuleExtension"):
            raise self.bad("", f"the root element is <{root.tag}>, not a VASSAL module "
                               f"(VASSAL.build.GameModule expected)")
        m.name = root.get("name", "")
        m.version = root.get("version", "")
        m.vassal_version = root.get("VassalVersion", root.get("vassalVersion", ""))
        self.walk(root, [], None, None)
        return m

    def walk(self, el: ET.Element, category: list[str], mp: MapSpec | None, stack: SetupStack | None) -> None:
        for child in el:
            tag = child.tag
            name = short(tag)
            if not tag.startswith("VASSAL.") and "." in tag:
                label = child.get("name") or child.get("entryName") or child.get("mapName") or ""
                self.module.unsupported.append(
                    f"custom component {cut(tag)}{' ' + excerpt(label) if label else ''}: a module's own Java class "
                    f"(skipped with everything inside it)")
                continue
            if name in MAP_CLASSES:
                self.read_map(child)
            elif name == "PrototypeDefinition":
                self.module.prototypes[child.get("name", "")] = child.text or ""
            elif name == "PlayerRoster":
                self.module.sides = [e.text.strip() for e in child if short(e.tag) == "entry" and e.text
                                     and e.text.strip()]
            elif name == "PredefinedSetup":
                if child.get("isMenu", "false") == "true":
                    self.walk(child, category, mp, stack)
                elif child.get("useFile", "true") != "false" and child.get("file"):
                    self.module.predefined.append((child.get("name", child.get("file")), child.get("file")))
            elif name in SLOT_CLASSES:
                slot = Slot(child.get("entryName", "") or child.get("name", ""), child.text or "",
                            child.get("gpid", ""), tuple(category))
                if stack is not None:
                    stack.slots.append(slot)
                else:
                    self.module.palette.append(slot)
            else:
                entry = child.get("entryName") or child.get("name")
                self.walk(child, category + [entry] if entry and name.endswith("Widget") else category, mp, stack)

    def read_map(self, el: ET.Element) -> None:
        m = self.module
        name = el.get("mapName") or f"Map{len(m.maps)}"
        mp = MapSpec(name, short(el.tag))
        where = f"Map {excerpt(name)}"
        if el.get("edge") and not el.get("edgeWidth"):
            try:
                w, h = (int(v) for v in el.get("edge").split(","))
                if max(abs(w), abs(h)) > MAX_COORDINATE:
                    raise ValueError
                mp.edge = (w, h)
            except ValueError:
                raise self.bad(f"{where}.edge", f"expected 'width,height' (whole numbers of pixels up to "
                                                f"{MAX_COORDINATE:,}), found {excerpt(el.get('edge'))}") from None
        else:
            mp.edge = (self.integer(el, "edgeWidth", 0, where), self.integer(el, "edgeHeight", 0, where))
        m.maps.append(mp)
        self.map_children(el, mp, where)

    def map_children(self, el: ET.Element, mp: MapSpec, where: str) -> None:
        for child in el:
            tag, name = child.tag, short(child.tag)
            if not tag.startswith("VASSAL.") and "." in tag:
                self.module.unsupported.append(f"{where}: custom component {cut(tag)} (a module's own Java class, skipped)")
                continue
            if name == "BoardPicker":
                for b in child:
                    if short(b.tag) == "setup":
                        mp.picker_setup = b.text or ""
                    elif short(b.tag) == "Board":
                        if not b.tag.startswith("VASSAL."):
                            self.module.unsupported.append(f"{where}: custom board class {cut(b.tag)} "
                                                           f"{excerpt(b.get('name', ''))} (skipped)")
                            continue
                        mp.boards.append(self.read_board(b, where))
                    elif "." in b.tag and not b.tag.startswith("VASSAL."):
                        self.module.unsupported.append(f"{where}: custom component {cut(b.tag)} (skipped)")
            elif name in STACK_CLASSES:
                st = SetupStack(child.get("name", ""), child.get("owningBoard", ""),
                                self.integer(child, "x", 0, f"{where} > SetupStack"),
                                self.integer(child, "y", 0, f"{where} > SetupStack"),
                                child.get("location", ""), self.boolean(child, "useGridLocation", False),
                                deck=name == "DrawPile")
                self.walk(child, [], mp, st)
                mp.stacks.append(st)
            else:
                self.map_children(child, mp, where)

    def read_board(self, el: ET.Element, where: str) -> BoardSpec:
        name = el.get("name", "")
        bwhere = f"{where} > Board {excerpt(name)}"
        b = BoardSpec(name, el.get("image", "") or "", self.integer(el, "width", 0, bwhere),
                      self.integer(el, "height", 0, bwhere), self.boolean(el, "reversible", False), where=bwhere)
        for g in el:
            gname = short(g.tag)
            if gname == "HexGrid":
                b.grid = self.read_hexgrid(g, bwhere)
            elif gname == "ZonedGrid":
                for z in g:
                    zn = short(z.tag)
                    if zn == "HexGrid":
                        b.grid = self.read_hexgrid(z, bwhere + " > ZonedGrid")
                    elif zn == "Zone":
                        b.zones.append(self.read_zone(z, bwhere))
                    elif zn != "Zone" and grid_kind(z.tag):
                        b.other_grid = b.other_grid or grid_kind(z.tag)
            elif grid_kind(g.tag):
                b.other_grid = grid_kind(g.tag)
        if b.grid is None:      # no grid for the whole board: the first zone with a hex grid of its own gives the sheet
            b.grid_zone = next((z for z in b.zones if z.grid is not None), None)
            if b.grid_zone is not None:
                b.grid = b.grid_zone.grid
        return b

    def read_zone(self, el: ET.Element, where: str) -> Zone:
        name = el.get("name", "")
        zwhere = f"{where} > Zone {excerpt(name)}"
        pts = []
        for pair in (el.get("path") or "").split(";"):
            if not pair.strip():
                continue
            try:
                x, y = (float(v) for v in pair.split(","))
                if not max(abs(x), abs(y)) <= MAX_COORDINATE:
                    raise ValueError
            except ValueError:
                raise self.bad(f"{zwhere}.path", f"expected points 'x,y;x,y;...' (pixels up to {MAX_COORDINATE:,}), "
                                                 f"found {excerpt(pair)}") from None
            pts.append((int(x), int(y)))
        z = Zone(name, pts, el.get("locationFormat", "$name$") or "$name$",
                 use_parent=self.boolean(el, "useParentGrid", False))
        for g in el:
            if short(g.tag) == "HexGrid":
                z.grid = self.read_hexgrid(g, zwhere)
            elif grid_kind(g.tag):
                z.other_grid = grid_kind(g.tag)
        return z

    def read_hexgrid(self, el: ET.Element, where: str) -> HexGridSpec:
        gwhere = f"{where} > HexGrid"
        dy = self.number(el, "dy", 64.0, gwhere)
        dx = self.number(el, "dx", math.sqrt(3) / 2 * dy, gwhere)
        for k, v in (("dx", dx), ("dy", dy)):
            if v <= 0:
                raise self.bad(f"{gwhere}.{k}", f"the hex spacing must be more than 0, found {excerpt(el.get(k))}")
        g = HexGridSpec(self.boolean(el, "sideways", False), self.integer(el, "x0", 0, gwhere),
                        self.integer(el, "y0", 32, gwhere), dx, dy, self.boolean(el, "snapTo", True),
                        self.boolean(el, "edgesLegal", False), self.boolean(el, "cornersLegal", False), where=gwhere)
        for n in el:
            nn = short(n.tag)
            if nn in ("HexGridNumbering", "ObliqueHexGridNumbering"):
                nwhere = f"{gwhere} > {nn}"
                first = (n.get("first") or "H")[:1].upper()
                types = {}
                for k in ("hType", "vType"):
                    t = (n.get(k) or "N")[:1].upper()
                    if t not in ("N", "A"):
                        raise self.bad(f"{nwhere}.{k}", f"expected N (numbers) or A (letters), found {excerpt(n.get(k))}")
                    types[k] = t
                if first not in ("H", "V"):
                    raise self.bad(f"{nwhere}.first", f"expected H or V, found {excerpt(n.get('first'))}")
                lead = dict(low=0, high=VASSAL_MAX_LEADING)
                off = dict(low=-VASSAL_MAX_OFFSET, high=VASSAL_MAX_OFFSET)
                try:
                    labels = VassalLabels(
                        first=first, sep=n.get("sep", "") or "", h_type=types["hType"], v_type=types["vType"],
                        h_leading=self.integer(n, "hLeading", 1, nwhere, **lead),
                        v_leading=self.integer(n, "vLeading", 1, nwhere, **lead),
                        h_off=self.integer(n, "hOff", 1, nwhere, **off), v_off=self.integer(n, "vOff", 1, nwhere, **off),
                        h_descend=self.boolean(n, "hDescend", False), v_descend=self.boolean(n, "vDescend", False),
                        stagger=self.boolean(n, "stagger", True),
                        location_format=n.get("locationFormat", "$gridLocation$") or "$gridLocation$")
                except ValueError as e:          # a separator or location format too long
                    raise self.bad(nwhere, str(e)) from None
                g.numbering = Numbering(labels, oblique=nn.startswith("Oblique"))
            elif "." in n.tag and not n.tag.startswith("VASSAL."):
                self.module.unsupported.append(f"{gwhere}: custom numbering class {cut(n.tag)} (its labels cannot be "
                                               f"reproduced)")
        return g


def read_module(data: bytes, file: str, entry: str) -> Module:
    """The module described by a build file's bytes; BadFile naming the file and entry when malformed."""
    root = parse_xml(data, file, entry)
    return _Reader(file, entry).read(root)


def read_metadata(data: bytes) -> dict[str, str]:
    """``moduledata``/``savedata``: name, version, VassalVersion, description (missing ones left out)."""
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, LookupError, ValueError):
        return {}
    out = {}
    for k in ("name", "version", "VassalVersion", "description"):
        e = root.find(k)
        if e is not None and e.text:
            out[k] = e.text.strip()
    return out
