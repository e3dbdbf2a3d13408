//! Deeply nested input neither overflows the stack when read and elaborated
//! nor when printed and read back.

use fpsym_expr::{Format, Op, Sort, Term};
use fpsym_smtlib::{parse_script, print_script, print_term, Command};

const DEPTH: usize = 10_000;

fn assertion(src: &str) -> Term {
    let s = parse_script(src, "deep.smt2").unwrap_or_else(|e| panic!("{e}"));
    s.commands
        .iter()
        .find_map(|c| {
            if let Command::Assert(t) = c {
                Some(t.clone())
            } else {
                None
            }
        })
        .expect("an assertion")
}

#[test]
fn nested_lets() {
    let mut src = String::from("(declare-fun x () Float32)\n(assert (fp.isNaN ");
    src.push_str("(let ((v0 x)) ");
    for i in 1..DEPTH {
        src.push_str(&format!("(let ((v{i} (fp.neg v{}))) ", i - 1));
    }
    src.push_str(&format!("v{}", DEPTH - 1));
    src.push_str(&")".repeat(DEPTH));
    src.push_str("))\n");
    let t = assertion(&src);
    let mut expect = Term::var("x", Sort::Float(Format::BINARY32));
    for _ in 1..DEPTH {
        expect = Term::mk(Op::FpNeg, vec![expect]);
    }
    assert_eq!(t, Term::mk(Op::FpIsNaN, vec![expect]));
    let printed = print_term(&t);
    assert_eq!(printed.matches("fp.neg").count(), DEPTH - 1);
}

#[test]
fn nested_applications_round_trip() {
    let mut src = String::from("(declare-fun p () Bool)\n(declare-fun q () Bool)\n(assert ");
    for i in 0..DEPTH {
        src.push_str(if i % 2 == 0 { "(and q " } else { "(not " });
    }
    src.push('p');
    src.push_str(&")".repeat(DEPTH));
    src.push_str(")\n");
    let s = parse_script(&src, "deep.smt2").unwrap();
    let printed = print_script(&s);
    let again = parse_script(&printed, "printed.smt2").unwrap();
    assert_eq!(again.commands, s.commands);
}

#[test]
fn deep_parentheses_report_unbalance() {
    let src = "(assert ".to_string() + &"(not ".repeat(DEPTH) + "true";
    let e = parse_script(&src, "deep.smt2").unwrap_err();
    assert!(e.message.contains("unbalanced parenthesis"), "{e}");
    assert_eq!(e.line, 1);
}

/// 100,000 nested applications are read, printed and read back on a thread
/// with a 1 MiB stack. The terms are dropped on a thread with a large stack:
/// dropping a term is recursive in fpsym-expr (not in this crate).
#[test]
fn hundred_thousand_deep_on_a_small_stack() {
    const DEEP: usize = 100_000;
    let big = std::thread::Builder::new().stack_size(512 << 20);
    big.spawn(|| {
        let small = std::thread::Builder::new().stack_size(1 << 20);
        let (s, again) = small
            .spawn(|| {
                let mut src = String::from("(declare-fun x64 () Float64)\n(assert (fp.isZero ");
                src.push_str(&"(fp.abs (fp.neg ".repeat(DEEP / 2));
                src.push_str("x64");
                src.push_str(&")".repeat(DEEP));
                src.push_str("))\n");
                let s = parse_script(&src, "deep.smt2").unwrap();
                let again = parse_script(&print_script(&s), "printed.smt2").unwrap();
                (s, again)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(again.commands, s.commands);
    })
    .unwrap()
    .join()
    .unwrap();
}
