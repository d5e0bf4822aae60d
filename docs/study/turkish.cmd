command damelab selfplay turkish --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/turkish.json
digest d602e262dca454e1
weights turkish
weights-digest 2976e1c0ed3ea3bd
quick 0
wall 1605
load 11.63 12.19 11.24
