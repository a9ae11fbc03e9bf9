# gestured — build, test and install (docs/packaging.md).
#
#   make                      release binaries and man pages
#   make test                 scripts/test.sh (build, lints, every test)
#   make check-units          systemd-analyze verify + security of the units
#   make install              (as root, or with DESTDIR) after make; builds nothing
#   make uninstall            removes what install put there
#
# PREFIX (default /usr) and DESTDIR work as in every distribution's packaging. The daemon
# itself reads /usr/share/gestured/gestured.conf, then /etc/gestured/gestured.conf and
# /etc/gestured/conf.d/*.conf; with another PREFIX the vendor file lands elsewhere and the
# daemon uses its built-in defaults unless /etc/gestured/gestured.conf exists.

PREFIX ?= /usr
DESTDIR ?=
SYSCONFDIR ?= /etc
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/gestured
MANDIR ?= $(PREFIX)/share/man
SYSTEMD_SYSTEM_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
SYSUSERS_DIR ?= $(PREFIX)/lib/sysusers.d
UDEV_RULES_DIR ?= $(PREFIX)/lib/udev/rules.d
# Shell completions: where each shell looks on Debian (bash-completion's directory, zsh's
# vendor-completions in Debian's $fpath, fish's vendor_completions.d).
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/vendor-completions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d

SWIFT ?= swift
# Extra flags for swift build; the Debian package builds with SHIPPED=1 (debian/rules).
SWIFT_BUILD_FLAGS ?=
# How the shipped binaries are built (DESIGN.md "Packaging and systemd"): the
# Swift standard library linked statically, and the C++ library its runtime uses (libstdc++ and
# libgcc, from a directory that holds only libstdc++.a); lld, with relative relocations packed
# (RELR), no exported symbols; full RELRO. `make build SHIPPED=1`; `make -s shipped-flags`
# prints them for a plain `swift build` (after `make static-libstdc++`).
STATIC_CXX_DIR = $(CURDIR)/.build/static-libstdc++
SHIPPED_SWIFT_FLAGS = --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xswiftc -L$(STATIC_CXX_DIR) -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --no-export-dynamic
ifeq ($(SHIPPED),1)
SWIFT_BUILD_FLAGS += $(SHIPPED_SWIFT_FLAGS)
build: static-libstdc++
endif
SCDOC ?= scdoc
# release for packages; `make install CONFIGURATION=debug` installs the debug build
# (scripts/lint.sh does, to check the install tree without a release build).
CONFIGURATION ?= release
BUILD_BIN = .build/$(CONFIGURATION)
INSTALL ?= install

MAN_SOURCES := $(wildcard docs/man/*.scd)
MAN_PAGES := $(patsubst docs/man/%.scd,.build/man/%,$(MAN_SOURCES))
BINARIES := gestured gesturectl
SYSTEM_UNITS := gestured.service gestured.socket
USER_UNITS := gesturectl-run.service

.PHONY: all build man test check-units install uninstall clean shipped-flags static-libstdc++

all: build man

build:
	$(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --product gestured
	$(SWIFT) build -c $(CONFIGURATION) $(SWIFT_BUILD_FLAGS) --product gesturectl

shipped-flags:
	@echo $(SHIPPED_SWIFT_FLAGS)

# The linker takes the first libstdc++ it finds on its search path; this directory, searched
# first, has only the static one (the C compiler's, from libstdc++-12-dev).
static-libstdc++:
	@archive=$$(cc -print-file-name=libstdc++.a); \
	  [ -f "$$archive" ] || { echo "make: no static libstdc++.a (cc -print-file-name=libstdc++.a: $$archive); install libstdc++-12-dev" >&2; exit 1; }; \
	  mkdir -p $(STATIC_CXX_DIR) && ln -sf "$$archive" $(STATIC_CXX_DIR)/libstdc++.a

man: $(MAN_PAGES)

.build/man/%: docs/man/%.scd
	@mkdir -p .build/man
	$(SCDOC) < $< > $@

test:
	scripts/test.sh

# Verify every unit (on copies whose ExecStart names an existing binary), and require the
# daemon's sandbox to rate "OK" (exposure below 5.0) or better.
check-units:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp systemd/gestured.service systemd/gestured.socket systemd/user/gesturectl-run.service "$$tmp/"; \
	sed -i 's|^ExecStart=[^ ]*|ExecStart=/bin/true|' "$$tmp/gestured.service" "$$tmp/gesturectl-run.service"; \
	out=$$(cd "$$tmp" && systemd-analyze verify --man=no ./gestured.socket ./gestured.service 2>&1) || { echo "$$out"; exit 1; }; \
	[ -z "$$out" ] || { echo "systemd-analyze verify: $$out"; exit 1; }; \
	mkdir -m 700 "$$tmp/runtime"; \
	out=$$(cd "$$tmp" && XDG_RUNTIME_DIR="$$tmp/runtime" systemd-analyze --user verify --man=no ./gesturectl-run.service 2>&1) || { echo "$$out"; exit 1; }; \
	[ -z "$$out" ] || { echo "systemd-analyze --user verify: $$out"; exit 1; }; \
	(cd "$$tmp" && systemd-analyze security --offline=true --threshold=49 --no-pager ./gestured.service | tail -n 1)

install: man
	@for b in $(BINARIES); do \
	  [ -x "$(BUILD_BIN)/$$b" ] || { echo "make install: $(BUILD_BIN)/$$b is missing; run 'make' first (as yourself, not root)" >&2; exit 1; }; \
	done
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 0755 $(addprefix $(BUILD_BIN)/,$(BINARIES)) "$(DESTDIR)$(BINDIR)/"
	$(INSTALL) -d "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)" "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)"
	@# The units name /usr/bin; point them at BINDIR.
	for u in $(SYSTEM_UNITS); do \
	  sed 's|/usr/bin/|$(BINDIR)/|g' systemd/$$u > "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/$$u" && chmod 0644 "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/$$u"; \
	done
	for u in $(USER_UNITS); do \
	  sed 's|/usr/bin/|$(BINDIR)/|g' systemd/user/$$u > "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/$$u" && chmod 0644 "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/$$u"; \
	done
	$(INSTALL) -D -m 0644 systemd/sysusers.d/gestured.conf "$(DESTDIR)$(SYSUSERS_DIR)/gestured.conf"
	$(INSTALL) -D -m 0644 udev-rules/70-gestured.rules "$(DESTDIR)$(UDEV_RULES_DIR)/70-gestured.rules"
	$(INSTALL) -D -m 0644 config/gestured.conf "$(DESTDIR)$(DATADIR)/gestured.conf"
	$(INSTALL) -D -m 0644 config/actions.conf "$(DESTDIR)$(DATADIR)/actions.conf"
	$(INSTALL) -d -m 0755 "$(DESTDIR)$(DATADIR)/actions"
	$(INSTALL) -m 0644 config/actions/*.conf "$(DESTDIR)$(DATADIR)/actions/"
	$(INSTALL) -d -m 0755 "$(DESTDIR)$(DATADIR)/quirks"
	$(INSTALL) -m 0644 config/quirks/*.quirks "$(DESTDIR)$(DATADIR)/quirks/"
	$(INSTALL) -d -m 0755 "$(DESTDIR)$(SYSCONFDIR)/gestured/conf.d"
	for b in $(BINARIES); do \
	  $(INSTALL) -D -m 0644 completions/bash/$$b "$(DESTDIR)$(BASH_COMPLETION_DIR)/$$b" && \
	  $(INSTALL) -D -m 0644 completions/zsh/_$$b "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$b" && \
	  $(INSTALL) -D -m 0644 completions/fish/$$b.fish "$(DESTDIR)$(FISH_COMPLETION_DIR)/$$b.fish" || exit 1; \
	done
	@for page in $(MAN_PAGES); do \
	  name=$${page##*/}; section=$${name##*.}; \
	  echo "$(INSTALL) -D -m 0644 $$page $(DESTDIR)$(MANDIR)/man$$section/$$name"; \
	  $(INSTALL) -D -m 0644 "$$page" "$(DESTDIR)$(MANDIR)/man$$section/$$name" || exit 1; \
	done

# Removes exactly what install created. /etc/gestured is removed only when empty: an
# administrator's configuration is never deleted.
uninstall:
	rm -f $(addprefix "$(DESTDIR)$(BINDIR)/,$(addsuffix ",$(BINARIES)))
	rm -f $(addprefix "$(DESTDIR)$(SYSTEMD_SYSTEM_UNIT_DIR)/,$(addsuffix ",$(SYSTEM_UNITS)))
	rm -f $(addprefix "$(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/,$(addsuffix ",$(USER_UNITS)))
	rm -f "$(DESTDIR)$(SYSUSERS_DIR)/gestured.conf" "$(DESTDIR)$(UDEV_RULES_DIR)/70-gestured.rules"
	rm -f "$(DESTDIR)$(DATADIR)/gestured.conf" "$(DESTDIR)$(DATADIR)/actions.conf"
	rm -f $(patsubst config/quirks/%,"$(DESTDIR)$(DATADIR)/quirks/%",$(wildcard config/quirks/*.quirks))
	rm -f $(patsubst config/actions/%,"$(DESTDIR)$(DATADIR)/actions/%",$(wildcard config/actions/*.conf))
	rmdir "$(DESTDIR)$(DATADIR)/actions" 2>/dev/null || true
	rmdir "$(DESTDIR)$(DATADIR)/quirks" 2>/dev/null || true
	rmdir "$(DESTDIR)$(DATADIR)" 2>/dev/null || true
	for b in $(BINARIES); do \
	  rm -f "$(DESTDIR)$(BASH_COMPLETION_DIR)/$$b" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_$$b" "$(DESTDIR)$(FISH_COMPLETION_DIR)/$$b.fish"; \
	done
	@for page in $(MAN_PAGES); do \
	  name=$${page##*/}; section=$${name##*.}; \
	  echo "rm -f $(DESTDIR)$(MANDIR)/man$$section/$$name"; rm -f "$(DESTDIR)$(MANDIR)/man$$section/$$name"; \
	done
	rmdir "$(DESTDIR)$(SYSCONFDIR)/gestured/conf.d" "$(DESTDIR)$(SYSCONFDIR)/gestured" 2>/dev/null || true

clean:
	rm -rf .build/man
	$(SWIFT) package clean
