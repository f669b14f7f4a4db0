#pragma once
static __constant__ float kernel3x3[4] = {0.25f, 0.5f, 0.25f, 1.0f};
