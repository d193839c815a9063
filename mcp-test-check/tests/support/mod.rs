//! What the command-line tests share: running the built `mcp-test` binary.

/// One run of the binary: its exit status and output.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the built `mcp-test` with `args` to completion (killed if the test is dropped).
pub async fn mcp_test(args: &[&str]) -> Run {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args(args)
        .kill_on_drop(true)
        .output()
        .await
        .expect("the mcp-test binary runs");
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}
