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

LIB_SRC  := $(filter-out src/config.c src/config_model.c,$(wildcard src/*.c))
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

$(BUILD)/%.o: %.c include/posenc.h include/posenc_config.h $(wildcard src/*.h cli/*.h tests/*.h) $(FLAGS_STAMP)
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
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(CLI_LIBS) $(STATIC) $(LDLIBS)

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
	install -m 644 include/posenc.h include/posenc_config.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_V) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libposenc.so.$(SOMAJOR)
	ln -sf libposenc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libposenc.so
	install -m 755 $(PROGRAM) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 docs/posenc.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' posenc.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/posenc.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/posenc.h $(DESTDIR)$(PREFIX)/include/posenc_config.h $(DESTDIR)$(PREFIX)/lib/libposenc.* \
	    $(DESTDIR)$(PREFIX)/bin/posenc $(DESTDIR)$(PREFIX)/share/man/man1/posenc.1 \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/posenc.pc

clean:
	rm -rf $(BUILD)

# ---- pictures (issue 7): `posenc plot`, PLOT, make plots ---------------------
# Cairo is optional and belongs to the program only: when pkg-config finds it,
# the CLI objects compile with -DPOSENC_HAVE_CAIRO and build/posenc links it;
# libposenc never does. Its headers come in with -isystem so that their own
# warnings do not trip -Werror.
HAVE_CAIRO   := $(shell pkg-config --exists cairo 2>/dev/null && echo 1)
ifeq ($(HAVE_CAIRO),1)
  CAIRO_CFLAGS := -DPOSENC_HAVE_CAIRO $(patsubst -I%,-isystem %,$(shell pkg-config --cflags cairo))
  CAIRO_LIBS   := $(shell pkg-config --libs cairo)
endif
$(CLI_OBJ): ALL_CFLAGS += $(CAIRO_CFLAGS)
$(PROGRAM): LDLIBS := $(CAIRO_LIBS) $(LDLIBS)

# tests/test_plot.c drives the plot code of the program directly, so it links
# the CLI objects (all but main.o) and Cairo; without Cairo it only says so.
PLOT_TEST_OBJ := $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
$(BUILD)/tests/test_plot: tests/test_plot.c tests/check.h tests/plot_harness.h $(PLOT_TEST_OBJ) $(STATIC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CAIRO_CFLAGS) -Icli -Itests $(LDFLAGS) -o $@ $< \
	    $(PLOT_TEST_OBJ) $(CLI_LIBS) $(STATIC) $(CAIRO_LIBS) $(LDLIBS)

# The pictures of the README (docs/img/*.png), drawn by the program itself.
PLOTS := pe similarity rope-decay freqs alibi
.PHONY: plots
plots: $(PROGRAM)
	@mkdir -p docs/img
	$(PROGRAM) plot pe --positions 128 --dim 128 -o docs/img/pe.png
	$(PROGRAM) plot similarity --positions 128 --dim 128 -o docs/img/similarity.png
	$(PROGRAM) plot rope-decay --dim 128 --base 10000,500000 --max-offset 65536 -o docs/img/rope-decay.png
	$(PROGRAM) plot freqs --dim 128 --base 10000,500000 --context 8192 -o docs/img/freqs.png
	$(PROGRAM) plot alibi --heads 8 --positions 16 -o docs/img/alibi.png
# ---- scalings, model configs, ALiBi tensors (issue 5) ------------------------
# The ALiBi bias tensor is filled by POSIX threads.
ALL_CFLAGS += -pthread
LDLIBS     += -pthread

# The Hugging Face config reader (src/config.c) is optional: it needs jansson
# (Debian: libjansson-dev), found with pkg-config, and goes into its own
# library, build/libposenc_config.a, so libposenc keeps needing only libc and
# libm. Without jansson the program says what to install for --config, and
# tests/test_config.c reports itself skipped. JSON=0 builds without it.
JSON     ?= $(shell pkg-config --exists jansson 2>/dev/null && echo 1)
CONFIG_LIB :=
CLI_LIBS   :=
ifeq ($(JSON),1)
  JSON_CFLAGS := $(shell pkg-config --cflags jansson)
  JSON_LIBS   := $(shell pkg-config --libs jansson)
  CONFIG_LIB  := $(BUILD)/libposenc_config.a
  CLI_LIBS    := $(CONFIG_LIB) $(JSON_LIBS)
  ALL_CFLAGS  += -DPOSENC_HAVE_JSON
all: $(CONFIG_LIB)
$(PROGRAM): $(CONFIG_LIB)
# The model registry's reader (src/config_model.c, issue 13) is in the same
# library and shares src/config_internal.h with src/config.c.
CONFIG_OBJ := $(BUILD)/src/config.o $(BUILD)/src/config_model.o
$(CONFIG_OBJ): $(BUILD)/src/%.o: src/%.c include/posenc.h include/posenc_config.h src/config_internal.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc $(JSON_CFLAGS) -c $< -o $@
$(CONFIG_LIB): $(CONFIG_OBJ)
	rm -f $@
	$(AR) rcs $@ $^
$(BUILD)/tests/test_config $(BUILD)/tests/test_models: $(BUILD)/tests/%: tests/%.c tests/check.h tests/rope_golden.h $(STATIC) $(CONFIG_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(CONFIG_LIB) $(JSON_LIBS) $(STATIC) $(LDLIBS)
install: install-config
.PHONY: install-config
install-config: $(CONFIG_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 644 $(CONFIG_LIB) $(DESTDIR)$(PREFIX)/lib/
endif
# Rebuild the program's objects when JSON changes (the flags stamp above
# predates these additions).
JSON_STAMP := $(BUILD)/.json
$(shell mkdir -p $(BUILD) && (test "`cat $(JSON_STAMP) 2>/dev/null`" = "$(JSON)" || echo "$(JSON)" > $(JSON_STAMP)))
$(CLI_OBJ): $(JSON_STAMP)

# ---- tensor kernels (src/kernels*.c, src/cache.c; issue 3) ------------------
# Each instruction-set body is compiled with its own flags and only called
# after cpuid/xgetbv say the machine supports it. POSENC_SCALAR_ONLY=1 (or a
# compiler that does not target x86-64) builds the plain C path only.
KERNEL_OBJ  := $(BUILD)/src/kernels.o $(BUILD)/src/kernels_avx2.o \
               $(BUILD)/src/kernels_avx512.o $(BUILD)/src/cache.o
KERNEL_STAMP := $(BUILD)/.flags_kernels
$(shell mkdir -p $(BUILD) && (test "`cat $(KERNEL_STAMP) 2>/dev/null`" = "scalar_only=$(POSENC_SCALAR_ONLY)" || echo "scalar_only=$(POSENC_SCALAR_ONLY)" > $(KERNEL_STAMP)))
$(KERNEL_OBJ): src/kernels.h src/kernels_body.h $(KERNEL_STAMP)
ifeq ($(POSENC_SCALAR_ONLY),1)
  ALL_CFLAGS += -DPOSENC_SCALAR_ONLY
else ifneq ($(findstring x86_64,$(shell $(CC) -dumpmachine 2>/dev/null)),)
  $(BUILD)/src/kernels_avx2.o: ALL_CFLAGS += -mavx2 -mf16c
  $(BUILD)/src/kernels_avx512.o: ALL_CFLAGS += -mavx512f -mf16c
endif
# The kernels start threads (pthreads): -pthread is added above.

# make bench: bench/bench.c prints the table and writes build/bench.csv.
BENCH_BIN := $(BUILD)/bench/bench
$(BENCH_BIN): bench/bench.c $(STATIC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/bench.c $(STATIC) $(LDLIBS)
# It runs after the tensor table the table fills of bench/bench_tables.c
# (rows named table_*), which append to the same CSV.
bench: $(BENCH_BIN) $(BUILD)/bench_tables
	$(BENCH_BIN) $(BUILD)/bench.csv
	$(BUILD)/bench_tables

# ---- accuracy proof against GNU MPFR, and the table benchmark (issue 4) ----
#   make accuracy         full MPFR check (several minutes); writes build/accuracy.csv
#   make accuracy-short   the ~1 minute version that CI runs
#   make golden           rewrites tests/data/golden_sincos.txt from MPFR
#   make bench-tables     table fill speed; appends to build/bench.csv
MPFR_OK := $(shell echo 'int main(void){return 0;}' | \
             $(CC) -include mpfr.h -x c - -o /dev/null -lmpfr -lgmp 2>/dev/null && echo yes)
ACCURACY := $(BUILD)/accuracy
.PHONY: accuracy accuracy-short golden bench-tables mpfr-check

mpfr-check:
	@test "$(MPFR_OK)" = yes || { echo "GNU MPFR not found: install it (Debian: apt-get install libmpfr-dev) to run the accuracy checker"; exit 1; }

$(ACCURACY): tools/accuracy.c src/internal.h $(STATIC) | mpfr-check
	$(CC) $(ALL_CFLAGS) -Isrc $(LDFLAGS) -o $@ tools/accuracy.c $(STATIC) -lmpfr -lgmp $(LDLIBS)

accuracy: mpfr-check $(ACCURACY)
	nice -n 19 $(ACCURACY)

accuracy-short: mpfr-check $(ACCURACY)
	nice -n 19 $(ACCURACY) --short

golden: mpfr-check $(ACCURACY)
	$(ACCURACY) --golden tests/data/golden_sincos.txt

$(BUILD)/bench_tables: bench/bench_tables.c src/internal.h $(STATIC) $(FLAGS_STAMP)
	$(CC) $(ALL_CFLAGS) -Isrc $(LDFLAGS) -o $@ bench/bench_tables.c $(STATIC) $(LDLIBS)

bench-tables: $(BUILD)/bench_tables
	$(BUILD)/bench_tables

# ---- pictures of the scalings (issue 7 after issue 5) ------------------------
# Model configs as series of rope-decay and freqs; they need the config
# reader, so without jansson these two pictures are skipped with a word.
plots: plots-scaled
.PHONY: plots-scaled
plots-scaled: $(PROGRAM)
ifeq ($(JSON),1)
	@mkdir -p docs/img
	$(PROGRAM) plot freqs --context 131072 --config tests/data/llama-2-7b.json \
	    --config tests/data/llama-3.1-8b.json --config tests/data/gpt-oss-20b.json \
	    -o docs/img/freqs-scaled.png
	$(PROGRAM) plot rope-decay --max-offset 131072 --config tests/data/llama-2-7b.json \
	    --config tests/data/llama-3.1-8b.json --config tests/data/codellama-7b.json \
	    -o docs/img/rope-decay-scaled.png
else
	@echo "plots: freqs-scaled.png and rope-decay-scaled.png skipped: --config needs jansson (apt-get install libjansson-dev)"
endif
# test_plot links the program's objects, and so the config reader's library
# when there is one (CLI_LIBS): build it first (a race under make -j).
$(BUILD)/tests/test_plot: tests/rope_golden.h $(CONFIG_LIB)

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
# fuzz_config drives the optional config reader: only with jansson (JSON=1).
ifneq ($(JSON),1)
  FUZZ_SRC   := $(filter-out tests/fuzz/fuzz_config.c,$(FUZZ_SRC))
  FUZZ_SKIP  := echo "fuzz: fuzz_config skipped: the config reader needs jansson (apt-get install libjansson-dev)";
endif
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
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(FUZZ_DIR)/sandbox.o $(FUZZ_READER_LIBS) $(FUZZ_LIBS) -lm

# The kernels' instruction-set bodies need their flags here too (as above).
ifeq ($(POSENC_SCALAR_ONLY),1)
  FUZZ_CFLAGS += -DPOSENC_SCALAR_ONLY
else
$(FUZZ_DIR)/src/kernels_avx2.o: FUZZ_CFLAGS += -mavx2 -mf16c
$(FUZZ_DIR)/src/kernels_avx512.o: FUZZ_CFLAGS += -mavx512f -mf16c
endif

# A reader in its own optional library links its object and that library
# through FUZZ_READER_LIBS (FUZZ_LIBS stays free for the command line).
ifeq ($(JSON),1)
$(FUZZ_DIR)/fuzz_config: $(FUZZ_DIR)/src/config.o $(FUZZ_DIR)/src/config_model.o
$(FUZZ_DIR)/fuzz_config: FUZZ_READER_LIBS := $(FUZZ_DIR)/src/config.o $(FUZZ_DIR)/src/config_model.o $(JSON_LIBS)
$(FUZZ_DIR)/fuzz_config: FUZZ_CFLAGS += $(JSON_CFLAGS)
$(FUZZ_DIR)/src/config.o $(FUZZ_DIR)/src/config_model.o: FUZZ_CFLAGS += $(JSON_CFLAGS) -Isrc
endif

fuzz: $(FUZZ_BIN)
	@$(FUZZ_SKIP) for t in $(FUZZ_BIN); do \
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
	@$(FUZZ_SKIP) for t in $(FUZZ_BIN); do \
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

# ---- coverage tests of scalings, rope_vec and the config reader (issue 6) ----
# tests/test_cov_scaling.c tests the config reader too when jansson is there,
# so it links the reader's library like test_config.
ifeq ($(JSON),1)
$(BUILD)/tests/test_cov_scaling: tests/test_cov_scaling.c tests/check.h $(STATIC) $(CONFIG_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(CONFIG_LIB) $(JSON_LIBS) $(STATIC) $(LDLIBS)
endif

# ---- coverage of the plot code (issue 6): tests/test_cov_plot.c -------------
# Built like test_plot (the CLI objects and Cairo; without Cairo it only says
# it skipped); malloc, calloc and realloc of the linked code go through the
# test's wrappers so that it can make each allocation fail in turn.
$(BUILD)/tests/test_cov_plot: tests/test_cov_plot.c tests/check.h tests/plot_harness.h $(PLOT_TEST_OBJ) $(STATIC) $(CONFIG_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CAIRO_CFLAGS) -Icli -Itests $(LDFLAGS) \
	    -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -o $@ $< \
	    $(PLOT_TEST_OBJ) $(CLI_LIBS) $(STATIC) $(CAIRO_LIBS) $(LDLIBS)

# tests/test_cov_core.c (issue 6, coverage) drives the program's commands
# directly under a capped address space, so it links the CLI objects as
# tests/test_plot does.
$(BUILD)/tests/test_cov_core: tests/test_cov_core.c tests/check.h $(PLOT_TEST_OBJ) $(STATIC) $(CONFIG_LIB) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CAIRO_CFLAGS) -Icli -Itests $(LDFLAGS) -o $@ $< \
	    $(PLOT_TEST_OBJ) $(CLI_LIBS) $(STATIC) $(CAIRO_LIBS) $(LDLIBS)
