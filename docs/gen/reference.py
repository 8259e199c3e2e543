"""The generated pages of the docs: built from the code's own tables at every ``mkdocs build``.

A mkdocs hook (``hooks:`` in mkdocs.yml): ``on_files`` adds one page per function of ``PAGES``. Each
page imports the public names it reads, so a module that moves is a one-line fix here. Where a page
adds words to a table of the code (the experiment keys, the result columns), a key the code has and
the page does not, or the reverse, fails the build: the page cannot drift from the parser.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"R-[ABDF]?\d+")

# ----------------------------------------------------------------------------- helpers


def _cell(value: Any) -> str:
    """A table cell: pipes escaped, one line, ``<`` outside code spans shown as written (not HTML)."""
    parts = str(value).replace("|", "\\|").replace("\n", " ").split("`")
    return "`".join(part if i % 2 else part.replace("<", "&lt;") for i, part in enumerate(parts))


def _toml(value: Any) -> str:
    """A value as an experiment file writes it (``true``, ``"text"``, ``[1, 2]``)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False, default=str)


def table(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    header = list(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _checked(where: str, keys: Iterable[str], words: dict[str, str]) -> list[tuple[str, str]]:
    keys = list(keys)
    missing = [k for k in keys if k not in words]
    stale = [k for k in words if k not in keys]
    if missing or stale:
        raise RuntimeError(
            f"docs/gen/reference.py: {where}: the code's keys and the page's words differ "
            f"(no words for {missing}; words for keys the code lacks: {stale})"
        )
    return [(f"`{k}`", words[k]) for k in keys]


GENERATED = (
    '!!! note "Generated"\n    This page is generated from the code at every build '
    "(`docs/gen/reference.py`): it is what the installed version does.\n\n"
)

# ----------------------------------------------------------------------------- experiment keys

TOP_WORDS = {
    "name": "required; letters, digits, `-`, `_`: names the results folder (`results/<name>`) and the report folder",
    "description": "the question, shown at the top of the report",
    "master_seed": "required; int >= 0; every match seed derives from it (`SeedSequence.spawn`)",
    "matches_per_pairing": "required; deals per pairing, board and AI matchup",
    "paired_seeds": "default true: each deal is also played with sides swapped",
    "boards": 'default `["arena-elemental"]`; every board is played (unless `board_choice`)',
    "ais": "default `[\"random\"]`; each entry is one AI for both teams, `[A, B]` (team A's AI, team B's AI), "
    "or `{ai = ..., deals = n}` (that matchup plays its own number of deals); more seats: one AI per seat",
    "ruleset": '`"arena"` (default), `"blast"` or `"duel"`',
    "record": "event recording level: `none` (default), `summary` or `full`",
    "board_choice": "true: R-A19, each match's first player picks its board among `boards` (four players: player 4, R-A154)",
    "held_rewards": 'reward-value study: each deal is also played once per listed Demonic Reward held face down from the start by team A (`"all"` = every token); `"<id>@<kamas>"` / `"<id>@<n>gg"`: held and paid for',
    "reward_holders": '`"ai"` (default), `"each"` (every Krosmaster of team A holds each token in its own arm, `TOKEN@character`) or `"each_and_ai"`',
    "purchase_rewards": '`"all"` or a list: team A may buy the token face up on a Demon cell at its price (arm `buy:TOKEN`)',
    "teams": "the `[teams]` table (below): how teams are chosen and meet",
    "options": "the ruleset's options by name (see [Ruleset options](ruleset-options.md)); an unknown name suggests the near ones",
    "variants": "`[[variants]]`: arms, every deal played under each on the same seed (below)",
    "patch": "a balance patch applied to every arm: a shipped patch's name, a `.toml` path or an inline table",
    "sweep": "`[sweep]`: one arm per grid point of card values (below)",
    "fix": "`[fix]`: read by `krosbalance fix`, the fix finder (below); `run` plays the file's own matches without it",
    "restricted": "`[restricted]`: one arm per spell, power and option of each named figure (below)",
    "study": 'the study that owns the file (`krosbalance list studies`), e.g. `study = "boards"`; default: found from the file',
    "target": "`[target]`: the sample size from a target, the strongest AI's matches played in rounds until the headline's 95% CI is as narrow as asked (below)",
    "content": "a folder of your own cards (`characters/`, `rewards/`, `boards/`) played over the shipped ones, relative to the file; in the fingerprint (see [Design a new figure](../how-to/design-a-figure.md))",
}
TEAM_WORDS = {
    "mode": "round_robin, mirror, splits, pairs, draft, random_deal, tables, random_tables or ladder (table below)",
    "list": "explicit teams (round_robin, mirror)",
    "pool": 'figures the teams are drawn from: names, `"all"`, `{set = "arena-box"}`, `{tag = "..."}` or an array mixing them',
    "pairs": "explicit pairings `[[team A, team B], ...]` (pairs)",
    "tables": "explicit tables, one team per seat (tables)",
    "include_mirror": "round_robin only: also play each team against itself",
}
MODE_WORDS = {
    "round_robin": "every team of `list` (or every legal team of `pool`) against every other",
    "mirror": "the same team in every seat",
    "splits": "every split of `pool` into two legal teams (the eight box Krosmasters give 35)",
    "pairs": "the pairings of `pairs`, as written",
    "draft": "R-A17: the pool's cards dealt anew at every deal by the rulebook's draft, each player's AI picking",
    "random_deal": "R-A17: the pool's cards dealt anew at every deal, half each at random",
    "tables": "explicit tables of more than two seats (`tables`)",
    "random_tables": "each deal draws one legal team per seat from the pool",
    "ladder": "a team study: every legal team of a roster rated against the field, in stages (`[teams.ladder]`)",
}
VARIANT_WORDS = {
    "name": "labels the arm (the matches table's `variant`)",
    "options": "ruleset options merged over `[options]`",
    "patch": "a balance patch for this arm only",
    "forbid": 'restricted play: `{figure = ["spell:<id>", "power:<kind>", "action:<name>"]}`',
}
RESTRICTED_WORDS = {
    "figure": "one figure (or `figures`)",
    "figures": "the figures to restrict, one arm per element each",
    "kinds": '`["spell", "power", "action"]` by default',
    "actions": "the options forbidden as actions (default: every option of the ruleset)",
    "baseline": 'the name of the unrestricted arm (default `"unrestricted"`)',
}
SWEEP_WORDS = {
    "figure": "the figure whose values are swept",
    "reward": "a Demonic Reward: `rank`, `effects.<n>.<p>`, `price = [kamas]` or `price_gg = [GG]` (the fair price)",
    "challenge": "a Divine Challenge: `bonuses.<b>.tier` (the neutral threshold)",
    "values": '`{field = [values...]}`; several fields are crossed (e.g. `hp`, `"spells.assault.amount"`)',
}
FIX_WORDS = {
    "band": "the target: every figure's strength within ±band log-odds (default 0.15)",
    "fields": "`hp`, `ap`, `mp`, `initiative`, `spells.ap_cost`, `spells.amount`, `spells.range_max`",
    "figures": "the figures that may change",
    "step": "each change at most this far from a probed value (no extrapolation)",
    "max_change": "the largest change of a value",
    "max_share": "the largest change as a share of the printed value (default 0.25, at least 1)",
    "verify_deals": "deals of the verification stage",
    "verify_ais": "AIs of the verification beside the file's: a name (one deal) or `{ ai, deals }`",
    "verify_half_width": "play the strongest of `verify_ais` in rounds of its deals until every figure's strength in "
    "both arms has this 95% CI half-width (log-odds)",
    "verify_max_deals": "that AI's cap with `verify_half_width`, in deals per pairing and board (default 20 rounds)",
    "slopes": "`shared` (HP one slope for every figure) or `per_figure`",
    "forbid": "changes the finder may not propose",
    "rounds": "probe, propose, verify rounds at most (default 2)",
}
LADDER_TEAM_WORDS = {
    "mode": '`"ladder"`',
    "roster": 'a set, a tag, `"all"`, names, or a collection file',
    "collection": "a collection file (your figures): the teams you can field and those one more figure reaches",
    "rule": "`{size = 4}`: restrict the team size",
    "ladder": "the `[teams.ladder]` table",
}
LADDER_WORDS = {
    "design": '`"adaptive"` (successive halving, default), `"lucb"` (top-k racing) or `"round_robin"`',
    "top_k": "the size of the top the study ranks",
    "opponents": "stage 1: field opponents per team (doubled each stage in adaptive)",
    "keep": "share kept per stage (adaptive)",
    "min_teams": "adaptive keeps halving while at least this many teams remain",
    "top_round_robin": "then a round robin of this many top teams (the meta-game)",
    "search": "`{ai, top, deals}`: the search tier on the top teams",
    "swaps": "what-if swaps `{team, out, in}`: a paired Δ win rate",
    "epsilon": "lucb: share of field win rate, 0 < ε < 1",
    "delta": "lucb: confidence 1 − δ, 0 < δ < 1",
    "budget": "lucb: race matches at most",
    "batch": "lucb: teams sampled per side of the k-th boundary per stage",
}
TARGET_WORDS = {
    "half_width": "the 95% CI half-width wanted of every headline number, in the study's unit (default: the "
    "study's, else 0.15; the strength, patches, restricted, teams and seats studies: log-odds; the rewards, "
    "duel and challenges studies: win-rate points, default 4)",
    "ais": "the AIs whose matches grow, each one that plays a matchup of its own in `ais` (the same AI on every side); "
    "default: the strongest of them on the AI ladder (`krosbalance/ai/data/ladder.toml`)",
    "round_deals": "deals per pairing and board each round adds (default: the AI's own deals in `ais`, "
    "`{ai = ..., deals = n}`, else `matches_per_pairing`)",
    "max_deals": "the cap, in deals per pairing and board (default 20 rounds)",
    "max_matches": "the cap in the AI's matches instead (one of `max_deals` and `max_matches`)",
    "measure": "whose headline quantity: the experiment's own study's (default), or another study's that fits "
    "it (`teams`: each team's rating, for explicit team pairings)",
}
TARGET_TEXT = """
Round 1 plays the targeted AI's first `round_deals` deals (with every other matchup's deals); after
each round the study's headline half-widths are computed from that AI's rows so far, with the
report's own estimator (the strength study: the teammate-adjusted strength,
`krosbalance.analysis.strength.adjusted_strength`). The AI stops when its widest half-width is
within `half_width` (*reached*) or at the cap (*cap*); otherwise the next round adds `round_deals`.
`validate` says what it will do:

```text
simulations/strength-target.toml: target: plays mcts-race in rounds of 1 deal per pairing and board
(70 matches, ~11 s) until every figure's strength has a 95% CI half-width ≤ 0.15 log-odds, at most
60 deals (4,200 matches, ~11 min)
```

and `run` prints what it reached (`target: mcts-race: ±0.15 reached after 1,540 matches (22 rounds;
widest: ...)` or `cap reached at ±0.19 after 4,200 matches ...`). The manifest's `target` keeps the
target, each AI's outcome (`status` `reached` / `cap`, `rounds`, `deals`, `matches`, the
`half_width` reached and the `widest` number) and every round's half-width.

The targeted matchup is expanded to the cap from the start, so every deal that may be played has its
match ids and seeds fixed; which deals a round plays depends only on the master seed and the rows of
the rounds before it. A run resumed mid-round or between rounds, or played with another `--jobs`,
plays exactly the same matches. The target is in the fingerprint: `--resume` refuses a changed one.

A study sizes its sample from a target when it declares a `target` part stating its headline
quantity (`QUANTITY`, `UNIT`, optionally `DEFAULT_HALF_WIDTH`, `problem(experiment)`,
`half_widths(matches, experiment)`: see `krosbalance/studies/strength/target.py`). Today: strength
(every figure's strength), rewards (every token's Δ win rate, held or priced, in points; a price
sweep is refused), patches (every figure's strength in every arm), restricted (every restricted
arm's Δ strength), teams (every team's rating), seats (every character's strength at the table, per
arm), duel (every figure's duel win rate, in points) and challenges (every challenge's shift of the
first player's win rate, in points; a tier sweep is refused). The boards and matchup studies refuse
`[target]` with the reason.

Staged studies refuse a `[target]` of their own and take it where their stages are played:

- a team ladder's search stage: `search = { ai = "mcts-race", top = 6, deals = 10, half_width =
  0.15, max_deals = 120 }` plays the top teams' round robin in rounds of `deals` until every top
  team's rating is that precise (`max_deals` defaults to 20 rounds);
- a fix file's verification: `verify_half_width = 0.15` (and `verify_max_deals`) in `[fix]` plays the
  strongest of `verify_ais` in rounds of its deals until every figure's strength in both arms (the
  shipped cards and the proposed patch) is that precise.

The report's Summary says where the rounds stopped, for a staged folder the last targeted stage's.
"""
SEARCH_WORDS = {
    "ai": "the search AI",
    "top": "how many top teams",
    "deals": "deals per pairing (a round's, with `half_width`)",
    "half_width": "play rounds until every top team's rating has this 95% CI half-width (log-odds)",
    "max_deals": "the cap with `half_width`, in deals per pairing (default 20 rounds)",
    "beside": "`{ai, deals}`: the next AI down on the same pairings, rated on its own (settled / still moving)",
}
COLLECTION_WORDS = {
    "figures": "`{id = count}`: the figures you own",
    "name": "the collection's name",
    "description": "what it is",
}


def experiment_keys() -> str:
    from krosbalance.sim import experiment, experiment_file, restricted, rosters, sweep, target
    from krosbalance.sim import fix_table as fixer
    from krosbalance.studies.teams import experiment as teams

    out = [
        "# Experiment file keys\n\n",
        GENERATED,
        "An experiment is a TOML file (`simulations/*.toml`, one per question). Every key below is one "
        "the parser accepts; any other is refused with the near names (`krosbalance validate FILE`).\n\n",
        "## Top level\n\n",
        table(["key", "meaning"], _checked("TOP_KEYS", experiment.TOP_KEYS, TOP_WORDS)),
        "\n## `[teams]`\n\n",
        table(["key", "meaning"], _checked("TEAM_KEYS", experiment.TEAM_KEYS, TEAM_WORDS)),
        "\nTeam modes (`mode`):\n\n",
        table(["mode", "what it plays"], _checked("TEAM_MODES", experiment.TEAM_MODES, MODE_WORDS)),
        f"\nModes that seat more than two teams: {', '.join(f'`{m}`' for m in experiment.TABLE_MODES)}; "
        f"teams dealt anew at every deal (R-A17): {', '.join(f'`{m}`' for m in experiment.DEALT_MODES)}. "
        f"Recording levels: {', '.join(f'`{r}`' for r in experiment.RECORD_LEVELS)}.\n",
        "\n## `[[variants]]`\n\n",
        table(
            ["key", "meaning"],
            _checked("variant keys", ("name", "options", "patch", *restricted.VARIANT_KEYS), VARIANT_WORDS),
        ),
        "\n## `[restricted]`\n\n",
        table(["key", "meaning"], _checked("RESTRICTED_KEYS", restricted.RESTRICTED_KEYS, RESTRICTED_WORDS)),
        "\n## `[sweep]`\n\n",
        table(["key", "meaning"], _checked("SWEEP_KEYS", sweep.SWEEP_KEYS, SWEEP_WORDS)),
        "\n## `[target]`\n\n",
        table(["key", "meaning"], _checked("TARGET_KEYS", target.TARGET_KEYS, TARGET_WORDS)),
        TARGET_TEXT,
        "\n## `[fix]` (`krosbalance fix`)\n\n",
        table(["key", "meaning"], _checked("FIX_KEYS", fixer.FIX_KEYS, FIX_WORDS)),
        f"\nDefault steps: {fixer.DEFAULT_STEP}; spell knobs: {', '.join(fixer.SPELL_KNOBS)}.\n",
        '\n## `[teams]` of a team study (`mode = "ladder"`)\n\n',
        table(["key", "meaning"], _checked("LADDER_TEAM_KEYS", teams.LADDER_TEAM_KEYS, LADDER_TEAM_WORDS)),
        "\n`[teams.ladder]`:\n\n",
        table(["key", "meaning"], _checked("LADDER_KEYS", teams.LADDER_KEYS, LADDER_WORDS)),
        f"\nDesigns: {', '.join(f'`{d}`' for d in teams.DESIGNS)}; `search = {{...}}` takes "
        f"{', '.join(f'`{k}`' for k in teams.SEARCH_KEYS)}"
        f" ({'; '.join(w for _, w in _checked('SEARCH_KEYS', teams.SEARCH_KEYS, SEARCH_WORDS))}).\n",
        "\n## A collection file\n\n",
        table(["key", "meaning"], _checked("COLLECTION_KEYS", rosters.COLLECTION_KEYS, COLLECTION_WORDS)),
        "\n## The parser's own schema\n\nAs written in `krosbalance.sim.experiment_file`:\n\n",
        "```text\n" + (experiment_file.__doc__ or "").strip() + "\n```\n",
    ]
    return "".join(out)


# ----------------------------------------------------------------------------- ruleset options


def ruleset_options() -> str:
    from krosbalance.rulesets.registry import get_ruleset, list_rulesets

    out = [
        "# Ruleset options\n\n",
        GENERATED,
        "Every open point of the rules is a named option with its source, in each ruleset's data file "
        "(`krosbalance/rulesets/<name>/data/<name>.toml`). Override them in `play_match(options=...)`, "
        "an experiment's `[options]` or a `[[variants]]` arm; a misspelt name is one line with the near names.\n\n",
    ]
    for name in list_rulesets():
        rules = get_ruleset(name)
        try:
            choices = importlib.import_module(f"krosbalance.rulesets.{name}.options").CHOICES
        except (ImportError, AttributeError):
            choices = {}
        rows = []
        for f in dataclasses.fields(rules.options):
            source = rules.sources.get(f.name, "")
            ids = ", ".join(dict.fromkeys(RULE_ID.findall(source))) or "—"
            value = getattr(rules.options, f.name)
            allowed = " / ".join(f"`{c}`" for c in choices.get(f.name, ())) or ""
            rows.append((f"`{f.name}`", f"`{_toml(value)}`", allowed, ids, source))
        out += [
            f"## {name} (version {rules.version})\n\n",
            table(["option", "default", "choices", "rule ids", "source"], rows),
            "\n",
        ]
    return "".join(out)


# ----------------------------------------------------------------------------- AIs


def ais() -> str:
    from krosbalance.ai.ladder import load_ladders
    from krosbalance.ai.registry import ai_problem, ai_rulesets, ai_tier, list_ais

    ladders = load_ladders()
    rows = []
    for name in list_ais():
        standings = [(r, ladders[r][name]) for r in sorted(ladders) if name in ladders[r]]
        many = len(standings) > 1  # random has a standing on every ruleset's ladder

        def each(
            text: Callable[[Any], str], standings: list[tuple[str, Any]] = standings, many: bool = many
        ) -> str:
            return "; ".join(f"{r}: {text(s)}" if many else text(s) for r, s in standings)

        rows.append(
            (
                f"`{name}`",
                ai_tier(name),
                ", ".join(ai_rulesets(name)),
                "two only" if ai_problem(name, ai_rulesets(name)[0], 4) else "as its rulesets seat",
                each(lambda s: f"{s.rating:.2f} [{s.ci_low:.2f}, {s.ci_high:.2f}]") or "not rated",
                each(lambda s: f"{s.n:,}"),
                each(lambda s: "yes" if s.validated else "no") or "no",
            )
        )
    return (
        "# AIs\n\n"
        + GENERATED
        + "Every registered AI (`krosbalance list ais`, `krosbalance show ai:NAME`), its tier, the rulesets "
        "and players it plays, and its standing on the AI ladder of each ruleset it was rated in "
        "(`krosbalance/ai/data/ladder.toml`, one ladder per ruleset: "
        "Bradley–Terry rating in log-odds against the field's average AI, 95% deal-clustered interval, "
        "matches behind it, whether it passed the validity gate). Reports quote this file. How the AIs "
        "decide: [How the AIs work](../explanation/ais.md).\n\n"
        + table(["AI", "tier", "rulesets", "players", "ladder rating [95% CI]", "n", "validated"], rows)
    )


# ----------------------------------------------------------------------------- CLI


def cli() -> str:
    import argparse

    from krosbalance.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width: a stable page
    try:
        parser = build_parser()
        out = ["# Command line\n\n", GENERATED, "```text\n" + parser.format_help().strip() + "\n```\n\n"]
        for action in parser._actions:  # argparse keeps its sub-commands only here
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out.append(f"## `krosbalance {name}`\n\n```text\n{sub.format_help().strip()}\n```\n\n")
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "".join(out)


# ----------------------------------------------------------------------------- result columns

MATCH_WORDS = {
    "match_id": "the match's position in the experiment's expansion (stable across runs and workers)",
    "experiment": "the experiment's name",
    "pairing": "index of the pairing (two teams, or a table) in the experiment",
    "swapped": "true when the deal is played with sides swapped (paired seeds)",
    "deal": "index of the deal; every match of one deal shares its dice (paired seeds, arms)",
    "seed": "the match's seed (derived from `master_seed`); `play_match(..., seed=...)` replays it",
    "team_a": "team A's figure ids, comma-separated (the experiment's first team)",
    "team_b": "team B's figure ids",
    "team0": "the team in seat 0 (first seat), comma-separated ids",
    "team1": "the team in seat 1",
    "ai0": "seat 0's AI",
    "ai1": "seat 1's AI",
    "ai0_tier": "seat 0's AI tier when played: baseline, heuristic or search",
    "ai1_tier": "seat 1's AI tier",
    "board": "board id",
    "ruleset": "ruleset name, with its changed options (`describe`)",
    "options": "the match's ruleset options, JSON",
    "variant": "the arm (`[[variants]]` name, sweep point, restriction, reward arm)",
    "winner": "winning seat (two players) or partnership; NA for a draw",
    "winner_team": "the winning teams' labels joined by `+` (A, B, ...)",
    "end_reason": "how the match ended (e.g. `gg`, `ko`, `turn_limit`, `mutual_ko`, `error`)",
    "turns": "game turns played (count)",
    "first_player": "the seat that played first (-1 for a failed match)",
    "engine_version": "the rules engine's version",
    "content_version": "the card data's version",
    "package_version": "krosbalance's version",
    "engine": "`core` (native) or `reference` (Python): which engine played the match",
    "error": "empty, or the error of a match that raised (its traceback is in the errors table)",
}
FIGHTER_WORDS = {
    "match_id": "the match",
    "side": "the fighter's seat",
    "team": "its team's label (A, B, ...)",
    "team_ids": "its team's figure ids, comma-separated",
    "ai": "the AI that played it",
    "won": "whether its seat won (bool)",
    "draw": "whether the match was drawn (bool)",
    "uid": "the piece's id within the match",
    "character": "the figure's id (a summon's own id)",
    "name": "the figure's display name",
    "level": "its level",
    "is_summon": "a summoned creature, bomb or trap (bool)",
    "summoner": "the summoner's uid, -1 for a Krosmaster",
    "damage_dealt": "injuries it inflicted, every element (count of injury markers)",
    "damage_taken": "injuries it took, every element (injuries)",
    "heals_given": "injuries it healed (injuries)",
    "heals_received": "injuries healed on it (injuries)",
    "kills": "enemy pieces it KO'd, summoned creatures and bombs included; its own side's not (count)",
    "knocked_out": "whether it was KO'd (bool)",
    "turns_alive": "turns it was in play (count)",
    "spells_cast": "spells it cast (count)",
    "moves": "cells it walked (count)",
    "times_blocked": "times a Lock stopped it (count)",
}


def result_columns() -> str:
    from krosbalance.engine.results import FighterRecord, FighterStats
    from krosbalance.rulesets.registry import get_ruleset, list_rulesets
    from krosbalance.sim import tables

    record = FighterRecord(0, 0, "x", "x", 1, False, None, FighterStats())
    base = [c for c in record.as_row() if not re.match(r"damage_(dealt|taken)_", c)]
    per_element = [c for c in record.as_row() if re.match(r"damage_(dealt|taken)_", c)]
    fighter = list(dict.fromkeys([*tables.FIGHTER_KEYS, *base]))
    out = [
        "# Result columns\n\n",
        GENERATED,
        "A results folder holds a **matches** table (one row per match), a **fighters** table (one row per "
        "fighter ever in play, summons included) and, when recorded, an **events** table; all tidy, in Parquet "
        "shards (`ResultSet.load(folder)`). Units: damage and heals count **injuries** (markers), `kills` counts "
        "every enemy piece a fighter KO'd, **summons included**, turns are game turns.\n\n",
        "## Matches table\n\n",
        table(
            ["column", "dtype", "meaning"],
            [
                (k, tables.MATCH_COLUMNS[k.strip("`")], w)
                for k, w in _checked("MATCH_COLUMNS", tables.MATCH_COLUMNS, MATCH_WORDS)
            ],
        ),
        "\nWith more than two seats: " + ", ".join(f"`{c}`" for c in tables.seat_columns(4)) + ".\n",
        "\n## Fighters table\n\n",
        table(["column", "meaning"], _checked("fighter columns", fighter, FIGHTER_WORDS)),
        "\nPer element: " + ", ".join(f"`{c}`" for c in per_element) + " (injuries).\n",
        "\n## Columns each ruleset adds\n\nA per-seat column `gg` is written `gg0`, `gg1`, ... in the table.\n\n",
    ]
    for name in list_rulesets():
        rules = get_ruleset(name)
        rows = [
            (f"`{c.name}`", "matches", c.dtype, "yes" if c.per_seat else "", c.doc)
            for c in rules.result_columns
        ]
        rows += [(f"`{c.name}`", "fighters", c.dtype, "", c.doc) for c in rules.fighter_columns]
        out += [f"### {name}\n\n", table(["column", "table", "dtype", "per seat", "meaning"], rows), "\n"]
    out += [
        "## Events table\n\n",
        table(["column", "dtype"], [(f"`{k}`", v) for k, v in tables.EVENT_COLUMNS.items()]),
        "\n## Errors table\n\n",
        table(["column", "dtype"], [(f"`{k}`", v) for k, v in tables.ERROR_COLUMNS.items()]),
    ]
    return "".join(out)


# ----------------------------------------------------------------------------- cards


def cards() -> str:
    from krosbalance.cards import LISTINGS
    from krosbalance.content.registry import default_registry, load_board

    registry = default_registry()
    out = [
        "# Cards\n\n",
        GENERATED,
        "Every card of the content registry (`krosbalance list ...`; one card with its sources: "
        "`krosbalance show NAME`). Any alias works wherever a name is asked.\n\n## Characters by set\n\n",
    ]
    for card_set in registry.list_sets():
        rows = []
        for spec in registry.all_characters():
            if spec.set != card_set:
                continue
            rows.append(
                (
                    f"`{spec.id}`",
                    spec.name,
                    spec.kind,
                    spec.game,
                    spec.level,
                    spec.hp,
                    spec.ap,
                    spec.mp,
                    spec.initiative,
                    ", ".join(s.name for s in spec.spells),
                    ", ".join(spec.aliases),
                )
            )
        out += [
            f"### {card_set}\n\n",
            table(
                ["id", "name", "kind", "game", "level", "HP", "AP", "MP", "init.", "spells", "aliases"], rows
            ),
            "\n",
        ]
    titles = {
        "rewards": "Demonic Rewards",
        "favors": "Krosmic Favors (Blast)",
        "challenges": "Divine Challenges (Blast)",
    }
    for what, lines in LISTINGS.items():
        out.append(f"## {titles.get(what, what)}\n\n```text\n" + "\n".join(lines()) + "\n```\n\n")
    rows = []
    for board_id in registry.list_boards():
        board = load_board(board_id)
        rows.append(
            (
                f"`{board_id}`",
                board.name,
                f"{board.width}×{board.height}",
                ", ".join(board.rulesets),
                board.source,
            )
        )
    out += ["## Boards\n\n", table(["id", "name", "size", "rulesets", "source"], rows)]
    return "".join(out)


# ----------------------------------------------------------------------------- assumed values


def _assumed(node: Any, path: str, found: list[tuple[str, str]]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}.{key}" if path else key
            if key == "source" and isinstance(value, str) and value.lstrip().lower().startswith("assumed"):
                found.append((path or "(file)", value))
            elif key == "source" and isinstance(value, dict):
                for field, note in value.items():
                    if isinstance(note, str) and note.lstrip().lower().startswith("assumed"):
                        found.append((f"{path}.{field}" if path else field, note))
            else:
                _assumed(value, where, found)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            _assumed(item, f"{path}[{i}]", found)


def assumed_values() -> str:
    import krosbalance.content as content
    import krosbalance.rulesets as rulesets

    out = [
        "# Assumed values\n\n",
        GENERATED,
        "Every value of the content and ruleset data whose `source` note starts with `assumed`: where the "
        "rulebooks (the Italian Arena rulebook, the French Blast rulebook, the English Duel Pack rulebook) "
        "print nothing and the value is this project's reading. A box owner can correct any of them in "
        "the file named (`krosbalance show NAME` prints each value with its source and confidence).\n\n",
    ]
    for package in (content, rulesets):
        base = Path(package.__file__).parent
        for path in sorted(base.rglob("*.toml")):
            found: list[tuple[str, str]] = []
            _assumed(tomllib.loads(path.read_text(encoding="utf-8")), "", found)
            if found:
                rel = (
                    path.relative_to(base.parents[1]).as_posix()
                    if base.parents[1] in path.parents
                    else path.name
                )
                out += [
                    f"## `{rel}`\n\n",
                    table(["value", "source"], [(f"`{w}`", s) for w, s in found]),
                    "\n",
                ]
    return "".join(out)


PAGES: dict[str, Callable[[], str]] = {
    "reference/experiment-keys.md": experiment_keys,
    "reference/ruleset-options.md": ruleset_options,
    "reference/ais.md": ais,
    "reference/cli.md": cli,
    "reference/result-columns.md": result_columns,
    "reference/cards.md": cards,
    "explanation/assumed-values.md": assumed_values,
}


def on_files(files: Any, config: Any) -> Any:
    """mkdocs hook: add the generated pages to the build."""
    from mkdocs.structure.files import File

    for uri, build in PAGES.items():
        files.append(File.generated(config, uri, content=build()))
    return files
