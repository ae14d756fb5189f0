#!/usr/bin/env bash
# Build dipcc's own Python module, pydipcc (Meta's C++ Diplomacy engine behind Cicero, with its
# ThreadPool encoders), against a torch from PyPI, to compare diplo.compat.dipcc's encoders
# with dipcc's ThreadPool itself (tests/test_compat_dipcc_encode_oracle.py) and to time them
# side by side (benches/test_bench_dipcc_encode.py).
#
# Usage: tools/build_dipcc_torch.sh SOURCES [OUT_DIR]
#   SOURCES  a copy of facebookresearch/diplomacy_cicero (its dipcc/ folder is compiled whole:
#            every file of dipcc/cc and dipcc/pybind, as its CMakeLists.txt does, unchanged)
#   OUT_DIR  where pydipcc*.so is written (default: SOURCES/dipcc/build-diplo-torch)
# Needs: a C++20 compiler (torch 2.10 and later require C++20), glog (Debian: libgoogle-glog-dev), and PYTHON (default python3)
# with torch installed. Keep torch out of diplo's own environment: a separate venv serves,
#   python3.11 -m venv /work/venv-torch
#   /work/venv-torch/bin/pip install torch numpy pytest hypothesis   # PyPI's torch: ~5.4 GB
# (PyPI's Linux torch wheel brings CUDA's libraries; they are not used: everything runs on the
# CPU). The module is compiled with torch's own pybind11 headers (those torch/include ships),
# so that its torch::Tensor arguments and results cross into Python as torch tensors. Then:
#   PYTHONPATH=$PWD/python:OUT_DIR /work/venv-torch/bin/python -m pytest \
#       tests/test_compat_dipcc_encode_oracle.py
# diplo itself is not installed in that venv: PYTHONPATH=python uses the checkout's build.
set -euo pipefail
SOURCES=${1:?usage: tools/build_dipcc_torch.sh SOURCES [OUT_DIR]}
SRC="$SOURCES/dipcc"
OUT=${2:-$SRC/build-diplo-torch}
PY=${PYTHON:-python3}
[ -f "$SRC/dipcc/cc/thread_pool.cc" ] || { echo "no dipcc sources in $SRC" >&2; exit 2; }
TORCH=$("$PY" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
ABI=$("$PY" -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')
PYINC=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
EXT=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
mkdir -p "$OUT/obj"
FLAGS=(-O3 -DNDEBUG -std=c++20 -fPIC -w -D_GLIBCXX_USE_CXX11_ABI="$ABI"
  -DTORCH_EXTENSION_NAME=pydipcc -DTORCH_API_INCLUDE_EXTENSION_H
  -I"$SRC" -I"$TORCH/include" -I"$TORCH/include/torch/csrc/api/include" -I"$PYINC")
export OUT
export FLAGS_STR="${FLAGS[*]}"
echo "compiling dipcc with torch $("$PY" -c 'import torch; print(torch.__version__)') (several minutes)" >&2
# one object per source, JOBS at a time (default 2), so a rebuild after a failure is quick
ls "$SRC"/dipcc/cc/*.cc "$SRC"/dipcc/pybind/*.cc | xargs -P "${JOBS:-2}" -I{} bash -c '
  f={}; o="$OUT/obj/$(basename "$(dirname "$f")")_$(basename "$f" .cc).o"
  [ -f "$o" ] && [ "$o" -nt "$f" ] && exit 0
  c++ $FLAGS_STR -c "$f" -o "$o" || { echo "failed: $f" >&2; exit 255; }'
c++ -shared "$OUT"/obj/*.o -L"$TORCH/lib" -Wl,-rpath,"$TORCH/lib" \
  -ltorch_python -ltorch -ltorch_cpu -lc10 -lglog -lpthread -o "$OUT/pydipcc$EXT"
echo "$OUT/pydipcc$EXT"
