"""The game handles: seeded reproduction, masks, observations, errors."""

import numpy as np
import pytest

import tessera
from tessera import AzulGame, QwirkleGame


def play_random(game, seed, limit=100_000):
    """Plays random legal ids to the end; returns the notations seen."""
    rng = np.random.default_rng(seed)
    seen = [game.notation()]
    for _ in range(limit):
        if game.is_terminal:
            break
        mask = game.action_mask()
        legal = game.legal_actions()
        assert list(np.flatnonzero(mask)) == legal
        assert not game.is_chance
        check_observe(game)
        mover = game.step(int(rng.choice(legal)))
        assert mover == game.current_player, "step returns the seat to move next"
        seen.append(game.notation())
    assert game.is_terminal
    check_observe(game)
    return seen


def check_observe(game):
    """``observe(seat)`` is ``observation(seat)`` with the mover's mask, zeros for the rest."""
    for seat in range(game.players):
        o = game.observe(seat)
        assert set(o) == {"observation", "action_mask"}
        assert np.array_equal(o["observation"], game.observation(seat))
        assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8
        if seat == game.current_player:
            assert np.array_equal(o["action_mask"], game.action_mask())
            assert o["action_mask"].any()
        else:
            assert o["action_mask"].shape == (game.num_actions,)
            assert not o["action_mask"].any()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_azul_seed_reproduces_the_game(players):
    a = play_random(AzulGame(players, 11), 5)
    b = play_random(AzulGame(players, 11), 5)
    assert a == b
    c = play_random(AzulGame(players, 12), 5)
    assert a[0] != c[0], "another seed, another first deal"


def test_azul_reset_reproduces_and_matches_a_new_game():
    g = AzulGame(2, 3)
    first = play_random(g, 1)
    g.reset(3)
    assert play_random(g, 1) == first
    g.reset(4)
    assert g.notation() == AzulGame(2, 4).notation()


def test_azul_end_of_game_facts():
    g = AzulGame(2, 8)
    play_random(g, 2)
    scores, returns, winners = g.scores(), g.returns(), g.winners()
    assert g.current_player is None
    assert winners and all(scores[w] == max(scores) for w in winners)
    assert sum(returns) == pytest.approx(1.0)
    assert all(returns[w] > 0 for w in winners)
    assert g.legal_actions() == []
    assert not g.action_mask().any()


def test_azul_ids_and_notation():
    g = AzulGame(2, 0)
    assert g.num_actions == 180 and AzulGame(3).num_actions == 240 and AzulGame(4).num_actions == 300
    assert g.string_to_action("3Y2") == 3 * 30 + 1 * 6 + 1
    assert g.string_to_action("CKF") == 0 * 30 + 3 * 6 + 5
    assert g.action_to_string(97) == "3Y2"
    for i in range(g.num_actions):
        assert g.string_to_action(g.action_to_string(i)) == i
    with pytest.raises(ValueError, match="factories 1 to 5"):
        g.string_to_action("7B1")
    with pytest.raises(ValueError, match="colour 'X'"):
        g.string_to_action("1X1")


def test_azul_observation_shape_and_rotation():
    g = AzulGame(3, 1)
    obs = [g.observation(s) for s in range(3)]
    assert all(o.dtype == np.float32 and o.shape == (g.observation_len,) for o in obs)
    board = 57
    base = 5 * 7 + 16
    # Seat 1's first board is seat 0's second board (rotation), and so on.
    for s in range(3):
        for k in range(3):
            mine = obs[s][base + k * board : base + (k + 1) * board]
            seat = (s + k) % 3
            ref = obs[0][base + ((seat - 0) % 3) * board : base + ((seat - 0) % 3 + 1) * board]
            assert np.array_equal(mine, ref)
    # The one-hot "to move" is relative to the observer.
    mover = g.current_player
    turn = base + 3 * board
    for s in range(3):
        assert obs[s][turn + (mover - s) % 3] == 1.0


def test_azul_bad_input_raises_clear_errors():
    g = AzulGame(2, 0)
    illegal = next(i for i in range(g.num_actions) if i not in g.legal_actions())
    before = g.notation()
    with pytest.raises(ValueError, match=rf"action {illegal} \(.*\) is not legal: .*legal now: "):
        g.step(illegal)
    assert g.notation() == before
    with pytest.raises(ValueError, match="out of range: a 2-player game has ids 0 to 179"):
        g.step(180)
    with pytest.raises(ValueError, match="out of range"):
        g.step(-1)
    with pytest.raises(TypeError):
        g.step("1B1")
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        AzulGame(5)
    with pytest.raises(ValueError, match="2 to 4 players, not 1"):
        AzulGame(1)
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        g.observation(2)
    with pytest.raises(ValueError, match="Azul state"):
        AzulGame.from_notation("2 1 play nonsense")
    with pytest.raises(ValueError, match="seed -1: expected an integer from 0 to"):
        AzulGame(2, -1)
    play_random(g, 0)
    with pytest.raises(ValueError, match="the game is over"):
        g.step(g.string_to_action("1B1"))


def test_azul_from_notation_resumes_a_position():
    text = (
        "2 3 play 1 2 -/-/-/-/- YYYYYRKKKK 9,7,6,6,12 7,4,8,5,3 "
        "0:W1,B2,K1,-,W2:...K./W..../...../...../.....:BRRR "
        "0:R1,-,K2,Y3,-:B..K./...R./...../...../Y....:1W"
    )
    g = AzulGame.from_notation(text, seed=1)
    assert g.notation() == text
    assert g.current_player == 1
    # The factories are empty: every legal action takes yellow, red or black from the centre.
    legal = {g.action_to_string(i) for i in g.legal_actions()}
    assert {a[:2] for a in legal} == {"CY", "CR", "CK"}
    assert "CYF" in legal and "CK1" not in legal  # P2's wall row 1 already has black
    g.step(g.string_to_action("CYF"))
    assert g.current_player == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_qwirkle_seed_reproduces_the_game(players):
    a = play_random(QwirkleGame(players, 3), 9)
    b = play_random(QwirkleGame(players, 3), 9)
    assert a == b
    assert a[1] != play_random(QwirkleGame(players, 4), 9)[1]


def test_qwirkle_turn_built_tile_by_tile_and_ended():
    g = QwirkleGame(2, 6)
    rng = np.random.default_rng(0)
    ended = 0
    while not g.is_terminal:
        legal = g.legal_actions()
        if tessera._tessera.QWIRKLE_END in legal and len(g.pending()) >= 1:
            # End a pending placement that could still grow.
            g.step(tessera._tessera.QWIRKLE_END)
            ended += 1
            assert g.pending() == []
            continue
        g.step(int(rng.choice(legal)))
    assert ended > 0
    assert g.winners()


def tiles(text):
    return [text[i : i + 2] for i in range(0, len(text), 2)] if text != "-" else []


def swap_hand_tile(notation, seat):
    """The same position with one tile of `seat`'s hand exchanged for a bag tile."""
    fields = dict(kv.split("=", 1) for kv in notation.split())
    letters = "ROYGBP"

    def index(t):
        return letters.index(t[0]) * 6 + int(t[1]) - 1

    hands = fields["hands"].split("/")
    bag = [int(c) for c in fields["bag"]]
    hand = tiles(hands[seat])
    old = hand[0]
    new_i = next(i for i, c in enumerate(bag) if c > 0 and i != index(old))
    new = letters[new_i // 6] + str(new_i % 6 + 1)
    bag[index(old)] += 1
    bag[new_i] -= 1
    hands[seat] = "".join([new] + hand[1:])
    fields["hands"] = "/".join(hands)
    fields["bag"] = "".join(map(str, bag))
    return " ".join(f"{k}={v}" for k, v in fields.items())


def test_qwirkle_hidden_hands_never_reach_another_seats_observation():
    g = QwirkleGame(3, 2)
    rng = np.random.default_rng(1)
    for _ in range(12):
        g.step(int(rng.choice(g.legal_actions())))
    while g.pending():
        # A pending placement lives in the handle, not in the notation: finish it first.
        g.step(int(rng.choice(g.legal_actions())))
    mover = g.current_player
    for seat in range(3):
        other = QwirkleGame.from_notation(swap_hand_tile(g.notation(), seat))
        for viewer in range(3):
            same = np.array_equal(g.observation(viewer), other.observation(viewer))
            # Only the owner of the changed hand sees the change.
            assert same == (viewer != seat), (seat, viewer, mover)
            assert (g.view_json(viewer) == other.view_json(viewer)) == (viewer != seat)


def test_qwirkle_bad_input_raises_clear_errors():
    g = QwirkleGame(2, 0)
    with pytest.raises(ValueError, match=r"action 0 \(put hand slot 0 .* is not legal now: no legal placement contains .*legal now: "):
        g.step(0)
    with pytest.raises(ValueError, match="ids are 0 to 5830"):
        g.step(5831)
    with pytest.raises(ValueError, match="2 to 4 players, not 6"):
        QwirkleGame(6)
    with pytest.raises(ValueError, match="Qwirkle state"):
        QwirkleGame.from_notation("n=2 phase=nope")
    with pytest.raises(ValueError, match="no tile is pending"):
        g.step(tessera._tessera.QWIRKLE_END)
    with pytest.raises(ValueError, match="first move"):
        g.step(tessera._tessera.QWIRKLE_TRADE_BASE)
    play_random(g, 3)
    with pytest.raises(ValueError, match="the game is over"):
        g.step(0)
