#!/usr/bin/env python3
"""Render docs/analysis.md's study tables from the runs scripts/study.sh saved.

Each generated block of the document lies between `<!-- study:NAME -->` and `<!-- /study:NAME -->`
and is replaced whole; the prose around the blocks is kept. A run's figures are tagged with the
digest of the weights it played with and the command recorded beside its JSON (NAME.cmd); a run
whose weights' digest is not today's (given with --weights-digest) is marked stale. Only the
standard library is used.
"""

import argparse
import json
import math
import os
import re
import sys

Z = 1.959963984540054
SEED_DAMEO_DRAWS = 0.21
NAME = {"international": "international", "english": "English"}


def pct(x):
    return f"{100 * x:.1f}%"


def ci_pct(v, lo, hi):
    return f"{pct(v)} [{100 * lo:.1f}–{100 * hi:.1f}%]"


def ci_num(v, lo, hi, digits=1):
    return f"{v:.{digits}f} [{lo:.{digits}f}–{hi:.{digits}f}]"


def wilson(k, n):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / den
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1, n1, k2, n2):
    """Difference p1 - p2 of two independent proportions, Newcombe's interval (method 10)."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


class Run:
    def __init__(self, d, name):
        self.name = name
        self.meta = {}
        path = os.path.join(d, name + ".cmd")
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                k, _, v = line.rstrip("\n").partition(" ")
                self.meta[k] = v
        jpath = os.path.join(d, name + ".json")
        self.json = json.load(open(jpath, encoding="utf-8")) if os.path.exists(jpath) else None
        tpath = os.path.join(d, name + ".txt")
        self.text = open(tpath, encoding="utf-8").read() if os.path.exists(tpath) else None

    def present(self):
        return self.meta != {} and (self.json is not None or self.text is not None)

    def tag(self, digest):
        """The run's command, digests, wall time and load. `digest` is (engine digest, {weights
        name: today's digest of those weights}); a run is stale when the digest of the weights it
        played with is not today's (a run recorded before weights digests: its engine digest)."""
        m = self.meta
        engine, today = digest
        if "weights" in m:
            fresh = today.get(m["weights"]) == m.get("weights-digest")
            made = f"weights `{m['weights']}` digest `{m.get('weights-digest')}`"
        else:
            fresh = m.get("digest") == engine
            made = f"digest `{m.get('digest')}`"
        stale = "" if fresh else f" **stale: made with {made}**"
        quick = " (quick size, a test of the script)" if m.get("quick") == "1" else ""
        command = re.sub(r"--cache \S+", "--cache DIR", m.get("command", "?"))
        weights = f", weights `{m['weights']}` `{m.get('weights-digest', '?')}`" if "weights" in m else ""
        return (f"`{command}` — digest `{m.get('digest', '?')}`{weights}{stale}, "
                f"{m.get('wall', '?')} s of wall time at load {m.get('load', '?')}{quick}")


def config_table(run):
    """A configurations run: a row a configuration, the four figures with their intervals."""
    figs = {f["name"]: f for f in run.json["figures"]}
    configs = [r["config"] for r in run.json["runs"]]
    games = {r["config"]: r["report"]["games"] for r in run.json["runs"]}
    head = "| configuration | games | draws | first-player score | length (plies) | shuffling draws |"
    rows = [head, "| --- | --- | --- | --- | --- | --- |"]
    for i, c in enumerate(configs):
        cells = []
        for name in ["draw rate", "first-player score", "game length", "shuffling draws"]:
            v = figs[name]["values"][i]
            if name in ("draw rate", "shuffling draws"):
                cells.append(ci_pct(v["value"], *v["ci95"]))
            elif name == "first-player score":
                cells.append(ci_num(v["value"], *v["ci95"], digits=3))
            else:
                cells.append(ci_num(v["value"], *v["ci95"]))
        rows.append(f"| {c} | {games[c]} | " + " | ".join(cells) + " |")
    flags = [n for n, f in figs.items() if f["engine_dependent"]]
    held = [n for n, f in figs.items() if not f["engine_dependent"]]
    rows.append("")
    if flags:
        rows.append("ENGINE-DEPENDENT (two configurations' intervals do not meet): "
                    + ", ".join(flags) + "." + (" Held across the configurations: "
                                                + ", ".join(held) + "." if held else ""))
    else:
        rows.append("Every figure held across the configurations (their intervals meet).")
    return rows


def draws_of(run):
    """(config, draws, games) per configuration."""
    return [(r["config"], r["report"]["draws"]["count"], r["report"]["games"])
            for r in run.json["runs"]]


def block_configs(runs, digest, names):
    out = []
    for n in names:
        r = runs[n]
        if not r.present():
            out.append(f"*{n}: not run yet (`scripts/study.sh --only {n}`).*")
            out.append("")
            continue
        out.append(f"**{n}** — {r.tag(digest)}")
        out.append("")
        out.extend(config_table(r))
        out.append("")
    return out


def block_turkish(runs, digest):
    t = runs["turkish"]
    out = []
    if not t.present():
        return ["*Not run yet (`scripts/study.sh`).*"]
    verdicts = {}
    out.append("| configuration | Turkish − international, draws | Turkish − English, draws |")
    out.append("| --- | --- | --- |")
    td = {c: (k, n) for c, k, n in draws_of(t)}
    for c in td:
        cells = []
        for other in ["international", "english"]:
            o = runs[other]
            if not o.present():
                cells.append("not run")
                continue
            od = {c2: (k, n) for c2, k, n in draws_of(o)}
            if c not in od:
                cells.append("no such configuration")
                continue
            d, lo, hi = newcombe(*td[c], *od[c])
            word = "Turkish lower" if hi < 0 else "Turkish higher" if lo > 0 else "not distinguishable"
            verdicts.setdefault(other, []).append(word)
            cells.append(f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]: {word}")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    out.append("")
    for other, words in verdicts.items():
        if all(w == "Turkish lower" for w in words):
            v = f"Turkish draws less than {NAME[other]} under every configuration: **agreed**"
        elif all(w == "Turkish higher" for w in words):
            v = f"Turkish draws more than {NAME[other]} under every configuration: **contradicted**"
        elif all(w == "not distinguishable" for w in words):
            v = f"Turkish and {NAME[other]} not distinguishable under any configuration: **undecidable at these strengths**"
        else:
            v = (f"the verdict against {NAME[other]} changes with the configuration "
                 f"({', '.join(words)}): **ENGINE-DEPENDENT, undecidable**")
        out.append(f"- {v}.")
    return out


def block_dameo(runs, digest):
    r = runs["dameo"]
    if not r.present():
        return ["*Not run yet (`scripts/study.sh`).*"]
    out = []
    below = []
    for c, k, n in draws_of(r):
        lo, hi = wilson(k, n)
        where = "below 21%" if hi < SEED_DAMEO_DRAWS else "above 21%" if lo > SEED_DAMEO_DRAWS else "the interval holds 21%"
        below.append(where)
        out.append(f"- {c}: {ci_pct(k / n, lo, hi)} draws — {where}")
    out.append("")
    if all(w == "below 21%" for w in below):
        out.append("Every configuration's interval lies below AiAi's ~21%: **contradicted at these strengths**.")
    elif all(w == "the interval holds 21%" for w in below):
        out.append("Every configuration's interval holds 21%: **consistent with AiAi's ~21%**.")
    else:
        configs = [c for c, _, _ in draws_of(r)]
        top = max(int(re.search(r"nodes=(\d+)", c).group(1)) if "nodes=" in c else 0 for c in configs)
        strongest = [w for c, w in zip(configs, below) if f"nodes={top}" in c]
        k = sum(w == "below 21%" for w in below)
        if strongest and all(w == "below 21%" for w in strongest):
            out.append(f"Below 21% under {k} of {len(below)} configurations, every one at the strongest "
                       f"setting ({top:,} nodes): **contradicted at the strongest setting**; the weaker "
                       "configurations disagree, so the figure is ENGINE-DEPENDENT below it.")
        else:
            out.append("The configurations disagree about 21%: **ENGINE-DEPENDENT, undecidable**.")
    return out


def block_hunt(runs, digest):
    a, b = runs["damone"], runs["damone-hunt"]
    if not (a.present() and b.present()):
        return ["*Not run yet (`scripts/study.sh`).*"]
    out = ["| Damone configuration | hunt configuration | hunt − Damone, draws | hunt − Damone, length (plies) |",
           "| --- | --- | --- | --- |"]
    fa = {f["name"]: f["values"] for f in a.json["figures"]}
    fb = {f["name"]: f["values"] for f in b.json["figures"]}
    da, db = draws_of(a), draws_of(b)
    words = {"draws": [], "length": []}
    for i in range(min(len(da), len(db))):
        d, lo, hi = newcombe(db[i][1], db[i][2], da[i][1], da[i][2])
        la, lb = fa["game length"][i], fb["game length"][i]
        se = math.hypot((la["ci95"][1] - la["ci95"][0]) / (2 * Z), (lb["ci95"][1] - lb["ci95"][0]) / (2 * Z))
        dl = lb["value"] - la["value"]
        out.append(f"| {da[i][0]} | {db[i][0]} | {100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
                   f"| {dl:+.1f} [{dl - Z * se:+.1f}, {dl + Z * se:+.1f}] |")
        words["draws"].append(side(lo, hi))
        words["length"].append(side(dl - Z * se, dl + Z * se))
    out.append("")
    for figure, ws in words.items():
        out.append(f"- {figure}: " + verdict_of(ws, "the hunt"))
    return out


def side(lo, hi):
    return "lower" if hi < 0 else "higher" if lo > 0 else "not distinguishable"


def verdict_of(words, who):
    """One verdict over the configurations' words (lower / higher / not distinguishable)."""
    if all(w == words[0] for w in words):
        if words[0] == "not distinguishable":
            return f"not distinguishable under any configuration: **undecidable at these strengths**."
        return f"{who} {words[0]} under every configuration: **the same verdict across the engines**."
    return f"{', '.join(words)} by configuration: **ENGINE-DEPENDENT, undecidable**."


def log10_binom(n, k):
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(10)


def dameo_state_space():
    """Upper bounds of Dameo's positions: up to 18 pieces a side on 64 squares, each a man or a
    king, either side to move; refined: a man never stands on its own promotion rank (8 squares
    a side), and a side has at most 18 pieces."""
    crude = 0
    refined = 0
    for w in range(19):
        for b in range(19):
            crude += math.comb(64, w) * math.comb(64 - w, b) * 2 ** (w + b)
            # Refined: split each side into men and kings; a white man avoids rank 8, a black man
            # rank 1. Count placements: kings anywhere free, men on their 56 allowed squares.
    for wm in range(19):
        for wk in range(19 - wm):
            for bm in range(19):
                for bk in range(19 - bm):
                    # Place white men on ranks 1-7 (56 squares), black men on ranks 2-8 (56); the
                    # overlap (ranks 2-7, 48 squares) is shared. An upper bound: choose white men in
                    # 56, black men in 56 minus those taken (at least 56 - wm), kings in the rest.
                    refined += (math.comb(56, wm) * math.comb(56, bm)
                                * math.comb(64 - wm - bm, wk) * math.comb(64 - wm - bm - wk, bk))
    return math.log10(2 * crude), math.log10(2 * refined)


def block_complexity(runs, digest):
    out = []
    d = runs["dameo"]
    if d.present():
        parts = [f"{r['config']} {r['report']['branching_mean']:.1f}^{r['report']['length_mean']:.1f} "
                 f"≈ 10^{r['report']['complexity_log10']:.0f}" for r in d.json["runs"]]
        out.append("- b^d of each configuration's games above (mean branching to the mean length): "
                   + "; ".join(parts))
    for name, label in [("dameo-games", "engine games"), ("dameo-random", "random games")]:
        r = runs[name]
        if not r.present():
            out.append(f"- {label}: not run yet (`scripts/study.sh --only {name}`).")
            continue
        rep = r.json["report"]
        games = r.json["games"]
        lm = [g.get("lm", 0) / 1e6 for g in games]
        mean_lm = sum(lm) / len(lm)
        sd = math.sqrt(sum((x - mean_lm) ** 2 for x in lm) / max(1, len(lm) - 1))
        half = Z * sd / math.sqrt(len(lm))
        lm_sorted = sorted(lm)
        med = lm_sorted[len(lm) // 2]
        out.append(f"- {label} ({rep['games']}; {r.tag(digest)}): mean branching {rep['branching_mean']:.1f} "
                   f"to the mean length {rep['length_mean']:.1f} plies, **b^d ≈ 10^{rep['complexity_log10']:.0f}**; "
                   f"the product of each position's moves, **10^{mean_lm:.0f}** on average over the games "
                   f"(mean of log10 {mean_lm:.1f} [{mean_lm - half:.1f}–{mean_lm + half:.1f}], median 10^{med:.0f})")
    crude, refined = dameo_state_space()
    out.append(f"- state space, upper bounds: at most 18 pieces a side on 64 squares, each a man or a king, "
               f"either side to move: **10^{crude:.1f}**; with no man on its own promotion rank: "
               f"**10^{refined:.1f}** (computed exactly by scripts/study_render.py; the seed says ~10^40)")
    return out


def block_endgames(runs, digest):
    out = ["| table | positions | result | run |", "| --- | --- | --- | --- |"]
    for name, label in [("endgame-turkish-kk-k", "Turkish `KK v K`"),
                        ("endgame-dameo-kk-k", "Dameo `KK v K`"),
                        ("endgame-international-kkkk-k", "international `KKKK v K`"),
                        ("endgame-turkish-no-lone-king-k-m", "Turkish `K v M` without the lone-king rule")]:
        r = runs[name]
        if not r.present():
            out.append(f"| {label} | | not run yet | |")
            continue
        out.append(f"| {label} | {endgame_summary(r.text)} | {r.tag(digest)} |")
    return out


def endgame_summary(text):
    """The endgame JSON's figures as table cells: the positions, then the verdict."""
    try:
        d = json.loads(text)
    except ValueError:
        return " | " + (text.strip().splitlines() or ["(no output)"])[-1]
    positions = sum(s.get("positions", 0) for s in d.get("sides", []))
    return f"{positions:,} | {d.get('verdict', '?')}"


BLOCKS = {
    "configs-draws": lambda runs, dg: block_configs(runs, dg, ["turkish", "international", "english", "dameo"]),
    "configs-damone": lambda runs, dg: block_configs(runs, dg, ["damone", "damone-hunt"]),
    "turkish": block_turkish,
    "dameo-draws": block_dameo,
    "hunt": block_hunt,
    "complexity": block_complexity,
    "endgames": block_endgames,
}

NAMES = ["turkish", "international", "english", "dameo", "dameo-games", "dameo-random", "damone",
         "damone-hunt-train", "damone-hunt", "endgame-turkish-kk-k", "endgame-dameo-kk-k",
         "endgame-international-kkkk-k", "endgame-turkish-no-lone-king-k-m"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", default="docs/study")
    ap.add_argument("--doc", default="docs/analysis.md")
    ap.add_argument("--digest", required=True)
    ap.add_argument("--weights-digest", action="append", default=[], metavar="NAME=HEX",
                    help="today's digest of a variant's bundled weights (`none`: the version alone)")
    a = ap.parse_args()
    runs = {n: Run(a.dir, n) for n in NAMES}
    doc = open(a.doc, encoding="utf-8").read()
    blocks = dict(BLOCKS)
    today = dict(w.split("=", 1) for w in a.weights_digest)
    blocks["digest"] = lambda runs, dg: [
        f"Engine digest `{dg[0]}` (`damelab version --digest`: the version and the bundled weights). "
        "Each run is tagged with the digest of the weights it played with (`damelab version --digest "
        "--weights VARIANT`, `none` for runs without a learned evaluation): new weights for one "
        "variant stale that variant's runs alone."]
    for name, make in blocks.items():
        pattern = re.compile(r"(<!-- study:%s -->\n).*?(<!-- /study:%s -->)" % (re.escape(name), re.escape(name)), re.S)
        if not pattern.search(doc):
            print(f"study_render: {a.doc} has no block study:{name}", file=sys.stderr)
            return 1
        body = "\n".join(make(runs, (a.digest, today))).rstrip("\n") + "\n"
        doc = pattern.sub(lambda m: m.group(1) + body + m.group(2), doc)
    tmp = a.doc + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(doc)
    os.replace(tmp, a.doc)
    print(f"study_render: {a.doc} rendered from {a.dir} (digest {a.digest})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
