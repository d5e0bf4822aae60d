command damelab endgame international 'KKKK v K' --json --cache /tmp/tmp.pwYnnxDNtp
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 409
load 12.73 13.22 12.13
