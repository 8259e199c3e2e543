"""Developer tools: benchmarks, screens, diagnostics and tuning, each run as ``python -m
krosbalance.tools.NAME`` (``--help`` says how). They may import any layer; nothing in the library
imports them.

- measuring speed: ``bench`` (``make bench``), ``bench_search``, ``memory_bench`` (``make
  membench``), ``builds`` (the benchmark's seeded workloads), ``mypyc_copy`` (the throwaway mypyc
  build of the sources behind the benchmark's mypyc column);
- judging AIs: ``diagnostics``, ``skill_diagnostics``, ``puzzles``, ``race``, ``search_screen``;
- tuning: ``tuning`` (``make tune``);
- pictures of pages: ``screenshot`` (a headless Chromium).
"""
