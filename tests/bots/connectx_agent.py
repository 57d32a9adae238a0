"""A ConnectX agent as Kaggle notebooks write them: it takes a win, blocks a loss,
else plays a random valid column."""

import random


def drop(board, column, mark, config):
    board = board[:]
    for row in range(config.rows - 1, -1, -1):
        if board[row * config.columns + column] == 0:
            board[row * config.columns + column] = mark
            return board
    return board


def wins(board, mark, config):
    rows, columns, inarow = config.rows, config.columns, config.inarow
    for row in range(rows):
        for col in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * i, col + dc * i) for i in range(inarow)]
                if all(0 <= r < rows and 0 <= c < columns for r, c in cells) and all(
                    board[r * columns + c] == mark for r, c in cells
                ):
                    return True
    return False


def my_agent(observation, configuration):
    valid = [c for c in range(configuration.columns) if observation.board[c] == 0]
    me = observation.mark
    for mark in (me, 3 - me):
        for column in valid:
            if wins(drop(observation.board, column, mark, configuration), mark, configuration):
                return column
    return random.choice(valid)
