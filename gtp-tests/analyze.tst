# GoGui's analyze commands and the other small extensions.

1 gogui-analyze_commands
#? [gfx/Best Moves/hoshi-best_moves %m\nvar/Principal Variation/hoshi-pv %m\ngfx/Ownership/hoshi-ownership_gfx\ngfx/Policy Network/hoshi-policy_gfx\nstring/Network Value/hoshi-evaluate\ndboard/Ownership Board/hoshi-ownership\nplist/Dead Stones/final_status_list dead\nplist/Seki Stones/final_status_list seki\nstring/Final Score/final_score\nstring/Estimated Score/estimate_score\ngfx/Legal Moves/hoshi-legal_moves %m\nparam/Parameters/hoshi-param\nstring/Rules/hoshi-rules\nnone/Set Rules/hoshi-rules %s\nnone/Save SGF/printsgf %w]

2 gogui-interrupt
#? []

3 kgs-game_over
#? []

4 cputime
#? [\d+\.\d{3}]

5 echo
#? []

6 echo Hello, GoGui!
#? [Hello, GoGui!]

7 get_komi
#? [7\.5]

# Ownership, +1 Black to -1 White, one row per line from the top.
boardsize 2
clear_board
10 gogui-play_sequence b a1 b b2
11 hoshi-ownership
#? [1\.00 1\.00\n1\.00 1\.00]

boardsize 3
clear_board
12 hoshi-ownership
#? [(?:-?\d\.\d\d ){2}-?\d\.\d\d\n(?:-?\d\.\d\d ){2}-?\d\.\d\d\n(?:-?\d\.\d\d ){2}-?\d\.\d\d]

hoshi-ownership now
#! [syntax error]

gogui-analyze_commands all
#! [syntax error]

cputime now
#! [syntax error]

gogui-interrupt now
#! [syntax error]

get_komi now
#! [syntax error]
