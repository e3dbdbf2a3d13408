//! The fast path's arithmetic against the executor's (terms folded by
//! fpsym's exact soft-float and bit-vector evaluation), on edge values
//! and random ones.
use super::eval::*;
use super::*;
use crate::exec::arith;
use crate::memory::{Cell, Kind, Memory};
use crate::term::{as_bool, as_bv, bv};
use rand::{Rng, SeedableRng};

fn ints(w: u32, rng: &mut rand::rngs::StdRng) -> Vec<u64> {
    let m = mask(u64::MAX, w);
    let mut v = vec![0, 1, 2, 3, 7, m, m - 1, m >> 1, (m >> 1) + 1, w as u64, w as u64 + 1];
    v.extend((0..40).map(|_| mask(rng.gen::<u64>(), w)));
    v.into_iter().map(|x| mask(x, w)).collect()
}

fn floats(rng: &mut rand::rngs::StdRng) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        0.1,
        3.0,
        1e308,
        -1e308,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
        2f64.powi(63),
        2f64.powi(31) - 0.5,
        -(2f64.powi(31)),
        4294967295.7,
        1e10,
    ];
    v.extend(
        (0..30)
            .map(|_| f64::from_bits(rng.gen::<u64>()))
            .filter(|x| !x.is_nan()),
    );
    v.extend((0..30).map(|_| rng.gen_range(-1e6..1e6)));
    v
}

/// A state with one frame of three registers (slots 0 to 2).
fn three_registers() -> State {
    let mut st = crate::exec::placeholder();
    let names = std::sync::Arc::new(crate::state::RegNames::new([
        &Name::Number(0),
        &Name::Number(1),
        &Name::Number(2),
    ]));
    st.frames.push(Frame::new(0, crate::state::Regs::new(names)));
    st
}

/// Executes `inst` (its result in slot 2 of `st`'s frame) as
/// [`exec_op`] does and as [`kernel`] does in the form `decode::kops`
/// gives it, from the same registers; checks that both give the same
/// result, or both leave it (None).
fn both(st: &mut State, rm: RoundingMode, inst: &FInst) -> Option<Slot> {
    let regs = st.frames[0].regs.clone();
    st.frames[0].regs.set_slot(2, Slot::Empty);
    let want = exec_op(&mut st.frames[0].regs, &mut st.mem, rm, inst).map(|()| st.frames[0].regs.slot(2).clone());
    st.frames[0].regs = regs;
    st.frames[0].regs.set_slot(2, Slot::Empty);
    let instrs = std::slice::from_ref(inst);
    let (kops, _) = decode::kops(instrs, 0);
    let ran = kernel(
        &mut st.frames[0].regs,
        &mut st.mem,
        rm,
        &kops,
        decode::kops_bound(&kops),
        instrs,
    ) == 1;
    let got = ran.then(|| st.frames[0].regs.slot(2).clone());
    assert_eq!(got, want, "{:?} as {kops:?} in {rm:?}", inst.op);
    want
}

/// Executes `inst` as the fast path does, its result in slot 0 of
/// `st`'s frame; None when it is not plain there.
fn exec(st: &mut State, r: RoundingMode, inst: &FInst) -> Option<Slot> {
    let regs = &mut st.frames[0].regs;
    exec_op(regs, &mut st.mem, r, inst)?;
    Some(regs.slot(0).clone())
}

#[test]
fn integer_operations_agree_with_the_executor() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let ops = [
        (IOp::Add, "add"),
        (IOp::Sub, "sub"),
        (IOp::Mul, "mul"),
        (IOp::And, "and"),
        (IOp::Or, "or"),
        (IOp::Xor, "xor"),
        (IOp::Shl, "shl"),
        (IOp::LShr, "lshr"),
        (IOp::AShr, "ashr"),
        (IOp::UDiv, "udiv"),
        (IOp::SDiv, "sdiv"),
        (IOp::URem, "urem"),
        (IOp::SRem, "srem"),
    ];
    let preds = [
        IntPredicate::EQ,
        IntPredicate::NE,
        IntPredicate::UGT,
        IntPredicate::UGE,
        IntPredicate::ULT,
        IntPredicate::ULE,
        IntPredicate::SGT,
        IntPredicate::SGE,
        IntPredicate::SLT,
        IntPredicate::SLE,
    ];
    let mut compared = 0;
    for w in [1u32, 8, 16, 32, 64] {
        let xs = ints(w, &mut rng);
        for &a in &xs {
            for &b in &xs {
                let (ta, tb) = (bv(w, a as u128), bv(w, b as u128));
                for (op, name) in ops {
                    if let Some(r) = int_op(op, w, a, b) {
                        let want = as_bv(&arith::int_binop(name, &ta, &tb)).expect("folded");
                        assert_eq!(r as u128, want, "{name} i{w} {a} {b}");
                        compared += 1;
                    }
                }
                for p in preds {
                    let want = as_bool(&arith::icmp(p, &ta, &tb)).expect("folded");
                    assert_eq!(icmp(p, a, b, w), want, "icmp {p:?} i{w} {a} {b}");
                }
                // Casts: trunc/zext and sext to every width.
                for to in [1u32, 8, 16, 32, 64] {
                    let z = as_bv(&crate::exec::resize(&ta, to, false)).unwrap();
                    assert_eq!(mask(a, to) as u128, z);
                    let s = as_bv(&crate::exec::resize(&ta, to, true)).unwrap();
                    assert_eq!(mask(sext(a, w) as u64, to) as u128, s);
                }
            }
        }
    }
    assert!(compared > 100_000);
}

/// Conversions of a register's value, as the fast path runs them (its
/// in-place arms), against the executor's.
#[test]
fn conversions_from_registers_agree_with_the_executor() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut st = crate::exec::placeholder();
    let one = std::sync::Arc::new(crate::state::RegNames::new([&Name::Number(0)]));
    st.frames.push(Frame::new(0, crate::state::Regs::new(one)));
    let rne = RoundingMode::NearestTiesToEven;
    let conv = |c: Conv| FInst {
        op: Op::Conv { c, a: Src::Reg(0) },
        dest: 0,
        checked: 0,
        next: 0,
    };
    for w in [1u32, 8, 16, 32, 64] {
        for x in ints(w, &mut rng) {
            let t = bv(w, x as u128);
            for to in [1u32, 8, 16, 32, 64] {
                for signed in [false, true] {
                    st.frames[0].regs.set_int(0, x, w);
                    let c = if signed { Conv::Sext(to) } else { Conv::Zext(to) };
                    let want = as_bv(&crate::exec::resize(&t, to, signed)).unwrap();
                    assert_eq!(
                        exec(&mut st, rne, &conv(c)),
                        Some(Slot::Int(want as u64, to)),
                        "{c:?} i{w} {x}"
                    );
                }
            }
            for signed in [false, true] {
                let name = if signed { "sitofp" } else { "uitofp" };
                st.frames[0].regs.set_int(0, x, w);
                let want = arith::to_float(name, rne, &t, Format::BINARY64).as_const();
                let got = exec(&mut st, rne, &conv(Conv::IntToF64 { signed })).and_then(|s| s.val());
                assert_eq!(
                    got.and_then(|v| v.term().and_then(|t| t.as_const())),
                    want,
                    "{name} i{w} {x} to double"
                );
                st.frames[0].regs.set_int(0, x, w);
                let want = arith::to_float(name, rne, &t, Format::BINARY32).as_const();
                let got = exec(&mut st, rne, &conv(Conv::IntToF32 { signed })).and_then(|s| s.val());
                assert_eq!(
                    got.and_then(|v| v.term().and_then(|t| t.as_const())),
                    want,
                    "{name} i{w} {x} to float"
                );
            }
        }
    }
    for x in floats(&mut rng) {
        let x = x as f32;
        st.frames[0].regs.set_f32(0, x);
        let want = arith::to_float("fpext", rne, &Term::fp(Float::from_f32(x)), Format::BINARY64).as_const();
        let got = exec(&mut st, rne, &conv(Conv::F32ToF64)).and_then(|s| s.val());
        assert_eq!(
            got.and_then(|v| v.term().and_then(|t| t.as_const())),
            want,
            "fpext {x:e}"
        );
    }
}

/// The division checker is not asked on the fast path
/// (`only_where_not_plain`): what it reports is exactly what the fast
/// path leaves to the executor.
#[test]
fn the_division_checker_reports_only_where_division_is_not_plain() {
    use crate::checkers::{Checker, DivisionChecker};
    use llvm_ir::instruction as li;
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let op = |w: u32| Operand::ConstantOperand(llvm_ir::ConstantRef::new(Constant::Int { bits: w, value: 0 }));
    for w in [8u32, 16, 32, 64] {
        let xs = ints(w, &mut rng);
        let insts = [
            (
                IOp::UDiv,
                Instruction::UDiv(li::UDiv {
                    operand0: op(w),
                    operand1: op(w),
                    dest: Name::Number(0),
                    debugloc: None,
                }),
            ),
            (
                IOp::SDiv,
                Instruction::SDiv(li::SDiv {
                    operand0: op(w),
                    operand1: op(w),
                    dest: Name::Number(0),
                    debugloc: None,
                }),
            ),
            (
                IOp::URem,
                Instruction::URem(li::URem {
                    operand0: op(w),
                    operand1: op(w),
                    dest: Name::Number(0),
                    debugloc: None,
                }),
            ),
            (
                IOp::SRem,
                Instruction::SRem(li::SRem {
                    operand0: op(w),
                    operand1: op(w),
                    dest: Name::Number(0),
                    debugloc: None,
                }),
            ),
        ];
        for (iop, inst) in &insts {
            assert!(DivisionChecker.only_where_not_plain(inst));
            for &a in &xs {
                for &b in &xs {
                    let vals = [
                        Value::Bv(BvValue::new(w, a as u128)),
                        Value::Bv(BvValue::new(w, b as u128)),
                    ];
                    let reports = DivisionChecker.may_check(inst, Some(&vals));
                    assert_eq!(reports, int_op(*iop, w, a, b).is_none(), "{iop:?} i{w} {a} {b}");
                }
            }
        }
    }
}

#[test]
fn float_operations_agree_with_the_executor() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let xs = floats(&mut rng);
    let rne = RoundingMode::NearestTiesToEven;
    let fp = |x: f64| Term::fp(Float::from_f64(x));
    let fp32 = |x: f32| Term::fp(Float::from_f32(x));
    let value = |t: &Term| match t.as_const() {
        Some(Value::Fp(f)) => f,
        other => panic!("not folded: {other:?}"),
    };
    let preds = [
        FPPredicate::OEQ,
        FPPredicate::OGT,
        FPPredicate::OGE,
        FPPredicate::OLT,
        FPPredicate::OLE,
        FPPredicate::ONE,
        FPPredicate::ORD,
        FPPredicate::UNO,
        FPPredicate::UEQ,
        FPPredicate::UGT,
        FPPredicate::UGE,
        FPPredicate::ULT,
        FPPredicate::ULE,
        FPPredicate::UNE,
    ];
    for &a in &xs {
        for &b in &xs {
            for (op, name) in [
                (FOp::Add, "fadd"),
                (FOp::Sub, "fsub"),
                (FOp::Mul, "fmul"),
                (FOp::Div, "fdiv"),
            ] {
                let r = match op {
                    FOp::Add => a + b,
                    FOp::Sub => a - b,
                    FOp::Mul => a * b,
                    FOp::Div => a / b,
                };
                let want = value(&arith::fp_binop(name, rne, &fp(a), &fp(b)));
                if r.is_nan() {
                    assert!(want.is_nan());
                } else {
                    assert_eq!(Float::from_f64(r), want, "{name} {a:e} {b:e}");
                }
                let (a32, b32) = (a as f32, b as f32);
                let r = match op {
                    FOp::Add => a32 + b32,
                    FOp::Sub => a32 - b32,
                    FOp::Mul => a32 * b32,
                    FOp::Div => a32 / b32,
                };
                let want = value(&arith::fp_binop(name, rne, &fp32(a32), &fp32(b32)));
                if !r.is_nan() {
                    assert_eq!(Float::from_f32(r), want, "{name} {a32:e} {b32:e}");
                }
            }
            for p in preds {
                let want = as_bool(&arith::fcmp(p, &fp(a), &fp(b))).unwrap();
                assert_eq!(fcmp(p, a, b), want, "fcmp {p:?} {a} {b}");
            }
        }
        // Conversions.
        let f32v = value(&arith::to_float("fptrunc", rne, &fp(a), Format::BINARY32));
        assert_eq!(Float::from_f32(a as f32), f32v, "fptrunc {a:e}");
        let back = value(&arith::to_float("fpext", rne, &fp32(a as f32), Format::BINARY64));
        assert_eq!(Float::from_f64(a as f32 as f64), back);
        for w in [8u32, 16, 32, 64] {
            for signed in [true, false] {
                if let Some(r) = to_int(a, signed, w) {
                    let want = as_bv(&arith::fp_to_int(signed, &fp(a), w)).unwrap();
                    assert_eq!(r as u128, want, "fpto{}i {a:e} i{w}", if signed { "s" } else { "u" });
                }
            }
        }
    }
    // Arithmetic in every rounding mode, as the fast path executes it.
    let mut st = crate::exec::placeholder();
    let one = std::sync::Arc::new(crate::state::RegNames::new([&Name::Number(0)]));
    st.frames.push(Frame::new(0, crate::state::Regs::new(one)));
    for r in [
        RoundingMode::NearestTiesToEven,
        RoundingMode::NearestTiesToAway,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
        RoundingMode::TowardZero,
    ] {
        st.rm = r;
        for &a in &xs {
            for &b in &xs {
                for (op, name) in [
                    (FOp::Add, "fadd"),
                    (FOp::Sub, "fsub"),
                    (FOp::Mul, "fmul"),
                    (FOp::Div, "fdiv"),
                ] {
                    let want = value(&arith::fp_binop(name, r, &fp(a), &fp(b)));
                    let inst = FInst {
                        op: Op::FBin {
                            op,
                            m: Mem::F64,
                            a: Src::F64(a),
                            b: Src::F64(b),
                        },
                        dest: 0,
                        checked: 0,
                        next: 0,
                    };
                    match exec(&mut st, r, &inst) {
                        Some(Slot::F64(x)) => assert_eq!(Float::from_f64(x), want, "{name} {r:?} {a:e} {b:e}"),
                        None => assert!(want.is_nan(), "{name} {r:?} {a:e} {b:e} left to the executor"),
                        other => panic!("{other:?}"),
                    }
                    // binary32, its operands in registers.
                    let (a32, b32) = (a as f32, b as f32);
                    let want = value(&arith::fp_binop(name, r, &fp32(a32), &fp32(b32)));
                    st.frames[0].regs.set_f32(0, a32);
                    let inst = FInst {
                        op: Op::FBin {
                            op,
                            m: Mem::F32,
                            a: Src::Reg(0),
                            b: Src::F32(b32),
                        },
                        dest: 0,
                        checked: 0,
                        next: 0,
                    };
                    match exec(&mut st, r, &inst) {
                        Some(Slot::F32(x)) => assert_eq!(Float::from_f32(x), want, "{name} {r:?} {a32:e} {b32:e}"),
                        None => assert!(want.is_nan(), "{name} {r:?} {a32:e} {b32:e} left to the executor"),
                        other => panic!("{other:?}"),
                    }
                }
            }
        }
    }
    // Other formats (x86_fp80, binary128, binary16) on fpsym's
    // soft-float, in every rounding mode.
    for fmt in [Format::X86_FP80, Format::BINARY128, Format::BINARY16] {
        let vals: Vec<Float> = xs
            .iter()
            .step_by(3)
            .map(|&x| Float::from_f64(x).convert(fmt, RoundingMode::NearestTiesToEven).value)
            .flat_map(|f| [f, f.next_up()])
            .filter(|f| !f.is_nan())
            .collect();
        for r in [
            RoundingMode::NearestTiesToEven,
            RoundingMode::TowardNegative,
            RoundingMode::TowardZero,
        ] {
            st.rm = r;
            for &a in &vals {
                for &b in &vals {
                    let (ta, tb) = (Term::fp(a), Term::fp(b));
                    for (op, name) in [
                        (FOp::Add, "fadd"),
                        (FOp::Sub, "fsub"),
                        (FOp::Mul, "fmul"),
                        (FOp::Div, "fdiv"),
                    ] {
                        let want = value(&arith::fp_binop(name, r, &ta, &tb));
                        let inst = FInst {
                            op: Op::FBin {
                                op,
                                m: Mem::Flt(fmt),
                                a: Src::Flt(Box::new(a)),
                                b: Src::Flt(Box::new(b)),
                            },
                            dest: 0,
                            checked: 0,
                            next: 0,
                        };
                        match exec(&mut st, r, &inst) {
                            Some(Slot::Flt(x)) => assert_eq!(*x, want, "{name} {r:?} {a:?} {b:?}"),
                            None => assert!(want.is_nan()),
                            other => panic!("{other:?}"),
                        }
                    }
                    for p in [FPPredicate::OLT, FPPredicate::UEQ, FPPredicate::OGE, FPPredicate::UNE] {
                        let want = as_bool(&arith::fcmp(p, &ta, &tb)).unwrap();
                        let inst = FInst {
                            op: Op::FCmp {
                                p,
                                a: Src::Flt(Box::new(a)),
                                b: Src::Flt(Box::new(b)),
                            },
                            dest: 0,
                            checked: 0,
                            next: 0,
                        };
                        let got = compute(&st.frames[0].regs, &mut st.mem, r, &inst);
                        assert_eq!(got, Some(Slot::Int(want as u64, 1)), "fcmp {p:?} {a:?} {b:?}");
                    }
                }
                // To double and back, rounded as the executor does.
                let conv = |c: Conv, a: Src| FInst {
                    op: Op::Conv { c, a },
                    dest: 0,
                    checked: 0,
                    next: 0,
                };
                let want = value(&arith::to_float("fptrunc", r, &Term::fp(a), Format::BINARY64));
                let got = compute(
                    &st.frames[0].regs,
                    &mut st.mem,
                    r,
                    &conv(Conv::ToFormat(Format::BINARY64), Src::Flt(Box::new(a))),
                );
                assert_eq!(got, Slot::float(want), "to double {a:?}");
                let d = Float::from_f64(xs[(a.to_bits() % xs.len() as u128) as usize]);
                let want = value(&arith::to_float("fpext", r, &Term::fp(d), fmt));
                let got = compute(
                    &st.frames[0].regs,
                    &mut st.mem,
                    r,
                    &conv(Conv::ToFormat(fmt), Src::F64(d.to_f64().unwrap())),
                );
                assert_eq!(got, Slot::float(want), "from double {d:?}");
            }
        }
    }
    for w in [1u32, 8, 16, 32, 64] {
        for x in ints(w, &mut rng) {
            let t = bv(w, x as u128);
            let s = value(&arith::to_float("sitofp", rne, &t, Format::BINARY64));
            assert_eq!(Float::from_f64(sext(x, w) as f64), s, "sitofp i{w} {x}");
            let u = value(&arith::to_float("uitofp", rne, &t, Format::BINARY32));
            assert_eq!(Float::from_f32(x as f32), u, "uitofp i{w} {x}");
        }
    }
}

/// The fast path's stores go to a shadow beside the cells and become
/// cells when it hands the state back ([`crate::memory::Shadow`]).
/// Against the executor's way of storing (cells written at once, a term
/// per value): random stores of every class at every offset, loads and
/// flushes between them give the same bytes, every load reads what was
/// stored, and wherever the executor's cells hold a whole value the
/// flushed cells hold it too, the same constant.
#[test]
fn shadowed_stores_become_the_cells_the_executor_writes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let classes = [
        Mem::Int(1),
        Mem::Int(8),
        Mem::Int(16),
        Mem::Int(24),
        Mem::Int(32),
        Mem::Int(64),
        Mem::F32,
        Mem::F64,
    ];
    let xs = floats(&mut rng);
    const N: u64 = 24;
    let (mut loads, mut shadowed_loads) = (0, 0);
    for _ in 0..4000 {
        let mut mem = Memory::default();
        let zero = Cell::byte(bv(8, 0));
        let base = mem.allocate(N, 16, Kind::Stack, "x", None, zero.clone());
        let mut want = vec![zero; N as usize];
        for _ in 0..rng.gen_range(1..14) {
            let m = classes[rng.gen_range(0..classes.len())];
            let n = bytes(m);
            let off = rng.gen_range(0..=N - n);
            let a = base + off;
            match rng.gen_range(0..5) {
                0 | 1 => {
                    let x = xs[rng.gen_range(0..xs.len())];
                    let (v, val) = match m {
                        Mem::Int(w) => {
                            let x = mask(rng.gen::<u64>(), w);
                            (M::Int(x, w), bv(8 * n as u32, x as u128))
                        }
                        Mem::F32 => (M::F32(x as f32), Term::fp(Float::from_f32(x as f32))),
                        _ => (M::F64(x), Term::fp(Float::from_f64(x))),
                    };
                    store(&mut mem, a, v, m).expect("a store in bounds");
                    for i in 0..n as usize {
                        want[off as usize + i] = Cell {
                            val: val.clone(),
                            size: n as u8,
                            idx: i as u8,
                        };
                    }
                }
                2 | 3 => {
                    let mut bits = 0u64;
                    for i in 0..n as usize {
                        bits |= (byte(&want[off as usize + i]).expect("concrete") as u64) << (8 * i);
                    }
                    if let Mem::Int(w) = m {
                        bits = mask(bits, w);
                    }
                    let sh = mem.shadowed(a, n);
                    match load_bits(&mut mem, a, m) {
                        Some(got) => assert_eq!(got, bits, "load {m:?} at {off}"),
                        // Only a whole value of another class is left to the executor.
                        None => assert!(!sh, "a load from shadowed bytes is plain"),
                    }
                    loads += 1;
                    shadowed_loads += sh as u32;
                }
                _ => mem.flush_shadows(),
            }
        }
        mem.flush_shadows();
        let cells = mem.read(base, 0, N);
        for (i, (c, w)) in cells.iter().zip(&want).enumerate() {
            assert_eq!(byte(c), byte(w), "byte {i}");
        }
        for p in 0..N as usize {
            let size = want[p].size as usize;
            if want[p].idx == 0 && p + size <= N as usize {
                if let Some(v) = whole(&want[p..p + size], size as u64) {
                    assert_eq!(whole(&cells[p..p + size], size as u64), Some(v), "value at {p}");
                }
            }
        }
    }
    assert!(
        shadowed_loads > 1000 && loads > shadowed_loads + 1000,
        "{shadowed_loads} of {loads}"
    );
}

/// The integer shapes decoded for speed (two registers, a register and a
/// constant) give what the general instruction gives on the same
/// values, result or not plain.
#[test]
fn integer_shapes_agree_with_the_general_instruction() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let mut st = three_registers();
    let rne = RoundingMode::NearestTiesToEven;
    let ops = [
        IOp::Add,
        IOp::Sub,
        IOp::Mul,
        IOp::And,
        IOp::Or,
        IOp::Xor,
        IOp::Shl,
        IOp::LShr,
        IOp::AShr,
        IOp::UDiv,
        IOp::SDiv,
        IOp::URem,
        IOp::SRem,
    ];
    let preds = [
        IntPredicate::EQ,
        IntPredicate::UGT,
        IntPredicate::SLE,
        IntPredicate::SLT,
        IntPredicate::UGE,
    ];
    let run = |st: &mut State, op: Op| {
        let inst = FInst {
            op,
            dest: 2,
            checked: 0,
            next: 1,
        };
        both(st, rne, &inst)
    };
    let mut compared = 0;
    for w in [1u32, 8, 16, 32, 64] {
        let xs = ints(w, &mut rng);
        for &a in &xs {
            for &b in &xs {
                st.frames[0].regs.set_int(0, a, w);
                st.frames[0].regs.set_int(1, b, w);
                for op in ops {
                    let want = run(
                        &mut st,
                        Op::IBin {
                            op,
                            w,
                            a: Src::Reg(0),
                            b: Src::Reg(1),
                        },
                    );
                    assert_eq!(want.clone(), int_op(op, w, a, b).map(|r| Slot::Int(r, w)));
                    assert_eq!(
                        run(&mut st, Op::IBinRR { op, w, a: 0, b: 1 }),
                        want,
                        "{op:?} i{w} {a} {b}"
                    );
                    assert_eq!(
                        run(&mut st, Op::IBinRC { op, w, a: 0, c: b }),
                        want,
                        "{op:?} i{w} {a} {b}"
                    );
                    compared += 1;
                }
                for p in preds {
                    let want = Some(Slot::Int(icmp(p, a, b, w) as u64, 1));
                    assert_eq!(
                        run(
                            &mut st,
                            Op::ICmp {
                                p,
                                w,
                                a: Src::Reg(0),
                                b: Src::Int(b, w)
                            }
                        ),
                        want
                    );
                    assert_eq!(
                        run(&mut st, Op::ICmpRR { p, w, a: 0, b: 1 }),
                        want,
                        "{p:?} i{w} {a} {b}"
                    );
                    assert_eq!(
                        run(&mut st, Op::ICmpRC { p, w, a: 0, c: b }),
                        want,
                        "{p:?} i{w} {a} {b}"
                    );
                }
            }
        }
    }
    // A register that holds no machine integer is not plain.
    st.frames[0].regs.set_slot(0, Slot::F64(1.0));
    assert_eq!(
        run(
            &mut st,
            Op::IBinRC {
                op: IOp::Add,
                w: 64,
                a: 0,
                c: 1
            }
        ),
        None
    );
    assert_eq!(
        run(
            &mut st,
            Op::ICmpRR {
                p: IntPredicate::EQ,
                w: 64,
                a: 0,
                b: 1
            }
        ),
        None
    );
    assert!(compared > 50_000);
}

/// The kernel's forms of float arithmetic, conversions to binary64,
/// loads and address arithmetic give what [`exec_op`] gives on the same
/// values (result or not plain), in every rounding mode (the kernel
/// leaves other modes to `exec_op`).
#[test]
fn kernel_forms_agree_with_the_instructions() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    let mut st = three_registers();
    let inst = |op: Op| FInst {
        op,
        dest: 2,
        checked: 0,
        next: 1,
    };
    let xs = floats(&mut rng);
    let modes = [
        RoundingMode::NearestTiesToEven,
        RoundingMode::TowardZero,
        RoundingMode::TowardPositive,
    ];
    let mut ran = 0;
    for rm in modes {
        for &a in xs.iter().step_by(3) {
            for &b in xs.iter().step_by(2) {
                st.frames[0].regs.set_f64(0, a);
                st.frames[0].regs.set_f64(1, b);
                for op in [FOp::Add, FOp::Sub, FOp::Mul, FOp::Div] {
                    let m = Mem::F64;
                    for (a, b) in [
                        (Src::Reg(0), Src::Reg(1)),
                        (Src::Reg(0), Src::F64(b)),
                        (Src::F64(a), Src::Reg(1)),
                    ] {
                        ran += both(&mut st, rm, &inst(Op::FBin { op, m, a, b })).is_some() as u32;
                    }
                }
            }
        }
        for w in [1u32, 8, 32, 64] {
            for x in ints(w, &mut rng) {
                st.frames[0].regs.set_int(0, x, w);
                for signed in [false, true] {
                    let c = Conv::IntToF64 { signed };
                    ran += both(&mut st, rm, &inst(Op::Conv { c, a: Src::Reg(0) })).is_some() as u32;
                }
            }
        }
    }
    // Registers that do not hold what the operation reads.
    st.frames[0].regs.set_int(0, 1, 64);
    let rne = RoundingMode::NearestTiesToEven;
    let add = |a, b| {
        inst(Op::FBin {
            op: FOp::Add,
            m: Mem::F64,
            a,
            b,
        })
    };
    assert_eq!(both(&mut st, rne, &add(Src::Reg(0), Src::Reg(1))), None);
    assert_eq!(both(&mut st, rne, &add(Src::F64(1.0), Src::Reg(0))), None);
    st.frames[0].regs.set_f64(0, 1.0);
    let c = Conv::IntToF64 { signed: true };
    assert_eq!(both(&mut st, rne, &inst(Op::Conv { c, a: Src::Reg(0) })), None);
    // Loads and addresses: an object of 64 bytes, read at every offset
    // in and out of it, as each class, after stores of each class.
    let zero = Cell::byte(bv(8, 0));
    let base = st.mem.allocate(64, 16, Kind::Stack, "x", None, zero);
    for k in 0..8u64 {
        let v = match k % 3 {
            0 => M::Int(rng.gen::<u64>() & 0xffff_ffff, 32),
            1 => M::F64(xs[k as usize]),
            _ => M::F32(xs[k as usize] as f32),
        };
        let m = match v {
            M::Int(..) => Mem::Int(32),
            M::F64(_) => Mem::F64,
            _ => Mem::F32,
        };
        store(&mut st.mem, base + 8 * k, v, m).expect("a store in the object");
    }
    let mut loads = 0;
    for off in (0..72u64).chain([u64::MAX - 3]) {
        for m in [
            Mem::Int(8),
            Mem::Int(16),
            Mem::Int(32),
            Mem::Int(64),
            Mem::F32,
            Mem::F64,
        ] {
            st.frames[0].regs.set_int(0, base.wrapping_add(off), 64);
            loads += both(&mut st, rne, &inst(Op::Load { addr: Src::Reg(0), m })).is_some() as u32;
        }
        for (idx, size) in [(0u64, 8u64), (u64::MAX, 8), (3, 12)] {
            st.frames[0].regs.set_int(0, base, 64);
            st.frames[0].regs.set_int(1, idx & 0xffff_ffff, 32);
            for scaled in [vec![], vec![(Src::Reg(1), size)]] {
                let op = Op::Gep {
                    base: Src::Reg(0),
                    offset: off,
                    scaled,
                };
                assert!(both(&mut st, rne, &inst(op)).is_some());
            }
        }
    }
    // Stores of each class, and of registers of the wrong width or
    // class, at every offset in and out of the object: the kernel's
    // and the instruction's, each on its own copy of the state, then
    // every byte of the object read back from both.
    let mut stores = 0;
    let values = [
        (Mem::Int(8), Slot::Int(0xab, 8)),
        (Mem::Int(16), Slot::Int(0xbeef, 16)),
        (Mem::Int(32), Slot::Int(0xdead_beef, 32)),
        (Mem::Int(64), Slot::Int(u64::MAX - 5, 64)),
        (Mem::F32, Slot::F32(-1.5)),
        (Mem::F64, Slot::F64(0.1)),
        (Mem::Int(32), Slot::Int(5, 16)),
        (Mem::F64, Slot::F32(2.0)),
        (Mem::F32, Slot::Int(1, 32)),
    ];
    for off in (0..72u64).chain([u64::MAX - 3]) {
        for (m, v) in values.clone() {
            st.frames[0].regs.set_int(0, base.wrapping_add(off), 64);
            st.frames[0].regs.set_slot(1, v);
            let store = inst(Op::Store {
                v: Src::Reg(1),
                addr: Src::Reg(0),
                m,
            });
            let instrs = std::slice::from_ref(&store);
            let (kops, _) = decode::kops(instrs, 0);
            assert!(
                matches!(
                    kops[0].0,
                    KOp::Store { .. } | KOp::Store1 { .. } | KOp::Store4 { .. } | KOp::Store8 { .. }
                ),
                "{kops:?}"
            );
            let (mut a, mut b) = (st.clone(), st.clone());
            let want = exec_op(&mut a.frames[0].regs, &mut a.mem, rne, &store).is_some();
            let got = kernel(
                &mut b.frames[0].regs,
                &mut b.mem,
                rne,
                &kops,
                decode::kops_bound(&kops),
                instrs,
            ) == 1;
            assert_eq!(got, want, "{m:?} at {off}");
            stores += got as u32;
            for k in 0..64 {
                let byte = |mem: &mut Memory| load_bits(mem, base + k, Mem::Int(8));
                assert_eq!(byte(&mut a.mem), byte(&mut b.mem), "{m:?} at {off}: byte {k}");
            }
        }
    }
    st.mem.flush_shadows();
    assert!(
        ran > 1000 && loads > 100 && stores > 300,
        "{ran} float results, {loads} loads, {stores} stores"
    );
}

/// A copy of memory made while the fast path holds stored bytes in
/// shadows keeps them (each copy flushes its own), and a copy made after
/// the flush reads the same values from the cells.
#[test]
fn memory_copies_keep_unflushed_stores() {
    let mut mem = Memory::default();
    let zero = Cell::byte(bv(8, 0));
    let base = mem.allocate(64, 16, Kind::Stack, "x", None, zero);
    let other = mem.allocate(8, 16, Kind::Stack, "y", None, Cell::byte(bv(8, 0)));
    store(&mut mem, base + 8, M::Int(0xdead_beef, 32), Mem::Int(32)).expect("a store");
    store(&mut mem, base + 16, M::F64(-2.5), Mem::F64).expect("a store");
    store(&mut mem, other, M::Int(7, 8), Mem::Int(8)).expect("a store");
    assert!(mem.shadowed(base + 8, 4));
    let mut copy = mem.clone();
    assert!(copy.shadowed(base + 8, 4) && copy.shadowed(other, 1));
    for m in [&mut mem, &mut copy] {
        m.flush_shadows();
        assert!(!m.shadowed(base + 8, 4));
        let later = m.clone();
        for mem in [m, &mut later.clone()] {
            assert_eq!(load_bits(mem, base + 8, Mem::Int(32)), Some(0xdead_beef));
            assert_eq!(load_bits(mem, base + 16, Mem::F64), Some((-2.5f64).to_bits()));
            assert_eq!(load_bits(mem, other, Mem::Int(8)), Some(7));
            assert_eq!(load_bits(mem, base, Mem::Int(64)), Some(0));
        }
    }
}
