# Handicap: the fixed tables of GTP §4.1.1 on 19x19, 13x13, 9x9 and the small and even
# boards; free placement; set_free_handicap; refusals; no undo; White to play.

boardsize 19
clear_board
1 fixed_handicap 2
#? [D4 Q16]

clear_board
2 fixed_handicap 3
#? [D4 Q16 D16]

clear_board
3 fixed_handicap 4
#? [D4 Q16 D16 Q4]

clear_board
4 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10]

clear_board
5 fixed_handicap 6
#? [D4 Q16 D16 Q4 D10 Q10]

clear_board
6 fixed_handicap 7
#? [D4 Q16 D16 Q4 D10 Q10 K10]

clear_board
7 fixed_handicap 8
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16]

clear_board
8 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

9 list_stones b
#? [D4 K4 Q4 D10 K10 Q10 D16 K16 Q16]

10 showboard
#? [.*move 0, White to play, komi [^,]*, french rules, handicap 9]

boardsize 13
clear_board
11 fixed_handicap 2
#? [D4 K10]

clear_board
12 fixed_handicap 5
#? [D4 K10 D10 K4 G7]

clear_board
13 fixed_handicap 8
#? [D4 K10 D10 K4 D7 K7 G4 G10]

clear_board
14 fixed_handicap 9
#? [D4 K10 D10 K4 D7 K7 G4 G10 G7]

boardsize 9
clear_board
15 fixed_handicap 2
#? [C3 G7]

clear_board
16 fixed_handicap 6
#? [C3 G7 C7 G3 C5 G5]

clear_board
17 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]

boardsize 7
clear_board
18 fixed_handicap 4
#? [C3 E5 C5 E3]

clear_board
fixed_handicap 5
#! [invalid number of stones]

boardsize 8
clear_board
19 fixed_handicap 2
#? [C3 F6]

clear_board
fixed_handicap 5
#! [invalid number of stones]

boardsize 6
clear_board
fixed_handicap 2
#! [invalid number of stones]

boardsize 19
clear_board
fixed_handicap 1
#! [invalid number of stones]

fixed_handicap 0
#! [invalid number of stones]

fixed_handicap 10
#! [invalid number of stones]

fixed_handicap two
#! [syntax error]

fixed_handicap
#! [syntax error]

fixed_handicap 2 3
#! [syntax error]

# Nothing was placed by the refusals.
20 list_stones b
#? []

# Handicap stones are not moves: no undo, and no second handicap.
21 fixed_handicap 2
undo
#! [cannot undo]

fixed_handicap 2
#! [board not empty]

place_free_handicap 2
#! [board not empty]

set_free_handicap A1 B1
#! [board not empty]

22 list_stones b
#? [D4 Q16]

# White moves first; after White's move, undo takes that move back but not the stones.
23 genmove w
#? [[A-HJ-T]1?[0-9]]

24 undo
25 list_stones w
#? []

26 list_stones b
#? [D4 Q16]

# After a move, the board is not empty any more.
clear_board
27 play b k10
fixed_handicap 2
#! [board not empty]

# Free placement: the star points as far as they go, then spread out.
clear_board
30 place_free_handicap 4
#? [D4 Q16 D16 Q4]

# Beyond nine: the 7-7 points, never the edge while there is room inside.
clear_board
33 place_free_handicap 13
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10 G7 N7 G13 N13]

boardsize 5
clear_board
31 place_free_handicap 24
#? [(?:[A-E][1-5] ){23}[A-E][1-5]]

32 all_legal w
#? [[A-E][1-5]]

clear_board
place_free_handicap 1
#! [invalid number of stones]

place_free_handicap 25
#! [invalid number of stones]

place_free_handicap -2
#! [syntax error]

# set_free_handicap: 2 to size*size-1 distinct points on the board.
boardsize 9
clear_board
40 set_free_handicap c3 G7 e5
41 list_stones b
#? [C3 E5 G7]

42 showboard
#? [.*move 0, White to play, .*, handicap 3]

clear_board
set_free_handicap c3
#! [bad vertex list]

set_free_handicap
#! [bad vertex list]

set_free_handicap c3 c3
#! [bad vertex list]

set_free_handicap c3 pass
#! [bad vertex list]

set_free_handicap c3 k10
#! [bad vertex list]

set_free_handicap c3 xyz
#! [bad vertex list]

43 list_stones b
#? []

boardsize 2
clear_board
44 set_free_handicap a1 a2 b1
45 list_stones b
#? [A1 B1 A2]

clear_board
set_free_handicap a1 a2 b1 b2
#! [bad vertex list]

# The handicap counts for White under French rules (N-1 points), Chinese (N), AGA (N-1),
# not Japanese nor Tromp-Taylor. Black's two eyes on 2x2 are all the board: 4 points.
clear_board
50 komi 0.5
51 set_free_handicap a1 b2
52 final_score
#? [B\+2\.5]

53 hoshi-rules chinese
54 final_score
#? [B\+1\.5]

55 hoshi-rules aga
56 final_score
#? [B\+2\.5]

57 hoshi-rules japanese
58 final_score
#? [B\+1\.5]

59 hoshi-rules tromp-taylor
60 final_score
#? [B\+3\.5]

# Black stones played in a row at the start, as controllers without handicap commands
# send them, count as handicap too.
61 hoshi-rules french
62 clear_board
63 play b a1
64 play b b2
65 showboard
#? [.*handicap 2]

66 final_score
#? [B\+2\.5]
