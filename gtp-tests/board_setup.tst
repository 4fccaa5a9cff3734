# boardsize, clear_board, komi: sizes 2 to 25, komi kept across boardsize and clear_board.

1 boardsize 9
2 komi 6.5
3 get_komi
#? [6.5]

boardsize 26
#! [unacceptable size]

boardsize 1
#! [unacceptable size]

boardsize 0
#! [unacceptable size]

boardsize nine
#! [syntax error]

boardsize -3
#! [syntax error]

boardsize 9.5
#! [syntax error]

boardsize 99999999999999999999
#! [syntax error]

boardsize
#! [syntax error]

boardsize 9 9
#! [syntax error]

# A refused size leaves the board as it was: 9x9, J9 on it, K10 off it.
10 is_legal b J9
#? [1]

11 is_legal b K10
#? [0]

# Komi survives boardsize and clear_board (controllers do not send it again).
boardsize 13
12 get_komi
#? [6.5]

clear_board
13 get_komi
#? [6.5]

14 komi -3.5
15 get_komi
#? [-3.5]

16 komi 0
17 get_komi
#? [0]

18 komi 1e3
19 get_komi
#? [1000]

komi abc
#! [syntax error]

komi nan
#! [syntax error]

komi inf
#! [syntax error]

komi
#! [syntax error]

komi 7.5 8
#! [syntax error]

20 get_komi
#? [1000]

# The smallest and the largest boards.
21 boardsize 2
22 showboard
#? [A B\n 2 \. \. 2\n 1 \. \. 1\n   A B\nBlack \(X\) has captured 0 stones\nWhite \(O\) has captured 0 stones\nmove 0, Black to play, komi 1000, french rules, handicap 0]

23 boardsize 25
24 is_legal w Z25
#? [1]

25 play w Z25
26 list_stones white
#? [Z25]

# clear_board empties the board and the history.
27 clear_board
28 list_stones white
#? []

undo
#! [cannot undo]

# A diagram with stones, captures and the player to move.
30 boardsize 5
31 komi 6.5
32 play b c3
33 play w d2
34 showboard
#? [A B C D E\n 5 \. \. \. \. \. 5\n 4 \. \. \. \. \. 4\n 3 \. \. X \. \. 3\n 2 \. \. \. O \. 2\n 1 \. \. \. \. \. 1\n   A B C D E\nBlack \(X\) has captured 0 stones\nWhite \(O\) has captured 0 stones\nmove 2, Black to play, komi 6.5, french rules, handicap 0]

showboard please
#! [syntax error]
