"""A tour of the damelab Python package (docs/python.md): run it after `pip install ./python`.

    python python/examples/quickstart.py
"""

import damelab

# A bundled variant, its start position, its moves as `damelab moves` writes them.
v = damelab.Variant.load("international")
p = v.start()
print(v.title, "-", len(p.legal_moves), "moves:", " ".join(sorted(map(str, p.legal_moves))))

# Moves by text or as objects; illegal moves say why.
p.push("32-28")
p.push("19-23")
try:
    p.push("37-32")
except damelab.IllegalMoveError as e:
    print("illegal:", e)
p.push("28x19")
print(p.fen())
print(p)

# The engine: score and principal variation.
a = damelab.analyse(p, depth=6)
print("analysis:", a.score_text, " ".join(map(str, a.pv)))

# A game record with a comment and a variation, as PDN.
g = damelab.Game(v)
for m in ["32-28", "19-23", "28x19", "14x23"]:
    g.push(m)
g.add_comment("the first exchange", after=4)
g.add_variation(1, ["18-23"])
g.set_header("Event", "quickstart")
print(g.pdn())

# Another variant (a rules file's path works the same: Variant.load("my.rules")).
small = damelab.Variant.load("english")
print(small.name, small.start().perft(4), "sequences of 4 moves")

# Self-play figures, as `damelab selfplay --json` writes them.
fig = damelab.selfplay(small, games=10, depth=2, threads=1)
print("draw rate", fig["report"]["draws"]["rate"])

# A learning environment: random legal moves until the game ends.
import numpy as np  # noqa: E402

env = damelab.env("english")
env.reset(seed=0)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    if term or trunc:
        env.step(None)
        continue
    env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print("the environment's game ended:", env.position.result().reason)
