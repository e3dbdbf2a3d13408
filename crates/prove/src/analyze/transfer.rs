//! The transfer function of each instruction and call.

use super::*;

impl<'p> Analyzer<'p> {
    /// Executes one instruction; false when the path ends (abort, exit, an
    /// error call, an assumption that cannot hold).
    pub(super) fn instruction(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        b: usize,
        k: usize,
        i: &'p I,
        st: &mut HashMap<Key, Val>,
    ) -> Result<bool, GiveUp> {
        let loc = i.get_debug_loc().as_ref().map(Loc::from_debugloc);
        let fname = &f.name;
        let unsupported = |a: &Self, what: String| a.give_up(fname, loc.clone(), what);
        macro_rules! ev {
            ($op:expr) => {
                match self.eval(ctx, st, $op) {
                    Some(v) => v,
                    None => {
                        return Err(unsupported(
                            self,
                            unknown_operand($op, &format!("an operand of `{i}`")),
                        ))
                    }
                }
            };
        }
        let dest = |n: &Name| Key::Local(ctx, n.clone());
        let fbin = |a: &Val, b: &Val, op: fn(&FloatInterval, &FloatInterval) -> FloatInterval| match (a, b) {
            (Val::F(x), Val::F(y)) => Some(Val::F(op(x, y))),
            _ => None,
        };
        // plain `run`'s finding: an integer division by zero, or INT_MIN / -1
        if self.checks {
            let div = match i {
                I::SDiv(x) => Some((&x.operand0, &x.operand1, true)),
                I::SRem(x) => Some((&x.operand0, &x.operand1, true)),
                I::UDiv(x) => Some((&x.operand0, &x.operand1, false)),
                I::URem(x) => Some((&x.operand0, &x.operand1, false)),
                _ => None,
            };
            if let Some((a, d, signed)) = div {
                let (a, d) = (ev!(a), ev!(d));
                let (Some(a), Some(d)) = (a.as_i(), d.as_i()) else {
                    return Err(unsupported(self, format!("`{i}` (operand kinds)")));
                };
                // (ranges are of the signed reading: an unsigned divisor is 0
                // exactly when its signed reading is)
                let zero = d.lo <= 0 && d.hi >= 0;
                let min = IntRange::limits(a.bits).0;
                let overflow = signed && a.lo == min && d.lo <= -1 && d.hi >= -1;
                if (zero || overflow) && self.recording {
                    self.reached.push(super::Reached {
                        function: "an integer division by zero or overflow".into(),
                        loc: loc.clone(),
                    });
                }
            }
        }
        // exceptions' claims: an operation that may raise one of them
        if self.fp.any() && self.recording {
            for kind in self.fp_exceptions(ctx, i, st) {
                self.reached.push(super::Reached {
                    function: kind.into(),
                    loc: loc.clone(),
                });
            }
        }
        let result: Option<(Key, Val)> = match i {
            I::FAdd(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::add).map(|v| (dest(&x.dest), v)),
            I::FSub(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::sub).map(|v| (dest(&x.dest), v)),
            // `x * x` is `|x| * |x|` in every rounding mode (the result's
            // sign and rounding depend only on the magnitudes): never negative
            I::FMul(x) if x.operand0 == x.operand1 => match ev!(&x.operand0) {
                Val::F(a) => Some((dest(&x.dest), Val::F(itv::mul(&itv::abs(&a), &itv::abs(&a))))),
                _ => None,
            },
            I::FMul(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::mul).map(|v| (dest(&x.dest), v)),
            I::FDiv(x) => fbin(&ev!(&x.operand0), &ev!(&x.operand1), itv::div).map(|v| (dest(&x.dest), v)),
            I::FRem(x) => ev!(&x.operand0)
                .as_f()
                .map(|a| (dest(&x.dest), Val::F(FloatInterval::full(a.format())))),
            I::FNeg(x) => ev!(&x.operand).as_f().map(|a| (dest(&x.dest), Val::F(itv::neg(a)))),
            I::FPExt(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                self.defs.insert(dest(&x.dest), Def::FExt(self.opnd(ctx, &x.operand)));
                ev!(&x.operand)
                    .as_f()
                    .map(|a| (dest(&x.dest), Val::F(itv::convert(a, to))))
            }
            I::FPTrunc(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand)
                    .as_f()
                    .map(|a| (dest(&x.dest), Val::F(itv::convert(a, to))))
            }
            I::SIToFP(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand).as_i().map(|r| {
                    let (lo, hi) = if r.bits == 1 { (-r.hi, -r.lo) } else { (r.lo, r.hi) };
                    (dest(&x.dest), Val::F(itv::from_ints(to, lo, hi)))
                })
            }
            I::UIToFP(x) => {
                let to = fmt_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                ev!(&x.operand).as_i().map(|r| {
                    let (lo, hi) = if r.lo >= 0 {
                        (r.lo, r.hi)
                    } else {
                        (0, (1i128 << r.bits) - 1)
                    };
                    let mut v = itv::from_ints(to, lo, hi);
                    // Zero converts to -0 toward negative from 64 bits to
                    // double, and on i386 from 32 bits (the engine's
                    // `arith::uint_to_float`).
                    let cancels = (r.bits == 64 && to == Format::BINARY64) || (self.prog.ilp32() && r.bits == 32);
                    if cancels && lo == 0 {
                        v = v.hull(&FloatInterval::new(Float::zero(to, true), Float::zero(to, true), false));
                    }
                    (dest(&x.dest), Val::F(v))
                })
            }
            I::FPToSI(_) | I::FPToUI(_) => {
                let (operand, to_type, d, signed) = match i {
                    I::FPToSI(x) => (&x.operand, &x.to_type, &x.dest, true),
                    I::FPToUI(x) => (&x.operand, &x.to_type, &x.dest, false),
                    _ => unreachable!("matched above"),
                };
                let a = ev!(operand);
                int_of(to_type).map(|bits| {
                    let r = a.as_f().and_then(|a| itv::to_ints(a, bits, signed));
                    (
                        dest(d),
                        Val::I(r.map_or(IntRange::full(bits), |(l, h)| IntRange::fitted(bits, l, h))),
                    )
                })
            }
            I::FCmp(x) => {
                self.defs.insert(
                    dest(&x.dest),
                    Def::FCmp(x.predicate, self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                );
                let same = x.operand0 == x.operand1 && matches!(x.operand0, Operand::LocalOperand { .. });
                match (ev!(&x.operand0), ev!(&x.operand1)) {
                    (Val::F(a), Val::F(_)) if same => {
                        let t = fcmp_self(x.predicate, true, &a).is_some();
                        let fl = fcmp_self(x.predicate, false, &a).is_some();
                        Some((dest(&x.dest), bool_range(t, fl)))
                    }
                    (Val::F(a), Val::F(b)) => {
                        let (t, fl) = fcmp_outcomes(x.predicate, &a, &b);
                        Some((dest(&x.dest), bool_range(t, fl)))
                    }
                    _ => None,
                }
            }
            I::ICmp(x) => {
                self.defs.insert(
                    dest(&x.dest),
                    Def::ICmp(x.predicate, self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                );
                match (ev!(&x.operand0), ev!(&x.operand1)) {
                    (Val::I(a), Val::I(b)) => {
                        let t = icmp_refine(x.predicate, &a, &b).is_some();
                        let fl = icmp_refine(negate_ipred(x.predicate), &a, &b).is_some();
                        Some((dest(&x.dest), bool_range(t, fl)))
                    }
                    _ => Some((dest(&x.dest), Val::I(IntRange::full(1)))),
                }
            }
            I::Add(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                Some((a.lo + b.lo, a.hi + b.hi))
            })
            .map(|v| (dest(&x.dest), v)),
            I::Sub(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                Some((a.lo - b.hi, a.hi - b.lo))
            })
            .map(|v| (dest(&x.dest), v)),
            I::Mul(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                Some((*c.iter().min()?, *c.iter().max()?))
            })
            .map(|v| (dest(&x.dest), v)),
            I::SDiv(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                Some((a.lo.div_euclid(k).min(a.lo / k), a.hi / k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::SRem(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                Some(if a.lo >= 0 {
                    (0, a.hi.min(k - 1))
                } else {
                    (-(k - 1), k - 1)
                })
            })
            .map(|v| (dest(&x.dest), v)),
            I::And(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                if let (Val::I(r), _) = (&a, &b2) {
                    if r.bits == 1 {
                        self.defs.insert(
                            dest(&x.dest),
                            Def::And(self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                        );
                    }
                }
                int_arith(&a, &b2, |a, b| {
                    let m = [a, b].into_iter().filter(|r| r.lo >= 0).map(|r| r.hi).min()?;
                    Some((0, m))
                })
                .map(|v| (dest(&x.dest), v))
            }
            I::Or(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                if a.as_i().is_some_and(|r| r.bits == 1) {
                    self.defs.insert(
                        dest(&x.dest),
                        Def::Or(self.opnd(ctx, &x.operand0), self.opnd(ctx, &x.operand1)),
                    );
                    int_arith(&a, &b2, |a, b| Some((a.lo.max(b.lo), a.hi.max(b.hi)))).map(|v| (dest(&x.dest), v))
                } else {
                    int_arith(&a, &b2, |_, _| None).map(|v| (dest(&x.dest), v))
                }
            }
            I::Xor(x) => {
                let (a, b2) = (ev!(&x.operand0), ev!(&x.operand1));
                match (&a, &b2) {
                    (Val::I(r), Val::I(c)) if r.bits == 1 && c.as_point() == Some(1) => {
                        self.defs.insert(dest(&x.dest), Def::Not(self.opnd(ctx, &x.operand0)));
                        Some((
                            dest(&x.dest),
                            Val::I(IntRange {
                                bits: 1,
                                lo: 1 - r.hi,
                                hi: 1 - r.lo,
                            }),
                        ))
                    }
                    _ => int_arith(&a, &b2, |_, _| None).map(|v| (dest(&x.dest), v)),
                }
            }
            I::Shl(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                Some((a.lo.checked_mul(1 << k)?, a.hi.checked_mul(1 << k)?))
            })
            .map(|v| (dest(&x.dest), v)),
            I::LShr(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                (a.lo >= 0).then_some((a.lo >> k, a.hi >> k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::AShr(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| (0..63).contains(k))?;
                Some((a.lo >> k, a.hi >> k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::UDiv(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                (a.lo >= 0).then_some((a.lo / k, a.hi / k))
            })
            .map(|v| (dest(&x.dest), v)),
            I::URem(x) => int_arith(&ev!(&x.operand0), &ev!(&x.operand1), |a, b| {
                let k = b.as_point().filter(|k| *k > 0)?;
                (a.lo >= 0).then_some((0, a.hi.min(k - 1)))
            })
            .map(|v| (dest(&x.dest), v)),
            I::ZExt(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let a = ev!(&x.operand);
                let r = a.as_i().ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                if r.bits == 1 {
                    self.defs.insert(dest(&x.dest), Def::Alias(self.opnd(ctx, &x.operand)));
                }
                let v = if r.lo >= 0 {
                    IntRange::fitted(bits, r.lo, r.hi)
                } else {
                    IntRange::fitted(bits, 0, (1i128 << r.bits) - 1)
                };
                Some((dest(&x.dest), Val::I(v)))
            }
            I::SExt(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let r = *ev!(&x.operand)
                    .as_i()
                    .ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let (lo, hi) = if r.bits == 1 { (-r.hi, -r.lo) } else { (r.lo, r.hi) };
                Some((dest(&x.dest), Val::I(IntRange::fitted(bits, lo, hi))))
            }
            I::Trunc(x) => {
                let bits = int_of(&x.to_type).ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let r = *ev!(&x.operand)
                    .as_i()
                    .ok_or_else(|| unsupported(self, format!("`{i}`")))?;
                let v = if bits == 1 {
                    match r.as_point() {
                        Some(p) => IntRange::point(1, p & 1),
                        None => IntRange::full(1),
                    }
                } else {
                    IntRange::fitted(bits, r.lo, r.hi)
                };
                Some((dest(&x.dest), Val::I(v)))
            }
            I::Select(x) => {
                let c = ev!(&x.condition);
                let (t, e) = (ev!(&x.true_value), ev!(&x.false_value));
                let v = match c.as_i().and_then(|r| r.as_point()) {
                    Some(1) => t,
                    Some(_) => e,
                    None => t.join(&e),
                };
                Some((dest(&x.dest), v))
            }
            I::Freeze(x) => {
                let v = ev!(&x.operand);
                self.defs.insert(dest(&x.dest), Def::Alias(self.opnd(ctx, &x.operand)));
                Some((dest(&x.dest), v))
            }
            I::Load(x) => {
                let addr = ev!(&x.address);
                let ty = self.module.type_of(i);
                if let Some(places) = addr.addrs() {
                    let (v, form, one) = self.load_local(&places, &ty, st).map_err(|e| unsupported(self, e))?;
                    memory::loaded(st, &dest(&x.dest), one.filter(|_| !x.volatile));
                    let v = if x.volatile { top_of(&ty).unwrap_or(Val::Top) } else { v };
                    let fk = Key::Form(Box::new(dest(&x.dest)));
                    match form.filter(|_| !x.volatile) {
                        Some(f) => st.insert(fk, f),
                        None => st.remove(&fk),
                    };
                    if !top_of(&ty).is_some_and(|t| same_kind(&t, &v)) {
                        return Err(unsupported(
                            self,
                            format!("a load from `{}` the analysis does not follow", x.address),
                        ));
                    }
                    return self.assigned(ctx, i, st, dest(&x.dest), v);
                }
                let v = match &addr {
                    // a volatile object may change outside the program: any value
                    Val::Ptr { global, idx: None } if x.volatile && self.tracked.contains_key(global) => top_of(&ty),
                    Val::Ptr { global, idx: None } if self.tracked.contains_key(global) => {
                        st.get(&Key::Global(global.clone())).cloned()
                    }
                    Val::Ptr {
                        global,
                        idx: Some((l, h)),
                    } => self.arrays.get(global).and_then(|els| {
                        if *l < 0 || *h >= els.len() as i128 {
                            return None;
                        }
                        els[*l as usize..=*h as usize].iter().cloned().reduce(|a, b| a.join(&b))
                    }),
                    _ => None,
                };
                let global = match &addr {
                    Val::Ptr { global, idx: None } if !x.volatile && self.tracked.contains_key(global) => {
                        Some(Key::Global(global.clone()))
                    }
                    _ => None,
                };
                memory::loaded(st, &dest(&x.dest), global);
                // a loaded global's linear form goes with its value
                let form = match &addr {
                    Val::Ptr { global, idx: None } if !x.volatile => {
                        st.get(&Key::Form(Box::new(Key::Global(global.clone())))).cloned()
                    }
                    _ => None,
                };
                match form {
                    Some(f) => st.insert(Key::Form(Box::new(dest(&x.dest))), f),
                    None => st.remove(&Key::Form(Box::new(dest(&x.dest)))),
                };
                match v {
                    Some(v) if top_of(&ty).is_some_and(|t| same_kind(&t, &v)) => Some((dest(&x.dest), v)),
                    _ => {
                        return Err(unsupported(
                            self,
                            format!("a load from `{}` the analysis does not follow", x.address),
                        ))
                    }
                }
            }
            I::Store(x) => {
                let addr = ev!(&x.address);
                let v = ev!(&x.value);
                // the stored value's linear form goes with it
                let form = match &x.value {
                    Operand::LocalOperand { name, .. } => {
                        st.get(&Key::Form(Box::new(Key::Local(ctx, name.clone())))).cloned()
                    }
                    _ => None,
                };
                match &addr {
                    Val::Addr(_) | Val::Addrs(_) => {
                        let places = addr.addrs().expect("a pointer");
                        let ty = self.module.type_of(&x.value);
                        self.store_local(&places, &ty, v, form, st)
                            .map_err(|e| unsupported(self, e))?;
                        None
                    }
                    Val::Ptr { global, idx: None } if self.tracked.contains_key(global) => {
                        let g = Key::Global(global.clone());
                        match form {
                            Some(f) => st.insert(Key::Form(Box::new(g.clone())), f),
                            None => st.remove(&Key::Form(Box::new(g.clone()))),
                        };
                        memory::written(st, &g);
                        st.insert(g, v);
                        None
                    }
                    _ => {
                        return Err(unsupported(
                            self,
                            format!("a store to `{}` the analysis does not follow", x.address),
                        ))
                    }
                }
            }
            I::GetElementPtr(x) => {
                let addr = ev!(&x.address);
                match (&addr, x.indices.as_slice()) {
                    (Val::Addr(_) | Val::Addrs(_), _) => {
                        let pointee = match self.module.type_of(&x.address).as_ref() {
                            Type::PointerType { pointee_type, .. } => pointee_type.clone(),
                            _ => return Err(unsupported(self, format!("`{i}`"))),
                        };
                        let mut idx = Vec::with_capacity(x.indices.len());
                        for op in &x.indices {
                            idx.push(ev!(op));
                        }
                        let mut out = Vec::new();
                        for a in addr.addrs().expect("a pointer") {
                            out.push(self.gep(&a, &pointee, &idx).map_err(|e| unsupported(self, e))?);
                        }
                        Some((dest(&x.dest), Val::from_addrs(out)))
                    }
                    (Val::Ptr { global, idx: None }, [first, second]) if self.arrays.contains_key(global) => {
                        let z = ev!(first);
                        let e = ev!(second);
                        match (z.as_i().and_then(|r| r.as_point()), e.as_i()) {
                            (Some(0), Some(r)) => Some((
                                dest(&x.dest),
                                Val::Ptr {
                                    global: global.clone(),
                                    idx: Some((r.lo, r.hi)),
                                },
                            )),
                            _ => return Err(unsupported(self, format!("`{i}`"))),
                        }
                    }
                    _ => return Err(unsupported(self, format!("`{i}`"))),
                }
            }
            I::Call(c) => return self.call(ctx, f, b, k, c, st, loc),
            // allocas mem2reg leaves: arrays, structs, variables whose address is taken
            I::Alloca(x) => {
                let v = self.alloca(ctx, f, x, st).map_err(|e| {
                    let loc = loc.clone().or_else(|| first_use(f, &x.dest));
                    self.give_up(fname, loc, e)
                })?;
                Some((dest(&x.dest), v))
            }
            // a pointer into a local object seen as another type: the same
            // offsets (what is read or written through it is checked then)
            I::BitCast(x) if matches!(self.eval(ctx, st, &x.operand), Some(Val::Addr(_) | Val::Addrs(_))) => {
                Some((dest(&x.dest), ev!(&x.operand)))
            }
            other => return Err(unsupported(self, format!("`{other}`"))),
        };
        if let Some((key, v)) = result {
            return self.assigned(ctx, i, st, key, v);
        } else if let Some(d) = i.try_get_result() {
            // an operand of a kind the operation does not take
            return Err(unsupported(self, format!("`{i}` (operand kinds) -> {d}")));
        }
        Ok(true)
    }

    /// `key` (the result of `i`) takes value `v`.
    fn assigned(&mut self, ctx: Ctx, i: &I, st: &mut HashMap<Key, Val>, key: Key, mut v: Val) -> Result<bool, GiveUp> {
        self.relate(ctx, i, st, &key, &mut v);
        st.insert(key, v);
        Ok(true)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn call(
        &mut self,
        ctx: Ctx,
        f: &'p Function,
        b: usize,
        k: usize,
        c: &'p llvm_ir::instruction::Call,
        st: &mut HashMap<Key, Val>,
        loc: Option<Loc>,
    ) -> Result<bool, GiveUp> {
        let Some(name) = callee_name(c) else {
            return Err(self.give_up(&f.name, loc, "an indirect call or inline assembly"));
        };
        let ret_ty = c.dest.as_ref().map(|_| self.module.type_of(c));
        let set_ret = |st: &mut HashMap<Key, Val>, v: Val| {
            if let Some(d) = &c.dest {
                st.insert(Key::Local(ctx, d.clone()), v);
            }
        };
        if self.targets.contains(&name) {
            if self.recording {
                self.reached.push(Reached { function: name, loc });
            }
            return Ok(false);
        }
        if name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.") {
            return Ok(true);
        }
        let arg = |k: usize| c.arguments.get(k).map(|a| &a.0);
        match name.as_str() {
            "abort" | "exit" | "_exit" | "__assert_fail" | "__VERIFIER_error" => return Ok(false),
            "__VERIFIER_assume" => {
                let Some(a) = arg(0) else { return Ok(false) };
                return Ok(match self.refine_cond(ctx, Some(st.clone()), a, true) {
                    Some(s) => {
                        *st = s;
                        true
                    }
                    None => false,
                });
            }
            "sqrt" | "sqrtf" | "llvm.sqrt.f64" | "llvm.sqrt.f32" | "fabs" | "fabsf" | "llvm.fabs.f64"
            | "llvm.fabs.f32" => {
                let a = arg(0).and_then(|a| self.eval(ctx, st, a));
                let Some(Val::F(x)) = a else {
                    return Err(self.give_up(&f.name, loc, format!("a call of `{name}`")));
                };
                set_ret(
                    st,
                    Val::F(if name.contains("sqrt") {
                        itv::sqrt(&x)
                    } else {
                        itv::abs(&x)
                    }),
                );
                return Ok(true);
            }
            // The analysis holds in every rounding mode: a mode change
            // changes nothing it claims (fesetround's result: any int).
            "fesetround" | "fegetround" => {
                if let Some(t) = &ret_ty {
                    set_ret(st, top_of(t).unwrap_or(Val::Top));
                }
                return Ok(true);
            }
            // (`%n` writes through a pointer: a local object's address
            // given to `printf` is not followed)
            "printf"
                if c.arguments
                    .iter()
                    .any(|(a, _)| matches!(self.eval(ctx, st, a), Some(Val::Addr(_) | Val::Addrs(_)))) =>
            {
                return Err(self.give_up(&f.name, loc, "a local object's address given to `printf`"));
            }
            "printf" | "puts" | "putchar" => {
                if let Some(t) = &ret_ty {
                    set_ret(st, top_of(t).unwrap_or(Val::Top));
                }
                return Ok(true);
            }
            _ => {}
        }
        let args: Vec<Operand> = c.arguments.iter().map(|(a, _)| a.clone()).collect();
        if let Some(r) = self.mem_intrinsic(ctx, &name, &args, st) {
            let ret = r.map_err(|e| self.give_up(&f.name, loc.clone(), e))?;
            if let Some(v) = ret {
                set_ret(st, v);
            }
            return Ok(true);
        }
        let base = name.trim_end_matches('f');
        let libm = PURE_LIBM.contains(&name.as_str()) || PURE_LIBM.contains(&base);
        if libm && self.fp.any() && self.recording {
            // (its exceptions are not bounded here: glibc's `exp`, `pow`, `log`, ...)
            let checked = [
                (self.fp.overflow, "fp-overflow"),
                (self.fp.divide_by_zero, "fp-divide-by-zero"),
                (self.fp.cast_overflow, "float-cast-overflow"),
            ];
            for (_, kind) in checked.into_iter().filter(|(on, _)| *on) {
                self.reached.push(Reached {
                    function: format!("{kind} (a call of `{name}`)"),
                    loc: loc.clone(),
                });
            }
        }
        if name.starts_with("__VERIFIER_nondet_") || libm {
            if let Some(t) = &ret_ty {
                let v =
                    top_of(t).ok_or_else(|| self.give_up(&f.name, loc.clone(), format!("`{name}` returning {t}")))?;
                set_ret(st, v);
            }
            return Ok(true);
        }
        let Some(callee) = self.prog.function(&name) else {
            return Err(self.give_up(&f.name, loc, format!("a call of `{name}`, which has no body here")));
        };
        let cctx = self.context(ctx, &f.name, b, k);
        let mut entry = st.clone();
        for (p, (a, _)) in callee.parameters.iter().zip(&c.arguments) {
            let v = self
                .eval(ctx, st, a)
                .ok_or_else(|| self.give_up(&f.name, loc.clone(), format!("an argument of `{name}`")))?;
            let key = Key::Local(cctx, p.name.clone());
            self.defs.insert(key.clone(), Def::Alias(self.opnd(ctx, a)));
            entry.insert(key, v);
        }
        let (after, ret) = self.function(cctx, callee, Some(entry))?;
        let Some(mut after) = after else { return Ok(false) };
        // (the callee's registers and local objects end with the call)
        let callee_own = |k: &Key| matches!(k, Key::Local(c2, _) | Key::Cell(c2, ..) if *c2 == cctx);
        after.retain(|k, _| match k {
            Key::Form(k) => !callee_own(k),
            Key::Same(r, m) => !callee_own(r) && !callee_own(m),
            k => !callee_own(k),
        });
        *st = after;
        if let Some(t) = &ret_ty {
            let v = ret.or_else(|| top_of(t)).unwrap_or(Val::Top);
            set_ret(st, v);
        }
        Ok(true)
    }
}

impl Analyzer<'_> {
    /// The exceptions of [`crate::FpChecks`] instruction `i` may raise from
    /// its operands' ranges here. [`itv`]'s results bound every rounding
    /// mode's, so a result that may be infinite from finite operands is an
    /// exact result beyond the largest float: an overflow in some mode.
    fn fp_exceptions(&self, ctx: Ctx, i: &I, st: &HashMap<Key, Val>) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.fp.overflow && self.may_overflow(ctx, i, st) {
            out.push("fp-overflow");
        }
        if self.fp.divide_by_zero && self.may_divide_by_zero(ctx, i, st) {
            out.push("fp-divide-by-zero");
        }
        if self.fp.cast_overflow && self.may_cast_overflow(ctx, i, st) {
            out.push("float-cast-overflow");
        }
        out
    }

    /// The finite values of an operand (None: not a float).
    fn finite_operand(&self, ctx: Ctx, st: &HashMap<Key, Val>, op: &Operand) -> Option<FloatInterval> {
        match self.eval(ctx, st, op) {
            Some(Val::F(x)) => Some(finite(&x)),
            _ => None,
        }
    }

    /// `+`, `-`, `*`, `/`, `fptrunc`, `sitofp`/`uitofp`: an exact result
    /// from finite operands may be beyond the largest float.
    fn may_overflow(&self, ctx: Ctx, i: &I, st: &HashMap<Key, Val>) -> bool {
        let f = |op: &Operand| self.finite_operand(ctx, st, op);
        let infinite = |x: &FloatInterval| {
            x.contains(Float::infinity(x.format(), false)) || x.contains(Float::infinity(x.format(), true))
        };
        // (an operand of another kind: the transfer function gives up)
        let arith = |a: &Operand, b: &Operand, op: fn(&FloatInterval, &FloatInterval) -> FloatInterval| {
            let (Some(x), Some(y)) = (f(a), f(b)) else { return false };
            !x.is_empty() && !y.is_empty() && infinite(&op(&x, &y))
        };
        match i {
            I::FAdd(x) => arith(&x.operand0, &x.operand1, itv::add),
            I::FSub(x) => arith(&x.operand0, &x.operand1, itv::sub),
            I::FMul(x) => arith(&x.operand0, &x.operand1, itv::mul),
            // (a division by zero is the other exception, not an overflow)
            I::FDiv(x) => {
                let (Some(a), Some(b)) = (f(&x.operand0), f(&x.operand1)) else {
                    return false;
                };
                let b = without_zeros(&b);
                !a.is_empty() && !b.is_empty() && infinite(&itv::div(&a, &b))
            }
            I::FPTrunc(x) => match (fmt_of(&x.to_type), f(&x.operand)) {
                (Some(to), Some(a)) => infinite(&itv::convert(&a, to)),
                _ => false,
            },
            // integers too large for the format (a 128-bit integer to `float`)
            I::SIToFP(x) => self.int_too_large(ctx, st, &x.operand, &x.to_type),
            I::UIToFP(x) => self.int_too_large(ctx, st, &x.operand, &x.to_type),
            _ => false,
        }
    }

    /// An integer operand of this width may exceed the format's largest float.
    fn int_too_large(&self, ctx: Ctx, st: &HashMap<Key, Val>, op: &Operand, to: &Type) -> bool {
        let bits = match self.eval(ctx, st, op) {
            Some(Val::I(r)) => r.bits,
            _ => 128,
        };
        let Some(max) = fmt_of(to).and_then(|fmt| Float::largest(fmt, false).to_rational()) else {
            return true;
        };
        num_rational::BigRational::from_integer(num_bigint::BigInt::from(1) << bits) > max
    }

    /// A finite nonzero value divided by a range holding a zero.
    fn may_divide_by_zero(&self, ctx: Ctx, i: &I, st: &HashMap<Key, Val>) -> bool {
        let I::FDiv(x) = i else { return false };
        let (Some(a), Some(b)) = (
            self.finite_operand(ctx, st, &x.operand0),
            self.finite_operand(ctx, st, &x.operand1),
        ) else {
            return false;
        };
        let fmt = b.format();
        let zeros = |x: &FloatInterval| {
            u128::from(x.contains(Float::zero(fmt, false))) + u128::from(x.contains(Float::zero(fmt, true)))
        };
        zeros(&b) > 0 && a.count_non_nan() > zeros(&a)
    }

    /// `fptosi`/`fptoui` of a value that may be NaN, infinite or out of range.
    fn may_cast_overflow(&self, ctx: Ctx, i: &I, st: &HashMap<Key, Val>) -> bool {
        let (op, to, signed) = match i {
            I::FPToSI(x) => (&x.operand, &x.to_type, true),
            I::FPToUI(x) => (&x.operand, &x.to_type, false),
            _ => return false,
        };
        let Some(bits) = int_of(to) else { return true };
        match self.eval(ctx, st, op) {
            Some(Val::F(a)) => !a.is_empty() && itv::to_ints(&a, bits, signed).is_none(),
            _ => true,
        }
    }
}

/// Why an operand has no value here: a `long double` is not modelled;
/// else `what`.
pub(super) fn unknown_operand(op: &Operand, what: &str) -> String {
    let x87 = match op {
        Operand::LocalOperand { ty, .. } => matches!(ty.as_ref(), Type::FPType(FPType::X86_FP80)),
        Operand::ConstantOperand(c) => matches!(c.as_ref(), Constant::Float(CFloat::X86_FP80)),
        Operand::MetadataOperand => false,
    };
    if x87 {
        "a `long double` value (x87 80-bit floats are not modelled by the analysis)".into()
    } else {
        what.to_string()
    }
}

/// `x` without the zeros at its ends (an interval keeps a zero inside it).
fn without_zeros(x: &FloatInterval) -> FloatInterval {
    let fmt = x.format();
    let Some((mut lo, mut hi)) = x.bounds() else {
        return *x;
    };
    if lo.is_zero() {
        lo = Float::smallest(fmt, false);
    }
    if hi.is_zero() {
        hi = Float::smallest(fmt, true);
    }
    FloatInterval::new(lo, hi, x.may_be_nan()).intersect(x)
}

/// The finite values of `x` (no NaN, no infinity).
fn finite(x: &FloatInterval) -> FloatInterval {
    let fmt = x.format();
    x.without_nan().intersect(&FloatInterval::new(
        Float::largest(fmt, true),
        Float::largest(fmt, false),
        false,
    ))
}

pub(super) fn int_arith(a: &Val, b: &Val, op: impl Fn(&IntRange, &IntRange) -> Option<(i128, i128)>) -> Option<Val> {
    let (Val::I(x), Val::I(y)) = (a, b) else { return None };
    Some(Val::I(match op(x, y) {
        Some((lo, hi)) => IntRange::fitted(x.bits, lo, hi),
        None => IntRange::full(x.bits),
    }))
}

pub(super) fn bool_range(can_true: bool, can_false: bool) -> Val {
    Val::I(match (can_true, can_false) {
        (true, true) => IntRange::full(1),
        (true, false) => IntRange::point(1, 1),
        _ => IntRange::point(1, 0),
    })
}

/// The location of the first instruction of `f` that uses `name`.
pub(super) fn first_use(f: &Function, name: &Name) -> Option<Loc> {
    f.basic_blocks.iter().flat_map(|b| &b.instrs).find_map(|i| {
        let uses = fpsym_frontend::instruction_operands(i)
            .iter()
            .any(|o| matches!(o, Operand::LocalOperand { name: n, .. } if n == name));
        if uses {
            i.get_debug_loc()
                .as_ref()
                .filter(|d| d.line > 0)
                .map(Loc::from_debugloc)
        } else {
            None
        }
    })
}

pub(super) fn same_kind(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::F(x), Val::F(y)) => x.format() == y.format(),
        (Val::I(x), Val::I(y)) => x.bits == y.bits,
        (Val::Top, _) => true,
        _ => false,
    }
}
