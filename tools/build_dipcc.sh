#!/usr/bin/env bash
# Build dipcc's Game (Meta's C++ Diplomacy engine behind Cicero) as a Python module, without
# torch, to compare diplo's drop-in (diplo.compat.dipcc) with dipcc itself.
#
# Usage: tools/build_dipcc.sh SOURCES [OUT_DIR]
#   SOURCES  a copy of facebookresearch/diplomacy_cicero (its dipcc/ folder is compiled)
#   OUT_DIR  where dipcc_core*.so is written (default: SOURCES/dipcc/build-diplo)
# Needs: a C++17 compiler, glog's headers and library (Debian: libgoogle-glog-dev) and
# pybind11's headers (PyPI: pybind11; the script looks in PYBIND11_INCLUDE, then asks the
# Python given as PYTHON, default python3). Then:
#   PYTHONPATH=OUT_DIR DIPCC_SOURCES=SOURCES python -m pytest tests/test_compat_dipcc_oracle.py
#
# What is left out: dipcc's pybind.cc and its encoders (data_fields, orders_encoder,
# thread_pool) include torch. The module built here binds only Game
# (tools/dipcc/core_bindings.cc), so this comparison covers the game (boards, possible orders,
# orderable locations, JSON) and the board encoder; tools/build_dipcc_torch.sh builds dipcc
# whole, ThreadPool included, against a torch from PyPI, for the encoders.
set -euo pipefail
SOURCES=${1:?usage: tools/build_dipcc.sh SOURCES [OUT_DIR]}
SRC="$SOURCES/dipcc"
OUT=${2:-$SRC/build-diplo}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
[ -f "$SRC/dipcc/cc/game.cc" ] || { echo "no dipcc sources in $SRC" >&2; exit 2; }
PYB=${PYBIND11_INCLUDE:-$("$PY" -c 'import pybind11; print(pybind11.get_include())')}
PYINC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
EXT=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
mkdir -p "$OUT"
CC_FILES=()
for f in "$SRC"/dipcc/cc/*.cc "$SRC"/dipcc/pybind/*.cc; do
  case "$(basename "$f")" in
    data_fields.cc|orders_encoder.cc|thread_pool.cc|pybind.cc|py_cfrstats.cc|cfrstats.cc) ;;
    *) CC_FILES+=("$f") ;;
  esac
done
echo "compiling ${#CC_FILES[@]} dipcc sources and the bindings (a few minutes)" >&2
c++ -O2 -DNDEBUG -std=c++17 -shared -fPIC -w -I"$SRC" -I"$PYB" -I"$PYINC" \
  "${CC_FILES[@]}" "$HERE/dipcc/core_bindings.cc" -lglog -lpthread \
  -o "$OUT/dipcc_core$EXT"
echo "$OUT/dipcc_core$EXT"
