"""Catch-up projections: read models built from the global log, each with its own checkpoint.

`log` reads the log in commit-safe order and `checkpoints` keeps each projection's place in it;
`runner` applies the log batch by batch, the checkpoint in the batch's transaction; `history` and
`statistics` (with `ratings`) are the projections, listed in `registry`; `read_models` answers the
queries from their tables; `rebuild` recreates them from the whole log.
"""
