/* cpmant.c - CPM-Ant's position bucket: T5's bidirectional bucket inside a
 * segment, a segment-pair bucket across segments.
 *
 * transformers 5.23.0, src/transformers/models/cpmant/modeling_cpmant.py:
 *   L459-460 across segments: num_buckets + query_segment * num_segments
 *            + key_segment                 (_segment_relative_position_bucket, L481-482)
 *   L463-467 inside: _position_bucket(key - query, num_buckets, max_distance)
 *            on int32 positions 0 .. len - 1
 *   L484-502 _position_bucket: T5's bidirectional lines (t5.c L211-233), the
 *            same float32 steps, .to(torch.int32) for .to(torch.long)
 *   L469-473 where(key_segment == query_segment, inside, across)
 * (num_buckets = position_bias_num_buckets, max_distance =
 * position_bias_max_distance, num_segments = segment_types.) */
#include "internal.h"

posenc_status posenc_cpmant_bucket(int64_t query_pos, int64_t key_pos, uint32_t query_segment,
                                   uint32_t key_segment, uint32_t num_buckets,
                                   uint32_t max_distance, uint32_t num_segments, uint32_t *bucket)
{
    if (!bucket)
        return POSENC_ERR_NULL;
    uint32_t b;
    posenc_status st = posenc_t5_bucket(query_pos, key_pos, num_buckets, max_distance, 1, &b);
    if (st != POSENC_OK)
        return st;
    if (num_segments == 0 || query_segment >= num_segments || key_segment >= num_segments ||
        (uint64_t)num_segments * num_segments > UINT32_MAX - (uint64_t)num_buckets)
        return POSENC_ERR_RANGE;
    *bucket = query_segment == key_segment ? b
                                           : num_buckets + query_segment * num_segments + key_segment;
    return POSENC_OK;
}
