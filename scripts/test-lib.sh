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

# The files given on stdin, the ones named as arguments first (when present), so that the slowest files start
# first, the files left at the end are short ones and both cores stay busy until the suite ends.
slowest_first() {
  local slow=("$@") file
  mapfile -t all_files
  for file in "${slow[@]}"; do [[ " ${all_files[*]} " == *" $file "* ]] && echo "$file"; done
  for file in "${all_files[@]}"; do [[ " ${slow[*]} " == *" $file "* ]] || echo "$file"; done
}

# The unit and integration tests, slowest first (each named here takes over 30 s on a busy machine).
server_test_files() {
  find src scripts -name '*.test.ts' -not -name '*.browser.test.ts' -not -path '*/node_modules/*' | sort |
    slowest_first src/cli/embedded-server.int.test.ts src/db/nightly-backup.int.test.ts src/cli/import.int.test.ts src/http/fuzz.int.test.ts
}

# The unit tests: the files that need neither a database, a server process nor a browser.
unit_test_files() {
  find src scripts -name '*.test.ts' -not -name '*.int.test.ts' -not -name '*.browser.test.ts' -not -path '*/node_modules/*' | sort
}

# The template databases the tests copy, built once before the files run in parallel.
prepare_test_templates() {
  node --import tsx --input-type=module -e "await (await import('./src/testing/test-db.ts')).prepareTemplates()"
}

# The OpenAPI document as the server builds it: redocly's lint (redocly.yaml).
check_openapi_document() {
  local document_dir
  document_dir=$(mktemp -d)
  node --import tsx scripts/openapi-json.ts "$document_dir/openapi.json"
  REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint --format=stylish "$document_dir/openapi.json" || { rm -rf "$document_dir"; return 1; }
  rm -rf "$document_dir"
}
