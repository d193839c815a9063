#!/usr/bin/env bash
# The install step of the GitHub Action (action.yml): puts `mcp-test` on the job's PATH with no
# Rust toolchain, from PyPI (a virtualenv of its own) or npm (a prefix of its own), the package
# `mcp-test-cli`. INPUT_PACKAGE picks a version, or a local wheel or npm tarball to install
# instead (a build under test).
set -euo pipefail

fail() {
  echo "::error title=mcp-test action::$*"
  exit 2
}

[ -n "${GITHUB_PATH:-}" ] || fail "GITHUB_PATH is not set: run this as a step of a GitHub Actions job"
base="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcp-test-cli"
package="${INPUT_PACKAGE:-}"
case "${INPUT_INSTALL:-pip}" in
  pip)
    case "$package" in
      "") spec=mcp-test-cli ;;
      *.whl) spec="$package" ;;
      *) spec="mcp-test-cli==$package" ;;
    esac
    python=python3
    command -v "$python" >/dev/null 2>&1 || python=python
    "$python" -m venv "$base/venv" || fail "cannot create a virtualenv with $python"
    bin="$base/venv/bin"
    [ -d "$bin" ] || bin="$base/venv/Scripts" # Windows
    "$bin/python" -m pip install --quiet --disable-pip-version-check "$spec" ||
      fail "cannot install $spec from PyPI"
    ;;
  npm)
    case "$package" in
      "") spec=mcp-test-cli ;;
      *.tgz) spec="$package" ;;
      *) spec="mcp-test-cli@$package" ;;
    esac
    # A package and its platform binary package can be given as one input, space-separated.
    # shellcheck disable=SC2086
    npm install --prefix "$base/npm" --no-audit --no-fund --silent $spec ||
      fail "cannot install $spec from npm"
    bin="$base/npm/node_modules/.bin"
    ;;
  *) fail "input 'install' is pip, npm or none, not '${INPUT_INSTALL}'" ;;
esac
[ -x "$bin/mcp-test" ] || [ -x "$bin/mcp-test.exe" ] || [ -f "$bin/mcp-test.cmd" ] ||
  fail "the install put no mcp-test in $bin"
echo "$bin" >>"$GITHUB_PATH"
echo "installed $spec: $bin/mcp-test"
