/* Bare C loop over the same tables and algorithm as freezeout.evaluate.kernels.
 *
 * Built by bench/bench_evaluator.py with `gcc -O2 -shared -fPIC` and called
 * through ctypes on the very arrays the Python paths use, so the only
 * difference measured is the compiler and language, not the algorithm:
 * sum packed card keys, test the flush nibbles, then either the suit's rank
 * mask into the flush table or the base-5 rank key through the perfect hash.
 */
#include <stdint.h>

#define SUIT_BASE 0x3333u
#define FLUSH_BITS 0x8888u
#define ROW_SHIFT (64 - 14)
#define COLUMN_SHIFT (64 - 14 - 17)
#define COLUMN_MASK ((1u << 17) - 1)

static inline int32_t lookup(uint64_t total, const uint8_t *row, int width, uint64_t multiplier,
                             const uint32_t *offsets, const uint16_t *slots, const uint16_t *flush) {
    uint64_t flagged = total & FLUSH_BITS;
    if (flagged) {
        int suit = 0;
        while (!((flagged >> (4 * suit + 3)) & 1)) suit++;
        uint32_t mask = 0;
        for (int j = 0; j < width; j++)
            if ((row[j] & 3) == suit) mask |= 1u << (row[j] >> 2);
        return flush[mask];
    }
    uint64_t mixed = (total >> 16) * multiplier;
    return slots[offsets[mixed >> ROW_SHIFT] ^ ((mixed >> COLUMN_SHIFT) & COLUMN_MASK)];
}

/* The row loop, inlined per width as a constant (like the numba kernel); branch-free validation. */
static inline int64_t rows_of_width(const uint8_t *cards, int64_t n, const int width, const uint64_t *card_keys,
                                    uint64_t multiplier, const uint32_t *offsets, const uint16_t *slots,
                                    const uint16_t *flush, int32_t *out) {
    int64_t bad_row = -1;
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *row = cards + i * width;
        uint64_t total = SUIT_BASE, seen = 0, summed = 0, spill = 0;
        for (int j = 0; j < width; j++) {
            uint64_t card = row[j];
            spill |= card;
            card &= 63;
            total += card_keys[card];
            uint64_t bit = (uint64_t)1 << card;
            seen |= bit;
            summed += bit;
        }
        if (spill > 63 || seen != summed || (seen >> 52)) {
            if (bad_row < 0) bad_row = i;
            out[i] = 0;
            continue;
        }
        out[i] = lookup(total, row, width, multiplier, offsets, slots, flush);
    }
    return bad_row;
}

/* Rank n rows of `width` uint8 cards; returns the first bad row, or -1 (same checks as numba). */
int64_t rank_rows(const uint8_t *cards, int64_t n, int width, const uint64_t *card_keys, uint64_t multiplier,
                  const uint32_t *offsets, const uint16_t *slots, const uint16_t *flush, int32_t *out) {
    if (width == 7) return rows_of_width(cards, n, 7, card_keys, multiplier, offsets, slots, flush, out);
    if (width == 6) return rows_of_width(cards, n, 6, card_keys, multiplier, offsets, slots, flush, out);
    return rows_of_width(cards, n, 5, card_keys, multiplier, offsets, slots, flush, out);
}

/* histogram[rank] += 1 for every 7-card hand, with running sums like the numba kernel. */
void all_seven(const uint64_t *card_keys, uint64_t multiplier, const uint32_t *offsets, const uint16_t *slots,
               const uint16_t *flush, int64_t *histogram) {
    for (int a = 0; a < 46; a++) {
        uint64_t ka = SUIT_BASE + card_keys[a], ma = (uint64_t)1 << (16 * (a & 3) + (a >> 2));
        for (int b = a + 1; b < 47; b++) {
            uint64_t kb = ka + card_keys[b], mb = ma | (uint64_t)1 << (16 * (b & 3) + (b >> 2));
            for (int c = b + 1; c < 48; c++) {
                uint64_t kc = kb + card_keys[c], mc = mb | (uint64_t)1 << (16 * (c & 3) + (c >> 2));
                for (int d = c + 1; d < 49; d++) {
                    uint64_t kd = kc + card_keys[d], md = mc | (uint64_t)1 << (16 * (d & 3) + (d >> 2));
                    for (int e = d + 1; e < 50; e++) {
                        uint64_t ke = kd + card_keys[e], me = md | (uint64_t)1 << (16 * (e & 3) + (e >> 2));
                        for (int f = e + 1; f < 51; f++) {
                            uint64_t kf = ke + card_keys[f], mf = me | (uint64_t)1 << (16 * (f & 3) + (f >> 2));
                            for (int g = f + 1; g < 52; g++) {
                                uint64_t total = kf + card_keys[g];
                                uint64_t flagged = total & FLUSH_BITS;
                                int32_t rank;
                                if (flagged) {
                                    uint64_t masks = mf | (uint64_t)1 << (16 * (g & 3) + (g >> 2));
                                    int suit = 0;
                                    while (!((flagged >> (4 * suit + 3)) & 1)) suit++;
                                    rank = flush[(masks >> (16 * suit)) & 0x1FFF];
                                } else {
                                    uint64_t mixed = (total >> 16) * multiplier;
                                    rank = slots[offsets[mixed >> ROW_SHIFT] ^ ((mixed >> COLUMN_SHIFT) & COLUMN_MASK)];
                                }
                                histogram[rank]++;
                            }
                        }
                    }
                }
            }
        }
    }
}
