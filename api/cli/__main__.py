"""`python -m kaiten.api.cli`: the `kaiten` command."""

from kaiten.api.cli import main

raise SystemExit(main())
