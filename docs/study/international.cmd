command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest fecd69beb4cca46f
weights international
weights-digest 4cfce470566285af
quick 0
wall 777
load 7.66 6.61 4.82
