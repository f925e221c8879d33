/* ringlame: placeholder, to be replaced by helper A (settings). */
#ifndef RL_SETTINGS_H
#define RL_SETTINGS_H
#include "rl_config.h"
typedef struct RlOptions { int placeholder_; } RlOptions;
#endif
