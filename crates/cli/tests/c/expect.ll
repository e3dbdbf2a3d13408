; __builtin_expect in optimised IR (llvm.expect, llvm.expect.with.probability):
; the call's value is its first operand, whatever is expected; reach_error is
; reached when x is 7, against the expectation.
declare i64 @llvm.expect.i64(i64, i64)
declare i1 @llvm.expect.with.probability.i1(i1, i1, double)
declare void @reach_error()

define i32 @f(i64 %x) {
entry:
  %e = call i64 @llvm.expect.i64(i64 %x, i64 0)
  %c = icmp eq i64 %e, 7
  %p = call i1 @llvm.expect.with.probability.i1(i1 %c, i1 false, double 0.9)
  br i1 %p, label %bad, label %ok
bad:
  call void @reach_error()
  ret i32 1
ok:
  ret i32 0
}
