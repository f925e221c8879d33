/* ringlame: placeholder, to be replaced by helper B (psy). */
#ifndef RL_PSY_H
#define RL_PSY_H
typedef struct RlAth { int placeholder_; } RlAth;
typedef struct RlPsyConst { int placeholder_; } RlPsyConst;
typedef struct RlPsyState { int placeholder_; } RlPsyState;
typedef struct RlPsyPrep { int placeholder_; } RlPsyPrep;
#endif
