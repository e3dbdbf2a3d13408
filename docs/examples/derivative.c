/* Central difference of f(x) = x * x in single precision: in real
   numbers the result is exactly 2x, whatever the step h. */
float derivative_of_square(float x, float h) {
    float up = (x + h) * (x + h);
    float down = (x - h) * (x - h);
    return (up - down) / (2.0f * h);
}
