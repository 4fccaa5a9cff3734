# Rulesets: kgs-rules with KGS's four names, hoshi-rules with every preset, and what they
# change: suicide under New Zealand rules.

1 hoshi-rules
#? [french]

2 kgs-rules japanese
3 hoshi-rules
#? [japanese]

4 kgs-rules chinese
5 hoshi-rules
#? [chinese]

6 kgs-rules aga
7 hoshi-rules
#? [aga]

8 kgs-rules new_zealand
9 hoshi-rules
#? [new-zealand]

10 hoshi-rules tromp-taylor
11 hoshi-rules
#? [tromp-taylor]

12 hoshi-rules FRENCH
13 hoshi-rules
#? [french]

kgs-rules ing
#! [syntax error]

kgs-rules
#! [syntax error]

hoshi-rules xyz
#! [syntax error]

hoshi-rules french chinese
#! [syntax error]

14 hoshi-rules
#? [french]

# A two-stone suicide: Black's A2 would leave A1-A2 without liberties.
boardsize 3
clear_board
20 gogui-play_sequence b a1 w b1 w b2 w a3
play b a2
#! [illegal move: suicide]

21 kgs-rules new_zealand
22 play b a2
23 list_stones b
#? []

24 captures w
#? [2]

# One-stone suicide stays forbidden everywhere.
25 play w a1
play b a2
#! [illegal move: suicide]

# Rules survive clear_board and boardsize.
26 boardsize 9
27 clear_board
28 hoshi-rules
#? [new-zealand]
