"""`relay serve`: the loopback HTTP API, a front door for local scripts and tools.

The same request types and pydantic models as native messaging, through the same dispatcher
(`bridge.doors.call`); see docs/http.md and docs/openapi.json.
"""
