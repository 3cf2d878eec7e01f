"""One resolver per field family (names, contact, address, …): what the profile answers for a key.

`bridge.rules.answers` holds the table that says which family answers which key.
"""
