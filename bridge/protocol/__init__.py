"""The wire protocol between the extension and the bridge: framing, envelopes, error codes."""
