command damelab selfplay english --games 100 --seed 45 --balanced 0.5 --no-tables --threads 1 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/english.json
digest d602e262dca454e1
weights english
weights-digest f7c4582478f3b96e
quick 0
wall 1439
load 9.93 10.45 10.72
