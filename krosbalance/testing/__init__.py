"""Public test kit: scenario positions with scripted dice, and scripted controllers."""

from krosbalance.testing.scenario import END_TURN, Scenario, ScriptedController

__all__ = ["END_TURN", "Scenario", "ScriptedController"]
