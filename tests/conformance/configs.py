"""Every registered game, variant and player count the conformance suite runs.

Each entry: (id, game name, options, random games in the full run). A game adds its lines here.
"""

from __future__ import annotations

from typing import Any

CONFIGS: list[tuple[str, str, dict[str, Any], int]] = []

for variant in ("classic", "seven-o", "serious"):
    for players in (2, 4, 7):
        CONFIGS.append((f"juno-{variant}-{players}p", "juno", {"players": players, "variant": variant, "match": False}, 2000))
CONFIGS += [
    ("juno-classic-10p", "juno", {"players": 10, "match": False}, 200),
    ("juno-challenge-3p", "juno", {"players": 3, "wild_draw_four": "challenge", "match": False}, 500),
    ("juno-seven-o-challenge-5p", "juno", {"players": 5, "variant": "seven-o", "wild_draw_four": "challenge", "match": False}, 300),
    ("juno-match-3p", "juno", {"players": 3, "match": True}, 40),
    ("juno-serious-match-4p", "juno", {"players": 4, "variant": "serious", "match": True, "target": 2000}, 40),
]
for players, variant in ((2, "standard"), (3, "standard"), (4, "standard"), (2, "rise-of-aten"), (2, "memphis-and-thebes")):
    CONFIGS.append((f"iunu-{variant}-{players}p", "iunu", {"players": players, "variant": variant}, 2000))
# Runes of Zun: duel, free-for-all, teams of 2 (6 players) and teams of 4 (8 players). The big tables
# use the documented turn limit (docs/games/zun.md) so that both endings, defeat and limit, are exercised.
CONFIGS += [
    ("zun-2p", "zun", {"players": 2}, 1000),
    ("zun-3p", "zun", {"players": 3}, 1000),
    ("zun-4p", "zun", {"players": 4}, 1000),
    ("zun-6p-3teams", "zun", {"players": 6, "teams": 3, "turn_limit": 100}, 1000),
    ("zun-8p-2teams", "zun", {"players": 8, "teams": 2, "turn_limit": 100}, 1000),
]
# Iuno Avatar: 2 and 3 players (a random game is ~750 decisions, ~30 ms: 500 games each cost
# about half a minute of a CI core with the checks; docs/games/iuno_avatar.md)
CONFIGS += [
    ("iuno_avatar-2p", "iuno_avatar", {"players": 2}, 500),
    ("iuno_avatar-3p", "iuno_avatar", {"players": 3}, 500),
]
# Ivion: every pairing of the two starter heroes (each seat order), 300 games each, plus the board
# size option at both ends; ~0.1 s a game in pure Python, so about a minute of the CI budget on 2 cores.
_IVION_HEROES = ("Sir Edda Vane", "Lio Marrow")
for _a in _IVION_HEROES:
    for _b in _IVION_HEROES:
        CONFIGS.append((f"ivion-{_a.split()[-1].lower()}-{_b.split()[-1].lower()}", "ivion", {"decks": [_a, _b]}, 300))
CONFIGS += [
    ("ivion-board-3", "ivion", {"board": 3}, 60),
    ("ivion-board-8", "ivion", {"board": 8, "decks": ["Lio Marrow", "Sir Edda Vane"]}, 60),
    # the second cast's four starters, in two pairings (cards that ask to choose, two targets, cards
    # in front of a player, gold); the default game stays Sir Edda Vane against Lio Marrow (the
    # recorded games use it). 300 games each, the same share of the budget as every other config.
    ("ivion-aldous-vesk", "ivion", {"decks": ["Brother Aldous", "Vesk the Quiet"]}, 300),
    ("ivion-kaida-wren", "ivion", {"decks": ["Marshal Kaida", "Wren Ashgrove"]}, 300),
]
