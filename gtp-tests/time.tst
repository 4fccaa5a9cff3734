# time_settings, time_left and kgs-time_settings: values are accepted and stored, bad ones
# are a syntax error.

1 time_settings 300 30 5
2 time_settings 0 0 0
3 time_settings 600 0 0
4 time_settings 0 30 0
5 time_settings 1.5 2.5 3

time_settings 300 30
#! [syntax error]

time_settings 300 30 5 1
#! [syntax error]

time_settings -1 30 5
#! [syntax error]

time_settings 300 x 5
#! [syntax error]

time_settings 300 30 -5
#! [syntax error]

time_settings 300 30 2.5
#! [syntax error]

time_settings nan 30 5
#! [syntax error]

10 time_left b 120 0
11 time_left W 30.5 5
# Servers have sent negative times: accepted, meaning no time left.
12 time_left white -3 0

time_left b 120
#! [syntax error]

time_left x 120 0
#! [syntax error]

time_left b abc 0
#! [syntax error]

time_left b 120 -1
#! [syntax error]

time_left b inf 0
#! [syntax error]

20 kgs-time_settings none
21 kgs-time_settings absolute 600
22 kgs-time_settings byoyomi 600 30 5
23 kgs-time_settings canadian 600 300 25
24 kgs-time_settings NONE

kgs-time_settings
#! [syntax error]

kgs-time_settings fischer 600 10
#! [syntax error]

kgs-time_settings absolute
#! [syntax error]

kgs-time_settings none 5
#! [syntax error]

kgs-time_settings byoyomi 600 30
#! [syntax error]

kgs-time_settings canadian 600 300 -25
#! [syntax error]

# Time commands do not touch the game.
25 showboard
#? [.*move 0, Black to play.*]

# hoshi's view of the clock: what is left as it reckons it, and the next move's budget
# (a cap on the --playouts search here).
30 kgs-time_settings byoyomi 0 10 5
31 hoshi-time_left b
#? [10\.000 5]
32 hoshi-time_budget b
#? [7\.500]
33 time_left b 4.5 1
34 hoshi-time_budget
#? [3\.100]
35 time_left w -1.5 0
36 hoshi-time_left white
#? [0\.000 0]
37 kgs-time_settings none
38 hoshi-time_left
#? [none]
39 hoshi-time_budget
#? [none]

hoshi-time_budget purple
#! [syntax error]

hoshi-time_left b 5
#! [syntax error]
