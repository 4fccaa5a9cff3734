# The playing strength: hoshi-level reads it (with its rough rank) and sets it, hoshi-param
# offers it (and the rules) to GoGui's parameter dialog.

1 hoshi-level
#? [expert \(about [0-9]+ (kyu|dan)\)]

2 hoshi-level beginner
#? []

3 hoshi-level
#? [beginner \(about [0-9]+ (kyu|dan)\)]

4 hoshi-level INTERMEDIATE
5 hoshi-level
#? [intermediate \(about [0-9]+ (kyu|dan)\)]

hoshi-level grandmaster
#! [syntax error]

hoshi-level beginner expert
#! [syntax error]

10 hoshi-param
#? [\[list/beginner/intermediate/expert\] level intermediate\n\[list/french/chinese/japanese/aga/new-zealand/tromp-taylor/cgos\] rules french\n.*]

11 hoshi-param level expert
12 hoshi-level
#? [expert \(about [0-9]+ (kyu|dan)\)]

13 hoshi-param rules japanese
14 hoshi-rules
#? [japanese]

hoshi-param level
#! [syntax error]

hoshi-param colour blue
#! [unknown parameter "colour"]

# A level change keeps the game going: genmove still answers a legal move.
20 boardsize 5
21 clear_board
22 hoshi-level beginner
23 genmove b
#? [[A-E][1-5]]
