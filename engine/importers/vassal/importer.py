"""Import a VASSAL module: maps with their grids, counters, and set-ups as free-play scenarios.

``import_module(MODULE, OUTDIR)`` writes, under OUTDIR:

- ``maps/<map>.toml`` and the board images (copied in chunks, never decoded): one map per
  VASSAL map with hex-gridded boards, one sheet per such board;
- ``counters/`` the faces of every palette piece and ``counters/manifest.toml``;
- ``scenarios/<id>.toml`` (ruleset ``free``) for the at-start stacks, each pre-defined set-up
  and each save or log given, with ``scenarios/assets/<id>/counters/<unit>-front.png``;
- ``import-report.txt``: what was imported, and everything that could not come across;
- ``import-record.toml``: the module's name and the SHA-256 of every file written (see ``outdir``).

A broken module raises :class:`BadFile` naming the module and the entry.  The import is
written whole into a staging folder beside OUTDIR and moved into it only when it has
succeeded: a refused import writes nothing.  OUTDIR must be new, empty or a previous import
of the same module, and no file the importer did not write is ever replaced or removed
(:mod:`engine.importers.vassal.outdir`).  Everything read is bounded (the build file, saves,
images, grids: see the limits in ``archive``, ``buildfile``, ``grid`` and ``faces``), so a
hostile module is refused in words and within a few hundred megabytes of memory.
"""
from __future__ import annotations

import io
import os
import re
import shutil
from collections import deque
from concurrent.futures import ThreadPoolExecutor
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import BadFile, Problem
from engine.fileio import atomic_write_text, write_toml
from engine.maps.board import Board, Box
from engine.maps.mapfile import MAX_HEXES, save_map

from . import grid as G
from . import svgdraw
from .archive import IMAGE_FILE_LIMIT, METADATA_LIMIT, SAVE_LIMIT, Archive
from .outdir import FolderTaken, check_outdir, check_same_module, publish, remove_stage, stage_beside
from .buildfile import BoardSpec, MapSpec, read_metadata, read_module
from .faces import Faces, faces_of
from .pieces import Piece, PieceError, read_piece
from .saves import Layout, SavedGame, deobfuscate, parse_board_picker, read_commands

OFF_GRID = "off-grid"
MAX_HEXES_IMPORTED = MAX_HEXES       # all the maps of one import together
MAX_BOARD_PIXELS = 1_000_000_000     # the play window's limit on a map image (a 40,000 x 25,000 scan)
SLUG_CHARS = 40
MAX_PENDING = 64                     # counter faces drawn and waiting to be encoded and written


@dataclass
class PlacedBoard:
    spec: BoardSpec
    x: int                      # top-left corner in map coordinates
    y: int
    width: int
    height: int
    reversed: bool = False
    sheet_id: str = ""          # "" when the board is not a sheet
    col: int = 0                # its place in VASSAL's board picker
    row: int = 0


@dataclass
class MapOut:
    spec: MapSpec
    boards: list[PlacedBoard]
    stem: str = ""              # the map file's name without .toml
    board: Board | None = None
    path: Path | None = None
    box_of_zone: dict[tuple[str, str], str] = field(default_factory=dict)
    box_of_map: dict[str, str] = field(default_factory=dict)      # another VASSAL map's name -> its box


@dataclass
class ImportResult:
    maps: list[Path] = field(default_factory=list)
    scenarios: list[Path] = field(default_factory=list)
    manifest: Path | None = None
    report: Path | None = None
    lines: list[str] = field(default_factory=list)       # the report
    counters: int = 0
    units: int = 0
    max_error_px: float = 0.0
    svg_drawn: int = 0


def slug(text: str, default: str = "x") -> str:
    t = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    t = re.sub(r"[^A-Za-z0-9]+", "-", t[:4 * SLUG_CHARS]).strip("-").lower()[:SLUG_CHARS].strip("-")
    return t or default


SIDE_COLOURS = ["#3c5aa6", "#b0302a", "#4f7d2c", "#c7901c", "#6a3d8f", "#2a8a8a", "#8a5a2a", "#5a5a5a"]


def side_stem(side: str) -> str:
    """The part of a side's name its pieces' words share: 'Germans' and 'German', 'Allies' and 'Allied'."""
    s = side.lower().strip()
    return s[:max(4, len(s) - 2)] if len(s) > 4 else s


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def side_of(sides: list[str], tags: list[str]) -> str | None:
    """The one side of the module's roster that a piece's prototypes, markers or palette folders name;
    None when none does, or more than one."""
    found = set()
    for side in sides:
        stem = side_stem(side)
        whole = side.lower().strip()
        for tag in tags:
            t = tag.lower().strip()
            if t == whole or any(w.startswith(stem) for w in words(t)) or (" " in whole and whole in t):
                found.add(side)
                break
    return found.pop() if len(found) == 1 else None


def unique(base: str, taken: set[str]) -> str:
    name, n = base, 2
    while name in taken:
        name = f"{base}-{n}"
        n += 1
    taken.add(name)
    return name


class Importer:
    def __init__(self, module_path, outdir, saves=(), progress=None):
        self.module_path = Path(module_path)
        self.file = str(module_path)
        self.out = Path(outdir)
        self.saves = [Path(s) for s in saves]
        self.progress = progress or (lambda fraction, text: None)
        self.report: list[str] = []
        self.not_imported: list[str] = []
        self.result = ImportResult()
        self.png_cache: dict = {}
        self.face_names: dict = {}
        self.pending: deque = deque()

    # ------------------------------------------------------------ the whole import
    def run(self) -> ImportResult:
        final = self.out
        record = check_outdir(final)
        self.progress(0.0, "Reading the module")
        with Archive(self.module_path) as arc:
            self.arc = arc
            entry, data = arc.build_file()
            module = read_module(data, self.file, entry)
            del data
            meta = read_metadata(arc.read("moduledata", METADATA_LIMIT)) if arc.has("moduledata") else {}
            module.name = meta.get("name", module.name) or self.module_path.stem
            module.version = meta.get("version", module.version)
            self.module = module
            check_same_module(final, record, module.name)
            stage = stage_beside(final)
            try:
                self.out = stage
                with ThreadPoolExecutor(2, thread_name_prefix="faces") as self.pool:
                    try:
                        self.write_all(entry)
                    finally:
                        for f in self.pending:
                            f.cancel()
                        self.pending.clear()
                publish(stage, final, record, module.name, self.module_path.name)
            except FolderTaken:
                raise
            except OSError as e:
                where = f" ({e.filename})" if getattr(e, "filename", None) else ""
                raise BadFile([Problem(str(final), "", f"the import cannot be written: "
                                                       f"{e.strerror or e}{where}")]) from None
            finally:
                self.out = final
                remove_stage(stage)
        r = self.result
        moved = (lambda p: final / p.relative_to(stage) if p is not None else None)   # noqa: E731
        r.maps, r.scenarios = [moved(p) for p in r.maps], [moved(p) for p in r.scenarios]
        r.manifest, r.report = moved(r.manifest), moved(r.report)
        self.progress(1.0, "Done")
        return r

    def write_all(self, entry: str) -> None:
        module, arc = self.module, self.arc
        self.report.append(f"Module: {module.name} {module.version}".rstrip()
                           + f" ({self.module_path.name}, build file {entry})")
        self.not_imported.extend(module.unsupported)
        plans = [self.plan_maps(m) for m in module.maps]     # board sizes, missing images: before writing
        self.progress(0.1, "Writing the maps")
        for d in ("maps", "scenarios"):
            (self.out / d).mkdir(parents=True, exist_ok=True)
        self.hexes_left = MAX_HEXES_IMPORTED
        self.stems: set[str] = set()
        self.copied_images: set[str] = set()
        self.maps = [self.write_map(mo) for plan in plans for mo in plan]
        self.main = next((m for m in self.maps if m.board is not None), None)
        self.faces = Faces(arc)
        self.gpid_tags: dict[str, list[str]] = {}
        self.piece_notes: dict[str, list[str]] = {}
        self.look_side: dict[tuple[str, str], set[str | None]] = {}
        self.progress(0.5, "Drawing the counters")
        self.write_manifest()
        self.progress(0.7, "Writing the set-ups")
        self.side_lines = []
        self.write_setups()
        self.report_piece_notes()
        self.report_images()
        self.report.extend(self.side_lines)
        self.write_report()

    # ------------------------------------------------------------ maps
    def default_layout(self, m: MapSpec) -> Layout | None:
        """The layout VASSAL opens the map with: the board picker's ``<setup>``, or its only board when that
        board is not reversible (``BoardPicker.getDefaultSetup``); None when the player must choose."""
        if m.picker_setup:
            bp = parse_board_picker(m.picker_setup.strip())
            if bp and bp[1].boards:
                return bp[1]
        if len(m.boards) == 1:
            return Layout([(m.boards[0].name, False, 0, 0)])
        return None

    def layout_of(self, m: MapSpec, layout: Layout | None = None) -> list[tuple[BoardSpec, bool, int, int]]:
        layout = layout if layout is not None else self.default_layout(m)
        out = []
        for name, rev, c, r in (layout.boards if layout is not None else []):
            b = m.board(name)
            if b is None:
                self.not_imported.append(f"Map {m.name!r}: board {name!r} of its layout is not defined")
            else:
                out.append((b, rev, c, r))
        return out

    def plan_maps(self, m: MapSpec) -> list[MapOut]:
        """The Sandtable maps of a VASSAL map: one laid out as VASSAL opens it, or, when its board picker offers
        boards with no default layout, one map for each board (a set-up then opens the one it names)."""
        if not m.boards:
            return []
        if self.default_layout(m) is not None:
            return [self.plan_map(m)]
        self.report.append(f"Map {m.name!r}: {len(m.boards)} boards to choose from and no default layout: one map "
                           f"for each board ({', '.join(repr(b.name) for b in m.boards)})")
        out = []
        for b in m.boards:      # boards offered one at a time: one that cannot be read leaves the others be
            try:
                out.append(self.plan_map(m, Layout([(b.name, False, 0, 0)])))
            except BadFile as e:
                self.not_imported.extend(f"Map {m.name!r}, board {b.name!r}: {self.module_path.name}: {p.key}: "
                                         f"{p.message}" for p in e.problems)
        return out

    def board_size(self, b: BoardSpec) -> tuple[int, int]:
        if b.image:
            entry = self.arc.image_entry(b.image)
            if entry is None:
                raise BadFile([Problem(self.file, f"images/{b.image}", f"missing: the image of {b.where} "
                                                                       f"(its 'image' attribute names it)")])
            return self.arc.image_size(entry)
        if b.width > 0 and b.height > 0:
            return b.width, b.height
        raise BadFile([Problem(self.file, f"{b.where}.image", "a board needs an image, or a width and height")])

    def plan_map(self, m: MapSpec, layout: Layout | None = None) -> MapOut:
        placed = [(b, rev, c, r, *self.board_size(b)) for b, rev, c, r in self.layout_of(m, layout)]
        out = []
        for b, rev, c, r, w, h in placed:
            x = m.edge[0] + sum(pw for pb, _, pc, pr, pw, _ in placed if pr == r and pc < c)
            y = m.edge[1] + sum(ph for pb, _, pc, pr, _, ph in placed if pc == c and pr < r)
            out.append(PlacedBoard(b, x, y, w, h, rev))
            out[-1].col, out[-1].row = c, r
        return MapOut(m, out)

    @staticmethod
    def layout_key(mo: MapOut) -> tuple:
        return tuple(sorted((pb.spec.name, pb.reversed, pb.col, pb.row) for pb in mo.boards))

    def write_map(self, mo: MapOut) -> MapOut:
        m = mo.spec
        gridded = [pb for pb in mo.boards if pb.spec.grid is not None]
        for pb in mo.boards:
            if pb.spec.grid is None:
                what = f"a {pb.spec.other_grid}" if pb.spec.other_grid else "no grid"
                line = (f"Map {m.name!r}, board {pb.spec.name!r}: {what} (only hex grids become map sheets; its "
                        f"pieces go to an off-map box)")
                if line not in self.not_imported:
                    self.not_imported.append(line)
        if not gridded:
            return mo
        orientation = "pointy" if gridded[0].spec.grid.sideways else "flat"
        taken: set[str] = set()
        sheets = []
        prefix_needed = len(gridded) > 1
        # sheets keep VASSAL's columns and rows of boards: a column starts past the widest board of the columns
        # before it, a row below the tallest board of the rows above
        span = {pb.spec.name: G.hex_count(pb.spec.grid, pb.width, pb.height) for pb in gridded}
        flat_map = orientation == "flat"
        def across(pb): return span[pb.spec.name][0 if flat_map else 1]      # noqa: E301,E704
        def down(pb): return span[pb.spec.name][1 if flat_map else 0]        # noqa: E301,E704
        col_start = {c: sum(max(across(q) for q in gridded if q.col == k) + 1 for k in {q.col for q in gridded}
                            if k < c) for c in {q.col for q in gridded}}
        row_start = {r: sum(max(down(q) for q in gridded if q.row == k) + 1 for k in {q.row for q in gridded}
                            if k < r) for r in {q.row for q in gridded}}
        for pb in gridded:
            b, g = pb.spec, pb.spec.grid
            if ("pointy" if g.sideways else "flat") != orientation:
                self.not_imported.append(f"Map {m.name!r}, board {b.name!r}: its hexes are turned the other way "
                                         f"from the map's first board (one map has one orientation)")
                continue
            if pb.reversed:      # VASSAL turns it round; its hexes keep their labels, so pieces find their hexes
                self.report.append(f"Map {m.name!r}, board {b.name!r}: reversed in VASSAL's layout (turned round); "
                                   f"shown the right way up, its pieces on the hexes VASSAL names")
            svg = bool(b.image) and b.image.lower().endswith(".svg")
            if pb.width * pb.height > MAX_BOARD_PIXELS:
                self.not_imported.append(f"Map {m.name!r}, board {b.name!r}: its image is {pb.width:,} x "
                                         f"{pb.height:,} pixels (at most {MAX_BOARD_PIXELS:,} pixels are shown)")
                continue
            sid = unique(slug(b.name, "board"), taken)
            image = None
            if b.image:
                image = f"{slug(m.name, 'map')}-{sid}{'.png' if svg else Path(b.image).suffix.lower() or '.png'}"
            col_at, row_at = col_start[pb.col], row_start[pb.row]
            origin = (col_at, row_at - (col_at // 2)) if orientation == "flat" else (col_at - (row_at // 2), row_at)
            zone = b.grid_zone
            try:
                fit = G.make_sheet(sid, image, g, pb.width, pb.height, origin,
                                   prefix=f"{sid}-" if prefix_needed else "", max_hexes=self.hexes_left,
                                   area=zone.bounds() if zone is not None else None)
            except G.GridRefused as e:
                self.not_imported.append(f"Map {m.name!r}, board {b.name!r}: the grid is not imported: {e}")
                continue
            if g.edges or g.corners:
                self.not_imported.append(f"Map {m.name!r}, board {b.name!r}: pieces may also sit on hexsides or "
                                         f"corners in VASSAL; in Sandtable they sit in hexes")
            if image and image not in self.copied_images:
                if svg:
                    why = self.draw_svg_board(self.arc.image_entry(b.image), pb, self.out / "maps" / image)
                    if why:
                        self.not_imported.append(f"Map {m.name!r}, board {b.name!r}: its SVG image {b.image!r} "
                                                 f"cannot be drawn ({why})")
                        continue
                    self.report.append(f"Map {m.name!r}, board {b.name!r}: its SVG image drawn, "
                                       f"{pb.width:,} x {pb.height:,} pixels")
                else:
                    self.arc.copy_to(self.arc.image_entry(b.image), self.out / "maps" / image)
                self.copied_images.add(image)
            sheets.append(fit.sheet)
            self.hexes_left -= fit.sheet.numbering.cols * fit.sheet.numbering.rows
            pb.sheet_id = sid
            self.result.max_error_px = max(self.result.max_error_px, fit.max_error)
            ns = fit.sheet.numbering
            self.report.append(
                f"Map {m.name!r}, board {b.name!r}"
                + (f" (the hex grid of its zone {zone.name!r})" if zone is not None else "")
                + f": sheet {sid}, {ns.cols} x {ns.rows} hexes "
                f"({'pointy' if g.sideways else 'flat'} top), ids {ns.format_colrow(ns.first_col, ns.first_row)} to "
                f"{ns.format_colrow(ns.first_col + ns.cols - 1, ns.first_row + ns.rows - 1)}; every centre within "
                f"{fit.max_error:.2f} px of VASSAL's, "
                + ("every label checked both ways" if g.numbering is not None else
                   "labels of Sandtable's own choice (VASSAL numbers none of this grid's hexes: they follow "
                   "VASSAL's defaults, column then row from 1, and a VASSAL player sees none of them)")
                + ("; ids carry the sheet's name in front, as the boards repeat each other's labels"
                   if prefix_needed else ""))
        if not sheets:
            return mo
        boxes = {OFF_GRID: Box(OFF_GRID, "Off the grid", "holding")}
        btaken = {OFF_GRID}
        for pb in gridded:
            for z in pb.spec.zones:
                if z is pb.spec.grid_zone or (z.use_parent and pb.spec.grid_zone is None):
                    continue        # its hexes are the sheet's
                if z.grid is not None:
                    self.not_imported.append(
                        f"Map {m.name!r}, board {pb.spec.name!r}: zone {z.name!r} has a hex grid of its own; one grid "
                        f"of a board becomes its sheet, so the zone is an off-map box")
                bid = unique(slug(z.name, "zone"), btaken)
                boxes[bid] = Box(bid, z.name or bid, "holding")
                mo.box_of_zone[(pb.spec.name, z.name)] = bid
        for other in self.module.maps:
            if other is not m:
                bid = unique("map-" + slug(other.name, "map"), btaken)
                boxes[bid] = Box(bid, other.name, "holding")
                mo.box_of_map[other.name] = bid
        title = m.name
        if len(mo.boards) == 1 and len(m.boards) > 1:
            title = f"{m.name}: {mo.boards[0].spec.name}"
        board = Board(name=title, orientation=orientation, sheets=sheets, boxes=boxes,
                      notes=f"Imported from the VASSAL module {self.module.name!r} ({self.module_path.name}).")
        base = slug(m.name, "map")
        if len(mo.boards) == 1 and m.boards and len(m.boards) > 1 and self.default_layout(m) is None:
            base = f"{base}-{slug(mo.boards[0].spec.name, 'board')}"
        elif self.default_layout(m) is not None and self.layout_key(mo) != self.layout_key(self.plan_map(m)):
            base = f"{base}-" + "-".join(slug(pb.spec.name, "board") for pb in mo.boards)[:SLUG_CHARS]
        mo.stem = unique(base, self.stems)
        path = self.out / "maps" / f"{mo.stem}.toml"
        save_map(board, path)
        mo.board, mo.path = board, path
        self.result.maps.append(path)
        return mo

    def draw_svg_board(self, entry: str, pb: PlacedBoard, path: Path) -> str:
        """Draw a board's SVG image to a PNG at ``path``; what went wrong, or "" when it is drawn."""
        def source(name: str) -> bytes | None:
            e = self.arc.image_entry(name.rsplit("/", 1)[-1])
            try:
                return self.arc.read(e, svgdraw.MAX_SVG_BYTES) if e else None
            except BadFile:
                return None
        try:
            img = svgdraw.draw(self.arc.read(entry, svgdraw.MAX_SVG_BYTES), svgdraw.Library(source))
        except (svgdraw.SvgError, BadFile) as e:
            return str(e)
        if img.size != (pb.width, pb.height):
            return f"drawn {img.width} x {img.height} pixels where its declared size is {pb.width} x {pb.height}"
        img.save(path, "PNG", compress_level=1)
        return ""

    # ------------------------------------------------------------ where a piece is
    def home_for(self, layouts: dict[str, Layout] | None) -> MapOut | None:
        """The map a set-up opens: the main VASSAL map laid out as the set-up says (a map of its own is written
        for a layout no other map has), else as VASSAL opens it."""
        main = self.main
        if main is None:
            return None
        layout = (layouts or {}).get(main.spec.name)
        if layout is None or not layout.boards:
            return main
        want = self.plan_map(main.spec, layout)
        if not want.boards:
            return main
        key = self.layout_key(want)
        for mo in self.maps:
            if mo.spec is main.spec and mo.board is not None and self.layout_key(mo) == key:
                return mo
        mo = self.write_map(want)
        self.maps.append(mo)
        return mo if mo.board is not None else main

    def locate(self, home: MapOut, mapname: str, x: int, y: int) -> str:
        """``hex id`` or ``box:ID`` on the map ``home`` for a piece at VASSAL map point (x, y)."""
        if mapname != home.spec.name:
            other = next((m for m in self.module.maps if m.name == mapname), None)
            if other is None:
                return f"box:{OFF_GRID}"
            return "box:" + home.box_of_map[other.name]
        for pb in home.boards:
            if pb.x <= x < pb.x + pb.width and pb.y <= y < pb.y + pb.height:
                bx, by = x - pb.x, y - pb.y
                if pb.reversed:
                    bx, by = pb.width - bx, pb.height - by
                zone = next((z for z in pb.spec.zones if z.contains(bx, by)), None)    # the first zone names it
                if zone is not None and (pb.spec.name, zone.name) in home.box_of_zone:
                    return "box:" + home.box_of_zone[(pb.spec.name, zone.name)]
                if zone is None and pb.spec.grid_zone is not None:
                    return f"box:{OFF_GRID}"      # the board's only hex grid is a zone's: no grid out here
                return self.hex_on(home, pb, bx, by)
        return f"box:{OFF_GRID}"

    def hex_on(self, home: MapOut, pb: PlacedBoard, bx: int, by: int) -> str:
        if not pb.sheet_id or pb.spec.grid is None:
            return f"box:{OFF_GRID}"
        sheet = home.board.sheet(pb.sheet_id)
        ns = sheet.numbering
        nx, ny = G.raw(pb.spec.grid, bx, by)
        c, r = (nx, ny) if ns.orientation == "flat" else (ny, nx)
        if not ns.contains_colrow(c, r):
            return f"box:{OFF_GRID}"
        return ns.format_colrow(c, r)

    # ------------------------------------------------------------ counters
    def write_faces(self, piece: Piece, folder: Path, stem: str) -> dict[str, str]:
        """The piece's faces as PNG files in a staging folder (each look is drawn and encoded once).

        A face that is one PNG of the module as it stands (square, drawn over nothing, covering what is under
        it) is copied byte for byte; the others are encoded and written by two threads (Pillow's encoder lets
        go of the interpreter) while the next faces are drawn, at most ``MAX_PENDING`` waiting at a time."""
        key = (piece.image, tuple((tuple(layer.images), layer.level, layer.x_off, layer.y_off, layer.scale)
                                  for layer in piece.layers))
        encoded = self.png_cache.get(key)
        if encoded is None:
            faces = faces_of(self.faces, piece)
            # the archive is read here, in this thread only; the threads encode and write
            copied = {face: self.arc.read(img.info["source"], IMAGE_FILE_LIMIT) for face, img in faces.items()
                      if img.info.get("source") is not None}
            copied.update((face, img.info["png"]) for face, img in faces.items() if img.info.get("png") is not None)
            encoded = self.pool.submit(self._encode, {f: img for f, img in faces.items() if f not in copied}, copied)
            self.png_cache[key] = encoded
            faces_names = list(faces)
            self.face_names[key] = faces_names
        names = {face: f"{stem}-{face}.png" for face in self.face_names[key]}
        self.pending.append(self.pool.submit(self._write, encoded, folder, names))
        while len(self.pending) > MAX_PENDING:
            self.pending.popleft().result()
        return names

    @staticmethod
    def _encode(faces: dict, copied: dict[str, bytes]) -> dict[str, bytes]:
        out = dict(copied)
        for face, img in faces.items():
            buf = io.BytesIO()
            img.save(buf, "PNG", compress_level=1)     # a fast deflate: faces are small, speed counts
            out[face] = buf.getvalue()
        return out

    @staticmethod
    def _write(encoded, folder: Path, names: dict[str, str]) -> None:
        data = encoded.result()
        for face, name in names.items():
            with open(folder / name, "wb") as f:
                f.write(data[face])

    def finish_writing(self) -> None:
        """Wait for every face to be written (an error in writing one is raised here)."""
        while self.pending:
            self.pending.popleft().result()

    def staging(self, folder: Path) -> Path:
        """A fresh folder beside ``folder`` to write into; :meth:`publish` puts it in place."""
        tmp = folder.with_name(folder.name + ".part")
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        return tmp

    def publish(self, tmp: Path, folder: Path) -> None:
        """Replace ``folder`` by the staged one (renames: a reader sees the old images or the new ones)."""
        old = folder.with_name(folder.name + ".old")
        if old.exists():
            shutil.rmtree(old)
        if folder.exists():
            os.replace(folder, old)
        os.replace(tmp, folder)
        if old.exists():
            shutil.rmtree(old)

    def write_manifest(self) -> None:
        final = self.out / "counters"
        folder = self.staging(final)
        taken: set[str] = set()
        entries = []
        for slot in self.module.palette:
            try:
                piece = read_piece(slot.text, self.module.prototypes, slot.name)
            except PieceError as e:
                self.not_imported.append(f"palette piece {slot.name!r}: {e}")
                continue
            name = piece.display_name() or slot.name
            pid = unique(slug(slot.name or name, "piece"), taken)
            files = self.write_faces(piece, folder, pid)
            self.note_piece(piece)
            e = {"id": pid, "name": name}
            side = side_of(self.module.sides, piece.tags + list(slot.category))
            if side:
                e["side"] = side
            # a save's pieces carry their traits expanded, often with no palette id: they are known by look
            for key in ((name, piece.image), ("", piece.image), (name, "")):
                if any(key):
                    self.look_side.setdefault(key, set()).add(side)
            if slot.gpid:
                self.gpid_tags[slot.gpid] = list(slot.category)
            if slot.category:
                e["category"] = list(slot.category)
            if slot.gpid:
                e["gpid"] = slot.gpid
            for face in ("front", "back"):
                if face in files:
                    e[face] = files[face]
            states = [files[k] for k in sorted(files) if k.startswith("state-")]
            if states:
                e["states"] = states
            entries.append(e)
        write_toml(folder / "manifest.toml", {"manifest": {"format": 1, "module": self.module.name,
                                                           "version": self.module.version}, "pieces": entries})
        self.finish_writing()
        self.publish(folder, final)
        self.result.manifest = final / "manifest.toml"
        self.result.counters = len(entries)
        self.report.append(f"Counters: {len(entries)} palette pieces (counters/manifest.toml), "
                           f"{len(self.module.prototypes)} prototypes")

    # ------------------------------------------------------------ set-ups
    def write_setups(self) -> None:
        if self.main is None:
            self.not_imported.append("no map with a hex grid: no scenario can be made")
            return
        stacks = self.at_start()
        if stacks:
            self.write_scenario("at-start", f"{self.module.name}: at start", stacks, self.main)
        for name, file in self.module.predefined:
            if not self.arc.has(file):
                self.not_imported.append(f"pre-defined set-up {name!r}: its file {file!r} is not in the module")
                continue
            try:
                data = self.arc.read(file, SAVE_LIMIT)
                game = self.read_save_bytes(data, f"{self.module_path.name}: {file}")
            except BadFile as e:
                self.not_imported.extend(f"pre-defined set-up {name!r}: {p}" for p in e.problems)
                continue
            home = self.home_for(game.layouts)
            self.write_scenario(slug(name, "setup"), f"{self.module.name}: {name}", self.from_save(game, home), home)
        for path in self.saves:
            with Archive(path) as sarc:
                if not sarc.has("savedGame"):
                    raise sarc.bad("savedGame", "missing: a VASSAL save or log holds a savedGame entry")
                game = read_commands(deobfuscate(sarc.read("savedGame"), str(path)), str(path),
                                     self.module.prototypes)
            home = self.home_for(game.layouts)
            self.write_scenario(slug(path.stem, "save"), f"{self.module.name}: {path.stem}", self.from_save(game, home),
                                home)

    def read_save_bytes(self, data: bytes, label: str) -> SavedGame:
        if data[:10] == b"begin_save" or data[:5] == b"!VCSK":
            # VASSAL 2's saves are the command text itself, not a ZIP archive
            return read_commands(deobfuscate(data, label, ""), label, self.module.prototypes)
        with Archive(io.BytesIO(data), name=label) as sarc:
            if not sarc.has("savedGame"):
                raise sarc.bad("savedGame", "missing: a VASSAL save holds a savedGame entry")
            return read_commands(deobfuscate(sarc.read("savedGame"), label), label, self.module.prototypes)

    def at_start(self) -> list[tuple[Piece, str]]:
        out = []
        for spec in self.module.maps:       # each VASSAL map once, the main one as its set-ups open it
            mo = self.main if spec is self.main.spec else next((m for m in self.maps if m.spec is spec),
                                                                MapOut(spec, []))
            for st in mo.spec.stacks:
                if st.deck:
                    self.not_imported.append(f"Map {mo.spec.name!r}: deck {st.name!r} (card piles are not imported)")
                    continue
                where = self.stack_place(mo, st)
                for slot in st.slots:
                    try:
                        piece = read_piece(slot.text, self.module.prototypes, slot.name)
                    except PieceError as e:
                        self.not_imported.append(f"at-start stack {st.name!r}, piece {slot.name!r}: {e}")
                        continue
                    out.append((piece, where))
        return out

    def stack_place(self, mo: MapOut, st) -> str:
        pb = next((b for b in mo.boards if b.spec.name == st.owning_board), None)
        if st.use_grid_location and pb is not None and pb.sheet_id and self.main is mo:
            ns = mo.board.sheet(pb.sheet_id).numbering
            label = st.location.strip()
            if ns.vassal.location_format.startswith(pb.sheet_id + "-"):      # the map's ids carry the sheet's name
                label = f"{pb.sheet_id}-{label}"
            if ns.matches(label):
                return label
            self.not_imported.append(f"at-start stack {st.name!r}: location {st.location!r} is not a hex of "
                                     f"board {st.owning_board!r} (placed off the grid)")
            return f"box:{OFF_GRID}"
        if st.use_grid_location:
            self.not_imported.append(f"at-start stack {st.name!r}: location {st.location!r} names no hex "
                                     f"(placed off the grid)")
            return f"box:{OFF_GRID}"
        if st.owning_board and pb is None and mo.spec is self.main.spec:
            return f"box:{OFF_GRID}"          # a board the map is not opened with: its pieces stay off the map
        if pb is not None:
            x, y = st.x + pb.x, st.y + pb.y
        else:
            x, y = st.x + mo.spec.edge[0], st.y + mo.spec.edge[1]
        return self.locate(self.main, mo.spec.name, x, y)

    def from_save(self, game: SavedGame, home: MapOut) -> list[tuple[Piece, str]]:
        self.not_imported.extend(n for n in game.notes if n not in self.not_imported)
        out = []
        for pid, piece in game.pieces.items():
            if not piece.map:
                continue
            out.append((piece, self.locate(home, piece.map, piece.x, piece.y)))
        return out

    def write_scenario(self, base: str, title: str, placed: list[tuple[Piece, str]], home: MapOut) -> None:
        taken_sc = {p.stem for p in self.result.scenarios}
        sid = unique(slug(self.module.name, "vassal") + "-" + base, taken_sc)
        path = self.out / "scenarios" / f"{sid}.toml"
        final = self.out / "scenarios" / "assets" / sid / "counters"
        final.parent.mkdir(parents=True, exist_ok=True)
        folder = self.staging(final)
        taken: set[str] = set()
        units, on_map = [], []
        side_ids, staken = {}, {"pieces"}
        for side in self.module.sides:
            side_ids[side] = unique(slug(side, "side"), staken)
        unassigned: list[str] = []
        for piece, where in placed:
            if not where:
                continue
            name = piece.display_name() or "piece"
            uid = unique(slug(name, "piece"), taken)
            files = self.write_faces(piece, folder, uid)
            self.note_piece(piece)
            side = side_of(self.module.sides, piece.tags + self.gpid_tags.get(piece.gpid, []))
            if side is None:
                name_ = piece.display_name() or ""
                for key in ((name_, piece.image), (piece.name, piece.image), ("", piece.image), (name_, "")):
                    found = self.look_side.get(key)
                    if found and len(found) == 1 and None not in found:
                        side = next(iter(found))
                        break
            sid_of_side = side_ids.get(side, "pieces")
            if side is None:
                unassigned.append(name)
            u = {"id": uid, "side": sid_of_side, "name": name, "type": "piece", "size": "battalion", "attack": 0,
                 "defense": 0, "movement": 0, "hex": where}
            if "back" in files:
                u["steps"] = 2
            units.append(u)
            on_map.append(uid)
        sides = [{"id": side_ids[s], "name": s, "colour": SIDE_COLOURS[i % len(SIDE_COLOURS)]}
                 for i, s in enumerate(self.module.sides)]
        if unassigned or not sides:
            sides.append({"id": "pieces", "name": "Pieces (no side)", "colour": "#6b6b6b"})
        used = [s for s in sides if any(u["side"] == s["id"] for u in units)] or sides[:1]
        doc = {
            "scenario": {"id": sid, "name": title, "game": self.module.name,
                         "text": "Imported from a VASSAL module",
                         "ruleset": "free", "map": f"../maps/{home.path.name}", "first_turn": 1,
                         "last_turn": 99, "first_side": sides[0]["id"]},
            "rules": {"phases": ["Play"]},
            "sides": sides,
            "units": units,
            "deployments": [{"id": f"set-up-{s['id']}", "side": s["id"], "order": k + 1, "area": "all",
                             "units": [u["id"] for u in units if u["side"] == s["id"]]}
                            for k, s in enumerate(used)],
        }
        self.finish_writing()
        self.publish(folder, final)
        write_toml(path, doc)
        self.check_scenario(path, home)
        self.result.scenarios.append(path)
        self.result.units += len(units)
        boxed = sum(1 for u in units if u["hex"].startswith("box:"))
        boards = ", ".join(repr(pb.spec.name) for pb in home.boards if pb.sheet_id)
        if self.module.sides and units:
            counts = ", ".join(f"{sum(1 for u in units if u['side'] == side_ids[s]):,} {s}" for s in self.module.sides)
            line = f"Scenario {sid}: sides from the module's roster: {counts}"
            if unassigned:
                shown = ", ".join(repr(n) for n in sorted(set(unassigned))[:8])
                more = len(set(unassigned)) - 8
                line += (f"; {len(unassigned):,} pieces left with no side (no prototype, marker or palette folder of "
                         f"theirs names one): {shown}" + (f" and {more:,} more" if more > 0 else ""))
            self.side_lines.append(line)
        if not units:
            self.report.append(f"Scenario {sid}: the set-up places no piece ({path.relative_to(self.out).as_posix()}; "
                               f"map maps/{home.path.name})")
            return
        self.report.append(f"Scenario {sid}: {len(units)} pieces, {len(units) - boxed} on hexes, {boxed} in "
                           f"off-map boxes ({path.relative_to(self.out).as_posix()}); it needs board"
                           f"{'s' if boards.count(',') else ''} {boards} (maps/{home.path.name})")

    def check_scenario(self, path: Path, home: MapOut) -> None:
        from engine.scenario import load_scenario
        from engine.scenario.setup import check_units_on_map, validate_setup

        sc = load_scenario(path)
        check_units_on_map(sc, home.board)
        problems = validate_setup(sc, home.board)
        if problems:
            raise BadFile(problems)

    # ------------------------------------------------------------ report
    side_lines: list[str]

    def note_piece(self, piece: Piece) -> None:
        """What cannot come across of a piece, gathered by what it is (a line for each kind, naming the pieces)."""
        label = piece.name or ""
        for n in piece.notes:
            head, sep, rest = n.partition(": ")
            if sep and head == label and rest:
                self.piece_notes.setdefault(rest, [])
                if head not in self.piece_notes[rest]:
                    self.piece_notes[rest].append(head)
            elif n not in self.not_imported:
                self.not_imported.append(n)

    def report_piece_notes(self) -> None:
        for what, names in self.piece_notes.items():
            if len(names) == 1:
                self.not_imported.append(f"{names[0]}: {what}")
                continue
            shown = ", ".join(repr(n) for n in names[:8]) + (f" and {len(names) - 8:,} more" if len(names) > 8 else "")
            self.not_imported.append(f"{len(names):,} pieces: {what} ({shown})")

    def report_images(self) -> None:
        """Counter images drawn and not drawn, one line for each kind of trouble (never one for each image)."""
        drawn = len(self.faces.svg_drawn)
        self.result.svg_drawn = drawn
        if drawn:
            self.report.append(f"Counter art: {drawn:,} SVG image{'s' if drawn != 1 else ''} drawn")
        groups: dict[str, list[str]] = {}
        for name, why in sorted(self.faces.problems.items()):
            kind, sep, detail = why.partition(":")
            if sep and kind in ("svg", "missing"):
                groups.setdefault(kind, []).append(f"{name!r}" + (f" ({detail})" if detail else ""))
            else:
                self.not_imported.append(f"image {name!r}: {why}")
        heads = {"svg": ("SVG image cannot be drawn", "SVG images cannot be drawn"),
                 "missing": ("image is missing from the module's images/ (its counters drawn without it)",
                             "images are missing from the module's images/ (their counters drawn without them)")}
        for kind, names in groups.items():
            one, many = heads[kind]
            shown = ", ".join(names[:10]) + (f" and {len(names) - 10:,} more" if len(names) > 10 else "")
            self.not_imported.append(f"{len(names):,} {one if len(names) == 1 else many}: {shown}")

    def write_report(self) -> None:
        lines = ["VASSAL import report", ""] + self.report + ["", "Not imported:"]
        lines += [f"- {n}" for n in self.not_imported] or ["- nothing"]
        path = self.out / "import-report.txt"
        atomic_write_text(path, "\n".join(lines) + "\n")
        self.result.report = path
        self.result.lines = lines


def import_module(module_path, outdir, saves=(), progress=None) -> ImportResult:
    """Import a .vmod into OUTDIR (see the module's docstring); BadFile when the module is broken."""
    return Importer(module_path, outdir, saves, progress).run()
