/* Pons's non-losing moves: the one C definition, for the solver and the MCTS tree.
 *
 * geometry.non_losing is the readable reference. The solver's search (search_body.h)
 * runs on 64-bit and 128-bit bitboards and the MCTS tree (mcts_tree.c) on 64-bit ones,
 * so the rule is written once here as a macro that defines it for one bitboard type.
 */
#ifndef C4_NON_LOSING_H
#define C4_NON_LOSING_H

/* Defines `static inline type name(type possible, type threats)`: of the `possible`
 * cells, those the side to move can play without handing the opponent a win next move,
 * given the opponent's winning spots `threats` (already masked to empty cells); 0 when
 * every move loses. */
#define C4_DEFINE_NON_LOSING(name, type)                                                    \
    static inline type name(type possible, type threats) {                                  \
        /* Selections rather than branches: whether a move is forced follows the game.      \
         * Never right below an opponent's spot; two spots to block: one is left. */        \
        const type forced = possible & threats;                                             \
        const type left = (forced ? forced : possible) & ~(threats >> 1);                   \
        return (forced & (forced - 1)) ? 0 : left;                                          \
    }

#endif
