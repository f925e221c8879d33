/* ringlame: placeholder, to be replaced by helper C (filterbank). */
#ifndef RL_MDCT_H
#define RL_MDCT_H
typedef struct RlPolyphase { int placeholder_; } RlPolyphase;
typedef struct RlMdctConst { int placeholder_; } RlMdctConst;
#endif
