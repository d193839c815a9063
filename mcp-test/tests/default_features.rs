//! A downstream crate that only derives tools and writes `#[mcp_test]` tests depends on
//! mcp-test with default features, and must then compile no HTTP stack, no case generator and
//! none of the checker (whose crate, `mcp-test-check`, with the command line's clap, no
//! feature of mcp-test brings in). The test writes such a crate in a temporary directory and reads its dependency
//! tree with `cargo tree` (offline, from the workspace's lockfile, so no version drifts).

use std::path::Path;
use std::process::Command;

/// Crates the default features must not pull in, with the feature that brings each.
const HEAVY: &[(&str, &str)] = &[
    ("axum", "http"),
    ("tower", "http"),
    ("hyper", "http"),
    ("hyper-util", "http"),
    ("rmcp", "rmcp"),
    ("rustls", "tls"),
    ("hyper-rustls", "tls"),
    ("ring", "tls"),
    ("rand_regex", "cases"),
    ("proptest", "properties"),
];

/// Crates no feature of mcp-test pulls in: the checker and the command line are a crate of
/// their own, on top of this one.
const NEVER: &[&str] = &["mcp-test-check", "clap"];

/// Every feature of mcp-test.
const ALL_FEATURES: &str =
    r#", features = ["cases", "properties", "client", "http", "tls", "insta", "rmcp", "auth"]"#;

fn scratch_crate(dir: &Path, features: &str) {
    let library = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = format!(
        "[package]\nname = \"scratch\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nmcp-test = {{ path = {:?}{features} }}\n\n[workspace]\n",
        library.display()
    );
    std::fs::create_dir_all(dir.join("src")).expect("the scratch crate's folder");
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("the scratch manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("the scratch lib.rs");
    let lock = library.join("../Cargo.lock");
    std::fs::copy(lock, dir.join("Cargo.lock")).expect("the workspace lockfile");
}

/// The package names in the scratch crate's normal dependency tree.
fn dependencies(features: &str, name: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("mcp-test-scratch-{name}-{}", std::process::id()));
    scratch_crate(&dir, features);
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn default_features_pull_in_no_http_stack_cli_or_case_generator() {
    let names = dependencies("", "default");
    assert!(names.iter().any(|n| n == "mcp-test-macros"), "{names:?}");
    for (heavy, feature) in HEAVY {
        assert!(
            !names.iter().any(|n| n == heavy),
            "`{heavy}` is in the default dependency tree; it belongs behind feature `{feature}`:\n{names:?}"
        );
    }
}

/// The same check can fail: with every feature on, the crates are there; and the checker is
/// not, whatever the features.
#[test]
fn each_heavy_crate_comes_with_its_feature_and_the_checker_with_none() {
    let names = dependencies(ALL_FEATURES, "all");
    for (heavy, feature) in HEAVY {
        assert!(
            names.iter().any(|n| n == heavy),
            "`{heavy}` should come with feature `{feature}` (with every feature on):\n{names:?}"
        );
    }
    for never in NEVER {
        assert!(
            !names.iter().any(|n| n == never),
            "`{never}` is in mcp-test's dependency tree with every feature on:\n{names:?}"
        );
    }
}

/// The TLS stack comes with feature `tls`, never with `http` alone: read
/// from the workspace's own resolution (`cargo tree -p`), so no scratch crate is made.
#[test]
fn http_alone_pulls_in_no_tls_stack() {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            "mcp-test",
            "--no-default-features",
            "--features",
            "http",
            "--edges",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let names: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    assert!(names.iter().any(|n| n == "hyper-util"), "{names:?}");
    for tls in ["rustls", "hyper-rustls", "ring", "webpki-roots"] {
        assert!(
            !names.iter().any(|n| n == tls),
            "`{tls}` is in the tree of feature `http` alone; it belongs behind feature `tls`:\n{names:?}"
        );
    }
}
