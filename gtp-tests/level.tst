# The playing strength: hoshi-level reads it (with its rank) and sets it, hoshi-rank reads
# and sets the rank, hoshi-param offers both (and the rules) to GoGui's parameter dialog.

1 hoshi-level
#? [expert \(9d\)]

2 hoshi-level beginner
#? []

3 hoshi-level
#? [beginner \(10k\)]

4 hoshi-level INTERMEDIATE
5 hoshi-level
#? [intermediate \(7k\)]

hoshi-level grandmaster
#! [syntax error]

hoshi-level beginner expert
#! [syntax error]

10 hoshi-param
#? [\[list/beginner/intermediate/expert\] level intermediate\n\[string\] rank 7k\n\[list/french/chinese/japanese/aga/new-zealand/tromp-taylor/cgos\] rules french\n.*]

11 hoshi-param level expert
12 hoshi-level
#? [expert \(9d\)]

13 hoshi-param rules japanese
14 hoshi-rules
#? [japanese]

hoshi-param level
#! [syntax error]

hoshi-param colour blue
#! [unknown parameter "colour"]

# A rank: any from 30k to expert's (9d), a level's rank shown with its name.
30 hoshi-rank
#? [9d]

31 hoshi-rank 12K
32 hoshi-rank
#? [12k]

33 hoshi-level
#? [12k]

34 hoshi-rank 7kyu
35 hoshi-level
#? [intermediate \(7k\)]

hoshi-rank 10d
#! [not a rank: "10d" \(30k to 1k, then 1d to 9d, e.g. 12k or 2d\)]

hoshi-rank 31k
#! [not a rank: "31k" \(30k to 1k, then 1d to 9d, e.g. 12k or 2d\)]

hoshi-rank 5k 4k
#! [syntax error]

36 hoshi-rank
#? [7k]

37 hoshi-param rank 30k
38 hoshi-rank
#? [30k]

hoshi-param rank 10d
#! [not a rank: "10d" \(30k to 1k, then 1d to 9d, e.g. 12k or 2d\)]

# Expert is the top of each board's scale, and stays expert when the board changes; a
# rank under it stays that rank.
60 hoshi-level expert
61 boardsize 9
62 hoshi-level
#? [expert \(9d\)]

63 boardsize 19
64 hoshi-level
#? [expert \(9d\)]

65 hoshi-rank 3d
66 boardsize 9
67 hoshi-level
#? [3d]

68 hoshi-rank 9d
69 hoshi-level
#? [expert \(9d\)]

70 boardsize 19
71 hoshi-level
#? [expert \(9d\)]

# A level change keeps the game going: genmove still answers a legal move.
20 boardsize 5
21 clear_board
22 hoshi-level beginner
23 genmove b
#? [[A-E][1-5]]

# So does a rank that sees only some of the moves.
24 hoshi-rank 30k
25 genmove w
#? [[A-E][1-5]]

26 reg_genmove b
#? [[A-E][1-5]]

# The fair handicap between hoshi's rank and the opponent's, the weaker taking Black.
hoshi-handicap
#! [the opponent's rank is unknown \(hoshi-opponent_rank RANK\)]

40 hoshi-opponent_rank
#? []

41 boardsize 19
42 hoshi-rank 7k
43 hoshi-opponent_rank 12k
44 hoshi-handicap
#? [5 0.5]

45 hoshi-opponent_rank 6k
46 hoshi-handicap
#? [0 0.5]

47 hoshi-opponent_rank 3d
48 hoshi-handicap
#? [9 0.5]

49 hoshi-opponent_rank 7k
50 hoshi-handicap
#? [0 6.5]

# (the rules' usual komi: Japanese since line 13)
55 hoshi-rules french
56 hoshi-handicap
#? [0 7.5]

51 boardsize 9
52 hoshi-opponent_rank 19k
53 hoshi-handicap
#? [2 0.5]

54 hoshi-opponent_rank
#? [19k]

hoshi-opponent_rank 40k
#! [not a rank: "40k" \(30k to 1k, then 1d to 9d, e.g. 12k or 2d\)]

hoshi-handicap 3
#! [syntax error]
