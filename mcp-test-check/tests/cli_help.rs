//! Each subcommand's `--timeout` says what the timeout bounds in that command, not what it
//! does in `check`: read from the real binary's `--help`.

/// The help paragraph of `--timeout` in `mcp-test SUBCOMMAND --help`.
fn timeout_help(subcommand: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-test"))
        .args([subcommand, "--help"])
        .output()
        .expect("the mcp-test binary runs");
    assert!(out.status.success(), "{subcommand} --help: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = text
        .find("--timeout <SECS>")
        .unwrap_or_else(|| panic!("{subcommand} --help has no --timeout:\n{text}"));
    let rest = &text[start + "--timeout <SECS>".len()..];
    let end = rest.find("\n  -").unwrap_or(rest.len());
    rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_subcommand_explains_its_own_timeout() {
    let check = timeout_help("check");
    assert!(check.contains("before the check moves on"), "{check}");
    for (subcommand, says) in [
        (
            "record",
            "With --url: seconds each message passed on to the server waits",
        ),
        (
            "replay",
            "Seconds each replayed request waits for the live server's reply",
        ),
        ("surface", "Seconds each list request"),
        ("diff", "Seconds each list request"),
        ("generate", "each case --verify runs"),
        ("list", "each page of `list`"),
        ("call", "each round of `call`"),
        ("read", "fails the command (exit 2)"),
    ] {
        let help = timeout_help(subcommand);
        assert!(help.contains(says), "{subcommand}: {help}");
        assert!(
            !help.contains("check") && help != check,
            "{subcommand} still has the help of check's --timeout: {help}"
        );
        assert!(help.contains("[default: 30]"), "{subcommand}: {help}");
    }
}
