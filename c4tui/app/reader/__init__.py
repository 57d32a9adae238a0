"""The screen-reader mode: the same match, its events said as plain lines.

`words` makes every sentence (a move, the board, a column, the AI's view, the threats);
`narrator` turns the match's events into lines in order; `commands` answers what a
person asks, typed or by key; `log` and `view` show the lines without decoration, the
terminal cursor on the line in focus. The normal mode's notices reach the reader through
the app's `notify`, so every notice of one mode is a line of the other.
"""
