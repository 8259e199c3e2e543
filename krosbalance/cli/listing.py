"""`krosbalance list` and `krosbalance show`, and the tables `list characters` and `list ais` print: a column per thing a
designer chooses by (a character's set, level, HP, AP and MP; an AI's tier, ladder rating and cost),
read from the registries, the ladder's standing file and the AIs' measured costs."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Left-aligned columns, two spaces apart, the header first."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    return [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in (header, *rows)
    ]


def character_lines() -> list[str]:
    """Every Krosmaster (Arena and Blast): id, name, game, set, level, HP, AP, MP."""
    from krosbalance.content.registry import (  # start-up: only this command loads it
        list_characters,
        load_character,
    )

    rows = []
    for char_id in list_characters("krosmaster", game=None):
        c = load_character(char_id)
        level = str(c.level) if c.level else "-"  # a Blast card has no level
        rows.append((c.id, c.name, c.game, c.set or "-", level, str(c.hp), str(c.ap), str(c.mp)))
    return table(("id", "name", "game", "set", "level", "HP", "AP", "MP"), rows)


def ai_lines() -> list[str]:
    """Every AI: id, tier, ladder rating [95% CI], seconds per box match (core and reference),
    and the rulesets it plays."""
    from krosbalance.ai.ladder import load_ladder  # start-up: only this command loads it
    from krosbalance.ai.registry import (  # start-up: only this command loads it
        ai_cost,
        ai_rulesets,
        ai_tier,
        list_ais,
    )

    ladder = load_ladder()

    def seconds(name: str, core: bool) -> str:
        value, how = ai_cost(name, core)
        if math.isnan(value):
            return "-"
        return f"{value:.2f}" + ("" if how == "measured" else "~")

    rows = []
    for name in sorted(list_ais(), key=lambda a: (-(ladder[a].rating if a in ladder else -99), a)):
        standing = ladder.get(name)
        rating = (
            f"{standing.rating:+.2f} [{standing.ci_low:+.2f}, {standing.ci_high:+.2f}]"
            if standing
            else "not rated"
        )
        rows.append(
            (
                name,
                ai_tier(name),
                rating,
                seconds(name, True),
                seconds(name, False),
                ", ".join(ai_rulesets(name)),
            )
        )
    lines = table(("id", "tier", "ladder rating [95% CI]", "s/match core", "s/match ref", "rulesets"), rows)
    return lines + [
        "",
        "ladder rating: Bradley-Terry log-odds against the field's average AI (krosbalance/ai/data/ladder.toml);",
        "s/match: seconds per box match on one worker (krosbalance/ai/data/costs.toml; ~ = scaled or the tier's).",
    ]


__all__ = ["ai_lines", "character_lines", "table"]


def cmd_list(args: argparse.Namespace) -> int:
    from krosbalance.cards import LISTINGS  # start-up: only this command loads it

    if args.what in LISTINGS:
        for line in LISTINGS[args.what]():
            print(line)
        return 0
    if args.what in ("characters", "ais"):  # tables of what a designer chooses by
        print("\n".join(character_lines() if args.what == "characters" else ai_lines()))
        return 0
    if args.what == "boards":
        from krosbalance.content.registry import list_boards  # start-up: only this command loads it

        names = list_boards()
    elif args.what == "studies":
        from krosbalance.studies import list_studies  # start-up: only this command loads it

        names = list_studies()
    else:
        from krosbalance.rulesets.registry import list_rulesets  # start-up: only this command loads it

        names = list_rulesets()
    for name in names:
        print(name)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from krosbalance.cards import show  # start-up: only this command loads it

    print(show(args.name))
    return 0
