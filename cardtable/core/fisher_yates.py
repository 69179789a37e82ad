"""The swaps of a Fisher-Yates shuffle, given its draws (compiled in the native build).

`Rng._shuffle_vector` computes every draw of a deck-sized shuffle at once with numpy; the swaps
themselves depend on each other and run here, one loop that mypyc compiles to C
(cardtable/_native.py).
"""

from __future__ import annotations

from typing import Any


def swap_down(items: list[Any], picks: list[int]) -> None:
    """From the last item down, item i swaps with `picks[len(items) - 1 - i]`."""
    i = len(items) - 1
    for j in picks:
        items[i], items[j] = items[j], items[i]
        i -= 1
