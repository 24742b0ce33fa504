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

$(BUILD)/bench_tables: bench/bench_tables.c src/internal.h $(STATIC)
	$(CC) $(ALL_CFLAGS) -Isrc $(LDFLAGS) -o $@ bench/bench_tables.c $(STATIC) $(LDLIBS)

bench-tables: $(BUILD)/bench_tables
	$(BUILD)/bench_tables
