/* The compiled core of the Skat double-dummy solver (stich.skat.solver).
 *
 * Same algorithm as the pure-Python search in solver.py, which stays the reference and
 * the fallback: fail-soft alpha-beta over single card plays, a transposition table at
 * trick starts keyed by the three hands and the seat to lead, equivalent cards searched
 * once, the points still out as a bound, MTD(f) for the exact value and zero-window
 * searches for the yes/no questions.  The two searches give the same values; the node
 * counts differ, because this core prunes more:
 *
 * - Stronger bounds at trick starts (see `bounds`): cards that surely fall to one side,
 *   from the trumps above all of the other side's and the sure tricks the seat on lead
 *   can cash.  A trick start that its bounds decide is answered before its table entry
 *   is looked up (no wait for memory).
 * - At the last card of a trick, every child's bounds are checked before any child is
 *   searched (a child that decides ends the search there), while the children's table
 *   buckets are fetched from memory all at once (prefetch).
 * - A small table of the cards that refuted a position, keyed by the hand to play (and
 *   the trick so far): positions that differ only in the other hands share it, and the
 *   card is tried first (after the transposition table's own best card).
 * - Inside a search the cards are renumbered so that each follow group takes adjacent
 *   bits, weakest lowest (`relayout`): "the cards above every card of the other side"
 *   is then a bit operation.  Only values leave the search.
 *
 * - A trick start with two tricks left is valued by playing out its (at most eight)
 *   lines (`exact2`), without the table; one with three or four tricks left by a small
 *   alpha-beta over its first trick (`first_trick`, a tight loop), whose result goes to
 *   the table.
 * - MTD(f) lets its guess climb faster after fail highs in a row (see py_search).
 *
 * The table lives in 2 MB pages where the system offers them (fewer TLB misses).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define INF 1000
#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)

/* A transposition-table entry: 16 bytes, four to a 64-byte bucket (one cache line).
 * Bounds are card points (0..120); -128 and 127 stand for "no bound". */
typedef struct {
    uint32_t h0, h1, h2;
    uint8_t gen;
    int8_t lo, hi;
    uint8_t meta; /* the seat to lead in bits 0-1; the best card + 1 in bits 2-7 */
} Entry;

#define NO_LO (-128)
#define NO_HI 127

static Entry *tt = NULL;
/* The refutation table: the card that last refuted a position, keyed by the hand to play,
 * the seat, and the cards of the trick so far; cleared with every search. */
#define HBITS 12
static uint32_t hint_key[1u << HBITS];
static int8_t hint_card[1u << HBITS];

static inline uint32_t hint_slot(uint32_t hand, int seat, const int *trick, int n) {
    uint64_t x = (uint64_t)hand * 0x9E3779B97F4A7C15ull + (uint64_t)(seat * 4 + n) * 0xC2B2AE3D27D4EB4Full;
    if (n > 0) x ^= (uint64_t)(trick[0] + 1) * 0x165667B19E3779F9ull;
    if (n > 1) x ^= (uint64_t)(trick[1] + 1) * 0x27D4EB2F165667C5ull;
    x ^= x >> 31;
    return (uint32_t)(x >> 20) & ((1u << HBITS) - 1);
}

static inline uint32_t hint_tag(uint32_t hand, int seat, const int *trick, int n) {
    return hand ^ (uint32_t)(seat * 4 + n) ^ (n > 0 ? (uint32_t)(trick[0] + 1) * 2654435761u : 0) ^
           (n > 1 ? (uint32_t)(trick[1] + 1) * 40503u : 0);
}

static uint8_t generation = 0;

static inline int entry_best(const Entry *e) { return (e->meta >> 2) - 1; }

typedef struct {
    uint32_t h[3];
    uint32_t follow[32];
    int strength[32];
    int pts[32];
    uint32_t trump;
    int declarer;
    uint32_t above[32]; /* the cards that beat a card when it wins a trick so far */
    uint32_t group[5]; /* the trumps (0 if none), then the side groups */
    int nside;
    int byte_pts[4][256];
    long nodes;
    long limit; /* nodes allowed (0: no limit); beyond it the search gives up */
    int aborted;
} Search;

static inline int points_of(const Search *s, uint32_t m) {
    return s->byte_pts[0][m & 255] + s->byte_pts[1][(m >> 8) & 255] +
           s->byte_pts[2][(m >> 16) & 255] + s->byte_pts[3][m >> 24];
}

/* Bit count: the POPCNT instruction where the build enables it (setup.py does where the
 * building machine has it), else a few shifts and adds instead of a library call. */
static inline int pc(uint32_t x) {
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c, int seat) {
    uint64_t x = ((uint64_t)a * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)b * 0xC2B2AE3D27D4EB4Full) ^
                 ((uint64_t)c * 0x165667B19E3779F9ull) ^ (uint64_t)(seat + 1) * 0x27D4EB2F165667C5ull;
    x ^= x >> 29;
    return (uint32_t)(x & (TT_SIZE - 1));
}

/* The table entry of a trick-start position.  A new position takes a slot left by an
 * older search, else the slot of its bucket whose position has the fewest cards left
 * (the cheapest to search again).  *found says whether the entry already holds it. */
static inline int holds(const Entry *e, const Search *s, int seat) {
    return e->gen == generation && e->h0 == s->h[0] && e->h1 == s->h[1] && e->h2 == s->h[2] &&
           (e->meta & 3) == seat;
}

static Entry *probe(const Search *s, int seat, int *found) {
    Entry *bucket = &tt[hash3(s->h[0], s->h[1], s->h[2], seat) & ~3u];
    Entry *victim = NULL;
    int fewest = 99;
    for (int k = 0; k < 4; k++) {
        Entry *e = &bucket[k];
        if (holds(e, s, seat)) { *found = 1; return e; }
        int cards = e->gen == generation ? pc(e->h0 | e->h1 | e->h2) : -1;
        if (cards < fewest) { fewest = cards; victim = e; }
    }
    *found = 0;
    victim->gen = generation; victim->h0 = s->h[0]; victim->h1 = s->h[1]; victim->h2 = s->h[2];
    victim->meta = (uint8_t)seat; victim->lo = NO_LO; victim->hi = NO_HI;
    return victim;
}

/* Which card of a full trick wins it: 0, 1 or 2. */
static inline int winner(const Search *s, const int *t) {
    int pos = 0, best = t[0];
    if ((s->above[best] >> t[1]) & 1) { best = t[1]; pos = 1; }
    if ((s->above[best] >> t[2]) & 1) pos = 2;
    return pos;
}

/* The equivalent cards of `legal` merged: same group and points, no card of `others`
 * between them.  In the search's layout a group's cards lie in adjacent bits, weakest
 * lowest, so a card can only be the twin of the last one kept; the stronger card stands
 * for the run. */
static inline uint32_t merged(const Search *s, uint32_t legal, uint32_t others) {
    uint32_t keep = 0;
    int last = -1;
    for (uint32_t m = legal; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        if (last >= 0 && s->follow[last] == s->follow[c] && s->pts[last] == s->pts[c] &&
            !(others & ((1u << c) - (2u << last))))
            keep &= ~(1u << last);
        keep |= 1u << c;
        last = c;
    }
    return keep;
}

/* Legal moves of a seat, equivalent cards merged, with `order` in a promising order (the
 * usual card-play sense: smear points onto a partner's trick, take an opponent's trick as
 * cheaply as possible or, last in the trick, with the most points, else throw the
 * cheapest card), else weakest first in each group; returns the count. */
static int gen_moves(const Search *s, int seat, const int *trick, int n, int *moves, int order) {
    uint32_t hand = s->h[seat];
    uint32_t legal = hand;
    if (n > 0) {
        uint32_t f = s->follow[trick[0]] & hand;
        if (f) legal = f;
    }
    uint32_t others = (s->h[0] | s->h[1] | s->h[2]) & ~hand;
    for (int i = 0; i < n; i++) others |= 1u << trick[i];
    int count = 0;
    for (uint32_t m = merged(s, legal, others); m; m &= m - 1) moves[count++] = __builtin_ctz(m);
    if (count < 2 || !order) return count;
    int key[12];
    if (n == 0) {
        /* leading: cards no opponent can beat first (most points first), then the rest,
           the strongest first */
        for (int i = 0; i < count; i++) {
            int c = moves[i];
            int safe = 1;
            for (int k = 1; k <= 2 && safe; k++) {
                int opp = (seat + k) % 3;
                if ((opp == s->declarer) == (seat == s->declarer)) continue; /* partner */
                uint32_t h = s->h[opp], f = s->follow[c] & h;
                if ((f ? f : h) & s->above[c]) safe = 0;
            }
            int score = safe ? 1000 + s->pts[c] * 64 + s->strength[c] : 500 + s->strength[c];
            key[i] = (score << 12) | (s->strength[c] << 5) | (31 - c);
        }
    } else {
        /* who wins the trick so far */
        int best = trick[0], bpos = 0;
        for (int i = 1; i < n; i++) {
            if ((s->above[best] >> trick[i]) & 1) { best = trick[i]; bpos = i; }
        }
        uint32_t beats_best = s->above[best];
        int leader = (seat - n + 3) % 3;
        int winner_seat = (leader + bpos) % 3;
        int mine = (winner_seat == s->declarer) == (seat == s->declarer);
        if (mine && n == 1) {
            /* the partner's card wins so far: is it safe from the last player? */
            int third = (seat + 1) % 3;
            uint32_t h3 = s->h[third], f3 = s->follow[trick[0]] & h3;
            if ((f3 ? f3 : h3) & beats_best) mine = 0;
        }
        for (int i = 0; i < count; i++) {
            int c = moves[i];
            int wins = (beats_best >> c) & 1;
            int low = 127 - s->strength[c]; /* prefer keeping the high cards */
            int score;
            if (mine && !wins) score = (200 + s->pts[c]) * 128 + low;
            else if (mine) score = (100 + s->pts[c]) * 128 + low;
            else if (wins) score = (n == 2 ? 300 + s->pts[c] : 300 - s->strength[c]) * 128 + low;
            else score = (100 - s->pts[c]) * 128 + low;
            key[i] = (score << 12) | (s->strength[c] << 5) | (31 - c);
        }
    }
    for (int i = 1; i < count; i++) { /* insertion sort, highest key first */
        int c = moves[i], k = key[i], j = i - 1;
        while (j >= 0 && key[j] < k) { moves[j + 1] = moves[j]; key[j + 1] = key[j]; j--; }
        moves[j + 1] = c; key[j + 1] = k;
    }
    return count;
}

/* The refutation table's card for this position, -1 if none. */
static inline int hint_of(const Search *s, int seat, const int *trick, int n) {
    uint32_t slot = hint_slot(s->h[seat], seat, trick, n);
    return hint_key[slot] == hint_tag(s->h[seat], seat, trick, n) ? hint_card[slot] : -1;
}

/* The refutation table's card for this position, if it is among the moves, goes first. */
static inline void use_hint(const Search *s, int seat, const int *trick, int n, int *moves, int count) {
    int k = hint_of(s, seat, trick, n);
    if (k < 0) return;
    for (int i = 1; i < count; i++)
        if (moves[i] == k) {
            for (int j = i; j > 0; j--) moves[j] = moves[j - 1];
            moves[0] = k;
            return;
        }
}

static inline void set_hint(const Search *s, int seat, const int *trick, int n, int card) {
    uint32_t slot = hint_slot(s->h[seat], seat, trick, n);
    hint_key[slot] = hint_tag(s->h[seat], seat, trick, n);
    hint_card[slot] = (int8_t)card;
}

/* The cards of group G above every card of X in G (the search's layout keeps each group's
 * cards in adjacent bits, weakest lowest). */
static inline uint32_t above_in(uint32_t G, uint32_t X) {
    uint32_t x = X & G;
    if (!x) return G;
    int hb = 31 - __builtin_clz(x);
    return hb == 31 ? 0 : G & ~((2u << hb) - 1);
}

/* The cards that surely fall to the side of the seat on lead (hand L) when it cashes its
 * sure tricks one after another against the hands X and Y: its trumps above all of
 * theirs, to which each must follow with trumps while it has any (a hand with no more
 * trumps than those loses them all), and, once both are out of trumps, its side cards
 * above all of theirs (a hand with no more cards of the suit than those loses them all).
 * Each trick is won by L, so L keeps the lead. */
static inline uint32_t cashed(const Search *s, uint32_t L, uint32_t X, uint32_t Y) {
    uint32_t T = s->trump, O = X | Y;
    uint32_t got = L & T & above_in(T, O);
    int k = pc(got);
    int x_out = k >= pc(X & T), y_out = k >= pc(Y & T);
    if (x_out) got |= X & T;
    if (y_out) got |= Y & T;
    if (x_out && y_out) {
        for (int g = 1; g <= s->nside; g++) {
            uint32_t G = s->group[g], ms = L & above_in(G, O);
            int n = pc(ms);
            got |= ms;
            if (n >= pc(X & G)) got |= X & G;
            if (n >= pc(Y & G)) got |= Y & G;
        }
    }
    return got;
}

/* Bounds on the declarer's points still to come at a trick start (the hands only).
 * A trump above every trump of the other side wins whatever trick it is played to; and
 * the seat on lead can cash its sure tricks (`cashed`).  A defender on lead cashes
 * against the declarer and its partner both, so that the lead stays with it. */
static inline void bounds(const Search *s, const uint32_t *h, int seat, uint32_t all, int allpts,
                          int *lbp, int *ubp) {
    int d = s->declarer;
    uint32_t D = h[d], T = s->trump;
    uint32_t dt = D & T, ft = all & ~D & T;
    uint32_t win = dt & above_in(T, ft);  /* cards surely the declarer's */
    uint32_t lose = ft & above_in(T, dt); /* and surely the defenders' */
    if (seat == d) win |= cashed(s, D, h[(d + 1) % 3], h[(d + 2) % 3]);
    else lose |= cashed(s, h[seat], D, h[3 - seat - d]);
    *lbp = win ? points_of(s, win) : 0;
    *ubp = lose ? allpts - points_of(s, lose) : allpts;
}

/* The exact value of a trick start with two cards in each hand: every line of play (at
 * most eight) played out, best for the side to move at each card.  Cheaper than two
 * more levels of the search (no table, no move ordering), and exact, so that the last
 * card of the trick before can use it as its child's bounds. */
static int exact2(const Search *s, const uint32_t *h, int L) {
    int d = s->declarer, p1 = (L + 1) % 3, p2 = (L + 2) % 3;
    uint32_t all = h[0] | h[1] | h[2];
    int allpts = points_of(s, all);
    int best0 = L == d ? -1 : INF;
    for (uint32_t ma = h[L]; ma; ma &= ma - 1) {
        int a = __builtin_ctz(ma);
        uint32_t f = s->follow[a];
        uint32_t l1 = h[p1] & f;
        if (!l1) l1 = h[p1];
        int best1 = p1 == d ? -1 : INF;
        for (uint32_t mb = l1; mb; mb &= mb - 1) {
            int b = __builtin_ctz(mb);
            uint32_t l2 = h[p2] & f;
            if (!l2) l2 = h[p2];
            int best2 = p2 == d ? -1 : INF;
            for (uint32_t mc = l2; mc; mc &= mc - 1) {
                int c = __builtin_ctz(mc);
                /* the first trick, then the last, led by its winner ws */
                int t[3] = {a, b, c};
                int ws = (L + winner(s, t)) % 3;
                int t1 = s->pts[a] + s->pts[b] + s->pts[c];
                uint32_t r[3] = {h[0], h[1], h[2]};
                r[L] &= ~(1u << a); r[p1] &= ~(1u << b); r[p2] &= ~(1u << c);
                int u[3] = {__builtin_ctz(r[ws]), __builtin_ctz(r[(ws + 1) % 3]), __builtin_ctz(r[(ws + 2) % 3])};
                int s2 = (ws + winner(s, u)) % 3;
                int v = (ws == d ? t1 : 0) + (s2 == d ? allpts - t1 : 0);
                if (p2 == d ? v > best2 : v < best2) best2 = v;
            }
            if (p1 == d ? best2 > best1 : best2 < best1) best1 = best2;
        }
        if (L == d ? best1 > best0 : best1 < best0) best0 = best1;
    }
    return best0;
}

static int ab(Search *s, int seat, int *trick, int n, int alpha, int beta, int plb, int pub);

/* The value of a trick start with three or four tricks left, fail-soft in the window
 * (alpha, beta): a small alpha-beta over its first trick, each line valued by exact2
 * (three tricks left) or by the search (four: bounds and table, then first_trick).  Equivalent cards are merged; the lead in
 * the usual order (gen_moves), at the trick's last card the cards that give the trick
 * to the side of the seat to play first.  A tight loop instead of the search's general
 * machinery: no table at its own nodes (the caller keeps the result), no refutations. */
static int first_trick(Search *s, int L, int alpha, int beta) {
    int d = s->declarer, p1 = (L + 1) % 3, p2 = (L + 2) % 3;
    uint32_t *h = s->h, all = h[0] | h[1] | h[2];
    int two_after = pc(h[L]) == 3;
    int m0 = L == d, m1 = p1 == d, m2 = p2 == d;
    int best0 = m0 ? -INF : INF, a0 = alpha, b0 = beta;
    int moves[12], none[3] = {0, 0, 0};
    int count = gen_moves(s, L, none, 0, moves, 1);
    for (int i = 0; i < count; i++) {
        int a = moves[i];
        uint32_t f = s->follow[a];
        uint32_t l1 = h[p1] & f;
        if (!l1) l1 = h[p1];
        l1 = merged(s, l1, all & ~h[p1]);
        int best1 = m1 ? -INF : INF, a1 = a0, b1 = b0;
        h[L] ^= 1u << a;
        for (uint32_t mb = l1; mb; mb &= mb - 1) {
            int b = __builtin_ctz(mb);
            int win1 = a, ws1 = L;
            if ((s->above[a] >> b) & 1) { win1 = b; ws1 = p1; }
            uint32_t l2 = h[p2] & f;
            if (!l2) l2 = h[p2];
            l2 = merged(s, l2, all & ~h[p2]);
            int best2 = m2 ? -INF : INF, a2 = a1, b2 = b1;
            /* the cards that give the trick to this seat's side first */
            uint32_t beats = s->above[win1] & l2;
            uint32_t good = (ws1 == d) == m2 ? l2 & ~beats : beats;
            int order[12], no = 0;
            for (uint32_t m = good; m; m &= m - 1) order[no++] = __builtin_ctz(m);
            for (uint32_t m = l2 & ~good; m; m &= m - 1) order[no++] = __builtin_ctz(m);
            h[p1] ^= 1u << b;
            for (int k = 0; k < no; k++) {
                int c = order[k];
                int ws = (s->above[win1] >> c) & 1 ? p2 : ws1;
                int gain = ws == d ? s->pts[a] + s->pts[b] + s->pts[c] : 0;
                h[p2] ^= 1u << c;
                int sub[3];
                int v = gain + (two_after ? exact2(s, h, ws) : ab(s, ws, sub, 0, a2 - gain, b2 - gain, -1, -1));
                h[p2] ^= 1u << c;
                if (m2 ? v > best2 : v < best2) best2 = v;
                if (m2) { if (best2 > a2) a2 = best2; } else { if (best2 < b2) b2 = best2; }
                if (a2 >= b2) break;
            }
            h[p1] ^= 1u << b;
            if (m1 ? best2 > best1 : best2 < best1) best1 = best2;
            if (m1) { if (best1 > a1) a1 = best1; } else { if (best1 < b1) b1 = best1; }
            if (a1 >= b1) break;
        }
        h[L] ^= 1u << a;
        if (m0 ? best1 > best0 : best1 < best0) best0 = best1;
        if (m0) { if (best0 > a0) a0 = best0; } else { if (best0 < b0) b0 = best0; }
        if (a0 >= b0) break;
    }
    return best0;
}

/* A child of a trick's last card: the card, who takes the trick and the declarer's points
 * from it, and the bounds of the trick start that follows (-1: not computed). */
typedef struct {
    int card, taker, gain, lb, ub;
} Child;

/* plb, pub: the bounds of this trick start if the caller computed them, else -1 */
static int ab(Search *s, int seat, int *trick, int n, int alpha, int beta, int plb, int pub) {
    s->nodes++;
    if (s->limit && s->nodes > s->limit) { s->aborted = 1; return 0; }
    Entry *e = NULL;
    int a0 = alpha, b0 = beta;
    if (n == 0) {
        uint32_t all = s->h[0] | s->h[1] | s->h[2];
        if (!all) return 0;
        if (!(s->h[seat] & (s->h[seat] - 1))) {
            /* the last trick plays itself */
            int t[3];
            t[0] = __builtin_ctz(s->h[seat]);
            t[1] = __builtin_ctz(s->h[(seat + 1) % 3]);
            t[2] = __builtin_ctz(s->h[(seat + 2) % 3]);
            return (seat + winner(s, t)) % 3 == s->declarer ? points_of(s, all) : 0;
        }
        if (pc(all) == 6) return exact2(s, s->h, seat);
        int ub = pub, lb = plb;
        if (plb < 0) bounds(s, s->h, seat, all, points_of(s, all), &lb, &ub);
        if (ub <= alpha) return ub; /* decided without the table: no memory wait */
        if (lb >= beta) return lb;
        int found;
        e = probe(s, seat, &found);
        if (found) {
            if (e->lo >= beta) return e->lo;
            if (e->hi <= alpha) return e->hi;
            if (e->lo > alpha) alpha = e->lo;
            if (e->hi < beta) beta = e->hi;
            a0 = alpha; b0 = beta;
            if (ub <= alpha) return ub;
            if (lb >= beta) return lb;
        }
    }
    int maximize = seat == s->declarer;
    int best = maximize ? -INF : INF, best_card = -1;
    if (n == 0 && pc(s->h[seat]) <= 4) { /* three or four tricks left: first_trick */
        best = first_trick(s, seat, alpha, beta);
        goto store;
    }
    int first = e ? entry_best(e) : -1; /* the table's best card, tried before the rest */
    if (first >= 0 && !((s->h[seat] >> first) & 1)) first = -1;
    int moves[12], count = 0, generated = 0;
    Child kid[12]; /* at a trick's last card: the children, in the order they are searched */
    if (n == 2) {
        /* the last card of a trick: every child is a trick start with a table entry;
           fetch their buckets from memory now, all at once, instead of one by one */
        count = gen_moves(s, seat, trick, n, moves, 0); /* ordered below, by their bounds */
        generated = 1;
        /* who wins the trick so far, and which cards beat that */
        int lead = (seat + 1) % 3, best0 = trick[0], bseat = lead;
        if ((s->above[best0] >> trick[1]) & 1) { best0 = trick[1]; bseat = (lead + 1) % 3; }
        uint32_t beats = s->above[best0];
        int so_far = s->pts[trick[0]] + s->pts[trick[1]];
        for (int i = 0; i < count; i++) {
            int c = moves[i];
            int w = ((beats >> c) & 1) ? seat : bseat;
            kid[i].card = c;
            kid[i].taker = w;
            kid[i].gain = w == s->declarer ? so_far + s->pts[c] : 0;
            uint32_t h[3] = {s->h[0], s->h[1], s->h[2]};
            h[seat] ^= 1u << c;
            if (pc(h[w]) > 2) /* two tricks left are valued without the table */
                __builtin_prefetch(&tt[hash3(h[0], h[1], h[2], w) & ~3u]);
        }
        /* while those buckets come: a child that its bounds decide ends the search here */
        int maxi = seat == s->declarer;
        int allpts = points_of(s, s->h[0] | s->h[1] | s->h[2]);
        for (int i = 0; i < count; i++) {
            Child *k = &kid[i];
            uint32_t h[3] = {s->h[0], s->h[1], s->h[2]};
            h[seat] ^= 1u << k->card;
            int w = k->taker;
            k->lb = k->ub = -1;
            if (!(h[w] & (h[w] - 1))) continue; /* the last trick: searched directly */
            if (pc(h[w]) == 2) k->lb = k->ub = exact2(s, h, w); /* two tricks left: the value */
            else bounds(s, h, w, h[0] | h[1] | h[2], allpts - s->pts[k->card], &k->lb, &k->ub);
            if (maxi && k->gain + k->lb >= beta) return k->gain + k->lb;
            if (!maxi && k->gain + k->ub <= alpha) return k->gain + k->ub;
        }
        /* the children by their bounds: the declarer tries the highest lower bound first
           (then the highest upper bound), a defender the lowest upper bound (then the
           lowest lower bound); ties weakest card first; the refutation card before all */
        if (count > 1 && kid[0].lb >= 0) {
            int key[12];
            for (int i = 0; i < count; i++) {
                int lo = kid[i].gain + kid[i].lb, hi = kid[i].gain + kid[i].ub;
                key[i] = maxi ? lo * 256 + hi : -(hi * 256 + lo);
            }
            for (int i = 1; i < count; i++) { /* insertion sort, highest key first */
                Child x = kid[i];
                int k = key[i], j = i - 1;
                for (; j >= 0 && key[j] < k; j--) { kid[j + 1] = kid[j]; key[j + 1] = key[j]; }
                kid[j + 1] = x; key[j + 1] = k;
            }
        }
        int h = hint_of(s, seat, trick, n);
        for (int i = 1; i < count; i++)
            if (kid[i].card == h) {
                Child x = kid[i];
                for (int j = i; j > 0; j--) kid[j] = kid[j - 1];
                kid[0] = x;
                break;
            }
        for (int i = 0; i < count; i++) moves[i] = kid[i].card;
    }
    for (int i = -1; i < count || !generated; i++) {
        int c;
        if (i < 0) {
            if (first < 0) continue;
            c = first;
        } else {
            if (!generated) {
                count = gen_moves(s, seat, trick, n, moves, 1);
                generated = 1;
                use_hint(s, seat, trick, n, moves, count);
                i = -1;
                continue;
            }
            c = moves[i];
            if (c == first) continue;
        }
        uint32_t bit = 1u << c;
        s->h[seat] ^= bit;
        trick[n] = c;
        int v;
        if (n == 2) {
            const Child *k = &kid[i]; /* at a trick's last card there is no table card: i >= 0 */
            if (k->lb >= 0 && k->gain + k->ub <= alpha) v = k->gain + k->ub; /* the child's bounds */
            else if (k->lb >= 0 && k->gain + k->lb >= beta) v = k->gain + k->lb; /* decide it */
            else {
                int sub[3];
                v = k->gain + ab(s, k->taker, sub, 0, alpha - k->gain, beta - k->gain, k->lb, k->ub);
            }
        } else {
            v = ab(s, (seat + 1) % 3, trick, n + 1, alpha, beta, -1, -1);
        }
        s->h[seat] ^= bit;
        if (maximize) {
            if (v > best) { best = v; best_card = c; if (v > alpha) alpha = v; }
        } else {
            if (v < best) { best = v; best_card = c; if (v < beta) beta = v; }
        }
        if (s->aborted) break;
        if (alpha >= beta) {
            set_hint(s, seat, trick, n, c);
            break;
        }
    }
store:
    if (s->aborted) return 0;
    if (e) {
        /* the entry may have been taken by another position below us */
        if (!holds(e, s, seat)) { int found; e = probe(s, seat, &found); }
        if (best <= a0) { if (best < e->hi) e->hi = (int8_t)best; }
        else if (best >= b0) { if (best > e->lo) e->lo = (int8_t)best; }
        else { e->lo = e->hi = (int8_t)best; }
        /* first_trick names no best card: the entry keeps the one it had */
        if (best_card >= 0) e->meta = (uint8_t)(seat | ((best_card + 1) << 2));
    }
    return best;
}

/* Trick questions: with `want_all` 0 (Null), 1 if the declarer avoids every remaining
 * trick; with `want_all` 1 (Schwarz), 1 if the declarer takes every remaining trick. */
static int trick_search(Search *s, int seat, int *trick, int n, int want_all) {
    s->nodes++;
    if (s->limit && s->nodes > s->limit) { s->aborted = 1; return 0; }
    Entry *e = NULL;
    if (n == 0) {
        if (!(s->h[0] | s->h[1] | s->h[2])) return 1;
        int found;
        e = probe(s, seat, &found);
        if (found) return e->lo;
    }
    int moves[12];
    int count = gen_moves(s, seat, trick, n, moves, 1);
    int declarer_moves = seat == s->declarer;
    int result = !declarer_moves;
    for (int i = 0; i < count; i++) {
        int c = moves[i];
        uint32_t bit = 1u << c;
        s->h[seat] ^= bit;
        trick[n] = c;
        int ok;
        if (n == 2) {
            int w = (seat + 1 + winner(s, trick)) % 3;
            if ((w == s->declarer) != want_all) ok = 0;
            else { int sub[3]; ok = trick_search(s, w, sub, 0, want_all); }
        } else {
            ok = trick_search(s, (seat + 1) % 3, trick, n + 1, want_all);
        }
        s->h[seat] ^= bit;
        if (s->aborted) return 0;
        if (declarer_moves && ok) { result = 1; break; }
        if (!declarer_moves && !ok) { result = 0; break; }
    }
    if (e) {
        if (!holds(e, s, seat)) { int found; e = probe(s, seat, &found); }
        e->lo = e->hi = (int8_t)result;
    }
    return result;
}

/* Declarer points when every seat plays the first card of its move ordering: a cheap
 * estimate, used as the first guess of the exact search. */
static int playout(Search *s, int seat, const int *trick, int n) {
    uint32_t saved[3] = {s->h[0], s->h[1], s->h[2]};
    int t[3] = {trick[0], trick[1], trick[2]};
    int total = 0;
    while (n > 0 || (s->h[0] | s->h[1] | s->h[2])) {
        int moves[12];
        gen_moves(s, seat, t, n, moves, 1);
        s->h[seat] ^= 1u << moves[0];
        t[n] = moves[0];
        if (n == 2) {
            int w = (seat + 1 + winner(s, t)) % 3;
            if (w == s->declarer) total += s->pts[t[0]] + s->pts[t[1]] + s->pts[t[2]];
            seat = w;
            n = 0;
        } else {
            seat = (seat + 1) % 3;
            n++;
        }
    }
    s->h[0] = saved[0]; s->h[1] = saved[1]; s->h[2] = saved[2];
    return total;
}

/* The tables derived from a game's follow groups, strengths and points: the same for
 * every search of one game, so they are computed once per game and kept. */
typedef struct {
    int used;
    uint32_t trump;
    uint32_t follow[32];
    int strength[32], pts[32];
    uint32_t above[32];
    int byte_pts[4][256];
} Setup;

#define SETUPS 8
static Setup setups[SETUPS];
static int next_setup = 0;

static void setup(Search *s) {
    for (int k = 0; k < SETUPS; k++) {
        Setup *u = &setups[k];
        if (u->used && u->trump == s->trump && !memcmp(u->follow, s->follow, sizeof u->follow) &&
            !memcmp(u->strength, s->strength, sizeof u->strength) &&
            !memcmp(u->pts, s->pts, sizeof u->pts)) {
            memcpy(s->above, u->above, sizeof u->above);
            memcpy(s->byte_pts, u->byte_pts, sizeof u->byte_pts);
            return;
        }
    }
    for (int c = 0; c < 32; c++) {
        uint32_t m = ((s->trump >> c) & 1) ? 0 : s->trump;
        for (int x = 0; x < 32; x++)
            if (s->follow[x] == s->follow[c] && s->strength[x] > s->strength[c]) m |= 1u << x;
        s->above[c] = m;
    }
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 256; b++) {
            int t = 0;
            for (int i = 0; i < 8; i++) if ((b >> i) & 1) t += s->pts[8 * k + i];
            s->byte_pts[k][b] = t;
        }
    Setup *u = &setups[next_setup];
    next_setup = (next_setup + 1) % SETUPS;
    u->used = 1;
    u->trump = s->trump;
    memcpy(u->follow, s->follow, sizeof u->follow);
    memcpy(u->strength, s->strength, sizeof u->strength);
    memcpy(u->pts, s->pts, sizeof u->pts);
    memcpy(u->above, s->above, sizeof u->above);
    memcpy(u->byte_pts, s->byte_pts, sizeof u->byte_pts);
}

/* A card set in the search's numbering. */
static uint32_t remap(const int *perm, uint32_t m) {
    uint32_t r = 0;
    for (; m; m &= m - 1) r |= 1u << perm[__builtin_ctz(m)];
    return r;
}

/* The search renumbers the cards so that each follow group takes adjacent bits, the
 * trumps lowest, and a group's cards rise in strength with their bit: "the cards above
 * every card of the other side" becomes a bit operation.  Only values leave the search,
 * so the numbering stays inside it.  -1 if the follow groups do not split the deck. */
static int relayout(Search *s, int *trick, int n) {
    uint32_t groups[32];
    int ng = 0;
    if (s->trump) groups[ng++] = s->trump;
    for (int c = 0; c < 32; c++) {
        if (!((s->follow[c] >> c) & 1)) return -1;
        int seen = 0;
        for (int g = 0; g < ng; g++) if (groups[g] == s->follow[c]) seen = 1;
        if (!seen) groups[ng++] = s->follow[c];
    }
    int perm[32], next = 0;
    uint32_t done = 0;
    for (int g = 0; g < ng; g++) {
        if (groups[g] & done) return -1; /* groups must not overlap */
        done |= groups[g];
        uint32_t left = groups[g];
        while (left) {
            int best = -1;
            for (uint32_t m = left; m; m &= m - 1) {
                int c = __builtin_ctz(m);
                if (best < 0 || s->strength[c] < s->strength[best]) best = c;
            }
            perm[best] = next++;
            left &= ~(1u << best);
        }
    }
    if (next != 32 || done != 0xFFFFFFFFu) return -1;
    uint32_t follow[32];
    int strength[32], pts[32];
    for (int c = 0; c < 32; c++) {
        follow[perm[c]] = remap(perm, s->follow[c]);
        strength[perm[c]] = s->strength[c];
        pts[perm[c]] = s->pts[c];
    }
    memcpy(s->follow, follow, sizeof follow);
    memcpy(s->strength, strength, sizeof strength);
    memcpy(s->pts, pts, sizeof pts);
    s->trump = remap(perm, s->trump);
    for (int k = 0; k < 3; k++) s->h[k] = remap(perm, s->h[k]);
    for (int i = 0; i < n; i++) trick[i] = perm[trick[i]];
    s->group[0] = s->trump;
    s->nside = 0;
    for (int g = s->trump ? 1 : 0; g < ng && s->nside < 4; g++) s->group[++s->nside] = remap(perm, groups[g]);
    return 0;
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* search(follow, strength, points, trump, h0, h1, h2, declarer, to_move, trick, mode,
 *        target[, limit]) -> (value, nodes)
 * mode 0: exact points from the cards in play; 1: 1 if at least `target`; 2: Null (1 if
 * the declarer avoids every trick); 3: Schwarz (1 if the declarer takes every trick).
 * With `limit` > 0 the search gives up after that many nodes and the value is -1 (what
 * it wrote to the table is forgotten with the next search's generation). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *follow_o, *strength_o, *points_o, *trick_o;
    unsigned long trump, h0, h1, h2;
    int declarer, to_move, mode, target;
    long limit = 0;
    if (!PyArg_ParseTuple(args, "OOOkkkkiiOii|l", &follow_o, &strength_o, &points_o, &trump,
                          &h0, &h1, &h2, &declarer, &to_move, &trick_o, &mode, &target, &limit))
        return NULL;
    Search *s = (Search *)calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->limit = limit > 0 ? limit : 0;
    int follow_i[32];
    if (read_ints(follow_o, follow_i, 32, "follow") || read_ints(strength_o, s->strength, 32, "strength") ||
        read_ints(points_o, s->pts, 32, "points")) { free(s); return NULL; }
    for (int i = 0; i < 32; i++) s->follow[i] = (uint32_t)(unsigned int)follow_i[i];
    PyObject *fast = PySequence_Fast(trick_o, "trick");
    if (!fast) { free(s); return NULL; }
    int n = (int)PySequence_Fast_GET_SIZE(fast);
    int trick[3] = {0, 0, 0};
    if (n > 2) { Py_DECREF(fast); free(s); PyErr_SetString(PyExc_ValueError, "trick"); return NULL; }
    for (int i = 0; i < n; i++) trick[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    s->trump = (uint32_t)trump;
    s->h[0] = (uint32_t)h0; s->h[1] = (uint32_t)h1; s->h[2] = (uint32_t)h2;
    s->declarer = declarer;
    if (relayout(s, trick, n)) { free(s); PyErr_SetString(PyExc_ValueError, "follow groups"); return NULL; }
    setup(s);
    if (!tt) {
        /* aligned to 2 MB, so that the system can back it with huge pages */
        tt = (Entry *)aligned_alloc(1u << 21, TT_SIZE * sizeof(Entry));
        if (!tt) { free(s); return PyErr_NoMemory(); }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(tt, TT_SIZE * sizeof(Entry), MADV_HUGEPAGE);
#endif
        memset(tt, 0, TT_SIZE * sizeof(Entry));
    }
    generation++;
    memset(hint_key, 0, sizeof hint_key); /* the refutations of the last search are stale */
    if (generation == 0) { /* the counter wrapped: forget every old entry */
        memset(tt, 0, TT_SIZE * sizeof(Entry));
        generation = 1;
    }
    int value;
    /* The GIL stays held: the table is shared by every call, so two searches must never
       run at once. */
    if (mode == 2 || mode == 3) {
        value = trick_search(s, to_move, trick, n, mode == 3);
    } else if (mode == 1) {
        value = ab(s, to_move, trick, n, target - 1, target, -1, -1) >= target;
    } else {
        uint32_t all = s->h[0] | s->h[1] | s->h[2];
        for (int i = 0; i < n; i++) all |= 1u << trick[i];
        /* MTD(f): zero-window searches from a first guess (a quick playout), each moving
           the guess to the bound it returned.  A search that fails high returns little
           more than its window, so a run of them would climb a point at a time: with
           each further fail high in a row the guess jumps four times as far (1, 4, 16,
           ...; past the upper bound it takes the middle of what is left). */
        int lo = 0, hi = points_of(s, all), guess = playout(s, to_move, trick, n);
        int step = 1, rising = 0;
        while (lo < hi) {
            int beta = guess > lo + 1 ? guess : lo + 1;
            int t2[3] = {trick[0], trick[1], trick[2]};
            int v = ab(s, to_move, t2, n, beta - 1, beta, -1, -1);
            if (s->aborted) break;
            if (v < beta) {
                hi = v;
                guess = v;
                step = 1;
                rising = 0;
            } else {
                lo = v;
                step = rising ? step * 4 : 1;
                rising = 1;
                guess = v + step;
                if (guess > hi) guess = (lo + hi + 1) / 2;
            }
        }
        value = lo;
    }
    long nodes = s->nodes;
    if (s->aborted) value = -1;
    free(s);
    return Py_BuildValue("(il)", value, nodes);
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "Double-dummy search (see stich.skat.solver)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dds", NULL, -1, methods};

PyMODINIT_FUNC PyInit__dds(void) { return PyModule_Create(&module); }
