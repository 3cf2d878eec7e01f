"""One module per request type; `registry.ACTIONS` maps a type to its handler."""
