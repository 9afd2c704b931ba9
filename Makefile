# Herald: `make run` serves on 127.0.0.1:8080 with an embedded PostgreSQL; `make test` runs every test.
SHELL := /bin/bash
SWIFT ?= swift

.PHONY: all deps build build-debug run bench test test-swift test-api format clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product herald

build-debug: deps
	$(SWIFT) build --build-tests

run: build
	.build/release/herald serve

bench: build
	.build/release/herald bench $(BENCH_ARGS)

test: deps
	@scripts/test.sh

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build .venv
