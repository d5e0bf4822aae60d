command damelab selfplay dameo --games 1200 --seed 45 --random --threads 2 --json docs/study/dameo-random.json
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 0
load 8.33 9.73 11.86
