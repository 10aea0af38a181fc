"""The ``rgb_array`` picture of Azul (tessera.render, issue 31): a stored reference image of a
known position, and pixels checked against that position by hand."""

import pathlib

import numpy as np
import pytest

from tessera import AzulGame
from tessera.envs import azul_v0, qwirkle_v0
from tessera.render import CELL, FRAME, SLOT, TILE_RGB, azul_rgb, png_bytes, read_png

# Three players, round 2, seat 2 (player_2) to move; scores 12, 7, 0. Factory 1 holds
# Y R K W; board 0 has R on the wall at row 0 column 2 and B on line 3; board 1 has R R on
# line 5; board 2 has W on the wall at row 1 column 0 and Y Y on line 5.
POSITION = (
    "3 2 play 3 3 YRKW/BBBY/BKWW/BRKW/BYKK/YYKW/YRRW 1 9,8,9,7,11 1,3,3,7,1 "
    "12:-,-,B1,B2,Y1:..R../...../...../...../.....:- "
    "7:-,W1,-,-,R2:..R../...../...../...../.....:- "
    "0:-,-,-,B1,Y2:...../W..../...../...../.....:-"
)
REFERENCE = pathlib.Path(__file__).parent / "data" / "azul_rgb_3p.png"
B, Y, R, K, W = range(5)


def cell(img, row, col):
    """The colour at the middle of cell (row, col)."""
    return tuple(img[row * CELL + CELL // 2, col * CELL + CELL // 2])


def test_the_picture_of_a_known_position_matches_the_reference():
    img = azul_rgb(AzulGame.from_notation(POSITION))
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    np.testing.assert_array_equal(img, read_png(REFERENCE.read_bytes()))


def test_the_picture_shows_the_position():
    img = azul_rgb(AzulGame.from_notation(POSITION))
    # Factory 1 (cells (1,1), (1,2), (2,1), (2,2)): Y R K W.
    assert [cell(img, 1, 1), cell(img, 1, 2), cell(img, 2, 1), cell(img, 2, 2)] == [
        tuple(TILE_RGB[c]) for c in (Y, R, K, W)
    ]
    # Boards start at columns 1, 15, 29; the wall 6 columns right, rows 8-12.
    assert cell(img, 8, 1 + 6 + 2) == tuple(TILE_RGB[R]), "board 0: R on the wall"
    assert cell(img, 8, 1 + 6 + 0) != tuple(TILE_RGB[B]), "an empty wall cell is pale"
    assert cell(img, 10, 1 + 4) == tuple(TILE_RGB[B]), "board 0, line 3: one B, right"
    assert cell(img, 10, 1 + 3) == tuple(SLOT), "the rest of line 3 is empty"
    assert [cell(img, 12, 15 + k) for k in (4, 3, 2)] == [tuple(TILE_RGB[R])] * 2 + [tuple(SLOT)]
    assert cell(img, 9, 29 + 6) == tuple(TILE_RGB[W]), "board 2: W at row 1, column 0"
    # The board of the seat to move (2) is framed, the others are not.
    assert tuple(img[6 * CELL - 3, 29 * CELL]) == tuple(FRAME)
    assert tuple(img[6 * CELL - 3, 15 * CELL]) != tuple(FRAME)
    assert tuple(img[6 * CELL - 3, 1 * CELL]) != tuple(FRAME)


def test_the_environment_renders_rgb_arrays():
    env = azul_v0.env(players=2, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=5)
    first = env.render()
    np.testing.assert_array_equal(first, azul_rgb(env.unwrapped.game))
    a = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(a)["action_mask"])[0]))
    assert not np.array_equal(env.render(), first), "the picture follows the game"
    par = azul_v0.parallel_env(render_mode="rgb_array")
    par.reset(seed=5)
    np.testing.assert_array_equal(par.render(), first)
    with pytest.raises(ValueError, match="render_mode 'rgb'"):
        azul_v0.env(render_mode="rgb")


def test_png_files_round_trip_and_bad_images_are_refused():
    img = np.random.default_rng(0).integers(0, 256, (7, 5, 3), dtype=np.uint8)
    data = png_bytes(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    np.testing.assert_array_equal(read_png(data), img)
    with pytest.raises(ValueError, match="expected an H x W x 3 uint8 array"):
        png_bytes(np.zeros((4, 4), np.uint8))
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(b"GIF89a")


def test_a_handle_shows_itself_as_png_in_jupyter():
    g = AzulGame.from_notation(POSITION)
    data = g._repr_png_()
    assert isinstance(data, bytes)
    np.testing.assert_array_equal(read_png(data), azul_rgb(g))


TILES_REFERENCE = pathlib.Path(__file__).parent / "data" / "tiles_rgb_level3.png"


def test_the_picture_of_a_match_the_tiles_position_matches_its_text():
    import gymnasium

    from tessera import MatchTiles
    from tessera.render import FLOOR, OBSTACLE, TILES_CELL, tiles_rgb

    t = MatchTiles.builtin(3)
    t.step(1)  # R: the red piece moves onto its target
    img = tiles_rgb(t)
    assert img.shape == (t.height * TILES_CELL, t.width * TILES_CELL, 3) and img.dtype == np.uint8
    np.testing.assert_array_equal(img, read_png(TILES_REFERENCE.read_bytes()))
    colour_of = {}
    for y, row in enumerate(t.render().splitlines()):
        for x, ch in enumerate(row):
            top, left = y * TILES_CELL, x * TILES_CELL
            middle = tuple(img[top + TILES_CELL // 2, left + TILES_CELL // 2])
            ring = tuple(img[top + 2, left + TILES_CELL // 2])
            if ch == "#":
                assert middle == ring == tuple(OBSTACLE), (x, y)
            elif ch == ".":
                assert middle == ring == tuple(FLOOR), (x, y)
            elif ch.islower():  # a target alone: its ring, floor inside
                assert middle == tuple(FLOOR) and ring != tuple(FLOOR), (x, y)
                assert colour_of.setdefault(ch, ring) == ring
            else:  # a piece (on its target when the text shows only the piece)
                assert middle not in (tuple(FLOOR), tuple(OBSTACLE)), (x, y)
                assert colour_of.setdefault(ch.lower(), middle) == middle
    assert len(set(colour_of.values())) == len(colour_of), "each colour its own"
    env = gymnasium.make("tessera/MatchTiles-v0", level=3, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(1)
    np.testing.assert_array_equal(env.render(), img)


# Two players, seat 1 to move with O2 (slot 0) pending at (-1, -1); scores 18, 12.
QWIRKLE_POSITION = (
    "n=2 phase=play:2 first=- scores=18,12 hands=R4O3Y4Y5Y6G1/O2Y2G1B1B2B5 "
    "bag=332232321222323222132333123212232222 "
    "board=G3@1,-3;R3@1,-2;R6@3,-2;O4@0,-1;O3@1,-1;O5@2,-1;O6@3,-1;P4@0,0;P3@1,0;P6@3,0;"
    "B1@-1,1;B4@0,1;B6@3,1;P5@-2,2;B5@-1,2;P1@-2,3 aside=- end=-"
)
QWIRKLE_REFERENCE = pathlib.Path(__file__).parent / "data" / "qwirkle_rgb_2p.png"


def qwirkle_position():
    from tessera import QwirkleGame

    g = QwirkleGame.from_notation(QWIRKLE_POSITION)
    assert g.frame == (0, 0) and g.current_player == 1
    g.step(0 * 961 + (14 * 31 + 14))  # slot 0 on (-1, -1)
    assert g.pending() == [(0, "O2@-1,-1")]
    return g


def test_the_picture_of_a_qwirkle_position_shows_the_board_and_only_the_own_hand():
    from tessera.render import PENDING, QWIRKLE_RGB, QWIRKLE_TABLE, QWIRKLE_TILE, qwirkle_rgb

    g = qwirkle_position()
    img = qwirkle_rgb(g)
    np.testing.assert_array_equal(img, read_png(QWIRKLE_REFERENCE.read_bytes()))
    colours, top = "ROYGBP", 2

    def centre(row, col):
        return tuple(img[row * CELL + CELL // 2, col * CELL + CELL // 2])

    def corner(row, col):
        return tuple(img[row * CELL + 1, col * CELL + 1])

    board = [item.split("@") for item in QWIRKLE_POSITION.split("board=")[1].split()[0].split(";")]
    occupied = set()
    for t, xy in board + [["O2", "-1,-1"]]:
        x, y = map(int, xy.split(","))
        row, col = top + y + 15, x + 15
        occupied.add((row, col))
        assert centre(row, col) == tuple(QWIRKLE_RGB[colours.index(t[0])]), t
        assert corner(row, col) == tuple(QWIRKLE_TILE), t
    for row in range(top, top + 31):
        for col in range(31):
            if (row, col) not in occupied:
                assert centre(row, col) == tuple(QWIRKLE_TABLE), (row, col)
    # The pending tile is framed; a board tile is not.
    assert tuple(img[(top + 14) * CELL, 14 * CELL + 3]) == tuple(PENDING)
    assert tuple(img[(top + 15) * CELL, 15 * CELL + 3]) != tuple(PENDING)
    # The hand row shows seat 1's own hand, O2 Y2 G1 B1 B2 B5, never seat 0's.
    hand = [centre(top + 32, 1 + k) for k in range(6)]
    assert hand == [tuple(QWIRKLE_RGB[colours.index(t[0])]) for t in "O2 Y2 G1 B1 B2 B5".split()]
    seat0 = qwirkle_rgb(g, seat=0)
    assert [tuple(seat0[(top + 32) * CELL + CELL // 2, (1 + k) * CELL + CELL // 2]) for k in range(6)] == [
        tuple(QWIRKLE_RGB[colours.index(t[0])]) for t in "R4 O3 Y4 Y5 Y6 G1".split()
    ]
    # Seat 0 does not see the mover's pending tile.
    assert centre(top + 14, 14) != tuple(seat0[(top + 14) * CELL + CELL // 2, 14 * CELL + CELL // 2])


def test_the_qwirkle_environment_renders_the_mover_view():
    from tessera.render import qwirkle_rgb

    env = qwirkle_v0.env(players=2, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=3)
    np.testing.assert_array_equal(env.render(), qwirkle_rgb(env.unwrapped.game))
