//! The built-in function symbols of the Core, FloatingPoint and FixedSizeBitVectors
//! theories: their signatures and how applications become terms.

use super::term::TermCx;
use crate::sexpr::Id;
use crate::{LResult, Located};
use fpsym_expr::{Float, Format, Op, Sort, Term};

/// The sort an argument position accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum K {
    /// Bool.
    Bool,
    /// RoundingMode.
    Rm,
    /// A float of the same format as the other `Fp` arguments.
    Fp,
    /// Any float.
    FpAny,
    /// A bit-vector of the same width as the other `Bv` arguments.
    Bv,
    /// Any bit-vector.
    BvAny,
    /// Any sort, the same for all `Any` arguments.
    Any,
}

const B1: &[K] = &[K::Bool];
const ITE: &[K] = &[K::Bool, K::Any, K::Any];
const F1: &[K] = &[K::Fp];
const FF: &[K] = &[K::Fp, K::Fp];
const RF: &[K] = &[K::Rm, K::Fp];
const RFF: &[K] = &[K::Rm, K::Fp, K::Fp];
const RFFF: &[K] = &[K::Rm, K::Fp, K::Fp, K::Fp];
const RFA: &[K] = &[K::Rm, K::FpAny];
const RVA: &[K] = &[K::Rm, K::BvAny];
const V1: &[K] = &[K::Bv];
const VV: &[K] = &[K::Bv, K::Bv];
const VA: &[K] = &[K::BvAny];

/// A built-in function symbol.
#[derive(Clone, Debug)]
pub(crate) enum Builtin {
    /// A fixed-arity operation.
    Fixed(Op, &'static [K]),
    /// A chainable binary predicate: `(= a b c)` is `(and (= a b) (= b c))`.
    Chain(Op, K),
    /// `and` (true) or `or` (false), any number of arguments.
    AndOr(bool),
    /// `xor`.
    Xor,
    /// `=>`, right-associative.
    Implies,
    /// `distinct`.
    Distinct,
    /// A left-associative bit-vector operation.
    BvLeft(Op),
    /// `concat`, left-associative.
    Concat,
    /// `(fp s e m)`.
    Fp,
    /// `bvnand`, `bvnor`, `bvxnor` (the operation to negate).
    BvNegated(Op),
    /// `bvcomp`.
    BvComp,
    /// `(_ to_fp eb sb)`, decided by the arguments' sorts.
    ToFp(Format),
    /// `(_ repeat n)`.
    Repeat(u32),
    /// `(_ rotate_left n)`.
    RotateLeft(u32),
    /// `(_ rotate_right n)`.
    RotateRight(u32),
}

/// Symbols of theories fpsym does not handle.
const UNSUPPORTED: [&str; 17] = [
    "fp.to_real",
    "to_real",
    "to_int",
    "is_int",
    "+",
    "-",
    "*",
    "/",
    "div",
    "mod",
    "abs",
    "<",
    "<=",
    ">",
    ">=",
    "select",
    "store",
];

/// The message for an unsupported symbol.
pub(crate) fn unsupported(name: &str) -> Option<String> {
    UNSUPPORTED.contains(&name).then(|| {
        format!("`{name}` is not supported: Real, Int and array terms are outside what fpsym handles (QF_FP, QF_BV, QF_BVFP)")
    })
}

/// The built-in function named `name`, if any.
pub(crate) fn by_name(name: &str) -> Option<Builtin> {
    use Builtin::*;
    use Op::*;
    Some(match name {
        "not" => Fixed(Not, B1),
        "and" => AndOr(true),
        "or" => AndOr(false),
        "xor" => Builtin::Xor,
        "=>" => Builtin::Implies,
        "=" => Chain(Eq, K::Any),
        "distinct" => Builtin::Distinct,
        "ite" => Fixed(Ite, ITE),
        "fp.abs" => Fixed(FpAbs, F1),
        "fp.neg" => Fixed(FpNeg, F1),
        "fp.add" => Fixed(FpAdd, RFF),
        "fp.sub" => Fixed(FpSub, RFF),
        "fp.mul" => Fixed(FpMul, RFF),
        "fp.div" => Fixed(FpDiv, RFF),
        "fp.fma" => Fixed(FpFma, RFFF),
        "fp.sqrt" => Fixed(FpSqrt, RF),
        "fp.rem" => Fixed(FpRem, FF),
        "fp.roundToIntegral" => Fixed(FpRoundToIntegral, RF),
        "fp.min" => Fixed(FpMin, FF),
        "fp.max" => Fixed(FpMax, FF),
        "fp.leq" => Chain(FpLeq, K::Fp),
        "fp.lt" => Chain(FpLt, K::Fp),
        "fp.geq" => Chain(FpGeq, K::Fp),
        "fp.gt" => Chain(FpGt, K::Fp),
        "fp.eq" => Chain(FpEq, K::Fp),
        "fp.isNormal" => Fixed(FpIsNormal, F1),
        "fp.isSubnormal" => Fixed(FpIsSubnormal, F1),
        "fp.isZero" => Fixed(FpIsZero, F1),
        "fp.isInfinite" => Fixed(FpIsInfinite, F1),
        "fp.isNaN" => Fixed(FpIsNaN, F1),
        "fp.isNegative" => Fixed(FpIsNegative, F1),
        "fp.isPositive" => Fixed(FpIsPositive, F1),
        "fp" => Builtin::Fp,
        "bvnot" => Fixed(BvNot, V1),
        "bvneg" => Fixed(BvNeg, V1),
        "bvand" => BvLeft(BvAnd),
        "bvor" => BvLeft(BvOr),
        "bvxor" => BvLeft(BvXor),
        "bvadd" => BvLeft(BvAdd),
        "bvmul" => BvLeft(BvMul),
        "bvsub" => Fixed(BvSub, VV),
        "bvudiv" => Fixed(BvUdiv, VV),
        "bvurem" => Fixed(BvUrem, VV),
        "bvsdiv" => Fixed(BvSdiv, VV),
        "bvsrem" => Fixed(BvSrem, VV),
        "bvsmod" => Fixed(BvSmod, VV),
        "bvshl" => Fixed(BvShl, VV),
        "bvlshr" => Fixed(BvLshr, VV),
        "bvashr" => Fixed(BvAshr, VV),
        "bvult" => Fixed(BvUlt, VV),
        "bvule" => Fixed(BvUle, VV),
        "bvugt" => Fixed(BvUgt, VV),
        "bvuge" => Fixed(BvUge, VV),
        "bvslt" => Fixed(BvSlt, VV),
        "bvsle" => Fixed(BvSle, VV),
        "bvsgt" => Fixed(BvSgt, VV),
        "bvsge" => Fixed(BvSge, VV),
        "bvnand" => BvNegated(BvAnd),
        "bvnor" => BvNegated(BvOr),
        "bvxnor" => BvNegated(BvXor),
        "bvcomp" => BvComp,
        "concat" => Concat,
        // fpsym's extensions: glibc's functions (`fpsym.sin`, `fpsym.pow`).
        _ => match fpsym_expr::LibmFn::from_smtlib_name(name) {
            Some(f) => Fixed(Libm(f), if f.arity() == 2 { RFF } else { RF }),
            None => return None,
        },
    })
}

/// True for the names of indexed function symbols.
pub(crate) fn is_indexed_function(name: &str) -> bool {
    matches!(
        name,
        "to_fp"
            | "to_fp_unsigned"
            | "fp.to_ubv"
            | "fp.to_sbv"
            | "extract"
            | "zero_extend"
            | "sign_extend"
            | "repeat"
            | "rotate_left"
            | "rotate_right"
    )
}

/// The indexed function `(_ name idx...)`; `Err` is a message.
pub(crate) fn indexed(name: &str, idx: &[u32]) -> Result<Builtin, String> {
    use Builtin::*;
    let want = match name {
        "to_fp" | "to_fp_unsigned" | "extract" => 2,
        "fp.to_ubv" | "fp.to_sbv" | "zero_extend" | "sign_extend" | "repeat" | "rotate_left" | "rotate_right" => 1,
        _ => return Err(format!("unknown indexed function symbol `{name}`")),
    };
    if idx.len() != want {
        return Err(format!("`{name}` takes {want} index(es), found {}", idx.len()));
    }
    let fmt = || Format::new(idx[0], idx[1]).map_err(|e| e.to_string());
    Ok(match name {
        "to_fp" => ToFp(fmt()?),
        "to_fp_unsigned" => Fixed(Op::ToFpFromUbv(fmt()?), RVA),
        "extract" => Fixed(Op::BvExtract(idx[0], idx[1]), VA),
        "fp.to_ubv" => Fixed(Op::FpToUbv(idx[0]), RFA),
        "fp.to_sbv" => Fixed(Op::FpToSbv(idx[0]), RFA),
        "zero_extend" => Fixed(Op::BvZeroExtend(idx[0]), VA),
        "sign_extend" => Fixed(Op::BvSignExtend(idx[0]), VA),
        "repeat" => Repeat(idx[0]),
        "rotate_left" => RotateLeft(idx[0]),
        _ => RotateRight(idx[0]),
    })
}

fn kind_name(k: K) -> &'static str {
    match k {
        K::Bool => "a Bool term",
        K::Rm => "a RoundingMode term",
        K::Fp | K::FpAny => "a FloatingPoint term",
        K::Bv | K::BvAny => "a BitVec term",
        K::Any => "a term",
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl TermCx<'_> {
    fn arity(&self, node: Id, fname: &str, want: &str, found: usize) -> Located {
        Located::new(self.arena.pos(node), format!("`{fname}` expects {want}, found {found}"))
    }

    fn at_least(&self, node: Id, fname: &str, n: usize, args: &[(Term, Id)]) -> LResult<()> {
        if args.len() < n {
            return Err(self.arity(node, fname, &format!("at least {n} argument{}", plural(n)), args.len()));
        }
        Ok(())
    }

    /// Checks the arguments against `kinds` (same length required).
    pub(crate) fn check(&self, fname: &str, kinds: &[K], node: Id, args: &[(Term, Id)]) -> LResult<()> {
        if kinds.len() != args.len() {
            let n = kinds.len();
            return Err(self.arity(node, fname, &format!("{n} argument{}", plural(n)), args.len()));
        }
        let mut fp: Option<(Sort, usize)> = None;
        let mut bv: Option<(Sort, usize)> = None;
        let mut any: Option<(Sort, usize)> = None;
        for (i, (&k, (t, at))) in kinds.iter().zip(args).enumerate() {
            let s = t.sort();
            let ok = match k {
                K::Bool => s == Sort::Bool,
                K::Rm => s == Sort::RoundingMode,
                K::Fp | K::FpAny => s.as_float().is_some(),
                K::Bv | K::BvAny => s.as_bv().is_some(),
                K::Any => true,
            };
            let here = self.arena.pos(*at);
            if !ok {
                return Err(Located::new(
                    here,
                    format!(
                        "expected {}, found {s}, as argument {} of `{fname}`",
                        kind_name(k),
                        i + 1
                    ),
                ));
            }
            let slot = match k {
                K::Fp => &mut fp,
                K::Bv => &mut bv,
                K::Any => &mut any,
                _ => continue,
            };
            match slot {
                Some((s0, j)) if *s0 != s => {
                    return Err(Located::new(
                        here,
                        format!("expected a term of sort {s0} (the sort of argument {}), found {s}, as argument {} of `{fname}`", *j + 1, i + 1),
                    ))
                }
                Some(_) => {}
                None => *slot = Some((s, i)),
            }
        }
        Ok(())
    }

    fn mk(&self, node: Id, op: Op, args: Vec<Term>) -> LResult<Term> {
        Term::app(op, args).map_err(|e| Located::new(self.arena.pos(node), e.to_string()))
    }

    /// Applies a built-in to elaborated arguments.
    pub(crate) fn apply_builtin(&self, b: &Builtin, fname: &str, node: Id, args: Vec<(Term, Id)>) -> LResult<Term> {
        use Builtin::*;
        let n = args.len();
        let each = |k: K| vec![k; n];
        match b {
            Fixed(op, kinds) => {
                self.check(fname, kinds, node, &args)?;
                self.mk(node, op.clone(), terms(args))
            }
            Chain(op, k) => {
                self.at_least(node, fname, 2, &args)?;
                self.check(fname, &each(*k), node, &args)?;
                let ts = terms(args);
                if n == 2 {
                    return self.mk(node, op.clone(), ts);
                }
                let pairs = ts
                    .windows(2)
                    .map(|w| self.mk(node, op.clone(), w.to_vec()))
                    .collect::<LResult<Vec<_>>>()?;
                Ok(Term::and(pairs))
            }
            AndOr(is_and) => {
                self.check(fname, &each(K::Bool), node, &args)?;
                let mut ts = terms(args);
                Ok(match n {
                    0 => Term::bool(*is_and),
                    1 => ts.pop().unwrap(),
                    _ => self.mk(node, if *is_and { Op::And } else { Op::Or }, ts)?,
                })
            }
            Xor => {
                self.at_least(node, fname, 1, &args)?;
                self.check(fname, &each(K::Bool), node, &args)?;
                let mut ts = terms(args);
                if n == 1 {
                    return Ok(ts.pop().unwrap());
                }
                self.mk(node, Op::Xor, ts)
            }
            Implies => {
                self.at_least(node, fname, 2, &args)?;
                self.check(fname, &each(K::Bool), node, &args)?;
                let mut ts = terms(args);
                let mut acc = ts.pop().unwrap();
                while let Some(t) = ts.pop() {
                    acc = self.mk(node, Op::Implies, vec![t, acc])?;
                }
                Ok(acc)
            }
            Distinct => {
                self.at_least(node, fname, 2, &args)?;
                self.check(fname, &each(K::Any), node, &args)?;
                self.mk(node, Op::Distinct, terms(args))
            }
            BvLeft(_) | Concat => {
                let op = if let BvLeft(op) = b { op.clone() } else { Op::BvConcat };
                self.at_least(node, fname, 2, &args)?;
                self.check(
                    fname,
                    &each(if op == Op::BvConcat { K::BvAny } else { K::Bv }),
                    node,
                    &args,
                )?;
                let mut it = terms(args).into_iter();
                let mut acc = it.next().unwrap();
                for t in it {
                    acc = self.mk(node, op.clone(), vec![acc, t])?;
                }
                Ok(acc)
            }
            Fp => {
                self.check(fname, &[K::BvAny, K::BvAny, K::BvAny], node, &args)?;
                let w = |i: usize| args[i].0.sort().as_bv().unwrap();
                if w(0) != 1 {
                    return Err(Located::new(
                        self.arena.pos(args[0].1),
                        format!(
                            "expected a term of sort (_ BitVec 1) (the sign bit), found {}, as argument 1 of `fp`",
                            args[0].0.sort()
                        ),
                    ));
                }
                let fmt = Format::new(w(1), w(2) + 1).map_err(|e| Located::new(self.arena.pos(node), e.to_string()))?;
                let consts: Vec<_> = args
                    .iter()
                    .filter_map(|(t, _)| t.as_const().and_then(|v| v.as_bv()))
                    .collect();
                if let [s, e, m] = consts[..] {
                    return Ok(Term::fp(Float::from_fields(
                        fmt,
                        s.bits() == 1,
                        e.bits() as u64,
                        m.bits(),
                    )));
                }
                self.mk(node, Op::FpFromParts, terms(args))
            }
            BvNegated(op) => {
                self.check(fname, VV, node, &args)?;
                let inner = self.mk(node, op.clone(), terms(args))?;
                self.mk(node, Op::BvNot, vec![inner])
            }
            BvComp => {
                self.check(fname, VV, node, &args)?;
                let eq = self.mk(node, Op::Eq, terms(args))?;
                self.mk(node, Op::Ite, vec![eq, Term::bv(1, 1), Term::bv(1, 0)])
            }
            ToFp(fmt) => match n {
                1 => {
                    self.check(fname, VA, node, &args)?;
                    let s = args[0].0.sort();
                    if s != Sort::BitVec(fmt.packed_width()) {
                        return Err(Located::new(
                            self.arena.pos(args[0].1),
                            format!(
                                "expected a term of sort (_ BitVec {}) to reinterpret as {}, found {s}, as argument 1 of `{fname}`",
                                fmt.packed_width(),
                                Sort::Float(*fmt)
                            ),
                        ));
                    }
                    self.mk(node, Op::ToFpFromBits(*fmt), terms(args))
                }
                2 => {
                    self.check(fname, &[K::Rm, K::Any], node, &args)?;
                    let op = match args[1].0.sort() {
                        Sort::Float(_) => Op::ToFpFromFp(*fmt),
                        Sort::BitVec(_) => Op::ToFpFromSbv(*fmt),
                        s => {
                            return Err(Located::new(
                                self.arena.pos(args[1].1),
                                format!("expected a FloatingPoint or BitVec term or a real literal, found {s}, as argument 2 of `{fname}`"),
                            ))
                        }
                    };
                    self.mk(node, op, terms(args))
                }
                _ => Err(self.arity(node, fname, "1 or 2 arguments", n)),
            },
            Repeat(k) => {
                self.check(fname, VA, node, &args)?;
                if *k == 0 {
                    return Err(Located::new(
                        self.arena.pos(node),
                        "`repeat` needs an index of at least 1",
                    ));
                }
                let t = args[0].0.clone();
                let mut acc = t.clone();
                for _ in 1..*k {
                    acc = self.mk(node, Op::BvConcat, vec![acc, t.clone()])?;
                }
                Ok(acc)
            }
            RotateLeft(k) | RotateRight(k) => {
                self.check(fname, VA, node, &args)?;
                let t = args[0].0.clone();
                let w = t.sort().as_bv().unwrap();
                let r = k % w;
                let left = if matches!(b, RotateLeft(_)) { r } else { (w - r) % w };
                if left == 0 {
                    return Ok(t);
                }
                let lo = self.mk(node, Op::BvExtract(w - 1 - left, 0), vec![t.clone()])?;
                let hi = self.mk(node, Op::BvExtract(w - 1, w - left), vec![t])?;
                self.mk(node, Op::BvConcat, vec![lo, hi])
            }
        }
    }
}

fn terms(args: Vec<(Term, Id)>) -> Vec<Term> {
    args.into_iter().map(|(t, _)| t).collect()
}
