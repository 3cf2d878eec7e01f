"""Relay's bridge: the native-messaging host, the CLI and the runtime they share."""

import os

# Relay runs with no third-party pydantic plugins: one would see every payload Relay validates
# (credentials and self-identification answers included), and looking for them reads every
# installed package's metadata when a bridge builds its first model.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
