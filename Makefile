# forcelayout: `make run` to use it, `make test` to check it. Both install what is missing.

SHELL := /bin/bash
PORT ?= 8080
HOST ?= 127.0.0.1
STATE ?= .state/layout.json
# Debian's Python packages (websockets, selenium, pytest) serve the system interpreter.
PYTHON := /usr/bin/python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

BUILD_PACKAGES := libwebsockets-dev pkg-config
TEST_PACKAGES := $(BUILD_PACKAGES) python3-websockets python3-selenium python3-pytest \
	chromium chromium-driver node-d3-force

# Installs the named Debian packages that are missing (apt-get update only then).
define ensure_packages
	@missing=(); for package in $(1); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing+=($$package); \
	done; \
	if [ $${#missing[@]} -gt 0 ]; then \
		echo "installing: $${missing[*]}"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $${missing[@]} >/dev/null; \
	fi
endef

.PHONY: run build deps test-deps test test-swift test-node test-e2e test-browser clean \
	bench bench-deps

## Install what is missing, build in release, serve on http://$(HOST):$(PORT)/
run: deps
	swift build -c release --product forcelayout
	.build/release/forcelayout serve --host $(HOST) --port $(PORT) --state $(STATE)

build: deps
	swift build -c release --product forcelayout

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps:
	$(call ensure_packages,$(TEST_PACKAGES))

## Every suite: Swift unit tests, node tests of the page's modules, end-to-end, browser
test: test-deps
	swift build --build-tests
	$(MAKE) --no-print-directory test-swift test-node test-e2e test-browser

test-swift:
	swift test --skip-build --disable-swift-testing

test-node:
	node --test Tests/web/

test-e2e:
	FORCELAYOUT_BIN=$(CURDIR)/.build/debug/forcelayout $(PYTHON) -m pytest -q Tests/e2e

test-browser:
	FORCELAYOUT_BIN=$(CURDIR)/.build/debug/forcelayout $(PYTHON) -m pytest -q Tests/web/test_browser.py

clean:
	rm -rf .build

## Speed against d3-force (1k, 10k, 100k cells) and steps to settle; never part of `make test`.
## A few minutes. Subsets: make bench BENCH_ARGS="--sizes 1000,10000 --reps 1"
bench: bench-deps
	swift build -c release --product forcelayout
	NODE_PATH=/usr/share/nodejs $(PYTHON) bench/run.py $(BENCH_ARGS)

bench-deps:
	$(call ensure_packages,$(BUILD_PACKAGES) nodejs node-d3-force)
