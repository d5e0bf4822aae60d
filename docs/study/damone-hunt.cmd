command damelab selfplay damone-hunt --games 60 --seed 45 --balanced 0.5 --no-tables --threads 1 --configs 'eval=derived,nodes=3000; eval=docs/study/damone-hunt.weights,nodes=3000; eval=derived,nodes=10000; eval=docs/study/damone-hunt.weights,nodes=10000' --json docs/study/damone-hunt.json
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 363
load 12.05 10.88 10.84
