"""Driving a real Chromium with the Relay extension loaded: what `relay fill` and the tests use."""
