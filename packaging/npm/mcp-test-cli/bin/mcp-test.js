#!/usr/bin/env node
// The `mcp-test` command of the npm package `mcp-test-cli`: finds the executable of this
// platform, installed as the optional dependency `@mcp-test-cli/<platform>-<arch>` (npm
// installs only the one whose `os` and `cpu` match), and runs it with the same arguments and
// stdio. It forwards the signals that would end this process, and ends as the executable did:
// with its exit code, or by the same signal.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');

// `${process.platform}-${process.arch}` -> the package holding that platform's executable.
// packaging/npm/assemble.js checks that package.json's optionalDependencies list exactly these.
const PLATFORMS = {
  'linux-x64': '@mcp-test-cli/linux-x64',
  'linux-arm64': '@mcp-test-cli/linux-arm64',
  'darwin-x64': '@mcp-test-cli/darwin-x64',
  'darwin-arm64': '@mcp-test-cli/darwin-arm64',
  'win32-x64': '@mcp-test-cli/win32-x64',
};

// Set to the path of an `mcp-test` executable to run that one instead (a build of your own, or
// a platform this package has no binary for).
const OVERRIDE = 'MCP_TEST_CLI_BINARY';

class LaunchError extends Error {}

function executableName(platform) {
  return platform === 'win32' ? 'mcp-test.exe' : 'mcp-test';
}

/// The path of the executable to run, or a LaunchError saying why there is none.
function binaryPath(platform = process.platform, arch = process.arch) {
  const override = process.env[OVERRIDE];
  if (override) {
    if (!fs.existsSync(override)) {
      throw new LaunchError(`${OVERRIDE} is set to ${override}, which does not exist`);
    }
    return override;
  }
  const key = `${platform}-${arch}`;
  const pkg = PLATFORMS[key];
  if (!pkg) {
    throw new LaunchError(
      `mcp-test-cli has no executable for this platform (${key}); ` +
        `it has one for ${Object.keys(PLATFORMS).join(', ')}. ` +
        'On another, build it with Rust (`cargo install mcp-test-check`) and set ' +
        `${OVERRIDE} to its path.`,
    );
  }
  const file = `${pkg}/bin/${executableName(platform)}`;
  try {
    return require.resolve(file);
  } catch {
    throw new LaunchError(
      `the executable for this platform (${key}), ${file}, is not installed. ` +
        `npm installs the package ${pkg} as an optional dependency of mcp-test-cli: ` +
        'reinstall without --omit=optional / --no-optional, and with a lockfile made on ' +
        `another platform, add ${pkg} to it (npm install ${pkg}).`,
    );
  }
}

function run() {
  let exe;
  try {
    exe = binaryPath();
  } catch (e) {
    if (!(e instanceof LaunchError)) throw e;
    process.stderr.write(`mcp-test-cli: ${e.message}\n`);
    process.exit(2);
  }
  const child = spawn(exe, process.argv.slice(2), { stdio: 'inherit' });

  // A signal sent to this process alone (a CI runner's timeout, `kill`) goes on to the
  // executable; a Ctrl-C reaches both, and mcp-test takes a second SIGINT as the first. While a
  // handler is installed, node does not end on the signal itself, so it waits for the child.
  const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
  const forward = {};
  for (const signal of forwarded) {
    forward[signal] = () => {
      // On Windows the console delivers Ctrl-C to the child already, and kill() would only
      // terminate it.
      if (process.platform !== 'win32' || signal !== 'SIGINT') child.kill(signal);
    };
    process.on(signal, forward[signal]);
  }
  child.on('error', (e) => {
    process.stderr.write(`mcp-test-cli: cannot run ${exe}: ${e.message}\n`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    for (const s of forwarded) process.removeListener(s, forward[s]);
    if (signal) {
      // End the same way, so a caller sees the signal (exit status 128 + its number in a shell).
      process.kill(process.pid, signal);
      // A signal this platform cannot raise on itself: the shells' convention.
      setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 1000);
      return;
    }
    process.exit(code === null ? 2 : code);
  });
}

module.exports = { PLATFORMS, OVERRIDE, binaryPath, executableName, LaunchError };

if (require.main === module) run();
