command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest c8de1788c5469990
weights international
weights-digest 28cfcaa2837e8f3c
quick 0
wall 685
load 4.95 5.35 5.13
