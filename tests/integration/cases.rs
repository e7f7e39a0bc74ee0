//! Directory tests of the real binary: every `tests/cases/ok/*.cgt` must run
//! cleanly and every `tests/cases/err/*.cgt` must fail; the transcript of
//! `yose run --ascii --color never FILE` (stdout, stderr, exit code) is kept
//! next to the script as `FILE.out`. `UPDATE_EXPECT=1 cargo test` rewrites them.

use std::path::{Path, PathBuf};

fn scripts(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cgt"))
        .collect();
    files.sort();
    files
}

fn transcript(file: &Path) -> (String, i32) {
    let out = super::yose_binary()
        .args(["run", "--ascii", "--color", "never"])
        .arg(file.file_name().unwrap())
        .current_dir(file.parent().unwrap())
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let mut text = String::new();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr);
    if !err.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&err);
    }
    text.push_str(&format!("--- exit {code}\n"));
    (text, code)
}

fn run_dir(dir: &str, expect_success: bool) {
    let files = scripts(dir);
    assert!(!files.is_empty(), "no scripts in tests/cases/{dir}");
    for file in files {
        let (text, code) = transcript(&file);
        assert_eq!(
            code == 0,
            expect_success,
            "{}: unexpected exit code {code}\n{text}",
            file.display()
        );
        let snapshot = file.with_extension("out");
        expect_test::expect_file![snapshot].assert_eq(&text);
    }
}

#[test]
fn ok_cases() {
    run_dir("ok", true);
}

#[test]
fn err_cases() {
    run_dir("err", false);
}
