command damelab endgame dameo 'KK v K' --json --cache /tmp/tmp.pwYnnxDNtp
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 9
load 13.29 11.21 10.95
