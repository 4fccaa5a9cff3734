# Scoring finished games: final_score and final_status_list, with the dead stones and seki
# judged by Monte Carlo ownership; French, Japanese and Tromp-Taylor counts.

# The counting example of the French rules: Black 42 points, White 39 + 7.5.
1 loadsgf sgf/french_count.sgf
2 final_score
#? [W\+4\.5]

3 final_status_list dead
#? []

4 final_status_list seki
#? []

5 final_status_list alive
#? [E1 E2 E3 E4 E5 D6 E6 D7 D8 D9\nF1 F2 F3 F4 F5 F6 E7 F7 E8 E9]

# The same with a dead White stone on B4 and a dead Black stone on H7: they are removed,
# their points count for the owner of the area, and the result stays W+4.5.
10 loadsgf sgf/dead_stones.sgf
11 final_status_list dead
#? [B4\nH7]

12 final_status_list DEAD
#? [B4\nH7]

13 final_score
#? [W\+4\.5]

14 final_status_list alive
#? [E1 E2 E3 E4 E5 D6 E6 D7 D8 D9\nF1 F2 F3 F4 F5 F6 E7 F7 E8 E9]

# Japanese rules: territory and prisoners (the dead stones), 33 to 30 + 7.5.
15 kgs-rules japanese
16 final_score
#? [W\+4\.5]

# Tromp-Taylor: nothing is dead, so each dead stone spoils the area around it:
# 11 stones each, every empty point neutral.
17 hoshi-rules tromp-taylor
18 final_status_list dead
#? []

19 final_score
#? [W\+7\.5]

# A seki under Japanese rules: White C1-D9 and Black E1-E9 share D5 and D6 and have no
# eye; the eyes of the seki count for nobody: Black's 5 points to White's 23 + 6.5.
# GNU Go 3.8 gives the same seki.
20 loadsgf sgf/seki.sgf
21 final_status_list seki
#? [C1 D1 C2 D2 C3 D3 C4 D4 C5 C6 C7 D7 C8 D8 C9 D9\nE1 E2 E3 E4 E5 E6 E7 E8 E9]

22 final_status_list dead
#? []

23 final_status_list alive
#? [B1 A2 B2 B3 A4 B4 B5 A6 B6 B7 A8 B8 B9\nF1 F2 G2 F3 F4 G4 F5 F6 G6 F7 F8 G8 F9]

24 final_score
#? [W\+24\.5]

# Two passes end the game; the count and the SGF result agree.
25 play b pass
26 play w pass
27 printsgf
#? [.*RE\[W\+24\.5\].*]

# What looks like a seki but is not: Black can sacrifice C1 and kill White's ring on the
# vital point of the bent three left (GNU Go 3.8 agrees): 67 points and 8 prisoners.
30 loadsgf sgf/false_seki.sgf
31 final_status_list seki
#? []

32 final_status_list dead
#? [B1 E1 B2 E2 B3 C3 D3 E3]

33 final_status_list alive
#? [A1 F1 A2 F2 A3 F3 A4 B4 C4 D4 E4 F4\nC2 D2]

34 final_score
#? [B\+67\.5]

# Dead shapes that playouts alone get wrong, read by the judge's searches (GNU Go 3.8
# agrees on both): a two-point eye in a corner, whose killing moves are self-ataris...
40 loadsgf sgf/dead_corner.sgf
41 final_status_list dead
#? [A8 B8 C8 C9]

42 final_score
#? [W\+6\.5]

# ...and a group alive only by a ko that Black can take: dead at the end of the game.
43 loadsgf sgf/dead_by_ko.sgf
44 final_status_list dead
#? [F1\nH1 G2 H2 J2 G3 H3 J3]

45 final_score
#? [B\+1\.5]

final_status_list
#! [syntax error]

final_status_list black_territory
#! [syntax error]

final_status_list dead alive
#! [syntax error]

final_score now
#! [syntax error]

# An empty board: nothing on it, a draw with komi 0, White by komi otherwise.
boardsize 9
clear_board
30 komi 0
31 final_score
#? [0]

32 komi 6.5
33 final_score
#? [W\+6\.5]

# estimate_score, in GNU Go's words: the expected result (spelt as final_score spells one),
# then White's margin range.
34 estimate_score
#? [(?:[BW]\+\d+(?:\.\d)?|0) \(upper bound: -?\d+\.\d, lower: -?\d+\.\d\)]

estimate_score please
#! [syntax error]

# A 19x19 handicap game (GNU Go Black, hoshi White) ended with White's corner group
# A1-B5-D1 holding only the two-point eye A3-A4 and one outside liberty (D2) against Black
# chains with many: dead, since Black fills D2, throws in at A3 and takes the group back
# when White captures. The playouts never play that self-atari; the judge's capture reading
# does. The dead stones are exactly GNU Go 3.8's; its B+20.5 gives White nothing for the
# handicap, where the French rules give him 5 points (N-1) for six stones: B+15.5.
kgs-rules french
50 loadsgf sgf/handicap_dead_corner.sgf
51 final_status_list dead
#? [A1 B1 C1 D1 A2 B2 B3 B4 C4 A5 B5\nR2 R3\nQ4\nQ6 O7 P7 Q7 Q8\nC8\nP9 P10 Q10\nN10\nA12 A13 A14 A15 B15 A16 B16 C16 A17 B17 B18 C18 D18 C19\nM12 M13 M14\nK17 F18 G18 H18 J18 K18 L18 G19 L19 M19]

52 final_score
#? [B\+15\.5]

# A 9x9 game hoshi (White) lost to KataGo: hoshi passed counting W+11.5 with Black's
# twelve stones F4-J8 dead. But they win the race against White's F3-J3 whoever plays
# first (Black H3 takes H4 and gains a liberty), so F3-J3 and H4 are dead, with B3 and
# B7-B8: Black 60, White 20 + 7.5, the dame J9 nobody's. GNU Go 3.8 gives the same dead
# stones and B+31.5 (it counts J9 for White, who is to move); KataGo B+32.5.
53 loadsgf sgf/katago_race.sgf
54 final_status_list dead
#? [G2 H2 J2 F3 G3 J3\nB3\nH4\nB7 A8 B8]

55 final_score
#? [B\+32\.5]
