.DEFAULT_GOAL := help
.PHONY: help install start dev build check test coverage test-infra test-pgbouncer test-dates bench bench-day lighthouse clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-14s %s\n", $$1, $$2}'

node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

install: node_modules ## install dependencies (npm ci)

build: node_modules ## bundle the web UI into dist/web and the command line into dist/cli, which medora runs
	npm run --silent build

start: build ## install, build and start Medora with the demo clinic at http://127.0.0.1:3000
	npm start

dev: build ## build once, then run the server and rebuild the UI on change
	npm run --silent dev & npm start; kill %1

check: node_modules ## the fast inner loop: type check, lint and format check (Biome), the unit tests that need no database
	bash scripts/check

test: node_modules ## run every test: types, lint and format, unit, integration (PGlite and TEST_DATABASE_URL), browser
	npm test

coverage: node_modules ## the unit and integration tests under c8: the server's coverage in coverage/ (HTML) and on standard output
	bash scripts/coverage

test-infra: node_modules ## PgBouncer in transaction mode, a read replica and a failover, started for real, and a few HTTP files through PgBouncer (TEST_DATABASE_URL; minutes)
	bash scripts/test-infra

test-pgbouncer: node_modules ## every HTTP integration file through PgBouncer in transaction mode, two instances each (TEST_DATABASE_URL; as long as make test)
	bash scripts/test-pgbouncer

test-dates: node_modules ## the unit and integration tests on PGlite at five tricky instants under faketime (minutes)
	bash scripts/test-dates

bench: build ## hospital-scale benchmark (pass ARGS="--scale small" for a quick run)
	npm run --silent bench -- $(ARGS)

bench-day: build ## a 400-user hospital day on two medora serve instances (DATABASE_URL; keeps its hospital; ARGS="--users 100 --minutes 2 --scale small" for a short one)
	node --import tsx scripts/bench/hospital-day.ts $(ARGS)

lighthouse: node_modules ## Lighthouse mobile performance of /, /login and the patient's pages (builds; fails under 95)
	npm run --silent lighthouse

clean: ## remove build output, coverage, test results and the embedded database
	rm -rf dist coverage test-results data
