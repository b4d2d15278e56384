#!/usr/bin/env bash
# The Python binding's tests (python/tests, unittest) against this build's
# libairc.so, with the system Python (Debian's python3-numpy/python3-torch).
# Env (set by ctest): AIRC_BUILD, AIRC_SRC. scripts/setup.sh installs the
# system Python with numpy and torch, so a missing one fails the test.
set -uo pipefail
: "${AIRC_BUILD:?}" "${AIRC_SRC:?}"
PY=${AIRC_PYTHON:-/usr/bin/python3}
if ! [ -x "$PY" ]; then
    echo "FAIL: no $PY (scripts/setup.sh installs python3-numpy and python3-torch)" >&2
    exit 1
fi
export PYTHONDONTWRITEBYTECODE=1
export AIRC_LIBRARY=$AIRC_BUILD/lib/libairc.so
cd "$AIRC_SRC" || exit 1
exec "$PY" -m unittest discover -s python/tests -v
