"""Train sb3-contrib's MaskablePPO on any cardtable game by name, then play it against random and the heuristic.

    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py juno --minutes 4
    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py zun --minutes 4 --eval-games 200
    # the recipe of docs/rl.md ("Baselines"): 30 CPU-minutes, the first 5 against random, then the heuristic
    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py juno --minutes 30 --warmup 5 \
        --opponent heuristic --json juno.json
    # the first 4 of the 30 minutes imitating the heuristic instead (a warm start), then PPO against it
    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py juno --minutes 30 --imitate 4 \
        --opponent heuristic --json juno.json
    # then 26 minutes imitating a search (ISMCTS from the heuristic) instead of PPO: expert iteration's step
    OMP_NUM_THREADS=1 .venv/bin/python examples/train_maskable_ppo.py juno --minutes 30 --imitate 4 --distill 26 \
        --opponent heuristic --json juno.json

The environment is Gymnasium's registered id for the game (`gymnasium.make("cardtable/Juno-v0")`,
2 players, one round, docs/rl.md) with `seat="random"` (one policy learns both seats) and
`normalize=True` (every observation value in [0, 1]); the learner plays against the random bot
(`--opponent heuristic` trains against the game's heuristic bot instead; `--warmup M` spends the
first M of the CPU minutes against the random bot first, where a beginner's wins are frequent
enough to learn from, then switches; `--imitate M` spends the first M minutes on a warm start
instead: the policy learns the heuristic's moves and the value head the games' outcomes, from
games the heuristic plays at the learner's seat, then PPO goes on from there; `--distill M` then
spends M minutes the same way on a search's moves, `--teacher`, before PPO gets what is left). MaskablePPO reads the
legal actions from `env.action_masks()`, so it never picks an illegal one; its policy sees only the
encoded `observation(seat)` (the `"observation"` entry; the mask goes to the action distribution,
not the network). Needs torch and sb3-contrib (`pip install cardtable[research]`).

Evaluation plays the trained policy (deterministic) against the random bot and against the
heuristic bot on seeds never used in training, at both seats, and prints scores with 95%
intervals (wins, and a game without a winner counted half, as `cardtable ladder` counts it; how
many there were is printed too), beside what a random player scores against the same opponents on
the same seeds. Not run in CI; `tests/rl/test_training_examples.py` trains for a few steps.
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from typing import Any, NamedTuple

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from cardtable import agents
from cardtable.core.rng import Rng
from cardtable.core.views import need_of, view_for
from cardtable.rl.registration import env_id  # importing cardtable.rl registers the Gymnasium ids
from cardtable.sim.job import parse_agent
from cardtable.sim.stats import wilson

EVAL_SEED = 10_000_000  # evaluation seeds start here; training episodes draw theirs from --seed
#: `--teacher`'s default: hard's search (ISMCTS, heuristic rollouts cut off after 20 decisions) on a
#: fixed budget of iterations, so a run repeats; in JUNO it wins ~62% against the heuristic
TEACHER = "ismcts:iterations=3000:rollout=heuristic:cutoff=20"


class ObservationOnly(gymnasium.ObservationWrapper):  # type: ignore[misc]
    """The policy's input is the encoded observation; the mask is used only to mask actions."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[no-any-return]


def make_env(game: str, opponent: str, **options: Any) -> ObservationOnly:
    env = gymnasium.make(env_id(game), seat="random", normalize=True, opponents=[opponent], **options)
    return ObservationOnly(env)


class TimeLimit(BaseCallback):  # type: ignore[misc]
    """Stop training after `seconds` of CPU time."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.start = time.process_time()

    def _on_step(self) -> bool:
        return time.process_time() - self.start < self.seconds


class Samples(NamedTuple):
    """A teacher's decisions at the learner's seat: what the policy saw, the legal actions, the
    teacher's move, and the outcome that followed, discounted as PPO discounts (`gamma`)."""

    observations: torch.Tensor
    masks: torch.Tensor
    moves: torch.Tensor
    targets: torch.Tensor
    games: int


def collect(game: str, opponent: str, teacher: str, seconds: float, seed: int, gamma: float,
            encoding: str = "counts", max_samples: int = 400_000) -> Samples:
    """Games in which `teacher` (an agent spec, as `cardtable arena` takes them) decides at the
    learner's seat against `opponent` through the training environment, for `seconds` CPU seconds
    or `max_samples` decisions. The teacher is handed what any bot is handed (`view_for`: a search
    gets the seat's view and determinizes it itself), so it never sees a hidden card."""
    start = time.process_time()
    env = make_env(game, opponent, encoding=encoding)
    base = env.unwrapped
    name, params = parse_agent(teacher)
    agent = agents.make(name, seed=seed, **params)
    copies = Rng(seed ^ 0xB0C0)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    moves: list[int] = []
    targets: list[float] = []
    episode = 0
    while time.process_time() - start < seconds and len(moves) < max_samples:
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        episode += 1
        first, done, reward = len(moves), False, 0.0
        while not done:
            view = view_for(need_of(agent), base.state, base.seat, copies.spawn)
            move = base.game.action_index(agent.act(view))
            observations.append(obs)
            masks.append(env.action_masks())
            moves.append(move)
            obs, reward, terminated, truncated, _ = env.step(move)
            done = terminated or truncated
        n = len(moves) - first
        targets.extend(reward * gamma ** (n - 1 - k) for k in range(n))
    return Samples(torch.as_tensor(np.asarray(observations, np.float32)), torch.as_tensor(np.asarray(masks, bool)),
                   torch.as_tensor(np.asarray(moves, np.int64)), torch.as_tensor(np.asarray(targets, np.float32)),
                   episode)


def fit(model: MaskablePPO, data: Samples, seconds: float, seed: int, max_batches: int = 10**9,
        learning_rate: float = 1e-3) -> int:
    """Train the policy to choose the teacher's moves (cross-entropy over the legal actions) and the
    value head to predict the outcomes, in batches of 256 for `seconds` CPU seconds; returns the
    number of batches."""
    start = time.process_time()
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = torch.Generator().manual_seed(seed)
    batches = 0
    policy.set_training_mode(True)
    while time.process_time() - start < seconds and batches < max_batches:
        for idx in torch.randperm(len(data.moves), generator=generator).split(256):
            values, log_prob, _ = policy.evaluate_actions(data.observations[idx], data.moves[idx],
                                                          action_masks=data.masks[idx].numpy())
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), data.targets[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            batches += 1
            if time.process_time() - start >= seconds or batches >= max_batches:
                break
    policy.set_training_mode(False)
    return batches


def agreement(model: MaskablePPO, data: Samples, limit: int = 20_000) -> float:
    """How often the policy's most likely move is the teacher's, over the choices (decisions with
    more than one legal action) among the first `limit` of `data`."""
    with torch.no_grad():
        probe = torch.arange(min(len(data.moves), limit))
        probe = probe[data.masks[probe].sum(dim=1) > 1]
        if not len(probe):
            return float("nan")
        dist = model.policy.get_distribution(data.observations[probe], action_masks=data.masks[probe].numpy())
        return float((dist.distribution.probs.argmax(dim=1) == data.moves[probe]).float().mean())


def imitate(
    model: MaskablePPO, game: str, opponent: str, seconds: float, seed: int, encoding: str = "counts",
    max_samples: int = 400_000, max_batches: int = 10**9,
) -> dict[str, float]:
    """Behaviour cloning as a warm start, in `seconds` CPU seconds: the first 40% play games of the
    game's heuristic (`collect`) against `opponent`; the rest trains the network on them (`fit`).
    Returns what it did."""
    start = time.process_time()
    data = collect(game, opponent, "heuristic", 0.4 * seconds, seed, model.gamma, encoding, max_samples)
    batches = fit(model, data, seconds - (time.process_time() - start), seed, max_batches)
    return {"games": data.games, "decisions": len(data.moves), "batches": batches, "agreement": agreement(model, data)}


def distill(
    model: MaskablePPO, game: str, opponent: str, seconds: float, seed: int, teacher: str,
    encoding: str = "counts", share: float = 0.8, max_samples: int = 400_000, max_batches: int = 10**9,
) -> dict[str, Any]:
    """One step of expert iteration, after `imitate`: a search that starts from the heuristic
    (`teacher`, ISMCTS with heuristic rollouts by default) plays the learner's seat for `share` of
    `seconds`, and the network, already the heuristic's clone, is trained on its moves for the rest.
    The search costs ~60 ms a choice where the heuristic costs microseconds, so this gets tens of
    thousands of the search's moves where imitation got hundreds of thousands of the heuristic's.
    The last tenth of the teacher's decisions (its last games) are held out: the network is trained
    a pass over the rest at a time, and kept as it was after the pass that agreed with the teacher
    most on the held-out choices (the clone itself if none did better), so that tens of thousands of
    moves are learned rather than memorized."""
    start = time.process_time()
    # seed + 1: other deals than the imitation's (episode seeds are seed * 1,000,003 + episode)
    data = collect(game, opponent, teacher, share * seconds, seed + 1, model.gamma, encoding, max_samples)
    cut = int(len(data.moves) * 0.9)
    train = Samples(data.observations[:cut], data.masks[:cut], data.moves[:cut], data.targets[:cut], data.games)
    held = Samples(data.observations[cut:], data.masks[cut:], data.moves[cut:], data.targets[cut:], 0)
    passes = -(-cut // 256)  # batches in one pass over the training part
    best = before = agreement(model, held)
    kept = copy.deepcopy(model.policy.state_dict())
    curve: list[float] = []
    batches = 0
    while batches < max_batches:
        left = seconds - (time.process_time() - start)
        if left <= 0:
            break
        batches += fit(model, train, left, seed + len(curve), min(passes, max_batches - batches), learning_rate=3e-4)
        curve.append(agreement(model, held))
        if curve[-1] > best:
            best, kept = curve[-1], copy.deepcopy(model.policy.state_dict())
    model.policy.load_state_dict(kept)
    return {"teacher": teacher, "games": data.games, "decisions": len(data.moves), "batches": batches,
            "held_out": len(held.moves), "held_out_agreement_before": before, "held_out_agreement_kept": best,
            "held_out_curve": [round(c, 4) for c in curve], "train_agreement": agreement(model, train)}


def train(
    game: str, seconds: float, seed: int, opponent: str = "random", max_steps: int = 10**9, n_steps: int = 1024,
    warmup: float = 0.0, width: int = 64, encoding: str = "counts", imitation: float = 0.0,
    ent_coef: float = 0.01, learning_rate: float = 3e-4, distillation: float = 0.0, teacher: str = TEACHER,
) -> MaskablePPO:
    """MaskablePPO for `seconds` CPU seconds: the first `warmup` of them against the random bot, the
    rest against `opponent` (the same policy and optimizer throughout; only the environment changes);
    or, with `imitation`, the first `imitation` seconds on imitating the heuristic (`imitate`), the
    next `distillation` seconds on imitating `teacher` (`distill`), then PPO against `opponent` for
    what is left."""
    if not 0 <= warmup + imitation + distillation <= seconds or (warmup and imitation):
        raise ValueError(f"the warm-up ({warmup} s) or the imitation ({imitation} s), not both, and the distillation "
                         f"({distillation} s) are part of the training time ({seconds} s)")
    if distillation and not imitation:
        raise ValueError("the distillation starts from the heuristic's clone: give an imitation time too")
    batch = min(128, n_steps)
    first = "random" if warmup else opponent
    model = MaskablePPO("MlpPolicy", make_env(game, first, encoding=encoding), seed=seed, verbose=0, n_steps=n_steps, batch_size=batch,
                        gamma=0.995, ent_coef=ent_coef, learning_rate=learning_rate,
                        policy_kwargs={"net_arch": [width, width]})
    model.imitation = model.distillation = None
    if imitation:
        model.imitation = imitate(model, game, opponent, imitation, seed, encoding)
        if distillation:
            model.distillation = distill(model, game, opponent, distillation, seed, teacher, encoding)
        left = seconds - imitation - distillation
        if left > 0:
            model.learn(total_timesteps=max_steps, callback=TimeLimit(left))
    elif warmup:
        model.learn(total_timesteps=max_steps, callback=TimeLimit(warmup))
        model.set_env(make_env(game, opponent, encoding=encoding))
        model.learn(total_timesteps=max_steps, callback=TimeLimit(seconds - warmup), reset_num_timesteps=False)
    else:
        model.learn(total_timesteps=max_steps, callback=TimeLimit(seconds))
    return model


def play(game: str, opponent: str, games: int, policy: MaskablePPO | None,
         encoding: str = "counts") -> tuple[float, tuple[float, float], int]:
    """Score of `policy` (None: uniformly random legal actions) against `opponent` over `games`
    evaluation seeds, the learner's seat drawn from each seed: (wins + half the games without a
    winner) / games, as the ladder counts (`cardtable ladder`), its Wilson 95% interval (low, high),
    and how many games had no winner (a game cut at its decision limit, or a shared win)."""
    env = make_env(game, opponent, encoding=encoding)
    rng = np.random.default_rng(0)
    wins = draws = 0
    for g in range(games):
        obs, _ = env.reset(seed=EVAL_SEED + g)
        done, reward = False, 0.0
        while not done:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    score = wins + draws / 2
    return score / games, wilson(score, games), draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game with an encoder: juno, iunu, zun, ...")
    parser.add_argument("--minutes", type=float, default=4.0, help="CPU minutes of training")
    parser.add_argument("--opponent", default="random", help="the bot trained against")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--warmup", type=float, default=0.0, help="CPU minutes against the random bot first")
    parser.add_argument("--imitate", type=float, default=0.0, help="CPU minutes imitating the heuristic first "
                        "(a warm start; instead of --warmup)")
    parser.add_argument("--distill", type=float, default=0.0, help="CPU minutes imitating --teacher after "
                        "--imitate (one step of expert iteration); PPO gets what is left")
    parser.add_argument("--teacher", default=TEACHER, help="the agent --distill imitates, as cardtable arena names agents")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="PPO's entropy bonus")
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="PPO's step size (Adam)")
    parser.add_argument("--n-steps", type=int, default=1024, help="decisions collected between PPO's updates")
    parser.add_argument("--width", type=int, default=64, help="units in each of the policy's two hidden layers")
    parser.add_argument("--encoding", default="counts", help="the observation: counts or planes (docs/rl.md)")
    parser.add_argument("--json", default=None, help="also write the results to this JSON file")
    parser.add_argument("--save", default=None, help="also save the trained policy here (MaskablePPO.load reads it)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.process_time()
    model = train(args.game, args.minutes * 60, args.seed, args.opponent, warmup=args.warmup * 60, width=args.width,
                  encoding=args.encoding, imitation=args.imitate * 60, distillation=args.distill * 60, teacher=args.teacher,
                  ent_coef=args.ent_coef, learning_rate=args.learning_rate, n_steps=args.n_steps)
    spent = time.process_time() - start
    if args.save:
        model.save(args.save)
    if model.imitation:
        print(f"{args.game}: imitated the heuristic for {args.imitate:g} min: {model.imitation}")
    if model.distillation:
        print(f"{args.game}: imitated {args.teacher} for {args.distill:g} min: {model.distillation}")
    print(f"{args.game}: trained {model.num_timesteps} learner decisions ({args.warmup:g} min against random, "
          f"then {args.opponent}) in {spent:.0f} CPU-s")
    result: dict[str, Any] = {"game": args.game, "minutes": args.minutes, "warmup": args.warmup,
                              "imitate": args.imitate, "imitation": model.imitation,
                              "distill": args.distill, "distillation": model.distillation,
                              "ent_coef": args.ent_coef, "learning_rate": args.learning_rate, "n_steps": args.n_steps,
                              "opponent": args.opponent, "width": args.width, "encoding": args.encoding, "decisions": int(model.num_timesteps),
                              "cpu_seconds": round(spent), "eval_games": args.eval_games, "vs": {}}
    for opponent in ("random", "heuristic"):
        rate, (low, high), draws = play(args.game, opponent, args.eval_games, model, args.encoding)
        base, (base_low, base_high), base_draws = play(args.game, opponent, args.eval_games, None)
        result["vs"][opponent] = {"ppo": rate, "ppo_interval": [low, high], "ppo_no_winner": draws,
                                  "random": base, "random_interval": [base_low, base_high],
                                  "random_no_winner": base_draws}
        print(f"  vs {opponent}: MaskablePPO scores {rate:.1%} [{low:.1%}, {high:.1%}] of {args.eval_games} games "
              f"({draws} without a winner, counted half); a random player {base:.1%} [{base_low:.1%}, "
              f"{base_high:.1%}] ({base_draws} without a winner) on the same seeds (Wilson 95% intervals)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)


if __name__ == "__main__":
    main()
