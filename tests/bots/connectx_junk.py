"""A ConnectX agent that chats on stdout and answers a column that is not there."""


def agent(obs, config):
    print("thinking about step", obs["step"])
    return config.columns + 2
