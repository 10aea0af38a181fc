"""Pictures of positions, drawn with numpy only: ``azul_rgb(game)`` is an ``H x W x 3`` uint8
image of an Azul table (the ``rgb_array`` render mode of ``tessera.envs.azul_v0``),
``qwirkle_rgb(game)`` what one seat sees of a Qwirkle game (the ``rgb_array`` render mode
of ``tessera.envs.qwirkle_v0``), ``tiles_rgb(puzzle)`` one of a Match the Tiles position
(the ``rgb_array`` render mode of ``tessera/MatchTiles-v0``), and
``png_bytes(image)`` encodes any such image as PNG with the standard library (zlib), e.g.
to save it or to show it in Jupyter (``IPython.display.Image(png_bytes(...))``).

The picture is drawn from the game's own view, the observation vector of seat 0
(``AzulGame.observation(0)``, laid out in docs/python.md): it shows what that vector holds
and nothing else. Top row: the factories (2 x 2 tiles each), then the centre (the
first-player token as a white tile with a dark dot, then the tiles by colour). Below, one
board per seat from seat 0, left to right: the score in digits, the five pattern lines (right
aligned) beside the wall (placed tiles in full colour, empty cells a pale tint of the colour
printed there) and the floor (the token first, then the tiles by colour; the vector keeps
the floor's counts, not its order). The board of the seat to move is framed in green.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

#: Pixels per tile cell.
CELL = 12
#: Colours B, Y, R, K, W (the notation's order).
TILE_RGB = np.array(
    [[38, 102, 196], [238, 196, 48], [206, 52, 44], [40, 40, 44], [236, 234, 226]], np.uint8
)
BACKGROUND = np.array([222, 206, 174], np.uint8)
SLOT = np.array([196, 178, 144], np.uint8)
TOKEN_DOT = np.array([60, 60, 60], np.uint8)
FRAME = np.array([40, 160, 70], np.uint8)
INK = np.array([30, 30, 30], np.uint8)

# A 3 x 5 pixel font for the digits 0-9, one string of 15 bits per digit, row by row.
_DIGITS = [
    "111101101101111",
    "010110010010111",
    "111001111100111",
    "111001111001111",
    "101101111001001",
    "111100111001111",
    "111100111101111",
    "111001001001001",
    "111101111101111",
    "111101111001111",
]
_FONT = np.array([[int(b) for b in d] for d in _DIGITS], bool).reshape(10, 5, 3)

BOARD_CELLS = 14  # a board's width in cells, gap included
BOARD_LEN = 57  # numbers per board in the observation


def _num_factories(players: int) -> int:
    return 2 * players + 1


def _tile(img: np.ndarray, row: float, col: float, rgb: np.ndarray) -> None:
    """Fills the tile of cell (row, col) (a one-pixel gap on each side)."""
    y, x = int(row * CELL), int(col * CELL)
    img[y + 1 : y + CELL - 1, x + 1 : x + CELL - 1] = rgb


def _token(img: np.ndarray, row: float, col: float) -> None:
    _tile(img, row, col, TILE_RGB[4])
    y, x = int(row * CELL), int(col * CELL)
    q = CELL // 3
    img[y + q : y + CELL - q, x + q : x + CELL - q] = TOKEN_DOT


def _number(img: np.ndarray, y: int, x: int, value: int, scale: int = 2) -> None:
    """Writes ``value`` (a whole number, a minus sign if negative) at pixel (y, x)."""
    text = str(int(value))
    for ch in text:
        if ch == "-":
            img[y + 2 * scale : y + 3 * scale, x : x + 3 * scale] = INK
        else:
            glyph = np.kron(_FONT[int(ch)], np.ones((scale, scale), bool))
            region = img[y : y + 5 * scale, x : x + 3 * scale]
            region[glyph] = INK
        x += 4 * scale


def _tiles_by_colour(counts) -> list[int]:
    out: list[int] = []
    for c, n in enumerate(counts):
        out.extend([c] * int(round(float(n))))
    return out


def azul_rgb(game) -> np.ndarray:
    """The table of ``game`` (a ``tessera.AzulGame``) as an ``H x W x 3`` uint8 image."""
    players = game.players
    obs = np.asarray(game.observation(0))
    nf = _num_factories(players)
    width_cells = max(3 * nf + 1, 31, BOARD_CELLS * players + 1)
    height_cells = 17
    img = np.empty((height_cells * CELL, width_cells * CELL, 3), np.uint8)
    img[:] = BACKGROUND

    # Factories: 2 x 2 tiles each, from column 1.
    for f in range(nf):
        tiles = _tiles_by_colour(obs[5 * f : 5 * f + 5])
        for k in range(4):
            r, c = 1 + k // 2, 1 + 3 * f + k % 2
            _tile(img, r, c, TILE_RGB[tiles[k]] if k < len(tiles) else SLOT)
    o = 5 * nf
    # The centre, row 4: the token first, then the tiles by colour.
    col = 1
    if obs[o + 5] > 0:
        _token(img, 4, col)
        col += 1
    for c in _tiles_by_colour(obs[o : o + 5]):
        if col < width_cells - 1:
            _tile(img, 4, col, TILE_RGB[c])
        col += 1
    o += 16  # centre (6), bag (5), lid (5)

    boards = obs[o : o + BOARD_LEN * players].reshape(players, BOARD_LEN)
    turn = obs[o + BOARD_LEN * players : o + BOARD_LEN * players + players]
    for p in range(players):
        b = boards[p]
        x0 = 1 + BOARD_CELLS * p
        if turn[p] > 0:
            y1, y2 = 6 * CELL - 4, 16 * CELL + 4
            x1, x2 = x0 * CELL - 4, (x0 + 12) * CELL + 4
            img[y1:y2, x1 : x1 + 2] = FRAME
            img[y1:y2, x2 - 2 : x2] = FRAME
            img[y1 : y1 + 2, x1:x2] = FRAME
            img[y2 - 2 : y2, x1:x2] = FRAME
        _number(img, 6 * CELL + 1, x0 * CELL + 2, int(b[56]))
        for r in range(5):
            line = b[5 * r : 5 * r + 5]
            colour = int(np.argmax(line)) if line.max() > 0 else None
            count = int(line.max())
            for k in range(r + 1):
                # Slot k counts from the right end (column 4): filled from the right.
                cc = x0 + 4 - k
                filled = colour is not None and k < count
                _tile(img, 8 + r, cc, TILE_RGB[colour] if filled and colour is not None else SLOT)
            for c in range(5):
                printed = TILE_RGB[(c - r) % 5]
                if b[25 + 5 * r + c] > 0:
                    _tile(img, 8 + r, x0 + 6 + c, printed)
                else:
                    pale = (printed.astype(np.int32) + 3 * SLOT.astype(np.int32)) // 4
                    _tile(img, 8 + r, x0 + 6 + c, pale.astype(np.uint8))
        floor = _tiles_by_colour(b[50:55])
        k = 0
        if b[55] > 0:
            _token(img, 14, x0)
            k = 1
        for c in floor:
            if k < 7:
                _tile(img, 14, x0 + k, TILE_RGB[c])
            k += 1
        for k in range(k, 7):
            _tile(img, 14, x0 + k, SLOT)
    return img


#: Pixels per Match the Tiles cell.
TILES_CELL = 16
#: The colours of a level's distinct piece colours 0-7 (in the observation's order).
PIECE_RGB = np.array(
    [
        [206, 52, 44],
        [38, 102, 196],
        [60, 160, 70],
        [238, 196, 48],
        [150, 70, 170],
        [240, 130, 40],
        [40, 170, 180],
        [220, 100, 160],
    ],
    np.uint8,
)
FLOOR = np.array([232, 232, 226], np.uint8)
OBSTACLE = np.array([70, 70, 76], np.uint8)
GRID = np.array([200, 200, 192], np.uint8)


def tiles_rgb(puzzle) -> np.ndarray:
    """A Match the Tiles position (a ``tessera.MatchTiles``) as an ``H x W x 3`` uint8
    image, drawn from its observation planes: ``TILES_CELL`` pixels a cell, obstacles dark,
    a target as a ring of its colour, a piece as a square of its colour (a piece on a
    target inside the target's ring)."""
    h, w = puzzle.height, puzzle.width
    planes = np.asarray(puzzle.observation()).reshape(17, h, w)
    c = TILES_CELL
    img = np.empty((h * c, w * c, 3), np.uint8)
    img[:] = GRID
    for y in range(h):
        for x in range(w):
            cell = img[y * c + 1 : (y + 1) * c, x * c + 1 : (x + 1) * c]
            cell[:] = OBSTACLE if planes[0, y, x] > 0 else FLOOR
            targets = np.flatnonzero(planes[9:17, y, x])
            if len(targets):
                cell[1:-1, 1:-1] = PIECE_RGB[targets[0]]
                cell[3:-3, 3:-3] = FLOOR
            pieces = np.flatnonzero(planes[1:9, y, x])
            if len(pieces):
                cell[4:-4, 4:-4] = PIECE_RGB[pieces[0]]
    return img


#: Qwirkle's colours R O Y G B P.
QWIRKLE_RGB = np.array(
    [[222, 52, 46], [245, 140, 30], [240, 208, 40], [70, 172, 72], [40, 118, 222], [152, 80, 192]],
    np.uint8,
)
QWIRKLE_TILE = np.array([28, 28, 30], np.uint8)
QWIRKLE_TABLE = np.array([196, 182, 150], np.uint8)
PENDING = np.array([255, 255, 255], np.uint8)
_QW = 31  # the observation's window
_QW_CELLS = _QW * _QW


def _shape_masks(size: int) -> np.ndarray:
    """Six ``size x size`` masks: circle, cross, diamond, square, star, clover (the shape
    order of ``QwirkleGame``'s observation)."""
    r = (size - 1) / 2
    y, x = np.mgrid[0:size, 0:size] - r
    rad = r * 0.85
    circle = x * x + y * y <= rad * rad
    cross = ((np.abs(x - y) <= 1.1) | (np.abs(x + y) <= 1.1)) & (np.maximum(abs(x), abs(y)) <= rad)
    diamond = np.abs(x) + np.abs(y) <= rad * 1.1
    square = np.maximum(np.abs(x), np.abs(y)) <= rad * 0.72
    star = (
        (np.abs(x) <= 0.9) | (np.abs(y) <= 0.9) | (np.abs(np.abs(x) - np.abs(y)) <= 0.9)
    ) & (x * x + y * y <= rad * rad)
    h = rad / 2
    clover = np.zeros_like(circle)
    for dx, dy in ((h, 0), (-h, 0), (0, h), (0, -h)):
        clover |= (x - dx) ** 2 + (y - dy) ** 2 <= (h * 1.05) ** 2
    return np.stack([circle, cross, diamond, square, star, clover])


def qwirkle_rgb(game, seat: int | None = None) -> np.ndarray:
    """What ``seat`` sees of a Qwirkle game (a ``tessera.QwirkleGame``; default: the seat to
    move, or seat 0 once the game is over) as an ``H x W x 3`` uint8 image, drawn from that
    seat's observation vector only: the scores (the seat's first), the board's 31 x 31
    window (tiles as coloured shapes on black, the pending tiles of a seat to move framed in
    white), and the seat's hand below (a pending slot underlined in white)."""
    if seat is None:
        seat = game.current_player if game.current_player is not None else 0
    players = game.players
    obs = np.asarray(game.observation(seat))
    planes = obs[: 24 * _QW_CELLS].reshape(24, _QW, _QW)
    feats = obs[24 * _QW_CELLS :]
    c = CELL
    masks = _shape_masks(c - 2)
    img = np.empty(((_QW + 5) * c, _QW * c, 3), np.uint8)
    img[:] = QWIRKLE_TABLE

    def tile(row: int, col: int, colour: int, shape: int) -> None:
        y, x = row * c, col * c
        box = img[y + 1 : y + c - 1, x + 1 : x + c - 1]
        box[:] = QWIRKLE_TILE
        box[masks[shape]] = QWIRKLE_RGB[colour]

    for p in range(players):
        _number(img, 3, 3 + 40 * p, int(feats[84 + p]))
    top = 2
    for board, ring in ((0, False), (12, True)):
        colour = planes[board : board + 6]
        shape = planes[board + 6 : board + 12]
        for wy, wx in zip(*np.nonzero(colour.sum(axis=0))):
            tile(top + wy, wx, int(np.argmax(colour[:, wy, wx])), int(np.argmax(shape[:, wy, wx])))
            if ring:
                y, x = (top + wy) * c, wx * c
                img[y, x : x + c] = PENDING
                img[y + c - 1, x : x + c] = PENDING
                img[y : y + c, x] = PENDING
                img[y : y + c, x + c - 1] = PENDING
    hand = feats[:78].reshape(6, 13)
    for k in range(6):
        if hand[k, 0] > 0:
            tile(top + _QW + 1, 1 + k, int(np.argmax(hand[k, 1:7])), int(np.argmax(hand[k, 7:13])))
            if feats[78 + k] > 0:  # the slot's tile is pending on the board
                y, x = (top + _QW + 1) * c, (1 + k) * c
                img[y + c - 1, x : x + c] = PENDING
    return img


def png_bytes(image: np.ndarray) -> bytes:
    """``image`` (``H x W x 3`` uint8) as a PNG file: 8-bit RGB, no filter, zlib level 9."""
    image = np.ascontiguousarray(image, np.uint8)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"image: expected an H x W x 3 uint8 array, got shape {image.shape}")
    h, w, _ = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def read_png(data: bytes) -> np.ndarray:
    """Decodes a PNG written by ``png_bytes`` (8-bit RGB, filter 0 on every row, one or more
    IDAT chunks) back into an ``H x W x 3`` uint8 array; ValueError for anything else."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, colour, interlace) != (8, 2, 0):
                raise ValueError("only 8-bit RGB PNGs without interlacing are read")
            size = (h, w)
        elif kind == b"IDAT":
            idat += body
    if size is None:
        raise ValueError("PNG without IHDR")
    h, w = size
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + 3 * w)
    if rows[:, 0].any():
        raise ValueError("only PNG rows without a filter are read")
    return rows[:, 1:].reshape(h, w, 3).copy()
