//! What the command-line tests share: running the built `mcp-test` binary, and files of their
//! own for it to read and write.

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

/// A file of its own in the temp dir (named after the process and `name`), removed when
/// dropped.
#[allow(dead_code)] // Not every test binary writes files.
pub struct TempFile(pub std::path::PathBuf);

#[allow(dead_code)]
impl TempFile {
    /// The file `name`, holding `text`, or not there yet when `None`.
    pub fn new(name: &str, text: Option<&str>) -> Self {
        let path = std::env::temp_dir().join(format!("mcp-test-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        if let Some(text) = text {
            std::fs::write(&path, text).expect("the temp dir is writable");
        }
        TempFile(path)
    }

    /// The path, as an argument.
    pub fn arg(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
