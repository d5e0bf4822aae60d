command damelab selfplay english --games 100 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/english.json
digest b8706c9783b07ba3
weights english
weights-digest fd4c4685c122ab31
quick 0
wall 220
load 3.94 4.14 6.58
