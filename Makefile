# Every target sets itself up: a fresh clone needs only `make test` or `make run`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GENERATED := clients/python/src/bhabhi/referee/v1/referee_pb2.py
PROTOS := $(wildcard proto/bhabhi/referee/v1/*.proto)
BUF_VERSION := 1.75.0
BUF := .tools/node_modules/.bin/buf
# The web table (web/): its npm tools, the TypeScript client generated from proto/ (never
# committed), and the built page inside the package, which the web port serves at "/".
WEB_MODULES := web/node_modules/.installed
WEB_CLIENT := web/src/gen/bhabhi/referee/v1/referee_pb.ts
WEB_SOURCES := $(wildcard web/src/*.ts web/src/*.html web/src/*.css)
PAGE := referee/server/page/index.html

.PHONY: setup proto page test lint unit run bench demo clean

setup: $(STAMP) $(GENERATED) $(PAGE)

$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet 'grpcio-tools>=1.60' 'mypy-protobuf>=3.6'
	$(BIN)/python tools/gen_proto.py
	$(BIN)/python -m pip install --quiet -e clients/python -e '.[test]'
	touch $(STAMP)

# The gRPC code is generated from proto/, never committed.
$(GENERATED): $(PROTOS) tools/gen_proto.py $(STAMP)
	$(BIN)/python tools/gen_proto.py
	touch $(GENERATED)

proto: setup
	$(BIN)/python tools/gen_proto.py

$(BUF):
	npm install --silent --no-audit --no-fund --prefix .tools @bufbuild/buf@$(BUF_VERSION)

$(WEB_MODULES): web/package.json web/package-lock.json
	cd web && npm ci --silent --no-audit --no-fund
	touch $(WEB_MODULES)

$(WEB_CLIENT): $(PROTOS) web/buf.gen.yaml $(WEB_MODULES) $(BUF)
	cd web && ../$(BUF) generate
	touch $(WEB_CLIENT)

# esbuild bundles web/src/main.ts into referee/server/page/ (app.js, index.html); app.css
# is the house style (referee/pagestyle.py) and then web/src/app.css.
$(PAGE): $(WEB_SOURCES) $(WEB_CLIENT) web/build.mjs $(WEB_MODULES) tools/page_css.py referee/pagestyle.py $(STAMP)
	cd web && node build.mjs
	$(BIN)/python tools/page_css.py web/src/app.css referee/server/page/app.css

page: $(PAGE)

test: setup lint unit

lint: setup $(BUF)
	cd web && node_modules/.bin/tsc --noEmit -p .
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python tools/gen_proto.py --check
	cd proto && ../$(BUF) lint
	@# buf breaking: the API must stay compatible with the last release, whose image
	@# (`buf build -o proto/releases/vX.Y.Z.binpb` at the release) is kept in the repository.
	@release=$$(ls proto/releases/v*.binpb 2>/dev/null | sort -V | tail -1); \
	if [ -n "$$release" ]; then echo "buf breaking against $$release"; \
	  $(BUF) breaking proto --against "$$release"; \
	else echo "buf breaking: no release image yet, nothing to compare against"; fi

unit: setup
	$(BIN)/pytest -q -n 2

# The main job: the referee on 127.0.0.1:50051 with its SQLite store in var/, and its
# Prometheus metrics at http://127.0.0.1:9464/metrics, and the API for browsers (Connect,
# gRPC-Web) at http://127.0.0.1:8080/.
run: setup
	$(BIN)/bhabhi serve --metrics-port 9464 --web-port 8080

# The engine, the referee against a gRPC echo, then 1, 2 and 3 replicas on PostgreSQL
# (skipped with a message when no PostgreSQL answers at BHABHI_BENCH_POSTGRES), then the
# conformance suite over gRPC against in process (the whole suite too with
# BENCH_CONFORMANCE_FULL=1). After the engine and the referee, bhabhi analyze beside
# bhabhi simulate on the same hands (the analysis's speed goal: >= 0.8x).
bench: setup
	$(BIN)/python -m bench --referee
	$(BIN)/python -m bench.analysis
	$(BIN)/python -m bench.replicas
	# The strong bot's Bhabhi rate in the arena, duplicate deals (goal: <= 15% vs heuristic, 3p).
	$(BIN)/python -m bench.strength
	# Code mutation testing of the engine: prints the score (a survivor is reported, not fatal).
	-$(BIN)/bhabhi conformance mutants --code --sample 48 --seed 1 --jobs 2
	$(BIN)/python -m bench.conformance

# A referee, four bots, one full hand, its transcript.
demo: setup
	$(BIN)/python tools/demo.py bhabho

clean:
	rm -rf $(VENV) .tools .pytest_cache .mypy_cache .ruff_cache var clients/python/src/bhabhi
	rm -rf web/node_modules web/src/gen referee/server/page
