"""The desktop build's one program: `relay`, which is also the native-messaging host when a
browser starts it (see `bridge.cli.main.main`)."""

import sys

from bridge.cli.main import main

sys.exit(main())
