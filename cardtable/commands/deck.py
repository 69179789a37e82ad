"""`cardtable deck ivion ...`: build a hero's deck (Herocrafting or Make Your Own Hero), check it
against the rules, show it and save it as a hero file a game takes (`-o 'decks=["hero.toml", ...]'`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core import CardtableError

console = Console(highlight=False)


def register(app: typer.Typer) -> None:
    @app.command("deck")
    def deck(
        game: str = typer.Argument(..., help="the game whose decks are built (ivion)"),
        hero_file: str = typer.Option("", "--check", help="check a hero file (.toml/.json) instead of building one"),
        starter: str = typer.Option("", "--starter", help="show a starter hero's deck (its name)"),
        name: str = typer.Option("My Hero", "--name", help="the hero's name"),
        classes: list[str] = typer.Option([], "--class", help="a class (twice for Herocrafting; the same one twice is allowed)"),
        specialization: str = typer.Option("", "--specialization", help="the specialization"),
        traits: list[str] = typer.Option([], "--trait", help="a trait (twice)"),
        cards: list[str] = typer.Option([], "--card", help="Make Your Own Hero: NAME=COPIES (30 class cards, 15 specialization cards)"),
        content: list[str] = typer.Option([], "--content", help="your own content file (classes, cards, heroes)"),
        save: Path | None = typer.Option(None, "--save", help="write the hero file here"),
        list_content: bool = typer.Option(False, "--list", help="list the classes, specializations, traits and cards"),
    ) -> None:
        """Build a deck and check it against the rulebook's deck-building rules (Ivion)."""
        if game != "ivion":
            console.print(f"[bold red]error:[/] deck building is for ivion (got {game!r})")
            raise typer.Exit(2)
        from ..games.ivion.cards import HeroData, library
        from ..games.ivion.decks import build, deck_summary, hero_from, hero_line

        try:
            lib = library(content)
            if list_content:
                _list(lib)
                return
            if hero_file or starter:
                hero = hero_from(hero_file or starter, lib, "hero")
            else:
                picked: dict[str, int] = {}
                for item in cards:
                    card, sep, n = item.rpartition("=")
                    if not sep or not n.strip().isdigit():
                        raise typer.BadParameter(f"a card is NAME=COPIES, got {item!r}", param_hint="--card")
                    picked[card.strip()] = picked.get(card.strip(), 0) + int(n)
                hero = HeroData.model_validate({
                    "name": name, "mode": "custom" if picked else "herocrafting", "classes": classes,
                    "specialization": specialization, "traits": traits, "cards": picked,
                })
            built = build(hero, lib)
        except CardtableError as exc:
            console.print(f"[bold red]refused:[/] {exc}")
            raise typer.Exit(2) from None
        except ValueError as exc:  # pydantic: a missing or wrong field of the hero
            console.print(f"[bold red]refused:[/] {exc}")
            raise typer.Exit(2) from None
        table = Table(title=f"{escape(built.hero)}: {len(built.cards)} cards, {built.hp} HP")
        for col in ("copies", "card", "archetype", "text"):
            table.add_column(col)
        for card, k in sorted(Counter(built.cards).items(), key=lambda kv: (lib.cards[kv[0]].archetype, kv[0])):
            c = lib.cards[card]
            table.add_row(str(k), card, c.archetype, f"{c.header()}. {c.text()}")
        console.print(table)
        console.print(escape(f"{built.hero}: {hero_line(hero, lib)}"))  # the words the lobby shows
        for line in deck_summary(built, lib)["lines"]:
            console.print(escape(line))
        console.print("feats: " + ", ".join(built.feats) + (f"; relic pile: {', '.join(built.relics)}" if built.relics else ""))
        console.print("[green]a legal deck[/]")
        if save is not None:
            save.write_text(built.to_toml(hero))
            console.print(f"saved to {save} (play it: cardtable play ivion -o 'decks=[\"{save}\", \"Lio Marrow\"]')")


def _list(lib: object) -> None:
    """The content: the starter heroes with their lines (the lobby's words), then each class,
    specialization and trait with how it plays, then each archetype's cards."""
    from ..games.ivion.cards import Library
    from ..games.ivion.decks import hero_line

    assert isinstance(lib, Library)

    def about(text: str) -> str:
        return f": {text}" if text else ""

    console.print("[bold]starter heroes[/] (cardtable play ivion -o 'decks=[\"NAME\", \"NAME\"]')")
    for h in lib.heroes.values():
        console.print(escape(f"  {h.name}: {hero_line(h, lib)}"))
    console.print("[bold]classes[/]")
    for n, c in lib.classes.items():
        console.print(escape(f"  {n} ({c}){about(lib.descriptions.get(n, ''))}"))
    console.print("[bold]specializations[/]")
    for n, cs in lib.specializations.items():
        u = lib.ultimate_of(n)
        ultimate = f"; ultimate {u.name}{about(u.description)}" if u else ""
        console.print(escape(f"  {n} ({'/'.join(cs)}){about(lib.descriptions.get(n, ''))}{ultimate}"))
    console.print("[bold]traits[/]")
    for t in lib.traits():
        console.print(escape(f"  {t.name} ({' '.join(t.pips)}{', Herocrafting' if t.marked else ''})"
                             f"{about(t.description)} — {t.text()}"))
    for arch in [*lib.classes, *lib.specializations]:
        console.print(escape(f"{arch}: " + ", ".join(f"{c.name} x{c.copies} ({c.marked} marked)" for c in lib.archetype_cards(arch))))
