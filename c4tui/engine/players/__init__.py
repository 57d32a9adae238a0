"""The players: the engine contract and template, spec strings, levels, and every opponent.

contract.py says what an engine is and what its search reports; base.py is the frame
most engines share; options.py, specs.py and levels.py turn text into an engine; then
one module per opponent (random_player, greedy, negamax, flat, mcts, perfect, human),
with the pieces some of them share (tactics, playout, mcts_tree, opening, handicap).
"""
