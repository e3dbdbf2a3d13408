//! Compiles `csrc/fp80.c`, the shim through which `libm.rs` calls glibc's
//! x87 `long double` functions (Rust has no 80-bit float type). Only on
//! x86-64, where `long double` is the x87 80-bit format.

use std::path::Path;

/// Whether an executable `name` is on `PATH`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| Path::new(&d).join(name).is_file()))
}

fn main() {
    println!("cargo:rerun-if-changed=csrc/fp80.c");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return;
    }
    let mut b = cc::Build::new();
    b.file("csrc/fp80.c").opt_level(2).warnings(true);
    // The cc crate looks for `cc`; scripts/bootstrap installs clang-14,
    // which a bare Debian 12 has under that name only.
    let cc_set = std::env::var_os("CC").is_some() || std::env::var_os("CC_x86_64_unknown_linux_gnu").is_some();
    if !cc_set && !on_path("cc") && on_path("clang-14") {
        b.compiler("clang-14");
    }
    b.compile("fpsym_fp80");
}
