command damelab selfplay dameo --games 60 --seed 45 --balanced 0.5 --no-tables --threads 2 --nodes 30000 --eval bundled --json docs/study/dameo-games.json
digest 6497d8bdd8ef9d17
weights dameo
weights-digest bdedbd879179702f
quick 0
wall 218
load 9.27 9.37 10.17
