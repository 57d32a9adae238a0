/* The 7x6 opening books, read in place: solver/book.py's lookups, in C.
 *
 * The files (solver/book.py describes them): sorted fixed-size records, each a big-endian
 * Huffman code of the position then its value. Only one of a position and its mirror
 * image is stored, so a lookup tries both codes.
 */
#include <stddef.h>

#include "solver.h"

/* book_12ply_distances.dat: a 4-byte key compared as a signed 32-bit number, then a
 * signed byte: 0 a draw, BOOK_DISTANCE - d a win in d plies, d - BOOK_DISTANCE a loss
 * in d plies (for the side to move at ply 12, the first player). */
#define EXACT_RECORD 5
#define EXACT_KEY_BYTES 4
#define BOOK_DISTANCE 100
/* book_8ply.dat: a 3-byte key whose two lowest bits hold the first player's result,
 * 0 a draw and 1 a loss; the positions it wins are left out. */
#define OUTCOME_RECORD 3
#define OUTCOME_KEY_BYTES 3
#define OUTCOME_VALUE_MASK 3u

/* The book's Huffman codes of a position and of its mirror image (solver/book.py's
 * huffman_codes): per column, bottom up, 10 for a stone of `first`, 11 for the other
 * player's, a 0 closing the column; one more 0 at the end. */
static void book_codes(const solver_t *s, uint64_t first, uint64_t mask, uint64_t *code,
                       uint64_t *mirrored) {
    uint64_t c = 0, m = 0;
    int m_length = 0;
    for (int col = 0; col < s->width; col++) {
        const int shift = col * s->h1;
        uint64_t part = 0;
        int length = 1;
        for (int row = 0; row < s->height && (mask >> (shift + row) & 1); row++) {
            part = part << 2 | ((first >> (shift + row) & 1) ? 2 : 3);
            length += 2;
        }
        part <<= 1;
        c = c << length | part;
        m |= part << m_length;
        m_length += length;
    }
    *code = c << 1;
    *mirrored = m << 1;
}

/* Binary search of a book file for a big-endian key; the record's address or NULL.
 * The bits of `value_mask` hold the value, not the key. */
static const unsigned char *book_find(const unsigned char *data, uint64_t count, int record,
                                      int key_bytes, int is_signed, unsigned value_mask,
                                      int64_t key) {
    uint64_t low = 0, high = count;
    while (low < high) {
        const uint64_t mid = (low + high) / 2;
        const unsigned char *at = data + mid * record;
        int64_t found = 0;
        for (int i = 0; i < key_bytes; i++) found = found << 8 | at[i];
        found &= ~(int64_t)value_mask;
        if (is_signed && (found >> (8 * key_bytes - 1) & 1)) found -= (int64_t)1 << (8 * key_bytes);
        if (found == key) return at;
        if (found < key) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return NULL;
}

/* A book value as our score (solver/book.py's _distance_to_score). A win's score is
 * `base` less the winner's stones (22 - stones on 7x6). The side to move at ply 12
 * wins in d plies with its stone number (12 + 1 + d) / 2, or loses in d plies to the
 * opponent's stone number (12 + d) / 2. */
static int distance_to_score(const solver_t *s, int value) {
    const int base = s->cells / 2 + 1;
    if (value > 0) {
        const int d = BOOK_DISTANCE - value;
        return floor_half(2 * base - (BOOK_EXACT_PLY + 1 + d));
    }
    if (value < 0) {
        const int d = BOOK_DISTANCE + value;
        return floor_half(BOOK_EXACT_PLY + d - 2 * base);
    }
    return 0;
}

int c4_book_exact(const solver_t *s, uint64_t first, uint64_t mask) {
    uint64_t codes[2];
    book_codes(s, first, mask, &codes[0], &codes[1]);
    for (int i = 0; i < 2; i++) {
        /* The file sorts its keys as signed 32-bit numbers. */
        const int64_t key = (int64_t)(int32_t)(uint32_t)codes[i];
        const unsigned char *at =
            book_find(s->exact_book, s->exact_count, EXACT_RECORD, EXACT_KEY_BYTES, 1, 0, key);
        if (at) return distance_to_score(s, (signed char)at[EXACT_KEY_BYTES]);
    }
    return BOOK_MISSING;
}

int c4_book_outcome(const solver_t *s, uint64_t first, uint64_t mask) {
    uint64_t codes[2];
    book_codes(s, first, mask, &codes[0], &codes[1]);
    for (int i = 0; i < 2; i++) {
        const unsigned char *at = book_find(s->outcome_book, s->outcome_count, OUTCOME_RECORD,
                                            OUTCOME_KEY_BYTES, 0, OUTCOME_VALUE_MASK,
                                            (int64_t)codes[i]);
        if (at) return -(at[OUTCOME_KEY_BYTES - 1] & OUTCOME_VALUE_MASK);
    }
    return 1; /* the book leaves out the positions the first player wins */
}
