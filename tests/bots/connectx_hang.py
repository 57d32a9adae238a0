"""A ConnectX agent that thinks forever."""

import time


def agent(obs, config):
    while True:
        time.sleep(1)
