"""The python-chess-like API: variants, positions, moves, results, FEN, explain, perft, SVG."""

import copy
import os
import shutil
import subprocess

import pytest

import damelab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def damelab_binary():
    for p in ("target/release/damelab", "target/debug/damelab"):
        full = os.path.join(ROOT, p)
        if os.path.exists(full):
            return full
    return shutil.which("damelab")


def test_bundled_names():
    names = damelab.bundled()
    assert "international" in names and "frisian" in names and "dameo" in names


def test_start_position(international):
    p = international.start()
    assert p.turn == 0
    assert len(p.legal_moves) == 9
    assert sorted(map(str, p.legal_moves))[0] == "31-26"
    assert not p.is_game_over()
    r = p.result()
    assert r.token == "*" and r.winner is None and not r.over
    assert r.reason == "white to move"


def test_push_pop_and_fen(international):
    p = international.start()
    fen0 = p.fen()
    p.push("32-28")
    assert p.turn == 1
    m = p.legal_moves[0]
    p.push(m)
    assert [str(x) for x in p.move_stack] == ["32-28", str(m)]
    assert p.pop() == m
    assert str(p.pop()) == "32-28"
    assert p.fen() == fen0
    with pytest.raises(IndexError):
        p.pop()
    q = international.position(fen0)
    assert q.fen() == fen0


def test_move_attributes(international):
    p = international.position("W:W27:B22,3")
    (m,) = p.legal_moves
    assert str(m) == "27x18"
    assert m.is_capture
    assert international.squares[m.from_square] == "27"
    assert [international.squares[i] for i in m.captured] == ["22"]
    assert m.path == [m.to_square]
    assert hash(m) == hash(p.parse_move("27x18"))
    assert repr(m) == "Move('27x18')"


def test_moves_match_the_cli(international):
    exe = damelab_binary()
    if exe is None:
        pytest.skip("no damelab binary built (cargo build --release)")
    p = international.start()
    for text in ["32-28", "19-23", "28x19"]:
        p.push(text)
    out = subprocess.run(
        [exe, "moves", "international", "--fen", p.fen()],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert sorted(map(str, p.legal_moves)) == out


def test_illegal_move_raises_the_explanation(international):
    p = international.start()
    with pytest.raises(damelab.IllegalMoveError) as e:
        p.push("32-23")
    assert "32-23" in str(e.value)
    p = international.position("W:W27,40:B22,12")
    with pytest.raises(damelab.IllegalMoveError) as e:
        p.push("40-35")
    assert "capture" in str(e.value)
    assert p.explain("40-35") == str(e.value) + "\n"
    with pytest.raises(damelab.IllegalMoveError):
        p.push("hello")
    assert len(p.move_stack) == 0
    with pytest.raises(TypeError):
        p.push(42)


def test_bad_fen_names_the_part(international):
    with pytest.raises(damelab.FenError) as e:
        international.position("W:W31,99:B1")
    assert "`99` is not a square of this board" in str(e.value)
    assert (e.value.line, e.value.column) == (1, 7)
    with pytest.raises(damelab.DamelabError):
        international.position("")


def test_rules_errors_carry_text_line_and_column():
    text = "variant broken\nboard 8x8 dark\nthis is not a rule\n"
    with pytest.raises(damelab.RulesError) as e:
        damelab.Variant.load_text(text, name="broken")
    err = e.value
    assert "broken.rules" in err.text
    # The first error's place, as the rendered text shows it (`broken.rules:1:9`).
    assert (err.line, err.column) == (1, 9)
    assert "broken.rules:1:9" in err.text and "3 errors" in err.text
    assert "expected `:`, found `is`" in err.text
    assert str(err) == err.text
    with pytest.raises(damelab.DamelabError) as e:
        damelab.Variant.load("internationl")
    assert "did you mean `international`" in str(e.value)


def test_load_text_round_trip():
    path = os.path.join(ROOT, "variants", "english.rules")
    with open(path) as f:
        v = damelab.Variant.load_text(f.read(), name="english")
    assert v.fingerprint == damelab.Variant.load("english").fingerprint
    assert damelab.Variant.load(path).name == "english"


def test_game_over_and_result(international):
    p = international.position("W:W27:B22")
    p.push("27x18")
    assert p.is_game_over()
    r = p.result()
    assert r.over and r.winner == 0 and r.token == "1-0"
    assert r.reason == "white wins: black has no legal move"
    assert p.legal_moves == []


def test_perft(international):
    p = international.start()
    assert p.perft(0) == 1
    assert [p.perft(d) for d in range(1, 5)] == [9, 81, 658, 4265]
    d = p.perft(2, divide=True)
    assert sum(d.values()) == 81 and set(d) == {str(m) for m in p.legal_moves}
    assert p.perft(4, threads=2) == 4265


def test_svg_and_copy(international):
    p = international.start()
    p.push("32-28")
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and "</svg>" in svg
    q = p.copy()
    q.push(q.legal_moves[0])
    assert len(p.move_stack) == 1 and len(q.move_stack) == 2
    r = copy.deepcopy(p)
    assert r.fen() == p.fen()
    assert str(p).count("M") == 20 and str(p).count("m") == 20


def test_planes_and_pieces(international):
    p = international.start()
    w, h = international.board_size
    kinds = len(international.pieces)
    planes = p.planes(0)
    assert len(planes) == 2 * kinds * w * h
    assert sum(planes) == 40
    assert len(p.pieces()) == 40


def test_describe(international):
    assert "international" in international.describe().lower()


def test_docstring_examples():
    import doctest

    assert doctest.testmod(damelab).failed == 0


def test_columns_read_and_print_through_fen():
    # Lasca (`take top`): a column's pieces under its top follow its square in parentheses.
    lasca = damelab.Variant.load("lasca")
    fen = "W:Wc3:Bd4(WO),g7"
    p = lasca.position(fen)
    assert p.fen() == fen
    # c3xe5 takes the black top of d4 under the white soldier; the white officer under it is
    # d4's top again.
    p.push("c3xe5")
    after = p.fen()
    assert "e5(B)" in after and "Od4" in after and "(WO)" not in after
    assert lasca.position(after).fen() == after
    assert str(p.pop()) == "c3xe5"
    assert p.fen() == fen
    with pytest.raises(damelab.FenError):
        damelab.Variant.load("international").position("W:W31(B):B1")


def test_pieces_in_hand_and_a_declared_combat_through_fen():
    # Mraha wa Bwe: every man starts in hand (`[W12,B12]`); a drop of two is written `@a1,b2`.
    mraha = damelab.Variant.load("mraha-wa-bwe")
    p = mraha.position("W:W:B:[W12,B12]")
    assert len(p.legal_moves) == 276
    p.push("@b2,a1")
    assert p.fen() == "B:Wa1,b2:B:[W10,B12]"
    assert mraha.position(p.fen()).fen() == p.fen()
    p.pop()
    assert p.fen() == "W:W:B:[W12,B12]"
    # Dablot Prejjesne: two lone men; White declares single combat with a move that comes nearer.
    dablot = damelab.Variant.load("dablot-prejjesne")
    q = dablot.position("W:Wc3:Bg9")
    q.push("@c3-d4")
    assert q.fen() == "B:Wd4:Bg9:combat"
    assert sorted(str(m) for m in q.legal_moves) == ["g9-e9", "g9-f8", "g9-g7"]
