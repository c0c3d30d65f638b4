#ifndef DARKROOM_CDEFLATE_SHIM_H
#define DARKROOM_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
