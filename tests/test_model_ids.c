/* test_model_ids.c - posenc_model_layer_ids: the learned tables read by other
 * ids (LayoutLM's boxes, MarkupLM's XPaths, TAPAS's cells, Reformer's axes),
 * read from configs by the registry (src/config/config_quirks.c) and asked
 * per layer; the values are the families' config classes' defaults and the
 * keys given, as transformers 5.23's code reads them (cited in the quirks;
 * tests/hf/test_ids_hf.py runs that code). Needs jansson for the reader. */
#include "check.h"

#ifndef POSENC_HAVE_JSON

int main(void)
{
    (void)check__failed_checks;
    check_skip("model_ids", 6, "the registry's LayoutLM, MarkupLM, TAPAS and Reformer: built "
                               "without jansson", "libjansson-dev");
    return check_summary("model_ids");
}

#else

#include "model_harness.h"

static posenc_model_ids ids;
static posenc_model_table tb;

/* model = json read; ids and tb of layer 0 (both must answer). */
static int read_ids(const char *json)
{
    if (read_text(json, NULL) != POSENC_OK)
        return 0;
    memset(&ids, 0xff, sizeof ids);
    return posenc_model_layer_ids(&model, 0, &ids) == POSENC_OK &&
           posenc_model_layer_table(&model, 0, &tb) == POSENC_OK;
}

/* LayoutLMConfig: 512 positions from row 0, 1024-row box tables. */
TEST(layoutlm_boxes)
{
    CHECK(read_ids("{\"model_type\": \"layoutlm\"}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_BOX2D);
    CHECK_EQ_INT(ids.box_rows, 1024);
    CHECK_EQ_INT(ids.xpath_depth, 0); /* the other kinds' fields are 0 */
    CHECK_EQ_INT(ids.axial_shape[0], 0);
    CHECK_EQ_INT(tb.positions, 512);
    CHECK_EQ_INT(tb.offset, 0);
    CHECK_EQ_INT(tb.dim, 768);
    CHECK_EQ_INT(posenc_model_n_layer(&model), 12);
    CHECK(read_ids("{\"model_type\": \"layoutlm\", \"max_2d_position_embeddings\": 7}"));
    CHECK_EQ_INT(ids.box_rows, 7);
    /* BERT's position_embedding_type is read by no code of these families */
    CHECK(read_ids("{\"model_type\": \"layoutlm\", \"position_embedding_type\": \"relative_key\"}"));
    CHECK(strcmp(posenc_model_ignored(&model), "position_embedding_type") == 0);
}

/* MarkupLMConfig: pad_token_id 0 (rows from 1), XPath tables 50 deep. */
TEST(markuplm_xpaths)
{
    CHECK(read_ids("{\"model_type\": \"markuplm\"}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_XPATH);
    CHECK_EQ_INT(ids.xpath_depth, 50);
    CHECK_EQ_INT(ids.xpath_tags, 256);
    CHECK_EQ_INT(ids.xpath_subs, 1024);
    CHECK_EQ_INT(ids.xpath_unit, 32);
    CHECK_EQ_INT(tb.offset, 1);
    CHECK_EQ_INT(tb.offset_from_pad, 1);
    CHECK_EQ_INT(tb.positions, 512);
    /* markuplm-base: pad_token_id 1, 514 rows */
    CHECK(read_ids("{\"model_type\": \"markuplm\", \"pad_token_id\": 1, "
                   "\"max_position_embeddings\": 514, \"max_depth\": 3}"));
    CHECK_EQ_INT(tb.offset, 2);
    CHECK_EQ_INT(tb.positions, 514);
    CHECK_EQ_INT(ids.xpath_depth, 3);
    /* the pad ids must be rows of their tables: the last row is */
    CHECK(read_ids("{\"model_type\": \"markuplm\", \"max_xpath_tag_unit_embeddings\": 217}"));
    CHECK(!read_ids("{\"model_type\": \"markuplm\", \"max_xpath_tag_unit_embeddings\": 216}"));
}

/* TapasConfig: 1024 positions reset per cell; type_vocab_sizes[1], [2]. */
TEST(tapas_cells)
{
    CHECK(read_ids("{\"model_type\": \"tapas\"}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_CELL_RESET);
    CHECK_EQ_INT(ids.cell_columns, 256);
    CHECK_EQ_INT(ids.cell_rows, 256);
    CHECK_EQ_INT(tb.positions, 1024);
    CHECK(read_ids("{\"model_type\": \"tapas\", \"type_vocab_sizes\": [3, 5, 6]}"));
    CHECK_EQ_INT(ids.cell_columns, 5);
    CHECK_EQ_INT(ids.cell_rows, 6);
    CHECK(read_ids("{\"model_type\": \"tapas\", \"reset_position_index_per_cell\": false, "
                   "\"type_vocab_sizes\": [3]}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_PLAIN);
    CHECK_EQ_INT(ids.cell_columns, 0);
}

/* ReformerConfig: 6 layers (attn_layers), axial (64, 64) x (64 + 192). */
TEST(reformer_axes)
{
    CHECK(read_ids("{\"model_type\": \"reformer\"}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_AXIAL);
    CHECK_EQ_INT(ids.axial_shape[0], 64);
    CHECK_EQ_INT(ids.axial_shape[1], 64);
    CHECK_EQ_INT(ids.axial_dim[0], 64);
    CHECK_EQ_INT(ids.axial_dim[1], 192);
    CHECK_EQ_INT(tb.positions, 4096);
    CHECK_EQ_INT(tb.dim, 256);
    CHECK_EQ_INT(posenc_model_n_layer(&model), 6);
    /* the layer count is len(attn_layers), whatever num_hidden_layers says */
    CHECK(read_ids("{\"model_type\": \"reformer\", \"num_hidden_layers\": 9, "
                   "\"attn_layers\": [\"lsh\", \"local\", \"lsh\"], \"axial_pos_shape\": [3, 5], "
                   "\"hidden_size\": 8, \"axial_pos_embds_dim\": [2, 6]}"));
    CHECK_EQ_INT(posenc_model_n_layer(&model), 3);
    CHECK(strstr(posenc_model_ignored(&model), "num_hidden_layers") != NULL);
    CHECK_EQ_INT(tb.positions, 15);
    CHECK_EQ_INT(ids.axial_shape[1], 5);
    /* axial_pos_embds false: a plain table of max_position_embeddings rows */
    CHECK(read_ids("{\"model_type\": \"reformer\", \"axial_pos_embds\": false, "
                   "\"max_position_embeddings\": 100}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_PLAIN);
    CHECK_EQ_INT(tb.positions, 100);
}

/* The query's errors, and a plain learned table (BERT) answering PLAIN. */
TEST(ids_errors)
{
    CHECK(read_ids("{\"model_type\": \"bert\"}"));
    CHECK_EQ_INT(ids.kind, POSENC_IDS_PLAIN);
    CHECK_EQ_INT(posenc_model_layer_ids(&model, 0, NULL), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_model_layer_ids(NULL, 0, &ids), POSENC_ERR_NULL);
    CHECK_EQ_INT(posenc_model_layer_ids(&model, 12, &ids), POSENC_ERR_RANGE);
    /* TIPSv2's text model: a sinusoid, not a learned table */
    CHECK(read_text("{\"model_type\": \"tipsv2\", \"text_config\": {\"model_type\": "
                    "\"tipsv2_text_model\"}}",
                    NULL) == POSENC_OK);
    CHECK_EQ_INT(posenc_model_layer_ids(&model, 0, &ids), POSENC_ERR_RANGE);
    posenc_sinusoid_spec sp, want;
    CHECK_EQ_INT(posenc_model_layer_sinusoid(&model, 0, &sp), POSENC_OK);
    CHECK_EQ_INT(posenc_sinusoid_family_spec(POSENC_SINUSOID_FAIRSEQ, 0, &want), POSENC_OK);
    CHECK(sp.order == want.order && sp.freqs == want.freqs && sp.arith == want.arith &&
          sp.base == want.base && sp.offset == 0);
}

TEST(kind_names)
{
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_PLAIN), "plain") == 0);
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_BOX2D), "box2d") == 0);
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_XPATH), "xpath") == 0);
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_CELL_RESET), "cell-reset") == 0);
    CHECK(strcmp(posenc_ids_kind_name(POSENC_IDS_AXIAL), "axial") == 0);
    CHECK(strcmp(posenc_ids_kind_name((posenc_ids_kind)99), "unknown") == 0);
}

int main(void)
{
    RUN(layoutlm_boxes);
    RUN(markuplm_xpaths);
    RUN(tapas_cells);
    RUN(reformer_axes);
    RUN(ids_errors);
    RUN(kind_names);
    return check_summary("model_ids");
}

#endif
