"""The words of ``krosbalance --help`` and of each subcommand's help: what the tool covers, and
examples a newcomer can paste (argparse epilogs). Kept apart from the parser so the parser stays
a list of options."""

from __future__ import annotations

import textwrap

DESCRIPTION = textwrap.fill(
    "Krosmaster balance questions answered by simulation: AIs play many seeded matches and every answer "
    "comes with n, a 95% interval and the AI that measured it. Modes: Krosmaster Arena (two players, "
    "and four players at one table: 2v2 or free-for-all), the Duel Pack (one figure a side) and "
    "Krosmaster Blast (glyphs, Krosmic Favors, Divine Challenges). Start with "
    "'krosbalance run simulations/smoke.toml' or 'krosbalance compare TEAM TEAM'.",
    width=100,
)

TOP_EPILOG = """examples:
  krosbalance run simulations/smoke.toml              play an experiment, write its report, print the answer
  krosbalance compare "Bill Tell,Lil Healey" "Anna Tommy,Oscar Kass"   does this team beat that one?
  krosbalance validate simulations/*.toml             check files; how many matches and how long
  krosbalance list ais                                the AIs, their tier, ladder rating and cost
  krosbalance show "Bill Tell"                        one card as the game prints it

'krosbalance COMMAND --help' gives each command's options and examples."""

EPILOGS: dict[str, str] = {
    "run": """examples:
  krosbalance run simulations/smoke.toml
      a few seconds; results in results/smoke, the report in reports/smoke, the answer printed
  krosbalance run simulations/characters-by-tier.toml --out /tmp/tier --jobs 2
  krosbalance run simulations/characters-by-tier.toml --out /tmp/tier --resume
      continue an interrupted run (Ctrl-C keeps every finished match)
  krosbalance run simulations/fix-the-box.toml
      a staged study (the fix finder): its stages, then its patch and why
  krosbalance run simulations/smoke.toml --patch my-patch.toml --no-report""",
    "fix": """examples:
  krosbalance fix simulations/fix-the-box.toml --jobs 2
      the same as 'krosbalance run simulations/fix-the-box.toml --jobs 2'""",
    "report": """examples:
  krosbalance report results/smoke                 write reports/smoke/report.html, print the answer
  krosbalance report results/smoke --out /tmp/rep
  krosbalance report results/ai-ladder-connected --write-ladder""",
    "answer": """examples:
  krosbalance answer results/smoke                 the study's answer, with n, 95% CI and the AI""",
    "teams": """examples:
  krosbalance teams arena-box --count
  krosbalance teams "Bill Tell,Lil Healey,Anna Tommy,Oscar Kass" --size 2
  krosbalance teams simulations/collections/sample-five.toml""",
    "validate": """examples:
  krosbalance validate simulations/smoke.toml
  krosbalance validate simulations/*.toml --jobs 2
      each file: ok, its matches and an estimated wall time on this machine, or every problem""",
    "list": """examples:
  krosbalance list characters        name, set, level, HP, AP, MP
  krosbalance list ais               id, tier, ladder rating, cost per match
  krosbalance list rulesets""",
    "show": """examples:
  krosbalance show "Bill Tell"
  krosbalance show reward:xelor_style
  krosbalance show arena-elemental
  krosbalance show kiter""",
    "replay": """examples:
  krosbalance replay results/smoke 3                  match 3 turn by turn, PNGs in results/smoke/replays/match-3
  krosbalance replay results/smoke 3 --turn 2 --no-pictures
  krosbalance replay results/smoke 3 --html --out /tmp/match-3.html
  krosbalance replay results/fix-the-box/stage-01-fix-the-box-probe 3
      a staged study: replay from one of its stage folders""",
    "compare": """examples:
  krosbalance compare "Bill Tell,Lil Healey,Queen of the Tofus,Kassius Kaos" \\
                      "Anna Tommy,Oscar Kass,Bad Aboum,King of the Gobballs"
  krosbalance compare teamA.txt teamB.txt teamC.txt --matches 200 --ai kiter-3
  krosbalance compare "Bill Tell,Lil Healey" "Anna Tommy,Oscar Kass" --budget 60 --jobs 2""",
}


__all__ = ["DESCRIPTION", "EPILOGS", "TOP_EPILOG"]
