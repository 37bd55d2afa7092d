"""kaiten's schema migrations: Alembic's scripts, in versions/."""

#: The newest revision. A database at it needs no migration, which is checked without Alembic (a
#: server's start, each serving process's readiness); tests/integration/test_migrations.py holds it
#: to the head of Alembic's scripts.
HEAD = "0013"
