"""``python -m classiclearn.cli``: the same as the ``classiclearn`` command."""

import sys

from . import main

sys.exit(main())
