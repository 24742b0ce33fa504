# posenc - build, test, install. See README.md.
#
#   make                 build/libposenc.a, build/libposenc.so, build/posenc
#   make run             build and run the lesson (examples/lesson.pe)
#   make test            build and run every test; ends with "N passed, 0 failed"
#   make SANITIZE=1 ...  the same with -fsanitize=address,undefined (make clean undoes)
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make bench           benchmarks (bench/)

CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
BUILD    := build
VERSION  := 0.1.0
SOMAJOR  := 0

# -ffp-contract=off: no fused multiply-add behind our back; the float32
# rotation's rounding order is part of the contract (see posenc.h).
WARN     := -std=c11 -Wall -Wextra -Wpedantic -Werror
CFLAGS   ?= -O2 -g
ALL_CFLAGS := $(WARN) $(CFLAGS) -ffp-contract=off -fPIC -D_POSIX_C_SOURCE=200809L -Iinclude
LDLIBS   := -lm

ifeq ($(SANITIZE),1)
  ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS    += -fsanitize=address,undefined
endif

LIB_SRC  := $(wildcard src/*.c)
CLI_SRC  := $(wildcard cli/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

STATIC   := $(BUILD)/libposenc.a
SHARED   := $(BUILD)/libposenc.so
SHARED_V := $(BUILD)/libposenc.so.$(VERSION)
PROGRAM  := $(BUILD)/posenc

# Rebuild everything when the flags change (e.g. SANITIZE=1 after a plain build).
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW   := $(CC) $(ALL_CFLAGS) $(LDFLAGS)
$(shell mkdir -p $(BUILD) && (test "`cat $(FLAGS_STAMP) 2>/dev/null`" = "$(FLAGS_NOW)" || echo "$(FLAGS_NOW)" > $(FLAGS_STAMP)))

.PHONY: all run test install uninstall clean bench
all: $(STATIC) $(SHARED) $(PROGRAM)

$(BUILD)/%.o: %.c include/posenc.h $(wildcard src/*.h cli/*.h tests/*.h) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(SHARED_V): $(LIB_OBJ) src/posenc.map
	$(CC) -shared -Wl,-soname,libposenc.so.$(SOMAJOR) -Wl,--version-script=src/posenc.map \
	    $(LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS)

$(SHARED): $(SHARED_V)
	ln -sf libposenc.so.$(VERSION) $(BUILD)/libposenc.so.$(SOMAJOR)
	ln -sf libposenc.so.$(VERSION) $@

$(PROGRAM): $(CLI_OBJ) $(STATIC)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(STATIC) $(LDLIBS)

$(BUILD)/tests/%: tests/%.c tests/check.h $(STATIC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(STATIC) $(LDLIBS)

run: $(PROGRAM)
	$(PROGRAM) examples/lesson.pe

test: all $(TEST_BIN)
	@sh tests/run_all.sh $(BUILD) "$(CC)" "$(SANITIZE)"

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 include/posenc.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_V) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libposenc.so.$(SOMAJOR)
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libposenc.so
	install -m 755 $(PROGRAM) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 docs/posenc.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' posenc.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/posenc.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/posenc.h $(DESTDIR)$(PREFIX)/lib/libposenc.* \
	    $(DESTDIR)$(PREFIX)/bin/posenc $(DESTDIR)$(PREFIX)/share/man/man1/posenc.1 \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/posenc.pc

clean:
	rm -rf $(BUILD)

# ---------------------------------------------------------------------------
# Fuzzing (issue 6): libFuzzer targets in tests/fuzz/fuzz_*.c, built with clang
# into build/fuzz/. Each target NAME runs on a working corpus build/fuzz/corpus/NAME
# seeded from tests/fuzz/corpus/NAME/, with the dictionary tests/fuzz/NAME.dict
# (NAME without "fuzz_") when there is one. A new reader gets fuzzed by adding
# tests/fuzz/fuzz_NAME.c and tests/fuzz/corpus/fuzz_NAME/ (see tests/fuzz/README).
#   make fuzz FUZZ_SECONDS=60        every target for 60 s each; fails on a finding
#   make fuzz-build                  only build them
#   make fuzz-merge                  add to tests/fuzz/corpus/ the fewest units of the working
#                                    corpora that cover something new (seeds are kept)
FUZZ_CC      ?= $(shell command -v clang-14 >/dev/null 2>&1 && echo clang-14 || echo clang)
FUZZ_SECONDS ?= 20
FUZZ_FLAGS   ?=
FUZZ_LIBS    ?=
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# fopen is renamed so the harness decides which files the code under test may open.
FUZZ_CFLAGS  := $(WARN) -O1 -g -ffp-contract=off -D_POSIX_C_SOURCE=200809L -Iinclude -Icli $(FUZZ_SAN)
FUZZ_SRC     := $(filter-out tests/fuzz/fuzz_sandbox.c,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_DIR)/%)
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(LIB_SRC) $(filter-out cli/main.c,$(CLI_SRC)))

.PHONY: fuzz fuzz-build fuzz-merge
fuzz-build: $(FUZZ_BIN)

$(FUZZ_DIR)/%.o: %.c include/posenc.h $(wildcard src/*.h cli/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Dfopen=posenc_fuzz_fopen -c $< -o $@

.SECONDARY: $(FUZZ_OBJ) $(FUZZ_DIR)/sandbox.o
$(FUZZ_DIR)/sandbox.o: tests/fuzz/fuzz_sandbox.c tests/fuzz/fuzz_util.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(FUZZ_OBJ) $(FUZZ_DIR)/sandbox.o
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(FUZZ_DIR)/sandbox.o $(FUZZ_LIBS) -lm

fuzz: $(FUZZ_BIN)
	@for t in $(FUZZ_BIN); do \
	    n=$$(basename $$t); d=tests/fuzz/$${n#fuzz_}.dict; \
	    mkdir -p $(FUZZ_DIR)/corpus/$$n tests/fuzz/corpus/$$n; \
	    echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
	    $$t -max_total_time=$(FUZZ_SECONDS) -timeout=60 -rss_limit_mb=2560 -max_len=8192 \
	        -print_final_stats=1 -artifact_prefix=$(CURDIR)/$(FUZZ_DIR)/$$n- \
	        $$( [ -f $$d ] && echo -dict=$(CURDIR)/$$d ) $(FUZZ_FLAGS) \
	        $(CURDIR)/$(FUZZ_DIR)/corpus/$$n $(CURDIR)/tests/fuzz/corpus/$$n 2>$(FUZZ_DIR)/$$n.log \
	    || { tail -n 60 $(FUZZ_DIR)/$$n.log; echo "fuzz: $$n FAILED (log $(FUZZ_DIR)/$$n.log)"; exit 1; }; \
	    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+.*DONE' $(FUZZ_DIR)/$$n.log | tr '\n' ' '; echo; \
	done; echo "fuzz: no findings"

fuzz-merge: $(FUZZ_BIN)
	@for t in $(FUZZ_BIN); do \
	    n=$$(basename $$t); mkdir -p $(FUZZ_DIR)/corpus/$$n; \
	    $$t -merge=1 -use_counters=0 -timeout=60 -max_len=8192 $(CURDIR)/tests/fuzz/corpus/$$n \
	        $(CURDIR)/$(FUZZ_DIR)/corpus/$$n $(FUZZ_MERGE_FROM) 2>/dev/null || exit 1; \
	    echo "$$n: $$(ls tests/fuzz/corpus/$$n | wc -l) files"; \
	done

# ---------------------------------------------------------------------------
# Coverage (issue 6): the whole test suite built with --coverage in its own
# directory, then line and branch coverage of src/ and cli/ (gcovr, or lcov).
# The goal is 95% of lines and 90% of branches; COVERAGE_STRICT=1 makes
# missing it an error.
#   make coverage [COVERAGE_STRICT=1]
COV_DIR          := build-cov
COVERAGE_LINES   ?= 95
COVERAGE_BRANCHES ?= 90
COVERAGE_STRICT  ?=

.PHONY: coverage clean-coverage
coverage:
	rm -rf $(COV_DIR)
	$(MAKE) --no-print-directory BUILD=$(COV_DIR) CFLAGS="-O0 -g --coverage" \
	    LDFLAGS=--coverage SANITIZE= test
	@sh tests/coverage.sh $(COV_DIR) $(COVERAGE_LINES) $(COVERAGE_BRANCHES) "$(COVERAGE_STRICT)"

clean: clean-coverage
clean-coverage:
	rm -rf $(COV_DIR)
