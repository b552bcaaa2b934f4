"""``python -m cardenvs`` is the ``cardenvs`` command."""
import sys

from .cli import main

sys.exit(main())
