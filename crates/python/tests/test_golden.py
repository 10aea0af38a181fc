"""Golden games: a seeded game played with a fixed rule for choosing ids must stay the same
bit for bit (every state along the way, by its hash, and the final state). The figures were
recorded with the package before its step moved onto the match driver's chance loop
(tessera_core::table::resolve_chance); a change of the deals or the draws fails here."""

import hashlib

import pytest

from tessera import AzulGame, QwirkleGame


def play_fixed(game):
    """Plays legal[(k * 7919) % len(legal)] at step k; returns (steps, final notation, the
    first 16 hex digits of the SHA-256 of every notation after each step)."""
    h = hashlib.sha256()
    k = 0
    while not game.is_terminal:
        legal = game.legal_actions()
        game.step(legal[(k * 7919) % len(legal)])
        k += 1
        h.update(game.notation().encode())
    return k, game.notation(), h.hexdigest()[:16]


GOLDEN = {
    ("azul", 2): (
        75,
        "2 7 over 2 2 -/-/-/-/- 1 8,8,8,6,3 7,5,7,3,12 2:-,-,R1,K2,K3:BYRKW/WB.R./K.BY./..W../Y....:- 0:-,-,-,K3,Y2:B.R.W/W.Y.K/..BYR/...../.....:-",
        "e5ed464dab041c14",
    ),
    ("azul", 3): (
        85,
        "3 6 over 3 3 -/-/-/-/-/-/- 1 7,3,7,8,10 3,5,4,6,3 2:-,Y1,Y1,B3,W1:BYRKW/.B.../K...R/...../.....:- 0:-,Y1,W2,K1,B1:BYRK./...../..BY./R...Y/.R...:- 0:-,-,-,R3,Y4:BYRK./WB..K/.W.../..W../.....:-",
        "e4d781312954c091",
    ),
    ("azul", 4): (
        96,
        "4 6 over 2 2 -/-/-/-/-/-/-/-/- 1 6,4,3,0,1 5,4,8,5,2 0:-,-,Y1,W1,K4:B.R../W..../KW.../R...Y/.....:- 5:-,-,-,-,W3:BYRKW/..Y.K/KW..R/...BY/.....:- 0:-,R1,K2,W2,Y2:B.R.W/WB.../..B.R/RK..Y/..K..:- 0:-,-,-,Y1,W4:BY.KW/.BY.K/K..Y./...B./.R...:-",
        "5d69b7dc849493d0",
    ),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_azul_golden_game(players):
    assert play_fixed(AzulGame(players, 2026)) == GOLDEN[("azul", players)]


def test_qwirkle_golden_game():
    steps, final, digest = play_fixed(QwirkleGame(2, 2026))
    assert (steps, digest) == (156, "134bdf1904c4b79c")
    assert final.startswith("n=2 phase=over first=- scores=101,115 hands=Y6B3/- ")
    assert final.endswith(" aside=- end=out:2")
