#ifndef RL_VERSION_H
#define RL_VERSION_H
#define RL_VERSION_STRING "0.1.0"
/* The LAME version whose output ringlame reproduces; written into the LAME tag. */
#define RL_LAME_VERSION_TAG "LAME3.100"
const char *rl_version(void);
#endif
