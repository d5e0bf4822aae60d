"""Endgame tables from Python: `endgame` builds a table of columns (Lasca, `take top`) into a
cache of the test's own, and `probe` reads a position's value from it, a column built by the
game's own moves included; the values are those checked by hand in tests/engine of the
repository (`W:WOc3:Bd4(BO)`, White to move, loses in 2) and the table's longest win."""

import pytest

import damelab


def test_probe_reads_a_table_of_columns(tmp_path):
    lasca = damelab.Variant.load("lasca")
    fig = damelab.endgame(lasca, "O v OS", cache=tmp_path)
    assert "O v OS" in [t["material"] for t in fig["tables"]]

    # A white officer against a black soldier over a black officer: c3xe5 frees the officer,
    # which takes back (hand-checked).
    p = lasca.position("W:WOc3:Bd4(BO)")
    assert damelab.probe(p, cache=tmp_path) == "loss in 2"
    p.set_fen("B:WOc3:Bd4(BO)")
    assert damelab.probe(p, cache=tmp_path) == "win in 1"

    # The longest win of O v OS (25 plies); after four of its moves the white officer stands
    # over the black one (d6xb4 builds the column) and Black still wins, in 21.
    p = lasca.position("B:WOc5:BOa5,a7")
    assert damelab.probe(p, cache=tmp_path) == "win in 25"
    for m in ["a5-b6", "c5-d6", "b6-c5", "d6xb4"]:
        p.push(m)
    assert p.fen() == "B:WOb4(BO):Ba7"
    assert damelab.probe(p, cache=tmp_path) == "win in 21"

    # No table of that material in the cache: None, nothing built.
    assert damelab.probe(lasca.start(), cache=tmp_path) is None
    assert damelab.probe(lasca.position("W:WOa1:BOc3"), cache=tmp_path) is None


def test_probe_reads_the_default_cache(tmp_path, monkeypatch):
    # The cache `endgame` writes to by default (DAMELAB_CACHE) is the one `probe` reads.
    monkeypatch.setenv("DAMELAB_CACHE", str(tmp_path / "cache"))
    lasca = damelab.Variant.load("lasca")
    p = lasca.position("W:WOc3:Bd4(BO)")
    assert damelab.probe(p) is None
    damelab.endgame(lasca, "O v OS")
    assert damelab.probe(p) == "loss in 2"


def test_probe_without_tables_of_the_variant(tmp_path):
    lasca = damelab.Variant.load("lasca")
    with pytest.raises(damelab.DamelabError, match="holds no endgame tables"):
        damelab.probe(lasca.position("W:WOc3:Bd4(BO)"), cache=tmp_path)
