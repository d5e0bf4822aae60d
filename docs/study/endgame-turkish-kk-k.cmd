command damelab endgame turkish 'KK v K' --json --cache /tmp/tmp.pwYnnxDNtp
digest d602e262dca454e1
weights none
weights-digest ce9aa4c37f04a75a
quick 0
wall 5
load 12.52 11.00 10.88
