command damelab selfplay damone --games 60 --seed 45 --balanced 0.5 --no-tables --threads 1 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=10000; eval=bundled,nodes=10000' --json docs/study/damone.json
digest d602e262dca454e1
weights damone
weights-digest abd5c641e8ffd069
quick 0
wall 416
load 11.83 12.24 11.25
