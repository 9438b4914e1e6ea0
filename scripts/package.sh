#!/usr/bin/env bash
# scripts/package.sh: build the Debian package dist/modalwatch_<version>_amd64.deb, which
# runs on Debian 12 without the Swift toolchain.
#
#   /usr/bin/modalwatchd, /usr/bin/modalwatch             stripped release binaries, RUNPATH $ORIGIN/../lib/modalwatch
#   /usr/lib/modalwatch/rules/libmodalwatch-rules-*.so     the built-in modules, RUNPATH $ORIGIN/..
#   /usr/lib/modalwatch/lib*.so                            the Swift runtime they need (found with ldd), private
#   /lib/systemd/system/modalwatchd.service, modalwatchd@.service, modalwatch-forward.service
#   /usr/lib/sysusers.d/modalwatch.conf                    the modalwatch user and group (postinst makes them with adduser)
#   /etc/modalwatch/modalwatchd.yaml                       conffile: the service's endpoints (control: ipc:///run/modalwatch/control.sock)
#   /usr/share/man/man1/modalwatch.1.gz                    generated from the argument parser (generate-manual)
#   /usr/share/man/man8/modalwatchd.8.gz, man5/modalwatchd.yaml.5.gz   packaging/man
#   bash, zsh and fish completions of both commands
#   /usr/share/doc/modalwatch/                             README, docs, the contract (spec/), copyright, changelogs
#   /usr/share/modalwatch/monitoring/                      Prometheus rules and their tests, the Grafana dashboard
#   /usr/share/modalwatch/demo/stream.ndjson               a recorded stream to try (modalwatch send, check)
#
# The staging is scripts/install.sh with PREFIX=/usr. Depends: comes from dpkg-shlibdeps (libzmq5,
# libsqlite3-0, libicu72, libpq5, libc6, libstdc++6, libgcc-s1) plus adduser. The daemon and the CLI also load
# libswiftSwiftOnoneSupport.so, so that a rule module built out of tree in debug mode with the
# same toolchain version finds every Swift library it needs already loaded.
#
# Environment: SKIP_BUILD=1 packages the build as it is; DIST (default dist/); CONFIGURATION
# (default release; debug packages the debug build, for a quicker test of the packaging);
# COMPRESSION, dpkg-deb's -Z (default xz, as Debian's archive has it; none, gzip or zstd: the
# tests' packages are none: xz is most of the time packaging takes).
# Needs swift, dpkg-deb, dpkg-shlibdeps (dpkg-dev), patchelf, strip (binutils); installs the
# missing Debian packages with apt-get (sudo when not root). Prints the package's path last.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST="${DIST:-$ROOT/dist}"
CONFIGURATION="${CONFIGURATION:-release}"
COMPRESSION="${COMPRESSION:-xz}"
case $COMPRESSION in
xz | gzip | zstd | none) ;;
*) echo "package: COMPRESSION=$COMPRESSION: dpkg-deb compresses with xz, gzip, zstd or none" >&2; exit 2 ;;
esac

package_as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev)
command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)
command -v strip >/dev/null 2>&1 || missing+=(binutils)
if [ ${#missing[@]} -gt 0 ]; then
    echo "package: installing ${missing[*]}" >&2
    package_as_root apt-get update -qq
    package_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || { echo "package: no swift on PATH; install a Swift 6 toolchain (https://swift.org/install)" >&2; exit 1; }

if [ "${SKIP_BUILD:-0}" != "1" ]; then
    echo "package: swift build -c $CONFIGURATION" >&2
    swift build -c "$CONFIGURATION" >&2
fi
BIN="$(swift build -c "$CONFIGURATION" --show-bin-path)"
TOOLCHAIN_LIB="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["paths"]["runtimeLibraryPaths"][0])')"
[ -f "$TOOLCHAIN_LIB/libswiftCore.so" ] || { echo "package: no libswiftCore.so in $TOOLCHAIN_LIB" >&2; exit 1; }

# One version: ModalwatchVersion.string, as the CLI prints it; the Debian revision from the
# packaging changelog, whose upstream part must be the same.
VERSION="$("$BIN/modalwatch" --version)"
DEB_VERSION="$(sed -n '1s/^modalwatch (\([^)]*\)).*/\1/p' packaging/debian/changelog)"
if [ "${DEB_VERSION%-*}" != "$VERSION" ]; then
    echo "package: packaging/debian/changelog is for $DEB_VERSION but modalwatch is $VERSION; add an entry for $VERSION" >&2
    exit 1
fi
# Reproducible: every date (files, man pages) is the changelog entry's.
SOURCE_DATE_EPOCH="$(date -d "$(sed -n 's/^ -- .*>  //p' packaging/debian/changelog | head -1)" +%s)"
export SOURCE_DATE_EPOCH

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# dpkg-shlibdeps wants debian/control and the package tree in debian/<package>.
PKG="$WORK/debian/modalwatch"
mkdir -p "$PKG"
printf 'Source: modalwatch\n\nPackage: modalwatch\nArchitecture: amd64\n' > "$WORK/debian/control"

DESTDIR="$PKG" PREFIX=/usr UNITDIR=/lib/systemd/system CONFIGURATION="$CONFIGURATION" SKIP_BUILD=1 bash scripts/install.sh >/dev/null
DOC="$PKG/usr/share/doc/modalwatch"
rm "$DOC/LICENSE"                                  # in copyright, as Debian wants
gzip -9n < "$DOC/CHANGELOG.md" > "$DOC/changelog.gz" && rm "$DOC/CHANGELOG.md"
gzip -9n < packaging/debian/changelog > "$DOC/changelog.Debian.gz"
install -m 0644 packaging/debian/copyright "$DOC/copyright"

# The Swift runtime: every library of the toolchain the binaries and modules load, and
# libswiftSwiftOnoneSupport.so for modules built in debug mode.
LIB="$PKG/usr/lib/modalwatch"
ELVES=("$BIN/modalwatchd" "$BIN/modalwatch" "$BIN"/libmodalwatch-rules-*.so)
{
    for elf in "${ELVES[@]}"; do ldd "$elf"; done | awk -v dir="$TOOLCHAIN_LIB/" 'index($3, dir) == 1 { print $3 }'
    echo "$TOOLCHAIN_LIB/libswiftSwiftOnoneSupport.so"
} | sort -u | while read -r library; do
    install -m 0644 "$library" "$LIB/"
done

# Stripped as dh_strip does, and RUNPATH relative to where each file is installed.
for exe in "$PKG/usr/bin/modalwatchd" "$PKG/usr/bin/modalwatch"; do
    strip --remove-section=.comment --remove-section=.note "$exe"
    patchelf --set-rpath '$ORIGIN/../lib/modalwatch' "$exe"
    patchelf --add-needed libswiftSwiftOnoneSupport.so "$exe"
done
for module in "$LIB"/rules/*.so; do
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$module"
    patchelf --set-rpath '$ORIGIN/..' "$module"
done
for library in "$LIB"/*.so; do
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$library"
    patchelf --set-rpath '$ORIGIN' "$library"
done

# modalwatch(1) from the argument parser (swift-argument-parser's generate-manual plugin: it
# builds the configuration, built already, and writes a page per executable); modalwatchd(8)
# and modalwatchd.yaml(5) as written in packaging/man (signals, exit status, files, every key),
# dated by the changelog entry.
MAN_DATE="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)"
swift package plugin generate-manual --configuration "$CONFIGURATION" --section 1 --date "$MAN_DATE" >"$WORK/generate-manual.log" 2>&1 \
    || { cat "$WORK/generate-manual.log" >&2; echo "package: generate-manual failed" >&2; exit 1; }
page="$(find .build/plugins -name "*.1" -newer "$WORK/debian/control" | grep '/modalwatch\.1$' || true)"
[ -f "$page" ] || { echo "package: generate-manual wrote no man page for modalwatch(1)" >&2; exit 1; }
install -d "$PKG/usr/share/man/man1" "$PKG/usr/share/man/man5" "$PKG/usr/share/man/man8"
gzip -9n < "$page" > "$PKG/usr/share/man/man1/modalwatch.1.gz"
for written in packaging/man/modalwatchd.8 packaging/man/modalwatchd.yaml.5; do
    section="${written##*.}"
    sed "1s/\"\" \"modalwatch\"/\"$MAN_DATE\" \"modalwatch $VERSION\"/" "$written" \
        | gzip -9n > "$PKG/usr/share/man/man$section/$(basename "$written").gz"
done

# Shell completions, in Debian's places.
install -d "$PKG/usr/share/bash-completion/completions" "$PKG/usr/share/zsh/vendor-completions" "$PKG/usr/share/fish/vendor_completions.d"
for command in modalwatch modalwatchd; do
    # sourced, not run: no #! line
    "$BIN/$command" --generate-completion-script bash | sed '1{/^#!/d}' > "$PKG/usr/share/bash-completion/completions/$command"
    "$BIN/$command" --generate-completion-script zsh > "$PKG/usr/share/zsh/vendor-completions/_$command"
    "$BIN/$command" --generate-completion-script fish > "$PKG/usr/share/fish/vendor_completions.d/$command.fish"
done

install -d "$PKG/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$PKG/usr/share/lintian/overrides/modalwatch"

# Control files: Depends from the ELF files' needs (the private runtime is part of the package).
install -d "$PKG/DEBIAN"
(cd "$WORK" && dpkg-shlibdeps -O -e"$PKG/usr/bin/modalwatchd" -e"$PKG/usr/bin/modalwatch" \
    $(printf -- '-e%s ' "$LIB"/*.so "$LIB"/rules/*.so) 2>"$WORK/shlibdeps.log") > "$WORK/substvars" \
    || { cat "$WORK/shlibdeps.log" >&2; exit 1; }
SHLIBS_DEPENDS="$(sed -n 's/^shlibs:Depends=//p' "$WORK/substvars")"
for wanted in libzmq5 libsqlite3-0 libicu72; do
    grep -q "$wanted" <<<"$SHLIBS_DEPENDS" || { echo "package: dpkg-shlibdeps found no $wanted in: $SHLIBS_DEPENDS" >&2; exit 1; }
done
INSTALLED_SIZE="$(du -sk --apparent-size "$PKG" | cut -f1)"
sed -e "s/@VERSION@/$DEB_VERSION/" -e "s/@DEPENDS@/adduser, $SHLIBS_DEPENDS/" -e "s/@INSTALLED_SIZE@/$INSTALLED_SIZE/" \
    packaging/debian/control.in > "$PKG/DEBIAN/control"
for script in postinst prerm postrm; do install -m 0755 "packaging/debian/$script" "$PKG/DEBIAN/$script"; done
echo "/etc/modalwatch/modalwatchd.yaml" > "$PKG/DEBIAN/conffiles"
(cd "$PKG" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$PKG/DEBIAN/md5sums"
chmod 0644 "$PKG/DEBIAN/control" "$PKG/DEBIAN/conffiles" "$PKG/DEBIAN/md5sums"
find "$PKG" -type d -exec chmod 0755 {} +
find "$PKG" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$DIST"
OUT="$DIST/modalwatch_${DEB_VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Z"$COMPRESSION" --build "$PKG" "$OUT" >&2
echo "$OUT"
