"""Bad input to the newer entry points (in-place writers, copies, reseeding) raises clear
Python exceptions and changes nothing. The handles', environments', batch's, tournament's
and OpenSpiel game's bad input is fed in their own test files."""

import numpy as np
import pytest

from tessera import AzulGame, QwirkleGame


def test_in_place_writers_check_length_and_dtype():
    g = AzulGame(3, 1)
    out = np.zeros(g.observation_len, np.float32)
    g.observation_into(1, out)
    np.testing.assert_array_equal(out, g.observation(1))
    with pytest.raises(ValueError, match=f"expected length {g.observation_len}"):
        g.observation_into(0, np.zeros(3, np.float32))
    with pytest.raises(TypeError):
        g.observation_into(0, np.zeros(g.observation_len, np.float64))
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        g.observation_into(3, out)
    mask = np.zeros(g.num_actions, np.int8)
    g.action_mask_into(mask)
    np.testing.assert_array_equal(mask, g.action_mask())
    with pytest.raises(ValueError, match=f"expected length {g.num_actions}"):
        g.action_mask_into(np.zeros(5, np.int8))
    with pytest.raises(TypeError):
        g.action_mask_into(np.zeros(g.num_actions, np.uint16))


def test_copies_are_independent_and_reseeding_changes_only_the_future():
    g = AzulGame(2, 4)
    c = g.copy()
    legal = g.legal_actions()
    c.step(legal[0])
    assert c.notation() != g.notation()
    # Same state, same seed: the same deals; reseeded: the state is unchanged now.
    a, b = g.copy(), g.copy()
    b.reseed_chance(99)
    assert a.notation() == b.notation()
    while a.round == g.round and not a.is_terminal:
        x = a.legal_actions()[0]
        a.step(x)
        b.step(x)
    assert a.notation() != b.notation(), "the next deal comes from the new seed"
    with pytest.raises(OverflowError):
        g.reseed_chance(-1)



@pytest.mark.parametrize("make", [lambda: AzulGame(3, 1), lambda: QwirkleGame(3, 1)], ids=["azul", "qwirkle"])
@pytest.mark.parametrize("seat", [-1, 3, 2**40])
def test_observe_refuses_a_seat_that_does_not_exist(make, seat):
    game = make()
    before = game.notation()
    with pytest.raises(ValueError, match=f"seat {seat} does not exist: this game has seats 0 to 2"):
        game.observe(seat)
    assert game.notation() == before
    with pytest.raises(TypeError):
        game.observe("0")
