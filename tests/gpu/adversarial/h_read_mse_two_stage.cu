// Honest (issue 35 item 7): a pure-read kernel at its floor. mse_loss reads 2 x 2^25 floats and writes one: the
// task's byte floor uses the measured read bandwidth (or the DRAM's peak where higher), so this kernel runs near
// 100 % of it without being called impossible. It is the task's good variant itself (float4 loads, one partial per
// block, one warp sums the partials), included rather than copied.
// KForge must report `correct` with no flag (no below_speed_of_light).
#include "../../../resources/tasks/mse_loss/variants/two_stage_vec4.cu"
