/* ringlame: placeholder, to be replaced by helper E (bitstream). */
#ifndef RL_BITSTREAM_H
#define RL_BITSTREAM_H
typedef struct RlMainData { int placeholder_; } RlMainData;
typedef struct RlEncodeState { int placeholder_; } RlEncodeState;
#endif
