# Ko and superko: the simple ko, the French rule against the positional rule after a pass,
# and a triple ko that every superko rule cuts.

# A simple ko on 5x5: Black's D3 takes White's C3.
boardsize 5
clear_board
1 gogui-play_sequence b b3 b c4 b c2 w d4 w d2 w e3 w c3
2 play b d3
3 captures b
#? [1]

play w c3
#! [illegal move: ko]

4 is_legal w c3
#? [0]

5 all_legal w
#? [!.*C3.*]

# A move elsewhere each, and the ko may be taken back.
6 play w a5
7 play b a1
8 play w c3
9 color d3
#? [empty]

10 captures w
#? [1]

# The French rule (FFG): a player may not recreate a position he himself produced by
# playing a stone. Here Black's A1 produced the position with White on C3; after White's
# pass, Black takes, and White's retake recreates Black's position, not White's: legal.
clear_board
20 gogui-play_sequence b b3 b c4 b c2 w d4 w d2 w e3 w c3 b a1 w pass b d3
21 hoshi-rules
#? [french]

22 play w c3
23 color d3
#? [empty]

# Black may not take back at once: that position is his own.
play b d3
#! [illegal move: ko]

# Under positional superko (Chinese) the same retake is forbidden.
clear_board
24 hoshi-rules chinese
25 gogui-play_sequence b b3 b c4 b c2 w d4 w d2 w e3 w c3 b a1 w pass b d3
play w c3
#! [illegal move: ko]

26 color c3
#? [empty]

# A triple ko on 9x9, set up by plays ending with White's A9 (so that White produced the
# starting position). Each capture is legal under the simple ko rule; White's sixth would
# bring back the start: superko.
30 hoshi-rules french
31 boardsize 9
32 clear_board
33 gogui-play_sequence b b2 b c1 b c3 b b5 b c4 b c6 b b8 b c7 b c9 b d5 w e2 w d1 w d3 w e5 w d4 w d6 w e8 w d7 w d9 w c2 w c8 w a9
34 gogui-play_sequence b d2 w c5 b d8 w c2 b d5
play w c8
#! [illegal move: superko]

35 is_legal w c8
#? [0]

36 reg_genmove w
#? [!C8]

# Under Japanese rules (simple ko only) the cycle goes on.
37 hoshi-rules japanese
38 play w c8
39 captures w
#? [3]

40 gogui-play_sequence b d2 w c5 b d8 w c2 b d5 w c8
41 captures b
#? [6]

# Back under French rules, Black's D2 would recreate the position his D2 of the first
# cycle produced.
42 hoshi-rules french
play b d2
#! [illegal move: superko]

43 is_legal b d2
#? [0]
