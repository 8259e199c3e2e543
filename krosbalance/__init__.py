"""krosbalance: Krosmaster balance questions answered by simulation."""
