"""Our level 8 and our learned engine as ConnectX agents in kaggle-environments, against its
`negamax` agent, and that agent against our levels through the `connectx:` adapter.

kaggle-environments installs over 1 GB, so it is no dependency of ours: run with

    uv run --with kaggle-environments pytest -m slow tests/test_connectx_kaggle.py -n 0 -s

(figures in docs/engine-protocol.md). Without it these tests are skipped.
"""

from __future__ import annotations

import inspect
import json

import pytest

from c4tui.cli import main

GAMES = 20

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("engine", ["level:8", "alphazero"])
def test_the_agent_file_beats_kaggles_negamax(engine, tmp_path, capsys):
    environments = pytest.importorskip("kaggle_environments")
    agent = tmp_path / "agent.py"
    assert main(["connectx", "--engine", engine, "-o", str(agent)]) == 0
    results = {"won": 0, "drawn": 0, "lost": 0, "errors": 0}
    for game in range(GAMES):
        ours = game % 2  # half the games first, half second
        agents = [str(agent), "negamax"] if ours == 0 else ["negamax", str(agent)]
        env = environments.make("connectx", debug=True)
        steps = env.run(agents)
        last = steps[-1][ours]
        if last.status != "DONE":
            results["errors"] += 1
        elif last.reward == 1:
            results["won"] += 1
        elif last.reward == 0:
            results["drawn"] += 1
        else:
            results["lost"] += 1
    with capsys.disabled():
        print(f"\n{engine} agent against negamax, {GAMES} games: {json.dumps(results)}")
    assert results["errors"] == 0
    assert results["won"] >= 0.95 * GAMES


def test_kaggles_negamax_plays_our_levels_through_the_connectx_adapter(tmp_path, capsys):
    pytest.importorskip("kaggle_environments")
    from kaggle_environments.envs.connectx import connectx

    # The agent as a file of its own, as one submits it: its helpers, then the agent.
    source = "\n\n".join(
        inspect.getsource(function)
        for function in (connectx.play, connectx.is_win, connectx.negamax_agent)
    )
    negamax = tmp_path / "negamax.py"
    negamax.write_text(f"from random import choice\n\nEMPTY = 0\n\n\n{source}")
    argv = ["arena", f"connectx:{negamax},time=5", "level:1", "level:4", "level:8"]
    assert main([*argv, "--games", "4", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forfeits"] == []
    with capsys.disabled():
        for row in data["standings"]:
            print(f"{row['engine']}: {row['wins']}-{row['draws']}-{row['losses']}")
    standings = {row["engine"]: row for row in data["standings"]}
    assert standings["level:8"]["losses"] == 0
