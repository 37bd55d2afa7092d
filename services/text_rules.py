"""What text the services take from clients: names and ids are printable."""

from __future__ import annotations

#: No control characters: they have no place in a name or an id, and PostgreSQL refuses NUL outright.
PRINTABLE = "^[^\\x00-\\x1f\\x7f]*$"
