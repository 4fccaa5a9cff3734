# The tuning parameters (src/search/params.rs): hoshi-param lists every one after the
# session's settings, as GoGui's parameter dialog wants it (`[type] key value`), and sets one
# by name; an unknown key or a value the key does not take fails with the reason, as
# --param gives it, and changes nothing. (One line checked per listing: the checker
# backtracks.)

1 hoshi-param
#? [.*\n\[string\] rave_equivalence 3000\n\[string\] expand_after 8\n.*]
2 hoshi-param
#? [.*\n\[bool\] playout_escapes 1\n.*]
3 hoshi-param
#? [.*\n\[string\] prior_even 10\n.*]
4 hoshi-param
#? [.*\n\[string\] regression_playouts 10000\n\[string\] judge_playouts 256\n\[string\] judge_search_playouts 2500\n\[string\] judge_net 0\n\[string\] value_mix auto\n\[string\] puct auto]

10 hoshi-param rave_equivalence 2500
#? []
11 hoshi-param
#? [.*\n\[string\] rave_equivalence 2500\n.*]

12 hoshi-param playout_lone_self_atari 0.3
13 hoshi-param
#? [.*\n\[string\] playout_lone_self_atari 0.3\n.*]
14 hoshi-param prior_closeness_3 7.25
15 hoshi-param
#? [.*\n\[string\] prior_closeness_3 7.25\n.*]
# Reading the network's positions in their symmetries: off until set.
20 hoshi-param net_symmetry on
21 hoshi-param
#? [.*\n\[bool\] net_symmetry 1\n.*]
16 hoshi-param playout_escapes false
17 hoshi-param
#? [.*\n\[bool\] playout_escapes 0\n.*]
18 hoshi-param playout_escapes ON
19 hoshi-param
#? [.*\n\[bool\] playout_escapes 1\n.*]

# The value's share and PUCT are left to the network (`auto`) until set, and given back.
22 hoshi-param value_mix 0.5
23 hoshi-param puct off
24 hoshi-param
#? [.*\n\[string\] value_mix 0.5\n\[string\] puct 0]
25 hoshi-param value_mix auto
26 hoshi-param puct auto
27 hoshi-param
#? [.*\n\[string\] value_mix auto\n\[string\] puct auto]

hoshi-param no_such_parameter 1
#! [unknown parameter "no_such_parameter"]

hoshi-param rave_equivalence nonsense
#! [rave_equivalence takes a number above 0, not "nonsense"]

hoshi-param rave_equivalence 0
#! [rave_equivalence takes a number above 0, not "0"]

hoshi-param playout_atari 1.5
#! [playout_atari takes a number from 0 to 1, not "1\.5"]

hoshi-param expand_after -1
#! [expand_after takes a whole number of at least 0, not "-1"]

hoshi-param playout_escapes maybe
#! [playout_escapes takes 1 or 0 \(true or false\), not "maybe"]

hoshi-param value_mix -0.5
#! [value_mix takes auto or a number from 0 to 1, not "-0\.5"]

hoshi-param puct sometimes
#! [puct takes auto, 1 or 0 \(true or false\), not "sometimes"]

# The session's settings are read by GTP's own rules: a bad value is a syntax error.
hoshi-param threads many
#! [syntax error]

hoshi-param rave_equivalence
#! [syntax error]

# Nothing changed.
20 hoshi-param
#? [.*\n\[string\] rave_equivalence 2500\n\[string\] expand_after 8\n.*]
21 hoshi-param
#? [.*\n\[string\] playout_atari 0.9\n.*]

# The engine plays on with changed parameters, at every level.
30 boardsize 5
31 clear_board
32 hoshi-param expand_after 1000000
33 genmove b
#? [[A-E][1-5]]
34 hoshi-level beginner
35 genmove w
#? [[A-E][1-5]|pass]
36 hoshi-param
#? [.*\n\[string\] expand_after 1000000\n.*]
