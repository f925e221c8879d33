/* ringlame version strings. */
#include "version.h"
const char *rl_version(void) { return RL_VERSION_STRING; }
