; Which finite double x satisfies x + 1 == x (absorption)?  The smallest
; positive one is 2^53: below it, adding one is exact.
(set-logic QF_FP)
(declare-const x Float64)
(define-fun one () Float64 ((_ to_fp 11 53) RNE 1.0))
(assert (not (fp.isInfinite x)))
(assert (fp.isPositive x))
(assert (fp.eq (fp.add RNE x one) x))
(assert (fp.lt x ((_ to_fp 11 53) RNE 10000000000000000.0)))
(check-sat)
(get-value (x))
; A double that is NaN is the only value unequal to itself.
(push 1)
(declare-const y Float64)
(assert (not (fp.eq y y)))
(check-sat)
(get-value ((fp.isNaN y)))
(pop 1)
; No float between 1 and its successor.
(declare-const z Float32)
(assert (fp.lt ((_ to_fp 8 24) RNE 1.0) z))
(assert (fp.lt z (fp #b0 #x7f #b00000000000000000000001)))
(check-sat)
