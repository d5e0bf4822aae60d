"""damelab's move generation agrees with pydraughts' on positions of random international and
Frisian games: in every position, the same moves (compared by origin, destination and captured
squares, as square numbers: the two notations differ in how a capture's route is written)."""

import random

import pytest

import damelab

draughts = pytest.importorskip("draughts")


def ours(position, squares):
    out = set()
    for m in position.legal_moves:
        out.add((int(squares[m.from_square]), int(squares[m.to_square]),
                 frozenset(int(squares[c]) for c in m.captured)))
    return out


def theirs(board):
    out = {}
    for m in board.legal_moves():
        steps = m.steps_move
        key = (steps[0], steps[-1], frozenset(c for c in m.captures if c))
        out[key] = m
    return out


@pytest.mark.parametrize("name,pyvariant", [("international", "standard"), ("frisian", "frisian")])
def test_same_moves_in_random_games(name, pyvariant):
    v = damelab.Variant.load(name)
    squares = v.squares
    rng = random.Random(2026)
    positions = captures = multiple = 0
    for game in range(15 if name == "international" else 10):
        board = draughts.Board(variant=pyvariant)
        pos = v.start()
        for ply in range(200):
            mine, other = ours(pos, squares), theirs(board)
            assert mine == set(other), (
                f"{name} game {game} ply {ply} at {pos.fen()}: "
                f"only damelab {sorted(mine - set(other))}, only pydraughts {sorted(set(other) - mine)}"
            )
            positions += 1
            captures += any(k[2] for k in mine)
            multiple += any(len(k[2]) > 1 for k in mine)
            if not mine or pos.is_game_over() or board.is_over():
                break
            key = rng.choice(sorted(mine, key=lambda k: (k[0], k[1], sorted(k[2]))))
            board.push(other[key])
            (m,) = [m for m in pos.legal_moves
                    if (int(squares[m.from_square]), int(squares[m.to_square]),
                        frozenset(int(squares[c]) for c in m.captured)) == key]
            pos.push(m)
    # Not only quiet moves: positions with captures, some of several pieces.
    assert positions > 300 and captures > 50 and multiple > 5, (positions, captures, multiple)
