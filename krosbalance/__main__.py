"""``python -m krosbalance``: the same command line as the ``krosbalance`` script."""

from krosbalance.cli import main

raise SystemExit(main())
