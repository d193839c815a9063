#!/usr/bin/env node
// Assembles the npm packages of the `mcp-test` command line as `npm pack` tarballs:
//
//   node packaging/npm/assemble.js --out DIR [--platform KEY=EXECUTABLE]...
//
// writes DIR/mcp-test-cli-VERSION.tgz (the launcher, packaging/npm/mcp-test-cli) and, for each
// --platform (a key of the launcher's PLATFORMS, e.g. linux-x64), the package of that platform
// holding EXECUTABLE as bin/mcp-test (bin/mcp-test.exe on win32), e.g.
// DIR/mcp-test-cli-linux-x64-VERSION.tgz for @mcp-test-cli/linux-x64, with `os` and `cpu` set so
// that npm installs it only there. The release workflow passes every platform; scripts/packages
// passes this machine's.
//
// Fails, naming what is wrong, when the version of packaging/npm/mcp-test-cli/package.json or of
// one of its optionalDependencies is not the crates' (the workspace's in Cargo.toml), when those
// dependencies are not the launcher's PLATFORMS, or when an executable is not one of its
// platform's format (ELF, Mach-O, PE).
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const HERE = __dirname;
const ROOT = path.join(HERE, '..', '..');
const MAIN = path.join(HERE, 'mcp-test-cli');
const { PLATFORMS, executableName } = require(path.join(MAIN, 'bin', 'mcp-test.js'));

function fail(message) {
  process.stderr.write(`assemble: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { out: null, platforms: [] };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--out' && value) {
      args.out = path.resolve(value);
      i++;
    } else if (argv[i] === '--platform' && value) {
      const eq = value.indexOf('=');
      if (eq <= 0) fail(`--platform ${value}: expected KEY=EXECUTABLE, e.g. linux-x64=target/release/mcp-test`);
      args.platforms.push({ key: value.slice(0, eq), exe: path.resolve(value.slice(eq + 1)) });
      i++;
    } else {
      fail(`unexpected argument ${argv[i]}; usage: assemble.js --out DIR [--platform KEY=EXECUTABLE]...`);
    }
  }
  if (!args.out) fail('--out DIR is required');
  return args;
}

/// The version of the workspace's crates: `version` of `[workspace.package]` in Cargo.toml.
function crateVersion() {
  const manifest = path.join(ROOT, 'Cargo.toml');
  const text = fs.readFileSync(manifest, 'utf8');
  const table = text.split(/^\[/m).find((t) => t.startsWith('workspace.package]'));
  const m = table && table.match(/^version\s*=\s*"([^"]+)"/m);
  if (!m) fail(`no version in [workspace.package] of ${manifest}`);
  return m[1];
}

function checkMain(main, version) {
  const where = path.join(MAIN, 'package.json');
  if (main.version !== version) {
    fail(`${where}: version is ${main.version}, the crates' (Cargo.toml) is ${version}`);
  }
  const deps = main.optionalDependencies || {};
  const want = Object.values(PLATFORMS).sort();
  const have = Object.keys(deps).sort();
  if (JSON.stringify(want) !== JSON.stringify(have)) {
    fail(`${where}: optionalDependencies are ${have.join(', ')}; the launcher's PLATFORMS are ${want.join(', ')}`);
  }
  for (const [name, v] of Object.entries(deps)) {
    if (v !== version) fail(`${where}: optionalDependencies.${name} is ${v}, not the version ${version}`);
  }
}

/// Fails unless the file starts as an executable of `platform` does.
function checkFormat(exe, platform) {
  let head;
  try {
    const fd = fs.openSync(exe, 'r');
    head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    fs.closeSync(fd);
  } catch (e) {
    fail(`cannot read the executable ${exe}: ${e.message}`);
  }
  const magic = head.readUInt32BE(0);
  const ok = {
    linux: magic === 0x7f454c46, // "\x7fELF"
    darwin: [0xcffaedfe, 0xcefaedfe, 0xcafebabe].includes(magic), // Mach-O 64/32 (LE), fat
    win32: head[0] === 0x4d && head[1] === 0x5a, // "MZ"
  }[platform];
  if (!ok) fail(`${exe} is not a ${platform} executable (it starts with 0x${magic.toString(16)})`);
}

function pack(dir, out) {
  const output = execFileSync('npm', ['pack', dir, '--pack-destination', out, '--json', '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(output);
  return path.join(out, filename);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const version = crateVersion();
  const mainManifest = JSON.parse(fs.readFileSync(path.join(MAIN, 'package.json'), 'utf8'));
  checkMain(mainManifest, version);

  const stage = path.join(args.out, 'stage');
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  const made = [pack(MAIN, args.out)];

  for (const { key, exe } of args.platforms) {
    const name = PLATFORMS[key];
    if (!name) fail(`--platform ${key}: no such platform; the launcher's are ${Object.keys(PLATFORMS).join(', ')}`);
    const [platform, arch] = key.split('-');
    checkFormat(exe, platform);
    const dir = path.join(stage, key);
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    const target = path.join(dir, 'bin', executableName(platform));
    fs.copyFileSync(exe, target);
    fs.chmodSync(target, 0o755);
    const manifest = {
      name,
      version,
      description: `The mcp-test executable for ${key}, installed by the npm package mcp-test-cli`,
      homepage: mainManifest.homepage,
      repository: { ...mainManifest.repository, directory: 'packaging/npm' },
      license: mainManifest.license,
      author: mainManifest.author,
      os: [platform],
      cpu: [arch],
      files: ['bin/'],
      // Yarn PnP: keep the executable a real file on disk.
      preferUnplugged: true,
    };
    fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      `# ${name}\n\nThe \`mcp-test\` executable for ${key}. Install ` +
        '[mcp-test-cli](https://www.npmjs.com/package/mcp-test-cli) instead: it depends on this ' +
        'package and runs it.\n',
    );
    made.push(pack(dir, args.out));
  }
  fs.rmSync(stage, { recursive: true, force: true });
  for (const file of made) process.stdout.write(`${file}\n`);
}

main();
