/* mpnet.c - MPNet's relative position buckets: T5's bidirectional buckets
 * under another name.
 *
 * transformers 5.23.0, src/transformers/models/mpnet/modeling_mpnet.py:
 *   L318-321 relative_position = memory_position - context_position
 *            (key - query; positions 0 .. n - 1, L281 passes no position_ids)
 *   L330-347 relative_position_bucket(relative_position, num_buckets=32,
 *            max_distance=128):
 *     L332 n = -relative_position                       (query - key)
 *     L334 num_buckets //= 2
 *     L335 ret += (n < 0).to(torch.long) * num_buckets  (key after query)
 *     L336 n = torch.abs(n)
 *     L338-346 max_exact, is_small, the float32 log formula, the clamp to
 *              num_buckets - 1: the very lines of T5's bidirectional branch.
 * n < 0 is key - query > 0, T5's upper half (t5.c L213); |n| is T5's
 * distance (L214); the rest is token for token T5's L220-233 with the same
 * float32 operations. So the bucket is posenc_t5_bucket(query, key,
 * num_buckets, max_distance, bidirectional = 1), which this calls;
 * tests/test_mpnet.c recomputes MPNet's lines independently. */
#include "internal.h"

posenc_status posenc_mpnet_bucket(int64_t query_pos, int64_t key_pos, uint32_t num_buckets,
                                  uint32_t max_distance, uint32_t *bucket)
{
    return posenc_t5_bucket(query_pos, key_pos, num_buckets, max_distance, 1, bucket);
}
