"""``python -m cardenvs.cli`` is the ``cardenvs`` command."""
import sys

from . import main

sys.exit(main())
