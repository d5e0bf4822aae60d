command damelab selfplay dameo --games 100 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/dameo.json
digest 6497d8bdd8ef9d17
weights dameo
weights-digest bdedbd879179702f
quick 0
wall 772
load 9.85 9.88 10.53
