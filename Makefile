# Postmortem: set up, build, demo and test. README's quick start is `make demo` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages: the libraries Postmortem links, and the tools the tests compare against.
BUILD_PACKAGES := libdwarf-dev libelf-dev zlib1g-dev liblzma-dev libzstd-dev libdeflate-dev libssl-dev
TEST_PACKAGES  := llvm binutils gdb dwz curl time libc6-dbg gcc g++ man-db debuginfod elfutils gcc-aarch64-linux-gnu qemu-user gdb-multiarch lldb-14 xz-utils zstd zsh fish openssl python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
POSTMORTEM := .build/release/postmortem
# The release build is made for start-up, since most runs answer a few addresses (docs/PERFORMANCE.md, "The release
# build", has the figures): the Swift runtime and Foundation linked statically; where glibc reads packed relative
# relocations (DT_RELR, glibc 2.36 and later) and the toolchain has lld, relocations packed, since every run reads them.
SWIFT_BIN := $(shell dirname "$$(readlink -f "$$(command -v swiftc)")" 2>/dev/null)
GLIBC_HAS_RELR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ split($$2, v, "."); if (v[1] > 2 || (v[1] == 2 && v[2] >= 36)) print "yes" }')
RELR_FLAGS := $(if $(and $(GLIBC_HAS_RELR),$(wildcard $(SWIFT_BIN)/ld.lld)),-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
# With lld, the functions typical runs execute are laid out side by side (Benchmarks/link-order.txt, written by
# `make link-order`): the kernel maps code in 64 KB blocks, so scattered functions keep far more of it resident. Every
# function gets a section of its own, so that the linker can place it.
LINK_ORDER_FLAGS := $(if $(RELR_FLAGS),-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Benchmarks/link-order.txt -Xlinker --no-warn-symbol-ordering)
# With lld, the release binary is a static executable: no dynamic loader, no shared libraries to map and bind (the
# .a files come with Debian's -dev packages). glibc's warning that getpwnam and dlopen need its shared libraries at run
# time is about calls in FoundationEssentials and the Swift runtime that no path of postmortem makes.
STATIC_FLAGS := $(if $(RELR_FLAGS),-Xswiftc -static-executable -Xlinker -lz -Xlinker -llzma -Xlinker -lzstd -Xlinker -ldeflate)
# Generic types are instantiated through direct metadata calls, not by mangled name: a name has the runtime look up
# each generic requirement's conformance by scanning every conformance record of the binary, which was a sixth of a
# small run (docs/PERFORMANCE.md, "Minidumps").
METADATA_FLAGS := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
RELEASE_FLAGS := -c release --static-swift-stdlib $(STATIC_FLAGS) $(RELR_FLAGS) $(LINK_ORDER_FLAGS) $(METADATA_FLAGS)
# postmortem, and the server `postmortem serve` hands over to, installed beside it (a program of its own, so that its
# HTTP libraries cost the command line nothing).
BUILD_RELEASE := swift build $(RELEASE_FLAGS) --product postmortem && swift build $(RELEASE_FLAGS) --product postmortem-server
SAMPLE := SampleCrashes/linux-c-sensors
APPLE_SAMPLE := SampleCrashes/apple-objc-arm64

# llvm-symbolizer for the differential tests: the Swift toolchain's (LLVM 21) when present, else Debian's.
LLVM_SYMBOLIZER ?= $(shell if [ -x "$(SWIFT_BIN)/llvm-symbolizer" ]; then echo "$(SWIFT_BIN)/llvm-symbolizer"; else command -v llvm-symbolizer; fi)
export LLVM_SYMBOLIZER

.PHONY: demo test test-times build release setup setup-test check-setup format fixtures bench bench-logs bench-serve malformed corpus fuzz test-asan clean link-order install man

# Installs what is missing for the project and its tests (apt-get, through sudo when not root; the oracles from the
# Python package index), builds, and symbolicates a sample.
demo: setup setup-test
	$(BUILD_RELEASE)
	@echo "== $(SAMPLE)/crash.txt, a real crash of $(SAMPLE)/sensors (a stripped PIE):"
	@cat $(SAMPLE)/crash.txt
	@echo
	@echo "== postmortem symbolicate $(SAMPLE)/crash.txt (the debug file is found through .gnu_debuglink):"
	@$(POSTMORTEM) symbolicate $(SAMPLE)/crash.txt
	@echo
	@echo "== postmortem symbolicate $(APPLE_SAMPLE)/App.crash (an arm64 macOS app; its dSYM is found by UUID beside the log):"
	@$(POSTMORTEM) symbolicate $(APPLE_SAMPLE)/App.crash | sed -n '/^Last Exception Backtrace:/,/^Thread 0 crashed with/p'

# Checks that what the tests need is installed (it installs nothing: `make setup setup-test` does), that the public
# declarations are documented and listed in docs/API.txt, the sources laid out as `.swift-format` says and commit
# messages a short subject and a body, runs the whole suite, then the CLI suites of RELEASE_SMOKE
# again on the release binary (a static executable, as `make demo` and the benchmarks run it).
test: check-setup
	@echo "llvm-symbolizer for differential tests: $(LLVM_SYMBOLIZER)"
	.ci/public-docs.py
	.ci/public-docs.py --check-api
	swift format lint --strict --recursive --parallel $(FORMATTED)
	.ci/commit-messages.py
	swift build --build-tests
	swift test --skip-build
	$(BUILD_RELEASE)
	POSTMORTEM_EXECUTABLE=$(CURDIR)/$(POSTMORTEM) swift test --skip-build --filter '$(RELEASE_SMOKE)'
	Tests/install-check.sh

build: setup
	swift build

# The release binary, .build/release/postmortem, as the demo, the benchmarks and the malformed-input check use it.
release: setup
	$(BUILD_RELEASE)

# The CLI suites run again on the release binary (a static executable, built with optimisation): every command and
# every kind of input once, with the oracles that pin them (goldens, llvm-symbolizer, gdb, eu-stack, minidump-stackwalk,
# dump_syms, the Swift runtime's own report), the server, hostile inputs and the large-log memory bounds. The suites
# that vary one input many ways (prefixes, JSON lines, sanitizer kinds, debuginfod's failures) run on the debug build;
# the tests over inputs of tens of megabytes (17 MB logs, 100 MB of dumped text) on the release binary only.
RELEASE_SMOKE := PostmortemCLITests\.(LargeDumpTests|GoldenOutputTests|AppleGoldenOutputTests|AtosGoldenOracleTests|SymbolicateTests|CoreFileTests|ProcessStackTests|MinidumpTests|DumpSymsTests|SwiftBacktraceFidelityTests|GroupTests|ServerTests|BadInputTests|FuzzRegressionTests|GDBInfoLineTests|DifferentialTests|SignalCrashTests|CommandClaimsTests|CompletionTests)/|PostmortemCLITests\.DebuginfodTests/(secureServer|unresolvableName|silentBesideGood)

# Installs the static binaries (stripped: their symbols are for a debugger, not for users), a man page per command and the bash, zsh and fish completions below PREFIX
# (/usr/local unless given; DESTDIR, when set, goes before it, for packaging).
PREFIX ?= /usr/local
MAN_DIR := .build/man

# The man pages, from the commands' own help, by swift-argument-parser's generate-manual tool run on the release
# binary. (Its plugin would build every product again in a release configuration of its own.) The tool is built in the debug configuration, whose swift-argument-parser the tests' build has
# already compiled: a release build of it took 35 s, this one 9 s, and the pages are the same.
man: release
	@mkdir -p $(MAN_DIR)
	swift build --product generate-manual >/dev/null
	.build/debug/generate-manual $(POSTMORTEM) --multi-page --output-directory $(MAN_DIR) >/dev/null
	@# The generator writes a generic EXIT STATUS and no ENVIRONMENT: the main page gets both from docs/man.
	awk 'FNR == NR { extra = extra $$0 "\n"; next } /^\.Sh "EXIT STATUS"/ { printf "%s", extra; skip = 1; next } \
	     skip && /^\.Sh/ { skip = 0 } !skip' docs/man/environment-and-exit-status.mdoc $(MAN_DIR)/postmortem.1 > $(MAN_DIR)/postmortem.1.new
	mv $(MAN_DIR)/postmortem.1.new $(MAN_DIR)/postmortem.1

install: man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 -s $(POSTMORTEM) $(DESTDIR)$(PREFIX)/bin/postmortem
	install -m 755 -s .build/release/postmortem-server $(DESTDIR)$(PREFIX)/bin/postmortem-server
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(POSTMORTEM) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/postmortem
	$(POSTMORTEM) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_postmortem
	$(POSTMORTEM) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/postmortem.fish
	@echo "Installed postmortem, its man pages and completions below $(DESTDIR)$(PREFIX)"

setup:
	@missing=$$(for p in $(BUILD_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing $$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The Swift sources `.swift-format` holds to its layout (`make test` lints them). Test fixtures, samples and benchmark
# programs are left as they are: their line numbers are in committed binaries and logs.
FORMATTED := Package.swift Sources Fuzz/Support Fuzz/Targets Tests/TestSupport $(wildcard Tests/*Tests)

# Rewrites the sources in `.swift-format`'s layout.
format:
	swift format format --in-place --recursive --parallel $(FORMATTED)

# Says what `setup` and `setup-test` would install, and fails when anything is missing; installs nothing.
check-setup:
	@missing=$$(for p in $(BUILD_PACKAGES) $(TEST_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done; \
	  for t in bin/minidump-stackwalk bin/dump_syms bin/crashpad_handler python/bin/kubernetes-validate; do \
	    [ -x .build/oracles/$$t ] || echo .build/oracles/$$t; done); \
	if [ -n "$$missing" ]; then \
	  echo "missing for the tests:" $$missing "(make setup setup-test installs them)" >&2; exit 1; \
	fi

setup-test:
	@missing=$$(for p in $(TEST_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing $$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	Tests/install-oracles.sh

# Times resolve -i against llvm-symbolizer and addr2line on 1, 100 and 10,000 addresses of three large
# binaries it builds first (a benchmark, not a test; the first run builds swift-nio, swift-syntax and a Vapor server);
# then unwinds cores and a running process against eu-stack, walks minidumps against minidump-stackwalk, and writes
# Breakpad symbol files of the same binaries against Mozilla's dump_syms; and `po` on 100 MB dumps.
bench: setup setup-test
	Benchmarks/resolve.sh
	Benchmarks/cores.sh
	Benchmarks/minidumps.sh
	Benchmarks/dump-syms.sh
	Benchmarks/dumps.sh

# Reads every log of ../shared/corpus (when it is there; its files are not copied here) and prints how many are read as
# the format of their folder, with their frames (a check, not a test).
corpus: release
	Fuzz/corpus.py

# Rewrites Benchmarks/link-order.txt from the functions typical runs execute (needs valgrind; not part of the tests).
# SwiftPM does not see the list change: the binary is removed, so that it is linked again.
link-order: release
	Benchmarks/link_order.py
	rm -f $(POSTMORTEM)
	$(BUILD_RELEASE)

# Starts `postmortem serve` on a free loopback port and drives a bounded load at it with wrk (from Debian): requests
# a second, p50 and p99 latency of v5 jobs of 1 and 100 frames, cold and warm, and the server's peak memory
# (a benchmark, not a test).
bench-serve: setup setup-test
	@dpkg -s wrk >/dev/null 2>&1 || { echo "Installing wrk"; $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(BUILD_RELEASE)
	Benchmarks/serve.sh

# Times crash-log parsing and symbolication over a batch of 1,000 logs (a benchmark, not a test).
bench-logs: setup
	$(BUILD_RELEASE)
	Benchmarks/crashlogs.sh 1000
	Benchmarks/manylogs.sh 5000
	Benchmarks/biglog.sh 200
	Benchmarks/group.sh 100000

# The whole suite under AddressSanitizer and LeakSanitizer, in its own build folder (XCTest's own leaks suppressed).
# The debug suite run one test at a time (so that a test's time is its own), then each suite's time and the ten
# longest tests (Tests/suite-times.py): the table in docs/TESTING.md.
test-times: setup setup-test
	swift build --build-tests
	swift test --skip-build --no-parallel --experimental-event-stream-output .build/test-events.jsonl --experimental-event-stream-version 0 >/dev/null
	Tests/suite-times.py .build/test-events.jsonl --tests 10

test-asan: check-setup
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan-suppressions.txt swift test --skip-build --sanitize=address --scratch-path .build-asan

# Runs every libFuzzer target for FUZZ_SECONDS (default 600) each, two at a time; findings in .build-fuzz/findings/.
fuzz: setup
	Fuzz/run.sh

# Runs the CLI over 500 malformed inputs made from the fixtures and reports crashes, hangs and runs above 1 GiB of
# memory (a check, not a test).
malformed: setup setup-test
	$(BUILD_RELEASE)
	Fuzz/malformed.py --count 500
	Fuzz/serve_hostile.py --count 600

# Rebuilds the committed test fixtures and the sample from source (needs gcc, g++, the Swift toolchain,
# and for the Apple fixtures lld-14 and llvm-14 from Debian).
fixtures:
	Tests/Fixtures/build.sh
	Tests/Fixtures/Apple/build.sh
	SampleCrashes/linux-c-sensors/build.sh
	SampleCrashes/linux-c-sensors/gdb.sh
	SampleCrashes/linux-c-asan/build.sh
	SampleCrashes/linux-swift-backtrace/build.sh
	SampleCrashes/apple-objc-arm64/build.sh
	Tests/FormattersTests/Dumps/generate.sh

clean:
	rm -rf .build
