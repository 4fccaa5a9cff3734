# play and the queries around it: captures, suicide, occupied points, bad moves, undo,
# gg-undo, gogui-play_sequence, is_legal, all_legal, list_stones, color, countlib, findlib.

boardsize 5
clear_board

# Colours and vertices in any case; pass in any case; one colour may play twice.
1 play b c3
2 play W D2
3 play B PASS
4 play black pass
5 play white b4
6 list_stones b
#? [C3]

7 list_stones WHITE
#? [D2 B4]

8 color c3
#? [black]

9 color D2
#? [white]

10 color a1
#? [empty]

# Occupied points, points off the board, and malformed moves.
play b c3
#! [illegal move: occupied]

play w C3
#! [illegal move: occupied]

play b z9
#! [illegal move: off board]

play b f1
#! [illegal move: off board]

play b i1
#! [syntax error]

play b a0
#! [syntax error]

play b a26
#! [syntax error]

play b c
#! [syntax error]

play b 33
#! [syntax error]

play b resign
#! [syntax error]

play red c1
#! [syntax error]

play pass b
#! [syntax error]

play black
#! [syntax error]

play b c1 d1
#! [syntax error]

play
#! [syntax error]

# Nothing of that changed the board.
11 list_stones b
#? [C3]

# A capture: White's C3 surrounded.
clear_board
20 play w c3
21 play b b3
22 play b d3
23 play b c4
24 countlib c3
#? [1]

25 findlib C3
#? [C2]

26 play b c2
27 color c3
#? [empty]

28 captures black
#? [1]

29 captures w
#? [0]

30 countlib c2
#? [4]

31 findlib c2
#? [C1 B2 D2 C3]

# Suicide: White into the empty C3, where nothing would be captured.
play w c3
#! [illegal move: suicide]

32 is_legal w c3
#? [0]

33 is_legal b c3
#? [1]

34 is_legal w pass
#? [1]

35 is_legal w k10
#? [0]

is_legal w
#! [syntax error]

is_legal purple c3
#! [syntax error]

is_legal w i3
#! [syntax error]

countlib c3
#! [vertex must not be empty]

countlib z9
#! [syntax error]

findlib pass
#! [syntax error]

color f6
#! [syntax error]

color
#! [syntax error]

captures
#! [syntax error]

captures red
#! [syntax error]

list_stones
#! [syntax error]

list_stones green
#! [syntax error]

# Undo takes the capture back, prisoners included.
40 undo
41 color c3
#? [white]

42 captures black
#? [0]

43 list_stones b
#? [B3 D3 C4]

# gg-undo takes back several moves, or none if there are fewer.
44 gg-undo 2
45 list_stones b
#? [B3]

gg-undo 3
#! [cannot undo]

46 list_stones w
#? [C3]

47 gg-undo
48 gg-undo 0
49 list_stones w
#? [C3]

50 gg-undo
51 list_stones w
#? []

gg-undo
#! [cannot undo]

undo
#! [cannot undo]

gg-undo x
#! [syntax error]

gg-undo 1 2
#! [syntax error]

undo 1
#! [syntax error]

# all_legal: on 2x2 with Black on A1 and B2, White has nowhere to go (both points are
# suicide) and Black may fill his own eyes.
boardsize 2
clear_board
52 play b a1
53 play b b2
54 all_legal w
#? []

55 all_legal b
#? [B1 A2]

all_legal
#! [syntax error]

# gogui-play_sequence plays all the moves or none.
boardsize 5
clear_board
60 gogui-play_sequence b c3 w d4 B E5 w PASS
61 list_stones b
#? [C3 E5]

gogui-play_sequence b a1 w c3
#! [illegal move: occupied]

62 list_stones b
#? [C3 E5]

gogui-play_sequence b a1 w
#! [syntax error]

gogui-play_sequence b a1 w i9
#! [syntax error]

63 gogui-play_sequence
64 list_stones b
#? [C3 E5]

65 undo
66 undo
67 list_stones b
#? [C3]

68 list_stones w
#? [D4]
