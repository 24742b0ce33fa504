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
# The kernels start threads (pthreads).
ALL_CFLAGS += -pthread
LDFLAGS    += -pthread

# make bench: bench/bench.c prints the table and writes build/bench.csv.
BENCH_BIN := $(BUILD)/bench/bench
$(BENCH_BIN): bench/bench.c $(STATIC) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/bench.c $(STATIC) $(LDLIBS)
bench: $(BENCH_BIN)
	$(BENCH_BIN) $(BUILD)/bench.csv
