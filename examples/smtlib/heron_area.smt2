; Heron's formula for the squared area of a triangle, in doubles:
; s = (a + b + c) / 2, area2 = s * (s - a) * (s - b) * (s - c).
; Over the reals area2 >= 0 for every triangle (a <= b + c, b <= a + c,
; c <= a + b).  In binary64 a nearly flat triangle can make s - a negative
; by rounding, and area2 below -1e-5: which sides do that?
; (Issue 16: Bitwuzla answers sat in about 2 s; cp and z3 not in 40 s;
; fpsym's local search `--solver ls` in well under a second.)
(set-logic QF_FP)
(declare-const a Float64)
(declare-const b Float64)
(declare-const c Float64)
(define-fun zero () Float64 ((_ to_fp 11 53) RNE 0.0))
(define-fun top () Float64 ((_ to_fp 11 53) RNE 1000.0))
(assert (and (fp.leq zero a) (fp.leq a top)))
(assert (and (fp.leq zero b) (fp.leq b top)))
(assert (and (fp.leq zero c) (fp.leq c top)))
(assert (fp.leq a (fp.add RNE b c)))
(assert (fp.leq b (fp.add RNE a c)))
(assert (fp.leq c (fp.add RNE a b)))
(define-fun s () Float64
  (fp.div RNE (fp.add RNE (fp.add RNE a b) c) ((_ to_fp 11 53) RNE 2.0)))
(define-fun area2 () Float64
  (fp.mul RNE (fp.mul RNE (fp.mul RNE s (fp.sub RNE s a)) (fp.sub RNE s b)) (fp.sub RNE s c)))
(assert (fp.lt area2 ((_ to_fp 11 53) RNE (- 0.00001))))
(check-sat)
(get-value (a b c area2))
