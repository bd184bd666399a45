#!/usr/bin/env bash
# `cpack -G DEB` from the build directory makes smtop_<version>_<arch>.deb:
# dpkg-deb -c lists the binary under /usr/bin, the man page, both
# completions, the themes and the schema; dpkg-deb -f Depends names the
# package of every shared library the binary links (found independently
# with objdump and dpkg -S); the unpacked binary runs and finds its themes.
set -o pipefail
: "${SMTOP:?}" "${SMTOP_SRC:?}" "${SMTOP_BUILD:?}"
source "$(dirname "$0")/it_lib.sh"
for tool in cpack dpkg-deb dpkg-shlibdeps objdump; do
  command -v "$tool" >/dev/null ||
    { echo "SKIPPED: $tool not found (a Debian machine with dpkg-dev and binutils)"; exit 77; }
done
export XDG_CONFIG_HOME="$T/config"

(cd "$SMTOP_BUILD" && cpack -G DEB -B "$T/pkg") >"$T/cpack.log" 2>&1 ||
  { echo "FAIL: cpack -G DEB: $(tail -20 "$T/cpack.log")"; exit 1; }
version=$("$SMTOP" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
deb="$T/pkg/smtop_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "FAIL: no $deb: $(ls "$T/pkg")"; exit 1; }

dpkg-deb -c "$deb" | awk '{print $NF}' >"$T/contents"
want=(./usr/bin/smtop ./usr/share/smtop/report.schema.json ./usr/share/smtop/jobs.schema.json
      ./usr/share/bash-completion/completions/smtop ./usr/share/zsh/site-functions/_smtop
      ./usr/share/doc/smtop/copyright)
command -v scdoc >/dev/null && want+=(./usr/share/man/man1/smtop.1)
for t in "$SMTOP_SRC"/themes/*.theme; do want+=("./usr/share/smtop/themes/$(basename "$t")"); done
for f in "${want[@]}"; do grep -qx -- "$f" "$T/contents" || fail "package lacks $f"; done
# and nothing else: every file (not directory) in the package is one of them
extra=$(grep -v '/$' "$T/contents" | grep -vxF -f <(printf '%s\n' "${want[@]}"))
[ -z "$extra" ] || fail "unexpected files in the package: $extra"

[ "$(dpkg-deb -f "$deb" Package)" = smtop ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version)"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "Architecture"
grep -q SageMaker <<<"$(dpkg-deb -f "$deb" Description)" || fail "Description"

# Depends: the package owning each NEEDED library.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
objdump -p "$SMTOP" | awk '/NEEDED/ {print $2}' >"$T/needed"
[ -s "$T/needed" ] || fail "objdump found no NEEDED libraries"
ldd "$SMTOP" >"$T/ldd"    # where the loader finds each one, for this architecture
while read -r lib; do
  path=$(awk -v l="$lib" '$1 == l && $2 == "=>" {print $3; exit}' "$T/ldd")
  [ -n "$path" ] || { fail "ldd does not resolve $lib"; continue; }
  real=$(readlink -f "$path")
  pkg=$(dpkg -S "$real" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$pkg" ] || { fail "no package owns $path ($lib)"; continue; }
  grep -qE "(^|, )$pkg( \(|,|\$)" <<<"$depends" || fail "Depends lacks $pkg for $lib"
done <"$T/needed"
# the libraries smtop is built on, each with the minimum version shlibdeps
# found (a sanitizer build adds libasan/libubsan, which carry none)
for p in libncursesw6 libcurl4 libjansson4 libzstd1 zlib1g libisal2 libc6; do
  grep -qE "(^|, )$p \(>= [^)]+\)" <<<"$depends" || fail "Depends lacks '$p (>= ...)'"
done

# the unpacked tree is a working install: binary, themes relative to it
dpkg-deb -x "$deb" "$T/root"
"$T/root/usr/bin/smtop" --version | grep -q "^smtop $version" || fail "unpacked smtop --version"
printf 'title = "#00ff00"\n' >"$T/root/usr/share/smtop/themes/from-deb.theme"
"$T/root/usr/bin/smtop" --complete --theme | grep -qx from-deb ||
  fail "unpacked smtop does not find usr/share/smtop/themes"
it_done
