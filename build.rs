//! Build script: records the git commit the binary is built from, for `nimlab --version`.
//!
//! The version carries no date, so rebuilding a commit is reproducible; it says `-dirty` when
//! tracked files differ from the commit, and `unknown` outside a git checkout (or without git).

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).filter(|c| !c.is_empty());
    let version = match &commit {
        Some(c) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            format!("{c}{}", if dirty { "-dirty" } else { "" })
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=NIMLAB_COMMIT={version}");

    // Rerun when HEAD moves (checkout) or the branch it points to moves (commit), when the index
    // changes, and when the sources change (which may make the tree dirty or clean).
    for path in ["build.rs", "Cargo.toml", "Cargo.lock", "src", "data"] {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]).map(PathBuf::from) {
        println!("cargo:rerun-if-changed={}", git_dir.join("HEAD").display());
        println!("cargo:rerun-if-changed={}", git_dir.join("index").display());
        let common = git(&["rev-parse", "--git-common-dir"]).map_or(git_dir.clone(), PathBuf::from);
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!(
                "cargo:rerun-if-changed={}",
                common.join(reference).display()
            );
        }
        println!(
            "cargo:rerun-if-changed={}",
            common.join("packed-refs").display()
        );
    }
}
