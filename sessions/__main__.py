import sys

from sessions.cli import main

sys.exit(main())
