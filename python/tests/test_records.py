"""PDN read and write, analyse, selfplay and endgame (the CLI's JSON figures)."""

import json
import os
import subprocess
import tempfile

import pytest

import damelab
from test_api import damelab_binary

PDN = """[Event "test"]
[White "A"]
[Black "B"]
[GameType "20"]

1. 32-28 {a classic} 19-23 (1... 18-23 2. 37-32) 2. 28x19 14x23 *
"""


def test_read_pdn_headers_comments_variations():
    (g,) = damelab.read_pdn(PDN)
    assert g.headers["Event"] == "test" and g.headers["White"] == "A"
    assert [str(m) for m in g.moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert g.comments == [(1, "a classic")]
    (var,) = g.variations
    assert var.ply == 1 and [str(m) for m in var.moves] == ["18-23", "37-32"]
    assert g.result == "*"
    text = g.pdn()
    (again,) = damelab.read_pdn(text)
    assert [str(m) for m in again.moves] == [str(m) for m in g.moves]
    assert again.comments == g.comments
    assert [str(m) for m in again.variations[0].moves] == ["18-23", "37-32"]


def test_write_a_new_game(international):
    g = damelab.Game(international)
    g.set_header("Event", "made in Python")
    g.push("32-28")
    g.add_comment("first move")
    g.push("18-23")
    g.add_variation(1, ["19-23"])
    text = damelab.write_pdn([g, g])
    games = damelab.read_pdn(text)
    assert len(games) == 2
    assert games[0].headers["Event"] == "made in Python"
    assert [str(m) for m in games[0].variations[0].moves] == ["19-23"]
    assert g.end().fen() == games[1].end().fen()
    with pytest.raises(damelab.IllegalMoveError):
        g.add_variation(0, ["32-23"])


def test_bad_pdn_raises():
    with pytest.raises(damelab.DamelabError):
        damelab.read_pdn('[GameType "20"]\n\n1. 32-23 *\n')


def test_analyse(international):
    p = international.position("W:W27,28:B22")
    a = damelab.analyse(p, depth=4)
    assert a.best is not None and str(a.best) in {str(m) for m in p.legal_moves}
    assert a.pv and a.pv[0] == a.best
    assert a.score_text == "win in 1" and str(a.best) == "27x18"
    a = damelab.analyse(international.start(), depth=4)
    assert a.depth == 4 and a.nodes > 0 and len(a.pv) >= 1
    a = damelab.analyse(international.start(), nodes=2000)
    assert a.best is not None
    a = damelab.analyse(international.start(), time=0.05)
    assert a.best is not None
    with pytest.raises(damelab.DamelabError):
        damelab.analyse(international.start(), depth=0)


def test_selfplay_matches_the_cli(tmp_path):
    v = damelab.Variant.load("english")
    fig = damelab.selfplay(v, games=6, depth=2, seed=3, threads=2)
    assert fig["format"] == "damelab-selfplay"
    assert len(fig["games"]) == 6
    exe = damelab_binary()
    if exe is None:
        pytest.skip("no damelab binary built")
    out = tmp_path / "run.json"
    subprocess.run(
        [exe, "selfplay", "english", "--games", "6", "--depth", "2", "--seed", "3",
         "--threads", "1", "--json", str(out)],
        check=True, capture_output=True,
    )
    cli = json.loads(out.read_text())
    assert cli["report"] == fig["report"]
    assert cli["games"] == fig["games"]
    assert cli["settings"] == fig["settings"]


def test_random_selfplay_is_the_bulk_playout():
    v = damelab.Variant.load("international")
    fig = damelab.selfplay(v, games=20, random=True, seed=1, threads=1)
    assert sum(1 for _ in fig["games"]) == 20
    assert fig["settings"]["random"] is True


def test_endgame_matches_the_cli(tmp_path):
    v = damelab.Variant.load("english")
    fig = damelab.endgame(v, "K v K", no_cache=True)
    exe = damelab_binary()
    if exe is None:
        pytest.skip("no damelab binary built")
    out = subprocess.run(
        [exe, "endgame", "english", "K v K", "--json", "--no-cache"],
        check=True, capture_output=True, text=True,
    ).stdout
    cli = json.loads(out)
    for key in ("seconds", "positions_per_second"):
        cli.pop(key), fig.pop(key)
    for t in cli["tables"] + fig["tables"]:
        t.pop("seconds")
    assert cli == fig


def test_selfplay_bad_arguments():
    v = damelab.Variant.load("english")
    with pytest.raises(damelab.DamelabError):
        damelab.selfplay(v, games=0)
    with pytest.raises(damelab.DamelabError):
        damelab.selfplay(v, games=2, depth=2, random=True)


def test_analyse_many_agrees_with_analyse(international):
    start = international.start()
    won = international.position("W:W27,28:B22")
    after = international.start()
    after.push("32-28")
    batch = damelab.analyse_many([start, won, after], depth=3, threads=2)
    assert [a.depth for a in batch][1] >= 1
    for p, a in zip([start, won, after], batch):
        one = damelab.analyse(p, depth=3, hash=16)
        assert (str(a.best), a.score) == (str(one.best), one.score)
    assert damelab.analyse_many([]) == []
    with pytest.raises(damelab.DamelabError):
        damelab.analyse_many([start, damelab.Variant.load("english").start()], depth=2)
