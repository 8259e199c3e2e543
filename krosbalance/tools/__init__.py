"""Developer tools: benchmarks, screens, diagnostics and tuning, each run as ``python -m
krosbalance.tools.NAME`` (``--help`` says how). They may import any layer; nothing in the library
imports them.

- measuring the builds: ``bench`` (``make bench``), ``bench_search``, ``memory_bench`` (``make
  membench``), ``builds`` (the compiled and the pure build side by side; their identity check),
  ``profile_workload`` (the profile-guided build's training matches, run by ``setup.py``);
- judging AIs: ``diagnostics``, ``skill_diagnostics``, ``puzzles``, ``race``, ``search_screen``;
- tuning: ``tuning`` (``make tune``);
- pictures of pages: ``screenshot`` (a headless Chromium).
"""
