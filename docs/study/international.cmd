command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest 360959ad90ba7622
weights international
weights-digest 27e303b728a40efa
quick 0
wall 299
load 3.92 3.90 3.90
