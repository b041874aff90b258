# Sourced by scripts/test, scripts/test-dates and scripts/check: what the test runs share.

# Every test and hook is bounded (src/testing/node-test.ts reads the figure), and so is every test file, from the
# runner: a stuck test fails under its own name and the suite goes on. --test-force-exit ends a file once its tests
# are done, even when one that timed out left a timer or a socket behind.
TEST_TIMEOUT_S=120
FILE_TIMEOUT_S=600
export MEDORA_TEST_TIMEOUT_MS=$((TEST_TIMEOUT_S * 1000))
BOUNDED_TESTS=(--test-timeout=$((FILE_TIMEOUT_S * 1000)) --test-force-exit)

# Installs Debian package $1 for the command $2 when it is missing (as root), or stops and says how.
need_debian_package() {
  local package=$1 command=$2 why=$3
  [ -x "$command" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing Debian's $package $why"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
  else
    echo "$why, $command is needed. Install it, then run the tests again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y $package" >&2
    exit 1
  fi
}

# The unit and integration tests, slowest first by the last run's durations (scripts/slowest-first.js).
server_test_files() {
  find src scripts -name '*.test.ts' -not -name '*.browser.test.ts' -not -name '*.infra.test.ts' -not -path '*/node_modules/*' | node scripts/slowest-first.js server
}

# Test files run in parallel, each in a process with a database of its own; most of their time is spent
# waiting on a database or a browser, so more files than cores keep the cores busy.
SERVER_CONCURRENCY="${SERVER_CONCURRENCY:-3}"

# The integration tests (each with a database, a server process or a socket of its own), slowest first.
integration_test_files() {
  find src scripts -name '*.int.test.ts' -not -path '*/node_modules/*' | node scripts/slowest-first.js server
}

# What the runner starts for the integration tests: the short files packed into groups of one process each, written
# to test-results/groups (scripts/test-groups.js), and the files that keep a process of their own; slowest first.
integration_test_runs() {
  integration_test_files | node scripts/test-groups.js test-results/groups
}

# The unit tests in one process (scripts/one-process-tests.ts), reported by reporter $1 and run by the command
# given after it, if any (scripts/coverage's c8): started one process a file, they cost ten times their tests.
run_unit_tests() {
  local reporter=$1 unit_tests
  shift
  mapfile -t unit_tests < <(unit_test_files)
  "$@" timeout "$FILE_TIMEOUT_S" node --import tsx --test-reporter="$reporter" scripts/one-process-tests.ts "${unit_tests[@]}"
}

# The unit tests, then the integration tests with each file's duration recorded, run by the command given, if any
# (scripts/coverage's c8); then their time. Each test process leaves in test-results/contract what its answers
# were checked against (src/testing/contract-coverage.ts).
run_server_tests() {
  local started=$SECONDS integration_tests failed=0
  rm -rf test-results/contract
  mkdir -p test-results
  mapfile -t integration_tests < <(integration_test_runs)
  run_unit_tests spec "$@" || failed=1
  TEST_DURATIONS_FILE=test-results/durations-server.json \
    "$@" node --import tsx --test "${BOUNDED_TESTS[@]}" --test-concurrency="$SERVER_CONCURRENCY" "${RECORDING_DURATIONS[@]}" "${integration_tests[@]}" ||
    failed=1
  echo "server tests: $((SECONDS - started)) s"
  return "$failed"
}

# The browser tests, slowest first.
browser_test_files() {
  find src -name '*.browser.test.ts' | node scripts/slowest-first.js browser
}

# The test runner's reporters: spec on standard output, and each file's duration written to the file that
# TEST_DURATIONS_FILE names (scripts/test-durations-reporter.js).
RECORDING_DURATIONS=(--test-reporter=spec --test-reporter-destination=stdout
  --test-reporter=./scripts/test-durations-reporter.js --test-reporter-destination=/dev/null)

# The unit tests: the files that need neither a database, a server process nor a browser.
unit_test_files() {
  find src scripts -name '*.test.ts' -not -name '*.int.test.ts' -not -name '*.browser.test.ts' -not -name '*.infra.test.ts' -not -path '*/node_modules/*' | sort
}

# Biome's linter and formatter over the sources (biome.json): any finding, a warning too, fails.
check_lint() {
  npx biome ci --error-on-warnings .
}

# The template databases the tests copy and the split FHIR definitions they validate against, built once before
# the files run in parallel.
prepare_test_templates() {
  node --import tsx --input-type=module -e "await (await import('./src/testing/test-db.ts')).prepareTemplates();
    (await import('./src/testing/fhir-definitions.ts')).fhirDefinitionsCache();"
}

# The OpenAPI document as the server builds it: redocly's lint (redocly.yaml).
check_openapi_document() {
  local document_dir
  document_dir=$(mktemp -d)
  node --import tsx scripts/openapi-json.ts "$document_dir/openapi.json"
  REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint --format=stylish "$document_dir/openapi.json" || { rm -rf "$document_dir"; return 1; }
  rm -rf "$document_dir"
}

# migrations/schema.sql against the schema the migrations build now, dumped from a copy of the embedded template
# (built first when the migrations changed): no PostgreSQL server is needed.
check_schema_dump() {
  node --import tsx scripts/schema-dump.ts --check
}
