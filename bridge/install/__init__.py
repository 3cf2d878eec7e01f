"""Registering the native-messaging host with browsers: `relay install`, `uninstall`, `doctor`.

One job per module: `machine` (the injectable OS, home and environment), `browsers` (the table of
browsers and their per-OS locations), `targets` (where one registration goes), `manifest` (the
host manifest's content and checks), `registry` (Windows registry behind a small protocol),
`state` (the record of what Relay wrote), `hostpath` (finding the `relay-bridge` executable),
`actions` (install and uninstall) and `doctor` (diagnosis).
"""
