# Framing (GTP §2-3): ids, comments, tabs, case, arguments; the administrative commands.
# The runner also checks every answer's framing: = or ?, the id echoed, one empty line.

1 protocol_version
#? [2]

2 name
#? [hoshi]

3 version
#? [\d+\.\d+\.\d+]

# Ids are echoed, from 0 to 2^31-1.
0 name
#? [hoshi]

2147483647 name
#? [hoshi]

# A comment after a command is cut off; tabs separate like spaces.
10 name # what is your name?
#? [hoshi]

11	known_command	play
#? [true]

12 echo   several    spaces  between   words
#? [several spaces between words]

# Command names, colours and vertices are read in any case.
13 NAME
#? [hoshi]

14 Known_Command PLAY
#? [true]

15 known_command lz-analyze
#? [false]

16 known_command rectangular_boardsize
#? [false]

# Every listed command is known.
20 list_commands
#? [protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\nclear_board\nkomi\nplay\ngenmove\nundo\nfixed_handicap\nplace_free_handicap\nset_free_handicap\ntime_settings\ntime_left\nfinal_score\nfinal_status_list\nloadsgf\nreg_genmove\nshowboard\nkgs-genmove_cleanup\nkgs-rules\nkgs-time_settings\nkgs-game_over\ngogui-analyze_commands\ngogui-interrupt\ngogui-play_sequence\ngg-undo\nprintsgf\ncputime\nget_komi\nis_legal\nall_legal\nlist_stones\ncaptures\ncolor\ncountlib\nfindlib\necho\nestimate_score\nhoshi-rules\nhoshi-level\nhoshi-param\nhoshi-ownership\nhoshi-time_budget\nhoshi-time_left]

21 known_command kgs-genmove_cleanup
#? [true]

22 known_command gogui-play_sequence
#? [true]

23 known_command quit
#? [true]

# An empty answer is just "=".
30 clear_board
#? []

# Unknown commands and wrong argument counts.
nonsense
#! [unknown command]

genmove_analyze b 50
#! [unknown command]

name please
#! [syntax error]

protocol_version 2
#! [syntax error]

known_command
#! [syntax error]

known_command play genmove
#! [syntax error]

list_commands all
#! [syntax error]

clear_board now
#! [syntax error]

quit now
#! [syntax error]

# After all those errors the engine still answers.
40 protocol_version
#? [2]
