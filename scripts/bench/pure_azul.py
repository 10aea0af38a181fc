"""A minimal pure-Python Azul engine, written only as a speed yardstick for the Python
package (docs/performance.md): how fast a straightforward engine of the kind Azul courses
hand out plays random games when called directly (no environment API).

It is NOT one of Tessera's engines and is not tested against the rules: it implements the
base game the plain way (lists and dicts, a list of legal moves per step, Python's `random`)
and is used by nothing but this benchmark.

    python scripts/bench/pure_azul.py [--steps 200000] [--players 2]
"""

import argparse
import random
import time

COLOURS = 5
FLOOR_PENALTY = [-1, -1, -2, -2, -2, -3, -3]
FACTORIES = {2: 5, 3: 7, 4: 9}


def wall_col(row, colour):
    return (row + colour) % 5


class Board:
    def __init__(self):
        self.lines = [[None, 0] for _ in range(5)]  # colour, count
        self.wall = [[False] * 5 for _ in range(5)]
        self.floor = []  # colours, or "F" for the first-player token
        self.score = 0

    def accepts(self, row, colour):
        c, n = self.lines[row]
        if self.wall[row][wall_col(row, colour)]:
            return False
        return n == 0 or (c == colour and n < row + 1)


class Game:
    def __init__(self, players, rng):
        self.rng = rng
        self.n = players
        self.bag = [c for c in range(COLOURS) for _ in range(20)]
        self.lid = []
        self.boards = [Board() for _ in range(players)]
        self.mover = rng.randrange(players)
        self.over = False
        self.deal()

    def deal(self):
        self.factories = []
        for _ in range(FACTORIES[self.n]):
            f = []
            for _ in range(4):
                if not self.bag:
                    self.bag, self.lid = self.lid, []
                    if not self.bag:
                        break
                f.append(self.bag.pop(self.rng.randrange(len(self.bag))))
            self.factories.append(f)
        self.centre = []
        self.token = True
        if not any(self.factories):
            self.over = True  # no tile left outside walls and lines: nothing can move

    def legal(self):
        b = self.boards[self.mover]
        moves = []
        sources = [("C", self.centre)] + list(enumerate(self.factories))
        for s, tiles in sources:
            for colour in set(tiles):
                for row in range(5):
                    if b.accepts(row, colour):
                        moves.append((s, colour, row))
                moves.append((s, colour, 5))
        return moves

    def apply(self, move):
        s, colour, row = move
        b = self.boards[self.mover]
        if s == "C":
            taken = [t for t in self.centre if t == colour]
            self.centre = [t for t in self.centre if t != colour]
            if self.token:
                self.token = False
                b.floor.append("F")
        else:
            tiles = self.factories[s]
            taken = [t for t in tiles if t == colour]
            self.centre += [t for t in tiles if t != colour]
            self.factories[s] = []
        if row < 5:
            line = b.lines[row]
            room = row + 1 - line[1]
            line[0] = colour
            line[1] += min(room, len(taken))
            extra = taken[room:]
        else:
            extra = taken
        for t in extra:
            if len(b.floor) < 7:
                b.floor.append(t)
            else:
                self.lid.append(t)
        if not self.centre and not any(self.factories):
            self.end_round()
        else:
            self.mover = (self.mover + 1) % self.n

    def end_round(self):
        for p, b in enumerate(self.boards):
            for row in range(5):
                colour, count = b.lines[row]
                if count == row + 1:
                    col = wall_col(row, colour)
                    b.wall[row][col] = True
                    b.score += self.placement_score(b.wall, row, col)
                    self.lid += [colour] * row
                    b.lines[row] = [None, 0]
            for i, t in enumerate(b.floor):
                b.score += FLOOR_PENALTY[i]
                if t == "F":
                    self.mover = p
                else:
                    self.lid.append(t)
            b.score = max(0, b.score)
            b.floor = []
        if any(all(r) for b in self.boards for r in b.wall):
            for b in self.boards:
                b.score += 2 * sum(all(r) for r in b.wall)
                b.score += 7 * sum(all(b.wall[r][c] for r in range(5)) for c in range(5))
                b.score += 10 * sum(
                    all(b.wall[r][wall_col(r, col)] for r in range(5)) for col in range(COLOURS)
                )
            self.over = True
        else:
            self.deal()

    @staticmethod
    def placement_score(wall, row, col):
        h = 1
        c = col - 1
        while c >= 0 and wall[row][c]:
            h, c = h + 1, c - 1
        c = col + 1
        while c < 5 and wall[row][c]:
            h, c = h + 1, c + 1
        v = 1
        r = row - 1
        while r >= 0 and wall[r][col]:
            v, r = v + 1, r - 1
        r = row + 1
        while r < 5 and wall[r][col]:
            v, r = v + 1, r + 1
        if h == 1 and v == 1:
            return 1
        return (h if h > 1 else 0) + (v if v > 1 else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    rng = random.Random(0)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while steps < args.steps:
        g = Game(args.players, rng)
        while not g.over:
            moves = g.legal()
            g.apply(moves[rng.randrange(len(moves))])
            steps += 1
            if steps > 10_000_000:
                raise RuntimeError("runaway game")
        games += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"pure-Python Azul, {args.players} players, random moves called directly: {steps} steps, "
        f"{games} games in {elapsed:.2f} s: {steps / elapsed:,.0f} steps/s "
        f"(CPU time {cpu:.2f} s: {steps / cpu:,.0f} steps per CPU second)"
    )


if __name__ == "__main__":
    main()
