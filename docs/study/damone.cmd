command damelab selfplay damone --games 60 --seed 45 --balanced 0.5 --no-tables --threads 2 --configs 'eval=derived,nodes=3000; eval=bundled,nodes=3000; eval=derived,nodes=10000; eval=bundled,nodes=10000' --json docs/study/damone.json
digest b8706c9783b07ba3
weights damone
weights-digest 0cc53ad194444096
quick 0
wall 65
load 3.88 4.09 6.40
