//! `mcp-test generate` writes a Rust test file that passes and needs only the dependencies it
//! names. The file for the bundled example server is committed as a module of the downstream
//! test crate (`tests/tests/generated/example.rs`), which the workspace's test run compiles and
//! runs; here it is generated again and compared, and type-checked in a fresh scratch crate
//! under the target directory, offline with the workspace's lock file, in the target directory
//! the ui-tests' trybuild run uses (the outer cargo holds the main one).

#[path = "../../mcp-test/tests/scratch/mod.rs"]
mod scratch;

use std::path::{Path, PathBuf};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-test");

async fn run(command: &mut tokio::process::Command, limit: Duration) -> (i32, String) {
    let child = command.kill_on_drop(true).output();
    let output = tokio::time::timeout(limit, child)
        .await
        .unwrap_or_else(|_| panic!("{command:?} did not finish within {limit:?}"))
        .expect("the command starts");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

/// The committed output of `mcp-test generate --edge-cases --verify` for the bundled example
/// server: a module of the workspace's downstream test crate, so the workspace's own
/// `cargo test` and `cargo nextest run` compile and run every generated test.
fn committed() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/tests/generated/example.rs");
    path.canonicalize().unwrap_or(path)
}

/// `mcp-test generate` for the bundled example server, written to a file of this test's own.
async fn generate() -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generate-current");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("generated.rs");
    let _ = std::fs::remove_file(&file);
    let (status, out) = run(
        tokio::process::Command::new(BIN).args([
            "generate",
            "--edge-cases",
            "--verify",
            "-o",
            file.to_str().unwrap(),
        ]),
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("verify: 86 of 86 predictions hold"), "{out}");
    std::fs::read_to_string(&file).unwrap()
}

/// The generated file is the committed one, byte for byte, so what the downstream crate
/// compiles and runs (`tests/tests/generated_example.rs`) is what `generate` writes today.
#[tokio::test]
async fn generated_tests_are_the_committed_ones() {
    let text = generate().await;
    assert!(
        text.contains("mcp_test::assert_schema_cases!(server);"),
        "{text}"
    );
    assert!(
        text.contains("async fn search_notes_rejects_limit_just_over_maximum_50()"),
        "{text}"
    );
    assert!(!text.contains("#[ignore"), "every prediction held: {text}");
    let path = committed();
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if text != committed {
        let first = text
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| text.lines().count().min(committed.lines().count()));
        panic!(
            "{} is not what `mcp-test generate --edge-cases --verify` writes now; they differ \
             from line {}. Rewrite it with\n  cargo run -p mcp-test-check -- generate \
             --edge-cases --verify -o {}\nand read the difference.",
            path.display(),
            first + 1,
            path.display()
        );
    }
}

/// The generated file needs nothing beyond the dependencies its header names: it type-checks
/// in a fresh crate that has only those. The committed file is the one checked: the test above
/// holds it to what `generate` writes, and running it is the downstream crate's job.
#[tokio::test]
async fn generated_tests_compile_in_a_fresh_crate() {
    let text = std::fs::read_to_string(committed()).expect("the committed generated tests");
    let needs = text
        .lines()
        .find_map(|line| line.strip_prefix("//! Needs in [dev-dependencies]: "))
        .unwrap_or_else(|| panic!("the header names the dependencies:\n{text}"));
    assert!(
        needs.contains(r#"features = ["cases"]"#)
            && needs.contains("mcp-test-check")
            && needs.contains("serde_json"),
        "{needs}"
    );
    let check = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mcp_test = check.parent().unwrap().join("mcp-test");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generate-scratch/crate");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "generated-check"
version = "0.0.0"
edition = "2024"
publish = false

# Not a member of the mcp-test workspace this directory sits in.
[workspace]

[dev-dependencies]
mcp-test = {{ path = {:?}, features = ["cases"] }}
mcp-test-check = {{ path = {:?}, default-features = false }}
serde_json = "1"
tokio = {{ version = "1", features = ["macros", "rt"] }}
"#,
            mcp_test.display().to_string(),
            check.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's versions, so the offline build needs nothing new.
    let lock = check.parent().unwrap().join("Cargo.lock");
    std::fs::copy(lock, dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("tests/generated.rs"), &text).unwrap();

    // A check, where the ui-tests' trybuild run and the README crate (`readme_crate.rs`) check
    // theirs, with the same flags and an explicit `--target`: they share the dependencies'
    // metadata and every host unit (syn, serde_derive, tokio-macros, the derive of mcp-test).
    // A full build here would compile every dependency a second time, for code generation.
    let (status, out) = run(
        tokio::process::Command::new(env!("CARGO"))
            .args(["check", "--tests", "--offline", "--quiet"])
            .args(scratch::shared_build_args(&scratch::host_triple()))
            .current_dir(&dir)
            .env("CARGO_INCREMENTAL", "0")
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS"),
        Duration::from_secs(1500),
    )
    .await;
    assert_eq!(
        status, 0,
        "the generated tests do not build in a fresh crate:\n{out}"
    );
}
