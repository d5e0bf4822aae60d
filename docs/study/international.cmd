command damelab selfplay international --games 200 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=30000; eval=bundled,nodes=30000' --json docs/study/international.json
digest d602e262dca454e1
weights international
weights-digest 24ca40fe5c5f3fa3
quick 0
wall 2975
load 6.50 9.10 11.56
