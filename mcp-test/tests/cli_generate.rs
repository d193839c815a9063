//! `mcp-test generate` writes a Rust test file that compiles and passes in a fresh crate that
//! depends on mcp-test: a scratch crate under the target directory, built offline with the
//! workspace's lock file, in the target directory the ui-tests' trybuild run uses (the outer
//! cargo holds the main one).

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

fn scratch_crate(dir: &Path) {
    let mcp_test = Path::new(env!("CARGO_MANIFEST_DIR"));
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
mcp-test = {{ path = {:?}, features = ["cases", "client"] }}
serde_json = "1"
tokio = {{ version = "1", features = ["macros", "rt", "rt-multi-thread"] }}
"#,
            mcp_test.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's versions, so the offline build needs nothing new.
    let lock = mcp_test.parent().unwrap().join("Cargo.lock");
    std::fs::copy(lock, dir.join("Cargo.lock")).unwrap();
}

#[tokio::test]
async fn generated_tests_compile_and_pass_in_a_fresh_crate() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generate-scratch");
    let dir = root.join("crate");
    scratch_crate(&dir);
    let file = dir.join("tests/generated.rs");
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
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("mcp_test::assert_schema_cases!(server);"),
        "{text}"
    );
    assert!(
        text.contains("async fn search_notes_rejects_limit_just_over_maximum_50()"),
        "{text}"
    );
    assert!(!text.contains("#[ignore"), "every prediction held: {text}");

    // The scratch crate builds where the ui-tests' trybuild run and the README crate
    // (`readme_crate.rs`) check theirs, with the same flags and an explicit `--target`: the
    // proc macros and build scripts (syn, serde_derive, tokio-macros, the derive of mcp-test)
    // are host units there, built once for all three.
    let (status, out) = run(
        tokio::process::Command::new(env!("CARGO"))
            .args(["test", "--offline", "--quiet"])
            .args(scratch::shared_build_args(&scratch::host_triple()))
            .current_dir(&dir)
            // Faster to build, and nothing here reads a backtrace's line numbers.
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env("CARGO_INCREMENTAL", "0")
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS"),
        Duration::from_secs(1500),
    )
    .await;
    assert_eq!(status, 0, "cargo test in the scratch crate failed:\n{out}");
    assert!(out.contains("87 passed; 0 failed"), "{out}");
}
