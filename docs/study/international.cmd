command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest 4399d42ed6edfe46
weights international
weights-digest 26bbbc9df0e7c552
quick 0
wall 497
load 4.04 3.22 2.54
