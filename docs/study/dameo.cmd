command damelab selfplay dameo --games 100 --seed 45 --balanced 0.5 --no-tables --threads 1 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/dameo.json
digest d602e262dca454e1
weights dameo
weights-digest 8d58dda97bdac97d
quick 0
wall 2346
load 8.99 10.08 12.62
