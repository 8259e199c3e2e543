//! Embeds a digest of the crate's sources (`SOURCE_DIGEST`), so the Python suite can tell an
//! installed core built from other sources than the checkout's (krosbalance/native.py computes the
//! same digest: FNV-1a 64 over each file's relative path, a NUL, its bytes and a NUL, in sorted
//! path order).
use std::fs;
use std::path::{Path, PathBuf};

const FILES: [&str; 4] = ["Cargo.toml", "Cargo.lock", "build.rs", "pyproject.toml"];

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files: Vec<PathBuf> = FILES
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.exists())
        .collect();
    rust_sources(&root.join("src"), &mut files);
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .expect("under the crate")
                .to_string_lossy()
                .replace('\\', "/");
            (rel, p)
        })
        .collect();
    named.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (rel, path) in &named {
        feed(rel.as_bytes());
        feed(&[0]);
        feed(&fs::read(path).expect("a source file is readable"));
        feed(&[0]);
    }
    println!("cargo:rustc-env=KROSBALANCE_CORE_SOURCE_DIGEST={hash:016x}");
    println!("cargo:rerun-if-changed=src");
    for f in FILES {
        println!("cargo:rerun-if-changed={f}");
    }
}
