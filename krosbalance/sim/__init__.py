"""Running experiments: experiment files, match specs with seeds derived in the parent, the runner.

``experiment`` parses and expands TOML experiments, ``seeding`` derives per-deal seeds, ``match`` plays
one spec in a worker, ``tables`` flattens results into rows, ``runner`` drives joblib batches, Parquet
shards and resume, ``backends`` adds Dask/Ray. Import the submodules directly (no import-time work).
"""
