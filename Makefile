# unirun — hand-written, non-recursive Makefile. `./configure` writes config.mk.
# Quiet by default; `make V=1` shows the commands.

-include config.mk

CC ?= cc
prefix ?= /usr/local
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
mandir ?= $(prefix)/share/man
DESTDIR ?=

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wformat=2 -Wno-format-nonliteral
BASE_CFLAGS := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE -I. -include config.h -MMD -MP \
	$(SECCOMP_CFLAGS) $(YAJL_CFLAGS) $(CAP_CFLAGS) $(CRIU_CFLAGS)
CFLAGS ?=
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Link the libraries statically when Debian ships the archives: a container
# start is a few milliseconds and the dynamic loader was a visible part of it.
static_or = $(if $(wildcard /usr/lib/x86_64-linux-gnu/$(1)),/usr/lib/x86_64-linux-gnu/$(1),$(2))
# And libc too: a static unirun starts in about half the time (no ld.so), which
# pays for the re-exec from a sealed memfd that create/run/exec do.
CRIU_STATIC := $(if $(CRIU_LIBS),$(call static_or,libcriu.a,$(CRIU_LIBS)) \
	$(call static_or,libprotobuf-c.a,-lprotobuf-c))
LIBS := $(call static_or,libseccomp.a,-lseccomp) $(call static_or,libyajl_s.a,-lyajl) \
	$(call static_or,libcap.a,-lcap) $(CRIU_STATIC) -lm
STATIC := $(if $(wildcard /usr/lib/x86_64-linux-gnu/libc.a),-static)
SAN_LIBS := -lseccomp -lyajl -lcap $(CRIU_LIBS) -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRCS := $(wildcard lib/*.c spec/*.c cgroup/*.c ns/*.c runtime/*.c)
LIB_SRCS := $(filter-out runtime/main.c,$(SRCS))
OBJS := $(SRCS:%.c=build/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=build/%.o)
SAN_OBJS := $(SRCS:%.c=build-san/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=build-san/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/tests/%)
UNIT_SAN_BINS := $(UNIT_SRCS:tests/unit/%.c=build-san/tests/%)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=build/helpers/%)

.PHONY: all sanitized unit check demo bench install clean distclean helpers
all: unirun

config.mk config.h: configure config.mk.in
	$(Q)./configure --quiet

configure: configure.ac
	$(Q)autoreconf -fi >/dev/null 2>&1 || autoreconf -fi

build/%.o: %.c config.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

build-san/%.o: %.c config.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC-SAN  $<")
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -O1 $(CFLAGS) -c -o $@ $<

unirun: $(OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(STATIC) -o build/unirun.debug $(OBJS) $(LIBS) $(LDFLAGS)
	$(Q)objcopy --strip-unneeded build/unirun.debug $@

build-san/unirun: $(SAN_OBJS)
	@$(if $(Q),echo "  LD-SAN  $@")
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(SAN_LIBS) $(LDFLAGS)

sanitized: build-san/unirun

# The same sources configured --without-criu, for the suite that checks a
# build without CRIU (checkpoint/restore say so, the rest works).
NOCRIU_FILES := Makefile configure configure.ac config.mk.in config.h.in lib spec cgroup ns runtime docs
build-nocriu/unirun: $(SRCS) configure config.mk.in
	@$(if $(Q),echo "  NOCRIU  $@")
	$(Q)rm -rf build-nocriu && mkdir -p build-nocriu/src
	$(Q)tar -c $(NOCRIU_FILES) | tar -C build-nocriu/src -x
	$(Q)cd build-nocriu/src && ./configure --quiet --without-criu && $(MAKE) -s unirun >/dev/null
	$(Q)cp build-nocriu/src/unirun $@

build/tests/%: tests/unit/%.c $(LIB_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(BASE_CFLAGS) $(CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

build-san/tests/%: tests/unit/%.c $(SAN_LIB_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST-SAN $@")
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) -O1 -o $@ $< $(SAN_LIB_OBJS) $(SAN_LIBS)

build/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -static -o $@ $< $(if $(findstring seccomp,$*),$(call static_or,libseccomp.a,-lseccomp))

helpers: $(HELPER_BINS)

unit: $(UNIT_BINS) $(UNIT_SAN_BINS)

# `make check` runs everything: unit tests (plain and sanitized), the
# integration suite against ./unirun and against the sanitized build, and the
# cgroup2 guest suite. tests/check.sh adds up the counts.
check:
	$(Q)bash tests/deps.sh
	$(Q)$(MAKE) -s unirun build-san/unirun build-nocriu/unirun unit helpers
	$(Q)bash tests/check.sh

demo:
	$(Q)bash tests/deps.sh
	$(Q)$(MAKE) -s unirun
	$(Q)bash tests/demo.sh

bench: unirun helpers
	$(Q)bash tests/bench/run.sh

install: unirun
	install -D -m 0755 unirun $(DESTDIR)$(bindir)/unirun
	install -D -m 0644 docs/unirun.8 $(DESTDIR)$(mandir)/man8/unirun.8

clean:
	rm -rf build build-san build-nocriu unirun

distclean: clean
	rm -rf config.h config.mk config.log config.status configure autom4te.cache aclocal.m4 config.h.in config.h.in~

-include $(OBJS:.o=.d) $(SAN_OBJS:.o=.d)
