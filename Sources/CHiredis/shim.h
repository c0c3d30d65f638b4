#ifndef DARKROOM_CHIREDIS_SHIM_H
#define DARKROOM_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>
#endif
