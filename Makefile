# docket: `make demo` sets up a fresh Debian machine and runs the main job on
# examples/inbox; `make test` runs the test suite. Both install what they need.
SHELL := /bin/bash
GO ?= go
BIN := bin/docket
CORPUS ?= ../shared/corpus
APT_PACKAGES := libtesseract-dev libleptonica-dev tesseract-ocr-eng tesseract-ocr-osd poppler-utils python3-fitz fonts-dejavu-core
# `make test` also opens the generated docs site in a headless browser.
TEST_APT_PACKAGES := chromium
export OMP_THREAD_LIMIT ?= 1

.PHONY: setup setup-test node-client build demo test eval bench clean fmt vet fuzz hostile golden

# System packages (Tesseract, leptonica, Poppler's pdftotext and PyMuPDF for
# the side-by-side benchmark) and Go modules.
setup:
	@$(MAKE) --no-print-directory apt-install PKGS="$(APT_PACKAGES)"
	$(GO) mod download

# Debian's chromium for the docs site test (loader/internal/docs).
setup-test:
	@$(MAKE) --no-print-directory apt-install PKGS="$(TEST_APT_PACKAGES)"

.PHONY: apt-install
apt-install:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# A second DuckDB client for the end-to-end test's read-only check
# (same DuckDB version as duckdb-go), from the npm registry.
# The oldest @duckdb/node-api on npm (DuckDB 1.1.2) checks that the README's notebook queries
# run on the oldest client the README claims.
NODE_API := @duckdb/node-api@1.5.6-r.1
NODE_API_OLD := @duckdb/node-api@1.1.2-alpha.4
node-client:
	@if command -v npm >/dev/null 2>&1 && [ ! -d .cache/node/node_modules/@duckdb/node-api ]; then \
	  mkdir -p .cache/node && cd .cache/node && npm install --silent --no-audit --no-fund $(NODE_API); fi
	@if command -v npm >/dev/null 2>&1 && [ ! -d .cache/node-old/node_modules/@duckdb/node-api ]; then \
	  mkdir -p .cache/node-old && cd .cache/node-old && npm install --silent --no-audit --no-fund $(NODE_API_OLD); fi

# docket and, beside it, docket-worker: the extraction worker that `docket
# load` starts (only it links the extractors, so their package
# initialisation does not slow every docket command).
# The touch dates the build: go build leaves an up-to-date binary alone, and
# the benchmark programs refuse a bin/docket older than the source it is
# built from (loader/tools/internal/bench.Fresh).
build: setup
	$(GO) build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker
	touch bin/docket bin/docket-worker

demo: build
	rm -f warehouse.duckdb warehouse.duckdb.wal warehouse.read.duckdb warehouse.read.duckdb.json
	$(BIN) load
	$(BIN) build
	$(BIN) sql "select detected_type, status, coalesce(error_kind, '') as error_kind, count(*) as docs from raw.documents group by all order by all"
	$(BIN) sql "select rel_path, quality_verdict, pages, ocr_pages, chunks from curated.documents order by rel_path"
	$(BIN) search "termination notice period" -k 3
	$(BIN) docs generate

test: setup setup-test node-client
	@test -z "$$(gofmt -l loader third_party)" || { echo "gofmt needed:"; gofmt -l loader third_party; exit 1; }
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 45m ./...
	$(GO) test -count=1 -tags dkhooktest -run TestHookStatePerThread ./loader/internal/extract/pdf/
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(TEST_FUZZTIME)

eval: build
	@if [ ! -d "$(CORPUS)" ]; then echo "corpus $(CORPUS) not found, eval skipped"; exit 0; fi; \
	set -e; for t in eval-load eval-formats eval-html eval-ocr eval-rtl eval-neardup eval-tables eval-retrieval; do \
	  if [ -d loader/tools/$$t ]; then echo "== $$t"; $(GO) run ./loader/tools/$$t -corpus $(CORPUS); fi; \
	done

bench: build
	@set -e; for t in bench-start bench-load bench-pdf bench-ocr bench-neardup bench-dedup bench-runner bench-embed bench-search bench-scale bench-shard bench-publish bench-docs; do \
	  if [ -d loader/tools/$$t ]; then echo "== $$t"; $(GO) run ./loader/tools/$$t -corpus $(CORPUS); fi; \
	done

# Fuzz targets of every parser entry point that takes user bytes. `go test`
# runs their seed corpora; `make fuzz` runs each under the fuzzer for
# FUZZTIME (instrumented builds take a minute or two first), and `make test`
# for TEST_FUZZTIME each: a count of inputs, not a duration, so a loaded CI
# machine fuzzes slower instead of hitting Go's deadline race (see .ci/fuzz).
FUZZTIME ?= 60s
TEST_FUZZTIME ?= 3000x
FUZZ_TARGETS := detect:FuzzDetectBytes extract/text:FuzzExtractBytes extract/html:FuzzExtractBytes \
	extract/email:FuzzExtractBytes extract/office:FuzzDOCXXML extract/office:FuzzCSV
fuzz:
	@GO="$(GO)" ./.ci/fuzz $(FUZZTIME) $(FUZZ_TARGETS)

# Rewrite the golden files (testdata/golden) after an intended output change: -update is a flag of the
# packages whose tests compare with golden files only, so `go test ./... -update` would fail elsewhere.
GOLDEN_PKGS = $$(grep -rl --include=*_test.go -e 'extracttest\.' -e 'testflags\.Update' loader | xargs -n1 dirname | sort -u | sed 's|^|./|')
golden: setup
	$(GO) test -count=1 $(GOLDEN_PKGS) -update
	git status --short -- '*testdata/golden*'

# The hostile-input suite at full length: 50 randomized change-during-load
# trials, the odd-entries folder, and the hostile-file retries; then the
# bombs folder (loader/tools/hostile: zip, PDF content-stream, XLSX, image,
# page-count, text and XML bombs, generated once under HOSTILE_DIR) loaded
# twice by the real `docket load`, with issue 17's targets checked: first
# load under 2 minutes, second under 5 s, every file landed or quarantined,
# no worker over loader.max_worker_memory, no page or document over the
# text limits. HOSTILE_FLAGS=-text-mib 64 makes the one-line text smaller.
HOSTILE_DIR ?= /tmp/docket-hostile
HOSTILE_FLAGS ?=
hostile:
	DOCKET_IDENTITY_TRIALS=50 $(GO) test -count=1 -timeout 60m ./loader/internal/loader/ \
	  -run 'TestContentIdentityUnderChanges|TestOddEntriesLoadOrAreRecorded|TestHostileFilesCostOnce|TestUnreadableFileIsTransient|TestKilledLoadsLeaveNoTemporaryFolders' -v
	$(GO) build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker
	$(GO) run ./loader/tools/hostile -docket $(BIN) -dir $(HOSTILE_DIR) $(HOSTILE_FLAGS)

fmt:
	gofmt -w loader third_party

vet:
	$(GO) vet ./...

clean:
	rm -rf bin target warehouse.duckdb warehouse.duckdb.wal warehouse.read.duckdb warehouse.read.duckdb.json
