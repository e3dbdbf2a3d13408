//! Elaboration semantics: let, named terms, define-fun macros, define-sort,
//! push/pop, reset, chainable and associative operators, literals, to_fp
//! forms; and printing (terms, scripts, models) that parses back.

use fpsym_expr::{eval, BvValue, Float, Format, Model, Op, RoundingMode, Sort, Term, Value};
use fpsym_smtlib::{parse_model, parse_script, parse_term, print_model, print_script, print_term, Command, Script};

const F32: Sort = Sort::Float(Format::BINARY32);
const RNE: RoundingMode = RoundingMode::NearestTiesToEven;

fn parse(src: &str) -> Script {
    parse_script(src, "t.smt2").unwrap_or_else(|e| panic!("{e}"))
}

fn asserts(s: &Script) -> Vec<Term> {
    s.commands
        .iter()
        .filter_map(|c| {
            if let Command::Assert(t) = c {
                Some(t.clone())
            } else {
                None
            }
        })
        .collect()
}

fn x() -> Term {
    Term::var("x", F32)
}
fn y() -> Term {
    Term::var("y", F32)
}
fn p() -> Term {
    Term::var("p", Sort::Bool)
}
fn q() -> Term {
    Term::var("q", Sort::Bool)
}
fn b8() -> Term {
    Term::var("b", Sort::BitVec(8))
}
fn rm() -> Term {
    Term::rm(RNE)
}
fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args).unwrap()
}
/// Parses a term over x, y: Float32, p, q: Bool, b: (_ BitVec 8), r: RoundingMode.
fn term(src: &str) -> Term {
    parse_term(src, &[x(), y(), p(), q(), b8(), Term::var("r", Sort::RoundingMode)]).unwrap_or_else(|e| panic!("{e}"))
}
fn f32c(v: f32) -> Term {
    Term::fp(Float::from_f32(v))
}

/// Asserts parse → print → parse gives the same commands; returns the printed text.
#[track_caller]
fn round_trip(s: &Script) -> String {
    let printed = print_script(s);
    let again = parse_script(&printed, "printed.smt2").unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(again.commands, s.commands, "printed:\n{printed}");
    printed
}

const DECLS: &str =
    "(declare-fun x () Float32)\n(declare-fun y () Float32)\n(declare-fun p () Bool)\n(declare-fun q () Bool)\n";

#[test]
fn let_is_parallel_and_shadows() {
    let s = parse(&format!(
        "{DECLS}(assert (let ((a x) (b y)) (let ((a b) (b a)) (fp.lt a b))))"
    ));
    assert_eq!(asserts(&s), vec![app(Op::FpLt, vec![y(), x()])]);
    // A let variable shadows a global of another sort, only inside its body.
    let s = parse(&format!("{DECLS}(assert (and (let ((x p)) (and x q)) (fp.isNaN x)))"));
    let expect = app(Op::And, vec![app(Op::And, vec![p(), q()]), app(Op::FpIsNaN, vec![x()])]);
    assert_eq!(asserts(&s), vec![expect.clone()]);
    round_trip(&s);
    // Bindings see the outer scope, not each other.
    assert_eq!(term("(let ((x y) (y x)) (fp.lt x y))"), app(Op::FpLt, vec![y(), x()]));
}

#[test]
fn named_terms_are_recorded_and_bound() {
    let s = parse(&format!(
        "{DECLS}(assert (! (fp.isNaN x) :named n1))\n(assert (let ((z y)) (! (fp.isZero z) :named n2 :weight 3)))\n(assert (or n1 n2))"
    ));
    let n1 = app(Op::FpIsNaN, vec![x()]);
    let n2 = app(Op::FpIsZero, vec![y()]);
    assert_eq!(
        asserts(&s),
        vec![n1.clone(), n2.clone(), app(Op::Or, vec![n1.clone(), n2.clone()])]
    );
    let names: Vec<_> = s
        .named
        .iter()
        .map(|n| (n.name.as_str(), n.term.clone(), n.command))
        .collect();
    assert_eq!(names, vec![("n1", n1, 4), ("n2", n2, 5)]);
    let printed = round_trip(&s);
    assert!(printed.contains("(assert (! (fp.isNaN x) :named n1))"), "{printed}");
    assert!(printed.contains("(assert (! (fp.isZero y) :named n2))"), "{printed}");
    assert_eq!(parse_script(&printed, "p").unwrap().named.len(), 2);
}

#[test]
fn define_fun_constants_and_macros() {
    let s = parse(&format!(
        "{DECLS}(define-fun two () Float32 (fp.add RNE x x))\n\
         (define-fun lt ((a1 Float32) (b1 Float32)) Bool (fp.lt a1 b1))\n\
         (define-fun gt ((a1 Float32) (b1 Float32)) Bool (lt b1 a1))\n\
         (assert (gt two y))\n(assert (lt y two))"
    ));
    let two = app(Op::FpAdd, vec![rm(), x(), x()]);
    let lt = app(Op::FpLt, vec![y(), two.clone()]);
    assert_eq!(asserts(&s), vec![lt.clone(), lt]);
    match &s.commands[6] {
        Command::DefineFun { name, params, body, .. } => {
            assert_eq!(name, "gt");
            assert_eq!(params, &vec![("a1".to_string(), F32), ("b1".to_string(), F32)]);
            assert_eq!(*body, app(Op::FpLt, vec![Term::var("b1", F32), Term::var("a1", F32)]));
        }
        c => panic!("{c:?}"),
    }
    let printed = round_trip(&s);
    assert!(
        printed
            .contains("(define-fun gt ((a1 (_ FloatingPoint 8 24)) (b1 (_ FloatingPoint 8 24))) Bool (fp.lt b1 a1))"),
        "{printed}"
    );
    assert!(printed.contains("(assert (fp.lt y two))"), "{printed}");
}

#[test]
fn macro_parameters_do_not_capture_globals() {
    // The body of `h` mentions the global x (through g) and its parameter x.
    let s = parse(
        "(declare-fun x () Float32)\n(declare-fun y () Float32)\n(define-fun g () Float32 (fp.neg x))\n\
         (define-fun h ((x Float32)) Float32 (fp.add RNE x g))\n(assert (fp.eq (h y) (h x)))",
    );
    let g = app(Op::FpNeg, vec![x()]);
    let h = |a: Term| app(Op::FpAdd, vec![rm(), a, g.clone()]);
    assert_eq!(asserts(&s), vec![app(Op::FpEq, vec![h(y()), h(x())])]);
    match &s.commands[3] {
        Command::DefineFun { params, .. } => assert_eq!(params[0].0, "x!1"),
        c => panic!("{c:?}"),
    }
    round_trip(&s);
}

#[test]
fn define_sort_with_parameters() {
    let s = parse(
        "(define-sort F () (_ FloatingPoint 8 24))\n(define-sort Id (X) X)\n(define-sort BV (X) (_ BitVec 8))\n\
         (declare-fun zd () (Id F))\n(declare-fun wd () (BV Bool))\n(define-fun k ((v (Id (Id F)))) F v)\n(assert (fp.eq zd (k zd)))",
    );
    let z = Term::var("zd", F32);
    assert!(s.commands.contains(&Command::DeclareFun {
        name: "wd".into(),
        sort: Sort::BitVec(8)
    }));
    assert_eq!(asserts(&s), vec![app(Op::FpEq, vec![z.clone(), z])]);
    round_trip(&s);
}

#[test]
fn push_pop_scopes_declarations_and_definitions() {
    let s = parse(
        "(declare-fun x () Float32)\n(push 1)\n(declare-fun zp () Float32)\n(define-fun d () Bool (fp.isNaN zp))\n(assert (and (fp.isNaN x) d))\n\
         (push 2)\n(assert d)\n(pop 3)\n(declare-fun zp () Float32)\n(define-fun d () Bool (fp.isZero zp))\n(assert d)\n(check-sat)",
    );
    let z = Term::var("zp", F32);
    let all = asserts(&s);
    assert_eq!(all[2], app(Op::FpIsZero, vec![z]));
    // Assertions in force at the check-sat: only the last one.
    assert_eq!(s.assertions_before(s.commands.len() - 1), vec![all[2].clone()]);
    assert_eq!(s.assertions_before(7), vec![all[0].clone(), all[1].clone()]);
    round_trip(&s);
}

/// True when fpsym-expr interns variables by name *and* sort.
fn vars_keyed_by_sort() -> bool {
    let _keep = Term::var("probe for sort keying", Sort::Bool);
    Term::var("probe for sort keying", F32).sort() == F32
}

#[test]
fn redeclaring_a_name_with_another_sort_after_pop() {
    let src =
        "(push 1)\n(declare-fun zr () Bool)\n(assert zr)\n(pop 1)\n(declare-fun zr () Float32)\n(assert (fp.isNaN zr))";
    let r = parse_script(src, "t.smt2");
    if vars_keyed_by_sort() {
        let s = r.unwrap();
        assert_eq!(asserts(&s)[1], app(Op::FpIsNaN, vec![Term::var("zr", F32)]));
        round_trip(&s);
    } else {
        // fpsym-expr identifies variables by name only: a clear, located error
        // instead of a silently mis-sorted variable.
        let e = r.unwrap_err();
        assert_eq!((e.line, e.column), (5, 14), "{e}");
        assert!(
            e.message
                .contains("cannot declare `zr` with sort (_ FloatingPoint 8 24)"),
            "{e}"
        );
    }
}

#[test]
fn macro_parameters_of_different_sorts_share_names() {
    let s = parse(
        "(define-fun f ((a Float32)) Bool (fp.isNaN a))\n(define-fun g ((a Float64)) Bool (fp.isNaN a))\n\
         (define-fun h ((a Bool)) Bool (not a))\n(declare-fun u () Float64)\n(assert (h (g u)))",
    );
    let u = Term::var("u", Sort::Float(Format::BINARY64));
    assert_eq!(asserts(&s), vec![app(Op::Not, vec![app(Op::FpIsNaN, vec![u])])]);
    // (Display names of parameters may be renamed while fpsym-expr interns
    // variables by name only, so compare the assertions.)
    let again = parse_script(&print_script(&s), "printed.smt2").unwrap();
    assert_eq!(asserts(&again), asserts(&s));
}

#[test]
fn global_declarations_survive_pop() {
    let s = parse("(set-option :global-declarations true)\n(push 1)\n(declare-fun zg () Bool)\n(pop 1)\n(assert zg)");
    assert_eq!(asserts(&s), vec![Term::var("zg", Sort::Bool)]);
    round_trip(&s);
}

#[test]
fn reset_and_reset_assertions_forget_declarations() {
    let s = parse("(declare-fun zs () (_ BitVec 4))\n(reset)\n(declare-fun zs () (_ BitVec 4))\n(assert (= zs #x1))\n(reset-assertions)\n(declare-fun zs () (_ BitVec 4))\n(assert (= zs #x3))");
    let z = Term::var("zs", Sort::BitVec(4));
    assert_eq!(asserts(&s)[1], app(Op::Eq, vec![z, Term::bv(4, 3)]));
    assert_eq!(s.assertions_before(s.commands.len()).len(), 1);
    round_trip(&s);
}

#[test]
fn exit_stops_reading() {
    let s = parse("(check-sat)\n(exit)\n(this is not even ((valid");
    assert_eq!(s.commands, vec![Command::CheckSat, Command::Exit]);
}

#[test]
fn chainable_and_associative_operators() {
    let eq = |a: Term, b: Term| app(Op::Eq, vec![a, b]);
    assert_eq!(term("(= x y x)"), app(Op::And, vec![eq(x(), y()), eq(y(), x())]));
    let leq = |a: Term, b: Term| app(Op::FpLeq, vec![a, b]);
    assert_eq!(
        term("(fp.leq x y x y)"),
        app(Op::And, vec![leq(x(), y()), leq(y(), x()), leq(x(), y())])
    );
    let imp = |a: Term, b: Term| app(Op::Implies, vec![a, b]);
    assert_eq!(term("(=> p q p)"), imp(p(), imp(q(), p())));
    assert_eq!(term("(and p)"), p());
    assert_eq!(term("(or q)"), q());
    assert_eq!(term("(xor p)"), p());
    assert_eq!(term("(xor p q p)"), app(Op::Xor, vec![p(), q(), p()]));
    assert_eq!(term("(and p q p)"), app(Op::And, vec![p(), q(), p()]));
    assert_eq!(term("(distinct x y x)"), app(Op::Distinct, vec![x(), y(), x()]));
    let add = |a: Term, c: Term| app(Op::BvAdd, vec![a, c]);
    assert_eq!(term("(bvadd b b #x01)"), add(add(b8(), b8()), Term::bv(8, 1)));
    assert_eq!(term("(concat b #b1 b)").sort(), Sort::BitVec(17));
}

#[test]
fn literals() {
    assert_eq!(term("(fp #b0 #b01111111 #b00000000000000000000000)"), f32c(1.0));
    assert_eq!(term("(fp #b1 #x80 #b10000000000000000000000)"), f32c(-3.0));
    assert_eq!(term("(_ +zero 8 24)"), f32c(0.0));
    assert_eq!(term("(_ -zero 8 24)"), f32c(-0.0));
    assert_eq!(term("(_ +oo 8 24)"), f32c(f32::INFINITY));
    assert_eq!(term("(_ -oo 11 53)"), Term::fp(Float::from_f64(f64::NEG_INFINITY)));
    assert_eq!(term("(_ NaN 8 24)"), Term::fp(Float::nan(Format::BINARY32)));
    assert_eq!(
        term("(fp #b0 #xff #b00000000000000000000001)"),
        Term::fp(Float::nan(Format::BINARY32))
    );
    assert_eq!(term("#xff"), Term::bv(8, 255));
    assert_eq!(term("#b101"), Term::bv(3, 5));
    assert_eq!(term("(_ bv300 8)"), Term::bv(8, 44));
    assert_eq!(
        term("(_ bv340282366920938463463374607431768211455 128)"),
        Term::bv(128, u128::MAX)
    );
    assert_eq!(term("roundTowardZero"), Term::rm(RoundingMode::TowardZero));
    assert_eq!(term("RNA"), Term::rm(RoundingMode::NearestTiesToAway));
    // Non-constant parts build FpFromParts.
    let t = term("(fp ((_ extract 7 7) b) #xff ((_ zero_extend 15) b))");
    assert_eq!(t.op(), &Op::FpFromParts);
    assert_eq!(t.sort(), F32);
    // Standard float sorts.
    let s = parse("(declare-fun h16 () Float16)\n(declare-fun d64 () Float64)\n(declare-fun q128 () Float128)\n(declare-fun rmv () RoundingMode)");
    let sorts: Vec<Sort> = s
        .commands
        .iter()
        .filter_map(|c| {
            if let Command::DeclareFun { sort, .. } = c {
                Some(*sort)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        sorts,
        vec![
            Sort::Float(Format::BINARY16),
            Sort::Float(Format::BINARY64),
            Sort::Float(Format::BINARY128),
            Sort::RoundingMode
        ]
    );
}

#[test]
fn to_fp_forms_are_decided_by_argument_sorts() {
    let f64s = Format::BINARY64;
    assert_eq!(
        term("((_ to_fp 8 24) #x3f800000)").op(),
        &Op::ToFpFromBits(Format::BINARY32)
    );
    assert_eq!(term("((_ to_fp 11 53) RNE x)").op(), &Op::ToFpFromFp(f64s));
    assert_eq!(term("((_ to_fp 11 53) RTZ b)").op(), &Op::ToFpFromSbv(f64s));
    assert_eq!(term("((_ to_fp_unsigned 11 53) r b)").op(), &Op::ToFpFromUbv(f64s));
    assert_eq!(term("((_ fp.to_sbv 16) RNE x)").op(), &Op::FpToSbv(16));
    assert_eq!(term("((_ fp.to_ubv 16) RNE x)").sort(), Sort::BitVec(16));
    // Real literals are converted exactly.
    assert_eq!(term("((_ to_fp 8 24) RNE 0.5)"), f32c(0.5));
    assert_eq!(term("((_ to_fp 8 24) RNE (- 3))"), f32c(-3.0));
    assert_eq!(term("((_ to_fp 8 24) RNE (/ 1 4))"), f32c(0.25));
    assert_eq!(term("((_ to_fp 8 24) RNE (/ (- 3) 4.0))"), f32c(-0.75));
    assert_eq!(term("((_ to_fp 8 24) RNE (- (/ 1 3)))"), f32c(-1.0 / 3.0));
}

#[test]
fn to_fp_of_a_real_with_symbolic_rounding_mode_is_an_ite() {
    let t = term("((_ to_fp 8 24) r 0.1)");
    for m in RoundingMode::ALL {
        let mut model = Model::new();
        model.insert(Term::var("r", Sort::RoundingMode), Value::Rm(m));
        let expect = term(&format!("((_ to_fp 8 24) {} 0.1)", m.smtlib_name()));
        assert_eq!(eval(&t, &model).unwrap(), expect.as_const().unwrap(), "{m:?}");
    }
    // Exactly representable: the same constant in every mode, no ite.
    assert_eq!(term("((_ to_fp 8 24) r 0.5)"), f32c(0.5));
}

#[test]
fn derived_bit_vector_operations() {
    let mut model = Model::new();
    model.insert(b8(), Value::Bv(BvValue::new(8, 0b1001_0110)));
    let v = |src: &str| eval(&term(src), &model).unwrap().as_bv().unwrap().bits();
    assert_eq!(v("(bvnand b #x0f)"), !(0b1001_0110u128 & 0x0f) & 0xff);
    assert_eq!(v("(bvnor b #x0f)"), !(0b1001_0110u128 | 0x0f) & 0xff);
    assert_eq!(v("(bvxnor b #x0f)"), !(0b1001_0110u128 ^ 0x0f) & 0xff);
    assert_eq!(v("(bvcomp b #x96)"), 1);
    assert_eq!(v("(bvcomp b #x97)"), 0);
    assert_eq!(v("((_ rotate_left 3) b)"), (0b1001_0110u8.rotate_left(3)) as u128);
    assert_eq!(v("((_ rotate_right 3) b)"), (0b1001_0110u8.rotate_right(3)) as u128);
    assert_eq!(v("((_ rotate_left 8) b)"), 0b1001_0110);
    assert_eq!(v("((_ repeat 2) b)"), 0x9696);
    assert_eq!(v("((_ sign_extend 8) b)"), 0xff96);
}

#[test]
fn print_term_parses_back_and_shares() {
    for src in [
        "(fp.add RNE (fp.mul RTZ x y) (fp.neg (fp.mul RTZ x y)))",
        "(ite (and p (fp.isNaN x)) ((_ to_fp 11 53) RNE x) ((_ to_fp 11 53) RTP (fp.sqrt RNA y)))",
        "(= ((_ extract 3 0) b) ((_ extract 7 4) ((_ sign_extend 0) (bvadd b b))))",
        "(fp.leq (fp ((_ extract 7 7) b) #xff ((_ zero_extend 15) b)) (_ -oo 8 24))",
        "((_ fp.to_sbv 8) RNE ((_ to_fp_unsigned 8 24) RNE b))",
        "(distinct (fp.min x y) (fp.max x y) (fp.rem x y) (fp.fma RNE x y x) (fp.roundToIntegral RTN x))",
    ] {
        let t = term(src);
        let printed = print_term(&t);
        assert_eq!(term(&printed), t, "{printed}");
    }
    // A doubling chain: tree size 2^200, printed size linear.
    let mut t = x();
    for _ in 0..200 {
        t = app(Op::FpAdd, vec![rm(), t.clone(), t]);
    }
    let printed = print_term(&t);
    assert!(printed.len() < 200 * 60, "{} bytes", printed.len());
    assert_eq!(term(&printed), t);
    // let names avoid the term's variable names.
    let v = Term::var("?x0", F32);
    let s2 = app(Op::FpMul, vec![rm(), v.clone(), v.clone()]);
    let t = app(Op::FpAdd, vec![rm(), s2.clone(), s2]);
    let printed = print_term(&t);
    assert_eq!(printed, "(let ((?x1 (fp.mul RNE ?x0 ?x0))) (fp.add RNE ?x1 ?x1))");
    assert_eq!(parse_term(&printed, &[v]).unwrap(), t);
}

#[test]
fn print_script_declares_free_variables_and_quotes_symbols() {
    let z = Term::var("odd name", F32);
    let w = Term::var("wb", Sort::Bool);
    let script = Script::new(vec![
        Command::SetLogic("QF_FP".into()),
        Command::Assert(app(Op::FpIsNaN, vec![z.clone()])),
        Command::Push(1),
        Command::Assert(app(Op::And, vec![w.clone(), app(Op::FpIsZero, vec![z])])),
        Command::Pop(1),
        Command::Assert(w),
        Command::CheckSat,
        Command::Echo("say \"hi\"".into()),
    ]);
    let printed = print_script(&script);
    let again = parse_script(&printed, "printed.smt2").unwrap();
    assert_eq!(asserts(&again), asserts(&script));
    assert_eq!(
        again.assertions_before(again.commands.len()),
        script.assertions_before(script.commands.len())
    );
    assert_eq!(
        printed,
        "(set-logic QF_FP)\n(declare-fun |odd name| () (_ FloatingPoint 8 24))\n(assert (fp.isNaN |odd name|))\n(push 1)\n\
         (declare-fun wb () Bool)\n(assert (and wb (fp.isZero |odd name|)))\n(pop 1)\n(declare-fun wb () Bool)\n(assert wb)\n(check-sat)\n\
         (echo \"say \"\"hi\"\"\")\n"
    );
}

#[test]
fn commands_round_trip() {
    let s = parse(
        "(set-info :smt-lib-version 2.6)\n(set-info :source |multi\nline|)\n(set-option :produce-models true)\n(set-logic QF_BVFP)\n\
         (declare-const x Float32)\n(get-info :name)\n(get-option :produce-models)\n(check-sat-assuming ((fp.isNaN x) (not (fp.isZero x))))\n\
         (get-value (x (fp.abs x)))\n(get-model)\n(get-assertions)\n(get-assignment)\n(get-unsat-core)\n(get-unsat-assumptions)\n(get-proof)\n\
         (declare-sort U 0)\n(echo \"a\"\"b\")\n(push)\n(pop)\n(exit)",
    );
    assert_eq!(
        s.commands[1],
        Command::SetInfo(":source".into(), "|multi\nline|".into())
    );
    assert_eq!(s.commands[16], Command::Echo("a\"b".into()));
    assert_eq!(s.commands[17], Command::Push(1));
    assert_eq!(s.pos(4).unwrap().line, 6);
    round_trip(&s);
}

#[test]
fn models_print_and_parse_back() {
    let mut m = Model::new();
    m.insert(x(), Value::Fp(Float::from_f32(-1.5)));
    m.insert(y(), Value::Fp(Float::nan(Format::BINARY32)));
    m.insert(
        Term::var("z z", Sort::Float(Format::BINARY64)),
        Value::Fp(Float::from_f64(-0.0)),
    );
    m.insert(b8(), Value::Bv(BvValue::new(8, 0xa5)));
    m.insert(p(), Value::Bool(true));
    m.insert(
        Term::var("r", Sort::RoundingMode),
        Value::Rm(RoundingMode::TowardNegative),
    );
    let printed = print_model(&m);
    assert_eq!(
        printed,
        "(model\n  (define-fun b () (_ BitVec 8) #b10100101)\n  (define-fun p () Bool true)\n  (define-fun r () RoundingMode RTN)\n  \
         (define-fun x () (_ FloatingPoint 8 24) (fp #b1 #b01111111 #b10000000000000000000000))\n  \
         (define-fun y () (_ FloatingPoint 8 24) (_ NaN 8 24))\n  (define-fun |z z| () (_ FloatingPoint 11 53) (_ -zero 11 53))\n)"
    );
    assert_eq!(parse_model(&printed).unwrap(), m);
    // Solver output styles: z3 (no `model` keyword, hex, to_fp) and cvc5.
    let z3 = "(\n  (define-fun x () (_ FloatingPoint 8 24)\n    ((_ to_fp 8 24) #xbfc00000))\n  (define-fun b () (_ BitVec 8)\n    #xa5)\n)";
    let m2 = parse_model(z3).unwrap();
    assert_eq!(m2.get(&x()), Some(Value::Fp(Float::from_f32(-1.5))));
    assert_eq!(m2.get(&b8()), Some(Value::Bv(BvValue::new(8, 0xa5))));
    let cvc5 = "(\n(define-fun x () Float32 (fp #b1 #b01111111 #b10000000000000000000000))\n)";
    assert_eq!(
        parse_model(cvc5).unwrap().get(&x()),
        Some(Value::Fp(Float::from_f32(-1.5)))
    );
    let e = parse_model("(model (define-fun f ((a Bool)) Bool a))").unwrap_err();
    assert!(e.message.contains("parameters"), "{e}");
}
