"""A ConnectX agent with a bug: it indexes past its list on the second step."""


def agent(obs, config):
    columns = [c for c in range(config.columns) if obs.board[c] == 0]
    return columns[obs.step * 10]
