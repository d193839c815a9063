"""Runs the GitHub Action of this repository (action.yml) the way a runner does, and holds it to
what its README promises.

A runner runs a composite action's steps in order: it evaluates each `if:` (with `always()`,
`success()`, `failure()`, `inputs.*` and `steps.*.outputs.*`), substitutes `${{ ... }}` in
`run`, `env` and `with`, runs a bash step as `bash --noprofile --norc -eo pipefail FILE` with
GITHUB_ACTION_PATH, GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_ACTIONS and a fresh GITHUB_OUTPUT,
GITHUB_PATH and GITHUB_STEP_SUMMARY file per step, reads the step's outputs back (`name=value`
and `name<<DELIMITER` blocks), prepends what it wrote to GITHUB_PATH to the PATH of later steps,
and fails the job when a step exits non-zero. This script does the same, except that a `uses:`
step (the SARIF upload) is recorded with its inputs instead of run. An expression it does not
know is an error, so the action cannot drift into syntax this emulation does not check.

python3 scripts/action-test.py MCP_TEST_DIR BROKEN_SERVER FIXTURE [WHEEL]
Exits 1 naming each scenario that failed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


class Job:
    def __init__(self, inputs, env_path):
        self.action = yaml.safe_load((ROOT / "action.yml").read_text())
        declared = self.action["inputs"]
        unknown = set(inputs) - set(declared)
        if unknown:
            raise SystemExit(f"action-test: inputs the action does not declare: {sorted(unknown)}")
        self.inputs = {k: str(v.get("default", "")) for k, v in declared.items()}
        self.inputs.update(inputs)
        self.steps = {}
        self.failed = False
        self.log = []
        self.stdout = ""
        self.summary = ""
        self.uses = []
        self.path = env_path
        self.temp = Path(tempfile.mkdtemp(prefix="mcp-test-action-"))
        self.workspace = self.temp / "workspace"
        self.workspace.mkdir()

    # --- expressions -------------------------------------------------------------------------
    def value(self, expr):
        expr = expr.strip()
        if m := re.fullmatch(r"inputs\.([A-Za-z0-9_-]+)", expr):
            if m[1] not in self.inputs:
                raise SystemExit(f"action-test: the action reads an undeclared input {m[1]}")
            return self.inputs[m[1]]
        if m := re.fullmatch(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", expr):
            return self.steps.get(m[1], {}).get(m[2], "")
        if m := re.fullmatch(r"'((?:[^']|'')*)'", expr):
            return m[1].replace("''", "'")
        if expr == "always()":
            return True
        if expr == "success()":
            return not self.failed
        if expr == "failure()":
            return self.failed
        if expr in ("true", "false"):
            return expr == "true"
        raise SystemExit(f"action-test: an expression this emulation does not know: {expr!r}")

    def condition(self, expr):
        """`a && b`, `a || b`, `!a`, `x == y`, `x != y` over values; no parentheses."""
        expr = expr.strip()
        if expr.startswith("${{") and expr.endswith("}}"):
            expr = expr[3:-2].strip()
        if "(" in expr.replace("always()", "").replace("success()", "").replace("failure()", ""):
            raise SystemExit(f"action-test: parentheses in an if: this emulation does not know: {expr!r}")
        for op in ("||", "&&"):
            if op in expr:
                parts = [self.condition(p) for p in expr.split(op)]
                return any(parts) if op == "||" else all(parts)
        for op in ("==", "!="):
            if op in expr:
                left, right = (self.value(p) for p in expr.split(op, 1))
                same = str(left).lower() == str(right).lower()
                return same if op == "==" else not same
        if expr.startswith("!"):
            return not self.condition(expr[1:])
        return bool(self.value(expr))

    def substitute(self, text):
        return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(self.value(m[1])), str(text))

    # --- steps -------------------------------------------------------------------------------
    def run(self):
        for step in self.action["runs"]["steps"]:
            name = step.get("name", step.get("id", "?"))
            condition = step.get("if")
            # A step with no `if` runs only while the job is still succeeding.
            runs = self.condition(condition) if condition else not self.failed
            if not runs:
                self.log.append(f"skipped: {name}")
                continue
            if "uses" in step:
                inputs = {k: self.substitute(v) for k, v in step.get("with", {}).items()}
                self.uses.append((step["uses"], inputs))
                self.log.append(f"uses: {name}: {step['uses']} {inputs}")
                continue
            if step.get("shell") != "bash":
                raise SystemExit(f"action-test: step {name!r} has shell {step.get('shell')!r}, not bash")
            files = {k: self.temp / f"{k}-{len(self.log)}" for k in ("output", "path", "summary")}
            for f in files.values():
                f.write_text("")
            script = self.temp / f"step-{len(self.log)}.sh"
            script.write_text(self.substitute(step["run"]) + "\n")
            env = dict(os.environ)
            env.update({k: self.substitute(v) for k, v in step.get("env", {}).items()})
            env.update({
                "GITHUB_ACTIONS": "true",
                "CI": "true",
                "RUNNER_OS": "Linux",
                "RUNNER_TEMP": str(self.temp),
                "GITHUB_ACTION_PATH": str(ROOT),
                "GITHUB_WORKSPACE": str(self.workspace),
                "GITHUB_OUTPUT": str(files["output"]),
                "GITHUB_PATH": str(files["path"]),
                "GITHUB_STEP_SUMMARY": str(files["summary"]),
                "PATH": os.pathsep.join(self.path + [os.environ["PATH"]]),
            })
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace, env=env, capture_output=True, text=True, timeout=300,
            )
            self.stdout += done.stdout
            self.summary += files["summary"].read_text()
            self.path = [p for p in files["path"].read_text().splitlines() if p] + self.path
            if "id" in step:
                self.steps[step["id"]] = outputs(files["output"].read_text())
            self.log.append(f"ran: {name}: exit {done.returncode}")
            if done.returncode != 0:
                self.failed = True
                self.log.append(f"  stderr: {done.stderr.strip()[-2000:]}")
        return self


def outputs(text):
    found, lines = {}, iter(text.splitlines())
    for line in lines:
        if m := re.fullmatch(r"([A-Za-z0-9_-]+)<<(.+)", line):
            block = []
            for inner in lines:
                if inner == m[2]:
                    break
                block.append(inner)
            found[m[1]] = "\n".join(block)
        elif "=" in line:
            key, value = line.split("=", 1)
            found[key] = value
    return found


def last_step(job):
    """The log line of the last step that ran or was skipped."""
    return [l for l in job.log if not l.startswith("  ")][-1]


def annotations(stdout):
    return [l for l in stdout.splitlines() if re.match(r"::(error|warning|notice) ", l)]


def main():
    mcp_dir, broken, fixture = sys.argv[1:4]
    wheel = sys.argv[4] if len(sys.argv) > 4 else None
    failures = []

    def expect(scenario, ok, why, job):
        if not ok:
            failures.append(f"{scenario}: {why}\n  " + "\n  ".join(job.log) + "\n  stdout:\n    "
                            + job.stdout.replace("\n", "\n    ")[-3000:])

    # 1. A clean server: exit 0, the job passes, the SARIF is uploaded, the summary written.
    job = Job({"command": fixture, "install": "none"}, [mcp_dir]).run()
    out = job.steps.get("check", {})
    sarif = job.workspace / "mcp-test.sarif"
    expect("clean", not job.failed and out.get("exit-code") == "0", f"outputs {out}", job)
    expect("clean", out.get("sarif") == "mcp-test.sarif" and sarif.is_file(), "no SARIF written", job)
    expect("clean", (job.workspace / "mcp-test.html").is_file(), "no HTML written", job)
    expect("clean", job.uses == [("github/codeql-action/upload-sarif@v3",
                                  {"sarif_file": "mcp-test.sarif", "category": "mcp-test"})],
           f"the upload ran as {job.uses}", job)
    expect("clean", "## mcp-test check" in job.summary, "no job summary", job)
    expect("clean", not [a for a in annotations(job.stdout) if a.startswith("::error")],
           "error annotations on a clean server", job)

    # 2. A server with defects: every SARIF error is an ::error annotation, the job fails with 1,
    #    after the upload ran.
    command = f"{broken} --break base/error-code-string --break tools/list-duplicate-name"
    job = Job({"command": command, "install": "none", "location": "server.py"}, [mcp_dir]).run()
    out = job.steps.get("check", {})
    expect("defects", out.get("exit-code") == "1", f"exit-code {out.get('exit-code')}", job)
    expect("defects", job.failed and last_step(job) == "ran: Fail the job as mcp-test check did: exit 1",
           "the last step did not fail the job with 1", job)
    expect("defects", len(job.uses) == 1, "the SARIF was not uploaded before failing", job)
    log = json.loads((job.workspace / "mcp-test.sarif").read_text())
    errors = [r for r in log["runs"][0]["results"] if r["level"] == "error"]
    marked = [a for a in annotations(job.stdout) if a.startswith("::error file=server.py,")]
    expect("defects", errors and len(errors) == len(marked),
           f"{len(errors)} SARIF errors but {len(marked)} ::error annotations at server.py", job)
    expect("defects", "### Findings" in job.summary, "the summary has no findings table", job)

    # 3. A server that cannot be reached: exit 2, the job fails with 2.
    job = Job({"command": "sh -c 'exit 3'", "install": "none", "args": "--connect-timeout 5"},
              [mcp_dir]).run()
    out = job.steps.get("check", {})
    expect("unreachable", out.get("exit-code") == "2" and job.failed, f"outputs {out}", job)

    # 4. Bad inputs: the check step itself fails, naming them, and the job fails.
    job = Job({"command": fixture, "url": "http://127.0.0.1:9/mcp", "install": "none"},
              [mcp_dir]).run()
    expect("both targets", job.failed and "not both" in job.stdout, "no error naming the inputs", job)
    expect("both targets", last_step(job) == "ran: Fail the job as mcp-test check did: exit 2",
           "the job did not fail with 2", job)
    job = Job({"install": "none"}, []).run() if not os.environ.get("MCP_TEST_ON_PATH") else None
    if job is not None:
        on_path = subprocess.run(["bash", "-c", "command -v mcp-test"], capture_output=True).returncode == 0
        if not on_path:
            expect("not installed", job.failed and "not on PATH" in job.stdout,
                   "no error saying mcp-test is missing", job)

    # 5. The install from a wheel (no Rust), when one was built: the installed CLI checks.
    if wheel:
        job = Job({"command": fixture, "install": "pip", "package": wheel}, []).run()
        out = job.steps.get("check", {})
        expect("pip install", not job.failed and out.get("exit-code") == "0",
               f"outputs {out}", job)

    if failures:
        print(f"action-test: {len(failures)} scenario(s) failed:\n" + "\n".join(failures))
        sys.exit(1)
    print("action-test: action.yml run as a runner runs it: clean, defects, unreachable and bad-input "
          "scenarios" + (", and a pip install of the wheel" if wheel else "") + " behave as documented")


if __name__ == "__main__":
    main()
