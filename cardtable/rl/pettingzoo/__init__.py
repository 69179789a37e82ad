"""PettingZoo's versioned module form, one module per game with an encoder:

    from cardtable.rl.pettingzoo import juno_v0
    env = juno_v0.env(players=2, match=False, render_mode="human")

Each `<game>_v0` module has `env(**options)` (wrapped in `OrderEnforcingWrapper`), `raw_env(**options)`,
`parallel_env(**options)` (the ParallelEnv, one decision per step) and `metadata`, like PettingZoo's
own `pettingzoo.classic.chess_v6` and `pettingzoo.butterfly` modules. The modules are made from
cardtable's game registry, so a game gets one as soon as it has an observation encoder
(`cardtable/rl/encoders`); there is no per-game file. The version is the environment's: it goes
up when the observation layout or the rewards of a game change.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from ...core.registry import games
from ..encoders import has_encoder

VERSION = 0


def module_name(game: str) -> str:
    return f"{game}_v{VERSION}"


def _make_module(game: str) -> ModuleType:
    from ..aec import CardtableAEC, pettingzoo_env, raw_env
    from ..parallel import CardtableParallel
    from ..parallel import parallel_env as make_parallel

    name = module_name(game)
    module = ModuleType(f"{__name__}.{name}", f"PettingZoo environment for cardtable's {game!r} (`env(**options)`).")

    def env(**options: Any) -> Any:
        """The wrapped AEC environment; keyword arguments as `cardtable.rl.pettingzoo_env`."""
        return pettingzoo_env(game, **options)

    def raw(**options: Any) -> CardtableAEC:
        """The environment without PettingZoo's wrappers."""
        return raw_env(game, **options)

    def parallel(**options: Any) -> CardtableParallel:
        """The ParallelEnv (one decision per step: the deciding agent's action; `cardtable.rl.parallel`)."""
        return make_parallel(game, **options)

    module.env = env  # type: ignore[attr-defined]
    module.parallel_env = parallel  # type: ignore[attr-defined]
    module.raw_env = raw  # type: ignore[attr-defined]
    module.metadata = {**CardtableAEC.metadata, "name": f"cardtable_{game}_v{VERSION}"}  # type: ignore[attr-defined]
    module.__all__ = ["env", "parallel_env", "raw_env", "metadata"]  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    return module


def modules() -> dict[str, ModuleType]:
    """`<game>_v0` for every registered game with an encoder, made (once) and importable."""
    out = {}
    for game in games():
        if has_encoder(game):
            name = module_name(game)
            out[name] = sys.modules.get(f"{__name__}.{name}") or _make_module(game)
            globals()[name] = out[name]
    return out


def __getattr__(name: str) -> ModuleType:
    """A game registered after this package was imported still gets its module."""
    made = modules()
    if name in made:
        return made[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (environments: {', '.join(sorted(made))})")


__all__ = sorted(modules())
