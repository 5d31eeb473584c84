"""VASSAL saved games (``.vsav``) and logs (``.vlog``): the command text and the pieces it places.

The ``savedGame`` entry is plain text (before VASSAL 3.2), ``!VCSK`` (a hex key byte, then
every byte XORed with it written as two hex digits) or ``VOBS`` (a raw key byte, then the
XORed bytes).  Commands are separated by ESC, recursively; a log's ``LOG\\t`` entries hold
the moves made after the save, which are replayed.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import BadFile, Problem

from . import seqenc
from .archive import METADATA_LIMIT, Archive
from .buildfile import MAX_COORDINATE
from .pieces import Piece, PieceError, read_piece

ESC = "\x1b"


def deobfuscate(data: bytes, file: str = "", entry: str = "savedGame") -> str:
    """The command text of a ``savedGame`` entry in any of its three encodings."""
    try:
        if data.startswith(b"!VCSK"):
            key = int(data[5:7], 16)
            raw = bytes.fromhex(data[7:].decode("ascii").strip())
        elif data.startswith(b"VOBS"):
            if len(data) < 5:
                raise ValueError("no key byte after the VOBS header")
            key, raw = data[4], data[5:]
        else:
            return data.decode("utf-8")
        return raw.translate(bytes(b ^ key for b in range(256))).decode("utf-8")
    except (ValueError, UnicodeDecodeError) as e:
        raise BadFile([Problem(file, entry, f"cannot be decoded ({e}); expected plain text, '!VCSK' followed "
                                            f"by hex digits, or 'VOBS' followed by a key byte")]) from None


def obfuscate(text: str, key: int, form: str = "VCSK") -> bytes:
    """The inverse of :func:`deobfuscate` (used to write test saves)."""
    data = text.encode("utf-8").translate(bytes(b ^ key for b in range(256)))
    if form == "VCSK":
        return b"!VCSK" + f"{key:02x}".encode() + data.hex().encode()
    return b"VOBS" + bytes([key]) + data


def commands(text: str) -> list[str]:
    """Every basic command in a command text, log entries unwrapped, in order."""
    out: list[str] = []
    stack = [text]
    while stack:
        t = stack.pop()
        parts = seqenc.split(t, ESC)
        if len(parts) == 1:
            if t.startswith("LOG\t"):
                stack.append(t[4:])
            elif t:
                out.append(t)
        else:
            stack.extend(reversed(parts))
    return out


@dataclass
class Layout:
    """A map's boards as a save or a board picker lays them out: (board, reversed, column, row)."""

    boards: list[tuple[str, bool, int, int]] = field(default_factory=list)


def parse_board_picker(text: str) -> tuple[str, Layout] | None:
    """``<map>BoardPicker\\t<board>[/rev]\\t<col>\\t<row>...`` as (map name, layout)."""
    head, _, rest = text.partition("\t")
    if not head.endswith("BoardPicker"):
        return None
    fields = seqenc.split(rest, "\t") if rest else []
    lay = Layout()
    for i in range(0, len(fields) - 2, 3):
        name, rev = fields[i], False
        if name.endswith("/rev"):
            name, rev = name[:-4], True
        try:
            lay.boards.append((name, rev, int(fields[i + 1]), int(fields[i + 2])))
        except ValueError:
            continue
    return head[:-len("BoardPicker")], lay


@dataclass
class SavedGame:
    pieces: dict[str, Piece] = field(default_factory=dict)     # id -> piece with map, x, y
    layouts: dict[str, Layout] = field(default_factory=dict)   # map name -> boards
    notes: list[str] = field(default_factory=list)
    description: str = ""


def read_commands(text: str, file: str, prototypes: dict[str, str] | None = None) -> SavedGame:
    """The pieces a command text leaves on the table (adds, stacks, moves, changes and removals replayed)."""
    game = SavedGame()
    stacks: dict[str, list[str]] = {}
    skipped: dict[str, int] = {}
    for cmd in commands(text):
        kind = cmd.split("/", 1)[0] if "/" in cmd[:3] else ""
        if kind == "+":
            parts = seqenc.split(cmd, "/")
            pid = parts[1] if len(parts) > 1 else ""
            ptype = parts[2] if len(parts) > 2 else ""
            state = parts[3] if len(parts) > 3 else ""
            if ptype == "stack":
                f = seqenc.split(state, ";")
                mapname, x, y = (f + ["", "0", "0"])[:3]
                kids = [k for k in f[3:] if k and not k.startswith("@@")]
                stacks[pid] = kids
                for k in kids:
                    p = game.pieces.get(k)
                    if p is not None:
                        p.map, p.x, p.y = mapname, _int(x), _int(y)
                continue
            if ptype.startswith("deck;"):
                skipped["decks (card piles)"] = skipped.get("decks (card piles)", 0) + 1
                continue
            try:
                piece = read_piece(cmd, prototypes or {})
            except PieceError as e:
                game.notes.append(f"{file}: piece {pid}: {e} (skipped)")
                continue
            game.pieces[pid] = piece
        elif kind == "M":
            f = seqenc.split(cmd, "/")
            if len(f) < 5:
                continue
            pid, mapname, x, y = f[1], f[2], _int(f[3]), _int(f[4])
            if pid in stacks:
                for k in stacks[pid]:
                    if k in game.pieces:
                        game.pieces[k].map, game.pieces[k].x, game.pieces[k].y = mapname, x, y
            elif pid in game.pieces:
                p = game.pieces[pid]
                p.map, p.x, p.y = mapname, x, y
                for kids in stacks.values():
                    if pid in kids:
                        kids.remove(pid)
        elif kind == "-":
            pid = cmd[2:]
            game.pieces.pop(pid, None)
            stacks.pop(pid, None)
        elif kind == "D":
            f = seqenc.split(cmd, "/")
            if len(f) >= 3 and f[1] in game.pieces:
                _apply_state(game.pieces[f[1]], f[2])
        else:
            bp = parse_board_picker(cmd)
            if bp is not None:
                game.layouts[bp[0]] = bp[1]
    for what, n in skipped.items():
        game.notes.append(f"{file}: {n} {what} not imported")
    return game


def _int(v: str) -> int:
    try:
        x = float(v)
        return int(x) if abs(x) <= MAX_COORDINATE else 0      # also infinities and NaN
    except (TypeError, ValueError):
        return 0


def _apply_state(piece: Piece, state: str) -> None:
    """A change command's new state: the layers' levels (outermost first, as the chain) and the position."""
    from .pieces import chain

    states = chain(state)
    if not states:
        return
    basic = seqenc.split(states[-1], ";")
    if len(basic) >= 3 and basic[0] and basic[0] != "null":
        piece.map, piece.x, piece.y = basic[0], _int(basic[1]), _int(basic[2])
    for layer in piece.layers:
        if layer.index < len(states) - 1 and states[layer.index]:
            layer.value = _int(states[layer.index].split(";")[0])


def read_save(path: str) -> SavedGame:
    """A ``.vsav`` or ``.vlog`` file: the pieces at its end, with every board layout it names."""
    with Archive(path) as arc:
        if not arc.has("savedGame"):
            raise arc.bad("savedGame", "missing: a VASSAL save or log holds a savedGame entry")
        text = deobfuscate(arc.read("savedGame"), str(path))
        game = read_commands(text, str(path))
        if arc.has("savedata"):
            from .buildfile import read_metadata

            game.description = read_metadata(arc.read("savedata", METADATA_LIMIT)).get("description", "")
    return game
