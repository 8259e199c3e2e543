"""AIs for Krosmaster Blast: a glyph-racing and a brawling personality over one planner
(``planner``), registered by name in ``krosbalance.ai.registry``."""
