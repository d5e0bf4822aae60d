command damelab train damone-hunt --seed 1 --generations 1 --games 200 --nodes 1000 --epochs 100 --match-games 0 --threads 1 -o docs/study/damone-hunt.weights
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 44
load 10.50 11.85 11.16
