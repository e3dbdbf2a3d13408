//! Conversions between floats and bit-vectors: the bitcast
//! `((_ to_fp eb sb) bv)`, `(fp s e m)`, integer to float
//! (`to_fp`/`to_fp_unsigned` with a rounding mode) and float to integer
//! (`fp.to_ubv`/`fp.to_sbv`, with fpsym's fixed results for NaN, infinities
//! and out-of-range values).
//!
//! Packed encodings of non-negative floats are monotone in the total order;
//! those of negative floats are antitone; integer-to-float and (in-range)
//! float-to-integer conversions are monotone, so all projections are hulls of
//! monotone images or searches on monotone predicates.

use super::mono::region;
use super::{fp_of, rm_of, Empty};
use crate::cp::domain::{from_ord, mask, ord, BvRange, Domain, RmSet};
use fpsym_expr::Op;
use fpsym_float::{Float, FloatInterval, Format, RoundingMode};

fn bv(d: &Domain) -> Result<BvRange, Empty> {
    let b = *d.as_bv().expect("bit-vector operand");
    if b.is_empty() {
        return Err(Empty);
    }
    Ok(b)
}

/// Order-preserving map from `u128` to `i128` (for the ordinal search).
fn u2i(v: u128) -> i128 {
    (v ^ (1u128 << 127)) as i128
}
fn i2u(o: i128) -> u128 {
    (o as u128) ^ (1u128 << 127)
}

/// The floats whose packed encodings lie in `[lo, hi]`.
fn floats_of_bits(fmt: Format, lo: u128, hi: u128) -> FloatInterval {
    let w = fmt.packed_width();
    let s = 1u128 << (w - 1);
    let inf = Float::infinity(fmt, false).packed();
    let mut out = FloatInterval::empty(fmt);
    // sign bit clear
    if lo < s {
        let b = hi.min(s - 1);
        if lo <= inf {
            out = out.hull(&FloatInterval::new(
                Float::from_packed(fmt, lo),
                Float::from_packed(fmt, b.min(inf)),
                false,
            ));
        }
        if b > inf {
            out = out.with_nan(true);
        }
    }
    // sign bit set
    if hi >= s {
        let (a, b) = (lo.max(s) - s, hi - s);
        if a <= inf {
            let l = Float::from_packed(fmt, s | b.min(inf));
            let h = Float::from_packed(fmt, s | a);
            out = out.hull(&FloatInterval::new(l, h, false));
        }
        if b > inf {
            out = out.with_nan(true);
        }
    }
    out
}

/// The hull of the packed encodings of the floats of `z`.
fn bits_of_floats(z: &FloatInterval) -> BvRange {
    let fmt = z.format();
    let w = fmt.packed_width();
    let inf = Float::infinity(fmt, false).packed();
    let mut out = BvRange::empty(w);
    if let Some((l, h)) = z.bounds() {
        let pz = Float::zero(fmt, false);
        let nz = Float::zero(fmt, true);
        if ord(h) >= 0 {
            let a = if ord(l) >= 0 { l } else { pz };
            out = out.hull(&BvRange::new(w, a.packed(), h.packed()));
        }
        if ord(l) < 0 {
            let b = if ord(h) < 0 { h } else { nz };
            out = out.hull(&BvRange::new(w, b.packed(), l.packed()));
        }
    }
    if z.may_be_nan() {
        out = out.hull(&BvRange::new(w, inf + 1, mask(w)));
    }
    out
}

/// Narrows `a` (width `wa`) and `b` (width `wb`) given that `concat(a, b)` lies in `[rl, rh]`.
fn concat_back(rl: u128, rh: u128, a: &mut BvRange, b: &mut BvRange) -> Result<(), Empty> {
    let (wa, wb) = (a.width(), b.width());
    *a = a.intersect(&BvRange::new(wa, rl >> wb, rh >> wb));
    let (al, ah) = a.bounds().ok_or(Empty)?;
    if al == ah {
        let base = al << wb;
        let lo = rl.max(base) - base;
        let hi = rh.min(base | mask(wb)).checked_sub(base).ok_or(Empty)?;
        *b = b.intersect(&BvRange::new(wb, lo, hi));
    }
    if b.is_empty() {
        return Err(Empty);
    }
    Ok(())
}

fn bitcast(args: &mut [Domain], res: &mut Domain, parts: bool) -> Result<(), Empty> {
    let mut z = fp_of(res);
    let fmt = z.format();
    let fb = fmt.frac_bits();
    let (lo, hi) = if parts {
        let (s, e, m) = (bv(&args[0])?, bv(&args[1])?, bv(&args[2])?);
        let (sl, sh) = s.bounds().unwrap();
        let (el, eh) = e.bounds().unwrap();
        let (ml, mh) = m.bounds().unwrap();
        let w = fmt.packed_width();
        ((sl << (w - 1)) | (el << fb) | ml, (sh << (w - 1)) | (eh << fb) | mh)
    } else {
        bv(&args[0])?.bounds().unwrap()
    };
    z = z.intersect(&floats_of_bits(fmt, lo, hi));
    if z.is_empty() {
        return Err(Empty);
    }
    let back = bits_of_floats(&z).intersect(&BvRange::new(fmt.packed_width(), lo, hi));
    let (bl, bh) = back.bounds().ok_or(Empty)?;
    if parts {
        let (mut s, mut e, mut m) = (bv(&args[0])?, bv(&args[1])?, bv(&args[2])?);
        // concat(concat(s, e), m)
        let mut se = BvRange::new(
            1 + fmt.eb(),
            (s.bounds().unwrap().0 << fmt.eb()) | e.bounds().unwrap().0,
            (s.bounds().unwrap().1 << fmt.eb()) | e.bounds().unwrap().1,
        );
        concat_back(bl, bh, &mut se, &mut m)?;
        let (sel, seh) = se.bounds().ok_or(Empty)?;
        concat_back(sel, seh, &mut s, &mut e)?;
        args[0] = Domain::Bv(s);
        args[1] = Domain::Bv(e);
        args[2] = Domain::Bv(m);
    } else {
        args[0] = Domain::Bv(back);
    }
    *res = Domain::Fp(z);
    Ok(())
}

/// Integer (signed or unsigned) to float: monotone in the integer value on
/// each sign part of the unsigned range.
fn int_to_fp(fmt: Format, signed: bool, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    let rms = rm_of(&args[0]);
    let x = bv(&args[1])?;
    let w = x.width();
    let (lo, hi) = x.bounds().unwrap();
    let z = fp_of(res);
    let parts: Vec<(u128, u128)> = if signed {
        let s = 1u128 << (w - 1);
        let mut v = Vec::new();
        if lo < s {
            v.push((lo, hi.min(s - 1)));
        }
        if hi >= s {
            v.push((lo.max(s), hi));
        }
        v
    } else {
        vec![(lo, hi)]
    };
    let mut z_new = FloatInterval::empty(fmt);
    let mut x_new = BvRange::empty(w);
    let mut ok = RmSet::EMPTY;
    for rm in rms.iter() {
        let conv = |v: u128| Float::from_bv(fmt, v, w, signed, rm).value;
        let mut any = false;
        for &(a, b) in &parts {
            let img = FloatInterval::new(conv(a), conv(b), false).intersect(&z);
            let Some((zl, zh)) = img.bounds() else { continue };
            let hint = |t: Float| -> Vec<i128> {
                t.to_bv(RoundingMode::NearestTiesToEven, w, signed)
                    .value
                    .map(u2i)
                    .into_iter()
                    .collect()
            };
            let r1 = region(u2i(a), u2i(b), |o| ord(conv(i2u(o))) >= ord(zl), &hint(zl));
            let Some((p, q)) = r1 else { continue };
            let r2 = region(p, q, |o| ord(conv(i2u(o))) <= ord(zh), &hint(zh));
            let Some((p, q)) = r2 else { continue };
            any = true;
            z_new = z_new.hull(&img);
            x_new = x_new.hull(&BvRange::new(w, i2u(p), i2u(q)));
        }
        if any {
            ok = ok.union(RmSet::point(rm));
        }
    }
    if ok.is_empty() {
        return Err(Empty);
    }
    args[0] = Domain::Rm(ok);
    args[1] = Domain::Bv(x_new);
    *res = Domain::Fp(z_new);
    Ok(())
}

/// Float to integer. Results are compared through a *key* that is monotone
/// in the integer value: the bits for `fp.to_ubv`, the bits with the sign
/// bit flipped for `fp.to_sbv`.
fn fp_to_int(w: u32, signed: bool, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    let rms = rm_of(&args[0]);
    let x = fp_of(&args[1]);
    let fmt = x.format();
    let r = bv(res)?;
    let flipbit = if signed { 1u128 << (w - 1) } else { 0 };
    let special = if signed { 1u128 << (w - 1) } else { 0 };
    // the result range in key space (hull)
    let (rl, rh) = r.bounds().unwrap();
    let key_range = if signed {
        let s = 1u128 << (w - 1);
        if (rl & s) == (rh & s) {
            (rl ^ s, rh ^ s)
        } else {
            (0, mask(w))
        }
    } else {
        (rl, rh)
    };
    let (nmax, pmax) = (Float::largest(fmt, true), Float::largest(fmt, false));
    let mut r_new = BvRange::empty(w);
    let mut x_new = FloatInterval::empty(fmt);
    let mut ok = RmSet::EMPTY;
    for rm in rms.iter() {
        let conv = |f: Float| f.to_bv(rm, w, signed).value;
        // the in-range floats [in_lo, in_hi] among the finite ones
        let (flo, fhi) = (ord(nmax), ord(pmax));
        let lo_ok = |o: i128| {
            let f = from_ord(fmt, o);
            conv(f).is_some() || ord(f) >= 0
        };
        let hi_ok = |o: i128| {
            let f = from_ord(fmt, o);
            conv(f).is_some() || ord(f) < 0
        };
        let min_int = if signed {
            Float::from_bv(fmt, 1u128 << (w - 1), w, true, RoundingMode::NearestTiesToEven).value
        } else {
            Float::zero(fmt, true)
        };
        let max_int = Float::from_bv(
            fmt,
            mask(if signed { w - 1 } else { w }),
            w,
            false,
            RoundingMode::NearestTiesToEven,
        )
        .value;
        let in_lo = region(flo, fhi, lo_ok, &[ord(min_int)]).map(|(a, _)| a);
        let in_hi = region(flo, fhi, hi_ok, &[ord(max_int)]).map(|(_, b)| b);
        let in_range = match (in_lo, in_hi) {
            (Some(a), Some(b)) if a <= b => {
                x.without_nan()
                    .intersect(&FloatInterval::new(from_ord(fmt, a), from_ord(fmt, b), false))
            }
            _ => FloatInterval::empty(fmt),
        };
        let out_of_range = x.may_be_nan() || x.count_non_nan() > in_range.count();
        let key = |f: Float| conv(f).map(|v| v ^ flipbit);
        // direct image in key space
        let mut img = BvRange::empty(w);
        if let Some((l, h)) = in_range.bounds() {
            if let (Some(a), Some(b)) = (key(l), key(h)) {
                img = BvRange::new(w, a, b);
            }
        }
        let img_bits = match img.bounds() {
            Some((a, b)) if signed => {
                let s = 1u128 << (w - 1);
                if (a & s) == (b & s) {
                    BvRange::new(w, a ^ s, b ^ s)
                } else {
                    BvRange::full(w)
                }
            }
            _ => img,
        };
        let mut image = img_bits;
        if out_of_range {
            image = image.hull(&BvRange::point(w, special));
        }
        let image = image.intersect(&r);
        if image.is_empty() {
            continue;
        }
        ok = ok.union(RmSet::point(rm));
        r_new = r_new.hull(&image);
        // indirect onto x
        if r.contains(special) {
            x_new = x_new.hull(&x);
            continue;
        }
        let Some((l, h)) = in_range.bounds() else { continue };
        let (kl, kh) = key_range;
        let p1 = region(ord(l), ord(h), |o| key(from_ord(fmt, o)).is_some_and(|k| k >= kl), &[]);
        let Some((a, b)) = p1 else { continue };
        let p2 = region(a, b, |o| key(from_ord(fmt, o)).is_some_and(|k| k <= kh), &[]);
        if let Some((a, b)) = p2 {
            x_new = x_new.hull(&FloatInterval::new(from_ord(fmt, a), from_ord(fmt, b), false));
        }
    }
    if ok.is_empty() || x_new.is_empty() {
        return Err(Empty);
    }
    args[0] = Domain::Rm(ok);
    args[1] = Domain::Fp(x_new);
    *res = Domain::Bv(r_new);
    Ok(())
}

/// Propagates the conversions between floats and bit-vectors.
pub(crate) fn propagate(op: &Op, args: &mut [Domain], res: &mut Domain) -> Result<(), Empty> {
    match op {
        Op::ToFpFromBits(_) => bitcast(args, res, false),
        Op::FpFromParts => bitcast(args, res, true),
        Op::ToFpFromSbv(f) => int_to_fp(*f, true, args, res),
        Op::ToFpFromUbv(f) => int_to_fp(*f, false, args, res),
        Op::FpToUbv(w) => fp_to_int(*w, false, args, res),
        Op::FpToSbv(w) => fp_to_int(*w, true, args, res),
        _ => unreachable!("not a conversion: {op:?}"),
    }
}
