#!/usr/bin/env bash
# The check step of the GitHub Action (action.yml): runs `mcp-test check` on the server the
# inputs name, printing its findings as workflow commands (annotations) and appending its job
# summary to $GITHUB_STEP_SUMMARY, writing the SARIF and HTML reports asked for, and records
# the exit code and the files in $GITHUB_OUTPUT. It exits 0 whatever the check found, so that
# the SARIF upload still runs; the action's last step fails the job with the check's code.
# It exits non-zero itself only when it cannot run the check at all (bad inputs).
set -euo pipefail

fail() {
  echo "::error title=mcp-test action::$*"
  exit 2
}

[ -n "${GITHUB_OUTPUT:-}" ] || fail "GITHUB_OUTPUT is not set: run this as a step of a GitHub Actions job"
command -v mcp-test >/dev/null 2>&1 ||
  fail "mcp-test is not on PATH: set the input 'install' to pip or npm, or install it before this step"
if [ -n "${INPUT_COMMAND:-}" ] && [ -n "${INPUT_URL:-}" ]; then
  fail "give the input 'command' or 'url', not both"
fi

# Shell words, as a workflow author writes them: `python server.py --root "a b"`. (eval, not a
# nameref: macOS runners' bash is 3.2.)
extra=()
eval "extra=(${INPUT_ARGS:-})" || fail "input 'args' is not valid shell words: ${INPUT_ARGS:-}"
args=(check --format github)
[ -n "${INPUT_SARIF:-}" ] && args+=(--sarif "$INPUT_SARIF")
[ -n "${INPUT_HTML:-}" ] && args+=(--html "$INPUT_HTML")
[ -n "${INPUT_LOCATION:-}" ] && args+=(--location "$INPUT_LOCATION")
args+=("${extra[@]}")
if [ -n "${INPUT_URL:-}" ]; then
  args+=(--url "$INPUT_URL")
elif [ -n "${INPUT_COMMAND:-}" ]; then
  server=()
  eval "server=($INPUT_COMMAND)" || fail "input 'command' is not valid shell words: $INPUT_COMMAND"
  args+=(-- "${server[@]}")
fi

echo "::group::mcp-test ${args[*]}"
mcp-test --version || true
echo "::endgroup::"
code=0
mcp-test "${args[@]}" || code=$?
{
  echo "exit-code=$code"
  if [ -n "${INPUT_SARIF:-}" ] && [ -f "$INPUT_SARIF" ]; then echo "sarif=$INPUT_SARIF"; else echo "sarif="; fi
  if [ -n "${INPUT_HTML:-}" ] && [ -f "$INPUT_HTML" ]; then echo "html=$INPUT_HTML"; else echo "html="; fi
} >>"$GITHUB_OUTPUT"
case "$code" in
  0) echo "mcp-test check: no defect" ;;
  1) echo "mcp-test check: defects found (exit 1)" ;;
  2) echo "mcp-test check: the check could not run to its end (exit 2)" ;;
  *) echo "mcp-test check: exited $code" ;;
esac
exit 0
