#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.0-or-later
# Installs a build into a temporary prefix and checks it like a user would
# (cmake/install.cmake, docs/building.md):
#   - the files: libringlame.so (+ soname link), libringlame.a, the headers,
#     ringlame.pc, the CMake package, the command, the man page, the
#     drop-in lib/ringlame/libmp3lame.so.0 (and no libmp3lame beside it);
#   - libringlame.so exports ringlame_* only; its SONAME;
#   - a C program calling ringlame_version() builds and runs against it with
#     pkg-config, and with find_package(ringlame) in a throwaway CMake project
#     (shared and static targets).
# Run by CTest (install_layout, label install) with the build's paths:
#   check_install.sh --cmake C --build DIR --cc CC --libdir D --bindir D
#       --includedir D --mandir D --soname libringlame.so.N --version X.Y.Z
#       --sanitized 0|1 --work DIR
# Exit status: 0 pass, 1 fail, 77 skipped after the layout checks passed
# (a sanitizer build, whose objects need the sanitizer runtime in every
# program).
set -euo pipefail

while [ $# -gt 0 ]; do
    case $1 in
    --cmake) CMAKE=$2 ;;      --build) BUILD=$2 ;;   --cc) CC=$2 ;;
    --libdir) LIBDIR=$2 ;;    --bindir) BINDIR=$2 ;; --includedir) INCDIR=$2 ;;
    --mandir) MANDIR=$2 ;;    --soname) SONAME=$2 ;; --version) VERSION=$2 ;;
    --sanitized) SANITIZED=$2 ;; --work) WORK=$2 ;;
    *) echo "check_install: unknown argument $1" >&2; exit 1 ;;
    esac
    shift 2
done

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# the tree goes exactly where we look: no staging directory
unset DESTDIR
rm -rf "$WORK"
mkdir -p "$WORK"
PREFIX=$WORK/prefix
# relative install dirs are under the prefix; absolute ones would escape it
for d in "$LIBDIR" "$BINDIR" "$INCDIR" "$MANDIR"; do
    case $d in /*) echo "SKIP: absolute install directory $d"; exit 77 ;; esac
done

echo "== cmake --install $BUILD --prefix $PREFIX"
"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log" 2>&1 \
    || { cat "$WORK/install.log"; echo "FAIL: cmake --install"; exit 1; }

# ---- the files ----
LIB=$PREFIX/$LIBDIR
SO=$LIB/libringlame.so
for f in "$SO" "$LIB/$SONAME" "$LIB/libringlame.so.$VERSION" "$LIB/libringlame.a" \
         "$PREFIX/$INCDIR/ringlame/ringlame.h" "$PREFIX/$INCDIR/ringlame/version.h" \
         "$LIB/pkgconfig/ringlame.pc" \
         "$LIB/cmake/ringlame/ringlameConfig.cmake" \
         "$LIB/cmake/ringlame/ringlameConfigVersion.cmake" \
         "$LIB/cmake/ringlame/ringlameTargets.cmake" \
         "$PREFIX/$BINDIR/ringlame" "$LIB/ringlame/libmp3lame.so.0"; do
    [ -e "$f" ] && ok "${f#"$PREFIX"/}" || fail "missing ${f#"$PREFIX"/}"
done
# the drop-in libmp3lame lives in a directory of its own, never beside
# the system's libraries
[ ! -e "$LIB/libmp3lame.so.0" ] && [ ! -e "$LIB/ringlame/libmp3lame.so" ] \
    && ok "libmp3lame.so.0 in ${LIB#"$PREFIX"/}/ringlame only" \
    || fail "a libmp3lame outside ${LIB#"$PREFIX"/}/ringlame, or a link-time libmp3lame.so"
if [ -f "$BUILD/man/ringlame.1" ]; then
    f=$PREFIX/$MANDIR/man1/ringlame.1
    [ -f "$f" ] && ok "${f#"$PREFIX"/}" || fail "missing ${f#"$PREFIX"/}"
else
    echo "note: no man page in the build (python3 was missing at configure time)"
fi
[ -L "$SO" ] && [ -L "$LIB/$SONAME" ] && ok "libringlame.so -> $SONAME -> libringlame.so.$VERSION" \
    || fail "libringlame.so and $SONAME should be symbolic links"
grep -q "RINGLAME_VERSION_STRING \"$VERSION\"" "$PREFIX/$INCDIR/ringlame/version.h" \
    && ok "version.h says $VERSION" || fail "version.h does not define RINGLAME_VERSION_STRING \"$VERSION\""
# the export names no internal target (rl_*)
if grep -h 'INTERFACE_' "$LIB"/cmake/ringlame/ringlameTargets*.cmake | grep -E '(^|[";])rl_'; then
    fail "the CMake export names internal rl_* targets"
else
    ok "the CMake export names no internal target"
fi
"$PREFIX/$BINDIR/ringlame" --version >/dev/null 2>&1 && ok "bin/ringlame --version" \
    || fail "bin/ringlame --version fails"

# ---- exported symbols and soname ----
if [ -e "$SO" ]; then
    syms=$(nm -D --defined-only "$SO" | awk '{print $NF}')
    # what the linker itself may define in any shared object
    bad=$(printf '%s\n' "$syms" | grep -vE '^(ringlame_.*|_init|_fini|_edata|_end|__bss_start|_DYNAMIC|_GLOBAL_OFFSET_TABLE_)$' \
          | grep -v '^$' || true)
    if [ -n "$bad" ]; then
        fail "libringlame.so exports symbols outside ringlame_*:"
        printf '    %s\n' $bad | head -20
    else
        ok "libringlame.so exports $(printf '%s\n' "$syms" | grep -c '^ringlame_' || true) ringlame_* symbols and nothing else"
    fi
    soname=$(objdump -p "$SO" | awk '$1 == "SONAME" {print $2}')
    [ "$soname" = "$SONAME" ] && ok "SONAME $soname" || fail "SONAME is '$soname', not $SONAME"
fi

if [ $fails -ne 0 ]; then
    echo "$fails failed"
    exit 1
fi

# ---- programs built against the installed library ----
if ! printf '%s\n' "$syms" | grep -qx ringlame_version; then
    fail "libringlame.so does not export ringlame_version (src/Api/api_settings.c)"
fi
if [ "$SANITIZED" = 1 ]; then
    echo "SKIP: sanitizer build: programs linking it need the sanitizer runtime;"
    echo "      the layout checks passed"
    exit 77
fi

cat >"$WORK/consumer.c" <<'C'
/* SPDX-License-Identifier: LGPL-2.0-or-later */
#include <stdio.h>
#include <string.h>
#include <ringlame/ringlame.h>

int main(void)
{
    const char *v = ringlame_version();
    if (!v || strcmp(v, RINGLAME_VERSION_STRING) != 0) {
        fprintf(stderr, "ringlame_version() = %s, header %s\n", v ? v : "(null)",
                RINGLAME_VERSION_STRING);
        return 1;
    }
    printf("ringlame %s\n", v);
    return 0;
}
C

echo "== pkg-config"
export PKG_CONFIG_PATH=$LIB/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
if ! command -v pkg-config >/dev/null; then
    fail "pkg-config is not installed"
elif ! flags=$(pkg-config --cflags --libs ringlame); then
    fail "pkg-config --cflags --libs ringlame"
else
    [ "$(pkg-config --modversion ringlame)" = "$VERSION" ] && ok "pkg-config --modversion: $VERSION" \
        || fail "pkg-config --modversion ringlame is not $VERSION"
    # shellcheck disable=SC2086
    if "$CC" -std=c11 -Wall -Wextra -Werror -o "$WORK/consumer_pc" "$WORK/consumer.c" $flags; then
        out=$(LD_LIBRARY_PATH=$LIB "$WORK/consumer_pc") && ok "pkg-config program: $out" \
            || fail "the pkg-config program fails: $out"
        ldd_out=$(LD_LIBRARY_PATH=$LIB ldd "$WORK/consumer_pc" 2>&1 || true)
        printf '%s\n' "$ldd_out" | grep -q "$SONAME => $LIB/" && ok "it loads $LIB/$SONAME" \
            || fail "the pkg-config program does not load $LIB/$SONAME"
    else
        fail "cc consumer.c \$(pkg-config --cflags --libs ringlame)"
    fi
fi

echo "== find_package(ringlame)"
mkdir -p "$WORK/cmake-consumer"
cat >"$WORK/cmake-consumer/CMakeLists.txt" <<'CM'
# SPDX-License-Identifier: LGPL-2.0-or-later
cmake_minimum_required(VERSION 3.16)
project(ringlame_consumer LANGUAGES C)
find_package(ringlame ${RL_EXPECT_VERSION} EXACT REQUIRED)
add_executable(consumer_shared ../consumer.c)
target_link_libraries(consumer_shared PRIVATE ringlame::ringlame)
add_executable(consumer_static ../consumer.c)
target_link_libraries(consumer_static PRIVATE ringlame::ringlame_static)
CM
if "$CMAKE" -S "$WORK/cmake-consumer" -B "$WORK/cmake-consumer/build" \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_PREFIX_PATH="$PREFIX" -DRL_EXPECT_VERSION="$VERSION" \
        >"$WORK/cmake-consumer.log" 2>&1 \
   && "$CMAKE" --build "$WORK/cmake-consumer/build" >>"$WORK/cmake-consumer.log" 2>&1; then
    ok "find_package(ringlame $VERSION) project builds"
    for t in shared static; do
        out=$("$WORK/cmake-consumer/build/consumer_$t") && ok "ringlame::ringlame$([ $t = static ] && echo _static) program: $out" \
            || fail "consumer_$t fails: $out"
    done
    # the shared one runs from its RPATH (CMake's build tree), no LD_LIBRARY_PATH
    if ldd "$WORK/cmake-consumer/build/consumer_static" | grep -q libringlame; then
        fail "consumer_static loads libringlame.so"
    fi
else
    cat "$WORK/cmake-consumer.log"
    fail "find_package(ringlame) project"
fi

if [ $fails -ne 0 ]; then
    echo "$fails failed"
    exit 1
fi
echo "0 failed"
