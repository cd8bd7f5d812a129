#!/usr/bin/env bash
# Builds the resolver's test fixtures from Sources/ into bin/.
# The built binaries are committed, so tests need no compiler; rerun this script after changing a source.
# Every compiler gets a debug prefix map, so no path of the build machine lands in a binary.
set -euo pipefail
cd "$(dirname "$0")/Sources"
here=$PWD
out=../bin
rm -rf "$out" && mkdir -p "$out"

clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
clang="$clang -Wl,--build-id"
map="-fdebug-prefix-map=$here=."

# C: gcc (DWARF 5 by default) and clang (DWARF 4), inlined helpers.
gcc     -O2 -g            $map sensors.c -o $out/sensors-gcc-dwarf5
$clang  -O2 -gdwarf-4     $map sensors.c -o $out/sensors-clang-dwarf4
$clang  -O2 -gdwarf-5     $map sensors.c -o $out/sensors-clang-dwarf5
# The oldest versions: DWARF 2 and 3.
gcc     -O2 -gdwarf-2 -gstrict-dwarf $map sensors.c -o $out/sensors-gcc-dwarf2
gcc     -O2 -gdwarf-3     $map sensors.c -o $out/sensors-gcc-dwarf3
# Compressed debug sections (SHF_COMPRESSED).
gcc     -O2 -gdwarf-4 -gz $map sensors.c -o $out/sensors-gcc-dwarf4-gz
$clang  -O2 -g -gz=zlib   $map sensors.c -o $out/sensors-clang-gz

# C++: templates, namespaces, lambdas.
g++     -O2 -g            $map inventory.cpp -o $out/inventory-gcc
${clang/clang /clang++ } -O2 -g           $map inventory.cpp -o $out/inventory-clang 2>/dev/null || \
  $clang -x c++ -O2 -g    $map inventory.cpp -o $out/inventory-clang -lstdc++

# Type units (.debug_types in DWARF 4, DW_UT_type units in DWARF 5) and split DWARF (skeleton units
# whose DIEs live in a .dwo): these must not break anything.
g++     -O2 -gdwarf-4 -fdebug-types-section $map inventory.cpp -o $out/inventory-gcc-typeunits4
g++     -O2 -gdwarf-5 -fdebug-types-section $map inventory.cpp -o $out/inventory-gcc-typeunits5
gcc     -O2 -g -gsplit-dwarf $map sensors.c -o $out/sensors-split-dwarf
rm -f sensors.dwo sensors-split-dwarf-sensors.dwo *.dwo

# A shared library.
$clang  -O2 -g -fPIC -shared $map geometry.c -o $out/libgeometry.so -lm

# Swift, optimised and not (each build differs only in its .swift_modhash and so its build-id). The serialized module (.swift_ast) would record the build directory: keep its options out.
swiftmap="-debug-prefix-map $here=. -file-compilation-dir . -Xfrontend -no-serialize-debugging-options"
swiftc -O     -g $swiftmap Shapes.swift -o $out/shapes-swift-O
swiftc -Onone -g $swiftmap Shapes.swift -o $out/shapes-swift-Onone
rm -rf $out/*.swiftmodule $out/*.swiftdoc $out/*.swiftsourceinfo

# Stripped binaries with separate debug files:
# - found through .gnu_debuglink in .debug/ beside the binary (verified by CRC);
# - found by build-id under a debug root (debug-root/.build-id/xx/rest.debug).
strip_into() {  # binary, debug file
  objcopy --only-keep-debug "$1" "$2"
  objcopy --strip-debug --strip-unneeded --add-gnu-debuglink="$2" "$1" "$1.stripped"
  mv "$1.stripped" "$1"
}
mkdir -p $out/.debug
cp $out/sensors-gcc-dwarf5 $out/sensors-stripped
(cd $out && strip_into sensors-stripped .debug/sensors-stripped.debug)

cp $out/inventory-gcc $out/inventory-stripped
(cd $out && strip_into inventory-stripped inventory-stripped.debug)
id=$(readelf -n $out/inventory-stripped | awk '/Build ID/ {print $3}')
mkdir -p $out/debug-root/.build-id/${id:0:2}
mv $out/inventory-stripped.debug $out/debug-root/.build-id/${id:0:2}/${id:2}.debug

# Damaged DWARF: a DIE that names itself as its sibling (a walk that follows it never ends).
../sibling-cycle.py $out/sensors-gcc-dwarf5 $out/sensors-sibling-cycle

if grep -rl "$here" $out; then echo "build.sh: a machine path leaked into the files above" >&2; exit 1; fi
ls -la $out
