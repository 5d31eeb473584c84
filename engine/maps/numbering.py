"""Printed hex ids (``B34.16``, ``0512``) to lattice hexes and back, one scheme per sheet.

A sheet's columns run left to right and its rows top to bottom, unless
``row_direction`` is ``"up"``: then row numbers grow from the bottom edge up,
as on Tactical Combat Series sheets (``A05.01`` is on the bottom edge).  On a
flat-top map every other *column* is shifted half a hex down; on a pointy-top
map every other *row* is shifted half a hex right.  ``shifted`` says which
printed numbers are the shifted ones (``"even"`` or ``"odd"``).  ``origin``
is the axial position of the sheet's first hex (first column, first row) on
the board's lattice, so several sheets can share one lattice.

``style="vassal"`` prints the labels of an imported VASSAL hex grid
(:class:`VassalLabels`): the sheet's columns and rows are then VASSAL's raw
hex indices (which may be negative), and each hex's id is the label VASSAL's
``HexGridNumbering`` gives it (offsets, leading zeros, letters, stagger,
descending axes, separator, which part comes first).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import BadHexId
from engine.maps.hexes import FLAT, ORIENTATIONS, POINTY, Hex
from engine.errors import excerpt

STYLES = ("tcs", "classic", "vassal")
ROW_DIRECTIONS = ("down", "up")


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def vassal_part(value: int, kind: str, leading: int) -> str:
    """One part of a VASSAL label: ``N`` numbers get zeros in front while they are below
    10**leading, 10**(leading-1), ...; ``A`` letters repeat (0 A, 25 Z, 26 AA, 27 BB); a
    negative value gets a ``-`` in front."""
    out = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        out += ALPHABET[value % 26] * (value // 26 + 1)
        return out
    while leading > 0 and value < 10 ** leading:
        out += "0"
        leading -= 1
    return out + str(value)


VASSAL_MAX_LEADING = 9          # zeros in front of a number part
VASSAL_MAX_OFFSET = 10_000      # a part's offset (and the counts of descending axes)
VASSAL_MAX_SEP = 8
VASSAL_MAX_FORMAT = 128


@dataclass(frozen=True)
class VassalLabels:
    """A VASSAL ``HexGridNumbering``: how its hexes are labelled from their raw indices.

    ``h_max`` and ``v_max`` are VASSAL's counts for descending axes, worked out from the
    board's size: ``floor(width / dy + 1/2)`` and ``floor(height / dx + 1/2)``.
    """

    sideways: bool = False
    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    h_max: int = 0
    v_max: int = 0
    location_format: str = "$gridLocation$"

    def __post_init__(self):
        for k in ("h_type", "v_type"):
            if getattr(self, k) not in ("N", "A"):
                raise ValueError(f"VASSAL {k} must be 'N' or 'A', not {getattr(self, k)!r}"[:200])
        if self.first not in ("H", "V"):
            raise ValueError(f"VASSAL first must be 'H' or 'V', not {self.first!r}"[:200])
        # bounds that keep every label short (a letter part repeats its letter value/26 + 1 times)
        for k in ("h_leading", "v_leading"):
            if not 0 <= getattr(self, k) <= VASSAL_MAX_LEADING:
                raise ValueError(f"VASSAL {k} must be from 0 to {VASSAL_MAX_LEADING}, not {getattr(self, k)}"[:200])
        for k in ("h_off", "v_off", "h_max", "v_max"):
            if not -VASSAL_MAX_OFFSET <= getattr(self, k) <= VASSAL_MAX_OFFSET:
                raise ValueError(f"VASSAL {k} must be from {-VASSAL_MAX_OFFSET} to {VASSAL_MAX_OFFSET}, "
                                 f"not {getattr(self, k)}"[:200])
        if len(self.sep) > VASSAL_MAX_SEP:
            raise ValueError(f"VASSAL sep must be at most {VASSAL_MAX_SEP} characters, not {len(self.sep)}")
        if len(self.location_format) > VASSAL_MAX_FORMAT:
            raise ValueError(f"VASSAL location_format must be at most {VASSAL_MAX_FORMAT} characters, "
                             f"not {len(self.location_format)}")

    def column_row(self, nx: int, ny: int) -> tuple[int, int]:
        """VASSAL's column and row numbers (before the offsets) of raw hex (nx, ny)."""
        col, row = nx, ny
        if self.sideways:
            if self.v_descend:
                col = self.v_max - nx
            if self.h_descend:
                row = self.h_max - ny
            down = self.h_descend
        else:
            if self.h_descend:
                col = self.h_max - nx
            if self.v_descend:
                row = self.v_max - ny
            down = self.v_descend
        if self.stagger and nx % 2 != 0:
            row += -1 if down else 1
        return col, row

    def label(self, nx: int, ny: int) -> str:
        """The label VASSAL shows for raw hex (nx, ny)."""
        col, row = self.column_row(nx, ny)
        cpart = vassal_part(col + self.h_off, self.h_type, self.h_leading)
        rpart = vassal_part(row + self.v_off, self.v_type, self.v_leading)
        loc = cpart + self.sep + rpart if self.first == "H" else rpart + self.sep + cpart
        return (self.location_format.replace("$gridLocation$", loc)
                .replace("$column$", cpart).replace("$row$", rpart))

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in VASSAL_KEYS}


VASSAL_KEYS = ("sideways", "first", "sep", "h_type", "v_type", "h_leading", "v_leading", "h_off", "v_off",
               "h_descend", "v_descend", "stagger", "h_max", "v_max", "location_format")


@dataclass(frozen=True)
class NumberingScheme:
    """How one sheet prints its hex ids.

    ``style="tcs"`` prints ``{sheet}{col:02}.{row:02}`` like ``B34.16``;
    ``style="classic"`` prints ``{col:02}{row:02}`` like ``0512``.
    """

    style: str = "classic"
    sheet: str = ""
    orientation: str = FLAT
    first_col: int = 1
    first_row: int = 1
    cols: int = 10
    rows: int = 10
    shifted: str = "even"
    origin: tuple[int, int] = (0, 0)
    col_digits: int = 2
    row_digits: int = 2
    row_direction: str = "down"
    vassal: VassalLabels | None = None

    def __post_init__(self):
        if self.style not in STYLES:
            raise ValueError(f"numbering style must be one of {STYLES}, not {self.style!r}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {self.orientation!r}")
        if self.row_direction not in ROW_DIRECTIONS:
            raise ValueError(f"row_direction must be one of {ROW_DIRECTIONS}, not {self.row_direction!r}")
        if self.shifted not in ("even", "odd"):
            raise ValueError(f"shifted must be 'even' or 'odd', not {self.shifted!r}")
        if self.cols < 1 or self.rows < 1:
            raise ValueError("a sheet needs at least one column and one row")
        if self.style == "tcs" and not self.sheet:
            raise ValueError("TCS numbering needs a sheet letter")
        if (self.style == "vassal") != (self.vassal is not None):
            raise ValueError("VASSAL numbering, and only it, needs its VASSAL options")
        object.__setattr__(self, "_regex", self._make_regex())
        object.__setattr__(self, "_labels", None)

    # ------------------------------------------------------------ parsing
    def _make_regex(self):
        if self.style == "vassal":
            return None
        if self.style == "tcs":
            return re.compile(rf"^{re.escape(self.sheet)}(\d{{1,3}})\.(\d{{1,3}})$")
        return re.compile(rf"^(\d{{{self.col_digits}}})(\d{{{self.row_digits}}})$")

    def _is_shifted(self, number: int) -> bool:
        return (number % 2 == 0) == (self.shifted == "even")

    @property
    def top_row(self) -> int:
        """The printed number of the row along the sheet's top edge."""
        return self.first_row if self.row_direction == "down" else self.first_row + self.rows - 1

    @property
    def bottom_row(self) -> int:
        """The printed number of the row along the sheet's bottom edge."""
        return self.first_row + self.rows - 1 if self.row_direction == "down" else self.first_row

    def _row_index(self, row: int) -> int:
        """How many rows below the top row a printed row number is (negative above it)."""
        return row - self.top_row if self.row_direction == "down" else self.top_row - row

    def _row_number(self, index: int) -> int:
        return self.top_row + index if self.row_direction == "down" else self.top_row - index

    def colrow_to_hex(self, col: int, row: int) -> Hex:
        """The lattice hex of printed column/row numbers (no range check)."""
        c = col - self.first_col
        rr = self._row_index(row)
        if self.orientation == FLAT:
            first_shifted = self._is_shifted(self.first_col)
            if first_shifted:
                r = rr - (c + (c & 1)) // 2
            else:
                r = rr - (c - (c & 1)) // 2
            q = c
        else:
            first_shifted = self._is_shifted(self.top_row)
            if first_shifted:
                q = c - (rr + (rr & 1)) // 2
            else:
                q = c - (rr - (rr & 1)) // 2
            r = rr
        return Hex(q + self.origin[0], r + self.origin[1])

    def hex_to_colrow(self, h: Hex) -> tuple[int, int]:
        """Printed column/row numbers of a lattice hex (may lie outside the sheet)."""
        q = h.q - self.origin[0]
        r = h.r - self.origin[1]
        if self.orientation == FLAT:
            c = q
            if self._is_shifted(self.first_col):
                rr = r + (c + (c & 1)) // 2
            else:
                rr = r + (c - (c & 1)) // 2
        else:
            rr = r
            if self._is_shifted(self.top_row):
                c = q + (rr + (rr & 1)) // 2
            else:
                c = q + (rr - (rr & 1)) // 2
        return c + self.first_col, self._row_number(rr)

    def contains_colrow(self, col: int, row: int) -> bool:
        return (self.first_col <= col < self.first_col + self.cols
                and self.first_row <= row < self.first_row + self.rows)

    def contains(self, h: Hex) -> bool:
        return self.contains_colrow(*self.hex_to_colrow(h))

    def raw_index(self, col: int, row: int) -> tuple[int, int]:
        """VASSAL's raw (nx, ny) of a sheet column/row: the same on a flat grid, swapped on a
        pointy one (VASSAL's sideways grids count their rows as columns)."""
        return (col, row) if self.orientation == FLAT else (row, col)

    def label_table(self) -> dict[str, tuple[int, int]]:
        """VASSAL numbering: every label of the sheet -> its column and row (made once)."""
        table = self._labels
        if table is None:
            table = {}
            for r in range(self.first_row, self.first_row + self.rows):
                for c in range(self.first_col, self.first_col + self.cols):
                    table.setdefault(self.format_colrow(c, r), (c, r))
            object.__setattr__(self, "_labels", table)
        return table

    def format_colrow(self, col: int, row: int) -> str:
        if self.style == "vassal":
            return self.vassal.label(*self.raw_index(col, row))
        if self.style == "tcs":
            return f"{self.sheet}{col:02d}.{row:02d}"
        return f"{col:0{self.col_digits}d}{row:0{self.row_digits}d}"

    def format(self, h: Hex) -> str:
        """The printed id of a hex on this sheet, like ``B34.16``."""
        col, row = self.hex_to_colrow(h)
        if not self.contains_colrow(col, row):
            raise BadHexId(f"{h} is not on sheet {self.sheet or '(unnamed)'}")
        return self.format_colrow(col, row)

    def matches(self, text: str) -> bool:
        if self.style == "vassal":
            return text in self.label_table()
        return bool(self._regex.match(text))

    def parse(self, text: str) -> Hex:
        """The lattice hex of a printed id on this sheet; raises BadHexId."""
        if self.style == "vassal":
            found = self.label_table().get(text.strip())
            if found is None:
                raise BadHexId(f"{excerpt(text)} is not a hex id of this sheet (its ids run from "
                               f"{self.format_colrow(self.first_col, self.first_row)} to "
                               f"{self.format_colrow(self.first_col + self.cols - 1, self.first_row + self.rows - 1)})")
            return self.colrow_to_hex(*found)
        m = self._regex.match(text.strip())
        if not m:
            expected = (f"{self.sheet}CC.RR" if self.style == "tcs"
                        else "C" * self.col_digits + "R" * self.row_digits)
            raise BadHexId(f"{excerpt(text)} is not a hex id of this sheet (expected {expected})")
        col, row = int(m.group(1)), int(m.group(2))
        if not self.contains_colrow(col, row):
            raise BadHexId(
                f"{excerpt(text)} is off the sheet (columns {self.format_range()})")
        return self.colrow_to_hex(col, row)

    def format_range(self) -> str:
        c0, r0 = self.first_col, self.first_row
        c1, r1 = c0 + self.cols - 1, r0 + self.rows - 1
        return f"{c0}-{c1}, rows {r0}-{r1}"

    def printed_rows(self) -> list[int]:
        """The printed row numbers from the top edge to the bottom edge."""
        return [self._row_number(i) for i in range(self.rows)]

    def hexes(self) -> list[Hex]:
        """Every hex of the sheet, row by row from the top edge, each row left to right."""
        return [self.colrow_to_hex(c, r)
                for r in self.printed_rows()
                for c in range(self.first_col, self.first_col + self.cols)]


__all__ = ["NumberingScheme", "VassalLabels", "VASSAL_KEYS", "vassal_part", "STYLES", "ROW_DIRECTIONS", "FLAT",
           "POINTY"]
