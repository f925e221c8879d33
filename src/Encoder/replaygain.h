/* ringlame: placeholder, to be replaced by helper F (ReplayGain). */
#ifndef RL_REPLAYGAIN_H
#define RL_REPLAYGAIN_H
typedef struct RlGainState { int placeholder_; } RlGainState;
#endif
