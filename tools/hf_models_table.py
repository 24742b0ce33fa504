#!/usr/bin/env python3
"""Regenerates the table of docs/MODELS.md between its "hf-probe table"
markers: every model_type of the installed transformers (its config class's
defaults, plus each fixture in tests/data/models) probed by tools/hf_probe.py.

    PYTHONPATH=build/hf/lib /path/to/venv/bin/python tools/hf_models_table.py [--only T ...]

Outcomes: verified (every probed layer agrees with posenc), disagreement
(posenc reads it and the model does otherwise), refused: rotates (posenc
refuses the type, and the model moves q/k by position in its attention),
refused: no rotary in attention (posenc refuses it; the model's attention
q/k carry no position: absolute tables, biases, no attention, or a part the
probe does not reach), not buildable (transformers cannot build or run it
from its defaults on a CPU here). Takes several minutes.
"""
import argparse
import glob
import json
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hf_probe  # noqa: E402

ROOT = os.path.dirname(HERE)
DOC = os.path.join(ROOT, "docs", "MODELS.md")
BEGIN = "<!-- hf-probe table begin (tools/hf_models_table.py writes this part) -->"
END = "<!-- hf-probe table end -->"


class _Timeout(Exception):
    pass


def _alarm(_sig, _frm):
    raise _Timeout()


def _has_text_part(d):
    """Whether the config has a language part the probe can build (a
    vocabulary): vision-, audio- and time-series-only types have none."""
    def walk(x, depth):
        if not isinstance(x, dict) or depth > 2:
            return False
        if isinstance(x.get("vocab_size"), int):
            return True
        return any(walk(v, depth + 1) for v in x.values())
    return walk(d, 0)


#: Model types the generic probe cannot check from class defaults (it builds
#: no decoder inputs, reads only nn.Embedding position tables, finds no
#: rotary call in the family's own attention, or takes a scale-free qk_norm
#: for a position step) and that a test of their own runs against the
#: family's code; the table names that test beside the probe's reason.
CHECKED_ELSEWHERE = {
    **dict.fromkeys(["xlnet", "funnel"], "test_relsin_hf.py"),
    "roformer": "test_roformer_hf.py",
    **dict.fromkeys(["longt5", "cpmant", "vits"], "test_buckets_hf.py"),
    **dict.fromkeys(["layoutlm", "reformer", "markuplm", "tapas"], "test_ids_hf.py"),
    **dict.fromkeys(["mpnet", "deberta", "deberta-v2"], "test_schemes_hf.py"),
    **dict.fromkeys(["marian", "musicgen", "musicgen_decoder", "speech_to_text", "xglm",
                     "ctrl", "m2m_100", "nllb-moe", "pegasus", "pegasus_x"],
                    "test_sinusoid_families_hf.py"),
    **dict.fromkeys(["t5gemma", "t5_gemma_module", "t5gemma2", "t5gemma2_decoder",
                     "t5gemma2_encoder", "t5gemma2_text", "dia", "dia_decoder",
                     "dia_encoder", "muse_glimmer", "muse_glimmer_text"], "test_encdec_hf.py"),
    **dict.fromkeys(["muse_spark", "muse_spark_text", "prophetnet", "encoder-decoder"],
                    "test_prophet_hf.py"),
    **dict.fromkeys(["sam3_lite_text", "sam3_lite_text_text_model", "beam"],
                    "test_beam_hf.py"),
    **dict.fromkeys(["neomme", "ernie4_5_vl_moe", "ernie4_5_vl_moe_text"],
                    "test_mrope2_hf.py"),
    **dict.fromkeys(["fsmt", "musicgen_melody", "musicgen_melody_decoder", "trocr"],
                    "test_seq2seq_families_hf.py"),
    **dict.fromkeys(["lxmert", "esm"], "test_probe.py"),
    **dict.fromkeys(["csm", "csm_depth_decoder_model", "kyutai_speech_to_text",
                     "qwen3_omni_moe_talker_code_predictor", "evolla"],
                    "test_own_rotary_hf.py"),
}


def classify(d):
    rep = hf_probe.probe(d)
    if rep.status == hf_probe.REFUSED:
        why = rep.detail.split(": ", 2)[-1][:120]
        if not _has_text_part(d):
            return "refused: no text part", "", why
        nope = hf_probe.probe(d, assume_none=True, positions=(hf_probe.SMALL_POS,))
        if nope.status == hf_probe.DISAGREE:
            return "refused: rotates", "", why
        if nope.status == hf_probe.VERIFIED:
            return "refused: no rotary in attention", "", why
        return "refused: not buildable", "", why
    return rep.status, rep.scheme, (rep.how if rep.status == hf_probe.VERIFIED
                                    else rep.detail[:160])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--fixtures", action="store_true",
                    help="also each fixture of tests/data/models (tests/hf covers them)")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    from transformers import CONFIG_MAPPING

    import transformers

    import resource

    # at most 8 GiB of address space: a model that would take more fails to
    # allocate instead of taking the machine's memory
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    rows = []
    signal.signal(signal.SIGALRM, _alarm)
    jobs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "models", "*.json")))\
            if a.fixtures else []:
        with open(path) as f:
            d = json.load(f)
        if d.get("model_type") in CONFIG_MAPPING:
            jobs.append((d["model_type"], "fixture " + os.path.basename(path), lambda d=d: d))
    for mt in sorted(CONFIG_MAPPING.keys()):
        jobs.append((mt, "defaults", lambda mt=mt: hf_probe.default_config(mt)))
    if a.only:
        jobs = [j for j in jobs if j[0] in a.only]
    t0 = time.time()
    for mt, src, get in jobs:
        signal.alarm(a.timeout)
        try:
            status, scheme, how = classify(get())
        except _Timeout:
            status, scheme, how = hf_probe.NOT_BUILDABLE, "", f"over {a.timeout} s"
        except Exception as ex:  # noqa: BLE001
            status, scheme, how = hf_probe.NOT_BUILDABLE, "", f"{type(ex).__name__}: {ex}"[:160]
        finally:
            signal.alarm(0)
        # (ESM's class defaults have no pad_token_id: posenc refuses them, and
        # transformers cannot build them either)
        if mt in CHECKED_ELSEWHERE and status != hf_probe.VERIFIED and \
                (not status.startswith("refused") or status == "refused: no text part"):
            status, how = f"checked by tests/hf/{CHECKED_ELSEWHERE[mt]}", f"the probe: {how}"
        rows.append((mt, src, status, scheme, how.replace("|", "/").replace("\n", " ")))
        print(f"{mt:32s} {src:40s} {status:28s} {scheme} {how[:100]}", flush=True)
        if not a.no_write and len(rows) % 20 == 0:
            write(rows, t0, transformers.__version__, len(jobs))
    if not a.no_write:
        write(rows, t0, transformers.__version__, len(jobs))
    return 0


def write(rows, t0, version, n_jobs):
    counts = {}
    for r in rows:
        if r[1] == "defaults":
            counts[r[2]] = counts.get(r[2], 0) + 1
    lines = [BEGIN, "",
             (f"Partial: {len(rows)} of {n_jobs} probed. " if len(rows) < n_jobs else "") +
             f"transformers {version}, {len([r for r in rows if r[1] == 'defaults'])} "
             f"model types (config class defaults) and {len([r for r in rows if r[1] != 'defaults'])} "
             f"fixtures; {time.time() - t0:.0f} s. Model types by outcome: " +
             ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ".", "",
             "| model type | config | outcome | scheme (posenc) | how verified / why not |",
             "|---|---|---|---|---|"]
    for mt, src, status, scheme, how in rows:
        lines.append(f"| {mt} | {src} | {status} | {scheme} | {how} |")
    lines += ["", END]
    with open(DOC) as f:
        doc = f.read()
    block = "\n".join(lines)
    if BEGIN in doc:
        doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    with open(DOC, "w") as f:
        f.write(doc)


if __name__ == "__main__":
    sys.exit(main())
