# forcelayout: `make run` to use it, `make test` to check it. Both install what is missing.

SHELL := /bin/bash
PORT ?= 8080
HOST ?= 127.0.0.1
# One file per room (NAME.json); room main's was .state/layout.json before rooms.
STATE_DIR ?= .state
# Debian's Python packages (websockets, selenium, pytest) serve the system interpreter.
PYTHON := /usr/bin/python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The force loops are built for this machine's vector unit when it has AVX2 and FMA (see
# Package.swift): about a fifth off a step at 100k cells. FORCELAYOUT_NATIVE= make build
# gives a binary that runs on any x86-64.
FORCELAYOUT_NATIVE ?= $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && echo avx2)
export FORCELAYOUT_NATIVE
RELEASE_BUILD := swift build -c release --product forcelayout

BUILD_PACKAGES := libwebsockets-dev libssl-dev zlib1g-dev libhiredis-dev pkg-config
# what the browser test (and make bench-page, make screenshot) need
BROWSER_PACKAGES := python3-websockets python3-selenium python3-pytest chromium chromium-driver
TEST_PACKAGES := $(BUILD_PACKAGES) $(BROWSER_PACKAGES) python3-pytest-xdist python3-prometheus-client nginx systemd node-d3-force python3-networkx python3-scipy redis-server openssl
# The e2e and browser tests mostly wait on servers and sockets, so they run in parallel
# (pytest-xdist, a module to a worker: a module's tests may share its server or windows).
# E2E_WORKERS=0 or BROWSER_WORKERS=0 runs them one at a time.
E2E_WORKERS ?= 4
BROWSER_WORKERS ?= 3
# what make bench's graph rows and make bench-graphs need (bench/graph_quality.py)
GRAPH_BENCH_PACKAGES := python3-networkx python3-scipy python3-graph-tool python3-igraph python3-cairo python3-websockets

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

.PHONY: run build deps test-deps test test-swift test-fuzz-corpus test-node test-e2e test-browser clean \
	bench bench-deps bench-graphs bench-page bench-scrub bench-import bench-room bench-history screenshot fuzz load load-rooms attack shape cluster cluster-deps load-cluster

## Install what is missing, build in release, serve on http://$(HOST):$(PORT)/
run: deps
	$(RELEASE_BUILD)
	@if [ -f $(STATE_DIR)/layout.json ] && [ ! -e $(STATE_DIR)/main.json ]; then \
		mv $(STATE_DIR)/layout.json $(STATE_DIR)/main.json && echo "moved $(STATE_DIR)/layout.json to $(STATE_DIR)/main.json (room main)"; fi
	.build/release/forcelayout serve --host $(HOST) --port $(PORT) --state-dir $(STATE_DIR)

build: deps
	$(RELEASE_BUILD)

## A local Redis (free port, no persistence, in .state/redis) and three servers sharing it on
## http://127.0.0.1:8080/, :8081/ and :8082/ (nodes a, b, c); Ctrl-C stops all of them.
cluster: deps cluster-deps
	$(RELEASE_BUILD)
	@$(PYTHON) bench/cluster.py

cluster-deps:
	$(call ensure_packages,redis-server)

deps:
	$(call ensure_packages,$(BUILD_PACKAGES))

test-deps:
	$(call ensure_packages,$(TEST_PACKAGES))

## Every suite: Swift unit tests, node tests of the page's modules, end-to-end, browser
test: test-deps
	swift build --build-tests
	$(MAKE) --no-print-directory test-swift test-fuzz-corpus test-node test-e2e test-browser

test-swift:
	swift test --skip-build --disable-swift-testing

## The fuzz corpus (Tests/fuzz/corpus) replayed through the fuzzer's checks, in the plain build.
test-fuzz-corpus:
	.build/debug/forcelayout-fuzz Tests/fuzz/corpus

test-node:
	node --test Tests/web/

## The tests marked `alone` (wall-clock figures; Tests/e2e/conftest.py) run one at a time after the rest.
test-e2e:
	FORCELAYOUT_BIN=$(CURDIR)/.build/debug/forcelayout $(PYTHON) -m pytest -q -n $(E2E_WORKERS) --dist loadfile -m "not alone" Tests/e2e
	FORCELAYOUT_BIN=$(CURDIR)/.build/debug/forcelayout $(PYTHON) -m pytest -q -m alone Tests/e2e

test-browser:
	FORCELAYOUT_BIN=$(CURDIR)/.build/debug/forcelayout $(PYTHON) -m pytest -q -n $(BROWSER_WORKERS) --dist loadfile $(wildcard Tests/web/test_*.py)

clean:
	rm -rf .build

## Speed against d3-force (1k, 10k, 100k cells) and steps to settle, then the graph row (against
## d3-force, and layout quality against sfdp and DrL on Les Miserables and a 10k-node graph: make
## bench-graphs alone); never part of `make test`. About ten minutes.
## Subsets: make bench BENCH_ARGS="--sizes 1000,10000 --reps 1 --no-graph-quality"
bench: bench-deps
	$(RELEASE_BUILD)
	NODE_PATH=/usr/share/nodejs $(PYTHON) bench/run.py $(BENCH_ARGS)

bench-deps:
	$(call ensure_packages,$(BUILD_PACKAGES) nodejs node-d3-force $(GRAPH_BENCH_PACKAGES))

## Layout quality against graph-tool's sfdp_layout and igraph's DrL: Les Miserables, a 100x100 grid,
## a random geometric graph, a random tree and Barabasi-Albert (10k nodes each) and a 100k-node
## Delaunay mesh, drawn by all three (forcelayout through the real server); stress, neighbourhood
## preservation, edge-length variation, times, picture sheets in .bench/graphs. Never part of
## `make test`. Half an hour or more on 2 cores (sfdp takes ~1 min a 10k graph here).
## Subsets: make bench-graphs BENCH_GRAPHS_ARGS="--only lesmis,grid --timeout 60"
##          make bench-graphs BENCH_GRAPHS_ARGS="--skip-100k" or "--graph my.json"
bench-graphs: bench-deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/graph_quality.py $(BENCH_GRAPHS_ARGS)

## Render rate of the page in headless Chromium with 1k, 10k and 100k moving cells streamed
## from the real server, then graphs of 10k cells with 20k links and 100k with 200k, and the
## draw's split (links, cells, labels); never part of `make test`. About three minutes.
## Subsets: make bench-page BENCH_PAGE_ARGS="--sizes 1000,10000 --seconds 4"
bench-page:
	$(call ensure_packages,$(BUILD_PACKAGES) $(BROWSER_PACKAGES))
	$(RELEASE_BUILD)
	$(PYTHON) bench/page.py $(BENCH_PAGE_ARGS)
	node bench/search.mjs

## Issue 27: how soon the page shows each moment while its timeline's handle is dragged
## through the past of a 10k-cell room (bench/scrub.py; SCRUB_ARGS, e.g. --minutes 60)
bench-scrub:
	$(call ensure_packages,$(BUILD_PACKAGES) $(BROWSER_PACKAGES))
	$(RELEASE_BUILD)
	$(PYTHON) bench/scrub.py $(SCRUB_ARGS)

## Issue 23: a 500x500 grid (250k nodes, 499k links) through `forcelayout import` into a fresh
## release server: the import's wall time (target 15 s), then frames/s, steps/s and the longest
## gap between frames a viewer saw during it and after. Never part of `make test`. About a minute.
## Subsets: make bench-import BENCH_IMPORT_ARGS="--side 200 --after 5"
bench-import: deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/import_speed.py $(BENCH_IMPORT_ARGS)

## Issue 24: one room of 100k moving cells read by v2 clients only, then by v2 and v1 ones, in
## turn: steps/s, the server's CPU a step and frames/s a reader (a room writes v1 text frames only
## while a v1 client is in it). Never part of `make test`. About two minutes.
## Subsets: make bench-room BENCH_ROOM_ARGS="--cells 10000,100000 --seconds 5 --rounds 2"
bench-room: deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/room_stepping.py $(BENCH_ROOM_ARGS)

## Issue 27: what a room's history costs on a fresh release server: its bytes a minute for a
## 10k-cell room that moves and one that settles, the stepping thread's time on it (against the
## 5% of a step allowed), then a busy 10k-cell room's history (changes, a clear and re-import a
## minute) scrubbed at 200 random moments: the answer's time p50/p99/max and size, with and
## without `have`. Never part of `make test`. About five minutes.
## Subsets: make bench-history BENCH_HISTORY_ARGS="--minute 20 --seconds 60 --scrubs 50"
bench-history: deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/history.py $(BENCH_HISTORY_ARGS)

## Protocol v2, 2k cells moving at 20 Hz: 500 reading + 5 stalled + 1 slow (a quarter of the
## bandwidth) WebSocket clients for 60 s against the issue's targets, then 1000 readers reported;
## the load tool on one thread per core, its CPU beside the server's. Never part of `make test`.
## About 3 minutes. Subsets: make load LOAD_ARGS="--readers 500 --seconds 10"
load: deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/load.py $(LOAD_ARGS)

## A cluster on this machine: Redis + 3 servers, one room of 2k moving cells, readers dealt out over
## all three, against the same readers on one server (the most readers with 95% of the frames and
## p99 < 150 ms), Redis's CPU and bytes; then the time a failover takes (median of 10 kill -9s).
## Never part of `make test`. About eight minutes.
## Subsets: make load-cluster LOAD_CLUSTER_ARGS="--readers 300 --seconds 10 --kills 3"
load-cluster: deps cluster-deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/load_cluster.py $(LOAD_CLUSTER_ARGS)

## Rooms under load: 200 rooms x 500 moving cells (tickRate 10, a reader each; with and without
## --state-dir), 1,000 settled rooms nobody is in, start-up on 10,000 room files; against the
## issue's targets. Never part of `make test`. About two minutes.
## Subsets: make load-rooms LOAD_ROOMS_ARGS="--only moving --seconds 10"
load-rooms: deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/load_rooms.py $(LOAD_ROOMS_ARGS)

## What one machine's attacker costs the server: 100 never-reading replay clients (RSS against
## the byte budget), then 20,000 idle connections that never upgrade (descriptors, CPU, and how
## long a fresh client waits for hello), amplification through update (1,000 long-labelled cells, 20 joiners that
## never read), export loops of a 100k-cell room on disk against a probe's hello, 100 exports never read (RSS),
## and "Redis poison": what a writer to a cluster's Redis sends three servers (servers alive, hello time).
## Never part of `make test`. About three minutes.
## Subsets: make attack ATTACK_ARGS="--idle 5000 --addresses 20 --skip-replay --skip-export --skip-redis"
##          make attack ATTACK_ARGS="--only-redis --poison-seconds 20"
attack: deps cluster-deps
	$(RELEASE_BUILD)
	$(PYTHON) bench/attack.py $(ATTACK_ARGS)

## The code's shape in numbers: longest functions and files, files naming each parameter.
shape:
	$(PYTHON) bench/shape.py

## docs/screenshot.png: the page (1280x800) with a few hundred cells from two clients, settled;
## docs/lesmis.png: Les Miserables imported through the page, its communities as groups.
## The release binary, so the status line shows a real step time.
screenshot:
	$(call ensure_packages,$(BUILD_PACKAGES) $(BROWSER_PACKAGES))
	$(RELEASE_BUILD)
	FORCELAYOUT_SCREENSHOT=$(CURDIR)/docs/screenshot.png FORCELAYOUT_BIN=$(CURDIR)/.build/release/forcelayout \
		$(PYTHON) -m pytest -q Tests/web/test_browser.py -k test_screenshot
	FORCELAYOUT_LESMIS_SCREENSHOT=$(CURDIR)/docs/lesmis.png FORCELAYOUT_BIN=$(CURDIR)/.build/release/forcelayout \
		$(PYTHON) -m pytest -q Tests/web/test_data.py -k test_lesmis_screenshot

## libFuzzer (with AddressSanitizer) over what a client message goes through before it changes
## anything: JSON parser, MessageDecoder, error reply, the command on a small layout; and the
## handshake's keys (offer, Authorization) and a replicated access (HandshakeFuzzer). Never part
## of `make test`. Seeds: Tests/fuzz/corpus; new inputs go to .fuzz/corpus, crashes to .fuzz/.
## Replay without sanitizers: swift build && .build/debug/forcelayout-fuzz Tests/fuzz/corpus .fuzz/corpus
FUZZ_SECONDS ?= 600
fuzz: deps
	set -o pipefail; swift build -c debug --product forcelayout-fuzz -Xswiftc -sanitize=fuzzer,address \
		-Xswiftc -parse-as-library -Xswiftc -DFUZZING --build-path .build-fuzz 2>&1 | grep -v "Cannot export local symbol"
	mkdir -p .fuzz/corpus
	.build-fuzz/debug/forcelayout-fuzz .fuzz/corpus Tests/fuzz/corpus -dict=Tests/fuzz/json.dict \
		-max_len=65536 -timeout=10 -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=.fuzz/ -print_final_stats=1
