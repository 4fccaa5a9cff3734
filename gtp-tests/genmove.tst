# genmove, reg_genmove and kgs-genmove_cleanup with the tree search (300 playouts): a legal move
# that does not fill its own eye, a capture when there is one, pass when nothing is left.

boardsize 9
clear_board
1 genmove b
#? [[A-HJ][1-9]]

2 genmove W
#? [[A-HJ][1-9]]

3 list_stones b
#? [[A-HJ][1-9]]

# reg_genmove answers without playing.
4 reg_genmove b
#? [[A-HJ][1-9]]

5 list_stones b
#? [[A-HJ][1-9]]

6 kgs-genmove_cleanup b
#? [[A-HJ][1-9]]

7 list_stones b
#? [[A-HJ][1-9] [A-HJ][1-9]]

genmove
#! [syntax error]

genmove x
#! [syntax error]

genmove b w
#! [syntax error]

reg_genmove
#! [syntax error]

kgs-genmove_cleanup purple
#! [syntax error]

# A capture comes first: White's C3 in atari, Black takes at C2.
boardsize 5
clear_board
10 gogui-play_sequence w c3 b b3 b d3 b c4
11 reg_genmove b
#? [C2]

12 genmove b
#? [C2]

13 captures b
#? [1]

# Black's two eyes on 2x2: Black does not fill them and passes; White has no legal move.
boardsize 2
clear_board
20 gogui-play_sequence b a1 b b2
21 genmove b
#? [pass]

22 reg_genmove w
#? [pass]

23 genmove w
#? [pass]

# The game is over after two passes, yet genmove still answers a legal move.
boardsize 3
clear_board
30 play b pass
31 play w pass
32 genmove b
#? [[A-C][1-3]]

33 genmove b
#? [[A-C][1-3]]

# Asked for the same colour twice, or for the side not to move: still a legal move.
34 genmove w
#? [[A-C][1-3]|pass]

35 genmove w
#? [[A-C][1-3]|pass]
