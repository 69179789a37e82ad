"""Print the language table of docs/games/iuno_avatar.md ("The language table"), generated from the
code (language.py) and the base deck: `python -m cardtable.games.iuno_avatar.docs_table`. The docs'
test (tests/games/iuno_avatar/test_avatar_language.py) fails when the table there is stale."""

from __future__ import annotations

from .cards import base_deck
from .language import language_table

if __name__ == "__main__":
    print(language_table(base_deck().cards))
