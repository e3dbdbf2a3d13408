; __builtin_constant_p in optimised IR (llvm.is.constant): a symbolic
; operand is no constant (reach_error is unreachable); a concrete one
; may or may not have been one in the native build: both returns.
declare i1 @llvm.is.constant.i64(i64)
declare void @reach_error()

define i32 @f(i64 %x) {
entry:
  %c = call i1 @llvm.is.constant.i64(i64 %x)
  br i1 %c, label %bad, label %ok
bad:
  call void @reach_error()
  ret i32 1
ok:
  %k = call i1 @llvm.is.constant.i64(i64 5)
  br i1 %k, label %five, label %done
five:
  ret i32 5
done:
  ret i32 0
}
