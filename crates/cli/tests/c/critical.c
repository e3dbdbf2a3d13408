/* Critical values (fpsym critical). */

/* x in [-2, 3]: the real square is in [0, 9], and so is the float one
 * (rounding is monotone and 9 is a float). */
float square(float x)
{
    return x * x;
}

/* n steps of 0.1 from 0: for n in [0, 10], the real sum is in [0, 1]; the
 * float sum of ten 0.1f is 1.0000001. */
float steps(int n)
{
    float s = 0.0f;
    int i;
    for (i = 0; i < n; i++)
        s = s + 0.1f;
    return s;
}

/* The input itself: what --range lets in, exactly. */
float ident(float x)
{
    return x;
}

/* Out-parameters: the float sum of n steps of 0.1 and its negation (in
 * the reals, in [0, 1] and [-1, 0] for n in [0, 10]). */
void accumulate(int n, float *acc)
{
    acc[0] = steps(n);
    acc[1] = -acc[0];
}

/* Globals: the same sum, left in `total` (and in a static one). */
float total;
static float hidden;

void keep_steps(int n)
{
    total = steps(n);
    hidden = total;
}

float hidden_value(void)
{
    return hidden;
}

/* 1, or NaN for x = 0. */
float ratio(float x)
{
    return x / x;
}

/* A float and a double in one out-parameter: the float range's hull
 * compares them in one format (a reviewer's case: comparing their
 * ordinals made it [-1250, 1] and "above 100: no", while a = 7.0710678,
 * b = c = 5 gives s->a = 156.25). */
struct mixed { float a; double b; };
void mixed_out(float a, float b, float c, struct mixed *s) {
    float t = (a + b + c) / 2.0f;
    s->a = t * (t - a) * (t - b) * (t - c);
    s->b = a / 10.0;
}

/* A long double result: replay reads it exactly (its x87 bytes). */
long double long_square(long double x) {
    return x * x - 2.0L;
}
