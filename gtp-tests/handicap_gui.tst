# Handicap games as the GUIs set them up, with hoshi taking White: it answers with a move
# at once and plays on (no early pass or resignation, even when every count says Black is
# far ahead), and final_score counts the French handicap bonus (N - 1 points to White).

# That a move comes is the point, not how good it is: few visits keep the file quick with
# expert's network (KataGo's b6c96).
hoshi-param visits 50

# GoGui: komi, boardsize and clear_board, fixed_handicap, then genmove for White.
komi 0.5
boardsize 19
clear_board
1 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

2 genmove w
#? [[A-HJ-T]\d{1,2}]

3 genmove b
#? [[A-HJ-T]\d{1,2}]

4 genmove w
#? [[A-HJ-T]\d{1,2}]

5 genmove b
#? [[A-HJ-T]\d{1,2}]

6 genmove w
#? [[A-HJ-T]\d{1,2}]

7 genmove b
#? [[A-HJ-T]\d{1,2}]

8 genmove w
#? [[A-HJ-T]\d{1,2}]

# Nine stones and nothing else: Black's 81 points against komi 0.5 and 8 points of bonus.
boardsize 9
clear_board
9 fixed_handicap 9
#? [C3 G7 C7 G3 C5 G5 E3 E7 E5]

10 final_score
#? [B\+72\.5]

# Sabaki: komi before boardsize, the root's black stones as set_free_handicap, then
# genmove with an upper-case colour.
komi 0.5
boardsize 9
clear_board
set_free_handicap C3 G7 C7 G3 C5 G5 E3 E7 E5
11 genmove W
#? [[A-HJ]\d]

12 genmove B
#? [[A-HJ]\d]

13 genmove W
#? [[A-HJ]\d]

14 genmove B
#? [[A-HJ]\d]

15 genmove W
#? [[A-HJ]\d]

16 genmove B
#? [[A-HJ]\d]

17 genmove W
#? [[A-HJ]\d]

# Nine stones set free on column E, White's wall on column F: Black 45 points, White 36 +
# 0.5 + 8 (French) or + 9 (Chinese); by territory (Japanese) 36 to 27 + 0.5, no bonus.
clear_board
set_free_handicap E1 E2 E3 E4 E5 E6 E7 E8 E9
play W F1
play W F2
play W F3
play W F4
play W F5
play W F6
play W F7
play W F8
play W F9
18 final_score
#? [B\+0\.5]

kgs-rules chinese
19 final_score
#? [W\+0\.5]

kgs-rules japanese
20 final_score
#? [B\+8\.5]

kgs-rules french
