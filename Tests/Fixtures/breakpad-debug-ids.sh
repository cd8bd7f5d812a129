#!/usr/bin/env bash
# Writes Tests/Fixtures/breakpad-debug-ids.txt: the Breakpad debug id Mozilla's dump_syms 2.3.5 gives each committed
# binary in its MODULE line (`PATH ARCH DEBUGID`), vectors of another implementation that ObjectFilesTests holds
# postmortem's own reckoning to. Needs the oracles of Tests/install-oracles.sh (make test installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
dump_syms=.build/oracles/bin/dump_syms
[ -x "$dump_syms" ] || Tests/install-oracles.sh >/dev/null
out=Tests/Fixtures/breakpad-debug-ids.txt
{
  echo "# PATH ARCH DEBUGID, as dump_syms 2.3.5 writes the debug id in its MODULE line (Tests/Fixtures/breakpad-debug-ids.sh)."
  for path in Tests/Fixtures/bin/{inventory-clang,inventory-gcc,inventory-gcc-typeunits5,libgeometry.so,sensors-clang-dwarf4,sensors-clang-dwarf5,sensors-gcc-dwarf2,sensors-gcc-dwarf5,sensors-stripped,shapes-swift-O,shapes-swift-Onone} \
              SampleCrashes/linux-c-signal/{app,app-nopie,libsens.so} SampleCrashes/linux-c-sensors/sensors \
              SampleCrashes/linux-swift-backtrace/{inventory,pipeline} SampleCrashes/linux-groups/{ledger,tally}; do
    read -r _ _ arch id _ < <((cd "$(mktemp -d)" && "$OLDPWD/$dump_syms" "$OLDPWD/$path" 2>/dev/null) | head -1)
    echo "$path $arch $id"
  done
  for arch in arm64 x86_64; do
    read -r _ _ _ id _ < <((cd "$(mktemp -d)" && "$OLDPWD/$dump_syms" --arch "$arch" "$OLDPWD/Tests/Fixtures/Apple/bin/App" 2>/dev/null) | head -1)
    echo "Tests/Fixtures/Apple/bin/App $arch $id"
  done
  read -r _ _ _ id _ < <((cd "$(mktemp -d)" && "$OLDPWD/$dump_syms" --arch arm64 "$OLDPWD/SampleCrashes/apple-objc-arm64/App" 2>/dev/null) | head -1)
  echo "SampleCrashes/apple-objc-arm64/App arm64 $id"
} > "$out"
