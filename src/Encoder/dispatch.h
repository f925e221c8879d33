/* ringlame: placeholder, to be replaced by helper C (dispatch). */
#ifndef RL_DISPATCH_H
#define RL_DISPATCH_H
typedef struct RlDispatchState { int placeholder_; } RlDispatchState;
#endif
