"""The learning environments pass PettingZoo's and Gymnasium's own API checks."""

import numpy as np
import pytest

import damelab

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")


@pytest.mark.parametrize("variant", ["international", "english", "frisian"])
def test_pettingzoo_api_test(variant):
    from pettingzoo.test import api_test

    api_test(damelab.env(variant, max_plies=120), num_cycles=300, verbose_progress=False)


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    check_env(damelab.gym_env("english", max_plies=100), skip_render_check=True)


def test_gym_engine_opponent_plays_and_rewards():
    env = damelab.gym_env("english", opponent="engine", depth=1, max_plies=60)
    obs, info = env.reset(seed=5)
    assert obs["observation"].shape == (4, 8, 8)
    total, done = 0.0, False
    rng = np.random.default_rng(0)
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, trunc, info = env.step(int(rng.choice(legal)))
        total += r
        done = term or trunc
    assert total in (-1.0, 0.0, 1.0)


def test_gym_illegal_action_ends_with_minus_one():
    env = damelab.gym_env("international")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, term, _, info = env.step(illegal)
    assert r == -1.0 and term and info["illegal"]


def test_action_encoding_is_from_times_n_plus_to(international):
    env = damelab.env(international)
    env.reset()
    n = len(international.squares)
    mask = env.observe("player_0")["action_mask"]
    actions = set(np.flatnonzero(mask).tolist())
    want = {
        (international.squares.index(a)) * n + international.squares.index(b)
        for a, b in (str(m).split("-") for m in env.position.legal_moves)
    }
    assert actions == want


def test_aec_plays_a_game_to_a_reward():
    env = damelab.env("english", max_plies=400)
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        rewards[agent] += r
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
