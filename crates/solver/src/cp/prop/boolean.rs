//! Reified Boolean connectives, `=` and `distinct` on non-float sorts (and
//! `distinct` on floats), and `ite` on every sort.

use super::compare::remove_point;
use super::Empty;
use crate::cp::domain::{BoolSet, BvRange, Domain};
use fpsym_expr::Op;

fn b(d: &Domain) -> BoolSet {
    d.as_bool().expect("Boolean operand")
}

fn set(d: &mut Domain, v: BoolSet) -> Result<(), Empty> {
    let n = b(d).intersect(v);
    if n.is_empty() {
        return Err(Empty);
    }
    *d = Domain::Bool(n);
    Ok(())
}

/// `r = and(args)` (with every operand possibly negated by `neg[i]`), the
/// shape shared by `and`, `or` (via De Morgan) and `=>`.
fn and(args: &mut [Domain], neg: &[bool], r: &mut Domain) -> Result<(), Empty> {
    let lit = |d: &Domain, n: bool| if n { b(d).negate() } else { b(d) };
    let any_false = args.iter().zip(neg).any(|(a, &n)| lit(a, n).as_point() == Some(false));
    let all_true = args.iter().zip(neg).all(|(a, &n)| lit(a, n).as_point() == Some(true));
    if any_false {
        set(r, BoolSet::FALSE)?;
    }
    if all_true {
        set(r, BoolSet::TRUE)?;
    }
    match b(r).as_point() {
        Some(true) => {
            for (a, &n) in args.iter_mut().zip(neg) {
                set(a, BoolSet::point(!n))?;
            }
        }
        Some(false) => {
            let open: Vec<usize> = (0..args.len())
                .filter(|&i| lit(&args[i], neg[i]).as_point() != Some(true))
                .collect();
            if open.is_empty() {
                return Err(Empty);
            }
            if open.len() == 1 {
                let i = open[0];
                set(&mut args[i], BoolSet::point(neg[i]))?;
            }
        }
        None => {}
    }
    Ok(())
}

fn xor(args: &mut [Domain], r: &mut Domain) -> Result<(), Empty> {
    let open: Vec<usize> = (0..args.len()).filter(|&i| b(&args[i]).as_point().is_none()).collect();
    let parity = args.iter().filter_map(|a| b(a).as_point()).fold(false, |p, v| p ^ v);
    if open.is_empty() {
        set(r, BoolSet::point(parity))?;
    } else if open.len() == 1 {
        if let Some(rv) = b(r).as_point() {
            set(&mut args[open[0]], BoolSet::point(rv ^ parity))?;
        }
    }
    Ok(())
}

/// Removes a single value `v` (a point domain) from `d` where the domain kind
/// allows it.
fn remove(d: &Domain, v: &Domain) -> Domain {
    match (d, v) {
        (Domain::Bool(x), Domain::Bool(p)) => Domain::Bool(x.intersect(p.negate())),
        (Domain::Rm(x), Domain::Rm(p)) => match p.as_point() {
            Some(m) => Domain::Rm(x.remove(m)),
            None => *d,
        },
        (Domain::Bv(x), Domain::Bv(p)) => match (x.bounds(), p.as_point()) {
            (Some((l, h)), Some(v)) => {
                let w = x.width();
                let lo = if l == v { l.checked_add(1) } else { Some(l) };
                let hi = if h == v { h.checked_sub(1) } else { Some(h) };
                match (lo, hi) {
                    (Some(lo), Some(hi)) => Domain::Bv(BvRange::new(w, lo, hi)),
                    _ => Domain::Bv(BvRange::empty(w)),
                }
            }
            _ => *d,
        },
        (Domain::Fp(x), Domain::Fp(p)) => match p.as_point() {
            Some(v) => Domain::Fp(remove_point(x, v)),
            None => *d,
        },
        _ => *d,
    }
}

fn eq(args: &mut [Domain], r: &mut Domain) -> Result<(), Empty> {
    let meet = args[0].intersect(&args[1]);
    let same_point = args[0].is_point() && args[0] == args[1];
    let nb = BoolSet::of(!meet.is_empty(), !same_point);
    set(r, nb)?;
    match b(r).as_point() {
        Some(true) => {
            args[0] = meet;
            args[1] = meet;
        }
        Some(false) => {
            if args[1].is_point() {
                args[0] = remove(&args[0], &args[1]);
            }
            if args[0].is_point() {
                args[1] = remove(&args[1], &args[0]);
            }
        }
        None => {}
    }
    Ok(())
}

fn distinct(args: &mut [Domain], r: &mut Domain) -> Result<(), Empty> {
    if args.len() == 2 {
        let mut inner = Domain::Bool(b(r).negate());
        eq(args, &mut inner)?;
        return set(r, b(&inner).negate());
    }
    let n = args.len();
    let mut some_pair_may_meet = false;
    let mut some_pair_same_point = false;
    for i in 0..n {
        for j in i + 1..n {
            if !args[i].intersect(&args[j]).is_empty() {
                some_pair_may_meet = true;
            }
            if args[i].is_point() && args[i] == args[j] {
                some_pair_same_point = true;
            }
        }
    }
    let nb = BoolSet::of(!some_pair_same_point, some_pair_may_meet);
    set(r, nb)?;
    if b(r).as_point() == Some(true) {
        for i in 0..n {
            if args[i].is_point() {
                let v = args[i];
                for (j, a) in args.iter_mut().enumerate() {
                    if j != i {
                        *a = remove(a, &v);
                    }
                }
            }
        }
    }
    Ok(())
}

fn ite(args: &mut [Domain], r: &mut Domain) -> Result<(), Empty> {
    let c = b(&args[0]);
    let then_ok = !args[1].intersect(r).is_empty();
    let else_ok = !args[2].intersect(r).is_empty();
    let mut nc = BoolSet::EMPTY;
    if then_ok {
        nc = nc.union(BoolSet::TRUE);
    }
    if else_ok {
        nc = nc.union(BoolSet::FALSE);
    }
    set(&mut args[0], c.intersect(nc))?;
    match b(&args[0]).as_point() {
        Some(true) => {
            *r = r.intersect(&args[1]);
            args[1] = *r;
        }
        Some(false) => {
            *r = r.intersect(&args[2]);
            args[2] = *r;
        }
        None => {
            *r = r.intersect(&args[1].hull(&args[2]));
        }
    }
    Ok(())
}

/// Propagates Boolean connectives, `=`/`distinct` and `ite`.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    match op {
        Op::Not => {
            set(res, b(&args[0]).negate())?;
            let r = b(res);
            set(&mut args[0], r.negate())?;
        }
        Op::And => {
            let neg = vec![false; args.len()];
            and(args, &neg, res)?;
        }
        Op::Or => {
            // or(a…) = not(and(not a…))
            let neg = vec![true; args.len()];
            let mut inner = Domain::Bool(b(res).negate());
            and(args, &neg, &mut inner)?;
            set(res, b(&inner).negate())?;
        }
        Op::Implies => {
            // a => c  =  not(and(a, not c))
            let mut inner = Domain::Bool(b(res).negate());
            and(args, &[false, true], &mut inner)?;
            set(res, b(&inner).negate())?;
        }
        Op::Xor => xor(args, res)?,
        Op::Eq => eq(args, res)?,
        Op::Distinct => distinct(args, res)?,
        Op::Ite => ite(args, res)?,
        _ => unreachable!("not a Boolean operation: {op:?}"),
    }
    Ok(())
}
