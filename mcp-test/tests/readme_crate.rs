//! README.md's "Add it to your crate": its `Cargo.toml` lines and its example build in a fresh
//! crate, as a newcomer would paste them, with mcp-test taken from this workspace. Then again
//! without the lines the README calls optional, which proves that they are.
//!
//! The scratch crate lives in a temporary directory of its own (one per test process) and is
//! checked offline against the workspace's lockfile, so no version drifts. It builds into
//! `tests/trybuild/` under the target directory these tests were built in, with trybuild's
//! compiler flags: its own build lock, since `cargo test` holds the workspace's while tests run,
//! and the dependencies the ui-tests' trybuild run checks too (serde, schemars, jsonschema,
//! tokio with the same features), so the test command compiles them once for both. Should
//! trybuild change its flags, the two only stop sharing; nothing else depends on it.

mod scratch;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const SECTION: &str = "## Add it to your crate\n";

/// The README section the scratch crate is made of.
fn section() -> &'static str {
    let readme = include_str!("../../README.md");
    let (_, rest) = readme
        .split_once(SECTION)
        .expect("README.md has a section \"## Add it to your crate\"");
    rest.split_once("\n## ")
        .map_or(rest, |(section, _)| section)
}

/// The first fenced block of `lang` in `text`.
fn block<'a>(text: &'a str, lang: &str) -> &'a str {
    let open = format!("```{lang}\n");
    let (_, rest) = text
        .split_once(&open)
        .unwrap_or_else(|| panic!("no ```{lang} block in README.md's {SECTION}"));
    rest.split_once("```\n")
        .unwrap_or_else(|| panic!("an unclosed ```{lang} block in README.md's {SECTION}"))
        .0
}

/// The README's `Cargo.toml` lines with mcp-test from this workspace instead of crates.io;
/// without the lines marked optional when `optional` is false.
fn dependencies(toml: &str, optional: bool) -> String {
    let library = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut replaced = false;
    let lines: Vec<String> = toml
        .lines()
        .filter(|line| optional || !line.contains("# optional"))
        .map(|line| {
            if line.starts_with("mcp-test = ") {
                replaced = true;
                let path = format!("path = {:?}", library.display().to_string());
                let with_path = line.replacen(r#"version = "0.1""#, &path, 1);
                assert_ne!(
                    with_path, line,
                    "the mcp-test line names no version \"0.1\""
                );
                with_path
            } else {
                line.to_owned()
            }
        })
        .collect();
    assert!(
        replaced,
        "README.md's Cargo.toml lines have no mcp-test line:\n{toml}"
    );
    lines.join("\n")
}

/// Writes the scratch crate into `dir` and checks its test target, failing with cargo's
/// output.
fn check(dir: &Path, dependencies: &str, example: &str) {
    let host = &scratch::host_triple();
    let manifest = format!(
        "[package]\nname = \"newcomer\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         {dependencies}\n\n[workspace]\n"
    );
    std::fs::create_dir_all(dir.join("src")).expect("the scratch crate's folder");
    std::fs::create_dir_all(dir.join("tests")).expect("the scratch crate's tests folder");
    std::fs::write(dir.join("Cargo.toml"), &manifest).expect("the scratch manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("the scratch lib.rs");
    std::fs::write(dir.join("tests/readme.rs"), example).expect("the scratch test");
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    std::fs::copy(lock, dir.join("Cargo.lock")).expect("the workspace lockfile");

    let started = Instant::now();
    let output = Command::new(env!("CARGO"))
        .args([
            "check",
            "--tests",
            "--offline",
            "--quiet",
            "--message-format=short",
        ])
        .args(scratch::shared_build_args(host))
        // The outer build's flags (coverage, say) are not the newcomer's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_INCREMENTAL", "0")
        .current_dir(dir)
        .output()
        .expect("cargo runs");
    eprintln!(
        "cargo check of the README crate: {:.1}s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        output.status.success(),
        "README.md's \"Add it to your crate\" does not build in a fresh crate:\n{}\n\
         Cargo.toml:\n{manifest}\ntests/readme.rs:\n{example}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_readme_snippet_builds_in_a_fresh_crate() {
    let section = section();
    let toml = block(section, "toml");
    let example = block(section, "rust");
    assert!(
        example.contains("assert_response_snapshot!"),
        "the example shows the snapshot macro"
    );
    let dir = std::env::temp_dir().join(format!("mcp-test-readme-crate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    check(&dir, &dependencies(toml, true), example);
    // Only the crate itself is checked again: the dependencies are the same.
    let minimal = dependencies(toml, false);
    assert!(
        !minimal.contains("tokio") && !minimal.contains("serde_json"),
        "{minimal}"
    );
    check(&dir, &minimal, example);
    let _ = std::fs::remove_dir_all(&dir);
}
