#!/usr/bin/env bash
# Builds the Apple sample: App, an arm64 macOS program (CrashExample.m) compiled with the Swift toolchain's clang
# and linked with Debian's ld64.lld (lld-14), its dSYM from dsymutil (llvm-14), and App.ips and App.crash, the
# reports of its crash, composed by compose.py (this machine cannot run a macOS program: see compose.py for
# what is real in them). The built files are committed; rebuilding needs `apt-get install lld-14 llvm-14`.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
llvm=/usr/lib/llvm-14/bin
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT

$clang -target arm64-apple-macos11 -O2 -g -fdebug-prefix-map="$here=." -c CrashExample.m -o "$work/CrashExample.o"
(cd "$work" && ZERO_AR_DATE=1 $llvm/ld64.lld -arch arm64 -platform_version macos 11.0 11.0 -undefined dynamic_lookup \
   -oso_prefix "$work/" -o App CrashExample.o && $llvm/dsymutil App -o App.dSYM)
rm -rf App App.dSYM
cp "$work/App" App
cp -R "$work/App.dSYM" App.dSYM
python3 compose.py App App.dSYM/Contents/Resources/DWARF/App CrashExample.m template-macos13-nsrangeexception.ips .

if grep -rl -e "$here" -e "$work" App App.dSYM App.ips App.crash; then echo "build.sh: a machine path leaked into the files above" >&2; exit 1; fi
cat App.crash
