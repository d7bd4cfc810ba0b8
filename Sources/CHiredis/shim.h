#ifndef FORCELAYOUT_HIREDIS_SHIM_H
#define FORCELAYOUT_HIREDIS_SHIM_H

#include <hiredis/hiredis.h>

#endif
