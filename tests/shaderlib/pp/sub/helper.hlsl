#pragma once
float helper = 1; // from helper
#include "near.hlsl"
