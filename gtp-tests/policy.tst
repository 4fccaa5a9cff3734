# The network: its moves for the side to move (hoshi-policy), its heat map and its value
# (hoshi-policy_gfx, hoshi-evaluate), the strongest built in (KataGo's b6c96): on an empty
# 19x19 board its first choices are corner points on the third and fourth lines.

boardsize 19
clear_board
1 hoshi-policy 3
#? [([C-ER][3-5]|[C-ER]1[5-7]|Q[3-5]|Q1[5-7]) 0\.\d{4}\n[A-T]\d{1,2} 0\.\d{4}\n[A-T]\d{1,2} 0\.\d{4}]

2 hoshi-policy
#? [([A-HJ-T]\d{1,2} 0\.\d{4}\n){9}[A-HJ-T]\d{1,2} 0\.\d{4}]

hoshi-policy x
#! [syntax error]

hoshi-policy 1 2
#! [syntax error]

# More than there are legal moves: every legal move once, the pass too (KataGo's networks
# give it a probability).
boardsize 2
clear_board
play b a1
3 hoshi-policy 100
#? [([AB][12]|pass) 0\.\d{4}\n([AB][12]|pass) 0\.\d{4}\n([AB][12]|pass) 0\.\d{4}\n([AB][12]|pass) 0\.\d{4}]

4 hoshi-policy 0
#? []

boardsize 19
clear_board
5 hoshi-policy_gfx
#? [INFLUENCE( [A-T]\d{1,2} [01]\.\d\d)+\nLABEL( [A-T]\d{1,2} \d+)+\nTEXT policy network: [A-T]\d{1,2} \d+\.\d%]

# The network's value (hoshi-evaluate): the empty board with komi 7.5 is about even for
# Black; nine handicap stones are far ahead for the side that has them (White to move).
komi 7.5
6 hoshi-evaluate
#? [to_move B\nvalue 0\.[45]\d{3}\nscore_lead -?\d+\.\d\nscore_stdev \d+\.\d\npolicy( [A-HJ-T]\d{1,2} 0\.\d{4}){5}]

fixed_handicap 9
komi 0.5
7 hoshi-evaluate
#? [to_move W\nvalue 0\.[0-2]\d{3}\nscore_lead -\d+\.\d\nscore_stdev \d+\.\d\npolicy( [A-HJ-T]\d{1,2} 0\.\d{4}){5}]
