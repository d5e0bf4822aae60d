command damelab selfplay dameo --games 60 --seed 45 --balanced 0.5 --no-tables --threads 2 --nodes 30000 --eval bundled --json docs/study/dameo-games.json
digest d602e262dca454e1
weights dameo
weights-digest 8d58dda97bdac97d
quick 0
wall 318
load 8.33 9.73 11.86
