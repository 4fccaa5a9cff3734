# kgs-genmove_cleanup, as KGS uses it when the players disagree on the dead stones: the
# engine plays on, takes the opponent's dead stones off the board and never passes while
# one is left, then passes as soon as the opponent does.

# The French counting example with a dead White stone on B4 (liberties A4, B3, B5, C4) in
# Black's area and a dead Black stone on H7 in White's. White passes throughout.
1 loadsgf sgf/dead_stones.sgf
2 final_score
#? [W\+4\.5]

3 play w pass
4 kgs-genmove_cleanup b
#? [A4|B3|B5|C4]

5 play w pass
6 kgs-genmove_cleanup b
#? [A4|B3|B5|C4]

7 play w pass
8 kgs-genmove_cleanup b
#? [A4|B3|B5|C4]

9 play w pass
10 kgs-genmove_cleanup b
#? [A4|B3|B5|C4]

# B4 is gone: one prisoner, and nothing left to take.
11 list_stones w
#? [F1 F2 F3 F4 F5 F6 E7 F7 E8 E9]

12 captures b
#? [1]

13 final_status_list dead
#? [H7]

14 play w pass
15 kgs-genmove_cleanup b
#? [pass]

# Area scoring: the cleanup changed nothing in the count.
16 final_score
#? [W\+4\.5]
