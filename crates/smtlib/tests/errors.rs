//! Malformed scripts give located errors (1-based line and column) with
//! messages that say what was expected.

use fpsym_smtlib::{parse_script, parse_term, ParseError};

/// Parses `src`, expects an error at `line:col` whose message contains `needle`.
#[track_caller]
fn err_at(src: &str, line: u32, col: u32, needle: &str) -> ParseError {
    let e = parse_script(src, "t.smt2").expect_err("expected a parse error");
    assert_eq!((e.line, e.column), (line, col), "wrong position for error: {e}");
    assert!(
        e.message.contains(needle),
        "message {:?} does not contain {:?}",
        e.message,
        needle
    );
    e
}

const DECLS: &str = "(declare-fun x () Float32)\n(declare-fun d () Float64)\n(declare-fun b () (_ BitVec 8))\n(declare-fun p () Bool)\n";

#[test]
fn display_is_file_line_column_message() {
    let e = err_at("(check-sat))", 1, 12, "unbalanced parenthesis");
    assert_eq!(
        e.to_string(),
        "t.smt2:1:12: unbalanced parenthesis: `)` without a matching `(`"
    );
}

#[test]
fn unbalanced_parentheses() {
    err_at(
        "(declare-fun x () Float32)\n(assert (fp.isNaN x)\n(check-sat)\n",
        2,
        1,
        "unbalanced parenthesis",
    );
    let e = err_at("(assert\n  (and p\n     (not p)\n", 2, 3, "never closed");
    assert!(e.message.contains("1:1"), "{e}");
    err_at("(check-sat)\n  )", 2, 3, "without a matching `(`");
}

#[test]
fn unknown_and_undeclared_symbols() {
    err_at(
        &format!("{DECLS}(assert (fp.foo x))"),
        5,
        10,
        "unknown function symbol `fp.foo`",
    );
    err_at(&format!("{DECLS}(assert (fp.isNaN y))"), 5, 19, "undeclared symbol `y`");
    err_at(
        &format!("{DECLS}(assert (fp.isNaN (fp.abs |weird name|)))"),
        5,
        27,
        "undeclared symbol `weird name`",
    );
    err_at(
        &format!("{DECLS}(assert ((_ to_fpx 8 24) RNE x))"),
        5,
        10,
        "unknown indexed function symbol `to_fpx`",
    );
    err_at(
        &format!("{DECLS}(assert (x p))"),
        5,
        10,
        "`x` is a constant of sort (_ FloatingPoint 8 24), not a function",
    );
    err_at("(frobnicate)", 1, 2, "unknown command `frobnicate`");
    err_at("(assert (RNE true))", 1, 10, "`RNE` is a constant, not a function");
}

#[test]
fn wrong_sorts() {
    err_at(
        &format!("{DECLS}(assert (fp.isNaN b))"),
        5,
        19,
        "expected a FloatingPoint term, found (_ BitVec 8)",
    );
    err_at(
        &format!("{DECLS}(assert (fp.lt x\n   (fp.add RNE x d)))"),
        6,
        18,
        "expected a term of sort (_ FloatingPoint 8 24) (the sort of argument 2), found (_ FloatingPoint 11 53), as argument 3 of `fp.add`",
    );
    err_at(
        &format!("{DECLS}(assert (fp.add x x x))"),
        5,
        17,
        "expected a RoundingMode term, found (_ FloatingPoint 8 24)",
    );
    err_at(
        &format!("{DECLS}(assert (and p x))"),
        5,
        16,
        "expected a Bool term, found (_ FloatingPoint 8 24), as argument 2 of `and`",
    );
    err_at(
        &format!("{DECLS}(assert (= x d))"),
        5,
        14,
        "expected a term of sort (_ FloatingPoint 8 24)",
    );
    err_at(
        &format!("{DECLS}(assert (ite p x b))"),
        5,
        18,
        "found (_ BitVec 8), as argument 3 of `ite`",
    );
    err_at(
        &format!("{DECLS}(assert x)"),
        5,
        9,
        "expected a Bool term, found (_ FloatingPoint 8 24), as the argument of `assert`",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) RNE p)))"),
        5,
        34,
        "expected a FloatingPoint or BitVec term or a real literal, found Bool",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) b)))"),
        5,
        30,
        "expected a term of sort (_ BitVec 32) to reinterpret as (_ FloatingPoint 8 24), found (_ BitVec 8)",
    );
    err_at(
        &format!("{DECLS}(assert (= x (fp b b b)))"),
        5,
        18,
        "(_ BitVec 1) (the sign bit), found (_ BitVec 8)",
    );
    err_at(
        &format!("{DECLS}(define-fun y () Float64 x)"),
        5,
        26,
        "expected a term of sort (_ FloatingPoint 11 53) (the declared sort of `y`), found (_ FloatingPoint 8 24)",
    );
    err_at(&format!("{DECLS}(assert (= b ((_ extract 8 1) b)))"), 5, 14, "extract");
}

#[test]
fn wrong_arity() {
    err_at(
        &format!("{DECLS}(assert (fp.isNaN (fp.add RNE x)))"),
        5,
        19,
        "`fp.add` expects 3 arguments, found 2",
    );
    err_at(
        &format!("{DECLS}(assert (fp.lt x))"),
        5,
        9,
        "`fp.lt` expects at least 2 arguments, found 1",
    );
    err_at(
        &format!("{DECLS}(assert (not p p))"),
        5,
        9,
        "`not` expects 1 argument, found 2",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) RNE x x)))"),
        5,
        14,
        "`(_ to_fp 8 24)` expects 1 or 2 arguments, found 3",
    );
    err_at(
        &format!("{DECLS}(define-fun f ((a Float32)) Bool (fp.isNaN a))\n(assert (f x x))"),
        6,
        9,
        "`f` expects 1 argument(s), found 2",
    );
    err_at(
        &format!("{DECLS}(define-fun f ((a Float32)) Bool (fp.isNaN a))\n(assert (f d))"),
        6,
        12,
        "expected a term of sort (_ FloatingPoint 8 24), found (_ FloatingPoint 11 53), as argument 1 of `f`",
    );
    err_at(
        &format!("{DECLS}(define-fun f ((a Float32)) Bool (fp.isNaN a))\n(assert f)"),
        6,
        9,
        "`f` is a function of 1 argument(s)",
    );
    err_at("(check-sat 1)", 1, 1, "`check-sat` expects no arguments, found 1");
    err_at("(assert)", 1, 1, "`assert` expects 1 argument, found 0");
    err_at(
        &format!("{DECLS}(assert ((_ extract 3) b))"),
        5,
        10,
        "`extract` takes 2 index(es), found 1",
    );
}

#[test]
fn bad_literals() {
    err_at(
        &format!("{DECLS}(assert (= b #b0120))"),
        5,
        14,
        "bad binary literal `#b0120`",
    );
    err_at(
        &format!("{DECLS}(assert (= b #xg0))"),
        5,
        14,
        "bad hexadecimal literal `#xg0`",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) RNE 1.5e3)))"),
        5,
        34,
        "bad numeric literal `1.5e3`",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) RNE (/ 1 0))))"),
        5,
        34,
        "division by zero",
    );
    err_at(&format!("{DECLS}(assert (= x 1))"), 5, 14, "`1` is an Int/Real literal");
    err_at(&format!("{DECLS}(assert (= x (_ +zero 1 24)))"), 5, 14, "eb >= 2");
    err_at(
        &format!("{DECLS}(assert (= b (_ bv3 200)))"),
        5,
        14,
        "bit-vector width 200 is not supported",
    );
    err_at(
        &format!("{DECLS}(assert (= b #b{}))", "1".repeat(129)),
        5,
        14,
        "literal of 129 bits is not supported",
    );
    err_at("(echo \"abc)\n", 1, 7, "unterminated string literal");
    err_at("(declare-fun |abc () Bool)\n", 1, 14, "unterminated quoted symbol");
    err_at("(assert (= a\u{e9} true))", 1, 12, "unexpected character `é`");
}

#[test]
fn unsupported_constructs_are_named() {
    err_at("(declare-fun r () Real)", 1, 19, "sort `Real` is not supported");
    err_at("(declare-const i Int)", 1, 18, "sort `Int` is not supported");
    err_at(
        &format!("{DECLS}(assert (fp.eq x (fp.to_real x)))"),
        5,
        19,
        "`fp.to_real` is not supported",
    );
    err_at(
        &format!("{DECLS}(assert (= x ((_ to_fp 8 24) RNE (+ 1 2))))"),
        5,
        35,
        "`+` is not supported",
    );
    err_at(
        "(declare-fun f (Float32) Float32)",
        1,
        16,
        "uninterpreted function `f` with 1 parameter(s) is not supported",
    );
    err_at(
        "(declare-sort U 0)\n(declare-fun u () U)",
        2,
        19,
        "uninterpreted sort `U`",
    );
    err_at(
        &format!("{DECLS}(assert (forall ((y Float32)) (fp.eq y y)))"),
        5,
        10,
        "quantifiers (`forall`) are not supported",
    );
    err_at(
        "(declare-fun a () (Array (_ BitVec 8) (_ BitVec 8)))",
        1,
        19,
        "sort `Array` is not supported",
    );
    err_at("(define-fun-rec f () Bool true)", 1, 1, "recursive definitions");
}

#[test]
fn scoping_errors() {
    err_at(
        "(declare-fun xb () Bool)\n(declare-const xb Bool)",
        2,
        16,
        "symbol `xb` is already declared (at 1:14)",
    );
    err_at("(push 1)\n(pop 2)", 2, 1, "cannot pop 2 level(s): only 1 pushed");
    err_at(
        "(push 1)\n(declare-fun xp () Bool)\n(pop 1)\n(assert xp)",
        4,
        9,
        "undeclared symbol `xp`",
    );
    err_at(
        "(assert (let ((a true) (a false)) a))",
        1,
        25,
        "`a` is bound twice in the same `let`",
    );
    err_at("(assert (let ((a true)) a))\n(assert a)", 2, 9, "undeclared symbol `a`");
    err_at(
        "(define-sort F () (_ FloatingPoint 8 24))\n(define-sort F () Bool)",
        2,
        14,
        "sort `F` is already defined",
    );
    err_at("(declare-fun x () Flaot32)", 1, 19, "unknown sort `Flaot32`");
    err_at("(declare-fun x () (_ BitVec 0))", 1, 19, "bit-vector width 0");
}

#[test]
fn columns_count_characters_and_tabs_count_one() {
    err_at("(set-info :source |é|)\n\t(assert q)", 2, 10, "undeclared symbol `q`");
}

#[test]
fn errors_are_in_source_order() {
    // A sort error on line 1 is reported even though line 2 is malformed.
    err_at("(assert (not #b1))\n(assert (", 1, 14, "expected a Bool term");
}

#[test]
fn parse_term_errors() {
    let e = parse_term("(fp.isNaN z)", &[]).unwrap_err();
    assert_eq!(e.to_string(), "<term>:1:11: undeclared symbol `z`");
    let e = parse_term("true false", &[]).unwrap_err();
    assert_eq!((e.line, e.column), (1, 6));
}
