command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest 200b13edc5cc4672
weights international
weights-digest 528e9f067fa5af96
quick 0
wall 267
load 1.83 1.45 1.27
