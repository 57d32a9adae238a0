"""The Textual app: play Connect Four and watch the opponent think."""
