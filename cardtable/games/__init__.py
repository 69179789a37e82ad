"""The games. Each package has the same shape: cards/data, options, rules (state), text rendering.

`cardtable.games()` (DESIGN.md) lists the registered games, yet importing a game binds this
package to the same name on `cardtable`; so the package itself is callable and answers the same.
"""

import sys
import types


class _GamesPackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from ..core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
