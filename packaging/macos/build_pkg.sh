#!/bin/sh
# Build dist/Relay-VERSION.pkg on a Mac from dist/relay (make that first with `./dev bundle`).
# Needs Xcode's command line tools (pkgbuild, productbuild). The package puts Relay.app in
# /Applications, links /usr/local/bin/relay, and registers the bridge for the person installing
# (manifests under ~/Library/Application Support/<browser>/NativeMessagingHosts).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/packaging/macos"
version=$(sed -n 's/^BRIDGE_VERSION = "\(.*\)"$/\1/p' "$root/bridge/identity.py")
program="$root/dist/relay"
work="$root/build/macos"

if [ ! -x "$program/relay" ]; then
  echo "build_pkg.sh: $program/relay not found; run ./dev bundle first" >&2
  exit 1
fi

rm -rf "$work"
app="$work/payload/Applications/Relay.app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
# The one-folder build as it is: the program, its _internal/ folder and the extension.
cp -R "$program/" "$app/Contents/MacOS/"
rm -f "$app/Contents/MacOS/install.sh" "$app/Contents/MacOS/uninstall.sh"
echo "the Relay macOS package" > "$app/Contents/MacOS/installed-by"
sed "s/@VERSION@/$version/g" "$here/Info.plist" > "$app/Contents/Info.plist"

pkgbuild --root "$work/payload" --identifier dev.relay.bridge --version "$version" \
  --install-location / --scripts "$here/scripts" "$work/relay-component.pkg"
sed "s/@VERSION@/$version/g" "$here/distribution.xml" > "$work/distribution.xml"
productbuild --distribution "$work/distribution.xml" --package-path "$work" \
  --version "$version" "$root/dist/Relay-$version.pkg"
echo "built $root/dist/Relay-$version.pkg"
