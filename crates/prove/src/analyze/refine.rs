//! Refinement at branches: the operands of the comparison behind a
//! condition narrowed to the values for which it has the branch's value.

use super::*;

impl<'p> Analyzer<'p> {
    /// The definition of an `i1` phi of block `d`: for each incoming edge,
    /// its value and the branch conditions that held on the way, walking up
    /// through blocks with one predecessor.
    pub(super) fn phi_bool(
        &self,
        ctx: Ctx,
        f: &Function,
        d: usize,
        p: &llvm_ir::instruction::Phi,
        index: &HashMap<&Name, usize>,
    ) -> Def {
        let preds = &self.preds[&f.name];
        let edge = |from: usize, to: usize| -> Option<(Opnd, bool)> {
            match &f.basic_blocks[from].term {
                T::CondBr(c) if c.true_dest != c.false_dest => {
                    let to_name = &f.basic_blocks[to].name;
                    Some((self.opnd(ctx, &c.condition), c.true_dest == *to_name))
                }
                _ => None,
            }
        };
        let mut entries = Vec::new();
        for (op, from) in &p.incoming_values {
            let from = index[from];
            let mut guards: Vec<(Opnd, bool)> = edge(from, d).into_iter().collect();
            let (mut cur, mut steps) = (from, 0);
            while preds[cur].len() == 1 && steps < 16 {
                let q = preds[cur][0];
                if q == cur {
                    break;
                }
                guards.extend(edge(q, cur));
                cur = q;
                steps += 1;
            }
            entries.push((self.opnd(ctx, op), guards));
        }
        Def::PhiBool(entries)
    }

    /// The state where `cond` has the value `truth` (None when it cannot),
    /// with the operands of the comparison behind it narrowed.
    pub(super) fn refine_cond(&self, ctx: Ctx, st: St, cond: &Operand, truth: bool) -> St {
        let o = self.opnd(ctx, cond);
        self.refine_opnd(st, &o, truth, 0)
    }

    pub(super) fn refine_opnd(&self, st: St, o: &Opnd, truth: bool, depth: usize) -> St {
        let st = st?;
        let t = truth as i128;
        let key = match o {
            Opnd::Const(Val::I(r)) => return (r.lo <= t && t <= r.hi).then_some(st),
            Opnd::Const(_) => return Some(st),
            Opnd::Var(k) => k.clone(),
        };
        let cur = st.get(&key).cloned();
        let mut st = match cur {
            Some(Val::I(r)) if r.bits == 1 => {
                let nr = r.meet(t, t)?;
                let mut s = st;
                s.insert(key.clone(), Val::I(nr));
                s
            }
            _ => st,
        };
        if depth > 16 {
            return Some(st);
        }
        match self.defs.get(&key) {
            Some(Def::Alias(a)) => self.refine_opnd(Some(st), a, truth, depth + 1),
            Some(Def::Not(a)) => self.refine_opnd(Some(st), a, !truth, depth + 1),
            Some(Def::And(a, b)) if truth => {
                let s = self.refine_opnd(Some(st), a, true, depth + 1);
                self.refine_opnd(s, b, true, depth + 1)
            }
            Some(Def::Or(a, b)) if !truth => {
                let s = self.refine_opnd(Some(st), a, false, depth + 1);
                self.refine_opnd(s, b, false, depth + 1)
            }
            Some(Def::PhiBool(entries)) => {
                // the join, over the edges where the phi can be `truth`, of
                // the state refined by that edge's conditions
                let mut out: St = None;
                for (v, guards) in entries {
                    let mut s = Some(st.clone());
                    for (g, gt) in guards {
                        s = self.refine_opnd(s, g, *gt, depth + 1);
                    }
                    s = self.refine_opnd(s, v, truth, depth + 1);
                    out = join(&out, &s);
                }
                out
            }
            Some(Def::FCmp(p, Opnd::Var(a), Opnd::Var(b))) if a == b => {
                // `x != x`: true exactly for NaN
                let Some(Val::F(x)) = st.get(a).cloned() else {
                    return Some(st);
                };
                let nx = fcmp_self(*p, truth, &x)?;
                self.assign(Some(st), &Opnd::Var(a.clone()), Val::F(nx), depth)
            }
            Some(Def::FCmp(p, a, b)) => {
                // (an operand the state lacks is not narrowed, never bottom)
                let (Some(av), Some(bv)) = (self.get(&st, a), self.get(&st, b)) else {
                    return Some(st);
                };
                let (Val::F(x), Val::F(y)) = (&av, &bv) else {
                    return Some(st);
                };
                let (nx, ny) = fcmp_refine(*p, truth, x, y)?;
                let s = self.assign(Some(st), a, Val::F(nx), depth);
                self.assign(s, b, Val::F(ny), depth)
            }
            Some(Def::ICmp(p, a, b)) => {
                let (Some(av), Some(bv)) = (self.get(&st, a), self.get(&st, b)) else {
                    return Some(st);
                };
                let (Val::I(x), Val::I(y)) = (&av, &bv) else {
                    return Some(st);
                };
                let pred = if truth { *p } else { negate_ipred(*p) };
                let (nx, ny) = icmp_refine(pred, x, y)?;
                let s = self.assign(Some(st), a, Val::I(nx), depth);
                self.assign(s, b, Val::I(ny), depth)
            }
            _ => {
                if let Some(Val::I(r)) = st.get(&key) {
                    if r.bits == 1 && !(r.lo <= t && t <= r.hi) {
                        return None;
                    }
                }
                st.entry(key).or_insert(Val::I(IntRange::point(1, t)));
                Some(st)
            }
        }
    }

    pub(super) fn get(&self, st: &HashMap<Key, Val>, o: &Opnd) -> Option<Val> {
        match o {
            Opnd::Var(k) => st.get(k).cloned(),
            Opnd::Const(v) => Some(v.clone()),
        }
    }

    /// Narrows an operand to `v` and what it was computed from.
    pub(super) fn assign(&self, st: St, o: &Opnd, v: Val, depth: usize) -> St {
        let mut st = st?;
        let Opnd::Var(k) = o else { return Some(st) };
        let v = match (st.get(k), &v) {
            (Some(Val::F(old)), Val::F(new)) => {
                let m = old.intersect(new);
                if m.is_empty() {
                    return None;
                }
                Val::F(m)
            }
            (Some(Val::I(old)), Val::I(new)) => Val::I(old.meet(new.lo, new.hi)?),
            _ => return Some(st),
        };
        st.insert(k.clone(), v.clone());
        if depth > 16 {
            return Some(st);
        }
        // a loaded value narrows the memory it still equals
        let sources: Vec<Key> = st
            .keys()
            .filter_map(|s| match s {
                Key::Same(r, m) if **r == *k => Some((**m).clone()),
                _ => None,
            })
            .collect();
        for m in sources {
            st = self.assign(Some(st), &Opnd::Var(m), v.clone(), depth + 1)?;
        }
        match (self.defs.get(k), &v) {
            (Some(Def::FExt(inner)), Val::F(wide)) => {
                // the narrower values whose extension is in `wide`
                let Some(Val::F(cur)) = self.get(&st, inner) else {
                    return Some(st);
                };
                let back = itv::convert(wide, cur.format());
                self.assign(Some(st), inner, Val::F(back), depth + 1)
            }
            (Some(Def::Alias(inner)), Val::I(r)) => {
                let cur = self.get(&st, inner);
                match cur {
                    Some(Val::I(c)) if c.bits == 1 => {
                        // zext of a condition
                        if r.lo > 0 {
                            self.refine_opnd(Some(st), inner, true, depth + 1)
                        } else if r.hi < 1 {
                            self.refine_opnd(Some(st), inner, false, depth + 1)
                        } else {
                            Some(st)
                        }
                    }
                    Some(Val::I(c)) if c.bits == r.bits => self.assign(Some(st), inner, v.clone(), depth + 1),
                    _ => Some(st),
                }
            }
            (Some(Def::Alias(inner)), Val::F(_)) => self.assign(Some(st), inner, v.clone(), depth + 1),
            _ => Some(st),
        }
    }
}

pub(super) fn negate_ipred(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        EQ => NE,
        NE => EQ,
        UGT => ULE,
        UGE => ULT,
        ULT => UGE,
        ULE => UGT,
        SGT => SLE,
        SGE => SLT,
        SLT => SGE,
        SLE => SGT,
    }
}

/// The operands' ranges for which `a PRED b` holds (None: no pair).
pub(super) fn icmp_refine(p: IntPredicate, a: &IntRange, b: &IntRange) -> Option<(IntRange, IntRange)> {
    use IntPredicate::*;
    let unsigned_ok = a.lo >= 0 && b.lo >= 0;
    let p = match p {
        UGT if unsigned_ok => SGT,
        UGE if unsigned_ok => SGE,
        ULT if unsigned_ok => SLT,
        ULE if unsigned_ok => SLE,
        UGT | UGE | ULT | ULE => return Some((*a, *b)),
        p => p,
    };
    match p {
        EQ => {
            let m = a.meet(b.lo, b.hi)?;
            Some((m, m))
        }
        NE => {
            let cut = |x: &IntRange, y: &IntRange| -> Option<IntRange> {
                match y.as_point() {
                    Some(c) if x.lo == c && x.hi == c => None,
                    Some(c) if x.lo == c => Some(IntRange { lo: c + 1, ..*x }),
                    Some(c) if x.hi == c => Some(IntRange { hi: c - 1, ..*x }),
                    _ => Some(*x),
                }
            };
            Some((cut(a, b)?, cut(b, a)?))
        }
        SLT => Some((a.meet(i128::MIN, b.hi - 1)?, b.meet(a.lo + 1, i128::MAX)?)),
        SLE => Some((a.meet(i128::MIN, b.hi)?, b.meet(a.lo, i128::MAX)?)),
        SGT => Some((a.meet(b.lo + 1, i128::MAX)?, b.meet(i128::MIN, a.hi - 1)?)),
        SGE => Some((a.meet(b.lo, i128::MAX)?, b.meet(i128::MIN, a.hi)?)),
        _ => unreachable!("unsigned predicates mapped above"),
    }
}
