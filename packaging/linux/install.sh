#!/bin/sh
# Install Relay for this user (no root): the program goes to ~/.local/lib/relay, a `relay` link to
# ~/.local/bin, and the bridge is registered with every browser found (`relay install`).
# Run it again from a newer download to upgrade: the program is replaced and the browsers'
# manifests are rewritten to point at it. Remove everything with ~/.local/lib/relay/uninstall.sh.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
lib="${RELAY_INSTALL_DIR:-$HOME/.local/lib/relay}"
bin="$HOME/.local/bin"

if [ ! -x "$here/relay" ]; then
  echo "install.sh: run it from the unpacked Relay download (relay not found beside it)" >&2
  exit 1
fi

mkdir -p "$(dirname "$lib")" "$bin"
staging="$lib.new.$$"
trap 'rm -rf "$staging"' EXIT
cp -R "$here" "$staging"
echo "install.sh" > "$staging/installed-by"
if [ -e "$lib" ]; then
  rm -rf "$lib.old.$$"
  mv "$lib" "$lib.old.$$"
fi
mv "$staging" "$lib"
rm -rf "$lib.old.$$"
trap - EXIT

if [ -e "$bin/relay" ] && [ ! -L "$bin/relay" ]; then
  echo "install.sh: $bin/relay exists and is not Relay's link; left it alone" >&2
else
  ln -sfn "$lib/relay" "$bin/relay"
fi

echo "Relay installed in $lib"
"$lib/relay" install "$@" || {
  echo "install.sh: no browser could be registered yet; run \`relay install --browser NAME\`" \
       "once your browser is installed (relay doctor says what is missing)" >&2
}
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "note: $bin is not on your PATH; run Relay as $lib/relay or add it to PATH" ;;
esac
echo "Next: load the extension ($lib/extension), import your profile" \
     "(relay profile import FILE), then check everything with: relay doctor"
