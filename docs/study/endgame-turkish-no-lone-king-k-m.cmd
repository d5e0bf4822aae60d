command damelab endgame examples/turkish-no-lone-king.rules 'K v M' --json --cache /tmp/tmp.075ge0Xr6a
digest c8de1788c5469990
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 0
load 1.60 0.92 0.42
