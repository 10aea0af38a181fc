//! Helpers shared by the CLI tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `tessera ARGS...` with `input` on its stdin; returns (success, stdout, stderr).
pub fn run_tessera(args: &[&str], input: &str) -> (bool, String, String) {
    run_tessera_bytes(args, input.as_bytes())
}

/// [`run_tessera`] with any bytes on stdin (not necessarily UTF-8).
#[allow(dead_code)]
pub fn run_tessera_bytes(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The program may end before all input is read; a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary ends");
    let _ = writer.join();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
