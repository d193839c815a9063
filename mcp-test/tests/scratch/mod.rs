//! Where the scratch crates of the tests build, and how: trybuild's folder and flags, so the
//! ui-tests' trybuild run, the README crate (`readme_crate.rs`) and the generated tests
//! (`cli_generate.rs`) share what they can (above all the proc macros and build scripts, host
//! units that the flags do not touch). Should trybuild change its flags, they only stop
//! sharing; nothing else depends on it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// trybuild's folder under the target directory these tests were built in
/// (`CARGO_TARGET_TMPDIR` is its `tmp/`), wherever `CARGO_TARGET_DIR` or `--target-dir` put it.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("../tests/trybuild")
}

/// The compiler flags with which trybuild 1 checks its cases, and so their dependencies; the
/// same flags, the same explicit `--target` and the default profile are what let the scratch
/// crates and the ui-tests share those dependencies.
pub const TRYBUILD_RUSTFLAGS: &str =
    r#"["--cfg", "trybuild", "--verbose", "-A", "dead_code", "--diagnostic-width=140"]"#;

/// The host's target triple, as `rustc -vV` prints it.
pub fn host_triple() -> String {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

/// The arguments that build in [`target_dir`] for `host` with trybuild's flags.
pub fn shared_build_args(host: &str) -> Vec<String> {
    vec![
        "--target-dir".to_owned(),
        target_dir().display().to_string(),
        "--target".to_owned(),
        host.to_owned(),
        format!("--config=build.rustflags={TRYBUILD_RUSTFLAGS}"),
        format!("--config=target.{host}.rustflags={TRYBUILD_RUSTFLAGS}"),
    ]
}
