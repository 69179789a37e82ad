"""Counting cards by kind into an encoding: the observation encoders' fast paths (IUNU's and Runes
of Zun's `encode_state`) write counts per card type into a reused buffer.

Compiled (cardtable/_native.py): a list's item changes natively there, and an encoder's buffer's
only through Python's item protocol (a read, an add and a write for each card counted one by one),
so counting in a list first and writing each count once is several times cheaper.
"""

from __future__ import annotations

from collections.abc import MutableSequence


def write_counts(buf: MutableSequence[int], at: int, cards: list[int], kinds: int) -> None:
    """Write how many cards of each kind `cards` holds at `buf[at + kind]`, for the kinds it holds;
    the other places of `buf[at : at + kinds]` are left as they are (zeros, in an encoding being
    written). Cards are kinds `0 <= card < kinds`."""
    if not cards:
        return
    counts = [0] * kinds
    for card in cards:
        counts[card] += 1
    for kind, n in enumerate(counts):
        if n:
            buf[at + kind] = n
