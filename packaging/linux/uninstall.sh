#!/bin/sh
# Remove Relay for this user: what `relay install` registered with the browsers, the program in
# ~/.local/lib/relay and its ~/.local/bin/relay link. Your data (profiles, answers, history) is
# kept unless you pass --delete-data.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
exec "$here/relay" uninstall --program "$@"
