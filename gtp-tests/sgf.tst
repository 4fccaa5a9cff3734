# loadsgf (with a move number) and printsgf. The files are in sgf/ beside this one.

# A 9x9 game: komi, rules, moves, a pass written [] and one written [tt].
1 loadsgf sgf/game.sgf
2 list_stones b
#? [G3 E5 G7]

3 list_stones w
#? [C3 C7]

4 get_komi
#? [6.5]

5 hoshi-rules
#? [japanese]

6 showboard
#? [.*move 7, White to play, komi 6\.5, japanese rules, handicap 0]

# Up to (not including) move 3: two moves played.
7 loadsgf sgf/game.sgf 3
8 list_stones b
#? [E5]

9 list_stones w
#? [C7]

10 showboard
#? [.*move 2, Black to play.*]

11 loadsgf sgf/game.sgf 1
12 list_stones b
#? []

13 loadsgf sgf/game.sgf 1000
14 list_stones b
#? [G3 E5 G7]

# The loaded moves can be undone one by one.
15 gg-undo 7
16 list_stones w
#? []

undo
#! [cannot undo]

# Variations: only the main line (first branch each time); escaped ] and \ in a comment.
20 loadsgf sgf/variations.sgf
21 list_stones b
#? [C3 B4 D4]

22 list_stones w
#? [D2]

23 get_komi
#? [0.5]

# Handicap stones from HA and AB: White to play, the bonus counts, no undo past them.
30 loadsgf sgf/handicap.sgf
31 showboard
#? [.*move 2, White to play, komi 0\.5, french rules, handicap 2]

32 list_stones b
#? [C3 C7 G7]

33 gg-undo 2
undo
#! [cannot undo]

34 list_stones b
#? [C3 G7]

35 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[hoshi:[0-9.]+\]SZ\[9\]KM\[0\.5\]RU\[French\]HA\[2\]AB\[gc\]\[cg\]\)]

# Setup stones in the middle of the game replace the position: only the moves after
# them can be undone.
40 loadsgf sgf/setup.sgf
41 list_stones b
#? [A4 A5 C5]

42 list_stones w
#? [E1 D2 B5]

43 undo
undo
#! [cannot undo]

# Files that cannot be loaded change nothing.
loadsgf sgf/malformed.sgf
#! [cannot load file]

loadsgf sgf/illegal.sgf
#! [cannot load file]

loadsgf sgf/too_big.sgf
#! [cannot load file]

loadsgf sgf/no_such_file.sgf
#! [cannot load file]

loadsgf sgf
#! [cannot load file]

loadsgf sgf/game.sgf x
#! [syntax error]

loadsgf
#! [syntax error]

loadsgf sgf/game.sgf 3 4
#! [syntax error]

44 list_stones b
#? [A4 A5]

45 list_stones w
#? [E1 D2 B5]

# printsgf writes the game so far, one node per move, without blank lines.
boardsize 5
clear_board
50 komi 6.5
51 hoshi-rules french
52 play b c3
53 play w d2
54 play b pass
55 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[hoshi:[0-9.]+\]SZ\[5\]KM\[6\.5\]RU\[French\]\n;B\[cc\];W\[dd\];B\[\]\)]

# After two passes the result is known and written: on 2x2, Black's two eyes make 4 points;
# his two stones in a row count as a handicap of 2 (1 point for White) and komi is 6.5.
boardsize 2
clear_board
56 gogui-play_sequence b a1 b b2 w pass b pass
57 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[hoshi:[0-9.]+\]SZ\[2\]KM\[6\.5\]RU\[French\]RE\[W\+3\.5\]\n;B\[ab\];B\[ba\];W\[\];B\[\]\)]

printsgf /no/such/directory/game.sgf
#! [cannot save file]

printsgf a b
#! [syntax error]
