#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a consumer against it
# three ways (find_package shared, find_package static, pkg-config), then
# runs each and the installed CLI. Env (set by ctest): AIRC_BUILD, AIRC_SRC.
set -euo pipefail
: "${AIRC_BUILD:?}" "${AIRC_SRC:?}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/airc-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$AIRC_BUILD" --prefix "$prefix" >"$tmp/install.log" ||
    { cat "$tmp/install.log"; fail "cmake --install"; }

# What a user expects to find in the prefix.
for f in include/airc/airc.h bin/airc; do
    [[ -e $prefix/$f ]] || fail "missing $f in the install tree"
done
libdir=$(dirname "$(find "$prefix" -name 'libairc.so' -print -quit)")
[[ -n $libdir && -e $libdir/libairc.a ]] || fail "libairc.so / libairc.a not installed"
pcdir=$(dirname "$(find "$prefix" -name airc.pc -print -quit)")
[[ -e $pcdir/airc.pc ]] || fail "airc.pc not installed"
cfgdir=$(dirname "$(find "$prefix" -name airc-config.cmake -print -quit)")
[[ -e $cfgdir/airc-config-version.cmake ]] || fail "CMake package config not installed"
[[ -z $(find "$prefix/include" -name '*.h' ! -path '*/airc/*') ]] ||
    fail "headers outside include/airc"

# The graph main.c parses; its printed form must be this text exactly.
cat >"$tmp/expected.txt" <<'TXT'
graph():
    %x_1 : [#users=1] = placeholder[target=x_1]
    %abs_1 : [#users=1] = call_function[target=torch.ops.aten.abs.default](args = (%x_1,), kwargs = {})
    return abs_1
TXT

check_run() { # name, command...
    local name=$1; shift
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        { cat "$tmp/$name.err" >&2; fail "$name exited with $?"; }
    cmp "$tmp/expected.txt" "$tmp/$name.out" ||
        { diff "$tmp/expected.txt" "$tmp/$name.out" >&2 || true; fail "$name printed the wrong text"; }
    echo "ok: $name"
}

# A sanitizer build's library needs the sanitizer in the consumer too.
san=$(sed -n 's/^AIRC_SANITIZE:[A-Z]*=//p' "$AIRC_BUILD/CMakeCache.txt" 2>/dev/null || true)
sanflags=()
[[ -n $san ]] && sanflags=("-fsanitize=$san")

# 1. find_package(airc), shared and static. No LD_LIBRARY_PATH: the build
#    RPATH CMake gives imported libraries must be enough.
cmake -S "$AIRC_SRC/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="${sanflags[*]}" \
    -DCMAKE_EXE_LINKER_FLAGS="${sanflags[*]}" >"$tmp/configure.log" 2>&1 ||
    { cat "$tmp/configure.log"; fail "consumer configure (find_package)"; }
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; fail "consumer build (find_package)"; }
check_run find_package_shared "$tmp/consumer/consumer"
check_run find_package_static "$tmp/consumer/consumer_static"
if ldd "$tmp/consumer/consumer_static" | grep -q libairc; then
    fail "consumer_static depends on libairc.so"
fi

# 2. pkg-config, shared (with the run-time path given explicitly) and static.
export PKG_CONFIG_PATH=$pcdir
cc=${CC:-cc}
read -r -a cflags <<<"$(pkg-config --cflags airc)"
read -r -a libs <<<"$(pkg-config --libs airc)"
"$cc" -std=c11 -Wall -Werror ${sanflags[@]+"${sanflags[@]}"} "${cflags[@]}" "$AIRC_SRC/tests/consumer/main.c" -o "$tmp/pc_shared" \
    "${libs[@]}" -Wl,-rpath,"$libdir" || fail "consumer build (pkg-config)"
check_run pkg_config_shared "$tmp/pc_shared"
read -r -a slibs <<<"$(pkg-config --static --libs airc)"
static_libs=()
for l in "${slibs[@]}"; do
    if [[ $l == -lairc ]]; then static_libs+=("$libdir/libairc.a"); else static_libs+=("$l"); fi
done
"$cc" -std=c11 -Wall -Werror ${sanflags[@]+"${sanflags[@]}"} "${cflags[@]}" "$AIRC_SRC/tests/consumer/main.c" -o "$tmp/pc_static" \
    "${static_libs[@]}" || fail "consumer build (pkg-config --static: Libs.private incomplete?)"
check_run pkg_config_static "$tmp/pc_static"

# 3. The installed CLI finds the installed library by itself ($ORIGIN rpath).
printf '%s\n' "$(cat "$tmp/expected.txt")" >"$tmp/g.fx"
env -u LD_LIBRARY_PATH "$prefix/bin/airc" --version >/dev/null || fail "installed airc --version"
check_run installed_cli env -u LD_LIBRARY_PATH "$prefix/bin/airc" fmt "$tmp/g.fx"
echo "all install checks passed"
