#!/usr/bin/env bash
# Builds the Apple fixtures from Sources/ into bin/: a C + Objective-C program for arm64 and x86_64 macOS,
# compiled with the Swift toolchain's clang, linked with Debian's ld64.lld (lld-14), dSYMs from dsymutil
# (llvm-14), and a universal binary and dSYM from llvm-lipo. The built files are committed.
# Paths: -fdebug-prefix-map keeps the build directory out of the DWARF, -oso_prefix out of the debug map.
set -euo pipefail
cd "$(dirname "$0")/Sources"
here=$PWD
out=../bin
llvm=/usr/lib/llvm-14/bin
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT

for arch in arm64 x86_64; do
  for source in sensors.c Widget.m; do
    $clang -target $arch-apple-macos11 -O2 -g -fdebug-prefix-map="$here=." -c $source -o "$work/${source%.*}-$arch.o"
  done
  (cd "$work" && ZERO_AR_DATE=1 $llvm/ld64.lld -arch $arch -platform_version macos 11.0 11.0 -undefined dynamic_lookup \
     -oso_prefix "$work/" -o App-$arch sensors-$arch.o Widget-$arch.o)
  (cd "$work" && $llvm/dsymutil App-$arch -o App-$arch.dSYM)
  cp "$work/App-$arch" "$out/App-$arch"
  cp -R "$work/App-$arch.dSYM" "$out/App-$arch.dSYM"
done

# arm64e: the C program compiled for arm64e (pointer authentication) and linked by lld-14, which takes arm64e objects but
# labels what it writes plain arm64 (cpusubtype 0); the header is given the subtype Apple's ld64 writes for arm64e
# (CPU_SUBTYPE_ARM64E with the pointer-authentication ABI bit, 0x80000002) before dsymutil copies it into the dSYM.
$clang -target arm64e-apple-macos11 -O2 -g -fdebug-prefix-map="$here=." -c sensors.c -o "$work/sensors-arm64e.o"
(cd "$work" && ZERO_AR_DATE=1 $llvm/ld64.lld -arch arm64e -platform_version macos 11.0 11.0 -undefined dynamic_lookup \
   -oso_prefix "$work/" -o Sensors-arm64e sensors-arm64e.o)
python3 - "$work/Sensors-arm64e" <<'PY'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
magic, cputype, subtype = struct.unpack_from("<IiI", data, 0)
assert magic == 0xFEEDFACF and cputype == 0x0100000C, "not a 64-bit arm64 Mach-O"
struct.pack_into("<I", data, 8, 0x80000002)
open(path, "wb").write(data)
PY
(cd "$work" && $llvm/dsymutil Sensors-arm64e -o Sensors-arm64e.dSYM)
cp "$work/Sensors-arm64e" "$out/Sensors-arm64e"
cp -R "$work/Sensors-arm64e.dSYM" "$out/Sensors-arm64e.dSYM"
# A universal binary of that arm64e slice and the arm64 App: two slices of one CPU type, told apart by subtype.
$llvm/llvm-lipo -create "$out/App-arm64" "$out/Sensors-arm64e" -output "$out/Arm64AndArm64e"

# 32-bit objects (armv7 for iOS, i386 for macOS), to identify.
$clang -target armv7-apple-ios9 -O2 -g -fdebug-prefix-map="$here=." -c sensors.c -o "$out/sensors-armv7.o"
$clang -target i386-apple-macos10.13 -O2 -g -fdebug-prefix-map="$here=." -c sensors.c -o "$out/sensors-i386.o"

# Universal (fat) binary and dSYM.
$llvm/llvm-lipo -create "$out/App-arm64" "$out/App-x86_64" -output "$out/App"
mkdir -p "$out/App.dSYM/Contents/Resources/DWARF"
cp "$out/App-arm64.dSYM/Contents/Info.plist" "$out/App.dSYM/Contents/Info.plist"
$llvm/llvm-lipo -create "$out/App-arm64.dSYM/Contents/Resources/DWARF/App-arm64" \
  "$out/App-x86_64.dSYM/Contents/Resources/DWARF/App-x86_64" -output "$out/App.dSYM/Contents/Resources/DWARF/App"

if grep -rl -e "$here" -e "$work" "$out"; then echo "build.sh: a machine path leaked into the files above" >&2; exit 1; fi
find "$out" -type f | sort | xargs ls -la
